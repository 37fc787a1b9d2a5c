"""``korapsyon ladder``: a round-robin of bot kinds (every Good kind against every Corrupt
kind, on the same deals), their ratings per side and the search bot's verdict."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import click

from .options import seed_option, workers_option
from .terminal import say


def _games_for(pairs: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    out = []
    for text in pairs:
        pairing, sep, games = text.partition("=")
        try:
            out.append((pairing.strip(), int(games)))
        except ValueError:
            raise click.BadParameter(
                f"--games-for takes GOOD:BAD=N, e.g. heuristic:search=300, not {text!r}"
            ) from None
        if not sep:
            raise click.BadParameter(f"--games-for takes GOOD:BAD=N, not {text!r}")
    return tuple(out)


@click.command()
@click.option("--players", default=13, show_default=True, type=click.IntRange(5, 20))
@click.option(
    "--kinds",
    default="random,heuristic,believer,search",
    show_default=True,
    help="The bot kinds, comma-separated; each plays each (and itself) as Good and as Corrupt.",
)
@click.option(
    "--games",
    default=100,
    show_default=True,
    type=click.IntRange(0),
    help="Games per pairing (game i has the same deal in every pairing).",
)
@click.option(
    "--games-for",
    "games_for",
    multiple=True,
    metavar="GOOD:BAD=N",
    help="Games for one pairing instead, e.g. heuristic:heuristic=2000 (repeatable).",
)
@click.option(
    "--rule",
    "rules",
    multiple=True,
    metavar="KEY=VALUE",
    help="A ruleset option, as simulate takes it, e.g. corruption_fund_target=13:14 (repeatable).",
)
@seed_option
@workers_option
@click.option(
    "--results",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="A file of played games (JSON lines): games it holds for this seed, player "
    "count and rules are read instead of played, new ones appended, so a run can stop and "
    "resume (start a new file when the bots change).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def ladder(
    *,
    players: int,
    kinds: str,
    games: int,
    games_for: tuple[str, ...],
    rules: tuple[str, ...],
    seed: int,
    workers: int | None,
    results: Path | None,
    as_json: bool,
) -> None:
    """Play a strength ladder and print Good's win rate per pairing (95% Wilson),
    Bradley-Terry ratings per side (95% intervals) and whether search beats heuristic by
    8 points as Good and as Corrupt (issue #20). A search game at 13 players costs 10-40 s."""
    from ..sim import ladder as lad

    try:
        config = lad.LadderConfig(
            players,
            tuple(k.strip() for k in kinds.split(",") if k.strip()),
            games,
            seed,
            _games_for(games_for),
            rules,
        )
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    total = sum(config.games_of(g, b) for g, b in config.pairings())
    started = time.perf_counter()
    try:
        with click.progressbar(
            length=total, label="ladder", file=sys.stderr, show_pos=True, show_eta=True
        ) as bar:
            played = lad.run(config, workers or os.cpu_count() or 1, bar.update, results)
        data = lad.report(config, played)
    except (OSError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        say(json.dumps({**data, "seconds": round(time.perf_counter() - started, 1)}, indent=1))
        return
    say(lad.text(data))
    say(f"\n{total} games ({time.perf_counter() - started:.0f} s, {results or 'none saved'})")
