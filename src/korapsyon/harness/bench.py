"""Benchmarks: games played by bots and record replay (``korapsyon bench``)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..bots import seat_agents
from ..bots.agent import play
from ..record import record_of, replay_bytes, write_record
from ..rules.game import Game
from ..selfplay import table


@dataclass(frozen=True)
class PlaySpeed:
    games_per_second: float
    actions_per_second: float
    mean_years: float


def bot_game(players: int, seed: int, bots: str) -> Game:
    """A game of ``players`` dealt and played from ``seed`` with ``bots`` (a kind of
    :func:`~korapsyon.bots.seat_agents`) in every seat: ``korapsyon play --bots``."""
    game = Game(table(players), seed=seed)
    return play(game, seat_agents(game, bots, seed), random.Random(seed))


def play_speed(players: int, games: int, bots: str, rounds: int = 3) -> PlaySpeed:
    """Full games per second on one core (best of ``rounds``), every seat played by
    ``bots``."""
    best = float("inf")
    actions = years = 0
    for _ in range(rounds):
        actions = years = 0
        start = time.perf_counter()
        for seed in range(games):
            game = bot_game(players, seed, bots)
            actions += len(game.actions)
            years += game.year
        best = min(best, time.perf_counter() - start)
    return PlaySpeed(games / best, actions / best, years / games)


def records_for_bench(players: int, games: int) -> list[tuple[bytes, int]]:
    """Serialised records of random games, with their action counts."""
    out = []
    for seed in range(games):
        game = bot_game(players, seed, "random")
        out.append((write_record(record_of(game)), len(game.actions)))
    return out


def replay_speed(records: list[bytes], actions: int, rounds: int = 3) -> float:
    """Actions per second replaying serialised records: parse, check, apply, summarise."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for data in records:
            replay_bytes(data)
        best = min(best, time.perf_counter() - start)
    return actions / best
