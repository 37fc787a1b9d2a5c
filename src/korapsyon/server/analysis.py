"""A finished game's analysis for its end screens (``GET /api/rooms/{code}/analysis``): Year
by Year, how likely each player was Corrupt from what the whole table could know, or from
one player's view (``?as=NAME``), and the decisive moments — ``korapsyon analyse`` of the
game's record (:mod:`korapsyon.bots.beliefs.analysis`). The public view's is anyone's (the
board shows it, and a TV holds no token): it is worked out from the public events and the
roles the end reveals to all; a player's view holds their private results, so it is for
whoever may read the record (:meth:`~.hub.Hub.analysis`).

It costs from a few hundredths of a second (a short game) to about a second (a long
16-player game), so the lobby computes it in a thread, and each (game, view) once, even
when asked again while it is being worked out: a finished game never changes, and the
boards of a room (and phones whose players open their fold at once) may ask together.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from concurrent.futures import Future

import msgspec

from ..bots.beliefs.analysis import analyse
from ..record import Record, replay
from .errors import Refusal

KEPT = 256
"""Analyses kept (each a few KB): the views of about twenty finished tables."""


class AnalysisYear(msgspec.Struct):
    """One Year's end: each player's probability of being Corrupt, as the view saw it."""

    year: int
    corrupt: dict[str, float]


class Moment(msgspec.Struct, omit_defaults=True):
    """A decisive moment (see :mod:`korapsyon.bots.beliefs.analysis`): a removal the table
    chose (``kind`` ``jailed`` or ``eliminated``, with its ``verdict``), or one event that
    moved a player's probability a long way (``exposed`` or ``cleared``, ``by`` the kind
    of that event, ``by_player`` whose it was if anyone's, from ``before`` to ``after``)."""

    year: int
    kind: str
    player: str
    role: str
    verdict: str | None = None
    cause: str | None = None
    corrupt: float | None = None
    most_suspected: str | None = None
    most_suspected_corrupt: float | None = None
    by: str | None = None
    by_player: str | None = None
    before: float | None = None
    after: float | None = None


class Analysis(msgspec.Struct):
    """A game's analysis from one view (``view``: a player's name, or ``public``)."""

    years: list[AnalysisYear]
    view: str
    moments: list[Moment]


class Analyses:
    """The analyses worked out so far, the most recently asked kept (thread-safe: the
    lobby asks from its threads). A view asked again while it is being worked out waits
    for that work rather than doing it again (a room's boards, or two tabs of one seat, may
    ask together)."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self.done: OrderedDict[tuple[str, int, int, str | None], Future[Analysis]] = OrderedDict()
        self.lock = threading.Lock()

    def of(self, code: str, record: Record, viewer: str | None) -> Analysis:
        """The analysis of room ``code``'s finished game (its ``record``) from ``viewer``'s
        view (None: the public's). Raises Refusal for a name that is not a player's."""
        if viewer is not None and viewer not in record.players:
            raise Refusal("unknown_player", f"{viewer!r} is not a player of this game", 400)
        key = (code, record.seed, len(record.actions), viewer)  # (a code may come back)
        with self.lock:
            found = self.done.get(key)
            if found is not None:
                self.done.move_to_end(key)
                mine = False
            else:
                found = self.done[key] = Future()
                mine = True
                while len(self.done) > self.kept:
                    self.done.popitem(last=False)
        if mine:
            try:
                found.set_result(_analyse(code, record, viewer))
            except BaseException as exc:
                found.set_exception(exc)
                with self.lock:  # (asked again, it is tried again)
                    if self.done.get(key) is found:
                        del self.done[key]
        return found.result()


def _analyse(code: str, record: Record, viewer: str | None) -> Analysis:
    game, refused = replay(record)
    if refused is not None:  # (the store's records are the engine's: never seen)
        raise Refusal("room_damaged", f"room {code}'s record is refused: {refused.reason}", 503)
    return msgspec.convert(analyse(game.players, game.roles, game.events, viewer), Analysis)
