"""``korapsyon loadtest``: rooms of simulated players over real WebSockets on loopback."""

from __future__ import annotations

import json

import click

from .terminal import say


@click.command()
@click.option("--rooms", default=100, show_default=True, type=click.IntRange(1, 2000))
@click.option("--players", default=13, show_default=True, type=click.IntRange(9, 16))
@click.option("--seconds", default=30.0, show_default=True, type=click.FloatRange(1))
@click.option(
    "--think",
    default=2.0,
    show_default=True,
    type=click.FloatRange(0),
    help="Mean seconds a simulated player takes for each decision (sets the offered load).",
)
@click.option("--warmup", default=5.0, show_default=True, type=click.FloatRange(0))
@click.option(
    "--games",
    default=0,
    show_default=True,
    type=click.IntRange(0),
    help="Go on measuring past --seconds until this many games have finished.",
)
@click.option("--url", default=None, help="Test this running server instead of starting one.")
@click.option("--db", default=None, help="Database of the server started for the test.")
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Worker processes of the server started for the test (serve --workers).",
)
@click.option("--json", "as_json", is_flag=True, help="Also print the figures as JSON.")
def loadtest(
    *,
    rooms: int,
    players: int,
    seconds: float,
    think: float,
    warmup: float,
    games: int,
    url: str | None,
    db: str | None,
    workers: int,
    as_json: bool,
) -> None:
    """Measure actions/s, latency (p50, p99) and the server's memory under load."""
    from ..harness import needs_extra

    with needs_extra("loadtest"):
        from ..harness import loadtest as lt
        from ..harness.spawn import spawned_server

    def go(base: str, pid: int | None) -> lt.LoadResult:
        return lt.measure(
            base, rooms=rooms, players=players, seconds=seconds, think=think,
            warmup=warmup, server_pid=pid, games=games,
        )  # fmt: skip

    if url is None:
        with spawned_server(db, workers, lt.LOAD_OPTIONS) as (base, pid):
            result = go(base, pid)
    else:
        result = go(url.rstrip("/"), None)
    say(result.report())
    if as_json:
        say(json.dumps(lt.summary(result)))
