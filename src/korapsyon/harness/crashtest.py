"""The crash test behind ``korapsyon crashtest``: kill -9 the server at random moments of
games, restart it on the same database, and check that nothing acknowledged was lost.

Games are played by deterministic external clients (one WebSocket per seat, plus the
host's for ``end_discussion``) with timers off, so nothing depends on time. The clients act
one at a time: the next action is a pure function of the players' views (:func:`decide`),
so a game interrupted by any number of crashes and the same game played in-process on the
engine (:func:`reference`) make the same record, action for action. After an action's ack
every client is brought up to date by a ``ping``: its ``pong`` comes after every update
pushed before it.

After a crash the clients reconnect with the same seat tokens and carry on from the views
the restarted server sends. An action sent but not answered when the server died may or
may not have been stored; the views say which, and :func:`decide` either moves on or sends
it again. Every ``ack`` is noted and must be in the final record at the index it gave.

The same driver (:func:`play_room`) runs over an in-process server in the store-fault tests
(full disk, lost PostgreSQL), where it also checks that an action refused with
``store_unavailable`` changed nothing any client can see.

Why one module of ~600 lines: the policy, the reconnecting clients, the per-game tally, the
server process and the checks of the records make one argument (nothing acknowledged is
lost), read top to bottom in that order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from ..bots.random_bot import random_wire_action
from ..record import Record, new_game, read_record, record_of
from ..rules.actions import HOST, action_from_wire
from ..rules.views import ViewTracker
from ..selfplay import table
from . import spawn

ANSWER_SECONDS = 20.0  # a live server answers in milliseconds; this only catches a hang
MAX_ACTIONS = 5000  # far beyond any game: a policy that loops is a bug

Action = dict[str, Any]
State = Mapping[str, Any]


# ---------------------------------------------------------------- the policy
def decide(
    states: Mapping[str, State], players: Sequence[str], seed: int
) -> tuple[str, Action] | None:
    """The next (actor, action) of a game, from every player's current view, or None when
    the game is over. The first seat (in seat order) that must act chooses from its
    ``choices`` with a random generator keyed by the policy seed, its name, the Year, the
    step and the choices themselves, so the same view always gives the same action. In
    the discussion the Ombudsperson may invoke Witness (an even chance, decided the same
    way), then the host ends it."""
    first = states[players[0]]
    if first["status"] != "in_progress":
        return None
    for name in players:
        state = states[name]
        you = state["you"]
        if you["to_act"] and you["submitted"] is None and you["choices"]:
            return name, random_wire_action(you["choices"], name, _rng(seed, name, state, "act"))
    if first["step"] == "discussion":
        for name in players:
            state = states[name]
            choices = state["you"]["choices"]
            witness = bool(choices) and choices[0]["action"] == "witness"
            if witness and _rng(seed, name, state, "witness").random() < 0.5:
                return name, {"action": "witness", "player": name}
        return HOST, {"action": "end_discussion", "player": HOST}
    raise RuntimeError(f"nobody can act in step {first['step']!r} of Year {first['year']}")


def _rng(seed: int, name: str, state: State, purpose: str) -> random.Random:
    key = [seed, name, purpose, state["year"], state["step"], state["you"]["choices"]]
    return random.Random(json.dumps(key, sort_keys=True))


def reference(setup: Record, seed: int) -> Record:
    """The record of the game of ``setup`` played in-process with the same policy and no
    interruption: the record every crash-tested game must end with."""
    game = new_game(msgspec.structs.replace(setup, actions=[]))
    trackers = {name: ViewTracker(game, name) for name in game.players}
    players = list(game.players)
    for _ in range(MAX_ACTIONS):
        states = {name: _wire(tracker.state()) for name, tracker in trackers.items()}
        decision = decide(states, players, seed)
        if decision is None:
            return record_of(game)
        game.apply(action_from_wire(decision[1]))
    raise RuntimeError("the policy did not finish the game")


def _wire(value: Any) -> Any:
    """A value as a client receives it (JSON: tuples become lists, enums strings)."""
    return msgspec.json.decode(msgspec.json.encode(value))


def same_action(sent: Action, stored: Any) -> bool:
    """Whether an action as sent is the one a record or the store holds."""
    if isinstance(stored, dict):
        stored = action_from_wire(stored)
    return bool(action_from_wire(sent).to_wire() == stored.to_wire())


# ---------------------------------------------------------------- the clients
class Gone(Exception):
    """The connection to the server was lost (or the server did not answer)."""


class HelloRefused(Exception):
    """The server refused a client's hello (``code``: the error's code)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"hello refused: {code}: {message}")
        self.code = code


_LOST = (OSError, WebSocketException, TimeoutError, Gone)


class Client:
    """One WebSocket client: its latest state, and requests answered by id."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.next_id = 1

    async def _read(self) -> dict[str, Any]:
        try:
            raw = await asyncio.wait_for(self.ws.recv(), ANSWER_SECONDS)
        except _LOST as exc:
            raise Gone(str(exc)) from None
        message: dict[str, Any] = json.loads(raw)
        if message["type"] in ("view", "update"):
            self.state = message["state"]
        return message

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send an ``act`` (or other) message; return its ``ack`` or ``error``."""
        ident = self.next_id
        self.next_id += 1
        await self._send({**message, "id": ident})
        while True:
            answer = await self._read()
            if answer["type"] in ("ack", "error") and answer.get("id") == ident:
                return answer
            for ack in answer.get("acks", ()) if answer["type"] == "update" else ():
                if ack["id"] == ident:
                    return dict(ack)

    async def sync(self) -> None:
        """Read until everything the server sent before this moment is in ``state``."""
        ident = self.next_id
        self.next_id += 1
        await self._send({"type": "ping", "id": ident})
        while True:
            message = await self._read()
            if message["type"] == "pong" and message["id"] == ident:
                return

    async def _send(self, message: dict[str, Any]) -> None:
        try:
            await self.ws.send(json.dumps(message))
        except _LOST as exc:
            raise Gone(str(exc)) from None

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(), 2)


async def open_client(ws_url: str, hello: dict[str, Any]) -> Client:
    """Connect and say hello; return once the whole view has arrived."""
    try:
        ws = await asyncio.wait_for(connect(ws_url, max_size=2**22, open_timeout=5), 10)
    except _LOST as exc:
        raise Gone(str(exc)) from None
    client = Client(ws)
    try:
        await client._send({"type": "hello", **hello})
        while True:
            message = await client._read()
            if message["type"] == "error":
                raise HelloRefused(message["code"], message["message"])
            if message["type"] == "view":
                return client
    except BaseException:
        await client.close()
        raise


# ---------------------------------------------------------------- one room's game
@dataclass
class Plan:
    """A started room and how it is played."""

    code: str
    host_token: str
    tokens: dict[str, str]  # seat name -> seat token, in seat order
    seed: int  # the policy's seed

    @property
    def players(self) -> list[str]:
        return list(self.tokens)


@dataclass
class Tally:
    """What one room's clients saw."""

    acked: list[tuple[int, Action]] = field(default_factory=list)  # (record index, action)
    refused: int = 0  # store_unavailable answers
    refusals: set[str] = field(default_factory=set)  # their messages
    reconnects: int = 0
    problems: list[str] = field(default_factory=list)
    finished: bool = False
    connected: bool = False  # its clients are connected (and may still read acks)
    verified: int = 0  # acks found in the store after a kill
    ended_unseen: bool = False  # it ended just before a kill: no client saw the end


async def play_room(
    ws_url: Callable[[], str],
    plan: Plan,
    tally: Tally,
    *,
    retry_seconds: float = 0.02,
    give_up: float = 300.0,
) -> None:
    """Play a started room to its end, reconnecting whenever the server goes away and
    retrying an action refused with ``store_unavailable``. Problems (an unexpected
    refusal, a refusal that changed a view) go to ``tally.problems`` and end the game."""
    deadline = time.monotonic() + give_up
    clients: dict[str, Client] = {}
    players = plan.players
    try:
        while time.monotonic() < deadline:
            if not clients:
                try:
                    clients = await _open_all(ws_url(), plan)
                except _LOST:
                    await asyncio.sleep(0.05)
                    continue
                except HelloRefused as exc:
                    # A game whose end was stored just before a kill is not reopened at
                    # the restart (finished rooms are not restored): its record says so.
                    if exc.code == "no_room" and await _finished(ws_url(), plan):
                        tally.finished = tally.ended_unseen = True
                        return
                    raise
                tally.connected = True
            try:
                states = {name: clients[name].state or {} for name in players}
                decision = decide(states, players, plan.seed)
                if decision is None:
                    tally.finished = True
                    return
                actor, action = decision
                answer = await clients[actor].request({"type": "act", "action": action})
                if answer["type"] == "ack":
                    tally.acked.append((int(answer["seq"]), action))
                    await _sync(clients)
                    continue
                if answer["code"] != "store_unavailable":
                    tally.problems.append(
                        f"{plan.code}: {action} refused: {answer['code']}: {answer['message']}"
                    )
                    return
                tally.refused += 1
                tally.refusals.add(answer["message"])
                await _sync(clients)
                after = {name: clients[name].state or {} for name in players}
                changed = {name: _changes(states[name], after[name]) for name in players}
                if any(changed.values()):
                    tally.problems.append(
                        f"{plan.code}: {action} was refused (store_unavailable) but views "
                        f"changed: {changed}"
                    )
                    return
                await asyncio.sleep(retry_seconds)
            except _LOST:
                tally.connected = False
                tally.reconnects += 1
                await _close_all(clients)
                clients = {}
        tally.problems.append(f"{plan.code}: the game did not finish in {give_up:.0f} s")
    finally:
        tally.connected = False
        await _close_all(clients)


async def _finished(ws_url: str, plan: Plan) -> bool:
    base = ws_url.replace("ws://", "http://").removesuffix("/ws")
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        auth = {"authorization": f"Bearer {plan.host_token}"}
        response = await http.get(f"/api/rooms/{plan.code}/record", headers=auth)
    return response.status_code == 200


def _changes(before: State, after: State) -> list[str]:
    """The keys of a view that differ, leaving out the vote count (``ballot.cast``): a
    count alone reaches those who are not deciding only every few seconds, so a view may
    show an older count until its next whole view."""
    keys = {*before, *after} - {"timer", "now"}
    return sorted(k for k in keys if _uncounted(before.get(k)) != _uncounted(after.get(k)))


def _uncounted(value: Any) -> Any:
    if isinstance(value, dict) and "cast" in value and "voters" in value:
        return {k: v for k, v in value.items() if k != "cast"}
    return value


async def _open_all(ws_url: str, plan: Plan) -> dict[str, Client]:
    hellos = {name: {"room": plan.code, "token": token} for name, token in plan.tokens.items()}
    hellos[HOST] = {"room": plan.code, "host_token": plan.host_token}
    opened: dict[str, Client] = {}
    try:
        for name, hello in hellos.items():
            opened[name] = await open_client(ws_url, hello)
    except BaseException:
        await _close_all(opened)
        raise
    return opened


async def _sync(clients: Mapping[str, Client]) -> None:
    await asyncio.gather(*(client.sync() for client in clients.values()))


async def _close_all(clients: Mapping[str, Client]) -> None:
    await asyncio.gather(*(client.close() for client in clients.values()))


async def make_room(http: httpx.AsyncClient, players: int, seed: int) -> Plan:
    """Create and start a room of ``players`` seats (people, no bots; timers off)."""
    body = {"settings": {"timers": False}}
    created = (await http.post("/api/rooms", json=body)).raise_for_status().json()
    code, host = created["code"], created["host_token"]
    tokens = {}
    for name in table(players):
        ticket = (await http.post(f"/api/rooms/{code}/seats", json={"name": name})).json()
        tokens[ticket["name"]] = ticket["token"]
    headers = {"authorization": f"Bearer {host}"}
    (await http.post(f"/api/rooms/{code}/start", headers=headers)).raise_for_status()
    return Plan(code, host, tokens, seed)


@dataclass
class Verdict:
    """One finished game checked against its reference."""

    equal: bool  # the record is the uninterrupted game's record
    lost: int  # acknowledged actions missing from the record (at their index)
    actions: int  # actions in the record


def check(record: Record, plan: Plan, tally: Tally) -> Verdict:
    """Compare a finished game's record with the uninterrupted reference and look for
    every acknowledged action at the index its ack gave."""
    expected = reference(record, plan.seed)
    lost = sum(
        1
        for seq, action in tally.acked
        if seq >= len(record.actions) or not same_action(action, record.actions[seq])
    )
    return Verdict(record == expected, lost, len(record.actions))


async def fetch_record(http: httpx.AsyncClient, plan: Plan) -> Record:
    """The finished game's record, asked for with the room's host token (it is for the
    table)."""
    code = plan.code
    auth = {"authorization": f"Bearer {plan.host_token}"}
    response = (await http.get(f"/api/rooms/{code}/record", headers=auth)).raise_for_status()
    record, bad = read_record(response.content)
    if bad is not None:
        raise RuntimeError(f"room {code}: its record has an unreadable action: {bad.reason}")
    return record


# ---------------------------------------------------------------- the server process
def missing_from_store(url: str, plans: Sequence[Plan], tallies: Sequence[Tally]) -> list[str]:
    """Read the database itself (the server is down): every action acknowledged so far
    must be there, at the index its ack gave. Returns what is missing."""
    from ..store.sql import SqlStore

    missing = []
    store = SqlStore(url)
    try:
        for plan, tally in zip(plans, tallies, strict=True):
            row = store.load_room(plan.code)
            stored = [] if row is None else row.actions
            for seq, action in tally.acked[tally.verified :]:
                if seq >= len(stored) or not same_action(action, stored[seq]):
                    missing.append(f"{plan.code}: acknowledged action {seq} {action} is not stored")
            tally.verified = len(tally.acked)
    finally:
        store.close()
    return missing


class ServerProcess:
    """``korapsyon serve`` in a child process, killed with SIGKILL and started again on the
    same database and port."""

    def __init__(self, db: str, log: Path) -> None:
        self.db = db
        self.port = spawn.free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://") + "/ws"

    async def start(self) -> None:
        options = ("--limit-messages", "100000")
        self.process = await asyncio.to_thread(
            spawn.start, self.port, self.db, options, log=self.log
        )
        self.starts += 1

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, no goodbye."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None:
            spawn.stop(self.process)


# ---------------------------------------------------------------- runs
@dataclass
class CrashResult:
    """The figures of a crash test."""

    runs: int = 0
    kills: int = 0
    games: int = 0
    actions: int = 0  # actions in the finished records
    acknowledged: int = 0
    lost: int = 0  # acknowledged but not in the database after a kill: must be 0
    lost_in_records: int = 0  # acknowledged but not in the final record: must be 0
    different: int = 0  # records unlike their uninterrupted reference: must be 0
    unfinished: int = 0
    refused: int = 0  # store_unavailable answers
    reconnects: int = 0
    ended_unseen: int = 0  # games that ended just before a kill (not reopened after it)
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (
            self.lost or self.lost_in_records or self.different or self.unfinished or self.problems
        )

    def report(self) -> str:
        lines = [
            f"runs {self.runs}, games {self.games}, kill -9 {self.kills}, "
            f"client reconnects {self.reconnects}, {self.seconds:.1f} s",
            f"actions acknowledged {self.acknowledged}, in the records {self.actions}, "
            f"lost {self.lost} (the database after each kill) and {self.lost_in_records} "
            "(the final records)",
            f"records unlike the uninterrupted game {self.different}, unfinished games "
            f"{self.unfinished}, store_unavailable refusals {self.refused}",
            f"games that ended just before a kill (their end seen only in the record) "
            f"{self.ended_unseen}",
            "OK: nothing acknowledged was lost" if self.ok else "FAILED",
        ]
        return "\n".join(lines + [f"  problem: {p}" for p in self.problems[:20]])


async def crash_run(
    result: CrashResult,
    rng: random.Random,
    *,
    rooms: int,
    players: int,
    kills: int,
    db: str | None = None,
    per_game: int | None = None,
) -> None:
    """One run: a server on a fresh SQLite file (or ``db``), ``rooms`` games played to the
    end while the server is killed ``kills`` times at random moments, then killed once more
    right after the last game ended and restarted, and the records read back from the
    restarted server are checked."""
    with tempfile.TemporaryDirectory(prefix="korapsyon-crash-") as folder:
        url = db or f"sqlite:///{Path(folder) / 'crash.sqlite3'}"
        server = ServerProcess(url, Path(folder) / "log")
        try:
            await _run(
                server, result, rng, rooms=rooms, players=players, kills=kills,
                per_game=per_game or ACTIONS_PER_GAME * players // 9,
            )  # fmt: skip
        finally:
            server.stop()
    result.runs += 1


ACTIONS_PER_GAME = 500
"""About how long a 9-seat game of this policy is (190 to 1,140 actions were seen): the kills
fall at random among the first ``rooms * ACTIONS_PER_GAME`` acknowledged actions."""


async def _run(
    server: ServerProcess,
    result: CrashResult,
    rng: random.Random,
    *,
    rooms: int,
    players: int,
    kills: int,
    per_game: int,
) -> None:
    await server.start()
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        plans = [await make_room(http, players, rng.randrange(2**32)) for _ in range(rooms)]
    tallies = [Tally() for _ in plans]
    games = [
        asyncio.create_task(play_room(lambda: server.ws_url, plan, tally))
        for plan, tally in zip(plans, tallies, strict=True)
    ]
    span = max(kills + 1, rooms * per_game)
    points = sorted(rng.sample(range(1, span), min(kills, span - 1)))
    try:
        for point in points:
            while sum(len(t.acked) for t in tallies) < point and not all(g.done() for g in games):
                await asyncio.sleep(0.002)
            if all(g.done() for g in games):
                break
            await asyncio.sleep(rng.uniform(0, 0.015))  # anywhere: mid-write, mid-push...
            await _kill(server, result, plans, tallies)
            await server.start()
        outcomes = await asyncio.gather(*games, return_exceptions=True)
        for plan, outcome in zip(plans, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                result.problems.append(f"{plan.code}: the players failed: {outcome!r}")
    finally:
        for game in games:
            game.cancel()
    await _kill(server, result, plans, tallies)  # straight after the last game
    await server.start()  # the records must now come from the store
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        for plan, tally in zip(plans, tallies, strict=True):
            result.games += 1
            result.acknowledged += len(tally.acked)
            result.refused += tally.refused
            result.reconnects += tally.reconnects
            result.ended_unseen += tally.ended_unseen
            result.problems += tally.problems
            if not tally.finished:
                result.unfinished += 1
                continue
            record = await fetch_record(http, plan)
            verdict = check(record, plan, tally)
            result.actions += verdict.actions
            result.lost_in_records += verdict.lost
            if not verdict.equal:
                result.different += 1
                result.problems.append(f"{plan.code}: the record differs from the reference")


async def _kill(
    server: ServerProcess, result: CrashResult, plans: Sequence[Plan], tallies: Sequence[Tally]
) -> None:
    """kill -9; once every client has read what the dead server sent (its connection is
    closed), check in the database that every action acknowledged so far is stored."""
    server.kill()
    result.kills += 1
    deadline = time.monotonic() + ANSWER_SECONDS
    while any(t.connected for t in tallies) and time.monotonic() < deadline:
        await asyncio.sleep(0.005)
    missing = await asyncio.to_thread(missing_from_store, server.db, plans, tallies)
    result.lost += len(missing)
    result.problems += missing


def run(
    *,
    runs: int,
    seed: int,
    rooms: int = 3,
    players: int = 9,
    kills: int = 4,
    db: str | None = None,
    per_game: int | None = None,
    progress: Callable[[CrashResult], None] | None = None,
) -> CrashResult:
    """``runs`` crash-test runs (see :func:`crash_run`); ``progress`` is called after each."""
    rng = random.Random(seed)
    result = CrashResult()
    started = time.monotonic()
    for _ in range(runs):
        asyncio.run(
            crash_run(
                result, rng, rooms=rooms, players=players, kills=kills, db=db, per_game=per_game
            )
        )
        result.seconds = time.monotonic() - started
        if progress is not None:
            progress(result)
    return result
