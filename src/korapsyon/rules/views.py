"""Views: the one exit for information from the rules core.

* :func:`player_view` - exactly what one player may know: their own role (and fellow
  Corrupt if Corrupt), their own private results, the public trackers and timeline, and what
  they must do now with their legal choices.
* :func:`public_view` - the board screen and spectators: public facts only.
* :func:`moderator_view` - everything, plus the script line to read aloud (R-71).

Views are plain JSON-serialisable data. They are computed from the game state and from the
events the viewer may see (:func:`~korapsyon.rules.events.visible_to`); anything hidden from
a viewer never enters their view, so two games that differ only in facts hidden from a
player give that player identical views.
"""

from __future__ import annotations

from typing import Any

from .actions import HOST
from .cards import CARDS
from .events import (
    CORRUPT,
    EVERYONE,
    AuditDelivered,
    BaseEvent,
    CoaMuted,
    GameOver,
    InvestigationResult,
    PlayerEliminated,
    ProjectVoted,
    WitnessTestimony,
    audience_to_wire,
)
from .game import Choice, Game
from .roles import Role
from .script import script_line
from .steps import STEPS, Step
from .timeline import describe

MODERATOR_VIEWER = "@moderator"
"""Pass as ``who`` to :func:`view_for` for the moderator's view."""

View = dict[str, Any]


def view_for(game: Game, who: str | None) -> View:
    """The view of a player (by name), the public (None) or the moderator."""
    if who is None:
        return public_view(game)
    if who == MODERATOR_VIEWER:
        return moderator_view(game)
    return player_view(game, who)


def public_view(game: Game) -> View:
    """What the board screen and spectators see."""
    view = _shared(game, _scan(game, None, corrupt=False))
    view["viewer"] = {"kind": "public"}
    return view


def player_view(game: Game, name: str) -> View:
    """What the player called ``name`` may know now."""
    seat = game.seat(name)
    role = game.roles[seat]
    corrupt = role is Role.CORRUPT_POLITICIAN
    scan = _scan(game, seat, corrupt=corrupt)
    view = _shared(game, scan)
    view["viewer"] = {"kind": "player", "name": name}
    view["you"] = _you(game, seat, scan)
    return view


def moderator_view(game: Game) -> View:
    """Everything: every role, tracker and night choice, and the script line."""
    scan = _scan(game, None, corrupt=False, moderator=True)
    view = _shared(game, scan)
    view["viewer"] = {"kind": "moderator"}
    names = game.players
    protected_year, protected_seat = game.last_protected
    investigation = game.investigation
    view["secrets"] = {
        "roles": {names[s]: role.value for s, role in enumerate(game.roles)},
        "corruption_fund": game.corruption_fund,
        "kaban": game.kaban,
        "treasury_decrease": game.treasury_decrease,
        "protected": _name(game, game.protected),
        "last_protected": {"year": protected_year, "player": _name(game, protected_seat)},
        "investigation": None
        if investigation is None
        else {"target": names[investigation[0]], "aligned": investigation[1].value},
        "coa_muted": game.coa_muted,
        "witness_used": game.witness_used,
        "audit": None
        if game.audit is None
        else {"project": game.audit[0], "kickback": game.audit[1]},
        "decks": {"small": list(game.small_deck), "large": list(game.large_deck)},
        "pending": {_actor(game, s): a.to_wire() for s, a in sorted(game.pending.items())},
        "waiting_for": [_actor(game, s) for s in sorted(game.waiting_for)],
    }
    return view


# ---------------------------------------------------------------------- internals
class _Scan:
    """What one pass over the visible events yields."""

    def __init__(self) -> None:
        self.timeline: list[dict[str, Any]] = []
        self.revealed: dict[str, str] = {}
        self.project_result: dict[str, Any] | None = None
        self.witness: str | None = None
        self.investigation: dict[str, str] | None = None
        self.audit: dict[str, Any] | None = None
        self.muted = False


def _scan(game: Game, seat: int | None, *, corrupt: bool, moderator: bool = False) -> _Scan:
    scan = _Scan()
    year = game.year
    players = game.players
    for event in game.events:
        audience = event.audience
        if not (
            moderator
            or audience == EVERYONE
            or (audience == seat and seat is not None)
            or (corrupt and audience == CORRUPT)
        ):
            continue
        _note(scan, event, year, players)
        text = describe(event)
        if text is None:
            continue
        entry: dict[str, Any] = {"year": event.year, "kind": _kind(event), "text": text}
        if audience != EVERYONE:
            entry["private"] = True
            if moderator:
                entry["audience"] = audience_to_wire(audience, players)
        scan.timeline.append(entry)
    return scan


def _note(scan: _Scan, event: BaseEvent, year: int, players: tuple[str, ...]) -> None:
    if isinstance(event, PlayerEliminated):
        if event.role is not None:
            scan.revealed[event.player] = event.role.value
    elif isinstance(event, GameOver):
        for name, role in zip(players, event.roles, strict=True):
            scan.revealed[name] = role.value
    elif event.year != year:
        return
    elif isinstance(event, ProjectVoted):
        scan.project_result = {
            "support": event.support,
            "oppose": event.oppose,
            "succeeded": event.succeeded,
        }
    elif isinstance(event, WitnessTestimony):
        scan.witness = event.player
    elif isinstance(event, InvestigationResult):
        scan.investigation = {"target": event.target, "aligned": event.aligned.value}
    elif isinstance(event, AuditDelivered):
        scan.audit = {"project": event.project, "kickback": event.kickback}
    elif isinstance(event, CoaMuted):
        scan.muted = True


def _kind(event: BaseEvent) -> str:
    return type(event).__struct_config__.tag  # type: ignore[return-value]


def _shared(game: Game, scan: _Scan) -> View:
    names = game.players
    step = game.step
    outcome = game.outcome
    president = game.president
    term = game.ruleset.president_term
    return {
        "year": game.year,
        "step": None if step is None else step.value,
        "step_title": None if step is None else STEPS[step].title,
        "status": "finished" if outcome else "in_progress",
        "outcome": None
        if outcome is None
        else {"winner": outcome.winner, "reason": outcome.reason, "rule": outcome.rule},
        "targets": {
            "public_spending": game.public_spending_target,
            "corruption_fund": game.corruption_fund_target,
            "auto_jail_cost": game.auto_jail_cost,
            "tokhang_cost": game.tokhang_cost,
        },
        "ruleset": game.ruleset.to_wire(),
        "public_spending": game.public_spending,
        "kaban_public": game.kaban_public,
        "president": None
        if president is None
        else {
            "name": names[president],
            "since": game.president_since,
            "until": game.president_since + term - 1,
        },
        "players": [
            {
                "name": name,
                "seat": seat,
                "status": game.status[seat],
                "strikes": game.strikes[seat],
                "returns_year": game.returns_year[seat],
                "role": scan.revealed.get(name),
            }
            for seat, name in enumerate(names)
        ],
        "project": _project(game, scan),
        "ballot": _ballot(game),
        "witness": scan.witness,
        "forced_vote": _name(game, game.forced_target),
        "timeline": scan.timeline,
        "script": script_line(game),
    }


def _project(game: Game, scan: _Scan) -> dict[str, Any] | None:
    if game.offered is None:
        return None
    return {
        "offered": [_card(card) for card in game.offered],
        "card": game.card,
        "committee_size": game.committee_size or None,
        "committee": [game.players[s] for s in game.committee],
        "result": scan.project_result,
    }


def _card(card_id: str) -> dict[str, Any]:
    card = CARDS[card_id]
    return {
        "id": card.id,
        "name": card.name,
        "cost": card.cost,
        "kickback": card.kickback,
        "committee": card.committee,
    }


def _ballot(game: Game) -> dict[str, Any] | None:
    """Who is asked in the current step and how many have answered - never in the Hidden
    Phase, where progress would hint at who has more to decide (R-70)."""
    step = game.step
    if step is None:
        return None
    if step is Step.HIDDEN:
        return {"step": step.value}
    return {
        "step": step.value,
        "voters": [_actor(game, s) for s in sorted(game.to_act)],
        "options": [game.players[s] for s in game.candidates]
        if step in (Step.ELECT, Step.ELECT_RUNOFF, Step.JAIL_VOTE, Step.JAIL_RUNOFF)
        else None,
        "cast": len(game.pending),
    }


def _you(game: Game, seat: int, scan: _Scan) -> dict[str, Any]:
    role = game.roles[seat]
    name = game.players[seat]
    pending = game.pending.get(seat)
    you: dict[str, Any] = {
        "name": name,
        "seat": seat,
        "role": role.value,
        "role_title": role.title,
        "goal": role.goal,
        "team": role.team.value,
        "status": game.status[seat],
        "to_act": seat in game.to_act,
        "submitted": None if pending is None else pending.to_wire(),
        "choices": [_choice(c) for c in game.choices(name)],
        "claims": [_choice(c) for c in game.claim_choices(name)],
        "investigation": scan.investigation,
        "audit": scan.audit,
        "muted": scan.muted,
    }
    if role is Role.CORRUPT_POLITICIAN:
        you["teammates"] = [game.players[s] for s in game.corrupt_seats if s != seat]
        if game.step is Step.HIDDEN and seat in game.to_act:  # free Corrupt only
            you["team_choices"] = {
                game.players[s]: (game.pending[s].to_wire() if s in game.pending else None)
                for s in game.corrupt_seats
                if s != seat and s in game.to_act
            }
    if role is Role.GOOD_POLITICIAN and game.ruleset.good_politicians_recognise:
        you["teammates"] = [game.players[s] for s in game.good_politician_seats if s != seat]
    if role is Role.LAWYER:
        year, last = game.last_protected
        you["last_protected"] = _name(game, last) if year == game.year - 1 else None
    return you


def _choice(choice: Choice) -> dict[str, Any]:
    return {
        "action": choice.action,
        "options": {field: list(values) for field, values in choice.options.items()},
        "pick": choice.pick,
    }


def _name(game: Game, seat: int | None) -> str | None:
    return None if seat is None else game.players[seat]


def _actor(game: Game, seat: int) -> str:
    return HOST if seat < 0 else game.players[seat]


__all__ = [
    "MODERATOR_VIEWER",
    "moderator_view",
    "player_view",
    "public_view",
    "view_for",
]
