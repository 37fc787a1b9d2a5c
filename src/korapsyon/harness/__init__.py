"""Harnesses that run the server under stress and measure it (benchmarks and attacks); they
are tools for the project's engineers, not part of a game."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


@contextlib.contextmanager
def target(url: str | None) -> Iterator[str]:
    """The base URL of the server to attack: ``url`` (a running server), or a
    ``korapsyon serve`` with its default limits started for the attack and stopped after
    it (as an attacker would meet a server)."""
    if url is not None:
        yield url.rstrip("/")
        return
    from ..loadtest import spawned_server

    with spawned_server(options=()) as (base, _):
        yield base
