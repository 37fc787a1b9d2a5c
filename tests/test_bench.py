"""Speed benchmarks (pytest-benchmark). The normal test run executes each once, as a
check that the measured code works; to measure, run

    .venv/bin/pytest tests/test_bench.py --benchmark-enable

and read the printed table (docs/PERFORMANCE.md records the figures)."""

from __future__ import annotations

import random

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from korapsyon.harness.bench import records_for_bench
from korapsyon.record import replay_bytes
from korapsyon.rules import Game
from korapsyon.selfplay import play_random, table


@pytest.fixture(scope="module")
def records() -> list[bytes]:
    return [data for data, _ in records_for_bench(13, 20)]


def test_bench_replay_20_records(benchmark: BenchmarkFixture, records: list[bytes]) -> None:
    def run() -> int:
        finished = 0
        for data in records:
            summary, stop = replay_bytes(data)
            assert stop is None and summary is not None
            finished += summary["status"] == "finished"
        return finished

    assert benchmark(run) == len(records)


def test_bench_random_game_13_players(benchmark: BenchmarkFixture) -> None:
    def run() -> Game:
        return play_random(Game(table(13), seed=3), random.Random(3))

    game = benchmark(run)
    assert game.outcome is not None
