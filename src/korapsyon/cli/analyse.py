"""``korapsyon analyse RECORD [--json] [--as NAME]``: how likely each player was Corrupt,
Year by Year, and the decisive moments; ``korapsyon analyse --calibrate``: the beliefs'
reliability table on simulated heuristic games.

The analysis is the public view's (what the whole table could know) unless ``--as`` names
a player (that player's view). ``--json`` prints ``{"years": [{"year": 1, "corrupt":
{"Ana": 0.12, ...}}, ...], "view": ..., "moments": [...]}``. A record that cannot be read
or stops at an illegal action is an error (exit code 2), as with ``korapsyon replay``.

The calibration lives here, not in a command of its own, because it measures exactly what
this command prints: the same beliefs, scored against the truth of simulated games.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from ..record import RecordError, read_record, replay


@click.command()
@click.argument("record", required=False, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@click.option("--as", "viewer", metavar="NAME", help="Analyse from this player's view.")
@click.option(
    "--calibrate", is_flag=True, help="Instead: score the beliefs on simulated heuristic games."
)
@click.option(
    "--fit", is_flag=True, help="Instead: measure the behaviour model's rates in simulated games."
)
@click.option("--games", default=300, show_default=True, type=click.IntRange(1),
              help="Calibration: games to play.")  # fmt: skip
@click.option("--players", default=13, show_default=True, type=click.IntRange(9, 16),
              help="Calibration: players per game.")  # fmt: skip
@click.option("--seed", default=7, show_default=True, help="Calibration: the first game's seed.")
def analyse(
    *,
    record: Path | None,
    as_json: bool,
    viewer: str | None,
    calibrate: bool,
    fit: bool,
    games: int,
    players: int,
    seed: int,
) -> None:
    """Analyse a game RECORD: Year by Year, how likely each player was Corrupt."""
    if calibrate:
        _calibrate(games, players, seed, as_json)
        return
    if fit:
        from ..bots.beliefs.fit import markdown, measure

        click.echo(markdown(measure(games, players, seed)))
        return
    if record is None:
        raise click.UsageError("give a RECORD to analyse (or --calibrate)")
    try:
        parsed, unreadable = read_record(record.read_bytes())
        game, stop = replay(parsed, unreadable)
    except (OSError, RecordError) as exc:
        click.echo(f"{record}: {exc if isinstance(exc, RecordError) else f'cannot read: {exc}'}",
                   err=True)  # fmt: skip
        sys.exit(2)
    if stop is not None:
        click.echo(f"{record}: illegal action at index {stop.index}: {stop.reason}", err=True)
        sys.exit(2)
    if viewer is not None and viewer not in game.players:
        raise click.BadParameter(f"{viewer!r} is not a player of this game", param_hint="--as")
    from ..bots.beliefs.analysis import analyse as run

    result = run(game.players, game.roles, game.events, viewer)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False))
    else:
        click.echo(_text(result))


def _text(result: dict[str, Any]) -> str:
    years = result["years"]
    if not years:
        return "No Year has started: nothing to analyse."
    names = list(years[0]["corrupt"])
    width = max(len(n) for n in names)
    lines = [
        f"How likely each player was Corrupt ({result['view']} view), at the end of each Year:",
        "",
        " " * width + "".join(f"  Y{y['year']:<4}" for y in years),
    ]
    for name in names:
        cells = "".join(f"  {round(100 * y['corrupt'][name]):>3}% " for y in years)
        lines.append(f"{name:<{width}}{cells}")
    if result["moments"]:
        lines += ["", "Decisive moments:"]
        lines += [_moment(m) for m in result["moments"]]
    return "\n".join(lines)


def _moment(m: dict[str, Any]) -> str:
    role = m["role"].replace("_", " ")
    if m["kind"] in ("jailed", "eliminated"):
        line = (f"Year {m['year']}: {m['player']} ({role}) {m['kind']} by {m['cause']}"
                f" at {round(100 * m['corrupt'])}% Corrupt")  # fmt: skip
        if m["verdict"] == "good_removed_against_evidence":
            line += (f", while {m['most_suspected']} stood at "
                     f"{round(100 * m['most_suspected_corrupt'])}%")  # fmt: skip
        return line
    return (f"Year {m['year']}: {m['player']} ({role}) {m['kind']} by {m['by']}: "
            f"{round(100 * m['before'])}% -> {round(100 * m['after'])}%")  # fmt: skip


def _calibrate(games: int, players: int, seed: int, as_json: bool) -> None:
    from ..bots.beliefs.calibration import calibrate, markdown

    result = calibrate(games, players, seed)
    if as_json:
        rows = [
            {"bin": low, "mean": mean, "corrupt": share, "count": count}
            for low, mean, share, count in result.reliability()
        ]
        click.echo(json.dumps({"reliability": rows, "brier": result.brier()}))
    else:
        click.echo(markdown(result))
