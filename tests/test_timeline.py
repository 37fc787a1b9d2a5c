"""The timeline as data: every entry names its kind and its facts (``params``), so that a
client words it in its reader's language, and the server sends no English (issue #18)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from korapsyon.rules import Game, Ruleset
from korapsyon.rules.script import cue, script_line
from korapsyon.rules.timeline import describe, is_news, params
from korapsyon.rules.views import MODERATOR_VIEWER, ViewTracker
from korapsyon.selfplay import play_random, table

WORDS = {"text", "script", "step_title", "goal", "role_title"}


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


@pytest.mark.parametrize("seed", range(6))
def test_entries_carry_their_facts_and_views_without_words_hold_no_english(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(table(9 + seed), seed=seed, ruleset=Ruleset(max_years=8))
    viewers = [None, MODERATOR_VIEWER, *game.players]
    trackers = [ViewTracker(game, who, words=False) for who in viewers]
    cues = set()
    while not game.is_over:
        play_random(game, rng, max_actions=7)
        for tracker in trackers:
            view = tracker.view()
            assert not _keys(view) & WORDS
            assert all(
                set(e) <= {"year", "kind", "params", "private", "audience"}
                for e in view["timeline"]
            )
            json.dumps(view)
        cues.add(cue(game)["key"])
        assert script_line(game)  # the English line of the same cue
    assert len(cues) >= 6
    for event in game.events:
        assert is_news(event) == (describe(event) is not None), event
        if is_news(event):
            json.dumps(params(event))  # plain data


def test_a_view_with_words_has_the_english_lines_too() -> None:
    game = Game(table(9), seed=1)
    view = ViewTracker(game, game.players[0]).view()
    assert view["script"] and view["step_title"] and view["you"]["goal"]
    assert all(entry["text"] and "params" in entry for entry in view["timeline"])
