"""The game record (GAME_RECORD.md, format ``korapsyon-record/1``): the reader, the writer
and the ``korapsyon replay`` command line contract."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from korapsyon.cli import main
from korapsyon.record import (
    RecordError,
    read_record,
    record_of,
    replay,
    replay_bytes,
    summarize,
    write_record,
)
from korapsyon.rules import Game, MalformedError, Ruleset
from korapsyon.rules.actions import Corrupt, JailVote, Protect, Ready, action_from_wire
from tests.scenario import NAMES, STEAL, corrupt, everyone, jail_vote, table, until_jail_vote

EXAMPLES = Path(__file__).parents[1] / "data" / "examples"
GOOD = ["steal-and-suhol", "protection-blocks", "president-double-vote", "tokhang-good-purge"]
ILLEGAL = "consecutive-protect-refused"

SUMMARY_KEYS = [
    "status",
    "winner",
    "reason",
    "year",
    "step",
    "public_spending",
    "corruption_fund",
    "kaban",
    "kaban_public",
    "president",
    "players",
    "years",
]
PLAYER_KEYS = ["name", "role", "strikes", "status", "returns_year"]
YEAR_KEYS = [
    "year",
    "public_spending",
    "corruption_fund",
    "kaban",
    "treasury_decrease",
    "project",
    "project_succeeded",
    "jailed",
    "eliminated",
]


def example(name: str) -> Path:
    return EXAMPLES / f"{name}.json"


def expected(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / f"{name}.expected.json").read_bytes())
    return data


def run(*paths: Path) -> Result:
    return CliRunner().invoke(main, ["replay", *map(str, paths)])


def variant(tmp_path: Path, name: str, change: Callable[[dict[str, Any]], object]) -> Path:
    """A copy of the steal-and-suhol record changed by ``change`` (in place)."""
    data = json.loads(example("steal-and-suhol").read_bytes())
    change(data)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data))
    return path


# ---------------------------------------------------------------- one record
@pytest.mark.parametrize("name", GOOD)
def test_record_one_record_prints_one_json_summary_with_the_documented_keys(name: str) -> None:
    result = run(example(name))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    summary = json.loads(result.stdout)  # one JSON document
    assert list(summary) == SUMMARY_KEYS
    assert all(list(p) == PLAYER_KEYS for p in summary["players"])
    assert all(list(y) == YEAR_KEYS for y in summary["years"])
    assert summary == expected(name)


def test_record_summary_values_have_the_documented_domains() -> None:
    for name in GOOD:
        summary = json.loads(run(example(name)).stdout)
        assert summary["status"] in ("finished", "in_progress")
        assert summary["winner"] in ("good", "bad", "draw", None)
        assert summary["reason"] in (
            "corrupt_purge",
            "public_spending",
            "good_purge",
            "corruption_fund",
            "safety_stop",
            None,
        )
        assert (summary["step"] is None) is (summary["status"] == "finished")
        for player in summary["players"]:
            assert player["status"] in ("active", "suspended", "eliminated")
            assert (player["returns_year"] is not None) is (player["status"] == "suspended")


def test_record_an_illegal_action_exits_2_with_one_stderr_line_naming_the_index() -> None:
    result = run(example(ILLEGAL))
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert "index 62" in lines[0]
    assert "R-21" in lines[0] and "consecutive_protect" in lines[0]


# ---------------------------------------------------------------- several records
def test_record_several_records_print_json_lines_in_order() -> None:
    names = [GOOD[1], GOOD[0], GOOD[3]]
    result = run(*map(example, names))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    for line, name in zip(lines, names, strict=True):
        assert json.loads(line) == expected(name)
        assert list(json.loads(line)) == SUMMARY_KEYS
        assert "\n" not in line and ": " not in line  # compact


def test_record_a_stopped_record_prints_its_illegal_line_and_the_others_still_run() -> None:
    result = run(example(GOOD[0]), example(ILLEGAL), example(GOOD[1]))
    assert result.exit_code == 2
    first, stopped, last = (json.loads(line) for line in result.stdout.splitlines())
    assert first == expected(GOOD[0])
    assert last == expected(GOOD[1])
    assert list(stopped) == ["illegal"]
    assert list(stopped["illegal"]) == ["index", "reason"]
    assert stopped["illegal"]["index"] == 62
    assert "R-21" in stopped["illegal"]["reason"]


# ---------------------------------------------------------------- malformed records
MALFORMED: dict[str, Callable[[dict[str, Any]], object]] = {
    "wrong-format": lambda d: d.update(format="korapsyon-record/2"),
    "duplicate-names": lambda d: d["players"].__setitem__(1, "Ana"),
    "long-name": lambda d: d["players"].__setitem__(1, "B" * 25),
    "unknown-role": lambda d: d["roles"].__setitem__(0, "king"),
    "roles-breaking-r03": lambda d: d["roles"].__setitem__(0, "corrupt_politician"),
    "bad-deck": lambda d: d["decks"]["small"].__setitem__(0, "S9"),
    "short-deck": lambda d: d["decks"]["large"].pop(),
    "unknown-ruleset-key": lambda d: d["ruleset"].update(foo=1),
    "bad-ruleset-value": lambda d: d["ruleset"].update(auto_jail_mode="sometimes"),
    "seed-not-int": lambda d: d.update(seed="x"),
    "no-players": lambda d: d.pop("players"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_record_malformed_records_give_a_clear_error_and_exit_2(tmp_path: Path, case: str) -> None:
    path = variant(tmp_path, case, MALFORMED[case])
    with pytest.raises(RecordError) as info:
        replay_bytes(path.read_bytes())
    assert str(info.value)
    result = run(path)
    assert result.exit_code == 2
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"{path}: ")
    assert str(info.value) in line


def test_record_a_file_that_is_not_json_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "korapsyon-record/1", "players": [')
    with pytest.raises(RecordError, match="not a JSON"):
        replay_bytes(path.read_bytes())
    result = run(path)
    assert result.exit_code == 2
    assert "not a JSON game record" in result.stderr


def test_record_a_missing_file_exits_2(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    result = run(missing)
    assert result.exit_code == 2
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert str(missing) in line


def test_record_a_malformed_record_among_several_does_not_stop_the_others(
    tmp_path: Path,
) -> None:
    bad = variant(tmp_path, "bad", MALFORMED["unknown-ruleset-key"])
    result = run(example(GOOD[0]), bad, example(GOOD[1]))
    assert result.exit_code == 2
    first, error, last = (json.loads(line) for line in result.stdout.splitlines())
    assert (first, last) == (expected(GOOD[0]), expected(GOOD[1]))
    assert "ruleset" in error["error"] and "foo" in error["error"]


def test_record_a_wrongly_typed_action_field_stops_the_replay_at_its_index(
    tmp_path: Path,
) -> None:
    path = variant(tmp_path, "typed", lambda d: d["actions"][3].update(nakaw="yes"))
    summary, stop = replay_bytes(path.read_bytes())
    assert summary is None and stop is not None
    assert stop.index == 3
    assert "nakaw" in stop.reason
    result = run(path)
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert "index 3" in line and "nakaw" in line


def test_record_an_unknown_action_kind_stops_the_replay_at_its_index(tmp_path: Path) -> None:
    path = variant(
        tmp_path, "kind", lambda d: d["actions"].insert(5, {"player": "Eli", "action": "fly"})
    )
    _, stop = replay_bytes(path.read_bytes())
    assert stop is not None and stop.index == 5


def test_record_unknown_top_level_keys_are_ignored(tmp_path: Path) -> None:
    path = variant(tmp_path, "extra", lambda d: d.update(comment="hi", expect_illegal=None))
    result = run(path)
    assert result.exit_code == 0
    assert json.loads(result.stdout) == expected("steal-and-suhol")


def test_record_optional_fields_take_their_defaults(tmp_path: Path) -> None:
    record = {
        "format": "korapsyon-record/1",
        "players": NAMES,
        "actions": [],
    }
    path = tmp_path / "minimal.json"
    path.write_text(json.dumps(record))
    summary = json.loads(run(path).stdout)
    seeded = Game(NAMES, seed=0, ruleset=Ruleset())
    assert summary == summarize(seeded)
    assert [p["role"] for p in summary["players"]] == [r.value for r in seeded.roles]
    assert (summary["year"], summary["step"], summary["kaban"]) == (1, "hidden", 50)


# ---------------------------------------------------------------- write and read back
def _played(game: Game) -> Game:
    until_jail_vote(game, Eli="Ana", Fe="Cris", **STEAL)
    jail_vote(game, everyone(game, "Hugo"))
    until_jail_vote(game, Cris=corrupt(suhol=True), Dani=corrupt(suhol=True))
    return game


@pytest.mark.parametrize("how", ["fixed", "seeded"])
def test_record_written_record_reads_back_and_replays_to_the_same_summary(
    tmp_path: Path, how: str
) -> None:
    if how == "fixed":
        game = _played(table(auto_jail_mode="forced_vote", kaban_start=40))
    else:  # the deal and the decks come from the seed
        game = Game(NAMES, seed=99, ruleset=Ruleset(lawyer_consecutive="allowed"))
        while game.year < 3:
            for seat in sorted(game.waiting_for) or [-1]:
                who = "@host" if seat < 0 else game.players[seat]
                game.apply(game.default_action(who))
    data = write_record(record_of(game))
    record, bad = read_record(data)
    assert bad is None
    replayed, stop = replay(record)
    assert stop is None
    assert summarize(replayed) == summarize(game)
    assert replayed.events == game.events
    path = tmp_path / "saved.json"
    path.write_bytes(data)
    result = run(path)
    assert result.exit_code == 0
    assert json.loads(result.stdout) == summarize(game)
    compact = write_record(record_of(game), indent=0)
    assert b"\n" not in compact
    assert read_record(compact)[0] == record


def test_record_written_record_has_the_documented_shape() -> None:
    game = _played(table())
    data = json.loads(write_record(record_of(game)))
    assert data["format"] == "korapsyon-record/1"
    assert data["players"] == NAMES
    assert data["roles"][:3] == ["good_politician", "good_politician", "corrupt_politician"]
    assert data["decks"]["small"][0] == "S3"
    assert data["actions"][0] == {"player": "Ana", "action": "auto_jail", "target": None}
    assert {"player": "@host", "action": "end_discussion"} in data["actions"]
    assert len(data["actions"]) == len(game.actions)


@pytest.mark.parametrize(
    ("build", "field"),
    [
        (lambda: Protect(player=1, target=2), "$.player"),  # type: ignore[arg-type]
        (lambda: Protect(player="Ana", target=2), "$.target"),  # type: ignore[arg-type]
        (lambda: Ready(player="Ana", auto=1), "$.auto"),  # type: ignore[arg-type]
        (lambda: Corrupt(player="Ana", nakaw=1, suhol=False, tokhang=None), "$.nakaw"),  # type: ignore[arg-type]
        (lambda: JailVote(player="Ana", target=("Ben",)), "$.target"),  # type: ignore[arg-type]
    ],
)
def test_record_an_action_is_checked_when_built(build: Callable[[], object], field: str) -> None:
    """An action built in code has the shape its record form would need, from the start;
    what depends on the game (who may act, which targets) is the game's to check."""
    with pytest.raises(TypeError, match=re.escape(field)):
        build()
    assert action_from_wire({"action": "protect", "player": "Ana"}) == Protect("Ana", None)
    with pytest.raises(MalformedError, match=r"malformed action: Expected `str`, got `int`"):
        action_from_wire({"action": "protect", "player": 1})
