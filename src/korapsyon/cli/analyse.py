"""``korapsyon analyse RECORD [--json] [--as NAME]``: how likely each player was Corrupt,
Year by Year, and the decisive moments; ``korapsyon analyse --calibrate``: the beliefs'
reliability table on simulated heuristic games.

The analysis is the public view's (what the whole table could know) unless ``--as`` names
a player (that player's view). ``--json`` prints ``{"years": [{"year": 1, "corrupt":
{"Ana": 0.12, ...}}, ...], "view": ..., "moments": [...]}``. The moments are worded as the
end screens word them (the web client's English, ``web/i18n/en.json``: one set of words).
A record that stops at an illegal action is analysed up to it: the stop goes to stderr
(and to the JSON as ``"stopped": {"index": K, "reason": ...}``) and the exit code is 2, as
``korapsyon replay`` exits for it; a record that cannot be read is an error (exit code 2).

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
    if viewer is not None and viewer not in game.players:
        raise click.BadParameter(f"{viewer!r} is not a player of this game", param_hint="--as")
    from ..bots.beliefs.analysis import analyse as run

    result = run(game.players, game.roles, game.events, viewer)
    if stop is not None:  # the game as far as the record is legal
        click.echo(f"{record}: illegal action at index {stop.index}: {stop.reason}", err=True)
        result["stopped"] = {"index": stop.index, "reason": stop.reason}
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False))
    else:
        click.echo(_text(result))
    if stop is not None:
        sys.exit(2)


def _text(result: dict[str, Any]) -> str:
    years = result["years"]
    stopped = result.get("stopped")
    tail = [] if stopped is None else ["", _STOPPED.format(**stopped)]
    if not years:
        return "\n".join(["No Year has started: nothing to analyse.", *tail[1:]])
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
        words = _words()
        lines += ["", "Decisive moments:"]
        lines += [_moment(m, words) for m in result["moments"]]
    return "\n".join(lines + tail)


_STOPPED = "The record stops at an illegal action (index {index}): this is the game up to it."


def _words() -> dict[str, str]:
    """The web client's English words (the end screens word the moments with them)."""
    from importlib.resources import files

    text = files("korapsyon").joinpath("web", "i18n", "en.json").read_text(encoding="utf-8")
    words: dict[str, str] = json.loads(text)
    return words


def _percent(p: float) -> str:
    return f"{round(100 * p)}%"


def _moment(m: dict[str, Any], words: dict[str, str]) -> str:
    """One moment in words, as the end screens' ``momentText`` (web/js/analysis.js)."""
    params: dict[str, Any] = {
        "year": m["year"],
        "player": m["player"],
        "role": words[f"role.{m['role']}"],
    }
    if m["kind"] in ("exposed", "cleared"):
        by = words.get(f"analysis.by.{m['by']}", words["analysis.by.other"])
        whose = words.get(f"analysis.by_player.{m['by']}")
        if whose is not None and m.get("by_player"):
            by = whose.format(who=m["by_player"])
        params |= {"by": by, "before": _percent(m["before"]), "after": _percent(m["after"])}
        return words[f"analysis.moment.{m['kind']}"].format(**params)
    params |= {
        "removed": words[f"analysis.removed.{m['kind']}"],
        "p": _percent(m["corrupt"]),
        "other": m["most_suspected"] or "",
        "q": _percent(m["most_suspected_corrupt"]),
    }
    return words[f"analysis.moment.{m['verdict']}"].format(**params)


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
