"""The simulator's PNG chart: Good's win rate by player count with 95% error bars (and the
45-55% band), and the win reasons stacked."""

from __future__ import annotations

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
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
