"""The ``believer`` bot: the heuristic bot, whose Good seats suspect from their beliefs.

A :class:`BelieverAgent` plays every decision as :class:`~.heuristic.HeuristicAgent` does,
but in a Good seat the suspicion those decisions read (who to elect, who to seat on a
committee, who to jail, whether to back a project, whom to protect or investigate) is not
the heuristic's hand-weighted score: it is its seat's :class:`~.beliefs.Beliefs`, each
player's probability of being Corrupt put on the heuristic's scale,

    suspicion = SCALE * (logit P(Corrupt) - logit(base rate)),

so that a player the beliefs know nothing about scores 0, as with the heuristic, and its
thresholds keep their sense (at 13 players, 3 Corrupt among the 12 others: P = 0.5 scores
+1.1, 0.75 scores +2.2, 0.1 scores -1.1). What the heuristic knows for sure (its own role,
an Ombudsperson's finding, a lie it saw through, a revealed role) stays certain. A Corrupt
seat knows every side already: it plays exactly as the heuristic does.

Why: the beliefs are twice as sharp as the heuristic's suspicion (Brier 0.08 against 0.15
at 13 players, docs/BOTS.md), and on the same deals this alone lifts Good's win rate
against heuristic Corrupt by about 40 points (docs/BOTS.md, "Strength ladder"), at about
0.4 CPU seconds a 13-player game: the beliefs' posterior, once a step at most.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..rules.events import BaseEvent
from ..rules.roles import Team
from .beliefs import Beliefs
from .heuristic import CERTAIN, Board, HeuristicAgent

SCALE = 1.0
"""Suspicion points per unit of log-odds. Measured against heuristic Corrupt on the
ladder's 400 tuned 13-player deals (docs/BOTS.md): 1.0 and 2.0 play alike (Good 94.8% and
93.5%), 4.0 worse (87.8% of the first 353)."""

SURE = 1e-4  # a probability this close to 0 or 1 is a fact: certain, as the heuristic's


class BelieverAgent(HeuristicAgent):
    """The heuristic bot reading its seat's beliefs for its suspicion (see the module)."""

    def __init__(self, seed: int | str = 0, board: Board | None = None) -> None:
        super().__init__(seed, board)
        self.beliefs: Beliefs | None = None
        self._prior = 0.0
        self._believed: list[float] = []
        self._believed_at = -1

    def observe(self, events: Sequence[BaseEvent]) -> None:
        super().observe(events)
        if self.beliefs is None:
            self.beliefs = Beliefs.start(events)
            others = len(self.beliefs.players) - 1
            rate = self.beliefs.corrupt_count / others
            self._prior = math.log(rate / (1.0 - rate))
        else:
            self.beliefs.observe(events)

    def scores(self) -> list[float]:
        """The heuristic's certainties; every other player's suspicion from the beliefs."""
        known = super().scores()
        role, beliefs = self.mem.role, self.beliefs
        if role is None or role.team is not Team.GOOD or beliefs is None:
            return known
        if self._believed_at == self.seen:
            return self._believed
        corrupt = beliefs.corrupt_probability()
        believed: list[float] = []
        for seat, name in enumerate(beliefs.players):
            p = corrupt[name]
            if abs(known[seat]) >= CERTAIN:
                believed.append(known[seat])
            elif p >= 1.0 - SURE:
                believed.append(CERTAIN)
            elif p <= SURE:
                believed.append(-CERTAIN)
            else:
                believed.append(SCALE * (math.log(p / (1.0 - p)) - self._prior))
        self._believed, self._believed_at = believed, self.seen
        return believed
