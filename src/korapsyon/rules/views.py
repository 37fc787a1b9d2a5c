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

Why one module of ~480 lines: it is the whole of what leaves the core, and a reviewer checks
that nothing secret escapes by reading one file top to bottom (the reveal, computed only
once the game is over, is apart in :mod:`.reveal`).
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from .actions import ACTION_TYPES, HOST
from .cards import CARDS
from .choices import Choice, claims_shown
from .events import (
    CORRUPT,
    EVERYONE,
    AuditDelivered,
    BaseEvent,
    CoaMuted,
    GameOver,
    GameStarted,
    InvestigationResult,
    PlayerEliminated,
    ProjectVoted,
    WitnessTestimony,
    YearEnded,
    audience_to_wire,
    visible_to,
)
from .game import Game
from .reveal import night_by_night
from .roles import CORRUPT_POLITICIAN, GOOD_POLITICIAN, LAWYER, OMBUDSPERSON
from .script import cue, script_line
from .state import HIDDEN
from .steps import STEPS
from .timeline import describe, is_news, params

MODERATOR_VIEWER = "@moderator"
"""Pass as ``who`` to :func:`view_for` for the moderator's view."""

View = dict[str, Any]


def view_for(game: Game, who: str | None, *, words: bool = True) -> View:
    """The view of a player (by name), the public (None) or the moderator; without
    ``words``, as the server sends it (no English: see :class:`ViewTracker`)."""
    return ViewTracker(game, who, words=words).view()


def public_view(game: Game, *, words: bool = True) -> View:
    """What the board screen and spectators see."""
    return ViewTracker(game, None, words=words).view()


def player_view(game: Game, name: str, *, words: bool = True) -> View:
    """What the player called ``name`` may know now."""
    return ViewTracker(game, name, words=words).view()


def moderator_view(game: Game, *, words: bool = True) -> View:
    """Everything: every role, tracker and night choice, and the script line."""
    return ViewTracker(game, MODERATOR_VIEWER, words=words).view()


class ViewTracker:
    """One viewer's view of a game, kept up to date incrementally.

    The tracker reads each new event of the game once, keeps those its viewer may see
    (:func:`~korapsyon.rules.events.visible_to`; the moderator sees all) and remembers what
    they told: the timeline, revealed roles, this Year's results. :meth:`view` is the whole
    view; :meth:`state` the view without its timeline and :meth:`take_timeline` the entries
    added since the last call, for a transport that sends only what changed.
    """

    def __init__(
        self,
        game: Game,
        who: str | None,
        public: ViewTracker | None = None,
        *,
        words: bool = True,
    ) -> None:
        if not game.keeps_events:
            raise ValueError("a game that keeps no events (keep_events=False) has no views")
        self.game = game
        self.words = words  # the English words too (timeline text, script, role card)
        self.moderator = who == MODERATOR_VIEWER
        self.name: str | None = None if who is None or self.moderator else who
        # A public tracker of the same game whose timeline entries this one may reuse
        # (public events read the same for everyone): a transport's saving, not a rule.
        shareable = (
            public is not None
            and public.name is None
            and not public.moderator
            and public.words == words
        )
        self.public = public if shareable else None
        self.public_entries: dict[int, dict[str, Any]] = {}  # event index -> entry
        self.seat = None if self.name is None else game.seat(self.name)
        self.corrupt = self.seat is not None and game.roles[self.seat] is CORRUPT_POLITICIAN
        self.identity = None if self.seat is None else _identity(game, self.seat, words)
        self.cursor = 0  # events of the game read so far
        self.read = 0  # of those, the ones its viewer may see
        self.core: tuple[int, View] | None = None  # (read, shared_core()) last built
        self.timeline: list[dict[str, Any]] = []
        self.taken = 0  # timeline entries handed out by take_timeline
        self.revealed: dict[str, str] = {}
        self.notes: dict[str, tuple[int, Any]] = {}  # this Year's results: (Year, value)
        self.history: list[dict[str, int]] = []  # public trackers: the start, each Year's end
        self.targets = {
            "public_spending": game.public_spending_target,
            "corruption_fund": game.corruption_fund_target,
            "auto_jail_cost": game.auto_jail_cost,
            "tokhang_cost": game.tokhang_cost,
        }
        self.ruleset = game.ruleset.to_wire()

    def update(self) -> int:
        """Read the events appended since the last update; return how many of them the
        viewer may see (none: only the shared part of the view can have changed)."""
        events = self.game.events
        seat, corrupt, moderator = self.seat, self.corrupt, self.moderator
        players = self.game.players
        seen = 0
        public = self.public
        if public is not None:
            public.update()
        for index in range(self.cursor, len(events)):
            event = events[index]
            if not (moderator or visible_to(event, seat, corrupt)):
                continue
            seen += 1
            audience = event.audience
            self._note(event)
            if public is not None and audience == EVERYONE:
                shared_entry = public.public_entries.get(index)
                if shared_entry is not None:
                    self.timeline.append(shared_entry)
                continue
            if not is_news(event):
                continue
            entry: dict[str, Any] = {"year": event.year, "kind": _kind(event)}
            entry["params"] = params(event)
            if self.words:
                entry["text"] = describe(event)
            if audience != EVERYONE:
                entry["private"] = True
                if moderator:
                    entry["audience"] = audience_to_wire(audience, players)
            elif self.name is None and not moderator:
                self.public_entries[index] = entry
            self.timeline.append(entry)
        self.cursor = len(events)
        self.read += seen
        return seen

    def update_from(self, start: int, audiences: AbstractSet[int]) -> int:
        """:meth:`update`, for a transport that knows the ``audiences`` of the game's
        events from ``start`` on: when this tracker has read up to ``start`` and none of
        those events is for its viewer, it moves past them without reading each one."""
        if self.cursor == start and not (
            self.moderator
            or EVERYONE in audiences
            or self.seat in audiences
            or (self.corrupt and CORRUPT in audiences)
        ):
            self.cursor = len(self.game.events)
            return 0
        return self.update()

    def _note(self, event: BaseEvent) -> None:
        if type(event) not in _NOTED:
            return  # (most events: votes, choices, steps)
        year = event.year
        if isinstance(event, GameStarted):
            start = {"year": 0, "kaban_public": event.kaban_start, "public_spending": 0}
            self.history.append(start)
        elif isinstance(event, YearEnded):
            end = {"year": year, "kaban_public": event.kaban_public}
            self.history.append({**end, "public_spending": event.public_spending})
        elif isinstance(event, PlayerEliminated):
            if event.role is not None:
                self.revealed[event.player] = event.role.value
        elif isinstance(event, GameOver):
            for name, role in zip(self.game.players, event.roles, strict=True):
                self.revealed[name] = role.value
        elif isinstance(event, ProjectVoted):
            result = {
                "support": event.support,
                "oppose": event.oppose,
                "succeeded": event.succeeded,
            }
            self.notes["project_result"] = (year, result)
        elif isinstance(event, WitnessTestimony):
            self.notes["witness"] = (year, event.player)
        elif isinstance(event, InvestigationResult):
            self.notes["investigation"] = (
                year,
                {"target": event.target, "aligned": event.aligned.value},
            )
        elif isinstance(event, AuditDelivered):
            self.notes["audit"] = (year, {"project": event.project, "kickback": event.kickback})
        elif isinstance(event, CoaMuted):
            self.notes["muted"] = (year, True)

    def note(self, key: str) -> Any:
        """This Year's result called ``key`` (None if there is none this Year)."""
        found = self.notes.get(key)
        return found[1] if found is not None and found[0] == self.game.year else None

    def shared(self) -> View:
        """The part of the view every viewer of the game shares: public facts only. Its
        nested lists and dicts are the tracker's (see :meth:`shared_core`): read them, do
        not change them; :func:`view_for` and its kin build a new tracker for each call."""
        core = self.shared_core()
        cast = votes_cast(self.game)
        if cast is None:
            return dict(core)
        return {**core, "ballot": {**core["ballot"], "cast": cast}}

    def shared_core(self) -> View:
        """:meth:`shared` without the vote count (``ballot.cast``), which the tracker
        keeps until it reads an event its viewer may see: everything else in the shared
        part changes only with a public event
        (tests/test_views_incremental.py checks it after every action), while the count
        changes with each vote. The dict is the tracker's: read it, do not change it."""
        self.update()
        core = self.core
        if core is None or core[0] != self.read:
            core = self.core = (self.read, _shared_core(self.game, self))
        return core[1]

    def state(self, shared: View | None = None) -> View:
        """The view without its timeline. ``shared`` may be another tracker's
        :meth:`shared` for the same game state (it is the same for every viewer)."""
        self.update()
        view = dict(shared if shared is not None else self.shared())
        view.update(self.personal())
        return view

    def personal(self) -> View:
        """The viewer's own part of the view (``viewer`` and ``you`` or ``secrets``): what
        the view holds beyond :meth:`shared`. It changes only when the viewer sees a new
        event (every change of the game that concerns a viewer comes with one)."""
        game = self.game
        if self.moderator:
            return {"viewer": {"kind": "moderator"}, "secrets": _secrets(game)}
        if self.name is None:
            return {"viewer": {"kind": "public"}}
        assert self.seat is not None
        return {
            "viewer": {"kind": "player", "name": self.name},
            "you": _you(game, self.seat, self),
        }

    def view(self) -> View:
        """The whole view, timeline included."""
        view = self.state()
        view["timeline"] = list(self.timeline)
        return view

    def take_timeline(self) -> list[dict[str, Any]]:
        """The timeline entries added since the last call (up to the last update)."""
        new = self.timeline[self.taken :]
        self.taken = len(self.timeline)
        return new


_NOTED = frozenset({
    GameStarted, YearEnded, PlayerEliminated, GameOver, ProjectVoted, WitnessTestimony,
    InvestigationResult, AuditDelivered, CoaMuted,
})  # fmt: skip
"""The events :meth:`ViewTracker._note` remembers something of."""


def _secrets(game: Game) -> dict[str, Any]:
    names = game.players
    protected_year, protected_seat = game.last_protected
    investigation = game.investigation
    return {
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


def _kind(event: BaseEvent) -> str:
    return type(event).__struct_config__.tag  # type: ignore[return-value]


def _shared_core(game: Game, scan: ViewTracker) -> View:
    names = game.players
    step = game.step
    outcome = game.outcome
    president = game.president
    term = game.ruleset.president_term
    core: View = {
        "year": game.year,
        "step": None if step is None else step.value,
        "status": "finished" if outcome else "in_progress",
        "outcome": None
        if outcome is None
        else {"winner": outcome.winner, "reason": outcome.reason, "rule": outcome.rule},
        "targets": scan.targets,
        "ruleset": scan.ruleset,
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
        "witness": scan.note("witness"),
        "forced_vote": _name(game, game.forced_target),
        "cue": cue(game),
        "history": list(scan.history),
    }
    if outcome is not None:  # every card face up, for everyone alike
        core["reveal"] = night_by_night(game)
    if scan.words:
        core["step_title"] = None if step is None else STEPS[step].title
        core["script"] = script_line(game)
    core["ballot"] = _ballot(game)  # (without its count: see votes_cast)
    return core


def _project(game: Game, scan: ViewTracker) -> dict[str, Any] | None:
    if game.offered is None:
        return None
    return {
        "offered": [_card(card) for card in game.offered],
        "card": game.card,
        "committee_size": game.committee_size or None,
        "committee": [game.players[s] for s in game.committee],
        "result": scan.note("project_result"),
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
    """Who is asked in the current step - never in the Hidden Phase, where progress would
    hint at who has more to decide (R-70) - without the count of answers (votes_cast)."""
    step = game.step
    if step is None:
        return None
    if step is HIDDEN:
        return {"step": step.value}
    return {
        "step": step.value,
        "voters": [_actor(game, s) for s in sorted(game.to_act)],
        "options": [game.players[s] for s in game.candidates]
        if STEPS[step].on_candidates
        else None,
    }


def votes_cast(game: Game) -> int | None:
    """How many of those asked have answered (the ballot's ``cast``), outside the Hidden
    Phase: the one part of the shared view that changes with every vote."""
    step = game.step
    if step is None or step is HIDDEN:
        return None
    return len(game.pending)


def _identity(game: Game, seat: int, words: bool) -> dict[str, Any]:
    """What a player's view says of them that never changes in a game: the role card, and
    the teammates the role knows (R-07); with ``words``, the role's English title and goal
    (a client words them from the role)."""
    role = game.roles[seat]
    identity: dict[str, Any] = {
        "name": game.players[seat],
        "seat": seat,
        "role": role.value,
        "team": role.team.value,
    }
    if words:
        identity["role_title"] = role.title
        identity["goal"] = role.goal
    if role is CORRUPT_POLITICIAN:
        identity["teammates"] = [game.players[s] for s in game.corrupt_seats if s != seat]
    if role is GOOD_POLITICIAN and game.ruleset.good_politicians_recognise:
        identity["teammates"] = [game.players[s] for s in game.good_politician_seats if s != seat]
    return identity


def _you(game: Game, seat: int, scan: ViewTracker) -> dict[str, Any]:
    assert scan.identity is not None
    role = game.roles[seat]
    name = scan.identity["name"]
    pending = game.pending.get(seat)
    you: dict[str, Any] = {
        **scan.identity,
        "status": game.status[seat],
        "to_act": seat in game.to_act,
        "submitted": None if pending is None else pending.to_wire(),
        "choices": [_choice(c) for c in game.choices(name)],
        "claims": [_choice(c) for c in claims_shown(game, seat)],  # muted, alike)
        "investigation": scan.note("investigation"),
        "audit": scan.note("audit"),
        "muted": bool(scan.note("muted")),
    }
    if role is CORRUPT_POLITICIAN and game.step is HIDDEN and seat in game.to_act:
        you["team_choices"] = {  # free Corrupt only
            game.players[s]: (game.pending[s].to_wire() if s in game.pending else None)
            for s in game.corrupt_seats
            if s != seat and s in game.to_act
        }
    if role is LAWYER:
        year, last = game.last_protected
        you["last_protected"] = _name(game, last) if year == game.year - 1 else None
    if role is OMBUDSPERSON:  # the table hears it when the discussion closes
        you["testified"] = _name(game, game.witness_target)
    return you


def _choice(choice: Choice) -> dict[str, Any]:
    return {
        "action": choice.action,
        "options": {field: list(values) for field, values in choice.options.items()},
        "pick": choice.pick,
        "null": ACTION_TYPES[choice.action].null_means,  # what a null option means
    }


def _name(game: Game, seat: int | None) -> str | None:
    return None if seat is None else game.players[seat]


def _actor(game: Game, seat: int) -> str:
    return HOST if seat < 0 else game.players[seat]


__all__ = [
    "MODERATOR_VIEWER",
    "ViewTracker",
    "moderator_view",
    "night_by_night",
    "player_view",
    "public_view",
    "view_for",
]
