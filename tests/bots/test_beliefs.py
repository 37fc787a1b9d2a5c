"""The belief engine: it never gives weight to an assignment a known fact rules out, it
respects what the seat knows of itself, and it reads only its view."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from korapsyon.bots import play, seat_agents
from korapsyon.bots.beliefs import BehaviourModel, Beliefs
from korapsyon.bots.beliefs.calibration import calibrate, markdown
from korapsyon.bots.beliefs.space import ROLES, GroupFactor, composition_counts, posterior
from korapsyon.rules import Game, Role, Ruleset, Team
from korapsyon.rules import events as ev
from korapsyon.selfplay import table
from tests.hidden_variants import random_setup, side_by_side, variation_for

CP = Role.CORRUPT_POLITICIAN


def _played(seed: int) -> Game:
    game = random_setup(seed)
    play(game, seat_agents(game, "heuristic", seed), random.Random(seed))
    return game


def _view(game: Game, viewer: int | None, upto: int) -> list[ev.BaseEvent]:
    corrupt = viewer is not None and game.roles[viewer] is CP
    return [e for e in game.events[:upto] if ev.visible_to(e, viewer, corrupt)]


class _Facts:
    """The hard facts of RULES.md in a view's events, checked here from the events alone:
    :meth:`broken` lists those a set of Corrupt seats contradicts."""

    def __init__(self, game: Game, seen: list[ev.BaseEvent]) -> None:
        self.index = {name: s for s, name in enumerate(game.players)}
        self.seen = seen

    def broken(self, corrupt: set[int]) -> list[str]:
        index = self.index
        self.active = set(index.values())
        self.night: dict[int, set[int]] = {}
        self.committees: dict[int, tuple[set[int], bool, int]] = {}
        self.year = 0
        broken = []
        for e in self.seen:
            if not self._holds(e, corrupt):
                broken.append(type(e).__name__)
            self._track(e)
        return broken

    def _track(self, e: ev.BaseEvent) -> None:
        index = self.index
        match e:
            case ev.YearStarted():
                self.year = e.year
            case ev.StepStarted(step="hidden"):
                self.night[self.year] = set(self.active)
            case ev.PlayerReturned():
                self.active.add(index[e.player])
            case ev.PlayerJailed(returns_year=int()) | ev.PlayerEliminated():
                self.active.discard(index[e.player])
            case ev.CommitteeNamed():
                self.committees[self.year] = ({index[m] for m in e.members}, False, 0)
            case ev.ProjectVoted():
                members = self.committees[self.year][0]
                self.committees[self.year] = (members, e.succeeded, e.cost * e.succeeded)

    def _holds(self, e: ev.BaseEvent, corrupt: set[int]) -> bool:
        index = self.index
        ok = True
        match e:
            case ev.PlayerEliminated():
                ok = e.role is None or (e.role is CP) == (index[e.player] in corrupt)
            case ev.RoleDealt():
                ok = (e.role is CP) == (index[e.player] in corrupt)
            case ev.TeamRevealed() if e.role is CP:
                ok = {index[m] for m in e.members} == corrupt
            case ev.WitnessTestimony():
                ok = index[e.player] in corrupt
            case ev.InvestigationResult():
                ok = (e.aligned is Team.BAD) == (index[e.target] in corrupt)
            case ev.AuditDelivered(kickback=bool()):
                members, succeeded, _ = self.committees.get(self.year - 1, (set(), False, 0))
                ok = not succeeded or e.kickback == bool(members & corrupt)
            case ev.TreasuryReport(decrease=int(decrease)):
                free = len(self.night[self.year - 1] & corrupt)
                cost = self.committees.get(self.year - 1, (set(), False, 0))[2]
                ok = decrease - cost in (0, free, max(0, free - 3))
            case ev.GameOver():
                ok = corrupt == {s for s, r in enumerate(e.roles) if r is CP}
        return ok


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.data())
def test_no_weight_on_what_a_known_fact_rules_out(seed: int, data: st.DataObject) -> None:
    game = _played(seed)
    n = len(game.players)
    viewer = data.draw(st.sampled_from([None, *range(n)]))
    upto = data.draw(st.integers(1, len(game.events)))
    seen = _view(game, viewer, upto)
    beliefs = Beliefs(game.players, game.roles, None if viewer is None else game.players[viewer])
    beliefs.observe(seen)
    post = beliefs.posterior()
    assert post.exact
    assert post.probability.sum() == pytest.approx(1.0)
    truth = {s for s, r in enumerate(game.roles) if r is CP}
    rows = [frozenset(np.flatnonzero(row).tolist()) for row in post.corrupt]
    assert all(len(row) == len(truth) for row in rows)
    assert post.probability[rows.index(frozenset(truth))] > 0  # the truth stays possible
    facts = _Facts(game, seen)
    assert not facts.broken(truth)  # the checker itself accepts the truth
    for row, p in zip(rows, post.probability, strict=True):
        if p > 0:
            assert not facts.broken(set(row)), sorted(row)
    marginals = beliefs.corrupt_probability()
    assert sum(marginals.values()) == pytest.approx(len(truth))
    for seat, role in enumerate(game.roles):  # the true role is never ruled out
        assert beliefs.weights[seat, ROLES.index(role)] > 0
    sample = beliefs.sample(random.Random(seed))
    assert Counter(sample) == Counter(game.roles)
    assert not facts.broken({s for s, r in enumerate(sample) if r is CP})


def test_role_probabilities_are_distributions_over_the_setup() -> None:
    game = _played(11)
    beliefs = Beliefs(game.players, game.roles)
    beliefs.observe(_view(game, None, len(game.events) - 1))
    roles = beliefs.role_probability()
    for name in game.players:
        assert sum(roles[name].values()) == pytest.approx(1.0)
    counts = Counter(game.roles)
    for role in Role:
        assert sum(roles[name][role] for name in game.players) == pytest.approx(counts[role])


@pytest.mark.parametrize("seed", range(6))
def test_a_seat_knows_itself_and_the_corrupt_know_their_team(seed: int) -> None:
    game = _played(100 + seed)
    deal = next(i for i, e in enumerate(game.events) if isinstance(e, ev.YearStarted))
    for seat, name in enumerate(game.players):
        beliefs = Beliefs(game.players, game.roles, name)
        beliefs.observe(_view(game, seat, deal))  # the deal only
        p = beliefs.corrupt_probability()
        roles = beliefs.role_probability()
        assert roles[name][game.roles[seat]] == pytest.approx(1.0)
        if game.roles[seat] is CP:
            assert all(p[n] == (1.0 if game.roles[s] is CP else 0.0)
                       for s, n in enumerate(game.players))  # fmt: skip
        else:
            others = [p[n] for n in game.players if n != name]
            assert p[name] == 0.0
            count = game.roles.count(CP)
            assert others == pytest.approx([count / (len(game.players) - 1)] * len(others))


def test_good_politicians_who_recognise_each_other() -> None:
    players = table(13)
    game = Game(players, seed=5, ruleset=Ruleset(good_politicians_recognise=True))
    play(game, seat_agents(game, "heuristic", 5), random.Random(5))
    seat = game.roles.index(Role.GOOD_POLITICIAN)
    beliefs = Beliefs(players, game.roles, players[seat])
    deal = next(i for i, e in enumerate(game.events) if isinstance(e, ev.YearStarted))
    beliefs.observe(_view(game, seat, deal))
    roles = beliefs.role_probability()
    for s, name in enumerate(players):
        expected = 1.0 if game.roles[s] is Role.GOOD_POLITICIAN else 0.0
        assert roles[name][Role.GOOD_POLITICIAN] == pytest.approx(expected)


def test_a_view_refuses_events_it_may_not_see() -> None:
    game = _played(3)
    good = next(s for s, r in enumerate(game.roles) if r is not CP)
    hidden = [e for e in game.events if not ev.visible_to(e, good, False)]
    assert hidden
    beliefs = Beliefs(game.players, game.roles, game.players[good])
    for event in hidden[:20]:
        with pytest.raises(ValueError, match="may not see"):
            beliefs.observe([event])
    with pytest.raises(ValueError, match="may not see"):
        Beliefs(game.players, game.roles).observe([e for e in game.events if e.audience >= 0][:1])


def test_games_that_differ_only_in_hidden_facts_give_the_same_beliefs() -> None:
    """Non-interference: A and B differ in facts the viewer cannot see (two others' roles
    swapped, ballots swapped, night targets redrawn...): the beliefs agree throughout."""
    compared = 0
    for seed in range(10):
        a = random_setup(7000 + seed)
        play(a, seat_agents(a, "heuristic", seed), random.Random(seed))
        rng = random.Random(seed)
        variation = variation_for(a, rng)
        name = None if variation.viewer is None else a.players[variation.viewer]
        beliefs_a = Beliefs(a.players, a.roles, name)
        beliefs_b = Beliefs(a.players, a.roles, name)
        for moment in side_by_side(a, variation, rng):
            beliefs_a.observe(moment.seen_a)
            beliefs_b.observe(moment.seen_b)
            if any(isinstance(e, ev.YearEnded | ev.TreasuryReport) for e in moment.seen_a):
                assert beliefs_a.corrupt_probability() == beliefs_b.corrupt_probability()
                assert beliefs_a.sample(random.Random(1)) == beliefs_b.sample(random.Random(1))
                compared += 1
    assert compared >= 10


def test_the_sampled_posterior_agrees_with_the_exact_one_within_its_tolerance() -> None:
    game = _played(21)
    exact = Beliefs(game.players, game.roles)
    sampled = Beliefs(game.players, game.roles, max_exact=10)
    seen = _view(game, None, len(game.events) // 2)
    exact.observe(seen)
    sampled.observe(seen)
    post = sampled.posterior()
    assert not post.exact
    assert 0 < post.tolerance < 0.05
    p, q = exact.corrupt_probability(), sampled.corrupt_probability()
    for name in game.players:
        assert abs(p[name] - q[name]) < 5 * post.tolerance + 1e-9, name


def test_the_steal_amount_counts_the_free_corrupt() -> None:
    model = BehaviourModel()
    table_ = model.steal_table(2, 5)  # a net steal of 2
    assert table_[0] == 0 and table_[1] == 0 and table_[2] > 0 and table_[3] == 0
    assert table_[5] > 0  # 5 stole and Suhol refunded 3
    assert model.steal_table(0, 3).all()  # nothing stolen: anything goes


def test_a_committee_named_when_fewer_players_are_active_than_there_are_corrupt() -> None:
    """Late in a game with many jailed (R-41), fewer players may be active than the
    Corrupt count: those counts are impossible and get no weight (they raised a
    ValueError and stopped a search bot mid-game), the rest are read as before."""
    model = BehaviourModel()
    table_ = model.committee_table(active=2, size=2, corrupt=3)
    assert not table_[:, :, 3].any()
    assert table_[0, 2, 2] > 0 and table_[1, 2, 2] > 0  # both active and Corrupt
    assert np.array_equal(table_[:, :, :3], model.committee_table(2, 2, 2))


def test_calibration_runs_and_beats_the_base_rate() -> None:
    result = calibrate(6, players=11, seed=9)
    brier = result.brier()
    assert result.predictions
    assert brier["beliefs"] < brier["base_rate"]
    assert "| belief P(Corrupt) |" in markdown(result)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_the_posterior_equals_brute_force_enumeration(seed: int) -> None:
    """On a small custom table with random seat weights and group factors, every marginal
    equals the one found by listing every role assignment."""
    rng = random.Random(seed)
    roles = [Role.GOOD_POLITICIAN] * 2 + [CP] * rng.randint(1, 2)
    roles += rng.sample([Role.LAWYER, Role.OMBUDSPERSON, Role.COA], rng.randint(0, 3))
    roles += [Role.CITIZEN] * rng.randint(0, 2)
    n = len(roles)
    weights = np.array([[rng.choice([0.0, 0.3, 1.0, 2.0]) for _ in ROLES] for _ in range(n)])
    for seat, role in enumerate(rng.sample(roles, n)):  # one assignment stays possible
        weights[seat, ROLES.index(role)] = 1.0
    factors = []
    for _ in range(rng.randint(0, 3)):
        groups = tuple(tuple(rng.sample(range(n), rng.randint(1, 3))) for _ in range(2))
        table_ = np.array([[rng.random() for _ in range(4)] for _ in range(4)])
        factors.append(GroupFactor(groups, table_))
    corrupt_count, counts = composition_counts(roles)
    post = posterior(weights, factors, corrupt_count, counts)
    totals = np.zeros((n, len(ROLES)))
    for deal in set(itertools.permutations(roles)):
        bad = np.array([[r is CP for r in deal]])
        w = np.prod([weights[s, ROLES.index(r)] for s, r in enumerate(deal)])
        w *= np.prod([f.weights(bad)[0] for f in factors])
        for seat, role in enumerate(deal):
            totals[seat, ROLES.index(role)] += w
    expected = totals / totals[0].sum()
    assert post.role_marginals() == pytest.approx(expected, abs=1e-9)
    assert post.corrupt_marginals() == pytest.approx(expected[:, ROLES.index(CP)], abs=1e-9)


def test_an_agent_starts_its_beliefs_from_its_first_events() -> None:
    game = _played(31)
    seat = 4
    seen = _view(game, seat, len(game.events) // 2)
    beliefs = Beliefs.start(seen)
    assert beliefs.seat == seat
    given = Beliefs(game.players, None, game.players[seat])
    given.observe(seen)
    assert beliefs.corrupt_probability() == given.corrupt_probability()
    public = Beliefs.start(_view(game, None, 40))
    assert public.seat is None


def test_a_custom_setup_s_composition_comes_from_the_game_s_start() -> None:
    """R-03: a custom setup's composition is public; the beliefs take it from the game's
    start (they once assumed R-02's, found no assignment consistent with a 3-Corrupt
    9-seat game and stopped the believer bots that played it)."""
    roles = [CP] * 3 + [Role.GOOD_POLITICIAN] * 2 + [Role.LAWYER, Role.OMBUDSPERSON, Role.COA]
    roles.append(Role.CITIZEN)
    random.Random(5).shuffle(roles)
    game = Game(table(9), roles=roles, seed=5)
    play(game, seat_agents(game, "believer", 5), random.Random(5))
    assert game.outcome is not None
    started = game.events[0]
    assert isinstance(started, ev.GameStarted)
    assert Counter(started.roles()) == Counter(roles)
    for viewer in (None, 0, roles.index(CP)):
        beliefs = Beliefs.start(_view(game, viewer, len(game.events)))
        assert beliefs.corrupt_count == 3
        assert sum(beliefs.corrupt_probability().values()) == pytest.approx(3)
    with pytest.raises(ValueError, match="composition"):
        Beliefs(game.players).observe(_view(game, None, 1))  # R-02's: 2 Corrupt at 9
