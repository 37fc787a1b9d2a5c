"""The reveal at the end of a game (R-50; docs/RULINGS.md): :func:`night_by_night` tells
every role, each Year's night choices and what came of them, and the trackers over the
Years. Computed from the game alone, the same for every viewer; never a ballot (R-34).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .actions import Action, AutoJail, Corrupt, Investigate, Protect
from .events import (
    ActionTaken,
    AuditDelivered,
    AutoJailCancelled,
    AutoJailUsed,
    BaseEvent,
    ForcedVoteCalled,
    JailingBlocked,
    NotPaid,
    PlayerJailed,
    Stolen,
    SuholPaid,
    TokhangBlocked,
    TokhangPaid,
    YearEnded,
)
from .night import agreed_target
from .state import GameState


def night_by_night(game: GameState) -> dict[str, Any]:
    """The reveal at the end of a game (R-50; docs/RULINGS.md): every role; for each Year,
    every night choice (R-21 protect, R-22 investigate, each free Corrupt's Nakaw, Suhol
    and Tokhang, R-23, the Good Politicians' Auto Jail targets, R-24) and what came of it
    (R-25), and the COA's audit (R-34); and the trackers at the start and at the end of
    every Year, the secret ones too (R-11, R-12). Computed from the game alone, the same
    for every viewer. No ballot is in it: who voted how in an election, a committee, a
    Witness or a jail vote stays secret even now (R-34)."""
    if game.outcome is None:
        raise ValueError("the reveal is for a finished game")
    if not game.keeps_events:  # (it reads the night choices off the events)
        raise ValueError("a game that keeps no events (keep_events=False) has no reveal")
    years: dict[int, dict[str, Any]] = {}
    choices: dict[int, dict[int, Action]] = {}  # Year -> seat -> the night choice that counted
    told: dict[int, list[dict[str, Any]]] = {}  # Year -> its Auto Jails' outcomes, in order
    _read_nights(game, years, choices, told)
    for number, chosen in choices.items():
        entry = years.get(number) or years.setdefault(number, _night(number))
        _tell_choices(game, entry, chosen, iter(told.get(number, [])))
    return {
        "roles": [role.value for role in game.roles],
        "years": [years[number] for number in sorted(years)],
        "trackers": _tracker_history(game),
    }


def _read_nights(
    game: GameState,
    years: dict[int, dict[str, Any]],
    choices: dict[int, dict[int, Action]],
    told: dict[int, list[dict[str, Any]]],
) -> None:
    """Read the night choices that counted and what the resolution told of them."""
    jailing: dict[str, Any] | None = None  # the Auto Jail whose consequence comes next
    for event in game.events:
        if isinstance(event, ActionTaken):
            action = event.action
            if isinstance(action, (Protect, Investigate, Corrupt, AutoJail)):
                # a choice may be changed until the night resolves: the last one counts
                choices.setdefault(event.year, {})[game.seat(action.player)] = action
            continue
        if type(event) not in _REVEALED:
            continue
        entry = years.get(event.year) or years.setdefault(event.year, _night(event.year))
        if isinstance(event, AutoJailUsed):
            jailing = {"result": "used"}
            told.setdefault(event.year, []).append(jailing)
        elif isinstance(event, AutoJailCancelled):
            jailing = None
            told.setdefault(event.year, []).append({"result": event.reason})
        elif isinstance(event, (JailingBlocked, PlayerJailed, ForcedVoteCalled)):
            if jailing is not None:  # what the paid Auto Jail did (the next event says)
                jailing["result"] = _JAILING[type(event)]
            jailing = None
        else:
            _read_corrupt(game, entry, event, choices)


def _read_corrupt(
    game: GameState,
    entry: dict[str, Any],
    event: BaseEvent,
    choices: dict[int, dict[int, Action]],
) -> None:
    """What came of the Corrupt's plans (R-25 steps 3-5), and the COA's audit."""
    if isinstance(event, Stolen):
        entry["stolen"] = event.amount
    elif isinstance(event, SuholPaid):
        entry["suhol"] = "paid"
    elif isinstance(event, NotPaid) and event.ability == "suhol":
        entry["suhol"] = "unpaid"
    elif isinstance(event, NotPaid):  # Tokhang agreed, and the Fund too low (R-25 step 5)
        plans = choices.get(event.year, {}).values()
        tokhang = [plan.tokhang for plan in plans if isinstance(plan, Corrupt)]
        target = agreed_target(tokhang, game.ruleset.tokhang_consent)
        entry["tokhang"] = {"target": target, "result": "unpaid"}
    elif isinstance(event, TokhangPaid):
        entry["tokhang"] = {"target": event.target, "result": "eliminated"}
    elif isinstance(event, TokhangBlocked) and entry["tokhang"] is not None:
        entry["tokhang"]["result"] = "blocked"
    elif isinstance(event, AuditDelivered):
        entry["audit"] = {"project": event.project, "kickback": event.kickback}


def _tell_choices(
    game: GameState,
    entry: dict[str, Any],
    chosen: dict[int, Action],
    outcomes: Iterator[dict[str, Any]],
) -> None:
    """One Year's night choices, in seat order, each with what came of it; ``outcomes``
    holds one per Auto Jail that named someone, in seat order (R-25 step 6), unless the
    game ended first."""
    names = game.players
    for seat in sorted(chosen):
        action = chosen[seat]
        player = names[seat]
        if isinstance(action, Protect):
            entry["protect"] = {"player": player, "target": action.target}
        elif isinstance(action, Investigate):
            target = action.target
            team = None if target is None else game.roles[game.seat(target)].team.value
            entry["investigate"] = {"player": player, "target": target, "aligned": team}
        elif isinstance(action, Corrupt):
            entry["corrupt"].append({
                "player": player,
                "nakaw": action.nakaw,
                "suhol": action.suhol,
                "tokhang": action.tokhang,
            })  # fmt: skip
        elif isinstance(action, AutoJail):  # (nobody named: nothing to tell of it)
            told_of = {"result": None} if action.target is None else next(outcomes, None)
            outcome = told_of or {"result": None}  # (None: the game ended before it)
            entry["auto_jail"].append({"player": player, "target": action.target, **outcome})


def _night(year: int) -> dict[str, Any]:
    """A Year of the reveal before anything is known of it."""
    return {
        "year": year,
        "protect": None,
        "investigate": None,
        "corrupt": [],
        "stolen": 0,
        "suhol": None,
        "tokhang": None,
        "auto_jail": [],
        "audit": None,
    }


_REVEALED = frozenset({
    Stolen, SuholPaid, NotPaid, TokhangPaid, TokhangBlocked, AutoJailUsed, AutoJailCancelled,
    JailingBlocked, PlayerJailed, ForcedVoteCalled, AuditDelivered,
})  # fmt: skip
"""The events of a night's resolution whose outcome :func:`night_by_night` tells."""

_JAILING: dict[type[BaseEvent], str] = {
    JailingBlocked: "blocked",
    PlayerJailed: "jailed",
    ForcedVoteCalled: "forced_vote",
}
"""What a paid Auto Jail did, by the event that follows it (R-25 step 6, R-41)."""


def _tracker_history(game: GameState) -> list[dict[str, int]]:
    """The trackers at the start (Year 0) and at the end of every Year (the last: when the
    game ended): the Corruption Fund and the true Kaban ng Bayan (R-11, R-12), the public
    Kaban figure the table saw, and Approved Public Spending (R-10)."""
    public = {e.year: e.kaban_public for e in game.events if isinstance(e, YearEnded)}
    start = game.ruleset.kaban_start
    points = [{"year": 0, "corruption_fund": 0, "kaban": start, "kaban_public": start,
               "public_spending": 0}]  # fmt: skip
    for record in game.years:
        points.append({
            "year": record.year,
            "corruption_fund": record.corruption_fund,
            "kaban": record.kaban,
            "kaban_public": public.get(record.year, game.kaban_public),
            "public_spending": record.public_spending,
        })  # fmt: skip
    return points
