"""Options the simulation commands share (``simulate``, ``tune``, ``ladder``): player counts,
ruleset options, a custom deal, workers, a Dask cluster, the seed and the output folder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def player_counts(text: str) -> tuple[int, ...]:
    """``--players``: "13", "9-16" or "9,11,13" as sorted counts (a clear error otherwise)."""
    counts: list[int] = []
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        try:
            counts += range(int(low), int(high or low) + 1)
        except ValueError:
            raise click.BadParameter(
                f"player counts look like 13, 9-16 or 9,11,13: {text!r}"
            ) from None
    if not counts or any(not 5 <= n <= 20 for n in counts):
        raise click.BadParameter(f"player counts run from 5 to 20, not {text!r}")
    return tuple(sorted(set(counts)))


players_option = click.option(
    "--players",
    "players_text",
    default="9-16",
    show_default=True,
    help="Player counts: 13, 9-16 or 9,11,13.",
)
workers_option = click.option(
    "--workers",
    default=None,
    type=click.IntRange(1),
    help="Worker processes (default: every core).",
)
cluster_option = click.option(
    "--cluster",
    default=None,
    metavar="ADDRESS",
    help="Run on the Dask cluster whose scheduler is at ADDRESS, e.g. tcp://10.0.0.5:8786 "
    "(same results as a local run; needs korapsyon[cluster] here and on the workers).",
)


def rule_option(help: str) -> Callable[[F], F]:
    """``--rule KEY=VALUE`` (repeatable), read by :func:`..sim.runner.parse_rules`."""
    return click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE", help=help)


seed_option = click.option("--seed", default=0, show_default=True, type=int)
composition_option = click.option(
    "--composition",
    default=None,
    metavar="ROLE=N,...",
    help="Roles instead of the R-02 table, e.g. gp=2,cp=3,lawyer=1,omb=1,coa=1 "
    "(Citizens fill the other seats).",
)


def make_folder(out: Path | None) -> None:
    """Create ``--out`` (a clear error if it cannot be written)."""
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise click.BadParameter(f"cannot write to {out}: {exc}") from None
