"""What ``korapsyon tune`` shows of a search (:func:`.tune.tune`): tune.json, every
candidate's rates and games with the plan and the choice (:func:`report`, which
:func:`.chart.draw_tuning` draws), and the table printed per player count (:func:`table`).
"""

from __future__ import annotations

from typing import Any

from .rates import other_options
from .runner import wire_composition
from .tune import BAND, Candidate, Outcome


def report(outcome: Outcome) -> dict[str, Any]:
    """The search as JSON: plan, cost, every candidate's rates and the choice per count."""
    plan = outcome.plan

    def one(c: Candidate) -> dict[str, Any]:
        out: dict[str, Any] = {"ruleset": c.ruleset.to_wire(), "change": c.change()}
        if (years := c.years()) is not None:
            out["heuristic_years"] = years
        if c.fitted is not None:
            out["heuristic_fitted"] = c.fitted
        if c.shifted is not None:
            out["check_modelled"] = c.shifted
            out["check_estimate"] = c.check_estimate()
        for generation in ("heuristic", "check"):
            if games := c.games(generation):
                out[generation] = {
                    "games": len(games),
                    "good_win_rate": c.rate(generation),
                    "good_win_ci95": list(c.interval(generation)),
                }
        return out

    return {
        "plan": {
            "players": list(plan.players),
            "seed": plan.seed,
            "fund_span": plan.fund_span,
            "spending_span": plan.spending_span,
            "dials": {k: list(v) for k, v in plan.dials},
            "first": plan.first,
            "finalists": plan.finalists,
            "check_bots": plan.check_bots,
            "check_games": plan.check_games,
            "aim": plan.aim,
            "check_rounds": plan.check_rounds,
            "min_years": plan.min_years,
            "composition": wire_composition(plan.composition),
            "ruleset": plan.ruleset.to_wire(),
            "ruleset_by_players": {str(n): r.to_wire() for n, r in plan.per_count},
            "rounds": plan.rounds(),
        },
        "games": outcome.games,
        "rules": outcome.rules(),
        "chosen": {str(n): one(c) for n, c in outcome.chosen.items()},
        "finalists": {str(n): [one(c) for c in f] for n, f in outcome.finalists.items()},
        "candidates": {str(n): [one(c) for c in cs] for n, cs in outcome.candidates.items()},
    }


def table(outcome: Outcome) -> str:
    """One row per player count: the chosen targets (and dials and held options), Good's
    win rate with its 95% interval for each generation of bots, and the games behind each."""
    held = {k for c in outcome.chosen.values() for k in other_options(c.ruleset)}
    columns = [name for name, _ in outcome.plan.dials]
    columns += sorted(held - set(columns))  # the --rule options the search held
    head = (
        f"{'players':>7}  {'spend':>5} {'fund':>4} {'AJ':>3} {'Tok':>3}"
        + "".join(f" {d:>{len(d)}}" for d in columns)
        + f"  {'heuristic Good':>22}  {outcome.plan.check_bots + ' Good':>22}  {'estimate':>8}"
        + f"  {'Years':>5}  {'in band':>7}"
    )
    lines = [head, "-" * len(head)]
    for players, c in outcome.chosen.items():
        spending, fund = c.ruleset.targets(players)
        auto_jail, tokhang = c.ruleset.costs(players)
        row = f"{players:>7}  {spending:>5} {fund:>4} {auto_jail:>3} {tokhang:>3}" + "".join(
            f" {getattr(c.ruleset, d)!s:>{len(d)}}" for d in columns
        )
        inside = []
        for generation in ("heuristic", "check"):
            rate = c.rate(generation)
            if rate is None:
                row += f"  {'-':>22}"
                continue
            low, high = c.interval(generation)
            games = len(c.games(generation))
            row += f"  {f'{rate:.1%} ({low:.0%}-{high:.0%}) n={games}':>22}"
            inside.append(BAND[0] <= rate <= BAND[1])
        estimate = c.check_estimate() if c.check else None
        row += f"  {'-' if estimate is None else f'{estimate:.1%}':>8}"
        years = c.years()
        shown = "-" if years is None else f"{years:.1f}" + ("*" if c.short() else "")
        row += f"  {shown:>5}"
        lines.append(row + f"  {'yes' if all(inside) else 'no':>7}")
    lines.append(
        "spend/fund = Public Spending / Corruption Fund targets (R-05), AJ/Tok = Auto Jail / "
        "Tokhang costs (half the target, rounded up, unless a dial sets them); estimate = the "
        "stronger generation's "
        "rate from its games and the shifted model together (the choice reads it); Years = the "
        "heuristic games' mean length (* under --min-years: no candidate reached it); in band = "
        "both generations' own games' rates in 45-55%."
    )
    return "\n".join(lines)
