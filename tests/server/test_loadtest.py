"""`korapsyon loadtest` end to end: it starts a real server, plays rooms of simulated
players over WebSockets and reports what it measured (a small run; the figures themselves
are in docs/PERFORMANCE.md)."""

from __future__ import annotations

import itertools
import json

import pytest
from click.testing import CliRunner

from korapsyon.cli import main
from korapsyon.harness.loadtest import LoadResult


def test_loadtest_plays_rooms_replaces_finished_ones_and_reports_its_figures() -> None:
    result = CliRunner().invoke(
        main,
        ["loadtest", "--rooms", "2", "--seconds", "5", "--warmup", "1", "--think", "0.01",
         "--games", "1", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    figures = json.loads(lines[-1])
    assert figures["rooms"] == 2
    assert figures["connections"] == 2 * 14  # 13 players and the host in each room
    assert figures["errors"] == 0
    assert figures["actions_per_second"] > 0
    assert 0 < figures["p50_ms"] <= figures["p99_ms"]
    assert figures["memory_mb"] > 0
    assert figures["memory_peak_mb"] >= figures["memory_mb"]
    # Each finished room is replaced by a new one, so the offered load holds however long
    # the run (--games: it measures until one has finished, however slow the machine).
    assert figures["finished_games"] >= 1
    assert figures["server_cpu"] >= figures["server_kernel"] >= 0
    assert figures["server_cpu"] > 0
    # every action reaches at least its sender (the update carrying its ack)
    assert figures["frames_per_action"] >= 1
    assert figures["kb_per_action"] > 0
    assert any(line.startswith("latency (send -> every changed view received)") for line in lines)
    assert any(line.startswith("traffic: ") for line in lines)
    windows = figures["windows"]
    assert len(windows) == 6  # the run in sixths, back to back
    assert windows[0]["start_s"] == 0
    assert all(a["end_s"] == b["start_s"] for a, b in itertools.pairwise(windows))
    # the sixths cover the whole measurement: --seconds, or longer while --games waits for
    # a game to finish (a slow machine's run is longer, never shorter)
    assert figures["seconds"] >= 5
    assert abs(windows[-1]["end_s"] - figures["seconds"]) <= 0.1
    assert sum(w["actions_per_second"] for w in windows) / 6 == pytest.approx(
        figures["actions_per_second"], rel=0.02
    )
    assert "over the run:" in lines


def test_the_run_in_stretches_shows_a_tail_that_grows_as_it_goes() -> None:
    # 60 s measured: actions sent early are fast, late ones slow, the server busier
    sent_at = [second + 0.5 for second in range(60) for _ in range(100)]
    latencies = [5.0 if at < 30 else 80.0 for at in sent_at]
    result = LoadResult(
        rooms=1, connections=14, seconds=60.0, actions=len(sent_at), errors=0,
        latencies_ms=latencies, memory_samples=[(0.0, 100.0), (60.0, 100.0)],
        finished_games=0, setup_seconds=1.0, sent_at=sent_at,
        cpu_samples=[(float(t), 0.5 * t if t <= 30 else 15 + 0.9 * (t - 30)) for t in range(61)],
        client_cpu_samples=[(float(t), 0.4 * t) for t in range(61)],
    )  # fmt: skip
    windows = result.windows(parts=3)
    assert [(w.start, w.end) for w in windows] == [(0, 20), (20, 40), (40, 60)]
    assert [w.actions_per_second for w in windows] == [100, 100, 100]
    assert [w.p99_ms for w in windows] == [5.0, 80.0, 80.0]
    assert [round(w.server_cpu, 2) for w in windows] == [0.5, 0.7, 0.9]
    assert [round(w.client_cpu, 2) for w in windows] == [0.4, 0.4, 0.4]  # the generator kept up
    assert result.percentile(99) == 80.0  # the whole run's figure hides when it went wrong
    assert "over the run:" in result.report()


def test_a_latency_runs_to_the_later_of_its_ack_and_its_push_s_last_update() -> None:
    from korapsyon.harness.loadtest import _forget_pushes, _Room, _Stats

    stats = _Stats(started=100.0)
    room = _Room("ABCD", "host", {}, "http://127.0.0.1:1")
    room.pushes.update({7: 101.030, 8: 101.500})  # push seq -> its last update's arrival
    # sent at 101.000: acked at 101.010 in push 7, whose last update came at 101.030
    stats.pending.append((room.pushes, 7, 101.000, 101.010))
    # acked (alone) after push 8's last update
    stats.pending.append((room.pushes, 8, 101.400, 101.600))
    # an ack naming no push: its own arrival ends it
    stats.pending.append((room.pushes, -1, 101.700, 101.720))
    stats.settle(101.600)  # only what was acknowledged before this moment
    assert list(stats.latencies_ms) == pytest.approx([30.0])
    assert list(stats.sent_at) == pytest.approx([1.0])
    stats.settle(float("inf"))
    assert list(stats.latencies_ms) == pytest.approx([30.0, 200.0, 20.0])
    assert not stats.pending
    # push times are forgotten once older than the moment given, and only those
    _forget_pushes([room], 101.100)
    assert room.pushes == {8: 101.500}
