"""Pairs of scripted games that differ only in facts hidden from one viewer, cut to the
stretch where everything that viewer may know is the same (tests' helper).

Built on tests/hidden_variants.py (engine level): game A is a random game, game B its
variant; :func:`hidden_pair` keeps the actions up to the last moment at which the viewer's
events, the public trackers and the viewer's role are still the same in A and B, and counts
the moments at which the hidden facts (roles, night choices, ballots, Fund, true Kaban...)
really differ, so that a test can show it had bite.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from korapsyon.rules import Game
from korapsyon.rules.actions import Action
from korapsyon.selfplay import play_random
from tests.hidden_variants import Variation, hidden_state, side_by_side, vary


@dataclass
class Pair:
    a: Game  # A's setup (no actions applied)
    b: Game  # B's setup
    a_actions: list[Action]
    b_actions: list[Action]
    viewer: str | None  # a player's name, or None: the public
    differing: int  # moments of the kept stretch at which hidden facts differ


def fresh(game: Game) -> Game:
    return Game(
        game.players, roles=game.roles, seed=game.seed, ruleset=game.ruleset,
        decks=game.initial_decks,
    )  # fmt: skip


def hidden_pair(a: Game, variation: Variation, rng: random.Random, limit: int) -> Pair:
    """A (played to its end) and its variant, cut where the viewer's knowledge parts, or
    after ``limit`` actions."""
    state = rng.getstate()
    kept = differing = 0
    for moment in side_by_side(a, variation, rng):
        if not moment.same_public_state:
            break
        kept += 1
        differing += hidden_state(moment.a) != hidden_state(moment.b)
        if kept > limit:
            break
    again = random.Random()
    again.setstate(state)
    b, b_actions = vary(a, variation, again)  # the same B that side_by_side replayed
    count = max(0, kept - 1)  # moment m follows m actions: m = kept - 1 is the last alike
    viewer = None if variation.viewer is None else a.players[variation.viewer]
    return Pair(fresh(a), fresh(b), list(a.actions[:count]), b_actions[:count], viewer, differing)


def played(game: Game, seed: int) -> Game:
    """``game`` played to its end with random legal actions (some resubmitted)."""
    play_random(game, random.Random(seed), resubmit=0.05)
    return game
