"""The balance simulator: deterministic for a seed whatever the number of workers, honest
statistics, and a command that writes its report, chart and records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from korapsyon.cli import main
from korapsyon.record import read_record, replay
from korapsyon.rules import Role
from korapsyon.sim import runner
from korapsyon.sim.runner import GameResult, SimConfig, parse_composition, parse_rules, simulate
from korapsyon.sim.stats import summarise, wilson


def test_a_run_is_the_same_on_one_worker_or_two() -> None:
    config = SimConfig(players=(9, 13), games=30, seed=7)
    one = simulate(config, workers=1)
    two = simulate(config, workers=2)
    assert one == two
    assert len(one) == 60
    assert [r.players for r in one] == [9] * 30 + [13] * 30


def test_one_worker_reports_each_chunk_before_it_plays_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On one worker (in this process) the progress bar moves chunk by chunk, an error
    stops the run where it happens and Ctrl-C stops it at once: each chunk of games is
    played only when the run reads it."""
    played: list[int] = []
    real = runner._play_chunk

    def chunk(games: runner.Games) -> list[GameResult]:
        played.append(games.start)
        return real(games)

    monkeypatch.setattr(runner, "_play_chunk", chunk)
    seen: list[int] = []
    config = SimConfig(players=(9,), games=2 * runner.CHUNK + 5, seed=1)
    simulate(config, workers=1, progress=lambda games: seen.append(len(played)))
    assert seen == [1, 2, 3]


def test_another_seed_gives_other_games() -> None:
    a = simulate(SimConfig(players=(13,), games=20, seed=1), workers=1)
    b = simulate(SimConfig(players=(13,), games=20, seed=2), workers=1)
    assert [r.seed for r in a] != [r.seed for r in b]
    assert [(r.winner, r.years) for r in a] != [(r.winner, r.years) for r in b]


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0


def _result(players: int, winner: str, reason: str, years: int, tokhang: int = 0) -> GameResult:
    return GameResult(players, 0, 0, winner, reason, years, tokhang, 0, 0, 0)


def test_summary_counts_win_reasons_length_and_abilities() -> None:
    stats = summarise(
        [
            _result(9, "good", "public_spending", 4),
            _result(9, "bad", "corruption_fund", 6, tokhang=1),
            _result(9, "bad", "good_purge", 5, tokhang=2),
            _result(9, "good", "corrupt_purge", 5),
        ]
    )[9]
    assert stats["games"] == 4
    assert stats["good_win_rate"] == 0.5
    assert stats["reasons"]["good_purge"] == 0.25
    assert stats["years_mean"] == 5.0 and stats["years_min"] == 4 and stats["years_max"] == 6
    assert stats["abilities"]["tokhang"] == {"per_game": 0.75, "games_with": 0.5}


def test_options_and_compositions_are_read_and_checked() -> None:
    ruleset, per_count = parse_rules(["auto_jail_mode=forced_vote", "max_years=9"])
    assert ruleset.max_years == 9 and per_count == ()
    ruleset, per_count = parse_rules(["max_years=9", "corruption_fund_target=12:19,16:27"])
    assert ruleset.corruption_fund_target is None
    assert [(n, r.corruption_fund_target, r.max_years) for n, r in per_count] == [
        (12, 19, 9),
        (16, 27, 9),
    ]
    with pytest.raises(ValueError, match="unknown_option"):
        parse_rules(["unknown_option=1"])
    roles = parse_composition("gp=2,cp=3,omb=1")
    assert roles == (
        (Role.GOOD_POLITICIAN, 2),
        (Role.CORRUPT_POLITICIAN, 3),
        (Role.OMBUDSPERSON, 1),
    )
    with pytest.raises(ValueError, match="R-03"):
        simulate(SimConfig(players=(9,), games=1, composition=((Role.GOOD_POLITICIAN, 1),)), 1)


def test_simulate_command_writes_report_chart_and_records(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(
        main,
        [
            "simulate",
            "--players",
            "9,13",
            "--games",
            "6",
            "--workers",
            "1",
            "--seed",
            "3",
            "--out",
            str(out),
            "--records",
            "--rule",
            "auto_jail_mode=forced_vote",
            "--rule",
            "corruption_fund_target=13:21",
        ],
    )
    assert result.exit_code == 0, result.output
    rows = [
        line.split()[0] for line in result.output.splitlines() if line.strip()[:2] in ("9 ", "13")
    ]
    assert rows == ["9", "13"]
    report = json.loads((out / "summary.json").read_text())
    assert report["config"]["ruleset"] == {"auto_jail_mode": "forced_vote"}
    assert set(report["by_players"]) == {"9", "13"}
    assert (out / "balance.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    records = sorted((out / "records").glob("*.json"))
    assert len(records) == 12
    game, stop = replay(read_record(records[0].read_bytes())[0])
    assert stop is None and game.outcome is not None
    targets = {
        r.name[:3]: read_record(r.read_bytes())[0].ruleset.corruption_fund_target for r in records
    }
    assert targets == {"9p-": None, "13p": 21}  # the per-count option reached its games


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "3"], "player counts run from 5 to 20"),
        (["--rule", "nonsense"], "key=value"),
        (["--rule", "max_years=0"], "max_years"),
        (["--composition", "cp=1"], "R-03"),
        (["--records"], "--records needs --out"),
    ],
)
def test_simulate_refuses_bad_options_clearly(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["simulate", "--games", "1", "--workers", "1", *args])
    assert result.exit_code == 2
    assert message in result.output
