"""The heuristic agent: plays every role sensibly from its own view and memory.

It keeps **suspicion scores** (positive: probably Corrupt; negative: probably Good) built
from what its seat may see:

* public signals (:class:`Board`): the treasury decrease minus the known project cost (how
  much was stolen, hence how many Corrupt are free, and who left when that number fell),
  how many members of each committee opposed, eliminations with revealed roles, Witness
  testimony, and claims weighed by the claimant's credibility;
* private knowledge (:class:`Memory`): its own role, the Ombudsperson's findings, the COA's
  audits, fellow Corrupt, and lies it can see through (a claim about itself or about a role it
  holds).

Every role plays to its goal (see the module's methods). Corrupt Politicians coordinate
through what they share - the same public signals and the team's live night choices - so
their night decisions agree without any hidden channel. A :class:`Board` only ever ingests
public events, so agents of one process may share it to save work.

Why one module of ~830 lines: the suspicion model (:class:`Board`, :class:`Memory`) and the
decisions of every role read the same scores; a role's play is a few small methods, and
docs/BALANCE.md's figures depend on all of it together. Tables at the end of the module say
which method does what: :data:`_BOARD_HANDLERS`, :data:`_PUBLIC_HANDLERS` and
:data:`_PRIVATE_HANDLERS` (what each kind of event tells the board or the seat),
:data:`_DECISIONS` (the step's action and the method that decides it) and :data:`_CLAIMS`
(what each role says in the discussion). The tables hold the functions themselves, so a
subclass changes what the bot does by overriding :meth:`HeuristicAgent.act` (as the search
bot and the tests' cheats do), not one of the methods the tables name.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..rules.actions import (
    Action,
    AutoJail,
    Claim,
    CommitteeVote,
    Corrupt,
    Elect,
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
from ..rules.cards import CARDS
from ..rules.events import (
    CORRUPT,
    EVERYONE,
    ActionTaken,
    AuditDelivered,
    AutoJailUsed,
    BaseEvent,
    ClaimMade,
    CommitteeNamed,
    GameStarted,
    InvestigationResult,
    Kickback,
    NotPaid,
    PlayerEliminated,
    PlayerJailed,
    PlayerReturned,
    PresidencyEnded,
    PresidentElected,
    ProjectVoted,
    RoleDealt,
    StepStarted,
    Stolen,
    SuholPaid,
    TeamRevealed,
    TokhangPaid,
    TreasuryReport,
    WitnessTestimony,
    YearStarted,
)
from ..rules.roles import (
    BAD_TEAM,
    CITIZEN,
    COA,
    CORRUPT_POLITICIAN,
    GOOD_POLITICIAN,
    GOOD_TEAM,
    LAWYER,
    OMBUDSPERSON,
    Role,
    Team,
)
from ..rules.state import (
    ACTIVE,
    COMMITTEE_VOTE,
    ELECT,
    ELECT_RUNOFF,
    ELIMINATED,
    FORCED_JAIL_VOTE,
    HIDDEN,
    JAIL_RUNOFF,
    JAIL_VOTE,
    PICK_COMMITTEE,
    PICK_PROJECT,
    STAND,
    SUSPENDED,
    WITNESS_VOTE,
    PlayerStatus,
)
from ..rules.steps import Step
from .agent import Prompt

CERTAIN = 100.0
CLEARED = -1.0  # a suspicion this low comes from facts (an audit, a steal that held), not looks
SUSPECT = 1.0  # jail-vote threshold for Good voters
UNIQUE_ROLES = (LAWYER, OMBUDSPERSON, COA)


@dataclass
class _Project:
    card: str
    committee: tuple[int, ...]
    succeeded: bool | None = None


@dataclass
class _Theft:
    year: int
    active: frozenset[int]
    amount: int


class Board:
    """What the whole table knows: built from public events only."""

    def __init__(self) -> None:
        self.seen = 0  # public events ingested so far
        self.names: tuple[str, ...] = ()
        self.index: dict[str, int] = {}
        self.n = 0
        self.year = 0
        self.status: list[PlayerStatus] = []
        self.strikes: list[int] = []
        self.revealed: dict[int, Role] = {}
        self.president: int | None = None
        self.public_spending = 0
        self.ps_target = self.cf_target = self.auto_jail_cost = self.tokhang_cost = 0
        self.sus: list[float] = []
        self.projects: dict[int, _Project] = {}
        self.night_active: dict[int, frozenset[int]] = {}
        self.thefts: list[_Theft] = []
        self.witnessed: set[int] = set()
        self.claimed: dict[int, Role] = {}
        self.claimants: dict[Role, list[int]] = {}
        self.accusers: dict[int, set[int]] = {}  # seat -> who called it Bad / suspected it
        self.audit_claims: list[tuple[int, int, bool]] = []  # (Year, claimant, kickback)
        self.step_options: tuple[str, ...] = ()  # the candidates / named player of the step

    # ------------------------------------------------------------ ingest
    def ingest(self, event: BaseEvent) -> None:
        """Take in one public event: its handler in :data:`_BOARD_HANDLERS`, if any."""
        self.seen += 1
        handler = _BOARD_HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    def _started(self, event: GameStarted) -> None:
        self.names = event.players
        self.n = len(event.players)
        self.index = {name: s for s, name in enumerate(event.players)}
        self.status = [ACTIVE] * self.n
        self.strikes = [0] * self.n
        self.sus = [0.0] * self.n
        self.ps_target = event.public_spending_target
        self.cf_target = event.corruption_fund_target
        self.auto_jail_cost = event.auto_jail_cost
        self.tokhang_cost = event.tokhang_cost

    def _new_year(self, event: YearStarted) -> None:
        self.year = event.year

    def _presidency_ended(self, event: PresidencyEnded) -> None:
        self.president = None

    def _returned(self, event: PlayerReturned) -> None:
        self.status[self.index[event.player]] = ACTIVE

    def _step(self, event: StepStarted) -> None:
        """Note the step's candidates or named player, and who is free on a night."""
        self.step_options = event.options or ()
        if event.step == "hidden":
            self.night_active[self.year] = frozenset(self.active())

    def _jailed(self, event: PlayerJailed) -> None:
        seat = self.index[event.player]
        self.strikes[seat] = event.strikes
        if event.returns_year is not None:
            self.status[seat] = SUSPENDED

    def _eliminated(self, event: PlayerEliminated) -> None:
        seat = self.index[event.player]
        self.status[seat] = ELIMINATED
        if seat == self.president:
            self.president = None
        if event.role is not None:
            self.revealed[seat] = event.role

    def _spent(self, event: AutoJailUsed | ProjectVoted) -> None:
        self.public_spending = event.public_spending

    def _treasury(self, event: TreasuryReport) -> None:
        if event.decrease is not None:
            self._theft(event.decrease)

    def _elected(self, event: PresidentElected) -> None:
        self.president = self.index[event.president]

    def _committee(self, event: CommitteeNamed) -> None:
        members = tuple(self.index[name] for name in event.members)
        self.projects[self.year] = _Project(event.card, members)

    def _voted(self, event: ProjectVoted) -> None:
        """The result of the committee vote: Good members rarely oppose."""
        self._spent(event)
        project = self.projects.get(self.year)
        if project is not None:
            project.succeeded = event.succeeded
            for seat in project.committee:
                self.sus[seat] += 0.8 * event.oppose / len(project.committee)

    def _witness(self, event: WitnessTestimony) -> None:
        seat = self.index[event.player]
        self.witnessed.add(seat)
        self.sus[seat] += CERTAIN

    def _theft(self, decrease: int) -> None:
        """R-31: last Year's decrease minus its project's cost is what was stolen (net of
        any Suhol refund): the number of free Corrupt that night, if they stole."""
        last = self.year - 1
        project = self.projects.get(last)
        cost = CARDS[project.card].cost if project is not None and project.succeeded else 0
        stolen = decrease - cost
        active = self.night_active.get(last)
        if stolen <= 0 or active is None:
            return
        theft = _Theft(last, active, stolen)
        if self.thefts:
            before = self.thefts[-1]
            gone = before.active - active
            came = active - before.active
            if not came and gone:
                if stolen < before.amount and len(gone) == before.amount - stolen:
                    for seat in gone:  # they left and the steal shrank: they were Corrupt
                        self.sus[seat] += 6.0
                elif stolen == before.amount:
                    for seat in gone:  # they left and nothing changed: they were not
                        self.sus[seat] -= 2.0
        self.thefts.append(theft)

    def credibility(self, seat: int) -> float:
        """How much the table believes what ``seat`` says (0..1)."""
        if seat in self.witnessed or self.revealed.get(seat) is CORRUPT_POLITICIAN:
            return 0.0
        return 1.0 / (1.0 + max(0.0, self.sus[seat]))

    def _claim(self, event: ClaimMade) -> None:
        seat = self.index[event.player]
        cred = self.credibility(seat)
        if event.claim == "role" and event.role is not None:
            role = event.role
            self.claimed[seat] = role
            holders = self.claimants.setdefault(role, [])
            if seat not in holders:
                holders.append(seat)
            if role in UNIQUE_ROLES and len(holders) > 1:
                for holder in holders:  # two claim one card: one of them lies
                    self.sus[holder] += 1.0
            return
        target = self.index.get(event.target) if event.target is not None else None
        if event.claim == "audit" and event.kickback is not None:
            self._note_role(seat, COA)
            self.audit_claims.append((self.year, seat, event.kickback))
            project = self.projects.get(self.year - 1)
            if project is not None and project.succeeded:
                weight = (1.5 if event.kickback else -1.0) * cred
                for member in project.committee:
                    self.sus[member] += weight / max(1, len(project.committee) - 2)
        elif event.claim == "investigation" and target is not None:
            self._note_role(seat, OMBUDSPERSON)
            bad = event.aligned is BAD_TEAM
            self.sus[target] += (2.5 if bad else -1.5) * cred
            if bad:
                self.accusers.setdefault(target, set()).add(seat)
        elif event.claim == "suspect" and target is not None:
            self.sus[target] += 0.3 * cred
            self.accusers.setdefault(target, set()).add(seat)
        elif event.claim == "trust" and target is not None:
            self.sus[target] -= 0.2 * cred

    def _note_role(self, seat: int, role: Role) -> None:
        holders = self.claimants.setdefault(role, [])
        if seat not in holders:
            holders.append(seat)
            self.claimed.setdefault(seat, role)
            if len(holders) > 1:
                for holder in holders:
                    self.sus[holder] += 0.5

    # ------------------------------------------------------------ queries
    def active(self) -> list[int]:
        return [s for s, st in enumerate(self.status) if st is ACTIVE]


_BOARD_HANDLERS: dict[type[BaseEvent], Callable[[Board, Any], None]] = {
    GameStarted: Board._started,
    YearStarted: Board._new_year,
    PresidencyEnded: Board._presidency_ended,
    PlayerReturned: Board._returned,
    StepStarted: Board._step,
    PlayerJailed: Board._jailed,
    PlayerEliminated: Board._eliminated,
    AutoJailUsed: Board._spent,
    TreasuryReport: Board._treasury,
    PresidentElected: Board._elected,
    CommitteeNamed: Board._committee,
    ProjectVoted: Board._voted,
    WitnessTestimony: Board._witness,
    ClaimMade: Board._claim,
}
"""What each kind of public event tells the table (the others tell it nothing)."""


@dataclass
class Memory:
    """What only this seat knows."""

    seat: int = -1
    role: Role = CITIZEN
    team: frozenset[int] = frozenset()  # fellow Corrupt (Corrupt only)
    known: dict[int, Team] = field(default_factory=dict)
    private: dict[int, float] = field(default_factory=dict)
    findings: dict[int, tuple[int, Team]] = field(default_factory=dict)  # Ombudsperson
    audits: dict[int, tuple[str | None, bool | None]] = field(default_factory=dict)  # COA
    fund: int = 0  # Corrupt: the Fund as the team's own events add it up
    last_steal: tuple[int, int] | None = None  # Corrupt: (Year, amount) of the last steal
    team_choices: dict[int, Corrupt] = field(default_factory=dict)  # this night's
    claims_made: set[tuple[int, str]] = field(default_factory=set)


class HeuristicAgent:
    """A sensible player of any role (the default bot)."""

    def __init__(self, seed: int | str = 0, board: Board | None = None) -> None:
        self.rng = random.Random(seed)
        self.board = board or Board()
        self.mem = Memory()
        self.public_seen = 0
        self.seen = 0  # events observed: the version of what this agent knows
        self._scores: list[float] = []
        self._scores_at = -1

    # ------------------------------------------------------------ observe
    def observe(self, events: Sequence[BaseEvent]) -> None:
        """Take in new events: public ones go to the (shared) board once, then to
        :data:`_PUBLIC_HANDLERS`; the seat's own and its team's to :data:`_PRIVATE_HANDLERS`."""
        board = self.board
        self.seen += len(events)
        for event in events:
            if event.audience == EVERYONE:
                self.public_seen += 1
                if self.public_seen > board.seen:
                    board.ingest(event)
                handler = _PUBLIC_HANDLERS.get(type(event))
            else:
                handler = _PRIVATE_HANDLERS.get(type(event))
            if handler is not None:
                handler(self, event)

    def _new_year(self, event: YearStarted) -> None:
        self.mem.team_choices = {}

    def _dealt(self, event: RoleDealt) -> None:
        mem = self.mem
        mem.seat = self.board.index[event.player]
        mem.role = event.role
        mem.known[mem.seat] = event.role.team

    def _team_revealed(self, event: TeamRevealed) -> None:
        """The Corrupt learn their team, hence everyone's side; Good Politicians who
        recognise each other (a variant of R-07) learn who is Good."""
        board, mem = self.board, self.mem
        if event.role is not CORRUPT_POLITICIAN:
            for name in event.members:
                mem.known[board.index[name]] = GOOD_TEAM
            return
        team = frozenset(board.index[name] for name in event.members)
        if mem.role is CORRUPT_POLITICIAN:
            mem.team = team - {mem.seat}
            for seat in range(board.n):
                mem.known[seat] = BAD_TEAM if seat in team else GOOD_TEAM

    def _investigated(self, event: InvestigationResult) -> None:
        target = self.board.index[event.target]
        self.mem.findings[self.board.year] = (target, event.aligned)
        self.mem.known[target] = event.aligned

    def _audited(self, event: AuditDelivered) -> None:
        self.mem.audits[self.board.year] = (event.project, event.kickback)
        self._audit(event.kickback)

    def _team_choice(self, event: ActionTaken) -> None:
        """A teammate's night choice, seen live."""
        action = event.action
        if event.audience == CORRUPT and isinstance(action, Corrupt):
            self.mem.team_choices[self.board.index[action.player]] = action

    def _stole(self, event: Stolen) -> None:
        self.mem.fund += event.amount
        self.mem.last_steal = (self.board.year, event.amount)

    def _kickback(self, event: Kickback) -> None:
        self.mem.fund += event.amount

    def _paid(self, event: SuholPaid | TokhangPaid) -> None:
        self.mem.fund -= event.cost

    def _not_paid(self, event: NotPaid) -> None:
        self.mem.fund = min(self.mem.fund, event.cost - 1)

    def _audit(self, kickback: bool | None) -> None:
        """COA: last Year's committee held a Corrupt (Yes) or none at all (No)."""
        project = self.board.projects.get(self.board.year - 1)
        if kickback is None or project is None or not project.succeeded:
            return
        members = [s for s in project.committee if s != self.mem.seat]
        if not kickback:
            for seat in members:
                self.mem.known[seat] = GOOD_TEAM
            return
        unknown = [s for s in members if self.mem.known.get(s) is not GOOD_TEAM]
        if len(unknown) == 1:
            self.mem.known[unknown[0]] = BAD_TEAM
        for seat in unknown:
            self.mem.private[seat] = self.mem.private.get(seat, 0.0) + 3.0 / len(unknown)

    def _see_through(self, event: ClaimMade) -> None:
        """A claim this seat knows to be false makes the claimant Corrupt (Good players
        never lie)."""
        mem, board = self.mem, self.board
        if mem.role is CORRUPT_POLITICIAN:
            return
        claimant = board.index[event.player]
        target = board.index.get(event.target) if event.target is not None else None
        lie = False
        if event.claim == "role" and event.role is mem.role and mem.role in UNIQUE_ROLES:
            lie = True
        elif event.claim == "investigation":
            lie = mem.role is OMBUDSPERSON or (target == mem.seat and event.aligned is BAD_TEAM)
            if target is not None and target in mem.known and event.aligned is not None:
                lie = lie or mem.known[target] is not event.aligned
        elif event.claim == "audit":
            lie = mem.role is COA
        if lie:
            mem.known[claimant] = BAD_TEAM

    # ------------------------------------------------------------ scores
    def scores(self) -> list[float]:
        """Suspicion of every seat: what it knows for sure, else public + private signals.
        Recomputed only when something new was observed."""
        if self._scores_at == self.seen:
            return self._scores
        board, mem = self.board, self.mem
        scores = list(board.sus)
        for seat, extra in mem.private.items():
            scores[seat] += extra
        for seat, role in board.revealed.items():
            scores[seat] = CERTAIN if role is CORRUPT_POLITICIAN else -CERTAIN
        for seat, team in mem.known.items():
            scores[seat] = CERTAIN if team is BAD_TEAM else -CERTAIN
        self._scores, self._scores_at = scores, self.seen
        return scores

    def suspicion(self, seat: int) -> float:
        return self.scores()[seat]

    def table_suspicion(self, seat: int) -> float:
        """How much the table, from what it has seen, suspects ``seat`` (the Corrupt's
        guide to how they look: whom a vote or an accusation can carry with it)."""
        return self.board.sus[seat]

    def _ranked(self, seats: Sequence[int], *, most_suspicious: bool = True) -> list[int]:
        """Seats ordered by suspicion (ties broken at random)."""
        scores = self.scores()
        random_ = self.rng.random
        keyed = [(scores[s], random_(), s) for s in seats]
        keyed.sort(reverse=most_suspicious)
        return [s for _, _, s in keyed]

    # ------------------------------------------------------------ act
    def act(self, prompt: Prompt) -> Action | None:
        """Talk (or not) in the discussion, the one optional prompt; else decide as
        :data:`_DECISIONS` says for the step."""
        if prompt.optional:
            return self._talk(prompt)
        return _DECISIONS[prompt.step](self, prompt)

    # -- the night
    def _night(self, prompt: Prompt) -> Action:
        me, role = prompt.player, self.mem.role
        options = prompt.choices[0].options
        if role is LAWYER:
            return Protect(player=me, target=self._protect(options["target"]))
        if role is OMBUDSPERSON:
            return Investigate(player=me, target=self._investigate(options["target"]))
        if role is GOOD_POLITICIAN:
            return AutoJail(player=me, target=self._auto_jail(options["target"]))
        if role is CORRUPT_POLITICIAN:
            return self._corrupt(me, options["tokhang"])
        return Ready(player=me)

    def _seats(self, names: Sequence[str | None]) -> list[int]:
        index = self.board.index
        return [index[n] for n in names if n is not None]

    def _protect(self, names: Sequence[str | None]) -> str | None:
        """Protect the most valuable Good player: a Good Politician on a first strike, a
        player proven Good, a claimed Ombudsperson or COA; never the barred one (R-21)."""
        board, mem = self.board, self.mem
        best, best_value = None, -1e9
        for seat in self._seats(names):
            sus = self.suspicion(seat)
            if sus >= CERTAIN:
                continue
            claim = board.claimed.get(seat)
            value = -0.5 * max(sus, -3.0)
            if claim is GOOD_POLITICIAN:
                value += 2.0
            elif claim in (OMBUDSPERSON, COA):
                value += 1.5
            if board.strikes[seat] == 1:
                value += 1.5
            if mem.known.get(seat) is GOOD_TEAM and seat != mem.seat:
                value += 1.0
            if seat == mem.seat:
                value += 0.8
            value += self.rng.random() * 0.3
            if value > best_value:
                best, best_value = seat, value
        return None if best is None else board.names[best]

    def _investigate(self, names: Sequence[str | None]) -> str | None:
        """Investigate the most suspicious player not known yet."""
        unknown = [s for s in self._seats(names) if s not in self.mem.known]
        if not unknown:
            return None
        return self.board.names[self._ranked(unknown)[0]]

    def _auto_jail(self, names: Sequence[str | None]) -> str | None:
        """Auto Jail a confirmed Corrupt when Approved Public Spending allows (R-24)."""
        board = self.board
        if board.public_spending < board.auto_jail_cost:
            return None
        if board.public_spending >= board.ps_target - 4:  # the race is nearly won: keep it
            return None
        confirmed = [s for s in self._seats(names) if self.suspicion(s) >= 5.0]
        if not confirmed:
            return None
        return board.names[self._ranked(confirmed)[0]]

    # -- the Corrupt
    def _corrupt(self, me: str, tokhang_names: Sequence[str | None]) -> Corrupt:
        board, mem = self.board, self.mem
        free = [s for s in (mem.team | {mem.seat}) if board.status[s] is ACTIVE]
        shown = mem.team_choices
        if shown:  # follow the teammate who chose first (they see each other live)
            first = next(iter(shown.values()))
            return Corrupt(player=me, nakaw=first.nakaw, suhol=first.suhol, tokhang=first.tokhang)
        steal = len(free)
        nakaw = self._steals(steal)
        fund = mem.fund + (steal if nakaw else 0)
        suhol = fund >= 3 and self._audit_would_hurt() and fund - 3 + steal < board.cf_target
        if suhol:
            fund -= 3
        target = self._tokhang_target(tokhang_names, fund)
        return Corrupt(player=me, nakaw=nakaw, suhol=suhol, tokhang=target)

    def _steals(self, steal: int) -> bool:
        """Nakaw tonight (R-25: the amount is the number of free Corrupt), unless the amount
        differs from the last steal's: a changed amount would expose us (except when it
        wins the race). The last steal stays the one before the change, so after a
        teammate's jailing the team stops stealing until the amount is the same again (the
        teammate returns): a weakness every heuristic figure of docs/BALANCE.md was played
        with, kept so that they stay true (the believer steals every night)."""
        board, mem = self.board, self.mem
        if mem.last_steal is not None and mem.last_steal[1] != steal and board.thefts:
            return mem.fund + steal >= board.cf_target
        return True

    def _audit_would_hurt(self) -> bool:
        """Silence the COA only when its audit would point at us: last Year's successful
        committee was small and held one of us, or held one of us the table already
        suspects, and a COA may still talk."""
        board, mem = self.board, self.mem
        project = board.projects.get(board.year - 1)
        if project is None or not project.succeeded:
            return False
        if any(role is COA for role in board.revealed.values()):
            return False
        team = mem.team | {mem.seat}
        ours = [s for s in project.committee if s in team]
        if not ours:
            return False
        if len(project.committee) <= 3:
            return True
        return any(self.table_suspicion(s) >= SUSPECT for s in ours)

    def _tokhang_target(self, names: Sequence[str | None], fund: int) -> str | None:
        """Pay for Tokhang only against a dangerous player, when the Fund allows."""
        board, mem = self.board, self.mem
        if fund < board.tokhang_cost:
            return None
        team = mem.team | {mem.seat}
        last = self._last_good_politician()
        best, danger = None, 0.0
        for seat in self._seats(names):
            if seat in team:
                continue
            value = 0.0
            accused = board.accusers.get(seat, set())
            for mate in team:
                if seat in board.accusers.get(mate, set()):
                    value += 2.0
            if board.claimed.get(seat) is OMBUDSPERSON:
                value += 2.0
            if board.claimed.get(seat) is COA and any(
                c == seat and k for _, c, k in board.audit_claims
            ):
                value += 1.5
            if seat == last:
                value += 5.0  # the last Good Politician: a purge wins the game
            value -= 0.1 * len(accused)
            if value > danger or (value == danger and best is not None and seat < best):
                best, danger = seat, value
        if best is None or danger < 3.0:
            return None
        return board.names[best]

    def _last_good_politician(self) -> int | None:
        """The one player left claiming Good Politician once another was revealed (R-40):
        eliminating the last one wins the Good Purge (R-50)."""
        board, team = self.board, self.mem.team | {self.mem.seat}
        left = [
            s for s in board.active() if board.claimed.get(s) is GOOD_POLITICIAN and s not in team
        ]
        revealed = any(r is GOOD_POLITICIAN for r in board.revealed.values())
        return left[0] if revealed and len(left) == 1 else None

    # -- the Public Phase
    def _stands(self) -> bool:
        mem = self.mem
        if self.table_suspicion(mem.seat) > 1.5:
            return False
        if mem.role is GOOD_POLITICIAN:
            return True
        if mem.role is CORRUPT_POLITICIAN:
            return self.rng.random() < 0.45
        return self.rng.random() < 0.25

    def _elect(self, prompt: Prompt) -> str | None:
        candidates = self._seats(prompt.choices[0].options["candidate"])
        if not candidates:
            return None
        mem, board = self.mem, self.board
        if mem.role is CORRUPT_POLITICIAN:
            mates = [s for s in candidates if s in mem.team or s == mem.seat]
            if mates:
                return board.names[mates[0]]
        # Good voters must not split their votes against a Corrupt bloc: they rank the
        # candidates the same way (suspicion, a claimed Good Politician first, then seat).
        scores = self.scores()

        def key(seat: int) -> tuple[float, int]:
            bonus = -0.5 if board.claimed.get(seat) is GOOD_POLITICIAN else 0.0
            return (round(scores[seat] + bonus, 1), seat)

        return board.names[min(candidates, key=key)]

    def _card(self, prompt: Prompt) -> str:
        """The President's project (R-34). A Corrupt takes the Large one: a bigger kickback.
        A Good President takes the Small one, whose committee has fewer seats for a Corrupt
        to sit on, unless the Large one alone would win the race this Year (and the Small
        one would not) or enough players are cleared by the facts to fill its committee.
        (Taking the Large one whenever enough players merely looked clean cost Good about
        36 points of its win rate against Corrupt heuristic bots at 13 players: the search
        bot found it, docs/BOTS.md.)"""
        small, large = (str(card) for card in prompt.choices[0].options["card"])
        if self.mem.role is CORRUPT_POLITICIAN:
            return large
        board = self.board
        spent, target = board.public_spending, board.ps_target
        if spent + CARDS[large].cost >= target > spent + CARDS[small].cost:
            return large
        return large if self._cleared_for(large, self.suspicion) else small

    def _cleared_for(self, card: str, suspicion: Callable[[int], float]) -> bool:
        """Enough active players are cleared (as ``suspicion`` reads them) to fill
        ``card``'s committee."""
        cleared = sum(1 for s in self.board.active() if suspicion(s) <= CLEARED)
        return cleared >= CARDS[card].committee

    def _committee(self, prompt: Prompt) -> tuple[str, ...]:
        choice = prompt.choices[0]
        pool = self._seats(choice.options["members"])
        size = choice.pick
        mem = self.mem
        if mem.role is CORRUPT_POLITICIAN:  # one of us for the kickback, cover for the rest
            ours = [mem.seat] if mem.seat in pool else [s for s in pool if s in mem.team][:1]
            ranked = [s for s in self._ranked(pool, most_suspicious=False) if s not in ours]
            cover = [s for s in ranked if s not in mem.team]
            chosen = ours + cover[: size - len(ours)]
            if len(chosen) < size:  # not enough cover: more of us
                chosen += [s for s in ranked if s not in chosen][: size - len(chosen)]
        else:
            chosen = self._ranked(pool, most_suspicious=False)[:size]
        return tuple(self.board.names[s] for s in chosen)

    def _support(self) -> bool:
        board, mem = self.board, self.mem
        project = board.projects.get(board.year)
        if project is None:
            return True
        cost = CARDS[project.card].cost
        if mem.role is CORRUPT_POLITICIAN:
            if board.public_spending + cost >= board.ps_target:
                return False  # never hand Good the win
            if any(s in mem.team or s == mem.seat for s in project.committee):
                return True  # the kickback
            # deny Good the spending, unless a lone "no" in a small committee would show
            return len(project.committee) <= 3 or self.rng.random() < 0.5
        if board.public_spending + cost >= board.ps_target:
            return True
        worst = max(self.suspicion(s) for s in project.committee)
        return worst < 2.5

    def _yes_no(self) -> bool | None:
        """Witness and forced votes: jail the named player?"""
        board, mem = self.board, self.mem
        if not board.step_options:
            return None
        seat = board.index[board.step_options[0]]
        if mem.role is CORRUPT_POLITICIAN:
            return seat not in mem.team and seat != mem.seat
        return self.suspicion(seat) > 0.0

    def _jail_target(self, prompt: Prompt) -> str | None:
        board, mem = self.board, self.mem
        candidates = self._seats(prompt.choices[0].options["target"])
        if not candidates:
            return None
        if mem.role is CORRUPT_POLITICIAN:
            team = mem.team | {mem.seat}
            goods = [s for s in candidates if s not in team]
            if not goods:
                return None
            # the team votes as a bloc: the Good player the table suspects most
            keyed = sorted(goods, key=lambda s: (-self.table_suspicion(s), s))
            return board.names[keyed[0]]
        # Good voters always cast a vote: abstaining would hand a Corrupt bloc the
        # majority of the valid votes. They never vote for a player known Good.
        ranked = [s for s in self._ranked(candidates) if self.suspicion(s) > -CERTAIN]
        if not ranked:
            return None
        return board.names[ranked[0]]

    # -- the discussion
    def _talk(self, prompt: Prompt) -> Action | None:
        """Testify if the Witness may; else one claim a Year at most, as
        :data:`_CLAIMS` says for the role."""
        me = prompt.player
        if any(c.action == "witness" for c in prompt.choices):
            return Witness(player=me)
        talked = (self.board.year, "talked")
        if not prompt.claims or talked in self.mem.claims_made:
            return None
        self.mem.claims_made.add(talked)
        return _CLAIMS[self.mem.role](self, me)

    def _report_finding(self, me: str) -> Action | None:
        """The Ombudsperson tells a Bad finding, and a Good one half the time."""
        board = self.board
        finding = self.mem.findings.get(board.year)
        if finding is not None:
            target, aligned = finding
            if aligned is BAD_TEAM or self.rng.random() < 0.5:
                return Claim(
                    player=me, claim="investigation", target=board.names[target], aligned=aligned
                )
        return self._suspect(me)

    def _report_audit(self, me: str) -> Action | None:
        """The COA tells this Year's audit, if there was a project to audit."""
        audit = self.mem.audits.get(self.board.year)
        if audit is not None and audit[0] is not None:
            return Claim(player=me, claim="audit", kickback=bool(audit[1]))
        return self._suspect(me)

    def _come_out(self, me: str) -> Action | None:
        """A Good Politician claims the role once: surely on a first strike, else now and
        then."""
        board, mem = self.board, self.mem
        if mem.seat not in board.claimed and (
            board.strikes[mem.seat] == 1 or self.rng.random() < 0.15
        ):
            return Claim(player=me, claim="role", role=GOOD_POLITICIAN)
        return self._suspect(me)

    def _suspect(self, me: str) -> Action | None:
        """Point at the most suspicious other player, if clearly suspicious (not always)."""
        board = self.board
        others = [s for s in board.active() if s != self.mem.seat]
        if not others:
            return None
        top = self._ranked(others)[0]
        if self.suspicion(top) >= 1.5 and self.rng.random() < 0.6:
            return Claim(player=me, claim="suspect", target=board.names[top])
        return None

    def _bluff(self, me: str) -> Action | None:
        """The Corrupt speaker (the free one with the lowest seat) muddies the water."""
        board, mem = self.board, self.mem
        team = mem.team | {mem.seat}
        free = sorted(s for s in team if board.status[s] is ACTIVE)
        if not free or free[0] != mem.seat:
            return None
        year = board.year
        true_coa = [c for y, c, k in board.audit_claims if y == year and k and c not in team]
        project = board.projects.get(year - 1)
        hurt = project is not None and any(s in team for s in project.committee)
        if true_coa and hurt and self.rng.random() < 0.6:  # a rival COA: "no kickback"
            return Claim(player=me, claim="audit", kickback=False)
        goods = [s for s in board.active() if s not in team]
        if not goods:
            return None
        target = max(goods, key=lambda s: (self.table_suspicion(s), -s))
        if self.rng.random() < 0.25:
            return Claim(
                player=me, claim="investigation", target=board.names[target], aligned=BAD_TEAM
            )
        if self.rng.random() < 0.5:
            return Claim(player=me, claim="suspect", target=board.names[target])
        return None


_PUBLIC_HANDLERS: dict[type[BaseEvent], Callable[[HeuristicAgent, Any], None]] = {
    YearStarted: HeuristicAgent._new_year,
    ClaimMade: HeuristicAgent._see_through,
}
"""What a public event tells one seat beyond the board (the board takes them all)."""

_PRIVATE_HANDLERS: dict[type[BaseEvent], Callable[[HeuristicAgent, Any], None]] = {
    RoleDealt: HeuristicAgent._dealt,
    TeamRevealed: HeuristicAgent._team_revealed,
    InvestigationResult: HeuristicAgent._investigated,
    AuditDelivered: HeuristicAgent._audited,
    ActionTaken: HeuristicAgent._team_choice,
    Stolen: HeuristicAgent._stole,
    Kickback: HeuristicAgent._kickback,
    SuholPaid: HeuristicAgent._paid,
    TokhangPaid: HeuristicAgent._paid,
    NotPaid: HeuristicAgent._not_paid,
}
"""What each kind of event only this seat (or its team) sees tells it."""

_DECISIONS: dict[Step, Callable[[HeuristicAgent, Prompt], Action]] = {
    HIDDEN: HeuristicAgent._night,
    STAND: lambda bot, p: Stand(player=p.player, stand=bot._stands()),
    ELECT: lambda bot, p: Elect(player=p.player, candidate=bot._elect(p)),
    ELECT_RUNOFF: lambda bot, p: Elect(player=p.player, candidate=bot._elect(p)),
    PICK_PROJECT: lambda bot, p: PickProject(player=p.player, card=bot._card(p)),
    PICK_COMMITTEE: lambda bot, p: PickCommittee(player=p.player, members=bot._committee(p)),
    COMMITTEE_VOTE: lambda bot, p: CommitteeVote(player=p.player, support=bot._support()),
    WITNESS_VOTE: lambda bot, p: WitnessVote(player=p.player, jail=bot._yes_no()),
    FORCED_JAIL_VOTE: lambda bot, p: ForcedJailVote(player=p.player, jail=bot._yes_no()),
    JAIL_VOTE: lambda bot, p: JailVote(player=p.player, target=bot._jail_target(p)),
    JAIL_RUNOFF: lambda bot, p: JailVote(player=p.player, target=bot._jail_target(p)),
}
"""The action each step asks for and the method that decides it. (The discussion is
the optional prompt: :meth:`HeuristicAgent._talk`.)"""

_CLAIMS: dict[Role, Callable[[HeuristicAgent, str], Action | None]] = {
    CORRUPT_POLITICIAN: lambda bot, me: bot._bluff(me),
    OMBUDSPERSON: lambda bot, me: bot._report_finding(me),
    COA: lambda bot, me: bot._report_audit(me),
    GOOD_POLITICIAN: lambda bot, me: bot._come_out(me),
    LAWYER: lambda bot, me: bot._suspect(me),
    CITIZEN: lambda bot, me: bot._suspect(me),
}
"""What each role says in the discussion (at most once a Year), through the agent's own
methods, so that a subclass's override speaks (the believer's Corrupt bluff less)."""
