"""The simulator's PNG chart: Good's win rate by player count with 95% error bars (and the
45-55% band), and the win reasons stacked."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from .stats import REASONS

_LABELS = {
    "public_spending": "Good: Public Spending",
    "corrupt_purge": "Good: Corrupt Purge",
    "corruption_fund": "Bad: Corruption Fund",
    "good_purge": "Bad: Good Purge",
    "safety_stop": "Draw: safety stop",
}
# Okabe-Ito colours: safe for colour-blind readers
_COLOURS = {
    "public_spending": "#0072B2",
    "corrupt_purge": "#56B4E9",
    "corruption_fund": "#D55E00",
    "good_purge": "#E69F00",
    "safety_stop": "#999999",
}


def draw(stats: dict[int, dict[str, Any]], path: Path, title: str) -> None:
    """Write the chart for ``stats`` (from :func:`.stats.summarise`) to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    counts = list(stats)
    rates = [stats[n]["good_win_rate"] * 100 for n in counts]
    lows = [(stats[n]["good_win_rate"] - stats[n]["good_win_ci95"][0]) * 100 for n in counts]
    highs = [(stats[n]["good_win_ci95"][1] - stats[n]["good_win_rate"]) * 100 for n in counts]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5.6), dpi=110)
    left.axhspan(45, 55, color="#009E73", alpha=0.15, label="45-55% target band")
    left.errorbar(
        counts,
        rates,
        yerr=[lows, highs],
        fmt="o-",
        color="#0072B2",
        capsize=4,
        label="Good win rate (95% CI)",
    )
    left.set_xticks(counts)
    left.set_ylim(0, 100)
    left.set_xlabel("players")
    left.set_ylabel("Good wins (%)")
    left.set_title("Good win rate by player count")
    left.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=8)
    bottom = [0.0] * len(counts)
    for reason in REASONS:
        share = [stats[n]["reasons"][reason] * 100 for n in counts]
        right.bar(counts, share, bottom=bottom, color=_COLOURS[reason], label=_LABELS[reason])
        bottom = [b + s for b, s in zip(bottom, share, strict=True)]
    right.set_xticks(counts)
    right.set_ylim(0, 100)
    right.set_xlabel("players")
    right.set_ylabel("games (%)")
    right.set_title("How games end")
    right.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3, fontsize=8)
    # a title with every --rule is longer than the figure is wide: wrapped, never cut
    fig.suptitle(textwrap.fill(title, 110, break_long_words=False, break_on_hyphens=False))
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def draw_tuning(report: dict[str, Any], path: Path) -> None:
    """The tuner's search (:func:`.tune_report.report`): per player count, every candidate's
    Corruption Fund and Public Spending targets coloured by its heuristic Good win rate,
    sized by the games it played; finalists (every candidate the stronger bots checked)
    ringed, the choice starred, R-05 crossed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import TwoSlopeNorm
    from matplotlib.ticker import MaxNLocator

    from ..rules.ruleset import table_targets

    counts = [int(n) for n in report["candidates"]]
    columns = min(4, len(counts))
    rows = -(-len(counts) // columns)
    fig, axes = plt.subplots(
        rows,
        columns,
        figsize=(max(3.4 * columns, 6.0), 3.3 * rows + 0.9),  # (wide enough for the title)
        dpi=110,
        squeeze=False,
        layout="constrained",
    )
    norm = TwoSlopeNorm(vmin=0.0, vcenter=0.5, vmax=1.0)
    most = max(c["heuristic"]["games"] for cs in report["candidates"].values() for c in cs)
    scatter = None
    for ax, players in zip(axes.flat, counts, strict=False):
        key = str(players)
        spending0, fund0 = table_targets(players)

        def xy(c: dict[str, Any]) -> tuple[int, int]:
            ruleset = c["ruleset"]
            return ruleset["corruption_fund_target"], ruleset["public_spending_target"]

        cands = report["candidates"][key]
        scatter = ax.scatter(
            [xy(c)[0] for c in cands],
            [xy(c)[1] for c in cands],
            c=[c["heuristic"]["good_win_rate"] for c in cands],
            s=[8 + 110 * c["heuristic"]["games"] / most for c in cands],
            cmap="RdBu",
            norm=norm,
            edgecolors="none",
        )
        finalists = report["finalists"][key]
        ax.scatter(
            [xy(c)[0] for c in finalists],
            [xy(c)[1] for c in finalists],
            s=170,
            facecolors="none",
            edgecolors="black",
            linewidths=0.8,
        )
        chosen = report["chosen"][key]
        ax.scatter(*xy(chosen), marker="*", s=260, color="#009E73", edgecolors="black")
        ax.scatter([fund0], [spending0], marker="x", s=60, color="black")
        ax.set_title(f"{players} players", fontsize=10)
        ax.set_xlabel("Corruption Fund target", fontsize=8)
        ax.set_ylabel("Public Spending target", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    for ax in list(axes.flat)[len(counts) :]:
        ax.axis("off")
    if scatter is not None:
        bar = fig.colorbar(scatter, ax=axes, shrink=0.6)
        bar.set_label("Good win rate, heuristic bots")
    games = report["games"]
    fig.suptitle(
        f"Tuning search (seed {report['plan']['seed']}): {games['heuristic']:,} heuristic + "
        f"{games['check']:,} {report['plan']['check_bots']} games\n"
        "x = R-05, ring = finalist, star = chosen",  # (two lines: a chart of one or two counts)
        fontsize=10,
    )
    fig.savefig(path)
    plt.close(fig)
