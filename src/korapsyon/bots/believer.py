"""The ``believer`` bot: the heuristic bot, reading beliefs where the heuristic guesses.

A :class:`BelieverAgent` plays every decision as :class:`~.heuristic.HeuristicAgent` does,
but for what the heuristic reads from hand-weighted scores it reads
:class:`~.beliefs.Beliefs`.

**A Good seat** suspects from its seat's beliefs: the suspicion its decisions read (who to
elect, who to seat on a committee, who to jail, whether to back a project, whom to protect
or investigate) is each player's probability of being Corrupt put on the heuristic's scale,

    suspicion = SCALE * (logit P(Corrupt) - logit(base rate)),

so that a player the beliefs know nothing about scores 0, as with the heuristic, and its
thresholds keep their sense (at 13 players, 3 Corrupt among the 12 others: P = 0.5 scores
+1.1, 0.75 scores +2.2, 0.1 scores -1.1). What the heuristic knows for sure (its own role,
an Ombudsperson's finding, a lie it saw through, a revealed role) stays certain.

**A Corrupt seat** knows every side already; what it lacks is how the table sees it. It
keeps the public view's beliefs (``seat=None``: they take only public events, and refuse
any other) and plays as a Corrupt who knows the table counts (docs/BOTS.md, "believer"):

* whom the table suspects is read from those beliefs (:meth:`table_suspicion`: the team's
  jail vote goes to the Good player the table suspects most, an accusation likewise);
* as President it picks the card as a Good President would (a Large pick is a Corrupt's
  in the table's eyes, ``BehaviourModel.large_bad``), and names a small committee (3 or
  fewer) without a teammate while a COA may still audit it (its kickback would point at
  one of at most three players);
* it never bluffs an investigation: there is one Ombudsperson, so a second claimed
  finding exposes one of its claimants (its other bluffs, the heuristic's, stay);
* it steals every night (R-25), also after a teammate's jailing changed the amount: a
  missing steal tells the table as much as a smaller one, and the heuristic's Corrupt,
  who skip it, lose the Fund's race;
* it pays for Tokhang (half the Fund's target, R-05) only when it ends the game on the
  last Good Politician (R-50);
* it does not accuse its own teammates ("bussing"): against heuristic Good, who take
  accusations at their word, that lost about 25 points; against believer Good it won 31,
  but only by fooling the model's ``suspect_bad`` (docs/BOTS.md, "believer").

Why: on 400 deals of the tuned 13-player rules, the Good seats lift Good's win rate
against heuristic Corrupt from 51.2% to 94.0%, and the Corrupt seats take it down to
42.2% (heuristic Good win 15.2% against them): docs/BOTS.md, "Strength ladder". The cost
is about 0.4 CPU seconds a seat a game (the beliefs' posterior, once a step at most).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..rules.actions import Action, Claim
from ..rules.cards import CARDS
from ..rules.events import EVERYONE, BaseEvent
from ..rules.roles import COA, CORRUPT_POLITICIAN, GOOD_TEAM
from .agent import Prompt
from .beliefs import Beliefs
from .heuristic import CERTAIN, Board, HeuristicAgent

SCALE = 1.0
"""Suspicion points per unit of log-odds. Measured against heuristic Corrupt on the
ladder's 400 tuned 13-player deals (docs/BOTS.md): 1.0 and 2.0 play alike (Good 94.8% and
93.5%), 4.0 worse (87.8% of the first 353)."""

SURE = 1e-4  # a probability this close to 0 or 1 is a fact: certain, as the heuristic's


def _logit(p: float) -> float:
    return math.log(p / (1.0 - p))


class BelieverAgent(HeuristicAgent):
    """The heuristic bot reading beliefs for its suspicion (see the module). With
    ``hides=False`` a Corrupt seat plays exactly as the heuristic (the search bot's first
    thought, as measured: :mod:`.search`)."""

    def __init__(
        self, seed: int | str = 0, board: Board | None = None, *, hides: bool = True
    ) -> None:
        super().__init__(seed, board)
        self.hides = hides
        self.beliefs: Beliefs | None = None  # the seat's (none if it hides: it knows every role)
        self.table: Beliefs | None = None  # the public's, for a Corrupt seat that hides
        self._prior = 0.0  # the base rate's log-odds: of a seat's others, or of all (table)
        self._believed: list[float] = []
        self._believed_at = -1
        self._read: list[float] = []
        self._read_at = -1

    def observe(self, events: Sequence[BaseEvent]) -> None:
        super().observe(events)
        if self.table is not None:
            self.table.observe([e for e in events if e.audience == EVERYONE])
        elif self.beliefs is not None:
            self.beliefs.observe(events)
        elif self.hides and self.mem.role is CORRUPT_POLITICIAN:
            # its own view knows every role: only the table's is worth keeping
            self.table = Beliefs.start([e for e in events if e.audience == EVERYONE])
            self._prior = _logit(self.table.corrupt_count / len(self.table.players))
        else:
            self.beliefs = Beliefs.start(events)
            others = len(self.beliefs.players) - 1
            self._prior = _logit(self.beliefs.corrupt_count / others)

    # -- a Good seat
    def scores(self) -> list[float]:
        """The heuristic's certainties; every other player's suspicion from the beliefs."""
        known = super().scores()
        role, beliefs = self.mem.role, self.beliefs
        if role.team is not GOOD_TEAM or beliefs is None:
            return known
        if self._believed_at != self.seen:
            believed = _suspicions(beliefs, self._prior)
            self._believed = [
                k if abs(k) >= CERTAIN else b for k, b in zip(known, believed, strict=True)
            ]
            self._believed_at = self.seen
        return self._believed

    # -- a Corrupt seat
    def table_suspicion(self, seat: int) -> float:
        """A Corrupt seat that hides reads the public's beliefs: how Corrupt the table can
        know each player to be, on the heuristic's scale."""
        table = self.table
        if table is None:
            return super().table_suspicion(seat)
        if self._read_at != self.public_seen:
            self._read, self._read_at = _suspicions(table, self._prior), self.public_seen
        return self._read[seat]

    def _steals(self, steal: int) -> bool:
        """A Corrupt who hides steals every night. Skipping the night after a teammate's
        jailing tells the table what a smaller amount would (the beliefs read a missing
        steal as a changed count), and costs the Fund the steal."""
        return True if self.table is not None else super()._steals(steal)

    def _tokhang_target(self, names: Sequence[str | None], fund: int) -> str | None:
        """A Corrupt who hides pays for Tokhang only when it wins the game (the last Good
        Politician, R-50). It costs half the Fund's target (R-05): paid on a dangerous
        player, it slowed the Fund's race more than that player's absence helped
        (docs/BOTS.md, "believer")."""
        if self.table is None:
            return super()._tokhang_target(names, fund)
        last = self._last_good_politician()
        if last is None or fund < self.board.tokhang_cost:
            return None
        name = self.board.names[last]
        return name if name in names else None

    def _card(self, prompt: Prompt) -> str:
        """A Corrupt President picks as a Good one would, never the card that would win
        Good the race."""
        if self.table is None:
            return super()._card(prompt)
        small, large = (str(card) for card in prompt.choices[0].options["card"])
        board = self.board
        if board.public_spending + CARDS[large].cost >= board.ps_target:
            return small
        return large if self._cleared_for(large, self.table_suspicion) else small

    def _bluff(self, me: str) -> Action | None:
        """The heuristic's bluff, never a false investigation: the Ombudsperson is one
        player (R-02, R-03), so a second claimed finding exposes one of the two claimants."""
        claim = super()._bluff(me)
        if self.table is not None and isinstance(claim, Claim) and claim.claim == "investigation":
            return None
        return claim

    def _committee(self, prompt: Prompt) -> tuple[str, ...]:
        """A Corrupt President keeps the team off a small committee a COA may audit."""
        choice = prompt.choices[0]
        board, mem = self.board, self.mem
        if self.table is None or choice.pick > 3 or COA in board.revealed.values():
            return super()._committee(prompt)
        team = mem.team | {mem.seat}
        pool = [s for s in self._seats(choice.options["members"]) if s not in team]
        if len(pool) < choice.pick:
            return super()._committee(prompt)
        pool.sort(key=lambda s: (self.table_suspicion(s), s))
        return tuple(board.names[s] for s in pool[: choice.pick])


def _suspicions(beliefs: Beliefs, prior: float) -> list[float]:
    """Every player's probability of being Corrupt on the heuristic's scale: log-odds
    against ``prior``, certain where the beliefs are sure."""
    corrupt = beliefs.corrupt_probability()
    out: list[float] = []
    for name in beliefs.players:
        p = corrupt[name]
        if p >= 1.0 - SURE:
            out.append(CERTAIN)
        elif p <= SURE:
            out.append(-CERTAIN)
        else:
            out.append(SCALE * (_logit(p) - prior))
    return out
