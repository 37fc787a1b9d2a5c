"""The load benchmark: many rooms of simulated players over real WebSockets on loopback.

Each simulated player is a WebSocket client that reads its view and, after a random "think"
time, sends a random legal action from it; each room's host client closes the discussions.
The server runs in trace mode, so that every ``update`` says which push of views it belongs
to, and every ``ack`` which push included its action (an ack carried in an update: that
update's push). An action's latency is measured from
the moment it is sent until the last client it changed has received its new view (and its
sender the ack). The server's memory and CPU are read from its processes.

Why one module of ~700 lines: the wire structs, the client's bookkeeping of pushes and acks,
the latency statistics and the report are one measurement; each reads the others' private
fields on the hot path (a client handles thousands of frames a second), and apart they
would only be harder to follow. In order: wire, results and report, statistics, the client,
the generator (rooms made, replaced), the meter, :func:`run`.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import statistics
import time
from array import array
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec
import psutil
import uvloop
from msgspec import UNSET, UnsetType
from picows import WSFrame, WSListener, WSMsgType, WSTransport, ws_connect

from ..bots.random_bot import random_fields, random_pick
from ..collector import collect_young, hold_full_collections, release_full_collections
from ..selfplay import table
from ..server.runtime import raise_file_limit


class _Choice(msgspec.Struct):
    action: str
    options: dict[str, list[Any]]
    pick: int = 0


class _You(msgspec.Struct):
    name: str
    to_act: bool
    submitted: dict[str, Any] | None
    choices: list[_Choice]


class _State(msgspec.Struct):
    """The members of a view's state a simulated player reads, as a ``view`` or an
    ``update`` carries them (an update only those that changed: the others UNSET)."""

    status: str | UnsetType = UNSET
    step: str | UnsetType | None = UNSET
    you: _You | UnsetType | None = UNSET

    def merge(self, changes: _State) -> None:
        """Apply an update's ``state`` (protocol 4: only what changed)."""
        if changes.status is not UNSET:
            self.status = changes.status
        if changes.step is not UNSET:
            self.step = changes.step
        if changes.you is not UNSET:
            self.you = changes.you


class _Ack(msgspec.Struct):
    id: int | None = None


class _Incoming(msgspec.Struct):
    """Only what a simulated player reads of a message (the rest is skipped)."""

    type: str
    state: _State | None = None
    seq: int | None = None
    id: int | None = None
    pushed: int | None = None
    acks: list[_Ack] = []


_decode = msgspec.json.Decoder(_Incoming).decode
_encoder = msgspec.json.Encoder()


WINDOWS = 6
"""How many stretches of the run the report shows apart (:meth:`LoadResult.windows`)."""


@dataclass
class Window:
    """One stretch of a run: its throughput, latency tail and both sides' CPU."""

    start: float  # seconds into the measurement
    end: float
    actions_per_second: float
    p99_ms: float
    server_cpu: float  # share of one core
    client_cpu: float = float("nan")  # the load generator's, the same way


def _nearest(samples: list[tuple[float, float]], at: float) -> tuple[float, float]:
    """The sample (seconds into the measurement, value) taken nearest to ``at``."""
    return min(samples, key=lambda sample: abs(sample[0] - at))


def _share(samples: list[tuple[float, float]], start: float, end: float) -> float:
    """The share of a core used between two moments, from (time, CPU seconds so far)
    samples (the nearest ones)."""
    if len(samples) < 2:
        return float("nan")
    first, last = _nearest(samples, start), _nearest(samples, end)
    if last[0] <= first[0]:
        return float("nan")
    return (last[1] - first[1]) / (last[0] - first[0])


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


@dataclass
class LoadResult:
    rooms: int
    connections: int
    seconds: float
    actions: int
    errors: int
    latencies_ms: list[float]
    memory_samples: list[tuple[float, float]]  # (seconds into the measurement, server MB)
    finished_games: int  # and replaced by new rooms
    setup_seconds: float
    server_cpu: float = float("nan")  # share of one core the server used while measured
    server_kernel: float = float("nan")  # the part of server_cpu spent in the kernel
    client_cpu: float = float("nan")  # the same for this load generator
    frames: int = 0  # WebSocket messages the clients received while measured
    frame_bytes: int = 0  # ... and their payloads' bytes
    sent_at: list[float] = field(default_factory=list)  # each latency's send, seconds in
    # (seconds into the measurement, the server's CPU seconds so far), as memory is sampled
    cpu_samples: list[tuple[float, float]] = field(default_factory=list)
    client_cpu_samples: list[tuple[float, float]] = field(default_factory=list)  # the same
    workers: int = 1  # the server's processes (``serve --workers``): CPU and memory add up

    @property
    def memory_start_mb(self) -> float:
        return self.memory_samples[0][1]

    @property
    def memory_end_mb(self) -> float:
        return self.memory_samples[-1][1]

    @property
    def memory_peak_mb(self) -> float:
        return max(mb for _, mb in self.memory_samples)

    @property
    def memory_growth_mb(self) -> float:
        """How much more the server held at the end than at the half-way point: what a
        leak would show (the first half includes the rooms' games warming their caches)."""
        middle = _nearest(self.memory_samples, self.memory_samples[-1][0] / 2)
        return self.memory_end_mb - middle[1]

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        return _percentile(self.latencies_ms, q)

    def windows(self, parts: int = WINDOWS) -> list[Window]:
        """The run cut into ``parts`` equal stretches (by when each action was sent): a
        server whose cost grows through a run shows it here, where the whole run's
        percentiles hide when the tail grew."""
        if not self.seconds or not self.sent_at:
            return []
        width = self.seconds / parts
        latencies: list[list[float]] = [[] for _ in range(parts)]
        for at, latency in zip(self.sent_at, self.latencies_ms, strict=True):
            latencies[min(parts - 1, max(0, int(at / width)))].append(latency)
        windows = []
        for index, part in enumerate(latencies):
            start, end = index * width, (index + 1) * width
            cpu = _share(self.cpu_samples, start, end)
            client = _share(self.client_cpu_samples, start, end)
            rate = len(part) / width
            windows.append(Window(start, end, rate, _percentile(part, 99), cpu, client))
        return windows

    def report(self) -> str:
        by_window = [
            f"  {w.start:4.0f}-{w.end:<4.0f} s  {w.actions_per_second:7,.0f} actions/s  "
            f"p99 {w.p99_ms:6.1f} ms  server {w.server_cpu:4.0%}  load generator "
            f"{w.client_cpu:4.0%}"
            for w in self.windows()
        ]
        return "\n".join(
            [
                f"rooms {self.rooms}, connections {self.connections} "
                f"(set up in {self.setup_seconds:.1f} s), measured {self.seconds:.1f} s",
                f"actions: {self.actions} acknowledged = {self.actions_per_second:,.0f} actions/s, "
                f"{self.errors} errors, {self.finished_games} games finished",
                f"latency (send -> every changed view received): p50 {self.percentile(50):.1f} ms, "
                f"p90 {self.percentile(90):.1f} ms, p99 {self.percentile(99):.1f} ms, "
                f"max {max(self.latencies_ms, default=float('nan')):.1f} ms",
                f"server memory: {self.memory_start_mb:.0f} MB connected, "
                f"{self.memory_end_mb:.0f} MB at the end, peak {self.memory_peak_mb:.0f} MB, "
                f"{self.memory_growth_mb:+.0f} MB over the second half "
                f"({(self.memory_end_mb * 1024) / max(1, self.connections):.0f} KB a connection)",
                f"cpu: server {self.server_cpu:.0%} of a core ({self.server_kernel:.0%} in the "
                f"kernel{f', {self.workers} workers' if self.workers > 1 else ''}), "
                f"load generator {self.client_cpu:.0%}",
                f"traffic: {self.frames / max(1, self.actions):.1f} frames and "
                f"{self.frame_bytes / max(1, self.actions) / 1024:.1f} KB received an action",
                *(["over the run:", *by_window] if by_window else []),
            ]
        )


@dataclass(eq=False)  # (rooms are told apart by identity)
class _Room:
    code: str
    host: str
    tokens: dict[str, str]
    url: str  # the base URL of the server (the worker) that owns the room
    pushes: dict[int, float] = field(default_factory=dict)  # push seq -> last update received
    clients: list[_Client] = field(default_factory=list)


@dataclass
class _Stats:
    measuring: bool = False
    stop: bool = False
    sent: dict[tuple[int, int], float] = field(default_factory=dict)  # (client, id) -> time
    # Acknowledged actions whose last updates may still be on their way, in the order of
    # their acks: (the room's pushes, push seq, sent, acked); the pushes only, not the room,
    # so that a replaced room's clients are freed during the run
    pending: deque[tuple[dict[int, float], int, float, float]] = field(default_factory=deque)
    # ... and those settled (see settle): compact arrays, so that the generator's own heap
    # does not grow with the run (a growing heap slows a process down: docs/PERFORMANCE.md)
    latencies_ms: array[float] = field(default_factory=lambda: array("d"))
    sent_at: array[float] = field(default_factory=lambda: array("d"))  # since started
    started: float = 0.0
    errors: int = 0
    frames: int = 0
    frame_bytes: int = 0
    finished: set[str] = field(default_factory=set)
    on_finish: Callable[[_Room], None] = lambda room: None

    def settle(self, before: float) -> None:
        """The latency of each action acknowledged before ``before`` (by then every update
        of its push has arrived): from its send to the later of its ack and the last
        update of the push that showed it."""
        pending = self.pending
        while pending and pending[0][3] < before:
            pushes, pushed, sent, acked = pending.popleft()
            seen = pushes.get(pushed, acked)
            self.latencies_ms.append((max(seen, acked) - sent) * 1000)
            self.sent_at.append(sent - self.started)


SETTLE_SECONDS = 5.0
"""How long after its ack an action's latency is worked out (and a push's arrival time
forgotten): later than any update of its push arrives."""


def _forget_pushes(rooms: Iterable[_Room], before: float) -> None:
    """Drop the arrival times of pushes received before ``before`` (no longer needed)."""
    for room in rooms:
        pushes = room.pushes
        old = [seq for seq, at in pushes.items() if at < before]
        for seq in old:
            del pushes[seq]


LOAD_OPTIONS = (
    "--trace", "--limit-messages", "1000",
    # every simulated client comes from 127.0.0.1: no per-address limits
    "--limit-requests", "0", "--limit-rooms", "0", "--limit-connections", "0", "--limit-http", "0",
    "--limit-connects", "0",
    # finished rooms are replaced at once: free them within the run
    "--evict-after", "60",
)  # fmt: skip
"""The options of the server the load benchmark starts."""


async def _new_room(http: httpx.AsyncClient, players: int) -> _Room:
    answer = await http.post("/api/rooms", json={"settings": {"timers": False}})
    created = answer.raise_for_status().json()
    code = created["code"]
    url = created["join_url"].partition("/?")[0]  # the worker that owns the room
    tokens = {}
    for name in table(players):
        ticket = await http.post(f"{url}/api/rooms/{code}/seats", json={"name": name})
        tokens[name] = ticket.raise_for_status().json()["token"]
    return _Room(code, created["host_token"], tokens, url)


async def _start_room(http: httpx.AsyncClient, room: _Room) -> None:
    headers = {"authorization": f"Bearer {room.host}"}
    answer = await http.post(f"{room.url}/api/rooms/{room.code}/start", headers=headers)
    answer.raise_for_status()


def _choose(state: _State, rng: random.Random) -> dict[str, Any] | None:
    you = state.you
    if not isinstance(you, _You) or not you.to_act or you.submitted is not None:
        return None
    if not you.choices:
        return None
    choice = random_pick(you.choices, rng)
    fields = random_fields(choice.pick, choice.options, rng)
    return {"action": choice.action, "player": you.name, **fields}


def _factory(client: _Client) -> Callable[[], _Client]:
    return lambda: client


class _Client(WSListener):
    """One simulated client: a `picows` WebSocket (its frames parsed and masked in C),
    driven by callbacks (no task or future per message), so that the load generator is
    not the bottleneck it measures."""

    def __init__(  # noqa: PLR0917
        self,
        room: _Room,
        hello: dict[str, Any],
        index: int,
        stats: _Stats,
        think: float,
        rng: random.Random,
    ) -> None:
        self.room = room
        self.hello = hello
        self.index = index
        self.stats = stats
        self.think = think
        self.rng = rng
        self.is_host = "host_token" in hello
        self.state: _State | None = None
        self.waiting = False
        self.next_id = 0
        self.timer: asyncio.TimerHandle | None = None
        self.transport: WSTransport | None = None
        self.parts: list[bytes] = []  # a fragmented message's frames so far
        self.live = False  # start acting (set when every client is connected)

    # -------------------------------------------------------- picows.WSListener
    def on_ws_connected(self, transport: WSTransport) -> None:
        self.transport = transport
        self._send({"type": "hello", "room": self.room.code, **self.hello})

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        kind = frame.msg_type
        if kind is WSMsgType.TEXT and frame.fin:
            data: bytes | memoryview = frame.get_payload_as_memoryview()
        elif kind is WSMsgType.TEXT or kind is WSMsgType.CONTINUATION:
            self.parts.append(frame.get_payload_as_bytes())
            if not frame.fin:
                return
            data, self.parts = b"".join(self.parts), []
        elif kind is WSMsgType.CLOSE:
            transport.send_close(frame.get_close_code())
            transport.disconnect()
            return
        else:  # pongs (picows answers pings itself)
            return
        if self.stats.measuring:
            self.stats.frames += 1
            self.stats.frame_bytes += len(data)
        self._message(data)

    def on_ws_disconnected(self, transport: WSTransport) -> None:
        if self.timer is not None:
            self.timer.cancel()

    def _send(self, message: dict[str, Any]) -> None:
        assert self.transport is not None
        self.transport.send(WSMsgType.TEXT, _encoder.encode(message))

    # -------------------------------------------------------- playing
    def _message(self, raw: bytes | memoryview) -> None:
        now = time.perf_counter()
        stats = self.stats
        message = _decode(raw)
        kind = message.type
        if kind == "view" or (kind == "update" and self.state is None):
            self.state = message.state
        elif kind == "update" and self.state is not None and message.state is not None:
            self.state.merge(message.state)
        if kind in {"update", "view"}:
            if message.seq is not None and stats.measuring:
                self.room.pushes[message.seq] = now
            for ack in message.acks:  # the acks of our actions this update shows
                self._acked(ack.id, message.seq, now)
            if (
                self.state is not None
                and self.state.status == "finished"
                and self.room.code not in stats.finished
            ):
                stats.finished.add(self.room.code)
                stats.on_finish(self.room)
        elif kind == "ack":
            self._acked(message.id, message.pushed, now)
        elif kind == "error":
            self.waiting = False
            stats.sent.pop((self.index, message.id or 0), None)
            if stats.measuring:
                stats.errors += 1
        self.consider()

    def _acked(self, ident: int | None, pushed: int | None, now: float) -> None:
        stats = self.stats
        self.waiting = False
        sent = stats.sent.pop((self.index, ident or 0), None)
        if sent is not None and stats.measuring:
            stats.pending.append((self.room.pushes, -1 if pushed is None else pushed, sent, now))

    def consider(self) -> None:
        """After the think time, act if there is something to do."""
        if self.live and self.state is not None and not self.waiting and self.timer is None:
            delay = self.rng.expovariate(1 / self.think) if self.think > 0 else 0
            self.timer = asyncio.get_running_loop().call_later(delay, self._act)

    def _act(self) -> None:
        self.timer = None
        state = self.state
        if self.stats.stop or state is None or self.waiting:
            return
        if self.is_host:
            if state.step != "discussion":
                return
            action: dict[str, Any] | None = {"action": "end_discussion", "player": "@host"}
        else:
            action = _choose(state, self.rng)
        if action is None:
            return
        self.next_id += 1
        self.waiting = True
        self.stats.sent[(self.index, self.next_id)] = time.perf_counter()
        self._send({"type": "act", "id": self.next_id, "action": action})

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.transport is not None:
            self.transport.disconnect()


def measure(url: str, **options: Any) -> LoadResult:
    """:func:`run` on uvloop, like the server: on asyncio's own loop the generator spent
    about 40% of its time in the loop's Python code and queued its own frames."""
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(run(url, **options))


class _Generator:
    """The simulated clients of a run: rooms made, connected, started, and each replaced by
    a new one when its game finishes (so the load stays the same however long the run)."""

    def __init__(self, url: str, players: int, think: float, seed: int) -> None:
        self.http = httpx.AsyncClient(
            base_url=url, timeout=60, limits=httpx.Limits(max_connections=50)
        )
        self.players = players
        self.think = think
        self.rng = random.Random(seed)
        self.stats = _Stats()
        self.clients: list[_Client] = []
        self.numbers = itertools.count(1)  # each client's, for its actions' keys in stats.sent
        self.replacing: set[asyncio.Task[None]] = set()

    async def fill(self, rooms: int) -> list[_Room]:
        """``rooms`` new rooms, their clients connected (the games not started)."""
        made: list[_Room] = []
        for first in range(0, rooms, 50):
            batch = range(first, rooms)[:50]
            made += await asyncio.gather(*(_new_room(self.http, self.players) for _ in batch))
        together = max(1, 500 // (self.players + 1))  # rooms at once: about 500 handshakes
        for first in range(0, len(made), together):
            await asyncio.gather(*(self.connect(room) for room in made[first : first + together]))
        return made

    async def connect(self, room: _Room) -> None:
        """Open the room's connections (each sends its hello once its handshake is done)."""
        hellos = [{"token": t} for t in room.tokens.values()] + [{"host_token": room.host}]
        ws_url = room.url.replace("http://", "ws://") + "/ws"
        opened = [
            _Client(
                room, hello, next(self.numbers), self.stats, self.think,
                random.Random(self.rng.random()),
            )
            for hello in hellos
        ]  # fmt: skip
        await asyncio.gather(*(
            ws_connect(_factory(client), ws_url, websocket_handshake_timeout=60)
            for client in opened
        ))  # fmt: skip
        refused = sum(client.transport is None for client in opened)
        if refused:  # (picows returns from a handshake the server aborted without a word)
            raise RuntimeError(
                f"room {room.code}: the server refused {refused} of its {len(opened)} "
                "WebSockets (a per-address limit of the server?)"
            )
        self.clients.extend(opened)
        room.clients.extend(opened)

    async def start(self, room: _Room) -> None:
        """Start the room's game; its clients begin to play."""
        await _start_room(self.http, room)
        for client in room.clients:
            client.live = True
            client.consider()

    async def replace(self, old: _Room) -> None:
        for client in old.clients:
            client.close()
        gone = set(old.clients)  # let them go (the room and its clients refer to each other,
        self.clients[:] = [c for c in self.clients if c not in gone]  # and no full collections)
        old.clients.clear()
        for attempt in range(3):
            try:
                room = await _new_room(self.http, self.players)
                break
            except httpx.TransportError:  # a kept-alive connection the server just closed
                if attempt == 2:
                    raise
        await self.connect(room)
        await self.start(room)

    def on_finish(self, room: _Room) -> None:
        if not self.stats.stop:
            task = asyncio.get_running_loop().create_task(self.replace(room))
            self.replacing.add(task)
            task.add_done_callback(self.replacing.discard)

    async def close(self) -> None:
        self.stats.stop = True
        for task in list(self.replacing):
            task.cancel()
        for client in self.clients:
            client.close()
        await self.http.aclose()


@dataclass
class _Meter:
    """The server's (and the generator's) memory and CPU, sampled through a measurement."""

    server: list[psutil.Process]
    me: list[psutil.Process] = field(default_factory=lambda: [psutil.Process()])
    samples: list[tuple[float, float]] = field(default_factory=list)  # (s, MB)
    cpu_samples: list[tuple[float, float]] = field(default_factory=list)  # (s, CPU s)
    client_samples: list[tuple[float, float]] = field(default_factory=list)
    start: tuple[float, float, float] = (0.0, 0.0, 0.0)  # server, client, server kernel

    def begin(self) -> None:
        self.start = _cpu(self.server), _cpu(self.me), _cpu(self.server, kernel=True)
        self.samples.append((0.0, _rss(self.server)))
        self.cpu_samples.append((0.0, self.start[0]))
        self.client_samples.append((0.0, self.start[1]))

    def sample(self, at: float) -> None:
        self.samples.append((at, _rss(self.server)))
        self.cpu_samples.append((at, _cpu(self.server)))
        self.client_samples.append((at, _cpu(self.me)))

    def shares(self, elapsed: float) -> tuple[float, float, float]:
        """CPU seconds a second since :meth:`begin`: server, generator, server kernel."""
        return (
            (_cpu(self.server) - self.start[0]) / elapsed,
            (_cpu(self.me) - self.start[1]) / elapsed,
            (_cpu(self.server, kernel=True) - self.start[2]) / elapsed,
        )


async def _measure(generator: _Generator, meter: _Meter, seconds: float, games: int) -> float:
    """Measure for ``seconds`` (and on until ``games`` games have finished); returns how
    long it measured."""
    stats = generator.stats
    meter.begin()
    stats.measuring = True
    started = stats.started = time.perf_counter()
    every = max(1.0, seconds / 60)
    while (left := seconds - (time.perf_counter() - started)) > 0 or len(stats.finished) < games:
        await asyncio.sleep(min(every, max(left, 0.05)))
        now = time.perf_counter()
        meter.sample(now - started)
        stats.settle(now - SETTLE_SECONDS)
        rooms = {client.room for client in generator.clients}
        _forget_pushes(rooms, now - 2 * SETTLE_SECONDS)
    stats.measuring = False
    return time.perf_counter() - started


async def run(
    url: str,
    *,
    rooms: int,
    players: int = 13,
    seconds: float = 30,
    think: float = 2.0,
    warmup: float = 5.0,
    server_pid: int | None = None,
    seed: int = 0,
    games: int = 0,
) -> LoadResult:
    """Fill ``rooms`` rooms, play for ``warmup`` + ``seconds`` seconds, measure the latter
    (and go on measuring until ``games`` games have finished, however long that takes: a
    check of the replacement that does not depend on the machine's speed). A room whose
    game finishes is replaced by a new one, so the load stays the same however long the
    run (and the server's memory is seen over rooms coming and going)."""
    raise_file_limit()
    began = time.perf_counter()
    generator = _Generator(url, players, think, seed)
    stats = generator.stats
    made = await generator.fill(rooms)
    await asyncio.sleep(1.0)
    # The clients' own pauses must not count as the server's latency: the generator keeps
    # the server's collector policy (korapsyon.collector): no full collections (they would
    # walk every client and every measurement so far), young objects on a clock.
    saved = hold_full_collections()
    young = asyncio.get_running_loop().create_task(collect_young())
    meter = _Meter(_server_processes(server_pid) if server_pid else [])
    for room in made:
        await _start_room(generator.http, room)
    made.clear()
    setup = time.perf_counter() - began
    for client in generator.clients:
        client.live = True
        client.consider()
    stats.on_finish = generator.on_finish
    await asyncio.sleep(warmup)
    elapsed = await _measure(generator, meter, seconds, games)
    server_cpu, client_cpu, server_kernel = meter.shares(elapsed)
    await asyncio.sleep(0.5)  # the last updates of measured actions
    await generator.close()
    young.cancel()
    release_full_collections(saved)
    stats.settle(float("inf"))
    return LoadResult(
        rooms=rooms,
        connections=rooms * (players + 1),
        seconds=elapsed,
        actions=len(stats.latencies_ms),
        errors=stats.errors,
        latencies_ms=stats.latencies_ms.tolist(),
        memory_samples=meter.samples,
        finished_games=len(stats.finished),
        setup_seconds=setup,
        server_cpu=server_cpu,
        server_kernel=server_kernel,
        client_cpu=client_cpu,
        frames=stats.frames,
        frame_bytes=stats.frame_bytes,
        sent_at=stats.sent_at.tolist(),
        cpu_samples=meter.cpu_samples,
        client_cpu_samples=meter.client_samples,
        workers=max(1, len(meter.server) - 1),
    )


def _server_processes(pid: int) -> list[psutil.Process]:
    """The server started for the test and its workers (``serve --workers``)."""
    main = psutil.Process(pid)
    return [main, *main.children(recursive=True)]


def _rss(processes: list[psutil.Process]) -> float:
    """The processes' resident memory in MB, added up."""
    if not processes:
        return float("nan")
    return float(sum(_alive(p, lambda p: p.memory_info().rss) for p in processes)) / 2**20


def _cpu(processes: list[psutil.Process], *, kernel: bool = False) -> float:
    """CPU seconds (user and system, or only system) the processes have used so far."""
    if not processes:
        return float("nan")
    times = [_alive(p, lambda p: p.cpu_times()) for p in processes]
    return float(sum(t.system if kernel else t.user + t.system for t in times if t))


def _alive(process: psutil.Process, read: Callable[[psutil.Process], Any]) -> Any:
    """A figure of a process, or 0 if it has gone (a worker that died mid-run)."""
    try:
        return read(process)
    except psutil.NoSuchProcess:
        return 0


def summary(result: LoadResult) -> dict[str, Any]:
    return {
        "rooms": result.rooms,
        "connections": result.connections,
        "seconds": round(result.seconds, 1),  # measured: --seconds, or longer with --games
        "actions_per_second": round(result.actions_per_second, 1),
        "p50_ms": round(result.percentile(50), 2),
        "p99_ms": round(result.percentile(99), 2),
        "errors": result.errors,
        "memory_mb": round(result.memory_end_mb, 1),
        "memory_peak_mb": round(result.memory_peak_mb, 1),
        "memory_growth_mb": round(result.memory_growth_mb, 1),
        "finished_games": result.finished_games,
        "server_cpu": round(result.server_cpu, 3),
        "server_kernel": round(result.server_kernel, 3),
        "frames_per_action": round(result.frames / max(1, result.actions), 2),
        "kb_per_action": round(result.frame_bytes / max(1, result.actions) / 1024, 2),
        "mean_ms": round(statistics.fmean(result.latencies_ms), 2) if result.latencies_ms else None,
        "cpus": os.cpu_count(),
        "windows": [
            {
                "start_s": round(w.start, 1),
                "end_s": round(w.end, 1),
                "actions_per_second": round(w.actions_per_second, 1),
                "p99_ms": round(w.p99_ms, 2),
                "server_cpu": round(w.server_cpu, 3),
                "load_generator_cpu": round(w.client_cpu, 3),
            }
            for w in result.windows()
        ],
    }
