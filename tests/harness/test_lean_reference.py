"""The lean reference replay (``korapsyon.harness.lean_replay``) is a fair yardstick for the
replay race: on the shared examples, on random legal records, on records with an action
that is probably illegal and on malformed ones, it prints byte for byte what
``korapsyon replay`` prints, and exits the same way."""

from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from korapsyon.harness import lean_replay
from korapsyon.record import RecordError, encode_json, record_of, replay_bytes, write_record
from korapsyon.rules import Game
from tests.randomgames import Setup, custom_setups, default_setups, mutants, rulesets

EXAMPLES = sorted(
    p
    for p in (Path(__file__).parents[1] / "data" / "examples").glob("*.json")
    if not p.name.endswith(".expected.json")
)


def korapsyon_output(data: bytes) -> tuple[str, bytes]:
    """What ``korapsyon replay`` decides for one record: its summary, or why it stopped."""
    try:
        summary, stop = replay_bytes(data)
    except RecordError as exc:
        return "error", str(exc).encode()
    if stop is not None:
        return "illegal", encode_json([stop.index, stop.reason])
    return "summary", encode_json(summary)


def lean_output(data: bytes) -> tuple[str, bytes]:
    try:
        summary, stop = lean_replay.replay(data)
    except lean_replay.Malformed as exc:
        return "error", str(exc).encode()
    if stop is not None:
        return "illegal", encode_json(list(stop))
    return "summary", encode_json(summary)


def both_print(paths: list[Path]) -> None:
    """The two commands' stdout, stderr and failure, compared byte for byte."""
    outputs = []
    for replay_files in (lean_replay.replay_files, _korapsyon_replay_files):
        out, err = io.BytesIO(), io.StringIO()
        failed = replay_files([str(p) for p in paths], out, err)
        outputs.append((out.getvalue(), err.getvalue(), failed))
    assert outputs[0] == outputs[1]


def _korapsyon_replay_files(paths: list[str], out: io.BytesIO, err: io.StringIO) -> bool:
    from korapsyon.record import replay_files

    return replay_files(paths, out, err)


def with_actions(game: Game, cut: float | None) -> bytes:
    record = record_of(game)
    if cut is not None:
        record.actions = record.actions[: int(len(record.actions) * cut)]
    return write_record(record)


# Rulesets with the record-format extensions drawn too (consent, fund check, costs...).
extended_rulesets = st.builds(
    lambda rules, suhol, tokhang, check, on_president, costs: msgspec.structs.replace(
        rules,
        suhol_consent=suhol,
        tokhang_consent=tokhang,
        suhol_fund_check=check,
        tokhang_on_president=on_president,
        auto_jail_cost=costs[0],
        tokhang_cost=costs[1],
    ),
    rulesets(max_years=st.integers(1, 50), suspension_years=st.integers(0, 4)),
    st.sampled_from(("unanimous", "majority")),
    st.sampled_from(("unanimous", "majority")),
    st.sampled_from(("after_steal", "before_steal")),
    st.booleans(),
    st.tuples(st.none() | st.integers(1, 12), st.none() | st.integers(1, 10)),
)
setups = default_setups(extended_rulesets) | custom_setups(extended_rulesets)


def test_the_examples_print_the_same() -> None:
    assert len(EXAMPLES) >= 5
    both_print(EXAMPLES)
    for path in EXAMPLES:
        both_print([path])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(setup=setups, cut=st.none() | st.floats(0.0, 1.0))
def test_random_legal_records_replay_the_same(setup: Setup, cut: float | None) -> None:
    data = with_actions(setup.play(), cut)
    kind, output = korapsyon_output(data)
    assert kind == "summary"
    assert lean_output(data) == (kind, output)


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(setup=setups, cut=st.floats(0.0, 1.0), salt=st.integers(0, 2**32 - 1))
def test_records_with_a_probably_illegal_action_replay_the_same(
    setup: Setup, cut: float, salt: int
) -> None:
    """A random game cut short, then one action near the legal ones (another player, a
    wrong step or field, an inactive player...): the same refusal, or the same summary."""
    game = setup.play()
    record = record_of(game)
    keep = int(len(record.actions) * cut)
    record.actions = record.actions[:keep]
    prefix = Game(
        record.players, roles=record.roles, seed=record.seed, ruleset=record.ruleset,
        decks=None if record.decks is None else (record.decks.small, record.decks.large),
    )  # fmt: skip
    for action in record.actions:
        prefix.push(action)
    if prefix.outcome is not None:
        return
    mutant = next(mutants(prefix, random.Random(salt), 1))
    record.actions.append(mutant)
    data = write_record(record)
    assert lean_output(data) == korapsyon_output(data)


MALFORMED = [
    b"",
    b"not json",
    b'{"format": "korapsyon-record/1", "players": ["Ana"',
    b"[]",
    b"{}",
    b'{"format": "korapsyon-record/2", "players": []}',
    b'{"format": "korapsyon-record/1", "players": "Ana"}',
    b'{"format": "korapsyon-record/1", "players": ["Ana", 3]}',
    b'{"format": "korapsyon-record/1", "players": ["A", "B", "C"]}',
    b'{"format": "korapsyon-record/1", "players": ["A", "A"], "roles": ["coa", "coa"]}',
    b'{"format": "korapsyon-record/1", "players": ["@host"]}',
    b'{"format": "korapsyon-record/1", "players": ["A"], "roles": ["king"]}',
    b'{"format": "korapsyon-record/1", "players": ["A"], "seed": "x"}',
    b'{"format": "korapsyon-record/1", "players": ["A"], "ruleset": {"max_years": 0}}',
    b'{"format": "korapsyon-record/1", "players": ["A"], "ruleset": {"what": 1}}',
    b'{"format": "korapsyon-record/1", "players": ["A"], "decks": {"small": []}}',
    b'{"format": "korapsyon-record/1", "players": ["A"], "actions": {}}',
]


def test_malformed_records_are_refused_the_same() -> None:
    for data in MALFORMED:
        assert lean_output(data) == korapsyon_output(data), data


def test_malformed_actions_are_refused_the_same() -> None:
    """An action that cannot be read stops the replay at its index, with msgspec's words
    and the rule of the step that was waiting for it."""
    setup = Setup(players=13, seed=7)
    record = record_of(setup.play())
    for index, bad in enumerate(
        [
            3,
            {"player": "Ana"},
            {"action": "dance", "player": "Ana"},
            {"action": None, "player": "Ana"},
            {"action": "protect"},
            {"action": "corrupt", "player": "Ana", "nakaw": 1, "suhol": True},
            {"action": "pick_committee", "player": "Ana", "members": ["Ben", 2]},
            {"action": "claim", "player": "Ana", "claim": "role", "role": "king"},
            {"action": "ready", "player": "Ana", "auto": None},
        ]
    ):
        raw = msgspec.to_builtins(record)
        raw["actions"].insert(index * 7, bad)
        data = msgspec.json.encode(raw)
        kind, _ = korapsyon_output(data)
        assert kind == "illegal"
        assert lean_output(data) == korapsyon_output(data), bad


def test_the_commands_print_and_exit_the_same(tmp_path: Path) -> None:
    """As processes: the same bytes on stdout and stderr, the same exit code, for records
    that replay, one refused and one unreadable file."""
    paths = [str(p) for p in EXAMPLES]
    paths.append(str(tmp_path / "missing.json"))
    runs = [
        subprocess.run([sys.executable, "-m", *command, *paths], capture_output=True, check=False)
        for command in (["korapsyon", "replay"], ["korapsyon.harness.lean_replay"])
    ]
    assert runs[0].returncode == runs[1].returncode == 2
    assert runs[0].stdout == runs[1].stdout
    assert runs[0].stderr == runs[1].stderr
