"""One game of Korapsyon as a sans-I/O state machine.

``Game.apply(action)`` checks an action against RULES.md and, if it is legal, records it,
resolves the step when every actor has submitted and runs everything automatic up to the
next step that needs a decision. It returns the events that happened. A refused action
raises :class:`IllegalActionError` naming the rule and changes nothing.

Invariants:

1. The game is a pure function of its setup (players, roles, seed, ruleset, decks) and the
   accepted actions: one ``random.Random(seed)`` draws the deal, the deck order and lots,
   in that order (no clock, no global RNG, no I/O). Only :meth:`Game.default_action`, which
   changes nothing, draws from its own generator seeded by the seed, Year and step.
2. Every change of state is announced by at least one event in :attr:`Game.events`,
   each with its audience; nothing leaves the core except through events and views.
3. Only active players (neither suspended nor eliminated) ever act; strikes never pass 2.

Attributes are read-only for callers: change a game only through :meth:`Game.apply`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from itertools import combinations, product
from typing import Any, NamedTuple

import msgspec

from .actions import (
    ACTION_TYPES,
    HOST,
    Action,
    AutoJail,
    BaseAction,
    Claim,
    CommitteeVote,
    Corrupt,
    Elect,
    EndDiscussion,
    ForcedJailVote,
    Investigate,
    JailVote,
    PickCommittee,
    PickProject,
    Protect,
    Ready,
    Stand,
    Witness,
    WitnessVote,
)
from .cards import CARDS, LARGE_DECK, SMALL_DECK
from .errors import IllegalActionError, MalformedError
from .events import (
    CORRUPT,
    EVERYONE,
    MODERATOR,
    ActionTaken,
    AuditDelivered,
    AutoJailCancelled,
    AutoJailUsed,
    BaseEvent,
    CancelReason,
    Candidates,
    ClaimMade,
    CoaMuted,
    CommitteeNamed,
    DiscussionOpened,
    ForcedVoteCalled,
    GameOver,
    GameStarted,
    InvestigationResult,
    JailingBlocked,
    Kickback,
    NobodyJailed,
    NotPaid,
    PlayerEliminated,
    PlayerJailed,
    PlayerReturned,
    PresidencyEnded,
    PresidentElected,
    ProjectChosen,
    ProjectOffered,
    ProjectVoted,
    ProtectionSet,
    Revenue,
    RoleDealt,
    StepStarted,
    Stolen,
    SuholPaid,
    TeamRevealed,
    TokhangBlocked,
    TokhangPaid,
    TreasuryReport,
    VoteTally,
    WitnessTestimony,
    YearEnded,
    YearStarted,
)
from .roles import Role, Team
from .ruleset import (
    STRIKES_TO_ELIMINATE,
    SUHOL_COST,
    Ruleset,
    check_custom_roles,
    default_roles,
)
from .steps import NIGHT_ACTIONS, STEPS, Step

ACTIVE, SUSPENDED, ELIMINATED = "active", "suspended", "eliminated"
HOST_SEAT = -100  # the host's place in ``to_act`` (distinct from every event audience)
MAX_NAME = 24
RESERVED_NAMES = (HOST, "@moderator")  # records and views use these for non-players


class Outcome(NamedTuple):
    """Why a game ended: ``winner`` is good | bad | draw, ``reason`` one of
    corrupt_purge | public_spending | good_purge | corruption_fund | safety_stop."""

    winner: str
    reason: str
    rule: str


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


class Choice(msgspec.Struct, frozen=True):
    """One kind of action a player may take now and the values each field may take.

    ``options`` maps a field to its allowed values (None = nobody / abstain). For
    ``pick_committee``, ``pick`` members are chosen, all different, from
    ``options["members"]``.
    """

    action: str
    options: dict[str, tuple[Any, ...]] = {}
    pick: int = 0

    def count(self) -> int:
        """How many distinct actions this choice allows."""
        if self.pick:
            return math.comb(len(self.options["members"]), self.pick)
        return math.prod(len(values) for values in self.options.values())

    def build(self, player: str, **fields: Any) -> Action:
        """The action of this choice for ``player`` with these field values (unchecked)."""
        cls: Any = ACTION_TYPES[self.action]
        action: Action = cls(player=player, **fields)
        return action

    def actions(self, player: str) -> Iterator[Action]:
        """Every distinct action of this choice, for ``player``."""
        if self.pick:
            for members in combinations(self.options["members"], self.pick):
                yield self.build(player, members=members)
            return
        names = list(self.options)
        for values in product(*(self.options[name] for name in names)):
            yield self.build(player, **dict(zip(names, values, strict=True)))


def _illegal(code: str, rule: str, message: str) -> IllegalActionError:
    return IllegalActionError(code, rule, message)


class Game:
    """A game in progress. Build it from a setup; drive it with :meth:`apply`."""

    def __init__(
        self,
        players: Sequence[str],
        *,
        roles: Sequence[Role | str] | None = None,
        seed: int = 0,
        ruleset: Ruleset | None = None,
        decks: tuple[Sequence[str], Sequence[str]] | None = None,
    ) -> None:
        self.ruleset = rules = ruleset or Ruleset()
        self.seed = seed
        self._rng = random.Random(seed)
        self.players: tuple[str, ...] = tuple(_check_names(players))
        n = len(self.players)
        if roles is None:  # deal the R-02 composition with the seeded RNG
            dealt = default_roles(n)
            self._rng.shuffle(dealt)
            self.custom_setup = False
        else:
            dealt = [_role(r) for r in roles]
            if len(dealt) != n:
                raise MalformedError(
                    f"every seat holds exactly one role: {len(dealt)} roles for {n} players",
                    rule="R-03",
                )
            check_custom_roles(dealt)
            self.custom_setup = True
        self.roles: tuple[Role, ...] = tuple(dealt)
        if decks is None:  # each deck shuffled once at setup
            small, large = list(SMALL_DECK), list(LARGE_DECK)
            self._rng.shuffle(small)
            self._rng.shuffle(large)
        else:
            small, large = _check_deck(decks[0], SMALL_DECK), _check_deck(decks[1], LARGE_DECK)
        self.initial_decks: tuple[tuple[str, ...], tuple[str, ...]] = (tuple(small), tuple(large))
        self.small_deck: list[str] = small
        self.large_deck: list[str] = large
        self.decks_given = decks is not None

        self._index = {name: seat for seat, name in enumerate(self.players)}
        self.public_spending_target, self.corruption_fund_target = rules.targets(n)
        self.auto_jail_cost = rules.auto_jail_cost(n)
        self.tokhang_cost = rules.tokhang_cost(n)
        seats_of: dict[Role, list[int]] = {role: [] for role in Role}
        for seat, role in enumerate(self.roles):
            seats_of[role].append(seat)
        self.corrupt_seats = tuple(seats_of[Role.CORRUPT_POLITICIAN])
        self.good_politician_seats = tuple(seats_of[Role.GOOD_POLITICIAN])
        self.lawyer = _single(seats_of[Role.LAWYER])
        self.ombudsperson = _single(seats_of[Role.OMBUDSPERSON])
        self.coa = _single(seats_of[Role.COA])

        # Trackers (R-10 .. R-13)
        self.public_spending = 0
        self.corruption_fund = 0
        self.kaban = self.kaban_public = rules.kaban_start
        self.status: list[str] = [ACTIVE] * n
        self.strikes: list[int] = [0] * n
        self.returns_year: list[int | None] = [None] * n
        self.president: int | None = None
        self.president_since = 0
        self.last_protected: tuple[int, int | None] = (0, None)  # (Year, seat)
        self.witness_used = False
        # Per-Year state, reset by _start_year
        self.year = 0
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
        self._jailed: list[str] = []
        self._eliminated: list[str] = []
        self._project_succeeded: bool | None = None
        self._year_audit: tuple[str, bool] | None = None
        self.audit: tuple[str, bool] | None = None  # last Year's, for the COA
        self.last_decrease: int | None = None  # None before the first report
        self._kaban_last_year = self.kaban
        # The step
        self.step: Step | None = None
        self.to_act: frozenset[int] = frozenset()
        self.pending: dict[int, Action] = {}
        self.outcome: Outcome | None = None
        # History
        self.events: list[BaseEvent] = []
        self.actions: list[Action] = []
        self.years: list[YearRecord] = []

        emit = self.events.append
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
            )
        )
        for seat, role in enumerate(self.roles):
            emit(RoleDealt(0, seat, self.players[seat], role))
        emit(TeamRevealed(0, CORRUPT, Role.CORRUPT_POLITICIAN, self._names(self.corrupt_seats)))
        if rules.good_politicians_recognise:  # R-07 option
            names = self._names(self.good_politician_seats)
            for seat in self.good_politician_seats:
                emit(TeamRevealed(0, seat, Role.GOOD_POLITICIAN, names))
        self._start_year(1)

    # ------------------------------------------------------------------ queries
    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def seat(self, player: str) -> int:
        """The seat of a player name (raises IllegalActionError for unknown names)."""
        seat = self._index.get(player)
        if seat is None:
            raise _illegal("unknown_player", "R-01", f"there is no player named {player!r}")
        return seat

    def is_active(self, seat: int) -> bool:
        return self.status[seat] == ACTIVE

    def active_seats(self) -> list[int]:
        return [s for s, st in enumerate(self.status) if st == ACTIVE]

    @property
    def waiting_for(self) -> frozenset[int]:
        """Seats that must still act in this step (moderator-only in the Hidden Phase)."""
        return self.to_act - self.pending.keys()

    def witness_available(self, seat: int) -> bool:
        """R-35: may this seat invoke Witness now?"""
        return self._witness_refusal(seat) is None

    def choices(self, player: str) -> list[Choice]:
        """What ``player`` (a name, or ``"@host"``) may do now, as field domains."""
        if self.outcome is not None:
            return []
        step = self.step
        seat = HOST_SEAT if player == HOST else self._index.get(player)
        if seat is None:
            return []
        if step is Step.DISCUSSION:
            if seat == HOST_SEAT:
                return [Choice("end_discussion")]
            return [Choice("witness")] if self.witness_available(seat) else []
        if seat not in self.to_act:
            return []
        names = self.players
        nobody: tuple[str | None, ...] = (None,)
        yes_no = (False, True)
        if step is Step.HIDDEN:
            role = self.roles[seat]
            active = self.active_seats()
            if role is Role.LAWYER:
                barred = self._barred_protectee()
                pool = [names[s] for s in active if s != barred]
                return [Choice("protect", {"target": nobody + tuple(pool)})]
            if role is Role.OMBUDSPERSON:
                pool = [names[s] for s in active if s != seat]
                return [Choice("investigate", {"target": nobody + tuple(pool)})]
            if role is Role.CORRUPT_POLITICIAN:
                barred_president = None if self.ruleset.tokhang_on_president else self.president
                pool = [names[s] for s in active if s != barred_president]
                return [
                    Choice(
                        "corrupt",
                        {"nakaw": yes_no, "suhol": yes_no, "tokhang": nobody + tuple(pool)},
                    )
                ]
            if role is Role.GOOD_POLITICIAN:
                pool = [names[s] for s in active if s != self.president]
                return [Choice("auto_jail", {"target": nobody + tuple(pool)})]
            return [Choice("ready")]
        if step is Step.STAND:
            return [Choice("stand", {"stand": yes_no})]
        if step is Step.ELECT or step is Step.ELECT_RUNOFF:
            return [Choice("elect", {"candidate": nobody + self._names(self.candidates)})]
        if step is Step.PICK_PROJECT:
            assert self.offered is not None
            return [Choice("pick_project", {"card": self.offered})]
        if step is Step.PICK_COMMITTEE:
            pool_all = self._names(self.active_seats())
            return [Choice("pick_committee", {"members": pool_all}, pick=self.committee_size)]
        if step is Step.COMMITTEE_VOTE:
            return [Choice("committee_vote", {"support": yes_no})]
        if step is Step.WITNESS_VOTE or step is Step.FORCED_JAIL_VOTE:
            return [Choice(step.value, {"jail": (None, False, True)})]
        # JAIL_VOTE, JAIL_RUNOFF
        return [Choice("jail_vote", {"target": nobody + self._names(self.candidates)})]

    def claim_choices(self, player: str) -> list[Choice]:
        """The claims ``player`` may make now: talk in the discussion, kept apart from the
        game's decisions (:meth:`choices`). Empty outside the discussion, for inactive
        players and for a COA silenced by Suhol (R-35)."""
        seat = self._index.get(player)
        if self.step is not Step.DISCUSSION or seat is None or self._claim_refusal(seat):
            return []
        others = tuple(name for s, name in enumerate(self.players) if s != seat)
        return [
            Choice("claim", {"claim": ("role",), "role": tuple(Role)}),
            Choice("claim", {"claim": ("audit",), "kickback": (False, True)}),
            Choice(
                "claim",
                {"claim": ("investigation",), "target": others, "aligned": (Team.GOOD, Team.BAD)},
            ),
            Choice("claim", {"claim": ("suspect",), "target": others}),
            Choice("claim", {"claim": ("trust",), "target": others}),
        ]

    def legal_actions(self, player: str) -> LegalActions:
        """Every action ``player`` may take now (lazy; supports ``in``, ``len``, iteration)."""
        return LegalActions(self, player)

    def is_legal(self, action: Action) -> bool:
        try:
            self._check(action)
        except IllegalActionError:
            return False
        return True

    def default_action(self, player: str) -> Action:
        """R-72: what a timer submits for ``player`` now (marked ``auto``).

        The President's card and committee are drawn from an RNG seeded by the game's seed,
        the Year and the step, so that the game's own RNG (and so any later draw of lots)
        does not depend on whether a timer ran out.
        """
        seat = HOST_SEAT if player == HOST else self.seat(player)
        step = self.step
        if step is None or (seat not in self.to_act and step is not Step.DISCUSSION):
            raise _illegal("not_your_turn", "R-72", f"{player} has nothing to decide now")
        if step is Step.HIDDEN:
            kind = NIGHT_ACTIONS[self.roles[seat]]
            if kind is Corrupt:
                return Corrupt(player=player, nakaw=False, suhol=False, tokhang=None, auto=True)
            if kind is Ready:
                return Ready(player=player, auto=True)
            return kind(player=player, target=None, auto=True)  # type: ignore[call-arg,return-value]
        if step is Step.DISCUSSION:
            if seat != HOST_SEAT:
                raise _illegal("not_your_turn", "R-72", f"{player} has nothing to decide now")
            return EndDiscussion(player=player, auto=True)
        if step is Step.STAND:
            return Stand(player=player, stand=False, auto=True)
        if step is Step.ELECT or step is Step.ELECT_RUNOFF:
            return Elect(player=player, candidate=None, auto=True)
        lots = random.Random(f"{self.seed}/{self.year}/{step.value}")
        if step is Step.PICK_PROJECT:
            assert self.offered is not None
            return PickProject(player=player, card=lots.choice(self.offered), auto=True)
        if step is Step.PICK_COMMITTEE:
            pool = self._names(self.active_seats())
            members = tuple(lots.sample(pool, self.committee_size))
            return PickCommittee(player=player, members=members, auto=True)
        if step is Step.COMMITTEE_VOTE:
            return CommitteeVote(player=player, support=False, auto=True)
        if step is Step.WITNESS_VOTE:
            return WitnessVote(player=player, jail=None, auto=True)
        if step is Step.FORCED_JAIL_VOTE:
            return ForcedJailVote(player=player, jail=None, auto=True)
        return JailVote(player=player, target=None, auto=True)

    # ------------------------------------------------------------------ the entry point
    def apply(self, action: Action) -> list[BaseEvent]:
        """Check and take ``action``; return the events it caused.

        Raises :class:`IllegalActionError` (and changes nothing) if the rules forbid it.
        """
        seat = self._check(action)
        events = self.events
        start = len(events)
        self.actions.append(action)
        kind = type(action)
        if kind is EndDiscussion:
            events.append(ActionTaken(self.year, EVERYONE, action))
            self._after_discussion()
        elif isinstance(action, Witness):
            self._witness(seat, action)
        elif isinstance(action, Claim):
            events.append(
                ClaimMade(
                    self.year,
                    EVERYONE,
                    action.player,
                    action.claim,
                    action.target,
                    action.role,
                    action.aligned,
                    action.kickback,
                )
            )
        else:
            pending = self.pending
            pending[seat] = action
            events.append(ActionTaken(self.year, CORRUPT if kind is Corrupt else seat, action))
            if len(pending) == len(self.to_act):
                _RESOLVERS[self.step](self)  # type: ignore[index]
        return events[start:]

    # ------------------------------------------------------------------ checks
    def _check(self, action: Action) -> int:
        """Validate without changing anything; return the actor's seat."""
        if self.outcome is not None:
            raise _illegal("game_over", self.outcome.rule, "the game is over")
        step = self.step
        kind = type(action)
        if kind not in _ACCEPTS[step]:  # type: ignore[index]
            spec = STEPS[step]  # type: ignore[index]
            wanted = ", ".join(sorted({cls.kind for cls in spec.accepts}))
            raise _illegal(
                "wrong_step",
                spec.rule,
                f"step {step} takes {wanted}, not {getattr(kind, 'kind', kind.__name__)}",
            )
        name = action.player
        if name == HOST:
            seat = HOST_SEAT
        else:
            found = self._index.get(name)
            if found is None:
                raise _illegal("unknown_player", "R-01", f"there is no player named {name!r}")
            seat = found
        _CHECKS[kind](self, seat, action)
        return seat

    def _check_actor(self, seat: int, action: BaseAction) -> None:
        if seat in self.to_act:
            return
        if seat == HOST_SEAT:
            raise _illegal("not_your_turn", "R-35", "the host only ends the discussion")
        status = self.status[seat]
        name = self.players[seat]
        if status == ELIMINATED:
            raise _illegal("eliminated", "R-40", f"{name} has been eliminated")
        if status == SUSPENDED:
            raise _illegal(
                "suspended", "R-41", f"{name} is suspended until Year {self.returns_year[seat]}"
            )
        spec = STEPS[self.step]  # type: ignore[index]
        raise _illegal(
            "not_your_turn", spec.rule, f"{name} does not act in {self.step}: {spec.actors} does"
        )

    def _target(self, name: str, rule: str) -> int:
        seat = self._index.get(name)
        if seat is None:
            raise _illegal("unknown_player", rule, f"there is no player named {name!r}")
        if self.status[seat] != ACTIVE:
            raise _illegal(
                "inactive_target", rule, f"{name} is {self.status[seat]} and cannot be chosen"
            )
        return seat

    def _check_night(self, seat: int, action: BaseAction) -> None:
        self._check_actor(seat, action)
        role = self.roles[seat]
        expected = NIGHT_ACTIONS[role]
        if type(action) is not expected:
            raise _illegal(
                "wrong_role",
                _NIGHT_RULES[type(action)],
                f"{self.players[seat]} cannot {action.kind} in the Hidden Phase",
            )

    def _check_protect(self, seat: int, action: Protect) -> None:
        self._check_night(seat, action)
        if action.target is None:
            return
        target = self._target(action.target, "R-21")
        if target == self._barred_protectee():
            raise _illegal(
                "consecutive_protect",
                "R-21",
                f"the Lawyer protected {action.target} last Year and cannot protect them again",
            )

    def _barred_protectee(self) -> int | None:
        if self.ruleset.lawyer_consecutive == "allowed":
            return None
        year, seat = self.last_protected
        return seat if year == self.year - 1 else None

    def _check_investigate(self, seat: int, action: Investigate) -> None:
        self._check_night(seat, action)
        if action.target is not None and self._target(action.target, "R-22") == seat:
            raise _illegal("self_target", "R-22", "the Ombudsperson investigates another player")

    def _check_corrupt(self, seat: int, action: Corrupt) -> None:
        self._check_night(seat, action)
        if action.tokhang is not None:
            target = self._target(action.tokhang, "R-23")
            if target == self.president and not self.ruleset.tokhang_on_president:
                raise _illegal("president_immune", "R-33", "Tokhang cannot target the President")

    def _check_auto_jail(self, seat: int, action: AutoJail) -> None:
        self._check_night(seat, action)
        if action.target is not None and self._target(action.target, "R-24") == self.president:
            raise _illegal(
                "president_immune", "R-33", f"{action.target} is President and cannot be jailed"
            )

    def _check_ready(self, seat: int, action: Ready) -> None:
        self._check_night(seat, action)

    def _check_elect(self, seat: int, action: Elect) -> None:
        if seat not in self.to_act:
            self._check_actor(seat, action)
        if action.candidate is not None:
            target = self._index.get(action.candidate)
            if target is None or target not in self.candidates:
                raise _illegal("not_a_candidate", "R-33", f"{action.candidate} is not a candidate")

    def _check_pick_project(self, seat: int, action: PickProject) -> None:
        self._check_actor(seat, action)
        if self.offered is None or action.card not in self.offered:
            raise _illegal(
                "not_offered",
                "R-34",
                f"card {action.card!r} is not offered; choose {' or '.join(self.offered or ())}",
            )

    def _check_pick_committee(self, seat: int, action: PickCommittee) -> None:
        self._check_actor(seat, action)
        members = action.members
        if len(members) != self.committee_size:
            raise _illegal(
                "committee_size",
                "R-34",
                f"the committee has {self.committee_size} members, not {len(members)}",
            )
        if len(set(members)) != len(members):
            raise _illegal("committee_member", "R-34", "a committee member is named twice")
        for name in members:
            self._target(name, "R-34")

    def _check_end_discussion(self, seat: int, action: EndDiscussion) -> None:
        if seat != HOST_SEAT:
            raise _illegal("not_host", "R-35", "only the host ends the discussion")

    def _check_witness(self, seat: int, action: Witness) -> None:
        refusal = self._witness_refusal(seat)
        if refusal is not None:
            raise _illegal("witness_unavailable", "R-35", refusal)

    def _check_claim(self, seat: int, action: Claim) -> None:
        refusal = self._claim_refusal(seat)
        if refusal is not None:
            raise _illegal(*refusal)
        kind = action.claim
        needs = _CLAIM_FIELDS[kind]
        given = {
            name
            for name in ("target", "role", "aligned", "kickback")
            if getattr(action, name) is not None
        }
        if given != needs:
            raise _illegal(
                "bad_claim",
                "R-35",
                f"a {kind} claim names {', '.join(sorted(needs)) or 'nothing else'}",
            )
        if action.target is not None:
            target = self._index.get(action.target)
            if target is None:
                raise _illegal("unknown_player", "R-35", f"no player named {action.target!r}")
            if target == seat:
                raise _illegal("self_target", "R-35", "a claim about another player")

    def _claim_refusal(self, seat: int) -> tuple[str, str, str] | None:
        if seat == HOST_SEAT:
            return ("not_your_turn", "R-35", "the host makes no claims")
        if self.status[seat] != ACTIVE:
            return ("not_your_turn", "R-35", f"{self.players[seat]} is not active")
        if seat == self.coa and self.coa_muted:
            return ("muted", "R-35", "the COA was silenced by Suhol this Year")
        return None

    def _witness_refusal(self, seat: int) -> str | None:
        if self.step is not Step.DISCUSSION:
            return "Witness is invoked during the discussion"
        if seat != self.ombudsperson:
            return "only the Ombudsperson can invoke Witness"
        if self.status[seat] != ACTIVE:
            return "the Ombudsperson is not active"
        if self.witness_used:
            return "Witness can be used once per game"
        if self.investigation is None or self.investigation[1] is not Team.BAD:
            return "Witness needs this Year's investigation to have found a Bad-aligned player"
        target = self.investigation[0]
        if self.status[target] != ACTIVE:
            return f"{self.players[target]} is no longer active"
        if target == self.president:
            return f"{self.players[target]} is President and cannot be jailed"
        return None

    def _check_jail_vote(self, seat: int, action: JailVote) -> None:
        if seat not in self.to_act:
            self._check_actor(seat, action)
        if action.target is not None:
            target = self._index.get(action.target)
            if target is None or target not in self.candidates:
                if target is not None and target == self.president:
                    raise _illegal(
                        "president_immune",
                        "R-33",
                        f"{action.target} is President and cannot be jailed",
                    )
                raise _illegal(
                    "not_a_candidate",
                    "R-36",
                    f"{action.target} cannot be voted on in this {self.step}",
                )

    # ------------------------------------------------------------------ the Year
    def _start_year(self, year: int) -> None:
        self.year = year
        self.protected = None
        self.investigation = None
        self.coa_muted = False
        self.forced_target = None
        self.witness_target = None
        self.offered = None
        self.card = None
        self.committee = ()
        self.committee_size = 0
        self.candidates = ()
        self.treasury_decrease = 0
        self._jailed = []
        self._eliminated = []
        self._project_succeeded = None
        emit = self.events.append
        emit(YearStarted(year, EVERYONE))
        president = self.president
        if president is not None and year >= self.president_since + self.ruleset.president_term:
            self.president = None  # vacant from the Start of the third Year
            emit(PresidencyEnded(year, EVERYONE, self.players[president]))
        for seat, back in enumerate(self.returns_year):
            if back is not None and back <= year and self.status[seat] == SUSPENDED:
                self.status[seat] = ACTIVE
                self.returns_year[seat] = None
                emit(PlayerReturned(year, EVERYONE, self.players[seat], self.strikes[seat]))
        self._begin(Step.HIDDEN, self.active_seats())

    def _begin(
        self, step: Step, actors: Sequence[int], options: tuple[str, ...] | None = None
    ) -> None:
        self.step = step
        self.to_act = frozenset(actors)
        self.pending = {}
        shown = None if step is Step.HIDDEN else self._names(actors)
        self.events.append(StepStarted(self.year, EVERYONE, step.value, shown, options))
        if not actors:
            _RESOLVERS[step](self)

    def _resolve_hidden(self) -> None:
        """R-25: resolve every night decision in the fixed order."""
        year, rules, emit = self.year, self.ruleset, self.events.append
        pending = self.pending
        # 1. Protect
        lawyer = self.lawyer
        if lawyer is not None and lawyer in pending:
            choice = pending[lawyer]
            assert isinstance(choice, Protect)
            self.protected = None if choice.target is None else self._index[choice.target]
            self.last_protected = (year, self.protected)
            emit(ProtectionSet(year, MODERATOR, choice.target))
        # 2. Investigate
        omb = self.ombudsperson
        if omb is not None and omb in pending:
            look = pending[omb]
            assert isinstance(look, Investigate)
            if look.target is not None:
                target = self._index[look.target]
                team = self.roles[target].team
                self.investigation = (target, team)
                emit(InvestigationResult(year, omb, look.target, team))
        # 3. Nakaw
        free = [s for s in self.corrupt_seats if s in pending]
        plans: list[Corrupt] = [pending[s] for s in free]  # type: ignore[misc]
        fund_before_steal = self.corruption_fund
        steal = 0
        if plans and all(p.nakaw for p in plans):
            steal = len(plans)
            self.corruption_fund += steal
            self.kaban -= steal
            self.treasury_decrease += steal
            emit(Stolen(year, CORRUPT, steal))
        # 4. Suhol
        if plans and _agreed([p.suhol for p in plans], rules.suhol_consent):
            fund = fund_before_steal if rules.suhol_fund_check == "before_steal" else None
            if (self.corruption_fund if fund is None else fund) >= SUHOL_COST:
                self.corruption_fund -= SUHOL_COST
                refund = min(SUHOL_COST, steal)
                self.kaban += refund
                self.treasury_decrease -= refund
                self.coa_muted = True
                emit(SuholPaid(year, CORRUPT, SUHOL_COST, refund))
                if self.coa is not None and self.status[self.coa] == ACTIVE:
                    emit(CoaMuted(year, self.coa))
            else:
                emit(NotPaid(year, CORRUPT, "suhol", SUHOL_COST))
        # 5. Tokhang
        target_name = agreed_target([p.tokhang for p in plans], rules.tokhang_consent)
        if target_name is not None:
            if self.corruption_fund >= self.tokhang_cost:
                self.corruption_fund -= self.tokhang_cost
                emit(TokhangPaid(year, CORRUPT, target_name, self.tokhang_cost))
                target = self._index[target_name]
                if target == self.protected:
                    emit(TokhangBlocked(year, EVERYONE, target_name))
                else:
                    self._eliminate(target, "tokhang")
                    if self.outcome is not None:
                        return
            else:
                emit(NotPaid(year, CORRUPT, "tokhang", self.tokhang_cost))
        # 6. Auto Jail, Good Politicians in seat order
        already: set[int] = set()
        for gp in self.good_politician_seats:
            order = pending.get(gp)
            if order is None or order.target is None:  # type: ignore[union-attr]
                continue
            assert isinstance(order, AutoJail) and order.target is not None
            target = self._index[order.target]
            reason: CancelReason | None = None
            if self.status[gp] != ACTIVE:
                reason = "inactive"
            elif self.status[target] != ACTIVE:
                reason = "target_inactive"
            elif target in already:
                reason = "already_targeted"
            elif self.forced_target is not None:
                reason = "forced_vote_called"
            elif self.public_spending < self.auto_jail_cost:
                reason = "not_enough_spending"
            if reason is not None:
                emit(AutoJailCancelled(year, gp, order.target, reason))
                continue
            already.add(target)
            self.public_spending -= self.auto_jail_cost
            emit(
                AutoJailUsed(
                    year, EVERYONE, order.target, self.auto_jail_cost, self.public_spending
                )
            )
            if rules.auto_jail_mode == "forced_vote":
                self.forced_target = target
                emit(ForcedVoteCalled(year, EVERYONE, order.target))
            else:
                self._jail(target, "auto_jail")
                if self.outcome is not None:
                    return
        # 7. COA audit
        coa = self.coa
        if coa is not None and self.status[coa] == ACTIVE:
            audit = self.audit
            emit(
                AuditDelivered(year, coa, audit[0] if audit else None, audit[1] if audit else None)
            )
        self._public_phase()

    def _public_phase(self) -> None:
        year, emit = self.year, self.events.append
        # R-31 treasury report
        if self.last_decrease is None:
            emit(TreasuryReport(year, EVERYONE, None, self.kaban_public))
        else:
            self.kaban_public = self._kaban_last_year
            emit(TreasuryReport(year, EVERYONE, self.last_decrease, self.kaban_public))
        # R-32 revenue
        active = self.active_seats()
        self.kaban += len(active)
        self.kaban_public += len(active)
        emit(Revenue(year, EVERYONE, len(active), self.kaban_public))
        # R-33 election
        if self.president is None:
            self._begin(Step.STAND, active)
        else:
            self._begin_project()

    def _resolve_stand(self) -> None:
        stood = [s for s in sorted(self.pending) if self.pending[s].stand]  # type: ignore[union-attr]
        candidates = stood or self.active_seats()
        self.candidates = tuple(candidates)
        names = self._names(candidates)
        self.events.append(Candidates(self.year, EVERYONE, names, not stood))
        self._begin(Step.ELECT, self.active_seats(), names)

    def _resolve_elect(self) -> None:
        counts = dict.fromkeys(self.candidates, 0)
        abstained = 0
        for vote in self.pending.values():
            name = vote.candidate  # type: ignore[union-attr]
            if name is None:
                abstained += 1
            else:
                counts[self._index[name]] += 1
        step = self.step
        assert step is not None
        self.events.append(
            VoteTally(self.year, EVERYONE, step.value, self._tally(counts), abstained)
        )
        if not counts:  # nobody active: no President this Year
            self._begin_project()
            return
        top = max(counts.values())
        leaders = [s for s, c in counts.items() if c == top]
        if len(leaders) == 1:
            self._elect(leaders[0], by_lots=False)
        elif step is Step.ELECT:
            self.candidates = tuple(leaders)
            self._begin(Step.ELECT_RUNOFF, self.active_seats(), self._names(leaders))
        else:
            self._elect(self._rng.choice(leaders), by_lots=True)

    def _elect(self, seat: int, *, by_lots: bool) -> None:
        self.president = seat
        self.president_since = self.year
        term_end = self.year + self.ruleset.president_term - 1
        self.events.append(
            PresidentElected(self.year, EVERYONE, self.players[seat], term_end, by_lots)
        )
        self._begin_project()

    def _begin_project(self) -> None:
        president = self.president
        if president is None:
            self._open_discussion()
            return
        self.offered = (self.small_deck[0], self.large_deck[0])
        self.events.append(
            ProjectOffered(self.year, EVERYONE, self.players[president], *self.offered)
        )
        self._begin(Step.PICK_PROJECT, (president,), self.offered)

    def _resolve_pick_project(self) -> None:
        (choice,) = self.pending.values()
        assert isinstance(choice, PickProject)
        card = self.card = choice.card
        for deck in (self.small_deck, self.large_deck):  # both go to the bottom
            deck.append(deck.pop(0))
        size = CARDS[card].committee
        active = len(self.active_seats())
        if active < size:
            size = active if active % 2 else active - 1
        self.committee_size = size
        self.events.append(ProjectChosen(self.year, EVERYONE, card))
        president = self.president
        assert president is not None
        self._begin(Step.PICK_COMMITTEE, (president,))

    def _resolve_pick_committee(self) -> None:
        (choice,) = self.pending.values()
        assert isinstance(choice, PickCommittee) and self.card is not None
        self.committee = tuple(self._index[name] for name in choice.members)
        self.events.append(CommitteeNamed(self.year, EVERYONE, self.card, choice.members))
        self._begin(Step.COMMITTEE_VOTE, self.committee)

    def _resolve_committee_vote(self) -> None:
        year, emit = self.year, self.events.append
        assert self.card is not None
        card = CARDS[self.card]
        support = sum(1 for vote in self.pending.values() if vote.support)  # type: ignore[union-attr,misc]
        size = len(self.committee)
        succeeded = support * 2 > size
        self._project_succeeded = succeeded
        if succeeded:
            self.public_spending += card.cost
            self.kaban -= card.cost
            self.treasury_decrease += card.cost
            kickback = any(self.roles[s] is Role.CORRUPT_POLITICIAN for s in self.committee)
            self._year_audit = (card.id, kickback)
        emit(
            ProjectVoted(
                year,
                EVERYONE,
                card.id,
                support,
                size - support,
                succeeded,
                card.cost,
                self.public_spending,
            )
        )
        if succeeded and self._year_audit is not None and self._year_audit[1]:
            self.corruption_fund += card.kickback
            emit(Kickback(year, CORRUPT, card.id, card.kickback))
        self._open_discussion()

    def _open_discussion(self) -> None:
        self.events.append(DiscussionOpened(self.year, EVERYONE))
        self._begin(Step.DISCUSSION, (HOST_SEAT,))

    def _witness(self, seat: int, action: Witness) -> None:
        assert self.investigation is not None
        target = self.investigation[0]
        self.witness_used = True
        self.witness_target = target
        self.events.append(ActionTaken(self.year, seat, action))
        self.events.append(WitnessTestimony(self.year, EVERYONE, self.players[target]))

    def _after_discussion(self) -> None:
        target = self.witness_target
        if target is not None and self.status[target] == ACTIVE:
            self._begin(Step.WITNESS_VOTE, self.active_seats(), (self.players[target],))
        else:
            self._begin_jail_vote()

    def _yes_no(self) -> tuple[int, int, int]:
        """Weighted yes and no (the President counts 2), and how many abstained."""
        yes = no = abstained = 0
        president = self.president
        for seat, vote in self.pending.items():
            jail = vote.jail  # type: ignore[union-attr]
            weight = 2 if seat == president else 1
            if jail is None:
                abstained += 1
            elif jail:
                yes += weight
            else:
                no += weight
        return yes, no, abstained

    def _resolve_yes_no(self, target: int, cause: str) -> None:
        yes, no, abstained = self._yes_no()
        step = self.step
        assert step is not None
        self.events.append(
            VoteTally(self.year, EVERYONE, step.value, (("yes", yes), ("no", no)), abstained)
        )
        if yes > no:  # yes > half of the valid votes
            self._jail(target, cause)
        else:
            self.events.append(NobodyJailed(self.year, EVERYONE, step.value))

    def _resolve_witness_vote(self) -> None:
        assert self.witness_target is not None
        self._resolve_yes_no(self.witness_target, "witness_vote")
        if self.outcome is None:
            self._begin_jail_vote()

    def _begin_jail_vote(self) -> None:
        active = self.active_seats()
        forced = self.forced_target
        if forced is not None and self.status[forced] == ACTIVE and forced != self.president:
            self._begin(Step.FORCED_JAIL_VOTE, active, (self.players[forced],))
            return
        self.candidates = tuple(s for s in active if s != self.president)
        self._begin(Step.JAIL_VOTE, active, self._names(self.candidates))

    def _resolve_forced_jail_vote(self) -> None:
        assert self.forced_target is not None
        self._resolve_yes_no(self.forced_target, "auto_jail")
        if self.outcome is None:
            self._end_of_year()

    def _resolve_jail_vote(self) -> None:
        counts = dict.fromkeys(self.candidates, 0)
        abstained = 0
        president, index = self.president, self._index
        for seat, vote in self.pending.items():
            name = vote.target  # type: ignore[union-attr]
            if name is None:
                abstained += 1
            else:
                counts[index[name]] += 2 if seat == president else 1
        step = self.step
        assert step is not None
        voted = {s: c for s, c in counts.items() if c}
        self.events.append(
            VoteTally(self.year, EVERYONE, step.value, self._tally(voted), abstained)
        )
        valid = sum(voted.values())
        if valid:
            top = max(voted.values())
            leaders = [s for s, c in voted.items() if c == top]
            if top * 2 > valid:  # more than half of the valid votes
                self._jail(leaders[0], "jail_vote")
                if self.outcome is not None:
                    return
                self._end_of_year()
                return
            if len(leaders) > 1 and step is Step.JAIL_VOTE:  # one runoff among the tied
                self.candidates = tuple(leaders)
                self._begin(Step.JAIL_RUNOFF, self.active_seats(), self._names(leaders))
                return
        self.events.append(NobodyJailed(self.year, EVERYONE, step.value))
        self._end_of_year()

    def _end_of_year(self) -> None:
        # Good's conditions first
        if self.public_spending >= self.public_spending_target:
            self._finish("good", "public_spending", "R-50")
            return
        if self.corruption_fund >= self.corruption_fund_target:
            self._finish("bad", "corruption_fund", "R-50")
            return
        #
        self.years.append(self._year_record())
        self.events.append(YearEnded(self.year, EVERYONE, self.public_spending, self.kaban_public))
        if self.year >= self.ruleset.max_years:
            self._finish("draw", "safety_stop", "R-51", record_year=False)
            return
        self.last_decrease = self.treasury_decrease
        self._kaban_last_year = self.kaban
        self.audit = self._year_audit
        self._year_audit = None
        self._start_year(self.year + 1)

    # ------------------------------------------------------------------ jail and removal
    def _jail(self, seat: int, cause: str) -> None:
        """R-41: protection blocks; else a strike - suspension, or elimination on the second."""
        name = self.players[seat]
        if seat == self.protected:
            self.events.append(JailingBlocked(self.year, EVERYONE, name))
            return
        self.strikes[seat] += 1
        self._jailed.append(name)
        if self.strikes[seat] >= STRIKES_TO_ELIMINATE:
            self.events.append(
                PlayerJailed(self.year, EVERYONE, name, self.strikes[seat], None, cause)
            )
            self._eliminate(seat, cause)
            return
        back = self.year + self.ruleset.suspension_years + 1
        self.status[seat] = SUSPENDED
        self.returns_year[seat] = back
        self.events.append(PlayerJailed(self.year, EVERYONE, name, self.strikes[seat], back, cause))

    def _eliminate(self, seat: int, cause: str) -> None:
        """R-40, and R-50: a purge ends the game at once."""
        role = self.roles[seat]
        self.status[seat] = ELIMINATED
        self.returns_year[seat] = None
        if self.president == seat:
            self.president = None
        self._eliminated.append(self.players[seat])
        shown = role if (cause != "tokhang" or self.ruleset.reveal_tokhang_role) else None
        self.events.append(PlayerEliminated(self.year, EVERYONE, self.players[seat], shown, cause))
        status = self.status
        if role is Role.CORRUPT_POLITICIAN and all(
            status[s] == ELIMINATED for s in self.corrupt_seats
        ):
            self._finish("good", "corrupt_purge", "R-50")
        elif role is Role.GOOD_POLITICIAN and all(
            status[s] == ELIMINATED for s in self.good_politician_seats
        ):
            self._finish("bad", "good_purge", "R-50")

    def _finish(self, winner: str, reason: str, rule: str, *, record_year: bool = True) -> None:
        self.outcome = Outcome(winner, reason, rule)
        self.step = None
        self.to_act = frozenset()
        self.pending = {}
        if record_year:
            self.years.append(self._year_record())
        self.events.append(
            GameOver(
                self.year,
                EVERYONE,
                winner,
                reason,
                rule,
                self.roles,
                self.corruption_fund,
                self.kaban,
            )
        )

    # ------------------------------------------------------------------ helpers
    def _year_record(self) -> YearRecord:
        return YearRecord(
            self.year,
            self.public_spending,
            self.corruption_fund,
            self.kaban,
            self.treasury_decrease,
            self.card,
            self._project_succeeded,
            list(self._jailed),
            list(self._eliminated),
        )

    def _names(self, seats: Sequence[int] | frozenset[int]) -> tuple[str, ...]:
        names = self.players
        return tuple(names[s] if s >= 0 else HOST for s in sorted(seats))

    def _tally(self, counts: dict[int, int]) -> tuple[tuple[str, int], ...]:
        names = self.players
        return tuple((names[s], c) for s, c in sorted(counts.items()))


class LegalActions:
    """The legal actions of one player now: ``action in legal``, ``len(legal)``, iteration."""

    def __init__(self, game: Game, player: str) -> None:
        self._game = game
        self._player = player
        self._choices = game.choices(player)

    def __iter__(self) -> Iterator[Action]:
        for choice in self._choices:
            yield from choice.actions(self._player)

    def __len__(self) -> int:
        return sum(choice.count() for choice in self._choices)

    def __contains__(self, action: object) -> bool:
        return (
            isinstance(action, BaseAction)
            and not isinstance(action, Claim)  # claims are talk: see Game.claim_choices
            and action.player == self._player
            and self._game.is_legal(action)  # type: ignore[arg-type]
        )

    def __repr__(self) -> str:
        return f"<LegalActions for {self._player!r}: {len(self)}>"


def _agreed(votes: list[bool], consent: str) -> bool:
    """R-23: unanimity (default) or a majority of the free Corrupt."""
    if not votes:
        return False
    if consent == "unanimous":
        return all(votes)
    return sum(votes) * 2 > len(votes)


def agreed_target(targets: list[str | None], consent: str) -> str | None:
    """R-23: the Tokhang target the free Corrupt agreed on (None: no agreement)."""
    if not targets:
        return None
    if consent == "unanimous":
        first = targets[0]
        return first if all(t == first for t in targets) else None
    named = [t for t in targets if t is not None]
    for t in dict.fromkeys(named):
        if named.count(t) * 2 > len(targets):
            return t
    return None


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


_CLAIM_FIELDS: dict[str, set[str]] = {
    "role": {"role"},
    "audit": {"kickback"},
    "investigation": {"target", "aligned"},
    "suspect": {"target"},
    "trust": {"target"},
}
_ACCEPTS: dict[Step, frozenset[type[BaseAction]]] = {
    step: frozenset(spec.accepts) for step, spec in STEPS.items()
}
_NIGHT_RULES: dict[type[Any], str] = {
    Protect: "R-21",
    Investigate: "R-22",
    Corrupt: "R-23",
    AutoJail: "R-24",
    Ready: "R-70",
}
_CHECKS: dict[type[Any], Any] = {
    Protect: Game._check_protect,
    Investigate: Game._check_investigate,
    Corrupt: Game._check_corrupt,
    AutoJail: Game._check_auto_jail,
    Ready: Game._check_ready,
    Stand: Game._check_actor,
    Elect: Game._check_elect,
    PickProject: Game._check_pick_project,
    PickCommittee: Game._check_pick_committee,
    CommitteeVote: Game._check_actor,
    EndDiscussion: Game._check_end_discussion,
    Witness: Game._check_witness,
    Claim: Game._check_claim,
    WitnessVote: Game._check_actor,
    ForcedJailVote: Game._check_actor,
    JailVote: Game._check_jail_vote,
}
_RESOLVERS: dict[Step, Any] = {
    Step.HIDDEN: Game._resolve_hidden,
    Step.STAND: Game._resolve_stand,
    Step.ELECT: Game._resolve_elect,
    Step.ELECT_RUNOFF: Game._resolve_elect,
    Step.PICK_PROJECT: Game._resolve_pick_project,
    Step.PICK_COMMITTEE: Game._resolve_pick_committee,
    Step.COMMITTEE_VOTE: Game._resolve_committee_vote,
    Step.WITNESS_VOTE: Game._resolve_witness_vote,
    Step.FORCED_JAIL_VOTE: Game._resolve_forced_jail_vote,
    Step.JAIL_VOTE: Game._resolve_jail_vote,
    Step.JAIL_RUNOFF: Game._resolve_jail_vote,
}
