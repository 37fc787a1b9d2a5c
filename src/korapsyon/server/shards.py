"""Rooms spread over worker processes (``korapsyon serve --workers N``).

Each worker is a whole server (its own event loop, views and store writer) on its own port,
and owns the rooms whose code hashes to it; the store is shared. Any worker creates rooms
(a new room's random code picks its owner, which reads it from the store on first use), and
any worker answers a request for a room it does not own by naming the owner, so every
room's connections meet in one process. With one worker (the default) this is a no-op.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Shards:
    """The workers' public base URLs, in order, and which one this process is."""

    urls: tuple[str, ...]
    index: int = 0

    @classmethod
    def single(cls, base_url: str) -> Shards:
        return cls((base_url.rstrip("/"),))

    @property
    def base_url(self) -> str:
        """This worker's own base URL."""
        return self.urls[self.index]

    def owner(self, code: str) -> int:
        """The worker that owns room ``code`` (stable across restarts for the same count)."""
        return zlib.crc32(code.upper().encode()) % len(self.urls)

    def owns(self, code: str) -> bool:
        return len(self.urls) == 1 or self.owner(code) == self.index

    def url_of(self, code: str) -> str:
        """The base URL of the worker that owns room ``code``."""
        return self.urls[self.owner(code)]
