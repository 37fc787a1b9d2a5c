"""One client's connection: who it is, what it has been sent, and its own send queue.

Messages to a client go through its queue and one sender task, so they arrive in order and a
slow client never holds up the room; a client whose queue overflows is disconnected.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Literal

from starlette.websockets import WebSocket

from ..rules.views import ViewTracker
from .protocol import ServerMessage, encode

MAX_QUEUE = 256
Role = Literal["player", "host", "moderator", "spectator"]


class RateLimit:
    """At most ``count`` events in any ``seconds`` window."""

    def __init__(self, count: int, seconds: float) -> None:
        self.count = count
        self.seconds = seconds
        self.times: deque[float] = deque()

    def allow(self) -> bool:
        now = time.monotonic()
        times = self.times
        while times and now - times[0] > self.seconds:
            times.popleft()
        if len(times) >= self.count:
            return False
        times.append(now)
        return True


@dataclass(frozen=True)
class Limits:
    """Abuse limits per connection: messages of any kind, and chat posts."""

    messages: int = 20
    messages_seconds: float = 1.0
    chats: int = 5
    chats_seconds: float = 10.0


class Connection:
    """A client in a room: a seat's player, the host, the moderator or a spectator."""

    def __init__(
        self, websocket: WebSocket, role: Role, seat: str | None, host: bool, limits: Limits
    ) -> None:
        self.websocket = websocket
        self.role: Role = role
        self.seat = seat  # the seat's name, for players
        self.host = host
        self.tracker: ViewTracker | None = None
        self.personal: bytes | None = None  # the JSON of its own part of the view
        self.last_timer: dict[str, Any] | None = None
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.closed = False
        self.messages = RateLimit(limits.messages, limits.messages_seconds)
        self.chat = RateLimit(limits.chats, limits.chats_seconds)
        self.sender = asyncio.get_running_loop().create_task(self._send_loop())

    @property
    def viewer(self) -> str | None:
        """Who this connection sees the game as: a seat name, None (public) or the
        moderator."""
        from ..rules.views import MODERATOR_VIEWER

        if self.role == "moderator":
            return MODERATOR_VIEWER
        return self.seat

    def send(self, message: ServerMessage) -> None:
        self.send_raw(encode(message))

    def send_raw(self, data: bytes) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:  # a client that does not read: let it go
            self.close()
            return
        self.queue.put_nowait(data)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    async def _send_loop(self) -> None:
        websocket = self.websocket
        try:
            while True:
                data = await self.queue.get()
                if data is None:
                    break
                await websocket.send_text(data.decode())
        except Exception:
            self.closed = True
        finally:
            with contextlib.suppress(Exception):
                await websocket.close()
