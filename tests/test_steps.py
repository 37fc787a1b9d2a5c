"""The step table (steps.py) is the truth about the flow of a Year: every transition a
game takes is listed in it, and docs/ARCHITECTURE.md shows the same diagram."""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import pytest

from korapsyon.rules import Game, Ruleset, Step
from korapsyon.rules.engine import TransitionError
from korapsyon.rules.events import GameOver, StepStarted, YearStarted
from korapsyon.rules.steps import NIGHT_ACTIONS, STEPS, diagram
from korapsyon.selfplay import play_random, table

ROOT = Path(__file__).parent.parent


def test_every_step_has_a_spec_and_every_role_a_night_action() -> None:
    assert set(STEPS) == set(Step)
    assert {cls.kind for cls in NIGHT_ACTIONS.values()} == {
        "protect",
        "investigate",
        "corrupt",
        "auto_jail",
        "ready",
    }


def test_games_only_take_transitions_listed_in_the_table() -> None:
    seen: set[tuple[Step, Step | None]] = set()
    for seed in range(60):
        rules = Ruleset(auto_jail_mode="forced_vote" if seed % 2 else "direct")
        game = play_random(Game(table(9 + seed % 8), seed=seed, ruleset=rules), random.Random(seed))
        previous: Step | None = None
        for event in game.events:
            if isinstance(event, StepStarted):
                step = Step(event.step)
                if previous is not None:
                    seen.add((previous, step))
                previous = step
            elif isinstance(event, (YearStarted, GameOver)) and previous is not None:
                seen.add((previous, None))
                previous = None
    listed = {(spec.step, after) for spec in STEPS.values() for after in spec.successors}
    assert seen <= listed
    # Random play walks the whole table but for two rare edges: an election with nobody
    # active (no candidate at all) and a Witness vote that completes a purge.
    assert listed - seen <= {(Step.ELECT, Step.DISCUSSION), (Step.WITNESS_VOTE, None)}


def test_architecture_doc_shows_the_step_table() -> None:
    doc = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    assert diagram() in doc, "paste korapsyon.rules.steps.diagram() into docs/ARCHITECTURE.md"


def test_the_engine_refuses_a_transition_the_table_does_not_list(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table is the truth: a resolution that returns a step its spec does not list is
    a bug in the core, and the engine stops it instead of taking it (as h11 does)."""
    game = Game(table(9), seed=1)  # Year 1's night: no President yet, so the election next
    hidden = STEPS[Step.HIDDEN]
    assert Step.STAND in hidden.successors
    unlisted = tuple(s for s in hidden.successors if s is not Step.STAND)
    monkeypatch.setitem(STEPS, Step.HIDDEN, msgspec.structs.replace(hidden, successors=unlisted))
    *first, last = game.players
    for name in first:
        game.apply(game.default_action(name))
    with pytest.raises(TransitionError, match="hidden resolved to stand"):
        game.apply(game.default_action(last))


def test_each_step_spec_answers_for_its_actors() -> None:
    """One spec per step carries its checks, choices, default, resolution and duration:
    in every step of random games, each actor's default is legal and among its choices."""
    for seed in range(6):
        game = Game(table(9 + seed), seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            step = game.step
            assert step is not None
            spec = STEPS[step]
            assert spec.duration > 0 and spec.accepts
            actors = sorted(game.waiting_for)
            seat = rng.choice(actors)
            name = "@host" if seat < 0 else game.players[seat]
            action = game.default_action(name)
            assert type(action) in spec.accepts
            assert action in game.legal_actions(name)
            game.apply(action)
