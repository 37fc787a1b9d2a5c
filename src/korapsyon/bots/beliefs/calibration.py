"""Calibration of the beliefs on simulated heuristic games (``korapsyon analyse
--calibrate``).

Heuristic bots play whole games; at the end of every Year, the beliefs of the public view
and of every Good seat's view give each player still in doubt (neither the viewer nor a
player whose role is revealed) a probability of being Corrupt, which is scored against
the truth. Corrupt seats are left out: they know every role (R-07).

Two baselines are scored on the same predictions:

* **the base rate**: the setup's share of Corrupt among the players the view cannot see
  into, ``Corrupt count / (players - 1)`` for a seat (``/ players`` for the public view);
* **the heuristic's suspicion**: the same view's :class:`~..heuristic.HeuristicAgent`
  suspicion score (the public view: the shared public :class:`~..heuristic.Board`), turned
  into a probability by the frequency of Corrupt among the predictions with the same
  score rounded to a half point, in the same games. The baseline is fitted on the data it
  is scored on, which favours it.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

from ...rules.events import BaseEvent, GameOver, YearEnded, visible_to
from ...rules.game import Game
from ...rules.roles import Role
from ..agent import play
from ..heuristic import CERTAIN, HeuristicAgent
from .model import DEFAULT_MODEL, BehaviourModel
from .tracker import Beliefs


@dataclass(frozen=True)
class Prediction:
    year: int
    public: bool
    belief: float
    base: float
    suspicion: float
    corrupt: bool


@dataclass
class Calibration:
    """The predictions of a calibration run and their scores."""

    games: int
    players: int
    predictions: list[Prediction] = field(default_factory=list)

    def brier(self, heuristic: dict[int, float] | None = None) -> dict[str, float]:
        """Mean squared error of the beliefs, the base rate and the heuristic (its score
        made a probability by ``heuristic``, by default binned on these predictions)."""
        preds = self.predictions
        if not preds:
            return {"beliefs": 0.0, "base_rate": 0.0, "heuristic": 0.0}
        heuristic = heuristic or _binned(preds)
        truth = [float(p.corrupt) for p in preds]
        return {
            "beliefs": _mse([p.belief for p in preds], truth),
            "base_rate": _mse([p.base for p in preds], truth),
            "heuristic": _mse([heuristic[round(p.suspicion * 2)] for p in preds], truth),
        }

    def by_year(self, last: int = 6) -> list[tuple[str, int, dict[str, float]]]:
        """(Year label, predictions, Brier scores) per Year; Years from ``last`` on together."""
        rows = []
        for year in range(1, last + 1):
            preds = [p for p in self.predictions if min(p.year, last) == year]
            if preds:
                part = Calibration(self.games, self.players, preds)
                label = f"{year}+" if year == last else str(year)
                rows.append((label, len(preds), part.brier(self._heuristic_bins())))
        return rows

    def _heuristic_bins(self) -> dict[int, float]:
        return _binned(self.predictions)

    def reliability(self, bins: int = 10) -> list[tuple[float, float, float, int]]:
        """(bin low edge, mean belief, Corrupt share, count) per non-empty bin."""
        grouped: dict[int, list[Prediction]] = defaultdict(list)
        for p in self.predictions:
            grouped[min(int(p.belief * bins), bins - 1)].append(p)
        rows = []
        for b in range(bins):
            group = grouped.get(b, [])
            if group:
                mean = sum(p.belief for p in group) / len(group)
                share = sum(p.corrupt for p in group) / len(group)
                rows.append((b / bins, mean, share, len(group)))
        return rows


def _binned(preds: list[Prediction]) -> dict[int, float]:
    totals: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for p in preds:
        slot = totals[round(p.suspicion * 2)]
        slot[0] += p.corrupt
        slot[1] += 1
    return {key: hits / count for key, (hits, count) in totals.items()}


def _mse(predicted: list[float], truth: list[float]) -> float:
    return sum((a - b) ** 2 for a, b in zip(predicted, truth, strict=True)) / len(truth)


def _year_ends(events: list[BaseEvent]) -> Iterator[int]:
    """Indexes just after each Year's last event (before the end's reveal)."""
    for index, event in enumerate(events):
        if isinstance(event, YearEnded | GameOver):
            yield index if isinstance(event, GameOver) else index + 1


def calibrate(
    games: int, players: int = 13, seed: int = 0, model: BehaviourModel = DEFAULT_MODEL
) -> Calibration:
    """Play ``games`` heuristic games and score every view's beliefs Year by Year."""
    from ...selfplay import table

    result = Calibration(games, players)
    for number in range(games):
        game = Game(table(players), seed=seed * 1_000_003 + number)
        rng = random.Random(f"{seed}/{number}")
        from .. import seat_agents

        play(game, seat_agents(game, "heuristic", f"{seed}/{number}"), rng)
        result.predictions.extend(_score_game(game, model))
    return result


def _score_game(game: Game, model: BehaviourModel) -> Iterator[Prediction]:
    events = list(game.events)
    roles = game.roles
    n = len(roles)
    corrupt = [r is Role.CORRUPT_POLITICIAN for r in roles]
    count = sum(corrupt)
    views: list[int | None] = [None, *(s for s in range(n) if not corrupt[s])]
    for viewer in views:
        name = None if viewer is None else game.players[viewer]
        beliefs = Beliefs(game.players, roles, name, model=model)
        agent = HeuristicAgent(0)
        start = 0
        for end in _year_ends(events):
            chunk = [e for e in events[start:end] if visible_to(e, viewer, False)]
            start = end
            beliefs.observe(chunk)
            agent.observe(chunk)
            if not chunk:
                continue
            probability = beliefs.posterior().corrupt_marginals()
            scores = agent.board.sus if viewer is None else agent.scores()
            year = beliefs.year
            for seat in range(n):
                if seat == viewer or seat in beliefs.revealed:
                    continue
                others = n if viewer is None else n - 1
                yield Prediction(
                    year,
                    viewer is None,
                    float(probability[seat]),
                    count / others,
                    max(-CERTAIN, min(CERTAIN, scores[seat])),
                    corrupt[seat],
                )


def markdown(result: Calibration) -> str:
    """The reliability table and the Brier scores, as docs/BOTS.md prints them."""
    lines = [
        f"{result.games} games at {result.players} players, {len(result.predictions)} "
        "predictions (public and Good seats' views, end of every Year, players in doubt)",
        "",
        "| belief P(Corrupt) | predictions | mean belief | Corrupt in fact |",
        "|---|---|---|---|",
    ]
    for low, mean, share, count in result.reliability():
        lines.append(f"| {low:.1f} to {low + 0.1:.1f} | {count} | {mean:.3f} | {share:.3f} |")
    brier = result.brier()
    lines += [
        "",
        "| Brier score (lower is better) | all views | public view |",
        "|---|---|---|",
    ]
    public = Calibration(result.games, result.players, [p for p in result.predictions if p.public])
    public_brier = public.brier()
    for key, label in (
        ("beliefs", "beliefs"),
        ("heuristic", "heuristic suspicion (binned, in-sample)"),
        ("base_rate", "base rate"),
    ):
        lines.append(f"| {label} | {brier[key]:.4f} | {public_brier[key]:.4f} |")
    lines += [
        "",
        "| end of Year | predictions | Brier: beliefs | heuristic | base rate |",
        "|---|---|---|---|---|",
    ]
    for label, count, scores in result.by_year():
        lines.append(
            f"| {label} | {count} | {scores['beliefs']:.4f} | {scores['heuristic']:.4f} "
            f"| {scores['base_rate']:.4f} |"
        )
    return "\n".join(lines)


__all__ = ["Calibration", "Prediction", "calibrate", "markdown"]
