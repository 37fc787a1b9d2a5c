"""Players that are not people: agents that play a seat through that seat's view.

* :mod:`.agent` - the agent interface (observe events, act on a prompt) and the in-process
  driver :func:`~.agent.play`;
* :mod:`.random_bot` - uniformly random legal actions;
* :mod:`.heuristic` - the default bot, which plays every role sensibly;
* :mod:`.beliefs` - who probably holds which role, from one view's events;
* :mod:`.believer` - the heuristic, its Good seats suspecting from their beliefs;
* :mod:`.search` - the ``search`` bot: determinised Monte Carlo over worlds drawn from its
  beliefs, with heuristic roll-outs;
* :mod:`.text` - a plain-text rendering of a view, for language-model agents.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..rules.game import Game
from ..rules.roles import Role
from .agent import Agent, Prompt, play, prompt_for
from .heuristic import Board, HeuristicAgent
from .kinds import AGENT_KINDS, BOT_KINDS
from .random_bot import RandomAgent


def make_agent(kind: str, seed: int | str, board: Board | None = None) -> Agent:
    """One agent: ``heuristic`` (sharing ``board`` if given), ``random``, ``believer`` or
    ``search`` (their heuristic part sharing ``board``)."""
    if kind == "heuristic":
        return HeuristicAgent(seed, board)
    if kind == "random":
        return RandomAgent(seed)
    if kind == "believer":
        from .believer import BelieverAgent  # (numpy and the beliefs: loaded when asked for)

        return BelieverAgent(seed, board)
    if kind == "search":
        from .search import SearchAgent  # (numpy and the beliefs: loaded when asked for)

        return SearchAgent(seed, board)
    raise ValueError(f"unknown bot kind {kind!r}; choose from {', '.join(AGENT_KINDS)}")


def seat_agents(
    game: Game, kind: str | Callable[[int, Role], str], seed: int | str
) -> dict[str, Agent]:
    """An agent for every seat of ``game``.

    ``kind`` is ``heuristic``, ``random``, ``believer``, ``search`` or ``mix`` (each seat
    drawn 50/50 heuristic or random from the seed), ``GOOD:BAD`` (e.g. ``search:heuristic``:
    the Good seats search, the Corrupt heuristic), or a function (seat, role) -> a kind.
    The heuristic agents of one game (and the heuristic part of the believer and search
    agents) share one public :class:`Board` (it only ever reads public events). Each
    agent's own randomness is seeded from ``seed`` and its seat.
    """
    if isinstance(kind, str) and ":" in kind:
        good, _, bad = kind.partition(":")
        return seat_agents(
            game, lambda seat, role: bad if role is Role.CORRUPT_POLITICIAN else good, seed
        )
    board = Board()
    agents: dict[str, Agent] = {}
    mixer = random.Random(f"{seed}/mix")
    for seat, name in enumerate(game.players):
        if callable(kind):
            chosen = kind(seat, game.roles[seat])
        elif kind == "mix":
            chosen = "heuristic" if mixer.random() < 0.5 else "random"
        else:
            chosen = kind
        if chosen not in AGENT_KINDS:
            raise ValueError(f"unknown bot kind {chosen!r}; choose from {', '.join(BOT_KINDS)}")
        agents[name] = make_agent(chosen, f"{seed}/{seat}", board)
    return agents


__all__ = [
    "AGENT_KINDS",
    "BOT_KINDS",
    "Agent",
    "Board",
    "HeuristicAgent",
    "Prompt",
    "RandomAgent",
    "make_agent",
    "play",
    "prompt_for",
    "seat_agents",
]
