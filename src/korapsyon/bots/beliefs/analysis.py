"""The post-game analysis of a record (``korapsyon analyse``): Year by Year, how likely each
player was Corrupt from one view (the public's, or one player's), and the decisive moments.

The beliefs are those of :class:`~.tracker.Beliefs` fed the view's events; a Year's figure
is taken at its end (the last Year's just before the end's reveal, or where an unfinished
record stops). The moments look back with hindsight (the true roles of the replay):

* ``jailed`` / ``eliminated``: a jailing or a vote or Auto Jail elimination; ``verdict``
  says whether it removed a Corrupt (``corrupt_caught``), a Good player
  (``good_removed``), or a Good player while the view's evidence pointed at someone else
  (``good_removed_against_evidence``: another active player was at least
  :data:`ELSEWHERE` more likely Corrupt);
* ``exposed`` / ``cleared``: one event moved a player's probability by at least
  :data:`JUMP` (the event's kind says how: ``treasury_report`` is the steal amount,
  ``witness_testimony``, ``claim_made``, ``player_eliminated``...).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeGuard

from ...rules.events import (
    BaseEvent,
    GameOver,
    PlayerEliminated,
    PlayerJailed,
    RoleDealt,
    TeamRevealed,
    YearEnded,
    visible_to,
)
from ...rules.roles import Role
from .tracker import EVIDENCE, Beliefs

JUMP = 0.25
ELSEWHERE = 0.2


def analyse(
    players: Sequence[str],
    roles: Sequence[Role],
    events: Sequence[BaseEvent],
    viewer: str | None = None,
) -> dict[str, Any]:
    """``{"years": [{"year": 1, "corrupt": {name: p}}, ...], "view": ..., "moments": [...]}``
    for the events of a game (all of them: the view's are picked here)."""
    seat = None if viewer is None else list(players).index(viewer)
    corrupt_view = seat is not None and roles[seat] is Role.CORRUPT_POLITICIAN
    beliefs = Beliefs(players, roles, viewer)
    years: list[dict[str, Any]] = []
    moments: list[dict[str, Any]] = []
    before = beliefs.corrupt_probability()
    for event in events:
        if not visible_to(event, seat, corrupt_view):
            continue
        if isinstance(event, GameOver):
            break
        if _removal_moment(event):
            moment = _removal(event, before, beliefs, roles)
            if moment is not None:
                moments.append(moment)
        beliefs.observe([event])
        if isinstance(event, YearEnded):
            years.append(_year(event.year, before))
        if isinstance(event, RoleDealt | TeamRevealed):
            before = beliefs.corrupt_probability()  # the deal: where the view starts
        elif type(event) in EVIDENCE:
            after = beliefs.corrupt_probability()
            moments.extend(_jumps(event, before, after, roles, players))
            before = after
    if beliefs.year and (not years or years[-1]["year"] != beliefs.year):
        years.append(_year(beliefs.year, before))
    return {"years": years, "view": viewer or "public", "moments": moments}


def _removal_moment(event: BaseEvent) -> TypeGuard[PlayerJailed | PlayerEliminated]:
    """A jailing or an elimination the table chose (not Tokhang's), counted once: a second
    strike is told by its elimination."""
    if isinstance(event, PlayerJailed):
        return event.returns_year is not None
    return isinstance(event, PlayerEliminated) and event.cause != "tokhang"


def _year(year: int, corrupt: dict[str, float]) -> dict[str, Any]:
    return {"year": year, "corrupt": {name: round(p, 3) for name, p in corrupt.items()}}


def _removal(
    event: PlayerJailed | PlayerEliminated,
    belief: dict[str, float],
    beliefs: Beliefs,
    roles: Sequence[Role],
) -> dict[str, Any] | None:
    seat = beliefs.index[event.player]
    role = roles[seat]
    p = belief[event.player]
    others = [
        (belief[name], name)
        for s, name in enumerate(beliefs.players)
        if s in beliefs.active and s != seat
    ]
    top_p, top = max(others, default=(0.0, None))
    if role is Role.CORRUPT_POLITICIAN:
        verdict = "corrupt_caught"
    elif top is not None and top_p - p >= ELSEWHERE:
        verdict = "good_removed_against_evidence"
    else:
        verdict = "good_removed"
    return {
        "year": event.year,
        "kind": "eliminated" if isinstance(event, PlayerEliminated) else "jailed",
        "player": event.player,
        "role": role.value,
        "cause": event.cause,
        "corrupt": round(p, 3),
        "verdict": verdict,
        "most_suspected": top,
        "most_suspected_corrupt": round(top_p, 3),
    }


def _jumps(
    event: BaseEvent,
    before: dict[str, float],
    after: dict[str, float],
    roles: Sequence[Role],
    players: Sequence[str],
) -> list[dict[str, Any]]:
    kind = event.to_wire()["event"]
    moments = []
    for seat, name in enumerate(players):
        change = after[name] - before[name]
        if abs(change) >= JUMP:
            moments.append(
                {
                    "year": event.year,
                    "kind": "exposed" if change > 0 else "cleared",
                    "player": name,
                    "role": roles[seat].value,
                    "by": kind,
                    "before": round(before[name], 3),
                    "after": round(after[name], 3),
                }
            )
    return moments
