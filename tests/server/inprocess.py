"""The server in process: the same application as ``serve`` runs, driven by Starlette's
``TestClient`` (HTTP and WebSocket, no socket, no port), over any store. Tests that do not
need a real socket or process use :func:`in_process` where others use ``live.running``;
what it yields answers to the same names as a live server (``http()``, ``hub``, ``store``,
``game()``), and :func:`tests.server.live.open_client` opens its WebSockets in process."""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from starlette.exceptions import StarletteDeprecationWarning
from starlette.types import Message
from websockets.exceptions import ConnectionClosedError, ConnectionClosedOK
from websockets.frames import Close

from korapsyon.rules import Game
from korapsyon.server.app import build_app
from korapsyon.server.connection import Limits
from korapsyon.server.hub import Hub
from korapsyon.store import MemoryStore, SqlStore, Store

with warnings.catch_warnings():  # Starlette 1.10 asks for the httpx2 fork by name; the
    warnings.simplefilter("ignore", StarletteDeprecationWarning)  # project's httpx serves
    from starlette.testclient import TestClient, WebSocketTestSession

BASE_URL = "http://testserver"


class Socket:
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
        if message["type"] == "websocket.close":
            self.close_code = message.get("code", 1000)
            self.close_reason = message.get("reason") or ""
            self._closed()
        data: str | bytes | None = message.get("text")
        return data if data is not None else message["bytes"]

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

    def _closed(self) -> None:
        close = Close(self.close_code or 1000, self.close_reason)
        kind = ConnectionClosedOK if close.code in (1000, 1001) else ConnectionClosedError
        raise kind(close, None)


@dataclass
class Local:
    """The server in process: its test client, store and hub."""

    client: TestClient
    store: Store
    hub: Hub
    url: str = BASE_URL

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://") + "/ws"

    def game(self, code: str) -> Game:
        """The game running in room ``code`` (server side)."""
        return game_in(self.hub, code)

    @contextmanager
    def http(self) -> Iterator[TestClient]:
        yield self.client

    async def connect(self, headers: dict[str, str] | None = None) -> Socket:
        """A new WebSocket to ``/ws``, accepted."""
        session = self.client.websocket_connect("/ws", headers=dict(headers or {}))
        await asyncio.to_thread(session.__enter__)
        return Socket(session)


def game_in(hub: Hub, code: str) -> Game:
    """The game running in room ``code`` of ``hub``."""
    session = hub.rooms[code].session
    assert session is not None
    return session.game


@contextmanager
def in_process(
    db_url: str | None = None, *, limits: Limits | None = None, **options: Any
) -> Iterator[Local]:
    """The application over ``db_url``'s store (None: in memory), migrated and restored,
    until the block ends. Limits as ``live.running`` sets them; ``options``: build_app's."""
    store: Store = MemoryStore() if db_url is None else SqlStore(db_url)
    limits = limits or Limits(messages=1000, connects=0)
    app = build_app(store, base_url=BASE_URL, limits=limits, **options)
    try:
        with TestClient(app, base_url=BASE_URL) as client:
            yield Local(client, store, app.hub)
    finally:
        store.close()
