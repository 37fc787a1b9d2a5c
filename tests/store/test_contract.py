"""One contract for every store (:class:`korapsyon.store.base.Store`): the in-memory store,
SQLite, and PostgreSQL at KORAPSYON_TEST_POSTGRES. The server relies on exactly this."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from korapsyon.store import MemoryStore, SqlStore, Store
from korapsyon.store.base import ChatRow, RoomRow, SeatRow, StoreError, WriteLog
from tests.conftest import clean_postgres


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    made: Store
    if request.param == "memory":
        made = MemoryStore()
    elif request.param == "sqlite":
        made = SqlStore(f"sqlite:///{tmp_path / 'korapsyon.sqlite3'}")
    else:
        made = SqlStore(clean_postgres())
    made.migrate()
    yield made
    made.close()


def _ok(future: Future[Any]) -> Any:
    return future.result(timeout=30)


def _refused(future: Future[Any]) -> StoreError:
    error = future.exception(timeout=30)
    assert isinstance(error, StoreError), error
    assert (error.code, error.status) == ("store_unavailable", 503)
    return error


def _room(code: str = "ABCDE", status: str = "lobby") -> RoomRow:
    return RoomRow(code, 1.5, status, {"timers": False, "durations": {"elect": 9}}, "h" * 64, None)


def _append(store: Store, code: str, seq: int, data: dict[str, Any], log: WriteLog | None) -> Any:
    async def run() -> Any:
        return await store.append_action(code, seq, data, 2.0, log)

    return asyncio.run(run())


def test_a_room_reads_back_as_written(store: Store) -> None:
    _ok(store.create_room(_room()))
    _ok(store.add_seat("ABCDE", SeatRow(0, "Ana", None, "t" * 64)))
    _ok(store.add_seat("ABCDE", SeatRow(1, "Bot Tala", "heuristic", None)))
    _ok(store.update_room("ABCDE", settings={"timers": True}))
    row = store.load_room("ABCDE")
    assert row is not None
    assert (row.code, row.created_at, row.status, row.host_token) == (
        "ABCDE",
        1.5,
        "lobby",
        "h" * 64,
    )
    assert row.settings == {"timers": True}
    assert row.seats == [
        SeatRow(0, "Ana", None, "t" * 64),
        SeatRow(1, "Bot Tala", "heuristic", None),
    ]
    assert (row.setup, row.actions, row.chats, row.timer, row.next_room) == (
        None,
        [],
        [],
        None,
        None,
    )
    assert store.load_room("ZZZZZ") is None


def test_a_code_or_a_seat_taken_twice_is_refused(store: Store) -> None:
    _ok(store.create_room(_room()))
    _refused(store.create_room(_room()))
    _ok(store.add_seat("ABCDE", SeatRow(0, "Ana", None, None)))
    _refused(store.add_seat("ABCDE", SeatRow(0, "Ben", None, None)))
    row = store.load_room("ABCDE")
    assert row is not None and [s.name for s in row.seats] == ["Ana"]


def test_seats_are_replaced_and_handed_to_stand_ins(store: Store) -> None:
    _ok(store.create_room(_room()))
    for index, name in enumerate(["Ana", "Ben", "Cora"]):
        _ok(store.add_seat("ABCDE", SeatRow(index, name, None, None)))
    _ok(
        store.replace_seats(
            "ABCDE", [SeatRow(0, "Ana", None, None), SeatRow(1, "Cora", None, None)]
        )
    )
    _ok(store.set_stand_in("ABCDE", 1, "heuristic"))
    row = store.load_room("ABCDE")
    assert row is not None
    assert [(s.name, s.stand_in) for s in row.seats] == [("Ana", None), ("Cora", "heuristic")]


def test_a_game_keeps_its_setup_actions_chat_and_timer(store: Store) -> None:
    _ok(store.create_room(_room()))
    _ok(store.start_game("ABCDE", {"players": ["Ana"], "seed": 3}, 2.0))
    for seq in (1, 0, 2):  # read back in the record's order
        _append(store, "ABCDE", seq, {"action": "stand", "player": "Ana", "n": seq}, None)
    _ok(store.append_chat("ABCDE", ChatRow(0, "public", "Ana", "hi", 1, 3.0)))
    _refused(store.append_chat("ABCDE", ChatRow(0, "public", "Ana", "again", 1, 3.0)))
    _ok(store.set_timer("ABCDE", {"serial": 1, "deadline": 9.0, "paused": None}))
    _ok(store.set_timer("ABCDE", {"serial": 2, "deadline": None, "paused": 4.5}))
    row = store.load_room("ABCDE")
    assert row is not None and row.status == "playing"
    assert row.setup == {"players": ["Ana"], "seed": 3}
    assert [a["n"] for a in row.actions] == [0, 1, 2]
    assert row.chats == [ChatRow(0, "public", "Ana", "hi", 1, 3.0)]
    assert row.timer == {"serial": 2, "deadline": None, "paused": 4.5}
    assert [r.code for r in store.load_rooms()] == ["ABCDE"]
    _ok(store.finish_game("ABCDE", 5.0))
    row = store.load_room("ABCDE")
    assert row is not None and (row.status, row.timer) == ("finished", None)
    assert store.load_rooms() == []
    assert [r.code for r in store.load_rooms(finished=True)] == ["ABCDE"]


def test_an_action_again_is_accepted_and_another_refused_with_every_later_write(
    store: Store,
) -> None:
    _ok(store.create_room(_room()))
    _ok(store.start_game("ABCDE", {}, 2.0))
    log = WriteLog()
    _append(store, "ABCDE", 0, {"n": 0}, log)
    _append(store, "ABCDE", 0, {"n": 0}, log)  # a lost answer, the same action sent again
    with pytest.raises(StoreError):
        _append(store, "ABCDE", 0, {"n": 9}, log)  # never overwritten
    with pytest.raises(StoreError):
        _append(store, "ABCDE", 1, {"n": 1}, log)  # no hole: the generation has failed
    log.generation += 1  # the game was rebuilt from what was committed
    _append(store, "ABCDE", 1, {"n": 1}, log)
    row = store.load_room("ABCDE")
    assert row is not None and row.actions == [{"n": 0}, {"n": 1}]


def test_a_rematch_has_one_successor_ever(store: Store) -> None:
    _ok(store.create_room(_room(status="finished")))
    new = RoomRow("FGHJK", 4.0, "lobby", {}, "h" * 64, None,
                  seats=[SeatRow(0, "Ana", None, "t" * 64)], setup={"seed": 1})  # fmt: skip
    _ok(store.rematch("ABCDE", new, 4.0))
    other = RoomRow("LMNPQ", 4.0, "lobby", {}, "h" * 64, None, setup={"seed": 2})
    _refused(store.rematch("ABCDE", other, 4.0))
    _refused(store.rematch("ABCDE", new, 4.0))  # its code is taken too
    old, made = store.load_room("ABCDE"), store.load_room("FGHJK")
    assert old is not None and old.next_room == "FGHJK"
    assert made is not None and (made.status, made.setup) == ("playing", {"seed": 1})
    assert [s.name for s in made.seats] == ["Ana"]
    assert store.load_room("LMNPQ") is None  # nothing of the refused one was kept


def test_a_worker_reads_only_the_rooms_it_owns(store: Store) -> None:
    for code in ("AAAAA", "BBBBB", "CCCCC"):
        _ok(store.create_room(_room(code)))
    store.flush()
    mine = store.load_rooms(owned=lambda code: code != "BBBBB")
    assert sorted(r.code for r in mine) == ["AAAAA", "CCCCC"]
    assert store.commits > 0
