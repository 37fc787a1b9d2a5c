"""One room can never stop the server, nor another room (issue #17, critical).

Observed from outside before the fix: a bot added (or a seat joined by code) while the
start was committing its deal was taken into a room whose game was dealt without it. The
start answered 500, the room stayed "playing" with no game, and after a restart
``korapsyon serve`` exited before serving anything, because rebuilding that one room
failed; a late seat's connection stayed in the room for ever and broke every later client
of the room. Here the start's commit is held open on purpose (the store's one writer is
made to wait on an event), so the window the attack needed luck to hit is as wide as the
test wants. The application runs in process over SQLite (the SQL store's writer is the one
held); a restart is the application built again over the same file.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from korapsyon.selfplay import table
from korapsyon.server.session import GameSession
from korapsyon.store.base import SeatRow, StoreError
from korapsyon.store.sql import SqlStore
from tests.security.attack import Socket, attacked, human_room
from tests.server.inprocess import Local

NAMES = table(9)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'korapsyon.sqlite3'}"


def lobby(live: Local) -> tuple[str, str]:
    """A room with nine people seated, not started: (code, host token)."""
    with live.http() as http:
        created = http.post("/api/rooms", json={"settings": {"timers": False}}).json()
        for name in NAMES:
            http.post(f"/api/rooms/{created['code']}/seats", json={"name": name})
    return created["code"], created["host_token"]


def until(condition: Callable[[], bool], what: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.005)


def test_no_lobby_change_is_taken_into_a_room_being_dealt(db: str) -> None:
    """While the deal is being committed, a bot, a join by code, a removal and a settings
    change are each refused with 409 ``starting`` and change nothing; the start answers 200
    with the nine seats dealt, and the room comes back whole after a restart."""
    with attacked(db) as live:
        code, host = lobby(live)
        auth = {"authorization": f"Bearer {host}"}
        gate, held = threading.Event(), threading.Event()

        def hold(conn: object) -> None:
            held.set()
            gate.wait(30)

        store = live.store
        assert isinstance(store, SqlStore)
        store.writer.submit(hold)  # the writer waits in this commit until the gate opens
        assert held.wait(10)
        with live.http() as http, ThreadPoolExecutor(4) as pool:
            started = pool.submit(http.post, f"/api/rooms/{code}/start", headers=auth)
            # the start's commit is queued behind the held one: the deal is being committed
            until(lambda: store.writer.queue.qsize() > 0, "the start did not begin")
            late: list[Callable[[], httpx.Response]] = [
                lambda: http.post(f"/api/rooms/{code}/bots", json={}, headers=auth),
                lambda: http.post(f"/api/rooms/{code}/seats", json={"name": "Late0"}),
                lambda: http.delete(f"/api/rooms/{code}/seats/0", headers=auth),
                lambda: http.put(f"/api/rooms/{code}/settings", json={}, headers=auth),
                lambda: http.post(f"/api/rooms/{code}/start", headers=auth),
            ]
            answers = [pool.submit(request).result(timeout=10) for request in late]
            gate.set()
            answer = started.result(timeout=30)
        assert answer.status_code == 200, answer.text
        for refused in answers:
            assert refused.status_code == 409, refused.text
            assert refused.json()["error"]["code"] == "starting"
        assert answer.json()["status"] == "playing"
        assert [s["name"] for s in answer.json()["seats"]] == NAMES
        assert list(live.game(code).players) == NAMES
    with attacked(db) as again:  # the store holds the room as it was dealt
        assert list(again.game(code).players) == NAMES
        assert Socket(again, {"room": code, "spectate": True}).alive()


def test_a_start_whose_commit_fails_leaves_the_lobby_as_it_was(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store refuses the deal: the start answers 503 and the room is still a lobby
    that takes seats and can be started again."""
    with attacked(db) as live:
        code, host = lobby(live)
        auth = {"authorization": f"Bearer {host}"}

        def failing(*args: Any) -> Future[Any]:
            monkeypatch.undo()  # once
            future: Future[Any] = Future()
            future.set_exception(StoreError("the database's disk is full"))
            return future

        monkeypatch.setattr(live.store, "start_game", failing)
        with live.http() as http:
            refused = http.post(f"/api/rooms/{code}/start", headers=auth)
            assert refused.status_code == 503, refused.text
            assert refused.json()["error"]["code"] == "store_unavailable"
            assert live.hub.rooms[code].status == "lobby"
            assert live.hub.rooms[code].session is None
            seat = http.post(f"/api/rooms/{code}/seats", json={"name": "Tenth"})
            assert seat.status_code == 201
            answer = http.post(f"/api/rooms/{code}/start", headers=auth)
            assert answer.status_code == 200, answer.text
        assert list(live.game(code).players) == [*NAMES, "Tenth"]


def test_a_connection_whose_set_up_fails_never_joins_the_room(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure while a connection is being set up (here its first view cannot be built)
    closes it with an ``internal`` error and leaves no trace in the room: the seat is not
    shown as connected and every other client of the room connects as before."""
    with attacked(db) as live:
        code, _, tokens = human_room(live, NAMES)
        victim = NAMES[0]
        real = GameSession.send_view

        def broken(session: GameSession, conn: Any) -> None:
            if conn.seat == victim:
                raise RuntimeError("a bug while building the view")
            real(session, conn)

        monkeypatch.setattr(GameSession, "send_view", broken)
        failed = Socket(live)
        failed.send(json.dumps({"type": "hello", "room": code, "token": tokens[victim]}))
        close_code, _, said = failed.closed()
        assert [m["code"] for m in said if m["type"] == "error"] == ["internal"]
        assert close_code == 1011
        room = live.hub.rooms[code]
        assert all(c.seat != victim for c in room.connections)
        assert not room.info().seats[0].connected
        for name in NAMES[1:]:  # everyone else joins and plays
            assert Socket(live, {"room": code, "token": tokens[name]}).alive()
        assert Socket(live, {"room": code, "spectate": True}).alive()
        monkeypatch.setattr(GameSession, "send_view", real)
        assert Socket(live, {"room": code, "token": tokens[victim]}).alive()


def test_a_second_screen_whose_set_up_fails_leaves_the_first_its_seat(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seat's older connection is let go only once the newer one is fully set up: if
    that fails, the older keeps the seat (it is not told to stop, nor closed)."""
    with attacked(db) as live:
        code, _, tokens = human_room(live, NAMES)
        name = NAMES[0]
        first = Socket(live, {"room": code, "token": tokens[name]})
        real = GameSession.send_view

        def broken(session: GameSession, conn: Any) -> None:
            raise RuntimeError("a bug while building the view")

        monkeypatch.setattr(GameSession, "send_view", broken)
        second = Socket(live)
        second.send(json.dumps({"type": "hello", "room": code, "token": tokens[name]}))
        assert [m["code"] for m in second.closed()[2] if m["type"] == "error"] == ["internal"]
        monkeypatch.setattr(GameSession, "send_view", real)
        assert first.alive()  # no "replaced", still served
        seated = [c for c in live.hub.rooms[code].connections if c.seat == name]
        assert len(seated) == 1 and not seated[0].closed


def test_a_room_that_cannot_be_rebuilt_is_set_aside_and_the_server_serves_the_others(
    db: str,
) -> None:
    """A room whose stored seats do not match its deal (the state the start race left) is
    logged, marked and refused with 503 ``room_damaged``; the server starts, every other
    room's game goes on, and the store keeps the damaged room as it was."""
    with attacked(db) as live:
        healthy, _, tokens = human_room(live, NAMES)
        damaged, _, _ = human_room(live, NAMES)
        live.store.add_seat(damaged, SeatRow(len(NAMES), "LateBot0", "heuristic", None))
        live.store.flush()
    with attacked(db) as live, live.http() as http:
        assert http.get("/healthz").json()["damaged"] == [damaged]
        for answer in (
            http.get(f"/api/rooms/{damaged}"),
            http.post(f"/api/rooms/{damaged}/seats", json={"name": "Zed"}),
            http.get(f"/api/rooms/{damaged}/record"),
        ):
            assert answer.status_code == 503, answer.text
            error = answer.json()["error"]
            assert error["code"] == "room_damaged" and damaged in error["message"]
        refused = Socket(live)
        refused.send(json.dumps({"type": "hello", "room": damaged, "spectate": True}))
        assert [m["code"] for m in refused.closed()[2]] == ["room_damaged"]
        assert http.get(f"/api/rooms/{healthy}").json()["status"] == "playing"
        player = Socket(live, {"room": healthy, "token": tokens[NAMES[0]]})
        assert player.alive()
        assert live.game(healthy).players == tuple(NAMES)
        kept = live.store.load_room(damaged)
        assert kept is not None and len(kept.seats) == len(NAMES) + 1  # kept as it was
