"""The tuner's models of Good's win rate over one player count's candidates: the heuristic
bots' rate as a smooth function of the targets and dials (:func:`fit`), and the stronger
generation's as that function shifted by one log-odds per setting of the dials
(:func:`shift`). Each sets its estimate on every candidate (``fitted``, ``shifted``),
played or not; :mod:`.tune` ranks candidates on them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..rules.ruleset import Ruleset, table_targets

if TYPE_CHECKING:
    from .tune import Candidate

TARGETS = ("public_spending_target", "corruption_fund_target")
"""The two ruleset options every search moves (R-05); the model's features are their moves."""


def other_options(ruleset: Ruleset) -> dict[str, Any]:
    """The options a ruleset sets besides the two targets: a candidate's dials and the
    options its search held."""
    return {k: v for k, v in ruleset.to_wire().items() if k not in TARGETS}


def fit(candidates: Sequence[Candidate]) -> None:
    """Fit Good's heuristic win rate over one player count's candidates and set each
    one's ``fitted`` rate: a logistic model, quadratic in the two targets, plus one term per
    value of each other dial, fitted by weighted least squares on the empirical logits
    (Berkson's minimum logit chi-square). It pools every game of every candidate, so a
    candidate is judged on far more than its own games (the rate is smooth and monotone in
    the targets), which keeps the halving from chasing lucky candidates."""
    import numpy as np

    played = [c for c in candidates if c.heuristic]
    levels = _levels(candidates)
    columns = _features(played, levels)
    if len(played) <= columns.shape[1]:
        return
    n = np.array([len(c.heuristic) for c in played], dtype=float)
    good = np.array([sum(g.winner == "good" for g in c.heuristic) for c in played], dtype=float)
    p = (good + 0.5) / (n + 1.0)
    weight = np.sqrt(n * p * (1 - p))
    solution = np.linalg.lstsq(columns * weight[:, None], np.log(p / (1 - p)) * weight, rcond=None)
    logits = _features(candidates, levels) @ solution[0]
    for candidate, logit in zip(candidates, logits, strict=True):
        candidate.fitted = float(1 / (1 + np.exp(-logit)))


def shift(candidates: Sequence[Candidate]) -> float | None:
    """Fit the stronger generation's rate as the heuristic model's (:func:`fit`) shifted by
    one log-odds for each setting of the other options (a dial may move the generations
    apart: the suspension's length does, docs/BALANCE.md), by maximum likelihood over the
    setting's check games, and set each candidate's ``shifted`` rate; a setting without
    check games yet takes the count's pooled shift, which is returned (None before any
    check game)."""
    played = [c for c in candidates if c.check]
    if not played:
        return None
    pooled = _delta(played)
    groups: dict[tuple[tuple[str, Any], ...], list[Candidate]] = {}
    for c in played:
        groups.setdefault(_setting(c), []).append(c)
    deltas = {setting: _delta(group) for setting, group in groups.items()}
    for c in candidates:
        c.shifted = _sigmoid(_logit(c.estimate()) + deltas.get(_setting(c), pooled))
    return pooled


def _delta(played: Sequence[Candidate]) -> float:
    """The one log-odds by which the check games of ``played`` run above their heuristic
    estimates. Half a win and half a loss, at their mean heuristic log-odds, are added to
    the games, so that candidates the check bots always win (or always lose) get a large
    finite shift, not an infinite one. Newton's method on the concave likelihood, each step
    halved until the likelihood does not fall."""
    base = [_logit(c.estimate()) for c in played]
    n = [float(len(c.check)) for c in played]
    wins = [float(sum(g.winner == "good" for g in c.check)) for c in played]
    base.append(sum(base) / len(base))  # the half win and half loss
    n.append(1.0)
    wins.append(0.5)

    def likelihood(delta: float) -> float:
        return sum(
            w * _log_sigmoid(b + delta) + (k - w) * _log_sigmoid(-(b + delta))
            for b, k, w in zip(base, n, wins, strict=True)
        )

    delta, best = 0.0, likelihood(0.0)
    for _ in range(100):
        p = [_sigmoid(b + delta) for b in base]
        gradient = sum(w - k * q for w, k, q in zip(wins, n, p, strict=True))
        curvature = sum(k * q * (1 - q) for k, q in zip(n, p, strict=True))
        step = gradient / curvature
        while likelihood(delta + step) < best and abs(step) > 1e-12:
            step /= 2
        delta += step
        best = likelihood(delta)
        if abs(step) < 1e-9:
            break
    return delta


def _setting(c: Candidate) -> tuple[tuple[str, Any], ...]:
    """A candidate's options other than the targets: its dials' and the held ones'."""
    return tuple(sorted(other_options(c.ruleset).items()))


def _sigmoid(x: float) -> float:
    """The rate of a log-odds."""
    return 1 / (1 + math.exp(-x))


def _log_sigmoid(x: float) -> float:
    """log(1 / (1 + e^-x)), without overflow."""
    return -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x))


def _logit(rate: float | None) -> float:
    """The log-odds of a rate, kept finite (a candidate with no estimate counts as 50%)."""
    p = 0.5 if rate is None else min(max(rate, 1e-3), 1 - 1e-3)
    return math.log(p / (1 - p))


def _features(candidates: Sequence[Candidate], levels: Sequence[tuple[str, Any]]) -> Any:
    """Each candidate's row: 1, the targets' moves from R-05 (x, y), x², y², xy, and one
    0/1 column per dial level."""
    import numpy as np

    rows = []
    for c in candidates:
        spending, fund = c.ruleset.targets(c.players)
        base_spending, base_fund = table_targets(c.players)
        x, y = fund - base_fund, spending - base_spending
        dials = [float(getattr(c.ruleset, name) == value) for name, value in levels]
        rows.append([1.0, x, y, x * x, y * y, x * y, *dials])
    return np.array(rows, dtype=float).reshape(len(candidates), 6 + len(levels))


def _levels(candidates: Sequence[Candidate]) -> list[tuple[str, Any]]:
    """Each other option's values among the candidates, but one (the model's baseline)."""
    names = sorted({k for c in candidates for k in other_options(c.ruleset)})
    return [
        (name, value)
        for name in names
        for value in sorted({getattr(c.ruleset, name) for c in candidates}, key=repr)[1:]
    ]
