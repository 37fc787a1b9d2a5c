"""Helpers of the attack tests: the server's application in process (:func:`attacked`:
Starlette's TestClient, the application uvicorn loads for ``korapsyon serve``, configurable
abuse limits) or a live server run exactly as ``serve`` runs it (:func:`serving`: uvicorn's
options, the 64 KB WebSocket cap, real sockets), a client for either, a bot game played
beside the attacks, and a game's state to compare before and after them."""

from __future__ import annotations

import json
import socket
import time
from contextlib import AbstractContextManager, ExitStack
from typing import Any

from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.uri import parse_uri

from korapsyon.record import record_of, write_record
from korapsyon.server.connection import Limits
from tests.server.inprocess import Local, SyncSocket, in_process
from tests.server.live import Live, add_bots, running, start

Server = Live | Local
"""A server the attacks reach: live, or in process."""

PROXY = "127.0.0.1"  # the reverse proxy the in-process application believes
ANSWERS = ("ack", "error", "pong")
"""Every client message gets exactly one of these (the others are pushes)."""


def attacked(
    db_url: str | None = None, limits: Limits | None = None
) -> AbstractContextManager[Local]:
    """The application in process over ``db_url``'s store (None: in memory) with
    ``serve``'s default limits (the tests' :func:`in_process` raises the message limit),
    but for the WebSockets an address may open in a minute (``test_spectator_churn``
    checks that limit). It believes X-Forwarded-For from its client, as behind a reverse
    proxy: a test speaks from made-up addresses."""
    return in_process(db_url, limits=limits or Limits(connects=0), proxies=(PROXY,))


def serving(db_url: str, limits: Limits | None = None) -> AbstractContextManager[Live]:
    """A server over ``db_url`` on a loopback port with the limits of :func:`attacked`,
    for the attacks that need a real socket."""
    return running(db_url, limits=limits or Limits(connects=0))


def human_room(live: Server, names: list[str]) -> tuple[str, str, dict[str, str]]:
    """A started room of people only, no timers: nothing moves unless a client acts."""
    with live.http() as http:
        body = {"settings": {"timers": False, "bot_delay": [0.0, 0.0]}}
        created = http.post("/api/rooms", json=body).json()
        code, host = created["code"], created["host_token"]
        tokens = {}
        for name in names:
            ticket = http.post(f"/api/rooms/{code}/seats", json={"name": name}).json()
            tokens[ticket["name"]] = ticket["token"]
    start(live, code, host)
    return code, host, tokens


def bot_room(live: Server, delay: float = 0.01) -> tuple[str, str]:
    """A started room of nine bots that plays on by itself (a game beside the attacks):
    each discussion closes after a moment (R-72). (code, host token)"""
    settings = {"timers": True, "durations": {"discussion": 0.1}, "bot_delay": [0.0, delay]}
    with live.http() as http:
        body = {"settings": settings}
        created = http.post("/api/rooms", json=body).json()
    code: str = created["code"]
    add_bots(live, code, created["host_token"], 9)
    start(live, code, created["host_token"])
    return code, created["host_token"]


def wait_finished(live: Server, code: str, host: str, timeout: float = 60) -> None:
    """Until room ``code``'s game is over; then its record (downloaded with the ``host``
    token) must replay to the same end."""
    deadline = time.monotonic() + timeout
    while live.hub.rooms[code].status != "finished":
        assert time.monotonic() < deadline, f"room {code} did not finish its game"
        time.sleep(0.05)
    game = live.game(code)
    assert game.is_over
    with live.http() as http:
        answer = http.get(f"/api/rooms/{code}/record", headers={"authorization": f"Bearer {host}"})
    assert answer.status_code == 200
    assert json.loads(answer.content) == json.loads(write_record(record_of(game)))


def snapshot(live: Server, code: str) -> bytes:
    """Everything a game is: its record (setup and every accepted action)."""
    return write_record(record_of(live.game(code)))


class Socket:
    """A synchronous WebSocket client (hypothesis drives it example by example), over a
    real socket to a live server or in process."""

    def __init__(
        self, live: Server, hello: dict[str, Any] | None = None, address: str | None = None
    ) -> None:
        """Connect (as ``address``, through X-Forwarded-For, which the server believes from
        its proxy) and say ``hello``."""
        self.stack = ExitStack()
        headers = {"x-forwarded-for": address} if address else None
        self.ws: ClientConnection | SyncSocket
        if isinstance(live, Local):
            self.ws = live.open(headers)
            self.stack.callback(self.ws.close)
        else:
            opened = connect(
                live.ws_url, max_size=2**22, open_timeout=10, additional_headers=headers
            )
            self.ws = self.stack.enter_context(opened)
        self.welcome: dict[str, Any] | None = None
        self.pending: list[dict[str, Any]] = []  # acks carried by the last update
        if hello is not None:
            self.send(json.dumps({"type": "hello", **hello}))
            self.welcome = self.next(("welcome", "error"))
            assert self.welcome["type"] == "welcome", self.welcome

    def send(self, data: str | bytes) -> None:
        self.ws.send(data)

    def next(self, kinds: tuple[str, ...] = ANSWERS, timeout: float = 10) -> dict[str, Any]:
        """The next message of one of these kinds (pushes in between are skipped). The acks
        an update carries count as if they came alone right after it."""
        deadline = time.monotonic() + timeout
        while True:
            if self.pending:
                message = self.pending.pop(0)
            else:
                left = deadline - time.monotonic()
                assert left > 0, f"no {'/'.join(kinds)} within {timeout} s"
                message = json.loads(self.ws.recv(timeout=left))
                if message["type"] == "update":
                    self.pending = [{"type": "ack", **a} for a in message.get("acks", [])]
            if message["type"] in kinds:
                return message

    def closed(self, timeout: float = 10) -> tuple[int | None, str, list[dict[str, Any]]]:
        """Read until the server closes: (close code, reason, the messages before)."""
        before = []
        deadline = time.monotonic() + timeout
        try:
            while True:
                left = deadline - time.monotonic()
                assert left > 0, "the server did not close the connection"
                before.append(json.loads(self.ws.recv(timeout=left)))
        except ConnectionClosed as closed:
            received = closed.rcvd
            if received is None:
                return None, "", before
            return received.code, received.reason, before

    def alive(self) -> bool:
        """The connection is open and answers: a ping gets its pong."""
        try:
            self.send(json.dumps({"type": "ping", "id": 424242}))
            return bool(self.next(("pong",))["id"] == 424242)
        except ConnectionClosed:
            return False

    def close(self) -> None:
        self.stack.close()


class Deaf:
    """A WebSocket client that never reads after the handshake, with a tiny receive buffer:
    a phone gone from the network without a word (or an attacker doing it on purpose)."""

    def __init__(self, live: Live, hello: dict[str, Any]) -> None:
        self.raw = socket.socket()
        self.raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        self.raw.connect(("127.0.0.1", int(live.url.rsplit(":", 1)[1])))
        self.protocol = ClientProtocol(parse_uri(live.ws_url))
        self.protocol.send_request(self.protocol.connect())
        self.raw.sendall(b"".join(self.protocol.data_to_send()))
        self.raw.settimeout(10)
        while not self.protocol.events_received():  # the handshake's answer, and no more
            self.protocol.receive_data(self.raw.recv(1))
        assert self.protocol.handshake_exc is None
        self.send({"type": "hello", **hello})

    def send(self, message: dict[str, Any]) -> None:
        self.protocol.send_text(json.dumps(message).encode())
        self.raw.sendall(b"".join(self.protocol.data_to_send()))

    def close(self) -> None:
        self.raw.close()
