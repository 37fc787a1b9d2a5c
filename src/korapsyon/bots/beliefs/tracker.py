""":class:`Beliefs`: one view's beliefs about who holds which role, fed event by event.

A :class:`Beliefs` reads the events of one seat's view (what ``Agent.observe`` delivers:
events.visible_to) or of the public view (``seat=None``), and refuses any other event.
Each event becomes hard facts (zeros in a seat's role weights, or a group factor that is
zero for impossible counts) and soft evidence from :class:`~.model.BehaviourModel`; the
posterior over role assignments is computed by :mod:`.space` when asked.

Hard facts used (RULES.md): the setup's role counts (R-02/R-03); the seat's own role card
and the Corrupt team it knows (R-06, R-07; the Good Politicians too when the house option
makes them recognise each other); roles revealed on elimination (R-40) and at the end; a
Witness testimony is verified (R-35: the named player is Corrupt); the Ombudsperson's own
findings (R-22); the COA's own audits (R-34: a kickback happened iff a Corrupt sat on last
Year's successful committee) and its own mute (R-35: Suhol was paid that night, or not);
the treasury decrease (R-25, R-31: the steal equals the number of free Corrupt).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ...rules.events import (
    CORRUPT,
    EVERYONE,
    AuditDelivered,
    AutoJailUsed,
    BaseEvent,
    Candidates,
    ClaimMade,
    CoaMuted,
    CommitteeNamed,
    GameOver,
    GameStarted,
    InvestigationResult,
    JailingBlocked,
    PlayerEliminated,
    PlayerJailed,
    PlayerReturned,
    ProjectChosen,
    ProjectOffered,
    ProjectVoted,
    RoleDealt,
    StepStarted,
    TeamRevealed,
    TokhangBlocked,
    TreasuryReport,
    WitnessTestimony,
    YearStarted,
)
from ...rules.roles import Role, Team
from ...rules.ruleset import default_roles
from .model import DEFAULT_MODEL, BehaviourModel
from .space import CP, ROLES, GroupFactor, Posterior, composition_counts, posterior


@dataclass
class _Project:
    members: tuple[int, ...]
    succeeded: bool = False
    cost: int = 0


class Beliefs:
    """The beliefs of one view (a seat, or the public with ``seat=None``).

    ``players`` are the seat names and ``roles`` the setup's roles in any order (the
    composition is public: R-02 by default, or the custom setup everyone agreed to). Feed it events
    with :meth:`observe`; ask :meth:`corrupt_probability`, :meth:`role_probability` or
    :meth:`sample`. Nothing is computed until asked, and the answer is cached until the
    next event.
    """

    def __init__(
        self,
        players: Sequence[str],
        roles: Sequence[Role] | None = None,
        seat: str | None = None,
        *,
        model: BehaviourModel = DEFAULT_MODEL,
        max_exact: int = 50_000,
    ) -> None:
        if roles is None:
            roles = default_roles(len(players))
        if len(roles) != len(players):
            raise ValueError("one role for every seat")
        self.players = tuple(players)
        self.index = {name: s for s, name in enumerate(self.players)}
        self.seat = None if seat is None else self.index[seat]
        self.model = model
        self.max_exact = max_exact
        self.corrupt_count, self.counts = composition_counts(roles)
        self.weights = np.ones((len(players), len(ROLES)))
        self.factors: list[GroupFactor] = []
        self.role: Role | None = None  # the seat's own role, once dealt
        self.year = 0
        self.active = set(range(len(players)))
        self.night_active: dict[int, tuple[int, ...]] = {}
        self.projects: dict[int, _Project] = {}
        self.president: int | None = None
        self.last_steal = 0  # the last Year whose steal the treasury showed (0: none yet)
        self.muted: set[int] = set()  # Years the COA (this seat) was muted
        self.revealed: dict[int, Role] = {}
        self._cached: Posterior | None = None

    @classmethod
    def start(
        cls, events: Sequence[BaseEvent], roles: Sequence[Role] | None = None, **options: Any
    ) -> Beliefs:
        """The beliefs of the view whose first events these are (an agent's first
        ``observe``): the table and its composition from the game's start, the seat from
        its role card (none: the public view); then every event is observed."""
        started = next(e for e in events if isinstance(e, GameStarted))
        seat = next((e.player for e in events if isinstance(e, RoleDealt)), None)
        if roles is None:
            roles = started.roles()
        beliefs = cls(started.players, roles, seat, **options)
        beliefs.observe(events)
        return beliefs

    # ------------------------------------------------------------------ reading
    def observe(self, events: Iterable[BaseEvent]) -> None:
        """Take in new events of this view, in order."""
        for event in events:
            self._check_visible(event)
            self._cached = None
            self._take(event)

    def _check_visible(self, event: BaseEvent) -> None:
        audience = event.audience
        if audience == EVERYONE:
            return
        if self.seat is not None and audience == self.seat:
            return
        if audience == CORRUPT and self.role is Role.CORRUPT_POLITICIAN:
            return
        raise ValueError(f"this view may not see {type(event).__name__} (audience {audience!r})")

    def _take(self, event: BaseEvent) -> None:
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    # ------------------------------------------------------------------ the table
    def _year(self, event: YearStarted) -> None:
        self.year = event.year

    def _step(self, event: StepStarted) -> None:
        if event.step == "hidden":
            self.night_active[self.year] = tuple(sorted(self.active))

    def _returned(self, event: PlayerReturned) -> None:
        self.active.add(self.index[event.player])

    def _jailed(self, event: PlayerJailed) -> None:
        if event.returns_year is not None:
            self.active.discard(self.index[event.player])

    def _started(self, event: GameStarted) -> None:
        if tuple(event.players) != self.players:
            raise ValueError("these events are another table's")
        if composition_counts(event.roles()) != (self.corrupt_count, self.counts):
            raise ValueError("these events are another setup's: its composition differs")

    def _offered(self, event: ProjectOffered) -> None:
        self.president = self.index[event.president]

    # ------------------------------------------------------------------ hard facts
    def _fix(self, seat: int, role: Role) -> None:
        """The seat holds ``role`` (its weight for that role is kept: the same factor in
        every assignment left)."""
        column = ROLES.index(role)
        keep = self.weights[seat, column]
        self.weights[seat] = 0.0
        self.weights[seat, column] = keep

    def _side(self, seat: int, bad: bool) -> None:
        if bad:
            self._fix(seat, Role.CORRUPT_POLITICIAN)
        else:
            self.weights[seat, CP] = 0.0

    def _team(self, role: Role, members: set[int]) -> None:
        """R-07: the Corrupt know each other (and, with the option, so do the Good
        Politicians): the members hold ``role`` and nobody else does."""
        for seat in range(len(self.players)):
            if seat in members:
                self._fix(seat, role)
            else:
                self.weights[seat, ROLES.index(role)] = 0.0

    def _eliminated(self, event: PlayerEliminated) -> None:
        seat = self.index[event.player]
        self.active.discard(seat)
        if event.role is not None:
            self.revealed[seat] = event.role
            self._fix(seat, event.role)

    def _dealt(self, event: RoleDealt) -> None:
        self.role = event.role
        self._fix(self.index[event.player], event.role)

    def _revealed_team(self, event: TeamRevealed) -> None:
        self._team(event.role, {self.index[name] for name in event.members})

    def _investigated(self, event: InvestigationResult) -> None:
        self._side(self.index[event.target], event.aligned is Team.BAD)

    def _witness(self, event: WitnessTestimony) -> None:
        self._side(self.index[event.player], True)  # verified

    def _muted(self, event: CoaMuted) -> None:
        self.muted.add(self.year)

    def _over(self, event: GameOver) -> None:
        for seat, role in enumerate(event.roles):
            self._fix(seat, role)

    def _audit(self, event: AuditDelivered) -> None:
        """R-34, for the COA: a kickback iff a Corrupt sat on last Year's committee; and
        no mute this Year means no Suhol this night (R-35)."""
        project = self.projects.get(self.year - 1)
        if event.kickback is not None and project is not None and project.succeeded:
            table = np.array([0.0, 1.0]) if event.kickback else np.array([1.0, 0.0])
            self._group((project.members,), _at_least_one(table, len(project.members)))

    def _treasury(self, event: TreasuryReport) -> None:
        """R-31: last Year's decrease less its project's cost is the net steal."""
        decrease = event.decrease
        last = self.year - 1
        active = self.night_active.get(last)
        if active is None or decrease is None:
            return
        project = self.projects.get(last)
        stolen = decrease - (project.cost if project is not None and project.succeeded else 0)
        model = self.model
        if self.role is Role.COA and last in self.night_known_to_coa():
            model = _with_suhol(model, last in self.muted)
        before = self.night_active.get(self.last_steal) if self.last_steal else None
        if before is None:
            self._group((active,), model.steal_table(stolen, len(active)))
        else:
            self._group((active, before), model.steal_table(stolen, len(active), len(before)))
        if stolen > 0:
            self.last_steal = last

    def night_known_to_coa(self) -> set[int]:
        """The Years whose Suhol this seat (the COA, active that night) knows about."""
        return {y for y, active in self.night_active.items() if self.seat in active}

    # ------------------------------------------------------------------ soft evidence
    def _soft(self, seat: int, by_role: dict[Role, float], other: float) -> None:
        for column, role in enumerate(ROLES):
            self.weights[seat, column] *= by_role.get(role, other)

    def _group(self, groups: tuple[tuple[int, ...], ...], table: np.ndarray) -> None:
        self.factors.append(GroupFactor(groups, np.asarray(table, dtype=np.float64)))

    def _stood(self, event: Candidates) -> None:
        candidates = set() if event.nobody_stood else {self.index[c] for c in event.candidates}
        for seat in sorted(self.active):
            rates = self.model.stand
            stood = seat in candidates
            self._soft(seat, {r: p if stood else 1 - p for r, p in rates.items()}, 1.0)

    def _card(self, event: ProjectChosen) -> None:
        if self.president is None:
            return
        large = event.card.startswith("L")
        bad, good = self.model.large_bad, self.model.large_good
        if not large:
            bad, good = 1 - bad, 1 - good
        self._soft(self.president, {Role.CORRUPT_POLITICIAN: bad}, good)

    def _committee(self, event: CommitteeNamed) -> None:
        members = tuple(self.index[name] for name in event.members)
        self.projects[self.year] = _Project(members)
        if self.president is None:
            return
        active = tuple(sorted(self.active))
        table = self.model.committee_table(len(active), len(members), self.corrupt_count)
        self._group(((self.president,), members, active), table)

    def _voted(self, event: ProjectVoted) -> None:
        project = self.projects.get(self.year)
        if project is None:
            return
        project.succeeded, project.cost = event.succeeded, event.cost
        members = len(project.members)
        self._group((project.members,), self.model.oppose_table(members, event.oppose))

    def _claim(self, event: ClaimMade) -> None:
        model = self.model
        speaker = self.index[event.player]
        target = None if event.target is None else self.index.get(event.target)
        if event.claim == "role" and event.role is not None:
            self._soft(speaker, model.claim_rate(event.role, model.bluff_role), 1.0)
        elif event.claim == "audit" and event.kickback is not None:
            self._soft(speaker, model.claim_rate(Role.COA, model.bluff_audit), 1.0)
            project = self.projects.get(self.year - 1)
            if project is not None and project.succeeded:
                table = model.audit_table(event.kickback)
                self._group(
                    ((speaker,), project.members), _at_least_one(table, len(project.members))
                )
        elif event.claim == "investigation" and target is not None and target != speaker:
            rates = model.claim_rate(Role.OMBUDSPERSON, model.bluff_investigation)
            self._soft(speaker, rates, 1.0)
            self._group(((speaker,), (target,)), model.verdict_table(event.aligned is Team.BAD))
        elif event.claim in ("suspect", "trust") and target is not None and target != speaker:
            self._group(((speaker,), (target,)), model.talk_table(event.claim == "suspect"))

    def _auto_jail(self, event: AutoJailUsed) -> None:
        bad = {Role.CORRUPT_POLITICIAN: 1.0}
        self._soft(self.index[event.target], bad, self.model.auto_jail_good)

    def _tokhang_blocked(self, event: TokhangBlocked) -> None:
        bad = {Role.CORRUPT_POLITICIAN: self.model.tokhang_bad}
        self._soft(self.index[event.player], bad, 1.0)

    def _jailing_blocked(self, event: JailingBlocked) -> None:
        bad = {Role.CORRUPT_POLITICIAN: self.model.protect_bad}
        self._soft(self.index[event.player], bad, 1.0)

    # ------------------------------------------------------------------ answers
    def posterior(self) -> Posterior:
        """The posterior over role assignments (cached until the next event)."""
        if self._cached is None:
            self._cached = posterior(
                self.weights, self.factors, self.corrupt_count, self.counts,
                max_exact=self.max_exact,
            )  # fmt: skip
        return self._cached

    def corrupt_probability(self) -> dict[str, float]:
        """P(player is Corrupt), for every player."""
        marginals = self.posterior().corrupt_marginals()
        return {name: float(marginals[s]) for s, name in enumerate(self.players)}

    def role_probability(self) -> dict[str, dict[Role, float]]:
        """P(player holds role), for every player and role."""
        marginals = self.posterior().role_marginals()
        return {
            name: {role: float(marginals[s, c]) for c, role in enumerate(ROLES)}
            for s, name in enumerate(self.players)
        }

    def sample(self, rng: random.Random) -> tuple[Role, ...]:
        """A role assignment drawn from the beliefs, seat by seat (for determinisation)."""
        return self.posterior().sample(rng)


_HANDLERS: dict[type[BaseEvent], Callable[[Beliefs, Any], None]] = {
    GameStarted: Beliefs._started,
    YearStarted: Beliefs._year,
    StepStarted: Beliefs._step,
    PlayerReturned: Beliefs._returned,
    PlayerJailed: Beliefs._jailed,
    PlayerEliminated: Beliefs._eliminated,
    RoleDealt: Beliefs._dealt,
    TeamRevealed: Beliefs._revealed_team,
    InvestigationResult: Beliefs._investigated,
    WitnessTestimony: Beliefs._witness,
    CoaMuted: Beliefs._muted,
    AuditDelivered: Beliefs._audit,
    TreasuryReport: Beliefs._treasury,
    Candidates: Beliefs._stood,
    ProjectOffered: Beliefs._offered,
    ProjectChosen: Beliefs._card,
    CommitteeNamed: Beliefs._committee,
    ProjectVoted: Beliefs._voted,
    ClaimMade: Beliefs._claim,
    AutoJailUsed: Beliefs._auto_jail,
    TokhangBlocked: Beliefs._tokhang_blocked,
    JailingBlocked: Beliefs._jailing_blocked,
    GameOver: Beliefs._over,
}
"""What each kind of event tells a view (the others tell it nothing)."""

EVIDENCE = frozenset(_HANDLERS) - {
    GameStarted, YearStarted, StepStarted, PlayerReturned, PlayerJailed, ProjectOffered,
    CoaMuted, RoleDealt, TeamRevealed,
}  # fmt: skip
"""The kinds of event that can change the beliefs once the deal is known."""


def _at_least_one(table: np.ndarray, members: int) -> np.ndarray:
    """Expand a table over [..., dirty] (0: no Corrupt, 1: some) to counts 0..members."""
    table = np.asarray(table, dtype=np.float64)
    counts = np.minimum(np.arange(members + 1), 1)
    expanded: np.ndarray = table[..., counts]
    return expanded


def _with_suhol(model: BehaviourModel, paid: bool) -> BehaviourModel:
    """The model for a night whose Suhol the COA knows (its mute, R-35)."""
    return replace(model, suhol=1.0 if paid else 0.0)
