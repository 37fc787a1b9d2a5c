"""The simulator on a Dask distributed cluster: the same games, results and order as a
local run of the same seed (a local cluster of two worker processes, started and closed
by the test)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from korapsyon.cli import main
from korapsyon.sim.runner import SimConfig, parse_rules, simulate

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as local:
        yield local.scheduler_address


def test_a_cluster_run_equals_the_local_run(cluster: str) -> None:
    ruleset, per_count = parse_rules(["corruption_fund_target=13:21"])
    config = SimConfig(players=(9, 13), games=30, seed=11, ruleset=ruleset, per_count=per_count)
    local = simulate(config, workers=1)
    remote = simulate(config, cluster=cluster)
    assert remote == local
    assert [(r.players, r.index) for r in remote] == [(9, i) for i in range(30)] + [
        (13, i) for i in range(30)
    ]


def test_the_command_prints_the_same_table_on_a_cluster(cluster: str) -> None:
    args = ["simulate", "--players", "10", "--games", "26", "--seed", "4"]
    local = CliRunner().invoke(main, [*args, "--workers", "1"])
    remote = CliRunner().invoke(main, [*args, "--cluster", cluster])
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    table = [line for line in local.output.splitlines() if "games in" not in line]
    assert [line for line in remote.output.splitlines() if "games in" not in line] == table


def test_an_unreachable_scheduler_is_a_clear_error() -> None:
    result = CliRunner().invoke(
        main, ["simulate", "--games", "1", "--cluster", "nonsense://nowhere:1"]
    )
    assert result.exit_code == 2
    assert "cannot reach the Dask scheduler at nonsense://nowhere:1" in result.output
