"""Drive a game to its end with agents choosing for every seat (tests, benchmarks, demos).

The driver plays the moderator's part: it knows who is still to act and asks them, in a
random order, so that records look like real tables where submissions interleave.
"""

from __future__ import annotations

import random

from .bots.random_bot import random_action
from .rules.actions import HOST, EndDiscussion, Witness
from .rules.game import Game
from .rules.ruleset import Ruleset
from .rules.steps import Step

NAMES = (
    "Ana", "Ben", "Cris", "Dani", "Eli", "Fe", "Gil", "Hugo", "Ivy", "Jun",
    "Kat", "Leo", "Mia", "Nico", "Olga", "Pia", "Quin", "Rey", "Sol", "Tess",
)  # fmt: skip


def table(players: int) -> list[str]:
    """Default seat names for a table of ``players`` (up to 20)."""
    return list(NAMES[:players])


def play_random(
    game: Game,
    rng: random.Random,
    *,
    resubmit: float = 0.0,
    witness: float = 0.5,
    max_actions: int | None = None,
) -> Game:
    """Play ``game`` to its end with uniformly random legal actions.

    ``resubmit`` is the chance that a seat which already acted in this step acts again
    (the last submission counts); ``witness`` the chance that an Ombudsperson who may
    invoke Witness does so before the discussion ends.
    """
    names = game.players
    apply = game.apply
    taken = 0
    while game.outcome is None and (max_actions is None or taken < max_actions):
        taken += 1
        if game.step is Step.DISCUSSION:
            omb = game.ombudsperson
            if omb is not None and game.witness_available(omb) and rng.random() < witness:
                apply(Witness(player=names[omb]))
                continue
            apply(EndDiscussion(player=HOST))
            continue
        if resubmit and game.pending and rng.random() < resubmit:
            seat = rng.choice(sorted(game.pending))
        else:
            seat = rng.choice(sorted(game.waiting_for))
        name = names[seat]
        apply(random_action(game.choices(name), name, rng))
    return game


def random_game(
    players: int = 13,
    seed: int = 0,
    *,
    ruleset: Ruleset | None = None,
    resubmit: float = 0.0,
) -> Game:
    """A complete game with the default composition, dealt and played from ``seed``."""
    game = Game(table(players), seed=seed, ruleset=ruleset)
    return play_random(game, random.Random(seed), resubmit=resubmit)
