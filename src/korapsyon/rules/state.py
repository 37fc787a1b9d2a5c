"""The data of one game: its setup, the trackers (R-10..R-13), each player's status, the
step it is in and who must act. No rule is decided here; the modules that decide
(:mod:`.checks`, :mod:`.night`, :mod:`.votes`, :mod:`.engine`) read and change a
:class:`GameState`.

Invariants:

1. The setup is drawn from one ``random.Random(seed)``: the deal (R-06), then the decks
   (R-34), in that order; later draws of lots use the same generator.
2. ``to_act`` holds seats (and :data:`HOST_SEAT` in the discussion); ``pending`` holds the
   last action each of them submitted in this step, and is emptied when a step begins.
3. ``status`` and ``strikes`` agree: strikes never pass 2 (R-41). ``status`` changes only
   through :meth:`GameState.set_status`, which keeps :meth:`GameState.roster` true.
4. ``step_checks`` is the check table of ``step`` (empty once the game is over): the engine
   sets both together.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from enum import StrEnum
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypeVar, cast

import msgspec

from .actions import HOST, Action, BaseAction
from .cards import LARGE_DECK, SMALL_DECK
from .errors import IllegalActionError, MalformedError
from .events import (
    CORRUPT,
    EVERYONE,
    Audience,
    BaseEvent,
    GameStarted,
    RoleDealt,
    TeamRevealed,
)
from .roles import COA, CORRUPT_POLITICIAN, GOOD_POLITICIAN, LAWYER, OMBUDSPERSON, Role, Team
from .ruleset import MAX_CUSTOM, Ruleset, check_custom_roles, default_roles

if TYPE_CHECKING:
    from .outcome import Outcome

_ROLES = tuple(Role)  # (iterating the enum itself is slower: once a game)
_SEAT_AUDIENCES = tuple(Audience.seat(s) for s in range(MAX_CUSTOM))  # (shared by every game)
HOST_SEAT = -100  # the host's place in ``to_act`` (distinct from every event audience)
MAX_NAME = 24
RESERVED_NAMES = (HOST, "@moderator")  # records and views use these for non-players


class PlayerStatus(StrEnum):
    """R-40, R-41: a player is active, suspended (one strike, back in a later Year) or
    eliminated. The value is what views and records say."""

    ACTIVE = "active"
    SUSPENDED = "suspended"
    ELIMINATED = "eliminated"


ACTIVE = PlayerStatus.ACTIVE
SUSPENDED = PlayerStatus.SUSPENDED
ELIMINATED = PlayerStatus.ELIMINATED


class Step(StrEnum):
    """The steps of a Year (their table: :data:`korapsyon.rules.steps.STEPS`)."""

    HIDDEN = "hidden"
    STAND = "stand"
    ELECT = "elect"
    ELECT_RUNOFF = "elect_runoff"
    PICK_PROJECT = "pick_project"
    PICK_COMMITTEE = "pick_committee"
    COMMITTEE_VOTE = "committee_vote"
    DISCUSSION = "discussion"
    WITNESS_VOTE = "witness_vote"
    FORCED_JAIL_VOTE = "forced_jail_vote"
    JAIL_VOTE = "jail_vote"
    JAIL_RUNOFF = "jail_runoff"


# The steps as module names, for the engine's hot paths: on Python 3.11 a member read off
# its class (``Step.HIDDEN``) passes through ``EnumType.__getattr__``, about 160 ns against
# 10 for a module's name (3.12 dropped the hook); 2.4% of a replay's instructions.
HIDDEN, STAND, ELECT, ELECT_RUNOFF = Step.HIDDEN, Step.STAND, Step.ELECT, Step.ELECT_RUNOFF
PICK_PROJECT, PICK_COMMITTEE = Step.PICK_PROJECT, Step.PICK_COMMITTEE
COMMITTEE_VOTE, DISCUSSION, WITNESS_VOTE = Step.COMMITTEE_VOTE, Step.DISCUSSION, Step.WITNESS_VOTE
FORCED_JAIL_VOTE, JAIL_VOTE, JAIL_RUNOFF = Step.FORCED_JAIL_VOTE, Step.JAIL_VOTE, Step.JAIL_RUNOFF


class Next(msgspec.Struct, frozen=True, gc=False):
    """What a step's resolution leads to: the next step, who must act in it and what it
    offers (candidates, tied players, the two cards). The engine takes it only if the step
    table lists it as a successor. (A struct, not a named tuple: built in C, once a step on
    the replay's hot path.)"""

    step: Step
    actors: Sequence[int]
    options: tuple[str, ...] | None = None


class YearRecord(msgspec.Struct):
    """The trackers at the end of a Year (or at the moment the game ended in it)."""

    year: int
    public_spending: int
    corruption_fund: int
    kaban: int
    treasury_decrease: int
    project: str | None
    project_succeeded: bool | None
    jailed: list[str]
    eliminated: list[str]


A = TypeVar("A", bound=Action)


def ballots(pending: dict[int, Action], kind: type[A]) -> dict[int, A]:
    """The submitted actions of a step that accepts one kind of action, typed as that kind.

    :func:`korapsyon.rules.engine.check` lets into ``pending`` only the kinds the step's
    table entry accepts, and every step but the Hidden Phase accepts one kind (the
    discussion's actions are never pending), so this is what the table guarantees; it is
    a cast, not a copy, because resolution is on the replay's hot path."""
    return cast("dict[int, A]", pending)


class GameState:
    """Everything a game knows. Read it freely; change it only through the rules modules
    (a :class:`~korapsyon.rules.game.Game` does, in :meth:`~korapsyon.rules.game.Game.apply`).
    """

    # Slots, not a __dict__: a game has about sixty attributes, too many for Python's
    # shared-key instance dicts, and the replay reads them on every action.
    __slots__ = (
        "__weakref__", "_roster", "actions", "audiences", "audit", "auto_jail_cost",
        "candidates", "card", "coa", "coa_muted", "committee", "committee_size",
        "corrupt_seats", "corruption_fund", "corruption_fund_target", "decks_given", "events",
        "forced_target", "good_politician_seats", "initial_decks", "investigation", "kaban",
        "kaban_last_year", "kaban_public", "keeps_events", "large_deck", "last_decrease",
        "last_protected", "lawyer", "offered", "ombudsperson", "outcome", "pending", "players",
        "president", "president_since", "project_succeeded", "protected", "public_spending",
        "public_spending_target", "returns_year", "rng", "roles", "roles_given", "ruleset",
        "seat_index", "seed", "small_deck", "status", "step", "step_checks", "strikes",
        "to_act", "tokhang_cost", "treasury_decrease", "witness_target", "witness_used", "year",
        "year_audit", "year_eliminated", "year_jailed", "years",
    )  # fmt: skip

    def __init__(
        self,
        players: Sequence[str],
        *,
        roles: Sequence[Role | str] | None = None,
        seed: int = 0,
        ruleset: Ruleset | None = None,
        decks: tuple[Sequence[str], Sequence[str]] | None = None,
        keep_events: bool = True,
    ) -> None:
        # ``keep_events=False``: the game keeps no events (:attr:`events` stays empty), for
        # a replay that prints only the state (``korapsyon replay``): it skips building and
        # freeing 1.3 events an action. Each emitter asks :attr:`keeps_events` first; such
        # a game has no views (views.py refuses it). Fixed for the game's life: a log
        # begun midway would be a partial one.
        self.keeps_events = keep_events
        self.ruleset = rules = ruleset or Ruleset()
        self.seed = seed
        self.rng = random.Random(seed)
        self.players: tuple[str, ...] = tuple(_check_names(players))
        n = len(self.players)
        self.roles_given = roles is not None  # (a record then lists them; R-02 or not)
        self.roles: tuple[Role, ...] = tuple(self._deal(roles, n))
        if decks is None:  # each deck shuffled once at setup
            small, large = list(SMALL_DECK), list(LARGE_DECK)
            self.rng.shuffle(small)
            self.rng.shuffle(large)
        else:
            small, large = _check_deck(decks[0], SMALL_DECK), _check_deck(decks[1], LARGE_DECK)
        self.initial_decks: tuple[tuple[str, ...], tuple[str, ...]] = (tuple(small), tuple(large))
        self.small_deck: list[str] = small
        self.large_deck: list[str] = large
        self.decks_given = decks is not None

        self.seat_index = {name: seat for seat, name in enumerate(self.players)}
        self.audiences: tuple[Audience, ...] = _SEAT_AUDIENCES[:n]
        self.public_spending_target, self.corruption_fund_target = rules.targets(n)
        self.auto_jail_cost, self.tokhang_cost = rules.costs(n)
        self._seat_roles()

        # Trackers (R-10 .. R-13) and players
        self.public_spending = 0
        self.corruption_fund = 0
        self.kaban = self.kaban_public = rules.kaban_start
        self.status: list[PlayerStatus] = [ACTIVE] * n  # changed by set_status() only
        self._roster: tuple[tuple[int, ...], tuple[str, ...]] | None = None
        self.strikes: list[int] = [0] * n
        self.returns_year: list[int | None] = [None] * n
        self.president: int | None = None
        self.president_since = 0
        self.last_protected: tuple[int, int | None] = (0, None)  # (Year, seat)
        self.witness_used = False
        self.audit: tuple[str, bool] | None = None  # last Year's, for the COA
        self.last_decrease: int | None = None  # None before the first report
        self.kaban_last_year = self.kaban
        self.year = 0
        self.reset_year()
        # The step
        self.step: Step | None = None
        # the checks of the actions the step accepts (its table entry's, in a plain dict)
        self.step_checks: dict[type[BaseAction], Callable[[GameState, int, Any], None]] = {}
        self.to_act: frozenset[int] = frozenset()
        self.pending: dict[int, Action] = {}
        self.outcome: Outcome | None = None
        # History
        self.events: list[BaseEvent] = []
        self.actions: list[Action] = []
        self.years: list[YearRecord] = []
        self._announce_setup()

    def _deal(self, roles: Sequence[Role | str] | None, n: int) -> list[Role]:
        if roles is None:  # deal the R-02 composition with the seeded RNG
            dealt = default_roles(n)
            self.rng.shuffle(dealt)
            return dealt
        dealt = [_role(r) for r in roles]
        if len(dealt) != n:
            raise MalformedError(
                f"every seat holds exactly one role: {len(dealt)} roles for {n} players",
                rule="R-03",
            )
        check_custom_roles(dealt)
        return dealt

    def _seat_roles(self) -> None:
        """Where the roles with powers sit."""
        seats_of: dict[Role, list[int]] = {role: [] for role in _ROLES}
        for seat, role in enumerate(self.roles):
            seats_of[role].append(seat)
        self.corrupt_seats = tuple(seats_of[CORRUPT_POLITICIAN])
        self.good_politician_seats = tuple(seats_of[GOOD_POLITICIAN])
        self.lawyer = _single(seats_of[LAWYER])
        self.ombudsperson = _single(seats_of[OMBUDSPERSON])
        self.coa = _single(seats_of[COA])

    def _announce_setup(self) -> None:
        if not self.keeps_events:
            return
        rules, emit = self.ruleset, self.events.append
        emit(
            GameStarted(
                0,
                EVERYONE,
                self.players,
                self.public_spending_target,
                self.corruption_fund_target,
                self.auto_jail_cost,
                self.tokhang_cost,
                rules.kaban_start,
                tuple((role, self.roles.count(role)) for role in _ROLES),
            )
        )
        for seat, role in enumerate(self.roles):
            emit(RoleDealt(0, self.audiences[seat], self.players[seat], role))
        emit(TeamRevealed(0, CORRUPT, CORRUPT_POLITICIAN, self.names(self.corrupt_seats)))
        if rules.good_politicians_recognise:  # R-07 option
            names = self.names(self.good_politician_seats)
            for seat in self.good_politician_seats:
                emit(TeamRevealed(0, self.audiences[seat], GOOD_POLITICIAN, names))

    def reset_year(self) -> None:
        """Forget the per-Year state (the Start of a Year)."""
        self.protected: int | None = None
        self.investigation: tuple[int, Team] | None = None
        self.coa_muted = False
        self.forced_target: int | None = None
        self.witness_target: int | None = None
        self.offered: tuple[str, str] | None = None
        self.card: str | None = None
        self.committee: tuple[int, ...] = ()
        self.committee_size = 0
        self.candidates: tuple[int, ...] = ()
        self.treasury_decrease = 0
        self.year_jailed: list[str] = []
        self.year_eliminated: list[str] = []
        self.project_succeeded: bool | None = None
        self.year_audit: tuple[str, bool] | None = None

    # ------------------------------------------------------------------ queries
    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def seat(self, player: str) -> int:
        """The seat of a player name (raises IllegalActionError for unknown names)."""
        seat = self.seat_index.get(player)
        if seat is None:
            raise IllegalActionError(
                "unknown_player", "R-01", f"there is no player named {player!r}"
            )
        return seat

    def seat_of(self, player: str) -> int | None:
        """The seat of a player name, :data:`HOST_SEAT` for the host, None if unknown."""
        return HOST_SEAT if player == HOST else self.seat_index.get(player)

    def is_active(self, seat: int) -> bool:
        return self.status[seat] is ACTIVE

    def active_seats(self) -> list[int]:
        return list(self.roster()[0])

    def roster(self) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """The active seats and their names, in seat order (computed again only after a
        change of status: most steps open for every active player)."""
        roster = self._roster
        if roster is None:
            seats = tuple([s for s, st in enumerate(self.status) if st is ACTIVE])
            names = self.players
            roster = self._roster = (seats, tuple([names[s] for s in seats]))
        return roster

    def set_status(self, seat: int, status: PlayerStatus) -> None:
        """Change a player's status (R-20, R-40, R-41): the one way to, so that
        :meth:`roster` follows."""
        self.status[seat] = status
        self._roster = None

    @property
    def waiting_for(self) -> frozenset[int]:
        """Seats that must still act in this step (moderator-only in the Hidden Phase)."""
        return self.to_act - self.pending.keys()

    def names(self, seats: Sequence[int] | frozenset[int]) -> tuple[str, ...]:
        """The names of these seats in seat order (the host's as ``@host``)."""
        order = sorted(seats)
        if len(order) > 1 and order[0] >= 0:  # (the common case, on the replay's hot path)
            names: tuple[str, ...] = itemgetter(*order)(self.players)
            return names
        players = self.players
        return tuple([players[s] if s >= 0 else HOST for s in order])

    def tally(self, counts: dict[int, int]) -> tuple[tuple[str, int], ...]:
        names = self.players
        return tuple([(names[s], c) for s, c in sorted(counts.items())])

    def year_record(self) -> YearRecord:
        return YearRecord(
            self.year,
            self.public_spending,
            self.corruption_fund,
            self.kaban,
            self.treasury_decrease,
            self.card,
            self.project_succeeded,
            list(self.year_jailed),
            list(self.year_eliminated),
        )


def _single(seats: list[int]) -> int | None:
    return seats[0] if seats else None


def _role(value: Role | str) -> Role:
    if type(value) is Role:
        return value
    try:
        return Role(value)
    except ValueError:
        raise MalformedError(f"unknown role {value!r}", rule="R-06") from None


def _check_names(players: Sequence[str]) -> list[str]:
    names = list(players)
    seen: set[str] = set()
    for name in names:
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
            raise MalformedError(f"player names are 1-{MAX_NAME} characters: {name!r}")
        if name in RESERVED_NAMES:
            raise MalformedError(f"{name!r} is reserved and cannot be a player's name")
        if name in seen:
            raise MalformedError(f"player name {name!r} is used twice")
        seen.add(name)
    return names


def _check_deck(deck: Sequence[str], full: tuple[str, ...]) -> list[str]:
    cards = list(deck)
    if sorted(cards) != sorted(full):
        raise MalformedError(
            f"a deck must hold each of {', '.join(full)} exactly once, not {cards}", rule="R-34"
        )
    return cards
