"""How fast the search bot decides: ``python -m korapsyon.bots.search.measure``.

Plays a few games with search bots on one side and heuristic bots on the other, times
every decision a search bot searched, and prints decisions per second, the time per
decision (mean, 90th percentile), roll-outs and worlds per decision, how many drawn
worlds could not be rebuilt, and how often the search did not take its first option (the
believer's).
Times are the process's CPU time (the machine may be shared); the clock is only read
here, never by the bot (its choices do not depend on time).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from ...rules.actions import Action
from ...rules.game import Game
from ...rules.roles import Role
from ...selfplay import table
from ..agent import Agent, Prompt, play
from ..heuristic import Board, HeuristicAgent
from . import Budget, SearchAgent


class _Timed(SearchAgent):
    """A search agent that notes how long each searched decision took."""

    def __init__(self, seed: str, board: Board, budget: Budget, times: list[float]) -> None:
        super().__init__(seed, board, budget)
        self.times = times

    def act(self, prompt: Prompt) -> Action | None:
        before, start = self.stats.searched, time.process_time()
        action = super().act(prompt)
        if self.stats.searched > before:
            self.times.append(time.process_time() - start)
        return action


def measure(players: int, games: int, seed: int, side: str, budget: Budget) -> dict[str, float]:
    """Play ``games`` games with search bots on ``side`` (good or bad)."""
    times: list[float] = []
    agents_made: list[SearchAgent] = []
    wins = 0
    for number in range(games):
        game_seed = random.Random(f"measure/{seed}/{number}").getrandbits(62)
        game = Game(table(players), seed=game_seed)
        board = Board()
        agents: dict[str, Agent] = {}
        for s, name in enumerate(game.players):
            corrupt = game.roles[s] is Role.CORRUPT_POLITICIAN
            if corrupt == (side == "bad"):
                agent = _Timed(f"{game_seed}/{s}", board, budget, times)
                agents_made.append(agent)
                agents[name] = agent
            else:
                agents[name] = HeuristicAgent(f"{game_seed}/{s}", board)
        play(game, agents, random.Random(game_seed))
        assert game.outcome is not None
        wins += game.outcome.winner == ("good" if side == "good" else "bad")
    stats = [a.stats for a in agents_made]
    searched = sum(s.searched for s in stats)
    worlds = sum(s.worlds for s in stats)
    rejected = sum(s.rejected for s in stats)
    total = sum(times)
    return {
        "games": games,
        "search side wins": wins,
        "searched decisions": searched,
        "decisions/CPU s": searched / total if total else 0.0,
        "mean CPU ms": 1000 * total / max(1, searched),
        "p90 CPU ms": 1000 * statistics.quantiles(times, n=10)[-1] if len(times) > 1 else 0.0,
        "roll-outs/decision": sum(s.rollouts for s in stats) / max(1, searched),
        "worlds/decision": worlds / max(1, searched),
        "draws rejected %": 100 * rejected / max(1, worlds + rejected),
        "changed %": 100 * sum(s.changed for s in stats) / max(1, searched),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=13)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--side", choices=("good", "bad"), default="good")
    parser.add_argument("--worlds", type=int, default=Budget.worlds)
    parser.add_argument("--corrupt-worlds", type=int, default=Budget.corrupt_worlds)
    parser.add_argument("--options", type=int, default=Budget.options)
    args = parser.parse_args(argv)
    budget = Budget(worlds=args.worlds, corrupt_worlds=args.corrupt_worlds, options=args.options)
    for key, value in measure(args.players, args.games, args.seed, args.side, budget).items():
        print(f"{key:>20}: {value:.1f}" if isinstance(value, float) else f"{key:>20}: {value}")


if __name__ == "__main__":
    main()
