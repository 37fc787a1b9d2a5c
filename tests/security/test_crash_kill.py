"""Processes: the server is killed (SIGKILL) mid-game and restarted on the same database.

Crash safety (issue #6): kill -9 the server at random moments of games, restart it on the
same SQLite file, and let the games finish. Every action a client saw acknowledged must be
in the database after each kill, and every finished record must equal the record of the
same game played without interruption (``korapsyon crashtest``; the long runs are in
docs/RELIABILITY.md)."""

from __future__ import annotations

import random
from pathlib import Path

from korapsyon.harness import crashtest as ct
from korapsyon.record import FORMAT, Record
from korapsyon.rules.ruleset import default_roles
from korapsyon.selfplay import table


def test_kill_9_loses_nothing_acknowledged() -> None:
    # the kills fall among the first 300 acks of the two games (a game has 190 or more)
    result = ct.run(runs=2, seed=6, rooms=2, kills=4, per_game=150)
    assert result.problems == []
    assert result.kills == 2 * (4 + 1)  # four mid-game, and one after the last game
    assert result.reconnects >= 8  # the clients really lost the server mid-game
    assert result.games == 4 and result.unfinished == 0
    assert result.acknowledged > 500
    assert result.lost == 0 and result.lost_in_records == 0
    assert result.different == 0
    assert result.ok


def test_the_policy_is_a_function_of_the_views() -> None:
    """The reference is only a reference if the same setup and seed give the same game."""
    roles = default_roles(9)
    random.Random(3).shuffle(roles)
    setup = Record(format=FORMAT, players=table(9), roles=roles, seed=11)
    first, second = ct.reference(setup, 5), ct.reference(setup, 5)
    assert first == second and len(first.actions) > 50
    assert ct.reference(setup, 6) != first  # the policy seed matters


def test_a_lost_acknowledgement_is_caught(tmp_path: Path) -> None:
    """The check that runs after every kill reports an acknowledged action the database
    does not hold (so a server that acked before committing would fail the crash test)."""
    from korapsyon.store.base import RoomRow
    from korapsyon.store.sql import SqlStore

    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    store = SqlStore(url)
    store.migrate()
    store.create_room(RoomRow("ABCDE", 0.0, "playing", {}, "h", None)).result()
    setup = {"format": FORMAT, "players": table(9), "seed": 1}
    store.start_game("ABCDE", setup, 0.0).result()
    ready = {"action": "ready", "player": "Ana"}
    store.writer.submit(
        lambda c: c.exec_driver_sql(
            "INSERT INTO actions (room, seq, data, at) VALUES ('ABCDE', 0, "
            '\'{"action":"ready","player":"Ana"}\', 0)'
        )
    ).result()
    store.close()
    plan = ct.Plan("ABCDE", "h", dict.fromkeys(table(9), "t"), 0)
    tally = ct.Tally(acked=[(0, ready), (1, {"action": "ready", "player": "Ben"})])
    missing = ct.missing_from_store(url, [plan], [tally])
    assert len(missing) == 1 and "acknowledged action 1" in missing[0]
