"""The strength ladder: the Bradley-Terry fit recovers known strengths, the verdict reads
the intervals as issue #20 does, a small real ladder runs end to end the same way every
time (and resumes from its results file), and bad options are refused clearly."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from korapsyon.cli import main
from korapsyon.sim.ladder import ELO, LadderConfig, Played, Tally, fit, run, verdicts

KINDS = ("random", "heuristic", "search")
HOME = 0.3
GOOD = {"random": -1.5, "heuristic": 0.0, "search": 1.2}  # log-odds, heuristic the anchor
CORRUPT = {"random": -2.0, "heuristic": 0.0, "search": 0.7}


def _p(good: str, bad: str) -> float:
    return 1 / (1 + math.exp(-(HOME + GOOD[good] - CORRUPT[bad])))


def test_the_fit_recovers_known_strengths_from_exact_results() -> None:
    n = 1_000_000  # so large that the virtual draw and rounding change nothing visible
    tallies = {(g, b): Tally(n, round(n * _p(g, b)), 0) for g in KINDS for b in KINDS}
    model = fit(tallies, KINDS)
    assert model.anchor == "heuristic"
    assert model.home.elo == pytest.approx(ELO * HOME, abs=0.5)
    for kind in KINDS:
        good, corrupt = model.good[kind], model.corrupt[kind]
        assert good is not None and corrupt is not None
        assert good.elo == pytest.approx(ELO * GOOD[kind], abs=0.5)
        assert corrupt.elo == pytest.approx(ELO * CORRUPT[kind], abs=0.5)
        assert good.low <= good.elo <= good.high
    for (g, b), expected in model.expected.items():
        assert expected == pytest.approx(_p(g, b), abs=1e-4)


def test_the_intervals_cover_the_truth_and_narrow_with_more_games() -> None:
    rng = np.random.default_rng(20)
    widths = []
    misses = 0
    for n in (400, 1600):
        for _ in range(20):
            tallies = {
                (g, b): Tally(n, int(rng.binomial(n, _p(g, b))), 0) for g in KINDS for b in KINDS
            }
            rating = fit(tallies, KINDS).corrupt["search"]
            assert rating is not None
            misses += not rating.low <= ELO * CORRUPT["search"] <= rating.high
            widths.append(rating.high - rating.low)
    assert misses <= 6  # 95% intervals: about 2 misses in 40
    assert np.mean(widths[20:]) == pytest.approx(np.mean(widths[:20]) / 2, rel=0.15)


def test_a_pairing_won_every_time_still_has_finite_ratings() -> None:
    tallies = {
        ("heuristic", "heuristic"): Tally(10, 5, 0),
        ("heuristic", "random"): Tally(10, 10, 0),
        ("random", "heuristic"): Tally(10, 0, 0),
        ("random", "random"): Tally(10, 3, 1),
    }
    model = fit(tallies, ("random", "heuristic"))
    random_good = model.good["random"]
    assert random_good is not None
    assert math.isfinite(random_good.low) and random_good.elo < 0


def test_pairings_that_cannot_rate_every_kind_are_an_error() -> None:
    tallies = {("heuristic", "heuristic"): Tally(10, 5, 0), ("search", "random"): Tally(10, 5, 0)}
    with pytest.raises(ValueError, match="do not determine every rating"):
        fit(tallies, KINDS)


def _games(good: str, bad: str, good_wins: int, n: int) -> list[Played]:
    return [
        Played(good, bad, 13, 0, i, "good" if i < good_wins else "bad", "x", 3) for i in range(n)
    ]


def test_the_verdict_needs_the_interval_8_points_above_the_mirror_match() -> None:
    results = {
        ("heuristic", "heuristic"): _games("heuristic", "heuristic", 180, 400),  # Good 45%
        ("search", "heuristic"): _games("search", "heuristic", 160, 200),  # Good 80%
        ("heuristic", "search"): _games("heuristic", "search", 132, 400),  # Corrupt 67%
    }
    good, corrupt = verdicts(results)
    assert (good.side, good.rate, good.met, good.strict) == ("good", 0.8, True, True)
    assert corrupt.side == "corrupt" and corrupt.rate == pytest.approx(0.67)
    assert corrupt.mirror_rate == pytest.approx(0.55)
    assert corrupt.low < 0.55 + 0.08 and not corrupt.met  # 12 points up, but not outside
    # on the same deals search's team wins every deal the mirror's Corrupt won, and 48 more
    # of the 400: +12 points, an interval of about +/-3 points, so above +8
    assert corrupt.paired_games == 400
    assert corrupt.paired == pytest.approx(0.12)
    assert corrupt.paired_low == pytest.approx(0.12 - 1.96 * math.sqrt(0.12 * 0.88 / 399), abs=1e-3)
    assert corrupt.paired_met


def _ladder(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(
        main, ["ladder", "--players", "9", "--kinds", "random,heuristic", "--json", *args]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    del data["seconds"]
    assert isinstance(data, dict)
    return data


def test_a_small_ladder_runs_end_to_end_and_is_the_same_for_a_seed(tmp_path: Path) -> None:
    saved = tmp_path / "games.jsonl"
    first = _ladder("--games", "4", "--seed", "3", "--workers", "1", "--results", str(saved))
    pairings = first["pairings"]
    assert isinstance(pairings, list)
    assert [(r["good"], r["bad"], r["games"]) for r in pairings] == [
        ("random", "random", 4),
        ("random", "heuristic", 4),
        ("heuristic", "random", 4),
        ("heuristic", "heuristic", 4),
    ]
    assert len(saved.read_text().splitlines()) == 16
    assert _ladder("--games", "4", "--seed", "3", "--workers", "2") == first
    # read back from the file, nothing played again; another seed gives other games
    assert _ladder("--games", "4", "--seed", "3", "--results", str(saved)) == first
    assert len(saved.read_text().splitlines()) == 16
    other = _ladder("--games", "4", "--seed", "4", "--workers", "1")
    assert other["pairings"] != first["pairings"]


def test_a_pairing_can_have_its_own_number_of_games() -> None:
    data = _ladder("--games", "2", "--games-for", "heuristic:heuristic=5", "--workers", "1")
    games = {(r["good"], r["bad"]): r["games"] for r in data["pairings"]}  # type: ignore[attr-defined]
    assert games[("heuristic", "heuristic")] == 5 and games[("random", "random")] == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kinds", "random,bogus"], "unknown bot kind 'bogus'"),
        (["--kinds", "heuristic"], "two or more different kinds"),
        (["--kinds", "heuristic,heuristic"], "two or more different kinds"),
        (["--games-for", "heuristic:search=3"], "'heuristic:search' is not a pairing"),
        (["--games-for", "heuristic:random"], "GOOD:BAD=N"),
        (["--games-for", "heuristic:random=-1"], "0 or more"),
        (["--players", "30"], "30"),
        (["--rule", "max_years"], "key=value"),
    ],
)
def test_bad_options_are_refused_clearly(args: list[str], message: str) -> None:
    result = CliRunner().invoke(
        main, ["ladder", "--kinds", "random,heuristic", "--games", "1", *args]
    )
    assert result.exit_code == 2
    assert message in result.output


def test_a_results_file_that_is_not_ladder_games_is_refused(tmp_path: Path) -> None:
    saved = tmp_path / "games.jsonl"
    saved.write_text('{"good": "heuristic"}\n')
    result = CliRunner().invoke(
        main, ["ladder", "--kinds", "random,heuristic", "--games", "1", "--results", str(saved)]
    )
    assert result.exit_code == 1
    assert "games.jsonl:1: not a ladder game" in result.output


def test_the_config_rejects_what_the_command_would() -> None:
    with pytest.raises(ValueError, match="from 5 to 20"):
        LadderConfig(players=4)


def test_a_resumed_ladder_counts_the_games_it_read_back_as_done(tmp_path: Path) -> None:
    """The progress bar of a ladder resumed from its results file starts at the games
    already there and ends at the whole ladder (it stopped short by those games)."""
    saved = tmp_path / "games.jsonl"
    config = LadderConfig(13, ("random", "heuristic"), 3, 5)
    run(LadderConfig(13, ("random", "heuristic"), 2, 5), results=saved)
    steps: list[int] = []
    run(config, progress=steps.append, results=saved)
    assert steps[0] == 4 * 2 and sum(steps) == 4 * 3


def test_a_ladder_under_other_rules_plays_its_own_games(tmp_path: Path) -> None:
    """``--rule`` sets the rules of every game, as in simulate, and a results file keeps
    games of different rules apart: the default rules' games are not read back as the
    changed rules' games, nor the other way round."""
    saved = tmp_path / "games.jsonl"
    default = _ladder("--games", "6", "--seed", "3", "--workers", "1", "--results", str(saved))
    rule = ("--rule", "public_spending_target=9:4")  # a race two projects win
    short = _ladder("--games", "6", "--seed", "3", "--results", str(saved), *rule)
    assert short["rules"] == ["public_spending_target=9:4"] and default["rules"] == []
    assert len(saved.read_text().splitlines()) == 2 * 4 * 6  # nothing read across rules
    assert short["pairings"] != default["pairings"]
    again = _ladder("--games", "6", "--seed", "3", "--workers", "2", *rule)
    assert again == short
    # the default rules read back their own games only: nothing is played or appended
    assert _ladder("--games", "6", "--seed", "3", "--results", str(saved)) == default
    assert len(saved.read_text().splitlines()) == 2 * 4 * 6
    played = [json.loads(line) for line in saved.read_text().splitlines()]
    assert {g["rules"] for g in played} == {"", '{"public_spending_target": 4}'}
