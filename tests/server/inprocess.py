"""The server in process: the same application as ``serve`` runs, driven by Starlette's
``TestClient`` (HTTP and WebSocket, no socket, no port), over any store. Tests that do not
need a real socket or process use :func:`in_process` where others use ``live.running``;
what it yields answers to the same names as a live server (``http()``, ``hub``, ``store``,
``game()``), and :func:`tests.server.live.open_client` opens its WebSockets in process.
Synchronous tests (the attack tests, which hypothesis drives example by example) open
theirs with :meth:`Local.open`. With ``proxies``, the application is the one uvicorn loads
from ``serve``'s configuration (believing X-Forwarded-For from those proxies, as
``live.running`` does), so a test may speak from made-up addresses."""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Iterator, MutableMapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as Pending
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
from starlette.exceptions import StarletteDeprecationWarning
from starlette.types import Message
from websockets.exceptions import ConnectionClosedError, ConnectionClosedOK
from websockets.frames import Close

from korapsyon.rules import Game
from korapsyon.server import runtime
from korapsyon.server.app import build_app
from korapsyon.server.connection import Limits
from korapsyon.server.hub import Hub
from korapsyon.store import MemoryStore, SqlStore, Store

with warnings.catch_warnings():  # Starlette 1.10 asks for the httpx2 fork by name; the
    warnings.simplefilter("ignore", StarletteDeprecationWarning)  # project's httpx serves
    from starlette.testclient import TestClient, WebSocketTestSession

BASE_URL = "http://testserver"
PROXY = ("127.0.0.1", 50000)  # the client's address when the application believes a proxy


class _Frames:
    """What both sockets do with a message the application sent: its text (or bytes), or,
    for a close, the ``websockets`` exception a real client would raise."""

    close_code: int | None
    close_reason: str

    def _frame(self, message: MutableMapping[str, Any]) -> str | bytes:
        if message["type"] == "websocket.close":
            self.close_code = message.get("code", 1000)
            self.close_reason = message.get("reason") or ""
            self._closed()
        data: str | bytes | None = message.get("text")
        return data if data is not None else message["bytes"]

    def _closed(self) -> None:
        close = Close(self.close_code or 1000, self.close_reason)
        kind = ConnectionClosedOK if close.code in (1000, 1001) else ConnectionClosedError
        raise kind(close, None)


class Socket(_Frames):
    """A client's WebSocket in process, with the calls of a ``websockets`` client that the
    tests use (``send``, ``recv``, ``close``; a close from the server raises
    ``ConnectionClosed`` with its code and reason)."""

    def __init__(self, session: WebSocketTestSession) -> None:
        self.session = session
        self.close_code: int | None = None
        self.close_reason = ""
        self.pending: Future[Message] | None = None  # a receive that outlives its waiter

    async def send(self, data: str | bytes) -> None:
        key = "text" if isinstance(data, str) else "bytes"
        await self._call(self.session._receive_tx.send, {"type": "websocket.receive", key: data})

    async def recv(self) -> str | bytes:
        if self.close_code is not None:
            self._closed()
        if self.pending is None:  # (a wait that timed out leaves its receive for the next)
            self.pending = self.session.portal.start_task_soon(self.session._send_rx.receive)
        message = await asyncio.shield(asyncio.wrap_future(self.pending))
        self.pending = None
        return self._frame(message)

    async def close(self) -> None:
        if self.close_code is None:
            self.close_code = 1000
            await self.send_disconnect()
        await asyncio.to_thread(self.session.__exit__, None, None, None)

    async def send_disconnect(self) -> None:
        await self._call(
            self.session._receive_tx.send, {"type": "websocket.disconnect", "code": 1000}
        )

    async def _call(self, function: Any, *args: Any) -> Any:
        return await asyncio.wrap_future(self.session.portal.start_task_soon(function, *args))


class SyncSocket(_Frames):
    """A client's WebSocket in process with the calls of a ``websockets`` synchronous client
    (``send``, ``recv`` with a timeout, ``close``); a close from the server raises
    ``ConnectionClosed`` with its code and reason."""

    def __init__(self, session: WebSocketTestSession) -> None:
        self.session = session
        self.close_code: int | None = None
        self.close_reason = ""
        self.pending: Future[Message] | None = None  # a receive that outlived its timeout
        self.exited = False

    def send(self, data: str | bytes) -> None:
        if self.close_code is not None:
            self._closed()
        key = "text" if isinstance(data, str) else "bytes"
        self.session.send({"type": "websocket.receive", key: data})

    def recv(self, timeout: float | None = None) -> str | bytes:
        """The next frame; ``TimeoutError`` if none came within ``timeout`` seconds."""
        if self.close_code is not None:
            self._closed()
        if self.pending is None:
            self.pending = self.session.portal.start_task_soon(self.session._send_rx.receive)
        try:
            message = self.pending.result(timeout)
        except Pending:
            raise TimeoutError(f"no frame within {timeout} s") from None
        self.pending = None
        return self._frame(message)

    def close(self) -> None:
        """Say goodbye (if the server has not closed) and end the session."""
        if self.exited:
            return
        self.exited = True
        if self.pending is not None:
            self.pending.cancel()
        self.session.__exit__(None, None, None)


@dataclass
class Local:
    """The server in process: its test client, store and hub."""

    client: TestClient
    store: Store
    hub: Hub
    url: str = BASE_URL
    opened: list[SyncSocket] = field(default_factory=list)  # closed when the block ends

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://") + "/ws"

    def game(self, code: str) -> Game:
        """The game running in room ``code`` (server side)."""
        return game_in(self.hub, code)

    @contextmanager
    def http(self) -> Iterator[TestClient]:
        yield self.client

    def client_with(self, headers: dict[str, str]) -> httpx.Client:
        """An HTTP client of the application that sends ``headers`` with every request."""
        return httpx.Client(base_url=self.url, transport=self.client._transport, headers=headers)

    def send_in_chunks(
        self, method: str, path: str, chunks: list[bytes], headers: dict[str, str]
    ) -> tuple[int, bytes]:
        """A request whose body comes in ``chunks``, one ASGI message each (as a server
        hands on a body streamed without a length; the test client sends a body whole):
        (status, body of the answer)."""
        messages: list[Message] = [
            {"type": "http.request", "body": chunk, "more_body": True} for chunk in chunks
        ]
        messages.append({"type": "http.request", "body": b"", "more_body": False})
        answer: list[Message] = []

        async def receive() -> Message:
            return messages.pop(0) if messages else {"type": "http.disconnect"}

        async def send(message: Message) -> None:
            answer.append(message)

        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
            "query_string": b"", "root_path": "", "server": ("testserver", 80),
            "client": self.client._transport.client,
            "headers": [(b"host", b"testserver")]
            + [(k.lower().encode(), v.encode()) for k, v in headers.items()],
            "state": dict(self.client.app_state),
        }  # fmt: skip
        portal = self.client.portal  # (the one the application runs in: the block's)
        assert portal is not None
        portal.call(self.client.app, scope, receive, send)
        status = next(m["status"] for m in answer if m["type"] == "http.response.start")
        body = b"".join(m.get("body", b"") for m in answer if m["type"] == "http.response.body")
        return status, body

    async def connect(self, headers: dict[str, str] | None = None) -> Socket:
        """A new WebSocket to ``/ws``, accepted."""
        session = self.client.websocket_connect("/ws", headers=dict(headers or {}))
        await asyncio.to_thread(session.__enter__)
        return Socket(session)

    def open(self, headers: dict[str, str] | None = None) -> SyncSocket:
        """A new WebSocket to ``/ws``, accepted, for a synchronous test (closed at the
        latest when the block of :func:`in_process` ends)."""
        session = self.client.websocket_connect("/ws", headers=dict(headers or {}))
        socket = SyncSocket(session.__enter__())
        self.opened.append(socket)
        return socket


def game_in(hub: Hub, code: str) -> Game:
    """The game running in room ``code`` of ``hub``."""
    session = hub.rooms[code].session
    assert session is not None
    return session.game


@contextmanager
def in_process(
    db_url: str | None = None,
    *,
    limits: Limits | None = None,
    proxies: tuple[str, ...] = (),
    **options: Any,
) -> Iterator[Local]:
    """The application over ``db_url``'s store (None: in memory), migrated and restored,
    until the block ends. Limits as ``live.running`` sets them; ``proxies``: the client
    is 127.0.0.1 and the application uvicorn's, believing X-Forwarded-For from these
    (``serve --trust-proxy``); ``options``: build_app's."""
    store: Store = MemoryStore() if db_url is None else SqlStore(db_url)
    limits = limits or Limits(messages=1000, connects=0)
    app = build_app(store, base_url=BASE_URL, limits=limits, **options)
    asgi: Any = app
    client = ("testclient", 50000)
    if proxies:
        config = runtime.config(app, PROXY[0], 0, proxies=proxies)
        config.load()  # (what uvicorn runs: here, build_app's app behind its proxy headers)
        asgi, client = config.loaded_app, PROXY
    try:
        with TestClient(asgi, base_url=BASE_URL, client=client) as test_client:
            local = Local(test_client, store, app.hub)
            try:
                yield local
            finally:
                with ExitStack() as closing:  # (each, whatever another raises)
                    for socket in local.opened:
                        closing.callback(socket.close)
    finally:
        store.close()
