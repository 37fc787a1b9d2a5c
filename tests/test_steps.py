"""The step table (steps.py) is the truth about the flow of a Year: every transition a
game takes is listed in it, and docs/ARCHITECTURE.md shows the same diagram."""

from __future__ import annotations

import random
from pathlib import Path

from korapsyon.rules import Game, Ruleset, Step
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
