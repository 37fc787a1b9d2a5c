"""Random legal games for the property tests (``tests/test_properties.py``).

* :class:`Setup` is a game's setup (table, deal, seed, ruleset, decks) and how its random
  players behave; the hypothesis strategies below draw setups.
* :func:`play` drives a game with a chooser (:class:`RandomPlayer`: the random agents and
  the one driver of :func:`korapsyon.selfplay.play_random`, so the same game) and calls
  :class:`Checker` objects before and after every action.
* Each checker follows the game event by event, keeps its own books from the events alone,
  and asserts one family of invariants against them and against the engine's state.
* :func:`mutants` makes actions that are probably illegal (wrong player, step, field...).

Rule ids (R-xx) are those of RULES.md.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import msgspec
from hypothesis import strategies as st

from korapsyon.bots.agent import Moderator
from korapsyon.bots.random_bot import random_action
from korapsyon.record import summarize
from korapsyon.rules import CARDS, HOST, Action, Game, Role, Ruleset, Step, Team
from korapsyon.rules import events as ev
from korapsyon.rules.actions import (
    ACTION_TYPES,
    BaseAction,
    CommitteeVote,
    Corrupt,
    Elect,
    EndDiscussion,
    ForcedJailVote,
    Investigate,
    JailVote,
    Protect,
    Stand,
    WitnessVote,
)
from korapsyon.rules.cards import LARGE_DECK, SMALL_DECK
from korapsyon.rules.game import ACTIVE, ELIMINATED, HOST_SEAT, SUSPENDED
from korapsyon.rules.views import MODERATOR_VIEWER, view_for
from korapsyon.selfplay import NAMES, random_seats

# R-02, copied from the rulebook (not from the engine): GP, CP, Lawyer, Ombudsperson, COA,
# Citizen.
R02: dict[int, tuple[int, int, int, int, int, int]] = {
    9: (2, 2, 1, 1, 1, 2),
    10: (2, 2, 1, 1, 1, 3),
    11: (2, 2, 1, 1, 1, 4),
    12: (2, 3, 1, 1, 1, 4),
    13: (2, 3, 1, 1, 1, 5),
    14: (2, 3, 1, 1, 1, 6),
    15: (2, 3, 1, 1, 1, 7),
    16: (2, 4, 1, 1, 1, 7),
}
R02_ORDER = (
    Role.GOOD_POLITICIAN,
    Role.CORRUPT_POLITICIAN,
    Role.LAWYER,
    Role.OMBUDSPERSON,
    Role.COA,
    Role.CITIZEN,
)


def r05_targets(players: int) -> tuple[int, int]:
    """R-05 (from the rulebook): Public Spending / Corruption Fund targets, nearest row."""
    if players <= 10:
        return 16, 14
    if players <= 12:
        return 20, 17
    if players <= 14:
        return 24, 20
    return 28, 23


# ------------------------------------------------------------------------ setups
@dataclass(frozen=True)
class Setup:
    """A game setup plus the behaviour of its random players (``seed`` drives both)."""

    players: int
    seed: int
    ruleset: Ruleset = field(default_factory=Ruleset)
    roles: tuple[Role, ...] | None = None
    decks: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    resubmit: float = 0.0

    @property
    def names(self) -> list[str]:
        return list(NAMES[: self.players])

    def new_game(self) -> Game:
        return Game(
            self.names, roles=self.roles, seed=self.seed, ruleset=self.ruleset, decks=self.decks
        )

    def play(self, *checkers: Checker) -> Game:
        """A fresh game played to its end (or to the action budget) with ``checkers``."""
        game = self.new_game()
        choose = RandomPlayer(random.Random(self.seed), resubmit=self.resubmit)
        return play(game, choose, checkers)


VARIANTS = (
    Ruleset(),
    Ruleset(auto_jail_mode="forced_vote"),
    Ruleset(lawyer_consecutive="allowed"),
    Ruleset(auto_jail_mode="forced_vote", lawyer_consecutive="allowed"),
)
"""The four combinations of R-25 step 6 ``auto_jail_mode`` and R-21 ``lawyer_consecutive``."""
seeds = st.integers(min_value=0, max_value=2**32 - 1)
resubmits = st.sampled_from((0.0, 0.0, 0.2, 0.5))


def rulesets(
    variant: Ruleset | None = None,
    *,
    max_years: st.SearchStrategy[int] | None = None,
    suspension_years: st.SearchStrategy[int] | None = None,
) -> st.SearchStrategy[Ruleset]:
    """Rulesets of one of :data:`VARIANTS` (or any of them), with max_years 50 and
    suspension_years 3 unless strategies are given for them."""
    base = st.sampled_from(VARIANTS) if variant is None else st.just(variant)
    years = max_years if max_years is not None else st.just(50)
    suspension = suspension_years if suspension_years is not None else st.just(3)
    return st.builds(
        lambda rules, y, s: msgspec.structs.replace(rules, max_years=y, suspension_years=s),
        base,
        years,
        suspension,
    )


def default_setups(
    ruleset: st.SearchStrategy[Ruleset] | None = None,
    players: st.SearchStrategy[int] | None = None,
) -> st.SearchStrategy[Setup]:
    """R-01/R-02: 9-16 players, dealt from the seed alone."""
    return st.builds(
        Setup,
        players=players if players is not None else st.integers(9, 16),
        seed=seeds,
        ruleset=ruleset if ruleset is not None else rulesets(),
        resubmit=resubmits,
    )


def salted(setups: st.SearchStrategy[Setup], variant: Ruleset) -> st.SearchStrategy[Setup]:
    """Different seeds for each variant: derandomized hypothesis draws the same values
    for every parametrization of a test, so mix the variant into the seed."""
    salt = VARIANTS.index(msgspec.structs.replace(variant, max_years=50, suspension_years=3))
    return setups.map(
        lambda setup: dataclasses.replace(setup, seed=setup.seed ^ (salt * 0x9E3779B1))
    )


def custom_roles(seats: int, specials: Sequence[Role], good: int, corrupt: int) -> list[Role]:
    citizens = seats - len(specials) - good - corrupt
    return (
        [Role.GOOD_POLITICIAN] * good
        + [Role.CORRUPT_POLITICIAN] * corrupt
        + list(specials)
        + [Role.CITIZEN] * citizens
    )


@st.composite
def custom_setups(draw: st.DrawFn, ruleset: st.SearchStrategy[Ruleset] | None = None) -> Setup:
    """R-03: 5-20 seats, at least 2 Good and 1 Corrupt Politician, at most one Lawyer,
    Ombudsperson and COA, Citizens for the rest; any seating; decks given or shuffled."""
    seats = draw(st.integers(5, 20))
    specials = [role for role in (Role.LAWYER, Role.OMBUDSPERSON, Role.COA) if draw(st.booleans())]
    while seats - len(specials) < 3:
        specials.pop()
    room = seats - len(specials)
    good = draw(st.integers(2, room - 1))
    corrupt = draw(st.integers(1, room - good))
    roles = draw(st.permutations(custom_roles(seats, specials, good, corrupt)))
    decks = draw(
        st.none()
        | st.tuples(st.permutations(SMALL_DECK).map(tuple), st.permutations(LARGE_DECK).map(tuple))
    )
    return Setup(
        players=seats,
        seed=draw(seeds),
        ruleset=draw(ruleset if ruleset is not None else rulesets()),
        roles=tuple(roles),
        decks=decks,
        resubmit=draw(resubmits),
    )


# ------------------------------------------------------------------------ the driver
Chooser = Callable[[Game], Action]


class RandomPlayer:
    """Every seat's and the host's random choices: random agents asked by the one driver
    (:class:`korapsyon.bots.agent.Moderator`), drawn exactly as ``play_random(game, rng,
    resubmit=...)`` draws them, one action at a time."""

    def __init__(self, rng: random.Random, *, resubmit: float = 0.0):
        self.rng = rng
        self.resubmit = resubmit
        self.moderator: Moderator | None = None

    def __call__(self, game: Game) -> Action:
        if self.moderator is None:
            agents = random_seats(game, self.rng)
            self.moderator = Moderator(game, agents, self.rng, resubmit=self.resubmit)
        return self.moderator.next_action()


def passive_player(game: Game) -> Action:
    """R-72: the timer's default for the first seat still to act (pass / nobody /
    abstain / Oppose; the President's card and committee by lots); the host ends the
    discussion."""
    if game.step is Step.DISCUSSION:
        return game.default_action(HOST)
    return game.default_action(game.players[min(game.waiting_for)])


def action_budget(game: Game, resubmit: float = 0.0) -> int:
    """More actions than any game may take before R-51 stops it: a Year has at most
    seven steps in which every active player acts, plus a few single actions, and each
    resubmission adds one."""
    per_year = 7 * len(game.players) + 12
    return int(3 * game.ruleset.max_years * per_year / (1.0 - resubmit)) + 100


def play(
    game: Game,
    choose: Chooser,
    checkers: Sequence[Checker] = (),
    *,
    budget: int | None = None,
) -> Game:
    """Play ``game`` with ``choose`` until it ends or the budget of actions runs out."""
    if budget is None:
        resubmit = choose.resubmit if isinstance(choose, RandomPlayer) else 0.0
        budget = action_budget(game, resubmit)
    for checker in checkers:
        checker.start(game)
    taken = 0
    while game.outcome is None and taken < budget:
        taken += 1
        action = choose(game)
        for checker in checkers:
            checker.before(game, action)
        game.apply(action)
        for checker in checkers:
            checker.after(game, action)
    if game.outcome is not None:
        for checker in checkers:
            checker.finish(game)
    return game


# ------------------------------------------------------------------------ checkers
class Shadow:
    """Each player's status, strikes and return Year, known from public events only."""

    def __init__(self, game: Game) -> None:
        self.seat = {name: seat for seat, name in enumerate(game.players)}
        self.status = [ACTIVE] * len(game.players)
        self.strikes = [0] * len(game.players)
        self.returns: list[int | None] = [None] * len(game.players)
        self.jailed_in: list[int | None] = [None] * len(game.players)

    def is_active(self, name: str) -> bool:
        return self.status[self.seat[name]] == ACTIVE

    def active(self) -> set[int]:
        return {s for s, status in enumerate(self.status) if status == ACTIVE}

    def update(self, event: ev.BaseEvent) -> None:
        if isinstance(event, ev.PlayerJailed):
            seat = self.seat[event.player]
            self.strikes[seat] = event.strikes
            if event.returns_year is not None:
                self.status[seat] = SUSPENDED
                self.returns[seat] = event.returns_year
                self.jailed_in[seat] = event.year
        elif isinstance(event, ev.PlayerEliminated):
            seat = self.seat[event.player]
            self.status[seat] = ELIMINATED
            self.returns[seat] = None
        elif isinstance(event, ev.PlayerReturned):
            seat = self.seat[event.player]
            self.status[seat] = ACTIVE
            self.returns[seat] = None


class Checker:
    """Follows one game. :meth:`on` sees each new event (with the shadow statuses of the
    moment before it); :meth:`check` runs after every accepted action."""

    def start(self, game: Game) -> None:
        self.game = game
        self.shadow = Shadow(game)
        self.seen = 0
        self._feed(game)
        self.check(game)

    def where(self) -> str:
        game = self.game
        last = f" {game.actions[-1]}" if game.actions else ""
        return f"[action #{len(game.actions) - 1}{last}, Year {game.year}, step {game.step}]"

    def before(self, game: Game, action: Action) -> None:
        """Called with each action before it is applied."""

    def after(self, game: Game, action: Action) -> None:
        self._feed(game)
        self.check(game)

    def _feed(self, game: Game) -> None:
        events = game.events
        for event in events[self.seen :]:
            self.on(game, event)
            self.shadow.update(event)
        self.seen = len(events)

    def on(self, game: Game, event: ev.BaseEvent) -> None:
        """One new event, in order."""

    def check(self, game: Game) -> None:
        """After every accepted action (and at the start)."""

    def finish(self, game: Game) -> None:
        """Once, when the game is over."""


class Termination(Checker):
    """R-50, R-51: the game ends by a win condition or, at the end of Year max_years, as
    a draw; thresholds are only checked at the win check, purges end the game at once."""

    def on(self, game: Game, event: ev.BaseEvent) -> None:
        max_years = game.ruleset.max_years
        if isinstance(event, ev.YearEnded):
            assert event.year <= max_years, self.where()
            record = game.years[event.year - 1]
            assert record.public_spending < game.public_spending_target, self.where()
            assert record.corruption_fund < game.corruption_fund_target, self.where()
        elif isinstance(event, ev.GameOver):
            assert event.year <= max_years, self.where()
            assert event is game.events[-1], "GameOver is the last event"
            assert event.roles == game.roles, "R-50: every card is turned face up"

    def check(self, game: Game) -> None:
        assert game.year <= game.ruleset.max_years, self.where()
        if game.outcome is None:
            status = game.status
            assert game.step is not None, self.where()
            assert not all(status[s] == ELIMINATED for s in game.corrupt_seats), self.where()
            assert not all(status[s] == ELIMINATED for s in game.good_politician_seats), (
                self.where()
            )
            assert len(game.years) == game.year - 1, self.where()

    def finish(self, game: Game) -> None:
        outcome = game.outcome
        assert outcome is not None
        assert game.step is None and not game.to_act and not game.pending
        assert len(game.years) == game.year
        assert [y.year for y in game.years] == list(range(1, game.year + 1))
        ps, fund = game.public_spending, game.corruption_fund
        ps_met = ps >= game.public_spending_target
        fund_met = fund >= game.corruption_fund_target
        status = game.status
        corrupt_gone = all(status[s] == ELIMINATED for s in game.corrupt_seats)
        good_gone = all(status[s] == ELIMINATED for s in game.good_politician_seats)
        expected_winner = {
            "corrupt_purge": "good",
            "public_spending": "good",
            "good_purge": "bad",
            "corruption_fund": "bad",
            "safety_stop": "draw",
        }
        assert expected_winner[outcome.reason] == outcome.winner, outcome
        if outcome.reason == "corrupt_purge":
            assert corrupt_gone and outcome.rule == "R-50"
        elif outcome.reason == "good_purge":
            assert good_gone and outcome.rule == "R-50"
        elif outcome.reason == "public_spending":
            assert ps_met and outcome.rule == "R-50"
        elif outcome.reason == "corruption_fund":
            assert fund_met and not ps_met, "R-50: Good's conditions are checked first"
            assert outcome.rule == "R-50"
        else:
            assert outcome.rule == "R-51"
            assert game.year == game.ruleset.max_years, game.year
            assert not (ps_met or fund_met or corrupt_gone or good_gone)


class FundLedger(Checker):
    """R-11, R-23, R-25 steps 3-5, R-34: Corruption Fund = steals + kickbacks - Suhol -
    Tokhang payments, from the events; each amount follows its rule; Nakaw, Suhol and
    Tokhang happen exactly when every free Corrupt's last submitted choice agrees."""

    def start(self, game: Game) -> None:
        self.fund = 0
        self.steal = 0
        self.committee: tuple[str, ...] = ()
        self.kickback_due: str | None = None
        self.plans: dict[str, Corrupt] = {}
        self.night: dict[str, object] = {}
        self.free: set[str] = set()
        self.in_hidden = False
        super().start(game)

    def _night_over(self) -> None:
        """R-23: unanimity of the free Corrupt's last choices (resubmissions replace)."""
        self.in_hidden = False
        assert set(self.plans) == self.free, ("R-23: every free Corrupt decides", self.where())
        plans = list(self.plans.values())
        steal = bool(plans) and all(p.nakaw for p in plans)
        suhol = bool(plans) and all(p.suhol for p in plans)
        targets = {p.tokhang for p in plans}
        tokhang = targets.pop() if len(targets) == 1 else None
        assert self.night.get("nakaw", False) == steal, ("R-23 Nakaw", self.where())
        assert self.night.get("suhol", False) == suhol, ("R-23 Suhol", self.where())
        tried = self.night.get("tokhang")
        assert tried == tokhang or (tried == "unpaid" and tokhang), ("R-23", self.where())

    def on(self, game: Game, event: ev.BaseEvent) -> None:
        corrupt = {game.players[s] for s in game.corrupt_seats}
        if self.in_hidden and isinstance(event, ev.StepStarted | ev.GameOver):
            self._night_over()
        if isinstance(event, ev.YearStarted):
            self.steal = 0
        elif isinstance(event, ev.StepStarted) and event.step == Step.HIDDEN:
            self.in_hidden = True
            self.plans = {}
            self.night = {}
            self.free = {name for name in corrupt if self.shadow.is_active(name)}
        elif isinstance(event, ev.ActionTaken) and isinstance(event.action, Corrupt):
            assert event.audience == ev.CORRUPT, ("R-23: the Corrupt see it", self.where())
            self.plans[event.action.player] = event.action
        elif isinstance(event, ev.Stolen):
            free = [name for name in corrupt if self.shadow.is_active(name)]
            assert event.amount == len(free), ("R-25.3: one per free Corrupt", self.where())
            self.fund += event.amount
            self.steal = event.amount
            self.night["nakaw"] = True
        elif isinstance(event, ev.SuholPaid):
            assert event.cost == 3 and self.fund >= 3, ("R-25.4", self.where())
            assert event.refund == min(3, self.steal), ("R-25.4 refund", self.where())
            self.fund -= event.cost
            self.night["suhol"] = True
        elif isinstance(event, ev.TokhangPaid):
            assert event.cost == game.tokhang_cost, self.where()
            assert self.fund >= event.cost, ("R-25.5: paid only when held", self.where())
            self.fund -= event.cost
            self.night["tokhang"] = event.target
        elif isinstance(event, ev.NotPaid):
            cost = 3 if event.ability == "suhol" else game.tokhang_cost
            assert event.cost == cost and self.fund < cost, self.where()
            self.night[event.ability] = "unpaid" if event.ability == "tokhang" else True
        else:
            self._kickback(game, event, corrupt)

    def _kickback(self, game: Game, event: ev.BaseEvent, corrupt: set[str]) -> None:
        """R-34: a kickback for a passed project with a Corrupt member on its committee;
        the fund in each Year's record and at the end."""
        if isinstance(event, ev.CommitteeNamed):
            self.committee = event.members
        elif isinstance(event, ev.ProjectVoted):
            sat = any(name in corrupt for name in self.committee)
            self.kickback_due = event.card if (event.succeeded and sat) else None
        elif isinstance(event, ev.Kickback):
            assert self.kickback_due == event.card, ("R-34: kickback", self.where())
            assert event.amount == CARDS[event.card].kickback, self.where()
            self.kickback_due = None
            self.fund += event.amount
        elif isinstance(event, ev.YearEnded):
            assert game.years[event.year - 1].corruption_fund == self.fund, self.where()
        elif isinstance(event, ev.GameOver):
            assert event.corruption_fund == self.fund, self.where()
            if event.reason != "safety_stop":
                assert game.years[event.year - 1].corruption_fund == self.fund, self.where()

    def check(self, game: Game) -> None:
        assert self.kickback_due is None, ("R-34: kickback missing", self.where())
        assert self.fund >= 0, self.where()
        assert game.corruption_fund == self.fund, (game.corruption_fund, self.fund, self.where())


class KabanLedger(Checker):
    """R-12, R-31, R-32, R-34: the true Kaban = start + revenue - steals + Suhol refunds -
    project costs; the public figure is the true balance at the end of last Year plus this
    Year's revenue once the Year's treasury report happened."""

    def start(self, game: Game) -> None:
        self.start_kaban = game.ruleset.kaban_start
        self.kaban = self.start_kaban
        self.public = self.start_kaban
        self.decrease: dict[int, int] = {}
        self.revenue: dict[int, int] = {}
        self.end: dict[int, int] = {}
        self.reported = 0  # the last Year whose treasury report happened
        super().start(game)

    def on(self, game: Game, event: ev.BaseEvent) -> None:
        year = event.year
        if isinstance(event, ev.YearStarted):
            self.decrease[year] = 0
        elif isinstance(event, ev.Stolen):
            self.kaban -= event.amount
            self.decrease[year] += event.amount
        elif isinstance(event, ev.SuholPaid):
            self.kaban += event.refund
            self.decrease[year] -= event.refund
        elif isinstance(event, ev.ProjectVoted):
            assert event.cost == CARDS[event.card].cost, self.where()
            if event.succeeded:
                self.kaban -= event.cost
                self.decrease[year] += event.cost
        elif isinstance(event, ev.TreasuryReport):
            assert self.reported == year - 1, self.where()
            self.reported = year
            if year == 1:
                assert event.decrease is None, "R-31: no previous report in Year 1"
                assert event.kaban_public == self.start_kaban
            else:
                assert event.decrease == self.decrease[year - 1], ("R-31", self.where())
                assert event.kaban_public == self.end[year - 1], ("R-31", self.where())
                self.public = self.end[year - 1]
        elif isinstance(event, ev.Revenue):
            active = len(self.shadow.active())
            assert event.amount == active, ("R-32: one per active player", self.where())
            self.revenue[year] = event.amount
            self.kaban += event.amount
            self.public += event.amount
            assert event.kaban_public == self.public, self.where()
        elif isinstance(event, ev.YearEnded):
            self.end[year] = self.kaban
            assert event.kaban_public == self.public, self.where()
            record = game.years[year - 1]
            assert record.kaban == self.kaban, self.where()
            assert record.treasury_decrease == self.decrease[year], self.where()
        elif isinstance(event, ev.GameOver):
            assert event.kaban == self.kaban, self.where()
            if event.reason != "safety_stop":
                record = game.years[year - 1]
                assert record.kaban == self.kaban, self.where()
                assert record.treasury_decrease == self.decrease[year], self.where()

    def check(self, game: Game) -> None:
        assert game.kaban == self.kaban, (game.kaban, self.kaban, self.where())
        year = game.year
        if self.reported == year:  # last Year's true balance + this Year's revenue
            base = self.start_kaban if year == 1 else self.end[year - 1]
            expected = base + self.revenue[year]
        else:  # before the report, the figure of the end of last Year
            assert self.reported == year - 1, self.where()
            expected = self.public
        assert game.kaban_public == expected, (game.kaban_public, expected, self.where())
        assert game.kaban_public == self.public
        if game.outcome is None:
            assert game.treasury_decrease == self.decrease[year], self.where()


EVERY_ACTIVE_STEPS = frozenset(
    {
        Step.HIDDEN,
        Step.STAND,
        Step.ELECT,
        Step.ELECT_RUNOFF,
        Step.WITNESS_VOTE,
        Step.FORCED_JAIL_VOTE,
        Step.JAIL_VOTE,
        Step.JAIL_RUNOFF,
    }
)


class Activity(Checker):
    """R-20, R-40, R-41 and section 3: only active players act, vote, hold office or sit
    on committees; suspended players return exactly ``suspension_years + 1`` Years after
    the Year they were jailed; the set of players asked in each step is exactly right."""

    def start(self, game: Game) -> None:
        self.president: str | None = None
        self.elected_in = 0
        super().start(game)

    def before(self, game: Game, action: Action) -> None:
        if action.player == HOST:
            assert isinstance(action, EndDiscussion), action
            assert game.step is Step.DISCUSSION
            return
        seat = game.seat(action.player)
        assert self.shadow.status[seat] == ACTIVE, ("an inactive player acts", action)
        assert game.status[seat] == ACTIVE, action
        if game.step is Step.DISCUSSION:
            assert seat == game.ombudsperson, action
        else:
            assert seat in game.to_act, action

    def after(self, game: Game, action: Action) -> None:
        """Every accepted action is recorded first, seen by its actor (the Corrupt team for
        a Corrupt choice, everyone for the host)."""
        first = game.events[self.seen]
        assert isinstance(first, ev.ActionTaken) and first.action == action, first
        if action.player == HOST:
            assert first.audience == ev.EVERYONE
        elif isinstance(action, Corrupt):
            assert first.audience == ev.CORRUPT
        else:
            assert first.audience == game.seat(action.player)
        super().after(game, action)

    def _active(self, name: str, why: str) -> None:
        assert self.shadow.is_active(name), (why, name, self.where())

    def on(self, game: Game, event: ev.BaseEvent) -> None:
        suspension = game.ruleset.suspension_years
        if isinstance(event, ev.PlayerJailed):
            self._active(event.player, "R-41: only an active player is jailed")
            if event.strikes == 1:
                assert event.returns_year == event.year + suspension + 1, self.where()
            else:
                assert event.returns_year is None, self.where()
            assert self.president != event.player, ("R-33: the President is jailed", self.where())
        elif isinstance(event, ev.PlayerEliminated):
            self._active(event.player, "R-40: only an active player is eliminated")
            if event.player == self.president:
                self.president = None
        elif isinstance(event, ev.PresidencyEnded):  # vacant from the third Year
            assert event.president == self.president, self.where()
            assert event.year == self.elected_in + game.ruleset.president_term, self.where()
            self.president = None
        elif isinstance(event, ev.StepStarted) and event.step == Step.STAND:
            assert self.president is None, ("R-33: election with a sitting President", self.where())
        elif isinstance(event, ev.PlayerReturned):
            seat = self.shadow.seat[event.player]
            assert self.shadow.status[seat] == SUSPENDED, self.where()
            assert self.shadow.returns[seat] == event.year, self.where()
            jailed = self.shadow.jailed_in[seat]
            assert jailed is not None and event.year == jailed + suspension + 1, self.where()
            assert event.strikes == 1, self.where()
        else:
            self._named(game, event)

    def _named(self, game: Game, event: ev.BaseEvent) -> None:
        """R-23..R-35: whoever an event names (a target, a candidate, a President, a
        committee member) is active."""
        if isinstance(event, ev.TokhangPaid):
            self._active(event.target, "R-23: Tokhang names an active target")
        elif isinstance(event, ev.AutoJailUsed):
            self._active(event.target, "R-24: Auto Jail names an active target")
        elif isinstance(event, ev.WitnessTestimony | ev.ForcedVoteCalled):
            self._active(event.player, "R-35/R-25: the vote is on an active player")
        elif isinstance(event, ev.Candidates):
            for name in event.candidates:
                self._active(name, "R-33: candidates are active")
        elif isinstance(event, ev.PresidentElected):
            self._active(event.president, "R-33: the President is active")
            assert self.president is None, self.where()
            assert event.term_end == event.year + game.ruleset.president_term - 1
            self.president, self.elected_in = event.president, event.year
        elif isinstance(event, ev.CommitteeNamed):
            for name in event.members:
                self._active(name, "R-34: committee members are active")
            assert len(set(event.members)) == len(event.members), self.where()
            size = CARDS[event.card].committee
            active = len(self.shadow.active())
            if active < size:
                size = active if active % 2 else active - 1
            assert len(event.members) == size, ("R-34: committee size", self.where())

    def check(self, game: Game) -> None:
        shadow = self.shadow
        assert game.status == shadow.status, (game.status, shadow.status, self.where())
        assert game.returns_year == shadow.returns, self.where()
        for seat, back in enumerate(shadow.returns):
            if back is not None:  # returns at the Start of that Year, not before
                assert back > game.year, (game.players[seat], back, self.where())
        active = shadow.active()
        president = None if game.president is None else game.players[game.president]
        assert president == self.president, (president, self.president, self.where())
        assert game.president is None or game.president in active, self.where()
        for seat in game.to_act:
            assert seat == HOST_SEAT or seat in active, ("inactive in to_act", self.where())
        step = game.step
        if step is None:
            assert game.outcome is not None and not game.to_act
        elif step in EVERY_ACTIVE_STEPS:
            assert game.to_act == active, self.where()
        elif step in (Step.PICK_PROJECT, Step.PICK_COMMITTEE):
            assert game.to_act == {game.president}, self.where()
        elif step is Step.COMMITTEE_VOTE:
            assert game.to_act == set(game.committee), self.where()
        else:
            assert game.to_act == {HOST_SEAT}, self.where()
        assert set(game.pending) <= game.to_act, self.where()


class Records(Checker):
    """R-10, R-13, R-21, R-40, R-41, R-34: strikes never pass 2 and a second strike
    eliminates; Approved Public Spending = projects - Auto Jail costs, never negative;
    protection blocks jailing and Tokhang; no consecutive protection when forbidden; the
    Year records match the events."""

    def start(self, game: Game) -> None:
        self.ps = 0
        self.protected: dict[int, str | None] = {}
        self.jailed: dict[int, list[str]] = {}
        self.eliminated: dict[int, list[str]] = {}
        self.project: dict[int, str] = {}
        self.succeeded: dict[int, bool] = {}
        self.previous: ev.BaseEvent | None = None
        self.offers = 0
        self.offered: tuple[str, str] = ("", "")
        self.choices: dict[type[BaseAction], BaseAction] = {}
        super().start(game)

    def on(self, game: Game, event: ev.BaseEvent) -> None:
        year = event.year
        previous, self.previous = self.previous, event
        if isinstance(event, ev.StepStarted) and event.step == Step.HIDDEN:
            self.choices = {}
        elif isinstance(event, ev.ActionTaken) and isinstance(event.action, Protect | Investigate):
            self.choices[type(event.action)] = event.action  # the last submission counts
        elif isinstance(event, ev.InvestigationResult):
            look = self.choices.get(Investigate)
            assert isinstance(look, Investigate) and look.target == event.target, self.where()
            assert event.audience == game.seat(look.player) == game.ombudsperson
            assert event.aligned == game.roles[game.seat(event.target)].team, self.where()
        elif isinstance(event, ev.ProtectionSet):
            choice = self.choices.get(Protect)
            assert isinstance(choice, Protect) and choice.target == event.target, self.where()
            assert event.audience == ev.MODERATOR
            self.protected[year] = event.target
            last = self.protected.get(year - 1)
            if game.ruleset.lawyer_consecutive == "forbidden" and last is not None:
                assert event.target != last, ("R-21: consecutive protection", self.where())
        elif isinstance(event, ev.JailingBlocked | ev.TokhangBlocked):
            assert self.protected.get(year) == event.player, ("R-21", self.where())
        elif isinstance(event, ev.PlayerJailed):
            assert self.protected.get(year) != event.player, ("R-41", self.where())
            seat = self.shadow.seat[event.player]
            assert event.strikes == self.shadow.strikes[seat] + 1, self.where()
            assert event.strikes <= 2, self.where()
            self.jailed.setdefault(year, []).append(event.player)
        elif isinstance(event, ev.PlayerEliminated):
            seat = self.shadow.seat[event.player]
            assert event.role == game.roles[seat], ("R-40: the role is revealed", self.where())
            if event.cause == "tokhang":
                assert self.protected.get(year) != event.player, ("R-21", self.where())
            else:
                assert isinstance(previous, ev.PlayerJailed), self.where()
                assert previous.player == event.player and previous.strikes == 2
            self.eliminated.setdefault(year, []).append(event.player)
        else:
            self._spending(game, event)

    def _spending(self, game: Game, event: ev.BaseEvent) -> None:
        """R-34, R-10, R-25.6: the projects offered, chosen and voted, Auto Jail's cost, and
        each Year's record."""
        year = event.year
        if isinstance(event, ev.ProjectOffered):  # the top cards, then to the bottom
            small, large = game.initial_decks
            turn = self.offers
            self.offers += 1
            offered = (small[turn % len(small)], large[turn % len(large)])
            assert (event.small, event.large) == offered, ("R-34 decks", self.where())
            self.offered = offered
        elif isinstance(event, ev.ProjectChosen):
            assert event.card in self.offered, self.where()
            self.project[year] = event.card
        elif isinstance(event, ev.ProjectVoted):
            assert event.card == self.project[year], self.where()
            self.succeeded[year] = event.succeeded
            if event.succeeded:
                self.ps += event.cost
            assert event.public_spending == self.ps, self.where()
        elif isinstance(event, ev.AutoJailUsed):
            assert event.cost == game.auto_jail_cost, self.where()
            self.ps -= event.cost
            assert self.ps >= 0, ("R-10/R-25.6: spending went negative", self.where())
            assert event.public_spending == self.ps, self.where()
        elif isinstance(event, ev.YearEnded):
            assert event.public_spending == self.ps, self.where()
            self._year(game, year)
        elif isinstance(event, ev.GameOver) and event.reason != "safety_stop":
            self._year(game, year)

    def _year(self, game: Game, year: int) -> None:
        record = game.years[year - 1]
        assert record.year == year
        assert record.jailed == self.jailed.get(year, []), self.where()
        assert record.eliminated == self.eliminated.get(year, []), self.where()
        assert record.project == self.project.get(year), self.where()
        assert record.project_succeeded == self.succeeded.get(year), self.where()
        assert record.public_spending == self.ps, self.where()

    def check(self, game: Game) -> None:
        assert game.public_spending == self.ps >= 0, self.where()
        assert game.strikes == self.shadow.strikes, self.where()
        for seat, strikes in enumerate(game.strikes):
            assert 0 <= strikes <= 2, self.where()
            if strikes == 2:
                assert game.status[seat] == ELIMINATED, self.where()


BALLOTS = (Stand, Elect, CommitteeVote, WitnessVote, ForcedJailVote, JailVote)


class Votes(Checker):
    """R-25 step 6, R-33, R-34, R-35, R-36: every public tally is the count of the last
    ballot each voter submitted (the President's counting 2 in jail votes only), and the
    result follows from it: majority, one runoff among the tied, lots, or nobody."""

    def start(self, game: Game) -> None:
        self.ballots: dict[str, BaseAction] = {}
        self.president: str | None = None
        self.expect: tuple[object, ...] | None = None
        self.forced: str | None = None
        self.witness: str | None = None
        self.step = ""
        super().start(game)

    def on(self, game: Game, event: ev.BaseEvent) -> None:
        if self.expect is not None:
            self._outcome(event)
        if isinstance(event, ev.YearStarted):
            self.forced = self.witness = None
        elif isinstance(event, ev.PresidentElected):
            self.president = event.president
        elif isinstance(event, ev.PresidencyEnded) or (
            isinstance(event, ev.PlayerEliminated) and event.player == self.president
        ):
            self.president = None
        elif isinstance(event, ev.ForcedVoteCalled):
            assert game.ruleset.auto_jail_mode == "forced_vote", self.where()
            assert self.forced is None, ("R-25.6: one forced vote a Year", self.where())
            self.forced = event.player
        elif isinstance(event, ev.WitnessTestimony):
            self.witness = event.player
        elif isinstance(event, ev.StepStarted):
            self.ballots = {}
            self.step = event.step
            self._step_started(game, event)
        elif isinstance(event, ev.ActionTaken) and isinstance(event.action, BALLOTS):
            self.ballots[event.action.player] = event.action  # the last ballot counts
        elif isinstance(event, ev.Candidates):
            stood = [n for n in game.players if getattr(self.ballots.get(n), "stand", False)]
            active = [n for n in game.players if self.shadow.is_active(n)]
            assert event.nobody_stood == (not stood), self.where()
            assert list(event.candidates) == (stood or active), ("R-33", self.where())
        elif isinstance(event, ev.ProjectVoted):
            support = sum(1 for b in self.ballots.values() if getattr(b, "support", False))
            size = len(self.ballots)
            assert (event.support, event.oppose) == (support, size - support), self.where()
            assert event.succeeded == (support * 2 > size), ("R-34", self.where())
        elif isinstance(event, ev.VoteTally):
            self._tally(game, event)

    def _step_started(self, game: Game, event: ev.StepStarted) -> None:
        active = [n for n in game.players if self.shadow.is_active(n)]
        if event.step == Step.DISCUSSION:
            self.witness = None
        elif event.step == Step.WITNESS_VOTE:  # the testimony's target, if active
            assert self.witness is not None and event.options == (self.witness,)
        elif event.step == Step.FORCED_JAIL_VOTE:  # the forced target, if eligible
            assert self.forced is not None and event.options == (self.forced,)
            assert self.shadow.is_active(self.forced) and self.forced != self.president
        elif event.step == Step.JAIL_VOTE:  # every active player but the President
            forced = self.forced
            eligible = forced is not None and self.shadow.is_active(forced)
            assert not (eligible and forced != self.president), ("R-25.6", self.where())
            assert event.options == tuple(n for n in active if n != self.president)
        elif event.step == Step.STAND:
            assert self.president is None, ("R-33", self.where())

    def _tally(self, game: Game, event: ev.VoteTally) -> None:
        seat = {name: s for s, name in enumerate(game.players)}
        step = event.step
        assert step == self.step, ("a tally of another step", self.where())
        ballots = list(self.ballots.items())
        if step in (Step.WITNESS_VOTE, Step.FORCED_JAIL_VOTE):
            self._yes_no_tally(event, ballots)
        else:
            self._names_tally(event, ballots, seat)

    def _yes_no_tally(self, event: ev.VoteTally, ballots: list[tuple[str, BaseAction]]) -> None:
        """R-35, R-25 step 6: yes against no on one player (the President counts 2)."""
        yes = no = abstained = 0
        for name, ballot in ballots:
            weight = 2 if name == self.president else 1
            jail = getattr(ballot, "jail", None)
            if jail is None:
                abstained += 1
            elif jail:
                yes += weight
            else:
                no += weight
        assert event.tally == (("yes", yes), ("no", no)), ("R-35", self.where())
        assert event.abstained == abstained, self.where()
        target = self.witness if event.step == Step.WITNESS_VOTE else self.forced
        self.expect = ("jail", target) if yes > no else ("nobody",)

    def _names_tally(
        self, event: ev.VoteTally, ballots: list[tuple[str, BaseAction]], seat: dict[str, int]
    ) -> None:
        """R-33, R-36: votes for names (a jail target, a candidate), and who leads."""
        step = event.step
        jail = step in (Step.JAIL_VOTE, Step.JAIL_RUNOFF)
        field = "target" if jail else "candidate"
        counts: Counter[str] = Counter()
        abstained = 0
        for name, ballot in ballots:
            choice = getattr(ballot, field)
            if choice is None:
                abstained += 1
            else:
                counts[choice] += 2 if (jail and name == self.president) else 1
        assert event.abstained == abstained, self.where()
        shown = dict(event.tally)
        assert {n: c for n, c in shown.items() if c} == dict(counts), ("tally", self.where())
        assert [seat[n] for n in shown] == sorted(seat[n] for n in shown), self.where()
        top = max(counts.values(), default=0)
        leaders = tuple(sorted((n for n, c in counts.items() if c == top), key=seat.__getitem__))
        if jail:  # more than half of the valid votes; else one runoff among the tied
            valid = sum(counts.values())
            if valid and top * 2 > valid:
                self.expect = ("jail", leaders[0])
            elif valid and len(leaders) > 1 and step == Step.JAIL_VOTE:
                self.expect = ("runoff", Step.JAIL_RUNOFF, leaders)
            else:
                self.expect = ("nobody",)
            return
        self._election(step, leaders if counts else tuple(shown))

    def _election(self, step: str, leaders: tuple[str, ...]) -> None:
        """R-33: most votes (nobody voted: every candidate is tied at 0); a tie goes to one
        runoff, then to lots."""
        if not leaders:  # nobody is active (all suspended or eliminated): no President
            self.expect = ("no_president",)
        elif len(leaders) == 1:
            self.expect = ("president", leaders, False)
        elif step == Step.ELECT:
            self.expect = ("runoff", Step.ELECT_RUNOFF, leaders)
        else:
            self.expect = ("president", leaders, True)

    def _outcome(self, event: ev.BaseEvent) -> None:
        expect, self.expect = self.expect, None
        assert expect is not None
        kind = expect[0]
        where = (expect, event, self.where())
        if kind == "jail":
            assert isinstance(event, ev.PlayerJailed | ev.JailingBlocked), where
            assert event.player == expect[1], where
        elif kind == "nobody":
            assert isinstance(event, ev.NobodyJailed), where
        elif kind == "no_president":
            assert isinstance(event, ev.DiscussionOpened), where
        elif kind == "runoff":
            assert isinstance(event, ev.StepStarted), where
            assert (event.step, event.options) == expect[1:], where
        else:
            assert isinstance(event, ev.PresidentElected), where
            assert event.president in cast("tuple[str, ...]", expect[1]), where
            assert event.by_lots == expect[2], where


def all_checkers() -> list[Checker]:
    return [Termination(), FundLedger(), KabanLedger(), Activity(), Records(), Votes()]


# ------------------------------------------------------------------------ views, state
Views = dict[str | None, dict[str, Any]]


def views_of(game: Game) -> Views:
    """Every player's view, the public view (None) and the moderator's."""
    viewers: list[str | None] = [*game.players, None, MODERATOR_VIEWER]
    return {who: view_for(game, who) for who in viewers}


def state_of(game: Game) -> tuple[object, ...]:
    """Everything a refused action must leave as it was (cheap to compute)."""
    return (
        summarize(game),
        len(game.events),
        len(game.actions),
        game.step,
        game.to_act,
        dict(game.pending),
        game.outcome,
        game.witness_used,
        game.witness_target,
        game.forced_target,
        game.protected,
        game.last_protected,
        game.investigation,
        game.candidates,
        game.committee,
        game.card,
        tuple(game.small_deck),
        tuple(game.large_deck),
    )


# ------------------------------------------------------------------------ mutants
def action_key(action: BaseAction) -> tuple[object, ...]:
    """An action without its ``auto`` flag, committee members as a sorted list."""
    fields: list[tuple[str, object]] = []
    for name in action.__struct_fields__:
        if name == "auto":
            continue
        value = getattr(action, name)
        if name == "members":
            value = tuple(sorted(value))
        fields.append((name, value))
    return (type(action).__name__, *fields)


UNKNOWN = "Zed"
_FIELDS = {
    "target": "name",
    "tokhang": "name",
    "candidate": "name",
    "nakaw": "bool",
    "suhol": "bool",
    "stand": "bool",
    "support": "bool",
    "jail": "optional_bool",
    "card": "card",
    "members": "members",
    "claim": "claim",
    "role": "role",
    "aligned": "aligned",
    "kickback": "optional_bool",
}


_CHOICES: dict[str, tuple[Any, ...]] = {
    "optional_bool": (None, False, True),
    "claim": ("role", "audit", "investigation", "suspect", "trust"),
    "role": (None, *Role),
    "aligned": (None, Team.GOOD, Team.BAD),
}
"""The kinds of field whose wrong values are drawn from a fixed list."""


def _value(field: str, game: Game, rng: random.Random) -> Any:
    kind = _FIELDS[field]
    if kind in _CHOICES:
        return rng.choice(_CHOICES[kind])
    names = [*game.players, HOST, UNKNOWN]
    if kind == "name":
        return rng.choice([None, None, *names])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "card":
        return rng.choice([*CARDS, "S9", "", *(game.offered or ())])
    return _members(game, rng, names)


def _members(game: Game, rng: random.Random, names: list[str]) -> tuple[str, ...]:
    """A committee of about the right size, sometimes with names repeated or unknown."""
    size = rng.choice((game.committee_size, game.committee_size, 0, 1, 2, 3, 5, 7, 9))
    if rng.random() < 0.2:  # names repeated
        return tuple(rng.choice(names) for _ in range(size))
    pool = list(game.players) if rng.random() < 0.5 else names
    return tuple(rng.sample(pool, min(size, len(pool))))


def arbitrary_action(game: Game, rng: random.Random, player: str | None = None) -> Action:
    """Any kind of action (often for another step), for anyone, with random fields."""
    cls = rng.choice(sorted(ACTION_TYPES.values(), key=lambda c: c.kind))
    if player is None:
        player = rng.choice([*game.players, HOST, UNKNOWN])
    fields = {
        name: _value(name, game, rng)
        for name in cls.__struct_fields__
        if name not in ("player", "auto")
    }
    return cast("Action", cls(player=player, **fields))


def mutants(game: Game, rng: random.Random, count: int) -> Iterator[Action]:
    """Actions near the legal ones: other players' names, wrong steps, wrong fields,
    players who must not act now (suspended, eliminated, not asked)."""
    actors = [HOST, *game.players]
    with_choices = [name for name in actors if game.choices(name)]
    idle = [
        name
        for seat, name in enumerate(game.players)
        if seat not in game.to_act or game.status[seat] != ACTIVE
    ]
    for _ in range(count):
        roll = rng.random()
        if not with_choices or roll < 0.25:
            yield arbitrary_action(game, rng)
            continue
        actor = rng.choice(with_choices)
        base = random_action(game.choices(actor), actor, rng)
        fields = [f for f in base.__struct_fields__ if f not in ("player", "auto")]
        if roll < 0.5:
            yield msgspec.structs.replace(base, player=rng.choice([*actors, UNKNOWN]))
        elif roll < 0.75 and fields:
            field = rng.choice(fields)
            yield msgspec.structs.replace(base, **{field: _value(field, game, rng)})
        elif roll < 0.9 and idle:
            yield msgspec.structs.replace(base, player=rng.choice(idle))
        else:
            yield base  # a legal one, sometimes marked as a timer's default
            if rng.random() < 0.5:
                yield msgspec.structs.replace(base, auto=True)


def composition(roles: Sequence[Role]) -> tuple[int, ...]:
    counts = Counter(roles)
    return tuple(counts[role] for role in R02_ORDER)
