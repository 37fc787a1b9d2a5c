"""``korapsyon attack slowloris``: requests that never finish, from several addresses, and
a bystander's requests meanwhile (docs/RELIABILITY.md)."""

from __future__ import annotations

import asyncio

import click

from ..terminal import say


@click.command()
@click.option("--connections", default=3000, show_default=True, type=click.IntRange(1, 60_000))
@click.option("--addresses", default=30, show_default=True, type=click.IntRange(1, 250))
@click.option("--seconds", default=30.0, show_default=True, type=click.FloatRange(1))
@click.option("--url", default=None, help="Attack this running server instead of starting one.")
def slowloris(*, connections: int, addresses: int, seconds: float, url: str | None) -> None:
    """Hold unfinished requests open and see whether the server still answers others.

    The server started for the test runs with serve's defaults.
    """
    from ...harness import needs_extra, target

    with needs_extra("attack slowloris"):
        from ...harness import slowloris as harness

    with target(url) as base:
        result = asyncio.run(
            harness.run(base, connections=connections, addresses=addresses, seconds=seconds)
        )
    say(result.report())
