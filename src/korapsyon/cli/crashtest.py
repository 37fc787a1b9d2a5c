"""``korapsyon crashtest``: kill -9 the server at random moments of games and check that
every finished record equals the uninterrupted game's and no acknowledged action is lost."""

from __future__ import annotations

import sys

import click

from .terminal import say


@click.command()
@click.option("--runs", default=5, show_default=True, type=click.IntRange(1, 10_000))
@click.option("--seed", default=0, show_default=True, help="Seed of the kills and the players.")
@click.option("--rooms", default=3, show_default=True, type=click.IntRange(1, 200),
              help="Games played at once in each run.")  # fmt: skip
@click.option("--players", default=9, show_default=True, type=click.IntRange(9, 16))
@click.option("--kills", default=4, show_default=True, type=click.IntRange(0, 10_000),
              help="kill -9 during each run's games (one more follows the last game).")  # fmt: skip
@click.option(
    "--db",
    default=None,
    help="Database of the server (default: a fresh SQLite file for each run), e.g. "
    "postgresql://user:password@host/dbname.",
)
def crashtest(
    *, runs: int, seed: int, rooms: int, players: int, kills: int, db: str | None
) -> None:
    """Kill -9 the server during games, restart it, and check every record."""
    from ..harness import needs_extra

    with needs_extra("crashtest"):
        from ..harness import crashtest as ct
    from .serve import database_url

    url = None if db is None else database_url(db)
    with click.progressbar(length=runs, label="crash runs", file=sys.stderr) as bar:

        def progress(result: ct.CrashResult) -> None:
            bar.label = f"kills {result.kills}, lost {result.lost}"
            bar.update(1)

        result = ct.run(
            runs=runs, seed=seed, rooms=rooms, players=players, kills=kills, db=url,
            progress=progress,
        )  # fmt: skip
    say(result.report())
    if not result.ok:
        raise SystemExit(1)
