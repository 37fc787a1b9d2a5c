"""``korapsyon analyse``: Year by Year beliefs from any record, the public's or one
player's; illegal and malformed records are clear errors."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from korapsyon.bots import play, seat_agents
from korapsyon.cli import main
from korapsyon.record import read_record, record_of, replay, write_record
from korapsyon.rules import Game, Role
from korapsyon.selfplay import table

EXAMPLES = Path(__file__).parent / "data" / "examples"
RECORDS = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_every_example_is_analysed_up_to_where_it_is_legal(path: Path) -> None:
    done = CliRunner().invoke(main, ["analyse", "--json", str(path)])
    record, bad = read_record(path.read_bytes())
    game, stop = replay(record, bad)
    result = json.loads(done.stdout)
    if stop is not None:  # analysed up to the illegal action, which is told
        assert done.exit_code == 2
        assert f"illegal action at index {stop.index}" in done.stderr
        assert result["stopped"] == {"index": stop.index, "reason": stop.reason}
    else:
        assert done.exit_code == 0, done.output
        assert "stopped" not in result
    assert next(iter(result)) == "years"
    assert [y["year"] for y in result["years"]] == list(range(1, game.year + 1))
    for year in result["years"]:
        assert list(year["corrupt"]) == list(game.players)
        assert all(0.0 <= p <= 1.0 for p in year["corrupt"].values())
        assert sum(year["corrupt"].values()) == pytest.approx(
            game.roles.count("corrupt_politician"), abs=0.02
        )


def test_a_players_view_knows_its_own_role() -> None:
    path = EXAMPLES / "tokhang-good-purge.json"
    record, _ = read_record(path.read_bytes())
    game, _ = replay(record)
    runner = CliRunner()
    for seat, name in enumerate(game.players):
        done = runner.invoke(main, ["analyse", "--json", "--as", name, str(path)])
        assert done.exit_code == 0, done.output
        result = json.loads(done.stdout)
        assert result["view"] == name
        corrupt = game.roles[seat] == "corrupt_politician"
        assert all(y["corrupt"][name] == (1.0 if corrupt else 0.0) for y in result["years"])


def test_the_public_analysis_finds_the_purge_and_prints_a_table() -> None:
    path = EXAMPLES / "tokhang-good-purge.json"
    done = CliRunner().invoke(main, ["analyse", "--json", str(path)])
    moments = json.loads(done.stdout)["moments"]
    assert any(m["player"] == "Cris" and m["kind"] == "exposed" for m in moments)
    text = CliRunner().invoke(main, ["analyse", str(path)])
    assert text.exit_code == 0
    assert "Y4" in text.stdout and "Decisive moments:" in text.stdout
    # in words, as the end screens say it (not the events' kinds), naming whose event it
    # was (Ben's elimination revealed his role)
    assert "took Cris (Corrupt Politician) from" in text.stdout  # (what exposed her: in words)
    assert "player_eliminated" not in text.stdout and "corrupt_politician" not in text.stdout


def test_an_illegal_record_is_analysed_up_to_the_illegal_action() -> None:
    path = EXAMPLES / "consecutive-protect-refused.json"
    done = CliRunner().invoke(main, ["analyse", str(path)])
    assert done.exit_code == 2
    assert "illegal action at index 62: R-21" in done.stderr
    assert "Y2" in done.stdout and "stops at an illegal action (index 62)" in done.stdout


def test_unfinished_records_stop_where_they_stop(tmp_path: Path) -> None:
    data = json.loads((EXAMPLES / "tokhang-good-purge.json").read_text())
    data["actions"] = data["actions"][: len(data["actions"]) // 2]
    path = tmp_path / "half.json"
    path.write_text(json.dumps(data))
    done = CliRunner().invoke(main, ["analyse", "--json", str(path)])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["years"]


def test_bad_input_is_a_clear_error(tmp_path: Path) -> None:
    runner = CliRunner()
    summary = EXAMPLES / "steal-and-suhol.expected.json"  # a replay summary, not a record
    done = runner.invoke(main, ["analyse", str(summary)])
    assert done.exit_code == 2 and "malformed record" in done.stderr
    done = runner.invoke(main, ["analyse", str(tmp_path / "missing.json")])
    assert done.exit_code == 2 and "cannot read" in done.stderr
    done = runner.invoke(
        main, ["analyse", "--as", "Nobody", str(EXAMPLES / "steal-and-suhol.json")]
    )
    assert done.exit_code != 0 and "not a player" in done.output
    assert runner.invoke(main, ["analyse"]).exit_code != 0


def test_calibration_command_prints_the_reliability_table() -> None:
    done = CliRunner().invoke(main, ["analyse", "--calibrate", "--games", "3", "--players", "9"])
    assert done.exit_code == 0, done.output
    assert "| belief P(Corrupt) |" in done.stdout and "Brier" in done.stdout


def test_fit_command_measures_the_models_rates() -> None:
    done = CliRunner().invoke(main, ["analyse", "--fit", "--games", "3", "--players", "9"])
    assert done.exit_code == 0, done.output
    assert "| steal_first (no steal yet) | 0.95 |" in done.stdout


@pytest.mark.parametrize("seed", range(4))
def test_heuristic_games_moments_agree_with_the_truth(tmp_path: Path, seed: int) -> None:
    game = Game(table(13), seed=seed)
    play(game, seat_agents(game, "heuristic", seed), random.Random(seed))
    path = tmp_path / "game.json"
    path.write_bytes(write_record(record_of(game)))
    done = CliRunner().invoke(main, ["analyse", "--json", str(path)])
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    roles = dict(zip(game.players, game.roles, strict=True))
    assert [y["year"] for y in result["years"]] == list(range(1, game.year + 1))
    for moment in result["moments"]:
        assert moment["role"] == roles[moment["player"]]
        if moment["kind"] in ("jailed", "eliminated"):
            caught = moment["verdict"] == "corrupt_caught"
            assert caught == (roles[moment["player"]] is Role.CORRUPT_POLITICIAN)
            if moment["verdict"] == "good_removed_against_evidence":
                assert moment["most_suspected_corrupt"] >= moment["corrupt"] + 0.2 - 1e-3
        else:
            assert abs(moment["after"] - moment["before"]) >= 0.25 - 1e-3
    # a removal's verdict is the table's in a player's own view too (what the table knew)
    removals = [m for m in result["moments"] if m["kind"] in ("jailed", "eliminated")]
    for name in (game.players[seed], game.players[-1 - seed]):
        mine = CliRunner().invoke(main, ["analyse", "--json", "--as", name, str(path)])
        theirs = json.loads(mine.stdout)["moments"]
        assert [m for m in theirs if m["kind"] in ("jailed", "eliminated")] == removals, name
