"""Determinisation: an engine :class:`~korapsyon.rules.game.Game` consistent with one seat's
view, for a role assignment drawn from that seat's beliefs.

A world is rebuilt by **replaying the game with the engine**, step by step, from the
events the seat saw: the setup with the sampled roles, the decks in the order the offered
cards showed (the cards never offered shuffled), a seed whose draws of lots give the
lots the table saw, the seat's own actions (and, for a Corrupt seat, its team's night
choices) as they were, and every other seat's hidden actions made up to agree with what
was public: ballots dealt out to match each tally, committee votes to match the count,
stands from the candidates, night choices from the treasury report, the Auto Jails, the
Tokhang and the blocked jailings. The engine checks every action, and the world's events
that the seat may see must equal the events it saw, one for one: a world that cannot
reproduce them (a sampled Lawyer that was in jail when a jailing was blocked, a Fund too
small for the Tokhang everyone saw) raises :class:`Inconsistent` and is drawn again.

Why replay rather than writing a game state directly: the engine's state is read-only for
callers (``Game``'s invariant), and a replay is checked by the same rules as every game,
so a world can never hold a state the rules could not reach.

The module is a little over 400 lines because it is one walk through the game: each step's
made-up choices sit beside the others, read in the order a Year runs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ...rules.actions import (
    HOST,
    Action,
    AutoJail,
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
from ...rules.cards import LARGE_DECK, SMALL_DECK
from ...rules.errors import KorapsyonError
from ...rules.events import (
    ActionTaken,
    AutoJailUsed,
    BaseEvent,
    Candidates,
    ClaimMade,
    CoaMuted,
    CommitteeNamed,
    GameOver,
    JailingBlocked,
    PlayerEliminated,
    PresidentElected,
    ProjectChosen,
    ProjectOffered,
    ProjectVoted,
    StepStarted,
    TokhangBlocked,
    TreasuryReport,
    VoteTally,
    WitnessTestimony,
    visible_to,
)
from ...rules.game import Game
from ...rules.roles import Role
from ...rules.ruleset import SUHOL_COST, Ruleset
from ...rules.steps import Step

STEAL_RATE = 0.9  # a night whose steal is not reported yet: P(the Corrupt stole)


class Inconsistent(Exception):
    """This role assignment (or the hidden choices made up for it) cannot reproduce what
    the seat saw."""


@dataclass(frozen=True)
class Table:
    """What a world is built from: the seat, the table and every event the seat saw."""

    seat: int
    players: tuple[str, ...]
    ruleset: Ruleset
    events: tuple[BaseEvent, ...]


def build_world(table: Table, roles: Sequence[Role], rng: random.Random) -> Game:
    """A game at the seat's present moment with these roles, consistent with its view."""
    return _Replay(table, tuple(roles), rng).run()


def _decks(events: Sequence[BaseEvent], rng: random.Random) -> tuple[list[str], list[str]]:
    """The offered cards in the order they came, then the others shuffled (R-34)."""
    small: list[str] = []
    large: list[str] = []
    for event in events:
        if isinstance(event, ProjectOffered):
            if event.small not in small:
                small.append(event.small)
            if event.large not in large:
                large.append(event.large)
    rest_small = [c for c in SMALL_DECK if c not in small]
    rest_large = [c for c in LARGE_DECK if c not in large]
    rng.shuffle(rest_small)
    rng.shuffle(rest_large)
    return small + rest_small, large + rest_large


def _lots_seed(events: Sequence[BaseEvent], players: tuple[str, ...], rng: random.Random) -> int:
    """A seed whose draws of lots (R-33: the only use of the game's generator once the
    roles and decks are given) elect the Presidents the table saw elected by lots."""
    index = {name: s for s, name in enumerate(players)}
    draws: list[tuple[list[str], str]] = []
    runoff: VoteTally | None = None
    for event in events:
        if isinstance(event, VoteTally) and event.step == Step.ELECT_RUNOFF.value:
            runoff = event
        elif isinstance(event, PresidentElected) and event.by_lots and runoff is not None:
            top = max(count for _, count in runoff.tally)
            leaders = sorted((n for n, c in runoff.tally if c == top), key=index.__getitem__)
            draws.append((leaders, event.president))
    base = rng.getrandbits(32)
    for seed in range(base, base + 10_000):
        lots = random.Random(seed)
        if all(lots.choice(leaders) == winner for leaders, winner in draws):
            return seed
    raise Inconsistent("no seed draws these lots")


def _next_step(events: Sequence[BaseEvent], start: int) -> int | None:
    """The index of the next step's start (or the game's end) from ``start``."""
    for i in range(start, len(events)):
        if isinstance(events[i], (StepStarted, GameOver)):
            return i
    return None


class _Replay:
    """One rebuild: walks the seat's events and drives a fresh game through the same steps."""

    def __init__(self, table: Table, roles: tuple[Role, ...], rng: random.Random) -> None:
        self.table = table
        self.rng = rng
        self.seen = table.events
        self.me = table.players[table.seat]
        self.corrupt = roles[table.seat] is Role.CORRUPT_POLITICIAN
        self.game = Game(
            table.players,
            roles=roles,
            seed=_lots_seed(self.seen, table.players, rng),
            ruleset=table.ruleset,
            decks=_decks(self.seen, rng),
        )
        self.cursor = 0  # events of the seat matched so far
        self.checked = 0  # world events compared so far

    def run(self) -> Game:
        self._check()
        game, seen = self.game, self.seen
        while self.cursor < len(seen):
            if game.outcome is not None:
                raise Inconsistent("the world ended before the view did")
            end = _next_step(seen, self.cursor)
            segment = seen[self.cursor : len(seen) if end is None else end]
            if game.step is Step.DISCUSSION:
                self._discussion(segment)
            else:
                self._step(segment, resolved=end is not None)
            self._check()
            if end is None:
                break
        return game

    # ------------------------------------------------------------------ checking
    def _apply(self, action: Action) -> None:
        try:
            self.game.apply(action)
        except KorapsyonError as exc:
            raise Inconsistent(str(exc)) from None

    def _check(self) -> None:
        """The world's new events this seat may see must be the ones it saw."""
        events, seen, seat = self.game.events, self.seen, self.table.seat
        for event in events[self.checked :]:
            if not visible_to(event, seat, self.corrupt):
                continue
            if self.cursor >= len(seen) or seen[self.cursor] != event:
                raise Inconsistent(f"the world diverges at {type(event).__name__}")
            self.cursor += 1
        self.checked = len(events)

    # ------------------------------------------------------------------ one step
    def _step(self, segment: Sequence[BaseEvent], *, resolved: bool) -> None:
        game = self.game
        known: dict[int, Action] = {}
        start = len(game.events)
        for event in segment:
            if isinstance(event, ActionTaken) and event.action.player != HOST:
                self._apply(event.action)
                known[game.seat(event.action.player)] = event.action
        if not resolved or _next_step(game.events, start) is not None:
            return  # still open, or the seat's own action closed it
        others = sorted(game.waiting_for - known.keys())
        for action in self._others(segment, others, known).values():
            if game.outcome is not None:
                raise Inconsistent("the world ended early")
            self._apply(action)

    def _others(
        self, segment: Sequence[BaseEvent], seats: list[int], known: dict[int, Action]
    ) -> dict[int, Action]:
        step = self.game.step
        names = self.game.players
        if step is Step.HIDDEN:
            return {s: self._night(s, segment) for s in seats}
        if step is Step.STAND:
            said = next(e for e in segment if isinstance(e, Candidates))
            stood = set() if said.nobody_stood else set(said.candidates)
            return {s: Stand(player=names[s], stand=names[s] in stood) for s in seats}
        if step is Step.PICK_PROJECT:
            card = next(e for e in segment if isinstance(e, ProjectChosen)).card
            return {s: PickProject(player=names[s], card=card) for s in seats}
        if step is Step.PICK_COMMITTEE:
            members = next(e for e in segment if isinstance(e, CommitteeNamed)).members
            return {s: PickCommittee(player=names[s], members=members) for s in seats}
        if step is Step.COMMITTEE_VOTE:
            return self._committee_votes(segment, seats, known)
        return self._ballots(segment, seats, known)

    def _committee_votes(
        self, segment: Sequence[BaseEvent], seats: list[int], known: dict[int, Action]
    ) -> dict[int, Action]:
        voted = next(e for e in segment if isinstance(e, ProjectVoted))
        support = voted.support - sum(
            1 for a in known.values() if isinstance(a, CommitteeVote) and a.support
        )
        if not 0 <= support <= len(seats):
            raise Inconsistent("the committee's count")
        votes = [True] * support + [False] * (len(seats) - support)
        self.rng.shuffle(votes)
        names = self.game.players
        return {
            s: CommitteeVote(player=names[s], support=v) for s, v in zip(seats, votes, strict=True)
        }

    def _ballots(
        self, segment: Sequence[BaseEvent], seats: list[int], known: dict[int, Action]
    ) -> dict[int, Action]:
        """Secret ballots dealt out to agree with the tally (the President's counts 2 in
        the jail votes, R-36)."""
        game, step = self.game, self.game.step
        assert step is not None
        tally = next(e for e in segment if isinstance(e, VoteTally) and e.step == step.value)
        weighted = step not in (Step.ELECT, Step.ELECT_RUNOFF)
        counts = dict(tally.tally)
        abstained = tally.abstained
        for seat, action in known.items():
            choice = _ballot_of(action)
            weight = 2 if weighted and seat == game.president and choice is not None else 1
            if choice is None:
                abstained -= 1
            else:
                counts[choice] = counts.get(choice, 0) - weight
        ballots: dict[int, str | None] = {}
        president = game.president if weighted else None
        if president in seats:
            units = sum(counts.values()) + abstained
            if units == len(seats) + 1:  # the President voted (for one counted twice)
                pick = self.rng.choice(sorted(c for c, n in counts.items() if n >= 2) or [""])
                if not pick:
                    raise Inconsistent("the President's double vote")
                counts[pick] -= 2
                ballots[president] = pick
            else:
                abstained -= 1
                ballots[president] = None
        pool: list[str | None] = [None] * abstained
        for choice, count in counts.items():
            pool += [choice] * count
        rest = [s for s in seats if s not in ballots]
        if min(abstained, *counts.values(), 0) < 0 or len(pool) != len(rest):
            raise Inconsistent("the tally")
        self.rng.shuffle(pool)
        ballots.update(zip(rest, pool, strict=True))
        return {s: _ballot(step, game.players[s], choice) for s, choice in ballots.items()}

    # ------------------------------------------------------------------ the night
    def _year_events(self, year: int) -> list[BaseEvent]:
        return [e for e in self.seen if e.year == year]

    def _night(self, seat: int, segment: Sequence[BaseEvent]) -> Action:
        game = self.game
        name, role, year = game.players[seat], game.roles[seat], game.year
        this_year = self._year_events(year)
        if role is Role.LAWYER:
            blocked = [
                e.player for e in this_year if isinstance(e, (TokhangBlocked, JailingBlocked))
            ]
            return Protect(player=name, target=blocked[0] if blocked else None)
        if role is Role.OMBUDSPERSON:
            told = [e.player for e in this_year if isinstance(e, WitnessTestimony)]
            return Investigate(player=name, target=told[0] if told else None)
        if role is Role.GOOD_POLITICIAN:
            return self._auto_jail(seat, segment)
        if role is Role.CORRUPT_POLITICIAN:
            return self._corrupt(name, segment)
        return Ready(player=name)

    def _auto_jail(self, seat: int, segment: Sequence[BaseEvent]) -> Action:
        game = self.game
        targets = [e.target for e in segment if isinstance(e, AutoJailUsed)]
        gps = [s for s in game.good_politician_seats if game.is_active(s)]
        order = gps.index(seat)
        return AutoJail(
            player=game.players[seat], target=targets[order] if order < len(targets) else None
        )

    def _corrupt(self, name: str, segment: Sequence[BaseEvent]) -> Action:
        """The free Corrupt's one plan: the Tokhang everyone saw, and a steal that makes
        next Year's treasury report (R-31): ``k`` stolen, ``k - 3`` with Suhol, or none."""
        game, year = self.game, self.game.year
        tokhang = next(
            (
                e.player
                for e in segment
                if isinstance(e, TokhangBlocked)
                or (isinstance(e, PlayerEliminated) and e.cause == "tokhang")
            ),
            None,
        )
        free = sum(1 for s in game.corrupt_seats if game.is_active(s))
        coa = game.coa
        claimed = coa is not None and any(
            isinstance(e, ClaimMade) and e.player == game.players[coa]
            for e in self._year_events(year)
        )
        muted = any(isinstance(e, CoaMuted) for e in self._year_events(year))
        report = next(
            (e for e in self._year_events(year + 1) if isinstance(e, TreasuryReport)), None
        )
        if report is None or report.decrease is None:
            nakaw, suhol = self.rng.random() < STEAL_RATE, muted
        else:
            voted = next((e for e in self._year_events(year) if isinstance(e, ProjectVoted)), None)
            stolen = report.decrease - (voted.cost if voted is not None and voted.succeeded else 0)
            if stolen == free > 0:
                nakaw, suhol = True, False
            elif stolen > 0 and stolen == free - SUHOL_COST:
                nakaw, suhol = True, True
            elif stolen == 0:
                nakaw, suhol = muted and free <= SUHOL_COST, muted
            else:
                raise Inconsistent("the treasury report")
        if suhol and claimed:
            raise Inconsistent("a muted COA spoke")
        return Corrupt(player=name, nakaw=nakaw, suhol=suhol, tokhang=tokhang)

    # ------------------------------------------------------------------ the discussion
    def _discussion(self, segment: Sequence[BaseEvent]) -> None:
        """The claims and the seat's own Witness as they came; another seat's Witness
        (R-35: announced when the discussion closes, so the seat never saw when it was
        invoked) just before the close."""
        game = self.game
        testified = not _witnessed_by_me(segment) and any(
            isinstance(e, WitnessTestimony) for e in segment
        )
        for event in segment:
            if isinstance(event, ClaimMade):
                self._apply(
                    Claim(
                        player=event.player, claim=event.claim, target=event.target,  # type: ignore[arg-type]
                        role=event.role, aligned=event.aligned, kickback=event.kickback,
                    )
                )  # fmt: skip
            elif isinstance(event, ActionTaken):
                if isinstance(event.action, EndDiscussion) and testified:
                    omb = game.ombudsperson
                    if omb is None:
                        raise Inconsistent("a Witness without an Ombudsperson")
                    self._apply(Witness(player=game.players[omb]))
                if isinstance(event.action, (Witness, EndDiscussion)):
                    self._apply(event.action)


def _witnessed_by_me(segment: Sequence[BaseEvent]) -> bool:
    return any(isinstance(e, ActionTaken) and isinstance(e.action, Witness) for e in segment)


def _ballot_of(action: Action) -> str | None:
    if isinstance(action, Elect):
        return action.candidate
    if isinstance(action, JailVote):
        return action.target
    if isinstance(action, (WitnessVote, ForcedJailVote)):
        return None if action.jail is None else ("yes" if action.jail else "no")
    raise Inconsistent(f"not a ballot: {action.kind}")


def _ballot(step: Step, player: str, choice: str | None) -> Action:
    if step in (Step.ELECT, Step.ELECT_RUNOFF):
        return Elect(player=player, candidate=choice)
    if step in (Step.JAIL_VOTE, Step.JAIL_RUNOFF):
        return JailVote(player=player, target=choice)
    jail = None if choice is None else choice == "yes"
    if step is Step.WITNESS_VOTE:
        return WitnessVote(player=player, jail=jail)
    return ForcedJailVote(player=player, jail=jail)
