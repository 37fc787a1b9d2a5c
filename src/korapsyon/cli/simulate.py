"""``korapsyon simulate``: play many bot games on all cores (or a Dask cluster) and report
the balance."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from ..bots.kinds import BOT_KINDS
from .options import (
    cluster_option,
    composition_option,
    make_folder,
    player_counts,
    players_option,
    rule_option,
    seed_option,
    workers_option,
)
from .terminal import say


@click.command()
@players_option
@click.option(
    "--games",
    default=200,
    show_default=True,
    type=click.IntRange(1),
    help="Games per player count.",
)
@click.option(
    "--bots",
    type=click.Choice(list(BOT_KINDS)),
    default="heuristic",
    show_default=True,
    help="Who plays: heuristic, random, believer or search bots, a 50/50 mix, or GOOD:BAD teams "
    "(search is slow: docs/BOTS.md).",
)
@rule_option(
    "A ruleset option, e.g. auto_jail_mode=forced_vote, or per player count, e.g. "
    "corruption_fund_target=12:19,16:27 (repeatable)."
)
@composition_option
@workers_option
@cluster_option
@seed_option
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder for summary.json and balance.png (and records/ with --records).",
)
@click.option("--records", is_flag=True, help="Also write every game's record to OUT/records/.")
def simulate(
    *,
    players_text: str,
    games: int,
    bots: str,
    rules: tuple[str, ...],
    composition: str | None,
    workers: int | None,
    cluster: str | None,
    seed: int,
    out: Path | None,
    records: bool,
) -> None:
    """Simulate bot games and print, per player count, Good's win rate (95% CI), win
    reasons, game length and ability use."""
    from ..sim import chart, stats
    from ..sim.runner import SimConfig, parse_composition, parse_rules, wire_composition
    from ..sim.runner import simulate as run

    players = player_counts(players_text)
    if records and out is None:
        raise click.UsageError("--records needs --out DIR")
    make_folder(out)
    try:
        ruleset, per_count = parse_rules(rules)
        roles = parse_composition(composition) if composition else None
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    config = SimConfig(players, games, bots, ruleset, seed, roles, records, per_count)
    total = games * len(players)
    started = time.perf_counter()
    with click.progressbar(
        length=total, label="simulating", file=sys.stderr, show_pos=True, show_eta=True
    ) as bar:
        try:
            results = run(config, workers, bar.update, cluster=cluster)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
    elapsed = time.perf_counter() - started
    summary = stats.summarise(results)
    say(stats.table(summary))
    say(f"{total} games in {elapsed:.1f} s ({total / elapsed:.0f} games/s)")
    if out is None:
        return
    report = {
        "config": {
            "players": list(players),
            "games": games,
            "bots": bots,
            "ruleset": ruleset.to_wire(),
            "ruleset_by_players": {str(n): r.to_wire() for n, r in per_count},
            "composition": wire_composition(roles),
            "seed": seed,
        },
        "seconds": elapsed,
        "by_players": {str(n): s for n, s in summary.items()},
    }
    (out / "summary.json").write_text(json.dumps(report, indent=1) + "\n")
    title = f"{bots} bots, {games} games per player count"
    if rules or roles:
        title += f" ({composition or ''} {' '.join(rules)})".replace("( ", "(")
    chart.draw(summary, out / "balance.png", title)
    if records:
        folder = out / "records"
        folder.mkdir(exist_ok=True)
        for result in results:
            assert result.record is not None
            (folder / f"{result.players}p-{result.index:05d}.json").write_bytes(result.record)
    say(
        f"wrote {out / 'summary.json'} and {out / 'balance.png'}"
        + (f" and {len(results)} records in {out / 'records'}" if records else "")
    )
