"""Statistics of a simulation, per player count: Good's win rate with a 95% Wilson
interval, the share of each win reason, game length in Years, and how often each paid
ability and Witness were used."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .runner import GameResult

REASONS = ("public_spending", "corrupt_purge", "corruption_fund", "good_purge", "safety_stop")
ABILITIES = ("tokhang", "auto_jail", "suhol", "witness")


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarise(results: Sequence[GameResult]) -> dict[int, dict[str, Any]]:
    """Statistics for each player count present in ``results``."""
    by_count: dict[int, list[GameResult]] = {}
    for result in results:
        by_count.setdefault(result.players, []).append(result)
    return {players: _one(games) for players, games in sorted(by_count.items())}


def _one(games: Sequence[GameResult]) -> dict[str, Any]:
    n = len(games)
    good = sum(1 for g in games if g.winner == "good")
    low, high = wilson(good, n)
    reasons = Counter(g.reason for g in games)
    years = [g.years for g in games]
    return {
        "games": n,
        "good_win_rate": good / n,
        "good_win_ci95": [low, high],
        "reasons": {reason: reasons[reason] / n for reason in REASONS},
        "years_mean": statistics.fmean(years),
        "years_sd": statistics.pstdev(years),
        "years_min": min(years),
        "years_max": max(years),
        "abilities": {
            name: {
                "per_game": sum(getattr(g, name) for g in games) / n,
                "games_with": sum(1 for g in games if getattr(g, name)) / n,
            }
            for name in ABILITIES
        },
    }


def table(stats: dict[int, dict[str, Any]]) -> str:
    """A plain-text table, one row per player count."""
    head = (
        f"{'players':>7} {'games':>6}  {'Good win':>8} {'95% CI':>13}  "
        f"{'spend':>5} {'purgeC':>6} {'fund':>5} {'purgeG':>6} {'stop':>5}  "
        f"{'Years':>9}  {'Tokhang':>7} {'AutoJail':>8} {'Suhol':>5} {'Witness':>7}"
    )
    lines = [head, "-" * len(head)]
    for players, s in stats.items():
        low, high = s["good_win_ci95"]
        r = s["reasons"]
        a = s["abilities"]
        lines.append(
            f"{players:>7} {s['games']:>6}  {s['good_win_rate']:>8.1%} "
            f"{f'{low:.1%}-{high:.1%}':>13}  "
            f"{r['public_spending']:>5.0%} {r['corrupt_purge']:>6.0%} {r['corruption_fund']:>5.0%} "
            f"{r['good_purge']:>6.0%} {r['safety_stop']:>5.0%}  "
            f"{s['years_mean']:>4.1f}±{s['years_sd']:<4.1f}  "
            f"{a['tokhang']['per_game']:>7.2f} {a['auto_jail']['per_game']:>8.2f} "
            f"{a['suhol']['per_game']:>5.2f} {a['witness']['per_game']:>7.2f}"
        )
    lines.append(
        "Win reasons: spend = Public Spending, purgeC = Corrupt Purge, fund = Corruption Fund, "
        "purgeG = Good Purge, stop = safety stop. Abilities: uses per game."
    )
    return "\n".join(lines)
