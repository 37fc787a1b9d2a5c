"""The hand-checked records of the shared examples replay to their expected summaries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from korapsyon.record import read_record, replay, summarize

EXAMPLES = Path(__file__).parent / "data" / "examples"
RECORDS = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))


def test_the_examples_are_present() -> None:
    assert len(RECORDS) >= 5


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_example_record(path: Path) -> None:
    raw = json.loads(path.read_bytes())
    record, bad = read_record(path.read_bytes())
    assert bad is None
    game, stop = replay(record)
    if "expect_illegal" in raw:
        expected = raw["expect_illegal"]
        assert stop is not None, "the record should be refused"
        assert stop.index == expected["index"]
        assert stop.code == expected["kind"]
        assert "R-21" in stop.reason
        # the refused action changed nothing: the game waits at the same step
        assert len(game.actions) == expected["index"]
    else:
        assert stop is None, stop
        expected_summary = json.loads(path.with_name(path.stem + ".expected.json").read_bytes())
        assert summarize(game) == expected_summary
