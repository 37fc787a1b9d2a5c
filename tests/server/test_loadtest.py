"""`korapsyon loadtest` end to end: it starts a real server, plays rooms of simulated
players over WebSockets and reports what it measured (a small run; the figures themselves
are in docs/PERFORMANCE.md)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from korapsyon.cli import main


def test_loadtest_plays_rooms_replaces_finished_ones_and_reports_its_figures() -> None:
    result = CliRunner().invoke(
        main,
        ["loadtest", "--rooms", "2", "--seconds", "5", "--warmup", "1", "--think", "0.01",
         "--json"],
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
    # Quick players finish games within seconds; each finished room is replaced by a new
    # one, so the offered load holds however long the run.
    assert figures["finished_games"] >= 1
    assert figures["server_cpu"] >= figures["server_kernel"] >= 0
    assert figures["server_cpu"] > 0
    # every action reaches at least its sender (the update carrying its ack)
    assert figures["frames_per_action"] >= 1
    assert figures["kb_per_action"] > 0
    assert any(line.startswith("latency (send -> every changed view received)") for line in lines)
    assert any(line.startswith("traffic: ") for line in lines)
