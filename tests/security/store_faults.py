"""The store-fault scenario shared by the full-disk and lost-database tests: a game over a
live server, the store broken mid-game, then mended, and what must hold throughout."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sqlalchemy import create_engine, func, select

from korapsyon.harness import crashtest as ct
from korapsyon.selfplay import table
from korapsyon.store import schema
from tests.server.live import Live, make_room, start


async def until(condition: Callable[[], bool], what: str, seconds: float = 60.0) -> None:
    """Wait (polling) for ``condition``; fail naming ``what`` if it never holds."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


def stored_actions(url: str, code: str) -> int:
    """How many actions of room ``code`` the database holds (its own connection)."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            table_ = schema.actions
            query = select(func.count()).select_from(table_).where(table_.c.room == code)
            return int(conn.execute(query).scalar_one())
    finally:
        engine.dispose()


@dataclass
class FaultRun:
    plan: ct.Plan
    tally: ct.Tally
    acked_when_broken: int  # acks before the store broke
    acked_while_broken: int  # acks when the clients stopped, the store still broken
    refused_while_broken: int  # store_unavailable answers while it was broken
    stored_while_broken: int  # actions in the database (read once mended)
    memory_while_broken: int  # actions in the server's game while it was broken


async def break_and_mend(
    live: Live,
    url: str,
    *,
    break_store: Callable[[], None],
    mend_store: Callable[[], None],
    after: int = 30,
    refusals: int = 5,
    seed: int = 1,
    while_broken: Callable[[], Awaitable[None]] | None = None,
) -> FaultRun:
    """Play a 9-seat game with the crash test's deterministic clients; after ``after`` acks
    break the store, wait for ``refusals`` store_unavailable answers (each checked by the
    clients to have changed no view), stop the clients and look at the server and the
    database, mend the store and let the game finish."""
    code, host, tokens = make_room(live, table(9))
    start(live, code, host)
    plan, tally = ct.Plan(code, host, tokens, seed), ct.Tally()

    def play() -> asyncio.Task[None]:
        return asyncio.create_task(ct.play_room(lambda: live.ws_url, plan, tally, give_up=120))

    game = play()
    await until(lambda: len(tally.acked) >= after or game.done(), f"{after} acks")
    assert not tally.problems, tally.problems
    acked = len(tally.acked)
    await asyncio.to_thread(break_store)
    await until(lambda: tally.refused >= refusals or game.done(), "refusals")
    assert not game.done(), f"the game ended without a refusal: {tally.problems}"
    game.cancel()
    await asyncio.gather(game, return_exceptions=True)
    acked_at_stop = len(tally.acked)
    # the last refused action is rolled back on the server's loop: wait for it to settle
    await until(lambda: len(live.game(code).actions) <= acked_at_stop, "the rollback")
    memory = len(live.game(code).actions)
    refused = tally.refused
    if while_broken is not None:
        await while_broken()
    await asyncio.to_thread(mend_store)
    # nothing could be written meanwhile: the database holds what it held while broken
    stored = await asyncio.to_thread(stored_actions, url, code)
    game = play()
    await game
    return FaultRun(plan, tally, acked, acked_at_stop, refused, stored, memory)


async def check_finished(live: Live, url: str, run: FaultRun, reason: str) -> None:
    """The game finished with the uninterrupted game's record, every ack in it; each
    refusal said ``reason`` plainly (no SQL, no parameters, no database address)."""
    assert run.tally.problems == []
    assert run.tally.finished
    # while broken: the game in memory is what was acknowledged, and every action
    # acknowledged is stored
    assert run.acked_when_broken <= run.acked_while_broken == run.memory_while_broken
    assert run.memory_while_broken <= run.stored_while_broken
    if run.stored_while_broken > run.acked_while_broken:
        # The one case where the store is ahead: the database died while committing the
        # action the clients were then refused for (its answer was lost with it). It is
        # the action they sent again once the store was back, accepted as the same row.
        assert run.stored_while_broken == run.acked_while_broken + 1
        seq, _ = run.tally.acked[run.acked_while_broken]
        assert seq == run.acked_while_broken
    assert run.refused_while_broken >= 5
    for message in run.tally.refusals:
        assert reason in message, message
        assert "SQL" not in message and "127.0.0.1" not in message and "INSERT" not in message
    import httpx

    async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
        record = await ct.fetch_record(http, run.plan)
    verdict = ct.check(record, run.plan, run.tally)
    assert verdict.lost == 0
    assert verdict.equal, "the record differs from the uninterrupted game's"
    assert await asyncio.to_thread(ct.missing_from_store, url, [run.plan], [run.tally]) == []
