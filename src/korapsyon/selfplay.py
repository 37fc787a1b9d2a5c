"""Seat names for a table, and random self-play: a :class:`~.bots.random_bot.RandomAgent`
in every seat, asked by the one driver (:class:`~.bots.agent.Moderator`) — the game
``korapsyon play --bots random`` plays (tests, demos, benchmarks)."""

from __future__ import annotations

import random

from .bots.agent import Agent, play
from .bots.random_bot import RandomAgent
from .rules.game import Game

NAMES = (
    "Ana", "Ben", "Cris", "Dani", "Eli", "Fe", "Gil", "Hugo", "Ivy", "Jun",
    "Kat", "Leo", "Mia", "Nico", "Olga", "Pia", "Quin", "Rey", "Sol", "Tess",
)  # fmt: skip


def table(players: int) -> list[str]:
    """Default seat names for a table of ``players`` (up to 20)."""
    return list(NAMES[:players])


def random_seats(game: Game, rng: random.Random) -> dict[str, Agent]:
    """A random agent in every seat of ``game``, each seeded from ``rng``."""
    return {name: RandomAgent(rng.getrandbits(64)) for name in game.players}


def play_random(
    game: Game, rng: random.Random, *, resubmit: float = 0.0, max_actions: int | None = None
) -> Game:
    """Play ``game`` to its end (or ``max_actions``) with random agents in every seat;
    ``resubmit`` is the chance that the driver asks again a seat that has already acted in
    this step (the last submission counts)."""
    agents = random_seats(game, rng)
    return play(game, agents, rng, resubmit=resubmit, max_actions=max_actions)
