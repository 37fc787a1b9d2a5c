"""A real server on a loopback port, and WebSocket clients that play from their views
(tests' helpers)."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from korapsyon.bots.random_bot import random_wire_action
from korapsyon.harness import spawn
from korapsyon.rules import Game
from korapsyon.server import runtime
from korapsyon.server.app import build_app
from korapsyon.server.connection import Limits
from korapsyon.server.frames import merged
from korapsyon.server.hub import Hub
from korapsyon.server.shards import Shards
from korapsyon.store.sql import SqlStore
from tests.server.inprocess import Local, Socket, game_in

HANG_SECONDS = 300.0
"""How long a wait for something that must happen (a server up, a game over, a close
counted) may take before the test says it hung: a safety net only a hang reaches, never a
speed requirement (a loaded CI machine may be many times slower than this one)."""

free_port = spawn.free_port  # the server tests take it from here


@dataclass
class Live:
    """A running server: its base URL and its store."""

    url: str
    store: SqlStore
    server: uvicorn.Server
    thread: threading.Thread
    hub: Hub

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://") + "/ws"

    def game(self, code: str) -> Game:
        """The game running in room ``code`` (server side)."""
        return game_in(self.hub, code)

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=10)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.store.close()


@contextmanager
def running(
    db_url: str,
    *,
    port: int | None = None,
    limits: Limits | None = None,
    proxies: tuple[str, ...] = ("127.0.0.1",),
    origins: tuple[str, ...] = (),
    public_url: str | None = None,
    shards: Shards | None = None,
    **guards: Any,
) -> Iterator[Live]:
    """A server over ``db_url`` (migrated, restored) until the block ends, run by uvicorn as
    ``serve`` runs it, trusting X-Forwarded-For from ``proxies`` (by default from loopback:
    the tests speak from made-up addresses, as through a reverse proxy). Machines play
    faster than people: by default the per-connection message limit is raised, and the
    WebSockets an address may open in a minute are not limited (every test client is on
    loopback). ``origins``, ``public_url``: as ``serve --allow-origin``, ``--public-url``;
    ``shards``: this server is one of several workers (``serve --workers``); ``guards``:
    :func:`korapsyon.server.runtime.config`'s (request_seconds, per_address)."""
    store = SqlStore(db_url)
    port = port or free_port()
    limits = limits or Limits(messages=1000, connects=0)
    base_url = public_url or f"http://127.0.0.1:{port}"
    app = build_app(store, base_url=base_url, limits=limits, origins=origins, shards=shards)
    server = uvicorn.Server(runtime.config(app, "127.0.0.1", port, proxies=proxies, **guards))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + HANG_SECONDS
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.01)
    live = Live(f"http://127.0.0.1:{port}", store, server, thread, app.state.hub)
    try:
        yield live
    finally:
        live.stop()


def make_room(
    live: Live | Local, players: list[str], *, bots: int = 0, settings: dict[str, Any] | None = None
) -> tuple[str, str, dict[str, str]]:
    """A room with these people seated (and bots): (code, host token, name -> seat token)."""
    with live.http() as http:
        body = {"settings": settings or {"timers": False, "bot_delay": [0.0, 0.0]}}
        created = http.post("/api/rooms", json=body).json()
        code, host = created["code"], created["host_token"]
        tokens = {}
        for name in players:
            ticket = http.post(f"/api/rooms/{code}/seats", json={"name": name}).json()
            tokens[ticket["name"]] = ticket["token"]
    add_bots(live, code, host, bots)
    return code, host, tokens


def add_bots(live: Live | Local, code: str, host: str, count: int) -> None:
    """The host adds ``count`` heuristic bot seats."""
    with live.http() as http:
        for _ in range(count):
            http.post(
                f"/api/rooms/{code}/bots",
                json={"kind": "heuristic"},
                headers={"authorization": f"Bearer {host}"},
            ).raise_for_status()


def start(live: Live | Local, code: str, host: str) -> None:
    with live.http() as http:
        http.post(
            f"/api/rooms/{code}/start", headers={"authorization": f"Bearer {host}"}
        ).raise_for_status()


@dataclass
class Client:
    """One WebSocket client and everything it has been sent."""

    ws: ClientConnection | Socket
    received: list[dict[str, Any]] = field(default_factory=list)  # every message but covers
    frames: list[str] = field(default_factory=list)  # every frame as it came, covers too
    state: dict[str, Any] | None = None
    timeline: list[dict[str, Any]] = field(default_factory=list)
    next_id: int = 1
    acks: list[dict[str, Any]] = field(default_factory=list)  # carried by the last update

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def receive(self, timeout: float = 10) -> dict[str, Any]:
        """The next message. The acks an update carries come next, one by one, as if they
        had been sent alone after it."""
        if self.acks:
            return self.acks.pop(0)
        while True:  # a cover frame says nothing: skip it
            frame = await asyncio.wait_for(self.ws.recv(), timeout)
            assert isinstance(frame, str)
            self.frames.append(frame)
            message: dict[str, Any] = json.loads(frame)
            if message["type"] != "cover":
                break
        self.received.append(message)
        if message["type"] == "view":
            self.state, self.timeline = message["state"], list(message["timeline"])
        elif message["type"] == "update":
            self.state = merged(self.state or {}, message["state"])  # (protocol 4: the changes)
            self.timeline += message["timeline"]
            self.acks = list(message.get("acks", []))
        return message

    async def until(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        while True:
            message = await self.receive(timeout)
            if message["type"] == kind:
                return message

    async def send_numbered(self, message: dict[str, Any]) -> int:
        """Send a message that takes an id (act, chat, timer, ping) with the next one."""
        ident = self.next_id
        self.next_id += 1
        await self.send({**message, "id": ident})
        return ident

    async def request(self, message: dict[str, Any], timeout: float = 10) -> dict[str, Any]:
        """Send an act/chat/timer message and wait for its ack or error."""
        ident = await self.send_numbered(message)
        while True:
            answer = await self.receive(timeout)
            if answer["type"] in ("ack", "error") and answer.get("id") == ident:
                return answer


class Reachable(Protocol):
    """A server's WebSocket address (a :class:`Live` server, or a worker of another)."""

    @property
    def ws_url(self) -> str: ...


async def open_client(live: Reachable | Local, code: str, **hello: Any) -> Client:
    """A client of ``live`` (a server, or the server in process) that said hello."""
    ws = (
        await live.connect()
        if isinstance(live, Local)
        else await connect(live.ws_url, max_size=2**20)
    )
    client = Client(ws)
    await client.send({"type": "hello", "room": code, **hello})
    welcome = await client.receive()
    assert welcome["type"] == "welcome", welcome
    return client


def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A random legal action from a player view's choices (None: nothing to do now)."""
    you = state["you"]
    if not you["to_act"] or you["submitted"] is not None or not you["choices"]:
        return None
    return random_wire_action(you["choices"], you["name"], rng)


async def play(
    clients: dict[str, Client],
    host: Client,
    rng: random.Random,
    *,
    stop_after: int | None = None,
) -> int:
    """Every client plays from its own view until the game ends (or ``stop_after``
    actions were acknowledged); the host closes each discussion. Returns the acks."""
    done = asyncio.Event()
    acked = 0

    async def player(client: Client) -> None:
        nonlocal acked
        waiting = False
        while not done.is_set():
            message = await client.receive(timeout=20)
            if message["type"] == "error":
                raise AssertionError(message)
            if message["type"] == "ack":
                waiting = False
                acked += 1
                if stop_after is not None and acked >= stop_after:
                    done.set()
            state = client.state
            if state is None:
                continue
            if state["status"] == "finished":
                done.set()
                return
            action = None if waiting else choose(state, rng)
            if action is not None:
                await client.send({"type": "act", "id": 1, "action": action})
                waiting = True

    players = [player(c) for c in clients.values()]
    await run_until(done, [*players, close_discussions(host, done)])
    return acked


async def run_until(done: asyncio.Event, parts: list[Coroutine[Any, Any, None]]) -> None:
    """Run a game's clients (``parts``) until ``done`` is set, then stop them all; the
    first one that failed makes this fail with its error."""
    tasks = [asyncio.ensure_future(part) for part in parts]
    await done.wait()
    await asyncio.sleep(0)  # what the last message set off
    for task in tasks:
        task.cancel()
    for result in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
            raise result


async def close_discussions(host: Client, done: asyncio.Event, timeout: float = 20) -> None:
    """The host's part of a game: end each discussion as it opens, until the game is over
    (then set ``done``)."""
    waiting = False
    while not done.is_set():
        message = await host.receive(timeout=timeout)
        if message["type"] in ("ack", "error"):
            waiting = False
        state = host.state
        if state is None:
            continue
        if state["status"] == "finished":
            done.set()
            return
        if not waiting and state["step"] == "discussion":
            end = {"action": "end_discussion", "player": "@host"}
            await host.send_numbered({"type": "act", "action": end})
            waiting = True
