"""Property-based tests over random legal games (hypothesis).

Every test draws setups - 9-16 players dealt from the seed (R-02) or custom setups of 5-20
seats (R-03), both ``auto_jail_mode`` variants, both ``lawyer_consecutive`` settings, some
resubmissions - plays them with random agents asked by the one driver (the same draws as
:func:`korapsyon.selfplay.play_random`) and checks one family of invariants after every
action. The checkers live in :mod:`tests.randomgames`; they keep their own books from the
events alone and compare them with the engine's state.

The examples are derandomized and no example database is used, so CI runs the same few
hundred games every time.
"""

from __future__ import annotations

import math
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from korapsyon.record import (
    read_record,
    record_of,
    replay,
    replay_bytes,
    summarize,
    write_record,
)
from korapsyon.rules import Game, IllegalActionError, MalformedError, Role, Ruleset, Step
from korapsyon.rules import events as ev
from korapsyon.rules.actions import HOST, Action
from korapsyon.rules.cards import LARGE_DECK, SMALL_DECK
from korapsyon.rules.events import CORRUPT
from korapsyon.rules.reveal import night_by_night
from korapsyon.rules.state import GameState
from korapsyon.rules.views import player_view
from korapsyon.selfplay import play_random, table

from .randomgames import (
    R02,
    VARIANTS,
    Activity,
    Checker,
    FundLedger,
    KabanLedger,
    RandomPlayer,
    Records,
    Setup,
    Termination,
    Views,
    Votes,
    action_budget,
    action_key,
    all_checkers,
    composition,
    custom_setups,
    default_setups,
    mutants,
    passive_player,
    play,
    r05_targets,
    rulesets,
    salted,
    seeds,
    state_of,
    views_of,
)


def budget(examples: int) -> settings:
    """Reproducible in CI: derandomized, no example database, no deadline."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


any_setup = st.one_of(default_setups(), custom_setups())
VARIANT_IDS = [f"{r.auto_jail_mode}-{r.lawyer_consecutive}" for r in VARIANTS]
each_variant = pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
"""Run a test for each of the four R-21 x R-25 variants (the same number of games each)."""
GAMES = 20
"""Random games per variant in each variant-parametrized game test (not legality)."""


# ---------------------------------------------------------------- 1. termination
@each_variant
@budget(GAMES)
@given(st.data())
def test_every_game_ends(variant: Ruleset, data: st.DataObject) -> None:
    """R-50, R-51: every random game ends, by a win condition or at the latest by the
    safety stop at the end of Year ``max_years``; the outcome matches the state (Good's
    conditions first, purges at once, thresholds only at the win check)."""
    years = st.sampled_from((50, 50, 50, 1, 2, 3, 5))
    rules = rulesets(variant, max_years=years)
    setup = data.draw(salted(default_setups(rules), variant), label="setup")
    game = setup.play(Termination())
    assert game.outcome is not None, f"no end after {len(game.actions)} actions"
    assert 1 <= game.year <= game.ruleset.max_years


@budget(20)
@given(
    st.one_of(
        default_setups(rulesets(max_years=st.sampled_from((3, 3, 3, 1, 2, 50)))),
        custom_setups(rulesets(max_years=st.just(3))),
    )
)
def test_nothing_happens_then_safety_stop(setup: Setup) -> None:
    """R-51, R-72: when every decision is the timer's default (nobody steals, jails or
    supports a project), the game ends as a draw "safety_stop" at the end of Year
    ``max_years`` and not before."""
    game = play(setup.new_game(), passive_player, all_checkers())
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.reason, game.outcome.rule) == (
        "draw",
        "safety_stop",
        "R-51",
    )
    max_years = setup.ruleset.max_years
    assert game.year == max_years
    assert [y.year for y in game.years] == list(range(1, max_years + 1))
    assert game.public_spending == game.corruption_fund == 0
    assert all(action.auto for action in game.actions)
    ended = [e for e in game.events if isinstance(e, ev.YearEnded)]
    assert [e.year for e in ended] == list(range(1, max_years + 1))


# ---------------------------------------------------------------- 2. Corruption Fund
@each_variant
@budget(GAMES)
@given(st.data())
def test_corruption_fund_is_the_ledger_of_its_events(variant: Ruleset, data: st.DataObject) -> None:
    """R-11, R-25 (steps 3-5), R-34: after every action the Corruption Fund equals
    steals + kickbacks - Suhol - Tokhang payments (Stolen.amount, Kickback.amount,
    SuholPaid.cost, TokhangPaid.cost); a steal takes one per free Corrupt, Suhol refunds
    min(3, steal), abilities are paid only when the Fund holds their cost, a kickback is
    paid exactly when a successful committee had a Corrupt member."""
    setup = data.draw(salted(default_setups(rulesets(variant)), variant), label="setup")
    game = setup.play(FundLedger())
    assert game.outcome is not None


# ---------------------------------------------------------------- 3. Kaban ng Bayan
@each_variant
@budget(GAMES)
@given(st.data())
def test_kaban_true_and_public(variant: Ruleset, data: st.DataObject) -> None:
    """R-12, R-31, R-32, R-34: after every action the true Kaban equals start + revenue
    - steals + Suhol refunds - successful project costs; revenue is one per active player;
    the treasury report gives last Year's total decrease; the public figure is the true
    balance at the end of last Year plus this Year's revenue once the Year's report
    happened, and last Year's public figure before it."""
    setup = data.draw(salted(default_setups(rulesets(variant)), variant), label="setup")
    game = setup.play(KabanLedger())
    assert game.outcome is not None


# ---------------------------------------------------------------- 4. who may act
@each_variant
@budget(GAMES)
@given(st.data())
def test_suspended_and_eliminated_players_never_act(variant: Ruleset, data: st.DataObject) -> None:
    """R-20, R-33, R-34, R-40, R-41 (section 3: only active players act): every accepted
    action's player was active when it was submitted; after each step no inactive player
    is asked to act, and every step asks exactly the right players; candidates, the
    President, committee members and every target are active; a jailed player returns at
    the Start of Year ``jailed + suspension_years + 1``, not before or after."""
    suspension = st.sampled_from((3, 3, 0, 1, 2))
    rules = rulesets(variant, suspension_years=suspension)
    setup = data.draw(salted(default_setups(rules), variant), label="setup")
    game = setup.play(Activity())
    assert game.outcome is not None


# ---------------------------------------------------------------- 5. strikes and records
@each_variant
@budget(GAMES)
@given(st.data())
def test_strikes_spending_and_year_records(variant: Ruleset, data: st.DataObject) -> None:
    """R-10, R-13, R-21, R-25 (step 6), R-40, R-41: strikes never exceed 2 and a second
    strike eliminates at once, revealing the role; protection blocks jailing and Tokhang
    (and is never given twice running when ``lawyer_consecutive`` is forbidden); Approved
    Public Spending is projects minus Auto Jail costs and never negative; ``game.years``
    matches the events (jailed and eliminated lists, project, trackers)."""
    setup = data.draw(salted(default_setups(rulesets(variant)), variant), label="setup")
    game = setup.play(Records())
    assert game.outcome is not None


@each_variant
@budget(GAMES)
@given(st.data())
def test_every_tally_counts_the_last_ballots(variant: Ruleset, data: st.DataObject) -> None:
    """R-25 (step 6, forced_vote), R-33, R-34, R-35, R-36: each public tally is the count
    of the last ballot of every voter (the President counting 2 in jail votes only); the
    result follows from it (majority, one runoff among the tied, lots, or nobody); the
    forced, Witness and regular jail votes are held on exactly the right players."""
    setup = data.draw(salted(default_setups(rulesets(variant)), variant), label="setup")
    game = setup.play(Votes())
    assert game.outcome is not None


# ---------------------------------------------------------------- 6. records and replay
class Snapshots(Checker):
    """Keeps the record, summary, events and every view at chosen action counts and at
    the end of the game."""

    def __init__(self, at: set[int]) -> None:
        self.at = at
        self.taken: list[tuple[int, bytes, dict[str, Any], list[ev.BaseEvent], Views]] = []

    def take(self, game: Game) -> None:
        data = write_record(record_of(game))
        snapshot = (len(game.actions), data, summarize(game), list(game.events), views_of(game))
        self.taken.append(snapshot)

    def check(self, game: Game) -> None:
        if len(game.actions) in self.at:
            self.take(game)

    def finish(self, game: Game) -> None:
        self.take(game)


@budget(30)
@given(any_setup, st.lists(st.integers(1, 500), max_size=3))
def test_record_replay_reproduces_the_game(setup: Setup, at: list[int]) -> None:
    """GAME_RECORD.md, R-06, R-34, R-71: writing a game's record and replaying it gives
    the same summary, the same events and the same view for every player, the public and
    the moderator - for the empty record, at intermediate points and at the end."""
    snapshots = Snapshots({0, *at})
    game = setup.play(snapshots)
    assert game.outcome is not None
    assert snapshots.taken[-1][0] == len(game.actions)
    for count, data, summary, events, views in snapshots.taken:
        record, bad = read_record(data)
        assert bad is None
        assert len(record.actions) == count
        assert (record.roles is None) == (setup.roles is None)
        assert (record.decks is None) == (setup.decks is None)
        again, stop = replay(record)
        assert stop is None, stop
        assert summarize(again) == summary
        assert again.events == events
        assert views_of(again) == views
        assert write_record(record_of(again)) == data
        assert replay_bytes(write_record(record, indent=0)) == (summary, None)


class Quiet(Checker):
    """Follows the game with a twin that keeps no events (``keep_events=False``, as
    ``korapsyon replay`` builds it): after every action, every attribute of the twin's
    state equals the game's (its random generator's too), and the twin holds no event."""

    SKIPPED = frozenset(("__weakref__", "events", "keeps_events", "_roster", "rng"))

    def start(self, game: Game) -> None:
        self.twin = Game(
            game.players,
            roles=game.roles if game.roles_given else None,
            seed=game.seed,
            ruleset=game.ruleset,
            decks=game.initial_decks if game.decks_given else None,
            keep_events=False,
        )
        super().start(game)

    def after(self, game: Game, action: Action) -> None:
        self.twin.push(action)
        super().after(game, action)

    def check(self, game: Game) -> None:
        twin = self.twin
        assert twin.events == [] and not twin.keeps_events and game.keeps_events
        assert twin.rng.getstate() == game.rng.getstate(), self.where()
        assert twin.roster() == game.roster(), self.where()
        for name in GameState.__slots__:
            if name not in self.SKIPPED:
                assert getattr(twin, name) == getattr(game, name), (name, self.where())


@budget(30)
@given(any_setup)
def test_a_game_that_keeps_no_events_is_the_same_game(setup: Setup) -> None:
    """``korapsyon replay`` builds its games without events (it prints only the state:
    GAME_RECORD.md's summary; docs/ARCHITECTURE.md). Such a game goes through the same
    states as the full game, action for action, draws the same lots, holds no event, and
    has no views and no reveal."""
    quiet = Quiet()
    game = setup.play(quiet)
    assert game.outcome is not None and quiet.twin.outcome == game.outcome
    assert summarize(quiet.twin) == summarize(game)
    with pytest.raises(ValueError, match="no views"):
        player_view(quiet.twin, game.players[0])
    with pytest.raises(ValueError, match="no reveal"):
        night_by_night(quiet.twin)


# ---------------------------------------------------------------- 7. legality
RULE_ID = re.compile(r"R-\d\d")
CODE = re.compile(r"[a-z][a-z_]*")


def probe_legality(game: Game, rng: random.Random, count: int = 25) -> tuple[int, int]:
    """Check legal_actions against is_legal and apply, then try ``count`` mutants.
    Returns (refused, legal) mutant counts."""
    before = state_of(game)
    views = views_of(game)
    legal: dict[str, set[tuple[object, ...]]] = {}
    claims: dict[str, set[tuple[object, ...]]] = {}
    for name in [HOST, *game.players]:
        claims[name] = {
            action_key(a) for choice in game.claim_choices(name) for a in choice.actions(name)
        }
        actions = game.legal_actions(name)
        enumerated = list(actions)
        assert len(actions) == len(enumerated)
        keys = {action_key(a) for a in enumerated}
        assert len(keys) == len(enumerated), "legal_actions lists an action twice"
        legal[name] = keys
        sample = enumerated if len(enumerated) <= 60 else rng.sample(enumerated, 60)
        for action in sample:
            assert action.player == name
            assert game.is_legal(action), action
            assert action in actions
    # Who may act now: exactly the players asked (and, in the discussion, the host and
    # an Ombudsperson who may invoke Witness).
    acting = {name for name, keys in legal.items() if keys}
    if game.outcome is not None:
        assert not acting
    elif game.step is Step.DISCUSSION:
        omb = game.ombudsperson
        witness = omb is not None and game.witness_available(omb)
        assert acting == ({HOST, game.players[omb]} if witness and omb is not None else {HOST})
    else:
        assert acting == {game.players[s] for s in game.to_act}
    # a timer's default is one of the legal actions of whoever must decide now.
    for name, keys in legal.items():
        deciding = name == HOST if game.step is Step.DISCUSSION else bool(keys)
        if deciding:
            default = game.default_action(name)
            assert default.auto and action_key(default) in keys, default
        else:
            with pytest.raises(IllegalActionError):
                game.default_action(name)
    refused = accepted = 0
    for mutant in mutants(game, rng, count):
        listed = action_key(mutant) in legal.get(mutant.player, set())
        expected = listed or action_key(mutant) in claims.get(mutant.player, set())
        assert game.is_legal(mutant) == expected, (mutant, expected)
        assert (mutant in game.legal_actions(mutant.player)) == listed, mutant
        if expected:
            accepted += 1
            continue
        refused += 1
        with pytest.raises(IllegalActionError) as info:
            game.apply(mutant)
        error = info.value
        assert RULE_ID.fullmatch(error.rule), (mutant, error)
        assert CODE.fullmatch(error.code), (mutant, error)
        assert isinstance(error, ValueError)
        if game.outcome is not None:
            assert error.code == "game_over"
        assert state_of(game) == before, mutant
    assert views_of(game) == views
    return refused, accepted


@each_variant
@budget(8)
@given(st.data())
def test_legality_is_consistent(variant: Ruleset, data: st.DataObject) -> None:
    """R-01, R-21..R-24, R-33..R-36, R-40, R-41, R-70, R-72 (and GAME_RECORD.md: "a
    refused action changes nothing"): every action in legal_actions is accepted by
    is_legal, and so is every timer default;
    mutated actions (other players' names, wrong steps, wrong fields, players who must not
    act, after the end) are legal exactly when legal_actions lists them, and otherwise
    are refused with IllegalActionError naming an R-xx rule and a code; a refused action
    changes nothing (summary, events, actions, every view, and the rest of the game)."""
    rules = rulesets(variant)
    setups = st.one_of(default_setups(rules), custom_setups(rules))
    setup = data.draw(salted(setups, variant), label="setup")
    game = setup.new_game()
    choose = RandomPlayer(random.Random(setup.seed), resubmit=setup.resubmit)
    rng = random.Random(f"mutants/{setup.seed}")
    probed: set[tuple[Step | None, bool]] = set()
    refused = 0
    for _ in range(action_budget(game, setup.resubmit)):
        where = (game.step, bool(game.pending))
        if where not in probed or rng.random() < 0.002:
            probed.add(where)
            refused += probe_legality(game, rng)[0]
        if game.outcome is not None:
            break
        game.apply(choose(game))
    assert game.outcome is not None
    assert (None, False) in probed
    assert refused > 0
    # The probes drew no lots and left no trace: the same game without them is identical.
    twin = setup.play()
    assert twin.events == game.events


# ---------------------------------------------------------------- 8. determinism
@budget(30)
@given(any_setup)
def test_same_setup_seed_and_actions_give_the_same_game(setup: Setup) -> None:
    """R-06, R-34, R-33 (lots): a game is a pure function of its setup, seed and actions:
    playing twice, play_random with the same seed, and re-applying the actions to a fresh
    game all give identical events."""
    first = setup.play()
    second = setup.play()
    assert first.actions == second.actions
    assert first.events == second.events
    selfplay = play_random(setup.new_game(), random.Random(setup.seed), resubmit=setup.resubmit)
    assert selfplay.actions == first.actions
    assert selfplay.events == first.events
    fresh = setup.new_game()
    for action in first.actions:
        fresh.apply(action)
    assert fresh.events == first.events
    assert summarize(fresh) == summarize(first)


@budget(100)
@given(st.integers(9, 16), seeds)
def test_seed_only_game_deals_the_r02_composition(players: int, seed: int) -> None:
    """R-02, R-05, R-06, R-07, R-34: a game built from the seed only deals the R-02
    composition for its player count, each player learns only their own role, the
    Corrupt see each other, both decks are shuffled permutations, and the targets and
    costs follow R-05 - the same every time for the same seed."""
    game = Game(table(players), seed=seed)
    assert composition(game.roles) == R02[players]
    assert not game.roles_given and not game.decks_given
    again = Game(table(players), seed=seed)
    assert again.roles == game.roles
    assert again.initial_decks == game.initial_decks
    small, large = game.initial_decks
    assert sorted(small) == sorted(SMALL_DECK)
    assert sorted(large) == sorted(LARGE_DECK)
    ps, cf = r05_targets(players)
    assert (game.public_spending_target, game.corruption_fund_target) == (ps, cf)
    assert game.auto_jail_cost == math.ceil(ps / 2)
    assert game.tokhang_cost == math.ceil(cf / 2)
    dealt = [e for e in game.events if isinstance(e, ev.RoleDealt)]
    assert [(e.audience, e.player, e.role) for e in dealt] == [
        (seat, name, role)
        for seat, (name, role) in enumerate(zip(game.players, game.roles, strict=True))
    ]
    teams = [e for e in game.events if isinstance(e, ev.TeamRevealed)]
    corrupt = tuple(
        n for n, r in zip(game.players, game.roles, strict=True) if r is Role.CORRUPT_POLITICIAN
    )
    assert [(e.audience, e.members) for e in teams] == [(CORRUPT, corrupt)]
    assert record_of(game).roles is None


# ---------------------------------------------------------------- 9. custom setups
@each_variant
@budget(GAMES)
@given(st.data())
def test_custom_setups_end_and_keep_every_invariant(variant: Ruleset, data: st.DataObject) -> None:
    """R-01, R-03 and everything above: custom setups of 5-20 seats (at least 2 Good and
    1 Corrupt Politician, at most one Lawyer, Ombudsperson and COA, any seating, decks
    given or not) also always end and keep every invariant above, with the R-05 targets
    of the nearest row."""
    rules = rulesets(variant, suspension_years=st.sampled_from((3, 3, 1)))
    setup = data.draw(salted(custom_setups(rules), variant), label="setup")
    game = setup.play(*all_checkers())
    assert game.outcome is not None
    assert game.roles_given and game.roles == setup.roles
    targets = (game.public_spending_target, game.corruption_fund_target)
    assert targets == r05_targets(setup.players), "R-05: the nearest row"


def test_a_table_with_nobody_active_keeps_every_invariant() -> None:
    """R-20, R-32, R-33, R-50 (a quirk found by the sweep): when every active player is
    gone but no purge is complete - here the last active player, a Corrupt President,
    Tokhangs herself while the other Corrupt and two Good Politicians are suspended - the
    Years go on with nobody to act but the host: no revenue, no candidate and so no
    President, until the suspended players return."""
    g, c, law, cit = (
        Role.GOOD_POLITICIAN,
        Role.CORRUPT_POLITICIAN,
        Role.LAWYER,
        Role.CITIZEN,
    )
    setup = Setup(
        players=9,
        seed=536,
        ruleset=VARIANTS[2],
        roles=(law, g, g, c, g, g, cit, c, c),
    )
    game = setup.play(*all_checkers())
    assert game.outcome is not None
    assert any(isinstance(e, ev.Revenue) and e.amount == 0 for e in game.events)
    empty = [e for e in game.events if isinstance(e, ev.Candidates) and not e.candidates]
    assert empty, "the election with no candidate was not reached"


@st.composite
def bad_role_lists(draw: st.DrawFn) -> list[Role]:
    counts = {
        Role.GOOD_POLITICIAN: draw(st.integers(0, 4)),
        Role.CORRUPT_POLITICIAN: draw(st.integers(0, 4)),
        Role.LAWYER: draw(st.integers(0, 2)),
        Role.OMBUDSPERSON: draw(st.integers(0, 2)),
        Role.COA: draw(st.integers(0, 2)),
        Role.CITIZEN: draw(st.integers(0, 16)),
    }
    roles = [role for role, n in counts.items() for _ in range(n)]
    return draw(st.permutations(roles))


def valid_custom(roles: list[Role]) -> bool:
    return (
        5 <= len(roles) <= 20
        and roles.count(Role.GOOD_POLITICIAN) >= 2
        and roles.count(Role.CORRUPT_POLITICIAN) >= 1
        and all(roles.count(r) <= 1 for r in (Role.LAWYER, Role.OMBUDSPERSON, Role.COA))
    )


@budget(100)
@given(bad_role_lists())
def test_custom_setups_are_checked(roles: list[Role]) -> None:
    """R-01, R-03: a custom setup is accepted exactly when it has 5-20 seats, at least 2
    Good and 1 Corrupt Politician and at most one Lawyer, Ombudsperson and COA; anything
    else is refused with a MalformedError naming the broken rule."""
    names = [f"P{i}" for i in range(len(roles))]
    if valid_custom(roles):
        assert Game(names, roles=roles).roles_given
        return
    with pytest.raises(MalformedError) as info:
        Game(names, roles=roles)
    expected = "R-03" if 5 <= len(roles) <= 20 else "R-01"
    assert info.value.rule == expected, info.value


def test_random_games_reach_every_rule() -> None:
    """Not a property but a guard on the ones above: the random games really reach the
    rules they check (both R-25 step 6 variants, R-21 both ways, Suhol, Tokhang, blocked
    jailings, Witness, returns from suspension, runoffs, every outcome but the draw)."""
    kinds: set[str] = set()
    steps: set[str] = set()
    reasons: set[str] = set()
    for seed in range(48):
        setup = Setup(
            players=9 + seed % 8,
            seed=seed,
            ruleset=VARIANTS[seed % 4],
            resubmit=0.2,
        )
        game = setup.play()
        assert game.outcome is not None
        reasons.add(game.outcome.reason)
        for event in game.events:
            kinds.add(type(event).__name__)
            if isinstance(event, ev.StepStarted):
                steps.add(event.step)
    assert kinds >= {
        "Stolen",
        "SuholPaid",
        "TokhangPaid",
        "TokhangBlocked",
        "NotPaid",
        "Kickback",
        "AutoJailUsed",
        "AutoJailCancelled",
        "ForcedVoteCalled",
        "JailingBlocked",
        "PlayerJailed",
        "PlayerReturned",
        "PlayerEliminated",
        "PresidencyEnded",
        "WitnessTestimony",
    }, kinds
    assert steps == {step.value for step in Step}, steps
    assert reasons >= {"corrupt_purge", "public_spending", "good_purge", "corruption_fund"}
