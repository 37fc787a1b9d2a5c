"""Abuse limits per client address: lobby API requests, rooms created and WebSockets opened
in a window, and WebSockets open at once (the numbers are
:class:`~korapsyon.server.connection.Limits`).

An address is the client's IP address as uvicorn reports it (behind a reverse proxy named
by ``serve --trust-proxy``, the one it gives in X-Forwarded-For). Addresses whose window has
emptied are forgotten, so the memory held is bounded by the addresses seen in one window.
"""

from __future__ import annotations

import math
import time

from starlette.types import Scope

from .connection import Limits, RateLimit


def address_of(scope: Scope) -> str:
    """The client's address (``"?"`` when the server does not know it)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


class PerAddress:
    """At most ``count`` events per address in any ``seconds`` window (0: no limit)."""

    def __init__(self, count: int, seconds: float) -> None:
        self.count = count
        self.seconds = seconds
        self.windows: dict[str, RateLimit] = {}
        self.sweep_at = 0.0

    def allow(self, address: str) -> bool:
        if self.count <= 0:
            return True
        now = time.monotonic()
        if now >= self.sweep_at:
            self._sweep(now)
        window = self.windows.get(address)
        if window is None:
            window = self.windows[address] = RateLimit(self.count, self.seconds)
        return window.allow()

    def retry_after(self, address: str) -> int:
        """Whole seconds until ``address`` may try again."""
        window = self.windows.get(address)
        if window is None or not window.times:
            return 0
        return max(1, math.ceil(window.times[0] + self.seconds - time.monotonic()))

    def _sweep(self, now: float) -> None:
        stale = [a for a, w in self.windows.items() if not w.times or now - w.times[-1] > w.seconds]
        for address in stale:
            del self.windows[address]
        self.sweep_at = now + self.seconds


class AddressLimits:
    """The per-address limits of one server."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.requests = PerAddress(limits.requests, limits.requests_seconds)
        self.rooms = PerAddress(limits.rooms, limits.rooms_seconds)
        self.connects = PerAddress(limits.connects, limits.connects_seconds)
        self.sockets: dict[str, int] = {}  # WebSockets open now, per address

    def open_socket(self, address: str) -> bool:
        """Count a new WebSocket from ``address``; False (and not counted) if it has too
        many open already."""
        count = self.sockets.get(address, 0)
        if 0 < self.limits.sockets <= count:
            return False
        self.sockets[address] = count + 1
        return True

    def close_socket(self, address: str) -> None:
        count = self.sockets.get(address, 0) - 1
        if count > 0:
            self.sockets[address] = count
        else:
            self.sockets.pop(address, None)
