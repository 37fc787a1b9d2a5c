"""The post-game analysis of a record (``korapsyon analyse``): Year by Year, how likely each
player was Corrupt from one view (the public's, or one player's), and the decisive moments.

The beliefs are those of :class:`~.tracker.Beliefs` fed the view's events; a Year's figure
is taken at its end (the last Year's just before the end's reveal, or where an unfinished
record stops). The moments look back with hindsight (the true roles of the replay):

* ``jailed`` / ``eliminated``: a jailing or a vote or Auto Jail elimination; ``verdict``
  says whether it removed a Corrupt (``corrupt_caught``), a Good player
  (``good_removed``), or a Good player while the evidence pointed at someone else
  (``good_removed_against_evidence``: another player who could have been chosen was at
  least :data:`ELSEWHERE` more likely Corrupt). A verdict judges the table's choice, so it
  is drawn from what the table knew, whatever the view (a player's private findings did
  not sway the vote), and from what it knew when it chose: the public beliefs at the
  start of the step that removed the player (the night, for an Auto Jail; the jail vote,
  kept through its runoff; a Witness or forced vote), before the removal's own events
  (an Auto Jail on a player is evidence against them, but not evidence the chooser had).
  The players who could have been chosen instead: the jail vote's candidates; else the
  active players but the sitting President (R-24, R-33). ``corrupt`` and
  ``most_suspected_corrupt`` are those public figures;
* ``exposed`` / ``cleared``: one event moved a player's probability by at least
  :data:`JUMP` (the event's kind says how: ``treasury_report`` is the steal amount,
  ``witness_testimony``, ``claim_made``, ``player_eliminated``...; ``by_player``, when the
  event has one, is whose it was: the claimant, the President who chose the project or
  named the committee, the eliminated player whose role was revealed). Not told: a
  removal's own events about the removed player (the Auto Jail on the target it jailed, an
  elimination's reveal: the removal is its own moment), and the jumps of weak evidence
  (:data:`WEAK`: who stood for President; a project choice, but for its President).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeGuard

from ...rules.events import (
    EVERYONE,
    AutoJailUsed,
    BaseEvent,
    ClaimMade,
    CommitteeNamed,
    GameOver,
    PlayerEliminated,
    PlayerJailed,
    PresidencyEnded,
    PresidentElected,
    ProjectChosen,
    RoleDealt,
    StepStarted,
    TeamRevealed,
    YearEnded,
    visible_to,
)
from ...rules.roles import Role
from .tracker import EVIDENCE, Beliefs

JUMP = 0.25
ELSEWHERE = 0.2
CHOSEN_IN = frozenset({"hidden", "witness_vote", "forced_jail_vote", "jail_vote"})
"""The steps a removal is chosen in (a jail runoff's choice is the jail vote's)."""
WEAK = frozenset({"candidates", "project_chosen"})
"""Kinds of event too weak to tell as a moment but about their own ``by_player``."""


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
    table = _Table(players, roles, events, beliefs if viewer is None else None)
    years: list[dict[str, Any]] = []
    moments: list[dict[str, Any]] = []
    jailed = {(e.year, e.player) for e in events if _removal_moment(e) and e.cause == "auto_jail"}
    before = beliefs.corrupt_probability()
    for at, event in enumerate(events):
        if isinstance(event, GameOver):
            break
        if event.audience == EVERYONE:
            removal = table.see(at, event)
            if removal is not None:
                moments.append(removal)
        if not visible_to(event, seat, corrupt_view):
            continue
        subject = _subject(event, beliefs)
        beliefs.observe([event])
        if isinstance(event, YearEnded):
            years.append(_year(event.year, before))
        if isinstance(event, RoleDealt | TeamRevealed):
            before = beliefs.corrupt_probability()  # the deal: where the view starts
        elif type(event) in EVIDENCE:
            after = beliefs.corrupt_probability()
            removed = _own_removal(event, jailed)
            jumps = _jumps(event, subject, before, after, roles=roles, players=players)
            moments.extend(m for m in jumps if m["player"] != removed)
            before = after
        if viewer is None:
            table.now = before  # (the table's figures are the view's)
    if beliefs.year and (not years or years[-1]["year"] != beliefs.year):
        years.append(_year(beliefs.year, before))
    return {"years": years, "view": viewer or "public", "moments": moments}


class _Table:
    """The public view, followed for the removals' verdicts: at the start of each step a
    removal may be chosen in, what the table knew and whom it could have chosen (worked out
    only for the steps a removal was chosen in: the beliefs' posterior is the cost)."""

    def __init__(
        self,
        players: Sequence[str],
        roles: Sequence[Role],
        events: Sequence[BaseEvent],
        shared: Beliefs | None,
    ):
        self.roles = roles
        self.chose: set[int] = set()  # where the steps that removed a player start
        start = None
        for at, event in enumerate(events):
            if isinstance(event, StepStarted) and event.step in CHOSEN_IN:
                start = at
            elif _removal_moment(event) and start is not None:
                self.chose.add(start)
        self.shared = shared is not None  # (the public view's own analysis: its beliefs)
        self.beliefs = shared if shared is not None else Beliefs(players, roles)
        self.now: dict[str, float] | None = None  # the current figures, when known
        self.standing: dict[str, float] = {}
        self.could: list[str] = []
        self.president: str | None = None

    def see(self, at: int, event: BaseEvent) -> dict[str, Any] | None:
        """Take in public event ``events[at]`` (before the analysed view does); a removal's
        moment."""
        if isinstance(event, PresidentElected):
            self.president = event.president
        elif isinstance(event, PresidencyEnded):
            self.president = None
        elif at in self.chose and isinstance(event, StepStarted):
            self.standing = self.figures()
            if event.step == "jail_vote" and event.options:
                self.could = list(event.options)
            else:
                names = self.beliefs.players
                self.could = [names[s] for s in sorted(self.beliefs.active)]
                self.could = [name for name in self.could if name != self.president]
        moment = _removal(event, self.standing, self.could, self.roles, self.beliefs.index)
        if not self.shared:
            self.beliefs.observe([event])
            if type(event) in EVIDENCE:
                self.now = None
        return moment

    def figures(self) -> dict[str, float]:
        if self.now is None:
            self.now = self.beliefs.corrupt_probability()
        return self.now


def _removal_moment(event: BaseEvent) -> TypeGuard[PlayerJailed | PlayerEliminated]:
    """A jailing or an elimination the table chose (not Tokhang's), counted once: a second
    strike is told by its elimination."""
    if isinstance(event, PlayerJailed):
        return event.returns_year is not None
    return isinstance(event, PlayerEliminated) and event.cause != "tokhang"


def _year(year: int, corrupt: dict[str, float]) -> dict[str, Any]:
    return {"year": year, "corrupt": {name: round(p, 3) for name, p in corrupt.items()}}


def _removal(
    event: BaseEvent,
    belief: dict[str, float],
    could: list[str],
    roles: Sequence[Role],
    index: dict[str, int],
) -> dict[str, Any] | None:
    if not _removal_moment(event) or not belief:
        return None
    role = roles[index[event.player]]
    p = belief[event.player]
    others = [(belief[name], name) for name in could if name != event.player]
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


def _subject(event: BaseEvent, beliefs: Beliefs) -> str | None:
    """Whose the event is, for its moments' words (None: nobody's in particular)."""
    if isinstance(event, ClaimMade | PlayerEliminated):
        return event.player
    if isinstance(event, ProjectChosen | CommitteeNamed) and beliefs.president is not None:
        return beliefs.players[beliefs.president]
    return None


def _own_removal(event: BaseEvent, auto_jailed: set[tuple[int, str]]) -> str | None:
    """The player a removal's own event is about (their jump is the removal, told once):
    an Auto Jail's target it jailed (not one the Lawyer saved, nor one a forced vote spared),
    an eliminated player."""
    if isinstance(event, AutoJailUsed):
        return event.target if (event.year, event.target) in auto_jailed else None
    if isinstance(event, PlayerEliminated):
        return event.player
    return None


def _jumps(
    event: BaseEvent,
    subject: str | None,
    before: dict[str, float],
    after: dict[str, float],
    *,
    roles: Sequence[Role],
    players: Sequence[str],
) -> list[dict[str, Any]]:
    kind = event.to_wire()["event"]
    moments = []
    for seat, name in enumerate(players):
        change = after[name] - before[name]
        if abs(change) < JUMP or (kind in WEAK and name != subject):
            continue
        moment = {
            "year": event.year,
            "kind": "exposed" if change > 0 else "cleared",
            "player": name,
            "role": roles[seat].value,
            "by": kind,
            "before": round(before[name], 3),
            "after": round(after[name], 3),
        }
        if subject is not None:
            moment["by_player"] = subject
        moments.append(moment)
    return moments
