"""A live server for the game: whole games over WebSockets cost about twice the CPU in process.

A commit whose answer is lost (issue #6): the database stored the action but the writer
was told the commit failed, as when the connection dies during COMMIT. The store finds the
row on its retry and reports success, so the action is acknowledged once and stored once;
a different action at that index is refused and never overwrites the stored one."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from korapsyon.record import FORMAT
from korapsyon.selfplay import table
from korapsyon.store import schema
from korapsyon.store.base import RoomRow, StoreError, WriteLog
from korapsyon.store.sql import SqlStore


@pytest.fixture
def store(tmp_path: Path) -> Any:
    store = SqlStore(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    store.migrate()
    store.create_room(RoomRow("ABCDE", 0.0, "lobby", {}, "h", None)).result()
    store.start_game("ABCDE", {"format": FORMAT, "players": table(9), "seed": 1}, 0.0).result()
    yield store
    store.close()


def lose_the_next_commit_answer(store: SqlStore) -> list[int]:
    """The next commit happens, then the driver raises as if the connection had died."""
    dialect = store.engine.dialect
    real = dialect.do_commit
    lost: list[int] = []

    def do_commit(dbapi_connection: Any) -> None:
        real(dbapi_connection)
        if not lost:
            lost.append(1)
            raise sqlite3.OperationalError("disk I/O error (the answer was lost)")

    dialect.do_commit = do_commit  # type: ignore[method-assign]
    return lost


def stored(store: SqlStore) -> list[tuple[int, dict[str, Any]]]:
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(schema.actions.c.seq, schema.actions.c.data).order_by(schema.actions.c.seq)
        )
        return [(row.seq, json.loads(row.data)) for row in rows]


READY = {"action": "ready", "player": "Ana"}
STAND = {"action": "stand", "player": "Ben", "stand": True}


def test_a_lost_commit_answer_is_found_and_acknowledged_once(store: SqlStore) -> None:
    async def go() -> None:
        log = WriteLog()
        lost = lose_the_next_commit_answer(store)
        await store.append_action("ABCDE", 0, READY, 1.0, log)  # succeeds: the row is there
        assert lost == [1]
        assert log.failed < log.generation
        await store.append_action("ABCDE", 1, STAND, 2.0, log)  # the game goes on

    asyncio.run(go())
    assert stored(store) == [(0, READY), (1, STAND)]


def test_the_same_action_sent_again_is_not_stored_twice(store: SqlStore) -> None:
    async def go() -> None:
        await store.append_action("ABCDE", 0, READY, 1.0)
        await store.append_action("ABCDE", 0, READY, 1.5)  # a retry after an unknown outcome

    asyncio.run(go())
    assert stored(store) == [(0, READY)]


def test_a_different_action_never_overwrites_a_stored_one(store: SqlStore) -> None:
    async def go() -> None:
        await store.append_action("ABCDE", 0, READY, 1.0)
        with pytest.raises(StoreError, match="refused the write"):
            await store.append_action("ABCDE", 0, STAND, 2.0, WriteLog())

    asyncio.run(go())
    assert stored(store) == [(0, READY)]


def test_a_live_game_survives_lost_commit_answers(tmp_path: Path) -> None:
    """Over a live server: three commits mid-game lose their answer; the game goes on with
    no refusal, and its record is the uninterrupted game's. (Before the fix, the server
    refused the action, the client sent it again, and every later write of the game failed
    on the row that was stored after all: the game was stuck.)"""
    from korapsyon.harness import crashtest as ct
    from tests.server.live import make_room, running, start

    url = f"sqlite:///{tmp_path / 'live.sqlite3'}"
    with running(url) as live:
        code, host, tokens = make_room(live, table(9))
        start(live, code, host)
        plan, tally = ct.Plan(code, host, tokens, 3), ct.Tally()
        dialect = live.store.engine.dialect
        real = dialect.do_commit
        commits = 0

        def do_commit(dbapi_connection: Any) -> None:
            nonlocal commits
            real(dbapi_connection)
            commits += 1
            if commits in (40, 80, 120):
                raise sqlite3.OperationalError("disk I/O error (the answer was lost)")

        dialect.do_commit = do_commit  # type: ignore[method-assign]
        asyncio.run(ct.play_room(lambda: live.ws_url, plan, tally, give_up=60))
        assert commits > 120
        assert tally.problems == [] and tally.finished and tally.refused == 0

        async def record() -> Any:
            import httpx

            async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
                return await ct.fetch_record(http, plan)

        verdict = ct.check(asyncio.run(record()), plan, tally)
        assert verdict.equal and verdict.lost == 0
