"""``korapsyon tune``: search per-player-count targets (and other dials) for a balance that
holds with heuristic bots and a stronger generation; print the table, write the search's
JSON and chart."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

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
    "--fund-span",
    default=5,
    show_default=True,
    type=click.IntRange(0, 30),
    help="Corruption Fund targets tried: the centre's (the R-05 row's, or --rule's), minus "
    "to plus this much.",
)
@click.option(
    "--spending-span",
    default=3,
    show_default=True,
    type=click.IntRange(0, 30),
    help="Public Spending targets tried: the centre's (the R-05 row's, or --rule's), minus "
    "to plus this much.",
)
@click.option(
    "--dial",
    "dials",
    multiple=True,
    metavar="OPTION=V1,V2,...",
    help="Another ruleset option to search, e.g. tokhang_consent=unanimous,majority or "
    "auto_jail_mode=direct,forced_vote (repeatable; every combination is tried).",
)
@click.option(
    "--first",
    default=40,
    show_default=True,
    type=click.IntRange(1),
    help="Heuristic games per candidate in the first round (doubling each round).",
)
@click.option(
    "--finalists",
    default=3,
    show_default=True,
    type=click.IntRange(1),
    help="Candidates per player count kept to the end (and checked with --check-bots).",
)
@click.option(
    "--check-games",
    default=0,
    show_default=True,
    type=click.IntRange(0),
    help="Games per finalist with the stronger generation (0: heuristic bots only).",
)
@click.option(
    "--check-bots",
    default="believer",
    show_default=True,
    type=click.Choice(["believer", "search"]),
    help="The stronger generation: believer bots in every seat (about 0.3 CPU seconds a "
    "game), or search bots (3-30 CPU seconds).",
)
@click.option(
    "--check-rounds",
    default=2,
    show_default=True,
    type=click.IntRange(1),
    help="Rounds of the check: after each, the candidates whose worse generation is "
    "nearest 50% (the stronger one's rate from the shifted model) become the finalists, "
    "and those not checked yet play their check games.",
)
@click.option(
    "--aim",
    default=0.5,
    show_default=True,
    type=click.FloatRange(0.05, 0.95),
    help="The heuristic bots' Good win rate the heuristic rounds aim for (the check "
    "rounds then aim both generations at 50%).",
)
@click.option(
    "--min-years",
    default=0.0,
    show_default=True,
    type=click.FloatRange(0, 50),
    help="The shortest game worth choosing: candidates whose heuristic games last fewer "
    "Years on average come after every other (0: no floor).",
)
@rule_option(
    "A setting to search around, as simulate takes it, e.g. "
    "public_spending_target=15:34,16:36 or suspension_years=5 (repeatable): targets given "
    "here centre the spans (the R-05 row's otherwise); any other option is fixed in every "
    "candidate unless it is also a --dial."
)
@composition_option
@seed_option
@workers_option
@cluster_option
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder for tune.json (every candidate) and search.png.",
)
def tune(
    *,
    players_text: str,
    fund_span: int,
    spending_span: int,
    dials: tuple[str, ...],
    first: int,
    finalists: int,
    check_games: int,
    check_bots: str,
    check_rounds: int,
    aim: float,
    min_years: float,
    rules: tuple[str, ...],
    composition: str | None,
    seed: int,
    workers: int | None,
    cluster: str | None,
    out: Path | None,
) -> None:
    """Search the Corruption Fund and Public Spending targets of each player count (around
    the R-05 row or a --rule setting, and any --dial) for Good win rates of 45-55% with
    heuristic bots, then check the finalists with a stronger generation (--check-bots) and
    choose where both are nearest 50%; print the choice per player count and the games it
    cost."""
    import os

    from ..sim import chart, tune_report
    from ..sim import tune as tuner
    from ..sim.cluster import place
    from ..sim.runner import parse_composition, parse_rules

    players = player_counts(players_text)
    try:
        ruleset, per_count = parse_rules(rules)
        plan = tuner.Plan(
            players,
            seed,
            fund_span,
            spending_span,
            tuple(tuner.parse_dial(d) for d in dials),
            first,
            finalists,
            check_games,
            aim,
            check_bots,
            check_rounds,
            min_years,
            parse_composition(composition) if composition else None,
            ruleset,
            per_count,
        )
        for n in players:
            plan.candidates(n)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    make_folder(out)
    heuristic, check = plan.cost()
    say(
        f"{len(plan.candidates(players[0]))} candidates per player count, "
        f"{len(plan.rounds())} heuristic rounds: at most {heuristic:,} heuristic and "
        f"{check:,} {check_bots} games"
    )
    started = time.perf_counter()
    with click.progressbar(
        length=heuristic + check, label="tuning", file=sys.stderr, show_pos=True, show_eta=True
    ) as bar:
        try:
            with place(workers or os.cpu_count() or 1, cluster) as pool:
                outcome = tuner.tune(plan, pool, bar.update)
            if bar.length is not None:  # (check rounds that found no new finalist)
                bar.update(bar.length - bar.pos)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
    elapsed = time.perf_counter() - started
    say(tune_report.table(outcome))
    games = outcome.games
    say(
        f"cost: {games['heuristic']:,} heuristic + {games['check']:,} {check_bots} games "
        f"in {elapsed:.0f} s"
    )
    say(
        "to play the choice again: korapsyon simulate "
        + (f"--composition {composition} " if composition else "")
        + " ".join(f"--rule {rule}" for rule in outcome.rules())
    )
    if out is None:
        return
    report = tune_report.report(outcome)
    report["seconds"] = elapsed
    (out / "tune.json").write_text(json.dumps(report, indent=1) + "\n")
    chart.draw_tuning(report, out / "search.png")
    say(f"wrote {out / 'tune.json'} and {out / 'search.png'}")
