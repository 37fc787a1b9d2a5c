"""``korapsyon bench``: measure replay throughput and random-play speed, and print them;
``--versus-lean``: the replay race against the lean reference
(:mod:`korapsyon.harness.replay_race`)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click

from .terminal import say


@click.command()
@click.option("--players", "-n", default=13, show_default=True, type=click.IntRange(9, 16))
@click.option("--games", default=200, show_default=True, type=click.IntRange(1))
@click.option("--rounds", default=3, show_default=True, type=click.IntRange(1), help="Best of N.")
@click.option(
    "--cli/--no-cli",
    default=True,
    show_default=True,
    help="Also time the `korapsyon replay` command on the records (a real process).",
)
@click.option(
    "--versus-lean",
    is_flag=True,
    help="Instead: the replay race, `korapsyon replay` against the lean reference on "
    "--games random records of 9-16 players (default 250), alternately, --rounds times.",
)
def bench(players: int, games: int, rounds: int, cli: bool, versus_lean: bool) -> None:
    """Print replay throughput (actions/s) and full games/s with random and heuristic bots,
    on one core."""
    if versus_lean:
        from ..harness.replay_race import run

        ctx = click.get_current_context()
        default = ctx.get_parameter_source("games") is click.core.ParameterSource.DEFAULT
        ran = ctx.get_parameter_source("rounds") is click.core.ParameterSource.DEFAULT
        run(250 if default else games, 7 if ran else rounds, "mix", 19, say)
        return
    from ..harness.bench import play_speed, records_for_bench, replay_speed

    say(f"Python {sys.version.split()[0]}, {players} players, {games} games, best of {rounds}")
    speed = play_speed(players, games, "random", rounds)
    say(
        f"random play:     {speed.games_per_second:10,.0f} games/s  "
        f"({speed.actions_per_second:,.0f} actions/s, {speed.mean_years:.1f} Years a game)"
    )
    speed = play_speed(players, games, "heuristic", rounds)
    say(
        f"heuristic bots:  {speed.games_per_second:10,.0f} games/s  "
        f"({speed.actions_per_second:,.0f} actions/s, {speed.mean_years:.1f} Years a game)"
    )
    records = records_for_bench(players, games)
    actions = sum(count for _, count in records)
    rate = replay_speed([data for data, _ in records], actions, rounds)
    say(f"replay (engine): {rate:10,.0f} actions/s  ({actions:,} actions in {games} records)")
    if cli:
        with tempfile.TemporaryDirectory() as folder:
            paths = []
            for i, (data, _) in enumerate(records):
                path = Path(folder) / f"game{i:05d}.json"
                path.write_bytes(data)
                paths.append(str(path))
            best = float("inf")
            command = [sys.executable, "-m", "korapsyon", "replay", *paths]
            for _ in range(rounds):
                start = time.perf_counter()
                subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
                best = min(best, time.perf_counter() - start)
            say(
                f"replay (CLI):    {actions / best:10,.0f} actions/s  "
                f"(`korapsyon replay` on {games} files, {best:.2f} s incl. start-up)"
            )
