"""The balance tuner: it moves an unbalanced player count toward 45-55%, is deterministic
for a seed wherever it runs, checks its finalists with a stronger generation and chooses
where the worse of the two is nearest 50%, and refuses bad options clearly."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from korapsyon.cli import main
from korapsyon.rules.ruleset import Ruleset
from korapsyon.sim.cluster import InlineExecutor, place
from korapsyon.sim.rates import fit, shift
from korapsyon.sim.runner import GameResult, SimConfig, parse_composition, parse_rules, simulate
from korapsyon.sim.tune import Candidate, Plan, parse_dial, tune
from korapsyon.sim.tune_report import report


def test_tuning_moves_an_unbalanced_count_toward_the_band() -> None:
    # 12 players under R-05 (Corruption Fund 17) are unbalanced for heuristic bots (74%
    # Good, BALANCE.md, history): tuning the Fund's target alone must move toward the band
    plan = Plan(players=(12,), seed=5, fund_span=3, spending_span=0, first=30, finalists=1)
    outcome = tune(plan, InlineExecutor())
    chosen = outcome.chosen[12]
    rate = chosen.rate("heuristic")
    assert rate is not None and len(chosen.heuristic) == 30 + 60 + 120
    before = simulate(SimConfig((12,), len(chosen.heuristic), seed=5), workers=1)
    default_rate = sum(r.winner == "good" for r in before) / len(before)
    assert abs(rate - 0.5) < abs(default_rate - 0.5)
    fund = chosen.ruleset.targets(12)[1]  # Good led: a shorter race for the Corrupt
    assert default_rate > 0.5 and fund < 17
    assert outcome.games == {"heuristic": 7 * 30 + 3 * 60 + 1 * 120, "check": 0}
    assert outcome.games["heuristic"] == plan.cost()[0]


def test_the_same_seed_gives_the_same_search_wherever_it_runs() -> None:
    plan = Plan(
        players=(9, 16),
        seed=3,
        fund_span=1,
        spending_span=1,
        dials=(parse_dial("auto_jail_mode=direct,forced_vote"),),
        first=6,
        finalists=2,
        check_games=3,
        check_bots="random",  # (cheap; the command offers only the stronger kinds)
        check_rounds=2,
    )
    here = report(tune(plan, InlineExecutor()))
    with place(workers=2) as pool:
        there = report(tune(plan, pool))
    assert here == there
    assert len(here["candidates"]["9"]) == 3 * 3 * 2
    other = report(tune(Plan(**{**plan.__dict__, "seed": 4}), InlineExecutor()))
    assert other["candidates"] != here["candidates"]


def _games(good: int, n: int, years: int = 5) -> list[GameResult]:
    return [
        GameResult(13, i, i, "good" if i < good else "bad", "public_spending", years, 0, 0, 0, 0)
        for i in range(n)
    ]


def test_the_check_model_is_the_heuristic_one_shifted_by_one_log_odds() -> None:
    # three finalists whose check games run one log-odds above their heuristic rates
    finalists = []
    for fund, rate in ((19, 0.4), (20, 0.5), (21, 0.6)):
        c = Candidate(13, Ruleset(corruption_fund_target=fund), heuristic=_games(50, 100))
        c.fitted = rate
        above = 1 / (1 + math.exp(-(math.log(rate / (1 - rate)) + 1.0)))
        c.check = _games(round(above * 400), 400)
        finalists.append(c)
    unchecked = Candidate(13, Ruleset(corruption_fund_target=16), heuristic=_games(10, 100))
    unchecked.fitted = 0.1
    delta = shift([*finalists, unchecked])
    assert delta == pytest.approx(1.0, abs=0.05)
    assert unchecked.shifted == pytest.approx(0.232, abs=0.01)  # logit 0.1 + 1: never played
    assert unchecked.check_estimate() == unchecked.shifted
    # a generation that always wins gets a large shift, not an infinite one
    for c in finalists:
        c.check = _games(20, 20)
    assert shift(finalists) == pytest.approx(4.84, abs=0.01)  # 60.5 wins of 61


def test_each_setting_of_the_dials_has_its_own_shift() -> None:
    """A dial may move the generations apart (BALANCE.md: the suspension's length): the
    check games of one setting do not speak for another's, and a setting never checked
    takes the pooled shift."""
    short, long = Ruleset(suspension_years=3), Ruleset(suspension_years=5)
    checked = []
    for ruleset, wins in ((short, 40), (long, 80)):  # even for the heuristic either way
        c = Candidate(13, ruleset, heuristic=_games(50, 100))
        c.fitted, c.check = 0.5, _games(wins, 100)
        checked.append(c)
    other = Candidate(13, Ruleset(suspension_years=4), heuristic=_games(50, 100))
    other.fitted = 0.5
    pooled = shift([*checked, other])  # 120 of 200, and the half win of 1
    assert pooled == pytest.approx(math.log(120.5 / 80.5), abs=0.01)
    assert [c.shifted for c in checked] == pytest.approx([0.40, 0.80], abs=0.005)
    assert other.shifted == pytest.approx(120.5 / 201, abs=0.005)


def test_the_shift_is_found_far_from_the_heuristic_rates() -> None:
    # heuristic log-odds -3 (4.7%), the check bots winning half: a shift of +3, which
    # undamped Newton steps overshoot
    finalists = []
    for fund in (19, 20):
        c = Candidate(13, Ruleset(corruption_fund_target=fund), heuristic=_games(5, 100))
        c.fitted = 1 / (1 + math.exp(3.0))
        c.check = _games(50, 100)
        finalists.append(c)
    assert shift(finalists) == pytest.approx(3.0, abs=0.01)
    assert finalists[0].shifted == pytest.approx(0.5, abs=0.01)


def test_the_choice_weighs_both_generations() -> None:
    """The candidate whose worse generation is nearer 50% is chosen, the stronger one's
    rate read from its own games and the shifted model together."""
    even = Candidate(13, Ruleset(corruption_fund_target=20), heuristic=_games(50, 100))
    even.check = _games(14, 50)  # 28%: the stronger Corrupt win
    split = Candidate(13, Ruleset(corruption_fund_target=23), heuristic=_games(61, 100))
    split.check = _games(20, 50)  # 40%
    for c in (even, split):
        c.fitted = c.rate("heuristic")
    shift([even, split])  # the believers win 34 of 100 where the heuristic's rates say 55.5
    assert even.check_estimate() == pytest.approx(0.287, abs=0.005)  # 21 points off
    assert split.check_estimate() == pytest.approx(0.398, abs=0.005)  # 10 and 11 off
    assert min([even, split], key=Candidate.worse) is split


def test_the_check_rounds_split_a_shift_between_the_generations() -> None:
    """Random bots (cheap; the command offers only stronger kinds) win far less often as
    Good than heuristic ones (12 players: about 10%
    against 75% under R-05): a second check round moves to a longer Corrupt race, where the
    heuristic favours Good, so that the worse of the two generations is nearer 50% than
    with the heuristic rounds' own finalists."""
    plan = Plan(
        players=(12,), seed=4, fund_span=8, spending_span=0, first=6, finalists=2,
        check_games=20, check_bots="random", check_rounds=1,
    )  # fmt: skip
    one = tune(plan, InlineExecutor())
    two = tune(Plan(**{**plan.__dict__, "check_rounds": 2}), InlineExecutor())
    first, second = one.chosen[12], two.chosen[12]
    assert abs((first.estimate() or 0) - 0.5) < 0.05  # the heuristic rounds' aim
    assert (first.check_estimate() or 1) < 0.15  # random Good, far below
    assert (second.estimate() or 0) > (first.estimate() or 0) + 0.15
    assert second.ruleset.targets(12)[1] > first.ruleset.targets(12)[1]
    assert second.worse() < first.worse()
    assert one.games["check"] == 2 * 20 and two.games["check"] == 4 * 20
    assert len(two.finalists[12]) == 4  # every checked candidate, for the report
    # a check round's new finalists play as many heuristic games as the first ones did
    assert {len(c.heuristic) for c in two.finalists[12]} == {plan.heuristic_games()}
    heuristic, check = two.plan.cost()
    assert two.games["heuristic"] <= heuristic and two.games["check"] <= check


def test_tune_command_prints_the_table_and_writes_the_search(tmp_path: Path) -> None:
    args = ["tune", "--players", "10", "--fund-span", "1", "--spending-span", "1"]
    args += ["--first", "4", "--finalists", "1", "--workers", "1", "--out", str(tmp_path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert (
        "9 candidates per player count, 3 heuristic rounds: at most 76 heuristic and 0 believer"
        in (result.output)
    )
    row = next(line for line in result.output.splitlines() if line.strip().startswith("10 "))
    assert "n=28" in row  # 4 + 8 + 16 games
    assert "cost: 76 heuristic + 0 believer games" in result.output
    assert "korapsyon simulate --rule public_spending_target=10:" in result.output
    saved = json.loads((tmp_path / "tune.json").read_text())
    assert saved["games"] == {"heuristic": 9 * 4 + 3 * 8 + 16, "check": 0}
    assert (tmp_path / "search.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    years = saved["chosen"]["10"]["heuristic_years"]  # the mean length, in the table too
    assert 1 <= years <= 50 and f"{years:.1f}" in row.split()
    assert saved["plan"]["min_years"] == 0


def test_a_floor_no_candidate_reaches_is_marked(tmp_path: Path) -> None:
    args = ["tune", "--players", "10", "--fund-span", "0", "--spending-span", "0"]
    args += ["--first", "4", "--workers", "1", "--min-years", "49"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if line.strip().startswith("10 "))
    assert row.split()[-2].endswith("*")  # Years, marked: shorter than the floor


def test_the_check_plays_the_finalists_with_believer_bots(tmp_path: Path) -> None:
    """Each finalist plays --check-games games of the --check-bots kind, and the table shows
    that generation's rate beside the heuristic's."""
    args = ["tune", "--players", "9", "--fund-span", "0", "--spending-span", "0", "--first", "2"]
    args += ["--check-games", "3", "--workers", "1", "--out", str(tmp_path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "believer Good" in result.output
    assert "2 heuristic and 3 believer games" in result.output  # two rounds, one candidate
    assert "cost: 2 heuristic + 3 believer games" in result.output
    saved = json.loads((tmp_path / "tune.json").read_text())
    assert saved["plan"]["check_bots"] == "believer"
    assert saved["chosen"]["9"]["check"]["games"] == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "3"], "player counts run from 5 to 20"),
        (["--dial", "nonsense"], "option=value"),
        (["--dial", "corruption_fund_target=9"], "searched already"),
        (["--dial", "colour=red"], "'colour' is not a ruleset option"),
        (["--dial", "max_years=0,5"], "max_years"),
        (["--fund-span", "-1"], "-1 is not in the range"),
        (["--aim", "1.5"], "1.5 is not in the range"),
        (["--check-bots", "random"], "'random' is not one of"),
        (["--check-rounds", "0"], "0 is not in the range"),
        (["--cluster", "nonsense://nowhere:1"], "cannot reach the Dask scheduler"),
    ],
)
def test_tune_refuses_bad_options_clearly(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["tune", "--first", "1", "--workers", "1", *args])
    assert result.exit_code == 2
    assert message in result.output


def test_the_aim_moves_the_choice() -> None:
    low, high = (
        tune(
            Plan(
                players=(16,), seed=2, fund_span=6, spending_span=0, first=10, finalists=1, aim=aim
            ),
            InlineExecutor(),
        ).chosen[16]
        for aim in (0.35, 0.65)
    )
    assert low.ruleset.targets(16)[1] < high.ruleset.targets(16)[1]  # a shorter Corrupt race
    assert (low.rate("heuristic") or 0) < (high.rate("heuristic") or 0)


def test_a_floor_on_the_games_length_moves_the_choice_to_longer_games() -> None:
    # 9 players, a Good win rate of 30% aimed at: the shortest Fund race the span allows
    # (5.2 Years a game) is nearest; a floor of 5.5 Years takes a longer one (5.7)
    plan = Plan(players=(9,), seed=2, fund_span=6, spending_span=0, first=10, finalists=1, aim=0.3)
    free, floored = (
        tune(dataclasses.replace(plan, min_years=years), InlineExecutor()).chosen[9]
        for years in (0.0, 5.5)
    )
    assert (free.years() or 0) < 5.5 <= (floored.years() or 0)
    assert free.ruleset.targets(9)[1] < floored.ruleset.targets(9)[1]


def test_a_cost_is_a_dial_of_its_own() -> None:
    # R-05 ties the costs to the targets; a designer may search them apart
    assert parse_dial("tokhang_cost=5,8") == ("tokhang_cost", (5, 8))
    plan = Plan(players=(13,), spending_span=0, fund_span=0, dials=(("tokhang_cost", (5, 8)),))
    assert [r.costs(13) for r in plan.candidates(13)] == [(12, 5), (12, 8)]


def test_a_rule_setting_is_the_centre_of_the_search_and_holds_its_other_options(
    tmp_path: Path,
) -> None:
    """--rule, as simulate takes it: per-count targets centre the spans (not R-05's row),
    other options hold in every candidate, and a dial overrides them."""
    rules = ["public_spending_target=15:34,16:36", "suspension_years=5", "tokhang_cost=16:2"]
    ruleset, per_count = parse_rules(rules)
    plan = Plan(players=(15, 16), fund_span=1, spending_span=1, ruleset=ruleset,
                per_count=per_count, dials=(("suspension_years", (4, 5)),))  # fmt: skip
    at_16 = plan.candidates(16)
    assert {r.targets(16) for r in at_16} == set(itertools.product((35, 36, 37), (22, 23, 24)))
    assert {r.costs(16)[1] for r in at_16} == {2} and {r.suspension_years for r in at_16} == {4, 5}
    at_15 = plan.candidates(15)  # R-05's Fund target of 23, and --rule's Spending target
    assert {r.targets(15) for r in at_15} == set(itertools.product((33, 34, 35), (22, 23, 24)))
    assert {r.tokhang_cost for r in at_15} == {None}
    args = ["tune", "--players", "16", "--fund-span", "0", "--spending-span", "0", "--first", "4"]
    args += [f"--rule={rule}" for rule in rules] + ["--workers", "1", "--out", str(tmp_path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    head = next(x for x in result.output.splitlines() if x.lstrip().startswith("players"))
    assert head.split()[5:7] == ["suspension_years", "tokhang_cost"]  # the options held
    line = next(x for x in result.output.splitlines() if x.startswith("to play the choice again"))
    assert "public_spending_target=16:36" in line and "suspension_years=16:5" in line
    assert "tokhang_cost=16:2" in line
    plan_json = json.loads((tmp_path / "tune.json").read_text())["plan"]
    assert plan_json["ruleset"] == {"suspension_years": 5}
    assert plan_json["ruleset_by_players"]["16"]["public_spending_target"] == 36
    bad = CliRunner().invoke(main, ["tune", "--rule", "suspension_years=forever"])
    assert bad.exit_code == 2 and "suspension_years" in bad.output
    # a span that leaves the rules at any count is refused before a game is played
    below = ["--players", "9,16", "--rule", "corruption_fund_target=16:3", "--fund-span", "5"]
    bad = CliRunner().invoke(main, ["tune", *below])
    assert bad.exit_code == 2 and "corruption_fund_target" in bad.output
    assert "candidates per player count" not in bad.output


def test_a_composition_is_searched_as_simulate_plays_it(tmp_path: Path) -> None:
    """--composition: every candidate deals the custom setup (R-03), and its games are
    simulate's with that composition, the candidate's rules and its seed."""
    args = ["tune", "--players", "9", "--fund-span", "0", "--spending-span", "0", "--first", "6"]
    args += ["--composition", "gp=2,cp=3,lawyer=1,omb=1,coa=1", "--workers", "1"]
    result = CliRunner().invoke(main, [*args, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "korapsyon simulate --composition gp=2,cp=3,lawyer=1,omb=1,coa=1 --rule" in result.output
    plan = json.loads((tmp_path / "tune.json").read_text())["plan"]
    assert plan["composition"] == {"good_politician": 2, "corrupt_politician": 3, "lawyer": 1,
                                   "ombudsperson": 1, "coa": 1}  # fmt: skip
    roles = parse_composition("gp=2,cp=3,lawyer=1,omb=1,coa=1")
    chosen = tune(Plan(players=(9,), fund_span=0, spending_span=0, first=6, composition=roles),
                  InlineExecutor()).chosen[9]  # fmt: skip
    config = SimConfig((9,), 6, "heuristic", chosen.ruleset, chosen.seed, roles)
    assert chosen.heuristic == simulate(config, workers=1)
    r02 = dataclasses.replace(config, composition=None)
    assert simulate(r02, workers=1) != chosen.heuristic  # (R-02's deal: other games)


def test_a_short_candidate_comes_after_every_long_enough_one() -> None:
    balanced = Candidate(13, Ruleset(corruption_fund_target=15), heuristic=_games(50, 100, 3))
    lopsided = Candidate(13, Ruleset(corruption_fund_target=25), heuristic=_games(80, 100, 7))
    assert balanced.years() == 3 and lopsided.years() == 7
    assert min([balanced, lopsided], key=Candidate.key) is balanced  # no floor
    balanced.min_years = lopsided.min_years = 5
    assert balanced.short() and not lopsided.short()
    assert min([balanced, lopsided], key=Candidate.key) is lopsided
    assert min([balanced, lopsided], key=Candidate.worse) is lopsided


def test_the_model_pools_the_candidates_games() -> None:
    # Good wins 30%..70% as the Fund target rises; one candidate had a lucky small sample
    rates = {17: 0.3, 18: 0.35, 19: 0.4, 20: 0.45, 21: 0.5, 22: 0.55, 23: 0.6, 24: 0.65, 25: 0.7}
    candidates = [
        Candidate(13, Ruleset(corruption_fund_target=cf), heuristic=_games(round(r * 200), 200))
        for cf, r in rates.items()
    ]
    candidates[0].heuristic = _games(10, 20)  # 17: 50% of 20 games, by luck
    fit(candidates)
    fitted = {c.ruleset.corruption_fund_target: c.fitted for c in candidates}
    assert fitted[21] == pytest.approx(0.5, abs=0.02)
    assert fitted[17] == pytest.approx(0.3, abs=0.06)  # not the lucky 50%
    assert min(candidates, key=Candidate.key).ruleset.corruption_fund_target == 21
