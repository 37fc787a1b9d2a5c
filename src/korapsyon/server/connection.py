"""One client's connection: who it is, what it has been sent, and the room's send queue;
and the server's abuse limits (:class:`Limits`).

Messages to a room's clients go through one queue and one sender task, so each client gets
them in order. Frames are handed to the ASGI server's ``send`` as they are: the hot path
(several frames an action to thousands of clients) skips the Starlette wrapper, which adds
only state checks on the way.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from starlette.types import Send
from starlette.websockets import WebSocket

from ..rules.views import MODERATOR_VIEWER, ViewTracker
from .protocol import ServerMessage, encode

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
    """The server's abuse limits (``korapsyon serve --limit-...``; docs/RELIABILITY.md).

    Per connection: messages of any kind and chat posts in a window; a connection that goes
    on sending after it is refused (``flood`` times its message limit in one window) is
    closed; one whose sends have waited ``send_seconds`` (it stopped reading) is dropped.
    Per room: spectators watching at once (they need no token).
    Per request: the body's size. Per client address: HTTP connections open at once (a
    browser opens about six; a WebSocket is counted apart once upgraded), lobby API requests in a
    window, rooms created in a window, WebSockets open at once and opened in a window (a
    refusal of the last is held open for REFUSAL_HOLD seconds, so that a client opening
    and closing sockets in a loop gets one try per socket per hold); a count of 0 turns that
    per-address limit off (benchmarks from one address). Loopback is not exempt: behind a
    reverse proxy every client would be 127.0.0.1, so the proxy is named (``serve
    --trust-proxy``) and its X-Forwarded-For believed (korapsyon.server.runtime).
    """

    messages: int = 20
    messages_seconds: float = 1.0
    chats: int = 5
    chats_seconds: float = 10.0
    flood: int = 5
    body_bytes: int = 16 * 1024
    http: int = 100
    requests: int = 300
    requests_seconds: float = 60.0
    rooms: int = 30
    rooms_seconds: float = 3600.0
    sockets: int = 200
    connects: int = 60
    connects_seconds: float = 60.0
    spectators: int = 50
    send_seconds: float = 10.0


class Outbox:
    """Sends the messages of one room's connections, in order, from one task at a time.

    Putting a message never waits; the task that drains the box starts when the first
    message arrives and ends when the box is empty, so a burst (one push of views to a whole
    room) costs one task, not one per message. Each connection gets its messages in the
    order they were put.

    A send waits while the client's TCP buffers are full. A client that stops reading (a
    phone gone from the network without a word, or on purpose) would hold up the whole room;
    :meth:`unstick` (called by the server's watchdog) gives up on such a send, and on that
    client, once it has waited ``Limits.send_seconds``.
    """

    def __init__(self) -> None:
        self.items: deque[tuple[Connection, bytes | None]] = deque()
        self.task: asyncio.Task[None] | None = None
        self.sending: Connection | None = None  # the connection a send is waiting on
        self.since = 0.0  # ... since then (time.monotonic())
        self.stuck: Connection | None = None

    def put(self, conn: Connection, data: bytes | None) -> None:
        self.items.append((conn, data))
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        items = self.items
        try:
            while items:
                conn, data = items.popleft()
                if conn.broken:
                    continue
                self.sending, self.since = conn, time.monotonic()
                try:
                    if data is None:
                        await conn.shut()
                    else:
                        await conn.asgi_send({"type": "websocket.send", "text": data.decode()})
                except asyncio.CancelledError:
                    if self.stuck is not conn:
                        raise
                    asyncio.current_task().uncancel()  # type: ignore[union-attr]
                    self.stuck = None
                    conn.broken = True
                except Exception:  # the client went away; its reader notices
                    conn.broken = True
                self.sending = None
        finally:
            self.task = None
            self.sending = None
            if items:  # put while the last send was finishing
                self.task = asyncio.get_running_loop().create_task(self._drain())

    def unstick(self, now: float, seconds: float) -> Connection | None:
        """If a send has waited more than ``seconds`` on one client, give it up, and that
        client with it (sent nothing more, closed for good); returns that client."""
        conn, task = self.sending, self.task
        if conn is None or task is None or now - self.since <= seconds or self.stuck:
            return None
        self.stuck = conn
        conn.closed = True  # no more views are made for it
        conn.reason, conn.code = "too slow to read its messages", 1008
        task.cancel()
        return conn


class Connection:
    """A client in a room: a seat's player, the host, the moderator or a spectator."""

    def __init__(
        self,
        websocket: WebSocket,
        send: Send,
        *,
        role: Role,
        seat: str | None,
        host: bool,
        limits: Limits,
        outbox: Outbox,
    ) -> None:
        self.websocket = websocket
        self.asgi_send = send  # the ASGI server's own send (see Outbox)
        self.role: Role = role
        self.seat = seat  # the seat's name, for players
        self.host = host
        self.outbox = outbox
        self.tracker: ViewTracker | None = None
        self.personal: bytes | None = None  # the JSON of its own part of the view
        self.sent_personal = b""  # ... as it was last sent
        self.core: Mapping[str, Any] | None = None  # the shared part it was last sent
        self.cast: int | None = None  # ... and the vote count in it
        self.last_timer: dict[str, Any] | None = None
        self.closed = False  # no more messages will be sent
        self.broken = False  # sending failed: the client is gone
        self.messages = RateLimit(limits.messages, limits.messages_seconds)
        self.refusals = RateLimit(limits.messages * limits.flood, limits.messages_seconds)
        self.chat = RateLimit(limits.chats, limits.chats_seconds)
        self.reason = ""  # why the server closed it (the close frame's reason)
        self.code = 1000

    @property
    def viewer(self) -> str | None:
        """Who this connection sees the game as: a seat name, None (public) or the
        moderator."""
        if self.role == "moderator":
            return MODERATOR_VIEWER
        return self.seat

    def send(self, message: ServerMessage) -> None:
        self.send_raw(encode(message))

    def send_raw(self, data: bytes) -> None:
        if not self.closed:
            self.outbox.put(self, data)

    def close(self, reason: str = "", code: int = 1000) -> None:
        """Send nothing more and close the WebSocket (with ``code`` and ``reason``) after
        what was already put."""
        if not self.closed:
            self.closed = True
            self.reason, self.code = reason, code
            self.outbox.put(self, None)

    async def shut(self) -> None:
        with contextlib.suppress(Exception):
            await self.websocket.close(self.code, self.reason)
