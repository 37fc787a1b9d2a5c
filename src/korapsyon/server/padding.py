"""R-70 padding: every player's frame of a push has one length, which depends only on
public facts, so that a frame's length never tells a phone's role.

The length (:meth:`Padding.frame_size`) is the frame a public viewer would get, plus room
for the clock readings and a :class:`Budget` for the largest personal part and private
timeline entries that any role could have, computed from public facts only (the names,
how many Corrupt and Good Politicians the setup holds). tests/server/test_padding.py
plays random games with long non-ASCII names and the largest Corrupt teams, computes the
worst case every role reaches in every step, and checks the budgets hold it; a frame that
still outgrew them (:meth:`Padding.fit`) is counted in :attr:`Padding.overflows`, which
tests/security checks stays 0 on a live server.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rules.game import Game
from ..rules.steps import Step
from .frames import COVER, PAD_OVERHEAD, padded, view_frame
from .protocol import encode

PAD_BLOCK = 256  # a push whose frames outgrow frame_size pads them to a multiple of this
CLOCK_BYTES = 64  # the timer and ``now`` take at most this much beyond "null" and "0"
ACK_BYTES = 65  # an ack inside an update, at most (two fit in the budget)


@dataclass(frozen=True)
class Budget:
    """R-70 padding budgets, in bytes, from public facts only (:func:`budget`)."""

    personal: dict[Step | None, int]  # the largest personal part of a view, in each step
    private: int  # the private timeline entries of a push that begins a step
    start: int  # the private entries of the deal (a view's)
    yearly: int  # the private entries of one Year (a view's)


def budget(game: Game) -> Budget:
    """The personal part (``viewer`` and ``you``) holds the seat's name twice, its role's
    card texts, its choices (night targets, vote options: at most every name once; the
    claims of the discussion name everyone three times), the Corrupt's (or recognising Good
    Politicians') teammates and the Corrupt's live team choices (R-23), a Lawyer's last
    protected, this Year's private results, and the acks of its own actions (two fit).
    Private timeline entries come only with the resolution of a step (a step begins in the
    same push): a night's results, a kickback. The constant parts are the worst case beyond
    what the names account for, with a fifth of headroom: tests/server/test_padding.py
    computes that worst case and fails if a budget does not hold it."""
    names = [len(encode(name)) for name in game.players]
    every = sum(names) + len(names)  # a JSON list of every name
    longest = max(names)
    corrupt = len(game.corrupt_seats)
    team = max(corrupt, len(game.good_politician_seats))
    base = 560 + 4 * longest + team * (longest + 1) + 2 * ACK_BYTES
    personal: dict[Step | None, int] = dict.fromkeys(Step, base + every)
    personal[None] = base
    personal[Step.DISCUSSION] = base + 400 + 3 * every
    personal[Step.HIDDEN] = base + every + max(0, corrupt - 1) * (120 + 3 * longest)
    private = 460 + 4 * longest
    start = 300 + corrupt * (longest + 1)  # the dealt role, the team revealed
    return Budget(personal, private, start, private + 120)


class Padding:
    """One game's padding: its budget, the cover frame last built, and the overflows."""

    def __init__(self, game: Game) -> None:
        self.budget = budget(game)
        self.overflows = 0  # pushes whose frames outgrew frame_size (tests: never)
        self.covers: tuple[int, bytes] = (0, b"")  # the last cover frame built

    def frame_size(
        self,
        game: Game,
        kind: bytes,
        shared: bytes,
        public: list[dict[str, Any]],
        seq: int | None = None,
        *,
        began: bool = False,
    ) -> int:
        """The length of every player's frame of a push: the frame a public viewer would
        get (the shared view and ``public``, the new public timeline entries), plus room for
        the clock readings (so that the length does not vary with the time) and the budget
        for the personal part and private timeline entries: private entries only if a step
        ``began`` in the push, and in a ``view``, which carries the whole timeline, those of
        every Year so far. It depends only on public facts."""
        # the frame with an empty shared part ("{}"), then the shared part's real length
        empty = view_frame(kind, b"{}", b"{}", public, None, 0, seq)
        base = len(empty) - len(b"{}") + len(shared) + CLOCK_BYTES
        size = base + self.budget.personal[game.step] + PAD_OVERHEAD
        if kind == b"view":
            return size + self.budget.start + self.budget.yearly * game.year
        return size + (self.budget.private if began else 0)

    def fit(self, size: int, frames: list[bytes]) -> int:
        """``size``, or if a frame outgrew it (the budget is wrong: tests look for this),
        the longest frame's padded length rounded up to PAD_BLOCK, so that the push's
        frames still have one length."""
        longest = max(map(len, frames), default=0) + PAD_OVERHEAD
        if longest <= size:
            return size
        self.overflows += 1
        return -(-longest // PAD_BLOCK) * PAD_BLOCK

    def cover(self, size: int) -> bytes:
        """A cover frame of ``size`` bytes (built once for each size)."""
        if self.covers[0] != size:
            self.covers = (size, padded(COVER, size))
        return self.covers[1]
