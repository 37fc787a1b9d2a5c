"""The end screens' analyses (:mod:`korapsyon.server.analysis`): each finished game's view
worked out once, a failure not kept, and a room code that comes back with another game
gets that game's analysis."""

from __future__ import annotations

import random

import pytest

from korapsyon.bots import seat_agents
from korapsyon.bots.agent import play
from korapsyon.record import Record, record_of
from korapsyon.rules import Game
from korapsyon.selfplay import table
from korapsyon.server import analysis
from korapsyon.server.analysis import Analyses


def _finished(seed: int) -> Record:
    game = Game(table(9), seed=seed)
    play(game, seat_agents(game, "heuristic", seed), random.Random(seed))
    return record_of(game)


def test_a_view_is_worked_out_once_and_a_failure_is_tried_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str | None] = []
    real = analysis._analyse
    failing = [True]

    def counted(code: str, record: Record, viewer: str | None) -> analysis.Analysis:
        calls.append(viewer)
        if failing[0]:
            failing[0] = False
            raise RuntimeError("the machine ran out of something")
        return real(code, record, viewer)

    monkeypatch.setattr(analysis, "_analyse", counted)
    analyses, record = Analyses(), _finished(1)
    with pytest.raises(RuntimeError):
        analyses.of("ABCD", record, None)
    first = analyses.of("ABCD", record, None)
    assert analyses.of("ABCD", record, None) is first
    ana = analyses.of("ABCD", record, record.players[0])
    assert ana.view == record.players[0] and first.view == "public"
    assert calls == [None, None, record.players[0]]


def test_a_room_code_that_comes_back_gets_its_new_game_s_analysis() -> None:
    analyses = Analyses()
    old, new = _finished(1), _finished(2)
    assert analyses.of("ABCD", new, None) != analyses.of("ABCD", old, None)
    assert analyses.of("ABCD", new, None) == analysis._analyse("ABCD", new, None)
