"""``korapsyon attack churn``: spectators joining and leaving rooms of their own, and the ping of a
game beside them (docs/RELIABILITY.md)."""

from __future__ import annotations

import asyncio
import json

import click

from ..terminal import say


@click.command()
@click.option("--spectators", default=199, show_default=True, type=click.IntRange(2, 10_000))
@click.option("--rooms", default=1, show_default=True, type=click.IntRange(1, 100))
@click.option(
    "--dwell",
    default=1.0,
    show_default=True,
    type=click.FloatRange(0),
    help="Seconds a spectator stays before it leaves and joins again.",
)
@click.option("--seconds", default=15.0, show_default=True, type=click.FloatRange(1))
@click.option("--calm", default=5.0, show_default=True, type=click.FloatRange(1))
@click.option("--url", default=None, help="Attack this running server instead of starting one.")
@click.option("--json", "as_json", is_flag=True, help="Also print the figures as JSON.")
def churn(
    *,
    spectators: int,
    rooms: int,
    dwell: float,
    seconds: float,
    calm: float,
    url: str | None,
    as_json: bool,
) -> None:
    """Measure a game's WebSocket ping while spectators churn through other rooms.

    The server started for the test runs with serve's default limits (one address: at
    most 200 sockets, a spectator cap per room), as an attacker would meet them.
    """
    from ...harness import needs_extra, target

    with needs_extra("attack churn"):
        from ...harness import churn as harness

    with target(url) as base:
        result = asyncio.run(
            harness.run(
                base, spectators=spectators, rooms=rooms, seconds=seconds, calm=calm, dwell=dwell
            )
        )
    say(result.report())
    if as_json:
        say(json.dumps(result.summary()))
