"""How a game ends (R-50, R-51): the :class:`Termination`, who wins, and the rule that says
so, as one :class:`Outcome` (python-chess's ``Outcome`` and ``Termination``).

The values of :class:`Winner` and :class:`Termination` are the strings that records,
views and the ``game_over`` event carry (GAME_RECORD.md).
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class Winner(StrEnum):
    GOOD = "good"
    BAD = "bad"
    DRAW = "draw"


class Termination(StrEnum):
    """Why a game ended."""

    CORRUPT_PURGE = "corrupt_purge"  # every Corrupt Politician eliminated
    PUBLIC_SPENDING = "public_spending"  # Approved Public Spending reached its target
    GOOD_PURGE = "good_purge"  # every Good Politician eliminated
    CORRUPTION_FUND = "corruption_fund"  # the Corruption Fund reached its target
    SAFETY_STOP = "safety_stop"  # the last Year ended

    @property
    def winner(self) -> Winner:
        return _WINNERS[self]

    @property
    def rule(self) -> str:
        return "R-51" if self is Termination.SAFETY_STOP else "R-50"


_WINNERS = {
    Termination.CORRUPT_PURGE: Winner.GOOD,
    Termination.PUBLIC_SPENDING: Winner.GOOD,
    Termination.GOOD_PURGE: Winner.BAD,
    Termination.CORRUPTION_FUND: Winner.BAD,
    Termination.SAFETY_STOP: Winner.DRAW,
}


class Outcome(NamedTuple):
    """Why a game ended: ``winner`` good | bad | draw, ``reason`` the
    :class:`Termination`, ``rule`` the R-xx id that ended it."""

    winner: Winner
    reason: Termination
    rule: str

    @classmethod
    def of(cls, termination: Termination) -> Outcome:
        return cls(termination.winner, termination, termination.rule)

    @property
    def termination(self) -> Termination:
        return self.reason
