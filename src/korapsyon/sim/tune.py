"""The balance tuner: search the rule parameters a designer may change, per player count,
for the setting that brings Good's win rate to 45-55% with two generations of bots: the
heuristic bots, and a stronger kind that checks the finalists (``believer`` by default:
both sides read beliefs, docs/BOTS.md; or ``search``).

For each player count the candidates are every combination of a Corruption Fund target and
a Public Spending target around the R-05 row (their Tokhang and Auto Jail costs follow,
half the target rounded up) and the values of any other ruleset option given as a dial
(e.g. ``auto_jail_mode`` or ``tokhang_consent``).

1. **Heuristic rounds (successive halving).** Every candidate plays ``first`` heuristic
   games; the best third (the estimated Good win rate closest to 50%, then the smallest
   change from the rules as they are) plays twice as many new games, and so on until
   ``finalists`` remain. Candidates are ranked on a model fitted to every game of the
   player count (:func:`fit`), not on their own few games, and each plays its own deals
   (its own seed), so the model's level rests on all the games. (``aim`` moves the
   heuristic goal off 50%, e.g. to 45% when the stronger bots are known to favour Good by
   10 points, to split the difference between the generations.)
2. **The check.** Each finalist plays ``check_games`` games with the ``check_bots`` kind
   (a believer game costs about 50 heuristic ones, a search game thousands). The choice
   is the finalist whose check games' 95% interval holds 50% (or, failing that, lies
   nearest to it), then whose heuristic estimate is nearest its aim: a handful of check
   games overrule many heuristic ones only when they are clear.

Everything is deterministic for a seed, wherever the games run (:mod:`.cluster`).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from ..rules.errors import MalformedError
from ..rules.ruleset import Ruleset, table_targets
from .runner import GameResult, Games, SimConfig, play_games
from .stats import wilson

BAND = (0.45, 0.55)
TARGETS = ("public_spending_target", "corruption_fund_target")


@dataclass(frozen=True)
class Plan:
    """What to search and how much to spend."""

    players: tuple[int, ...]
    seed: int = 0
    fund_span: int = 5  # Corruption Fund targets from the R-05 row -span to +span
    spending_span: int = 3  # Public Spending targets likewise
    dials: tuple[tuple[str, tuple[Any, ...]], ...] = ()  # other ruleset options' values
    first: int = 40  # heuristic games per candidate in the first round
    finalists: int = 3  # candidates per player count that reach the check
    check_games: int = 0  # games of the stronger generation per finalist (0: heuristic only)
    aim: float = 0.5  # the heuristic Good win rate aimed at (the check: always 50%)
    check_bots: str = "believer"  # the stronger generation (a --bots kind)

    def candidates(self, players: int) -> list[Ruleset]:
        """Every candidate ruleset for one player count (checked: a bad dial is an error)."""
        spending, fund = table_targets(players)
        names = [name for name, _ in self.dials]
        out: list[Ruleset] = []
        for values in itertools.product(*(v for _, v in self.dials)):
            for ps in range(spending - self.spending_span, spending + self.spending_span + 1):
                for cf in range(fund - self.fund_span, fund + self.fund_span + 1):
                    options = dict(zip(names, values, strict=True))
                    options.update(public_spending_target=ps, corruption_fund_target=cf)
                    out.append(Ruleset.from_wire(options))
        return out

    def rounds(self) -> list[tuple[int, int]]:
        """(candidates alive, new games each) per heuristic round, for any player count."""
        alive = len(self.candidates(self.players[0]))
        games = self.first
        out = [(alive, games)]
        while alive > self.finalists:
            alive = max(self.finalists, -(-alive // 3))
            games *= 2
            out.append((alive, games))
        return out

    def cost(self) -> tuple[int, int]:
        """(heuristic games, check games) the whole search plays."""
        heuristic = sum(alive * games for alive, games in self.rounds()) * len(self.players)
        finalists = min(self.finalists, self.rounds()[-1][0])
        return heuristic, finalists * self.check_games * len(self.players)


@dataclass
class Candidate:
    """One ruleset tried for one player count, with the games it has played so far."""

    players: int
    ruleset: Ruleset
    seed: int = 0  # the candidate's own games (every candidate plays other deals)
    aim: float = 0.5  # the heuristic generation's Good win rate aimed at
    heuristic: list[GameResult] = field(default_factory=list)
    check: list[GameResult] = field(default_factory=list)  # the stronger generation's
    fitted: float | None = None  # the heuristic rate of the model fitted to the count (fit)

    def games(self, generation: str) -> list[GameResult]:
        return self.heuristic if generation == "heuristic" else self.check

    def rate(self, generation: str) -> float | None:
        games = self.games(generation)
        return sum(g.winner == "good" for g in games) / len(games) if games else None

    def interval(self, generation: str) -> tuple[float, float]:
        games = self.games(generation)
        return wilson(sum(g.winner == "good" for g in games), len(games))

    def change(self) -> int:
        """How far from the rules as they are: target points moved plus other options set."""
        spending, fund = table_targets(self.players)
        moved = abs(self.ruleset.targets(self.players)[0] - spending)
        moved += abs(self.ruleset.targets(self.players)[1] - fund)
        others = {k: v for k, v in self.ruleset.to_wire().items() if k not in TARGETS}
        return moved + len(others)

    def miss(self) -> float:
        """How far the check games' 95% interval lies from 50% (0 when it holds 50%, or
        before they are played): a few check games overrule the heuristic ones only when
        they are clear."""
        if not self.check:
            return 0.0
        low, high = self.interval("check")
        return max(0.0, low - 0.5, 0.5 - high)

    def estimate(self) -> float | None:
        """The heuristic Good win rate: the fitted model's if there is one (:func:`fit`),
        else the candidate's own games'."""
        return self.fitted if self.fitted is not None else self.rate("heuristic")

    def key(self) -> tuple[float, int, int, str]:
        """The order of the search: a clear miss of the check, then the heuristic estimate's
        distance from its aim, then the smallest change from the rules as they are."""
        rate = self.estimate()
        # whole percentage points: closer than that is noise, and the smaller change wins
        distance = 0 if rate is None else round(abs(rate - self.aim) * 100)
        return (round(self.miss(), 9), distance, self.change(), repr(self.ruleset))


def _seed(seed: int, players: int, number: int) -> int:
    """Candidate ``number``'s own run seed: candidates play independent games, so the
    model's level rests on all of them, not on the luck of one set of deals."""
    return random.Random(f"korapsyon-tune/{seed}/{players}/{number}").getrandbits(62)


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
    names = sorted({k for c in candidates for k in c.ruleset.to_wire() if k not in TARGETS})
    return [
        (name, value)
        for name in names
        for value in sorted({getattr(c.ruleset, name) for c in candidates}, key=repr)[1:]
    ]


@dataclass
class Outcome:
    """The search: every candidate of every player count, the rounds, and the choices."""

    plan: Plan
    candidates: dict[int, list[Candidate]]
    finalists: dict[int, list[Candidate]]
    chosen: dict[int, Candidate]
    games: dict[str, int]

    def rules(self) -> list[str]:
        """The chosen rulesets as ``simulate --rule`` options (per player count)."""
        by_key: dict[str, list[str]] = {}
        for players, candidate in self.chosen.items():
            wire = candidate.ruleset.to_wire()
            for key, value in wire.items():
                text = value if isinstance(value, str) else repr(value).lower()
                by_key.setdefault(key, []).append(f"{players}:{text}")
        return [f"{key}={','.join(values)}" for key, values in by_key.items()]


def parse_dial(text: str) -> tuple[str, tuple[Any, ...]]:
    """``tokhang_consent=unanimous,majority`` or ``auto_jail_mode=direct,forced_vote``: an option of
    :class:`~korapsyon.rules.ruleset.Ruleset` (not a target: those are searched anyway) and
    the values to try, each checked."""
    import json

    key, sep, values = text.partition("=")
    key = key.strip()
    if not sep or not values.strip():
        raise ValueError(f"--dial takes option=value,value,..., not {text!r}")
    if key in TARGETS:
        raise ValueError(f"{key} is searched already (--fund-span, --spending-span)")
    if key not in Ruleset.__struct_fields__:
        raise ValueError(f"{key!r} is not a ruleset option ({', '.join(_options())})")
    out: list[Any] = []
    for value in values.split(","):
        try:
            parsed: Any = json.loads(value)
        except json.JSONDecodeError:
            parsed = value.strip()
        try:
            Ruleset.from_wire({key: parsed})
        except MalformedError as exc:
            raise ValueError(f"--dial {key}: {exc}") from None
        out.append(parsed)
    return key, tuple(dict.fromkeys(out))


def _options() -> list[str]:
    return [k for k in Ruleset.__struct_fields__ if k not in TARGETS]


def tune(
    plan: Plan,
    pool: Executor,
    progress: Callable[[int], None] | None = None,
    note: Callable[[str], None] | None = None,
) -> Outcome:
    """Run the search of ``plan`` on ``pool`` (see :func:`.cluster.place`)."""
    candidates = {
        n: [
            Candidate(n, r, _seed(plan.seed, n, i), plan.aim)
            for i, r in enumerate(plan.candidates(n))
        ]
        for n in plan.players
    }
    alive = {n: list(c) for n, c in candidates.items()}
    games = {"heuristic": 0, "check": 0}
    for number, (keep, new) in enumerate(plan.rounds()):
        alive = {n: sorted(c, key=Candidate.key)[:keep] for n, c in alive.items()}
        every = [c for n in plan.players for c in alive[n]]
        _play(every, "heuristic", "heuristic", new, pool=pool, progress=progress)
        games["heuristic"] += new * len(every)
        for n in plan.players:
            fit(candidates[n])
        if note:
            note(f"round {number + 1}: {len(every)} candidates, {new} new heuristic games each")
    finalists = {n: sorted(c, key=Candidate.key)[: plan.finalists] for n, c in alive.items()}
    if plan.check_games:
        every = [c for n in plan.players for c in finalists[n]]
        _play(every, "check", plan.check_bots, plan.check_games, pool=pool, progress=progress)
        games["check"] += plan.check_games * len(every)
        if note:
            note(f"check: {len(every)} finalists, {plan.check_games} {plan.check_bots} games each")
    chosen = {n: min(c, key=Candidate.key) for n, c in finalists.items()}
    return Outcome(plan, candidates, finalists, chosen, games)


def _play(
    candidates: Sequence[Candidate],
    generation: str,
    bots: str,
    new: int,
    *,
    pool: Executor,
    progress: Callable[[int], None] | None,
) -> None:
    """``new`` more games for each candidate (its next indices: its games never repeat)."""
    batches = []
    for c in candidates:
        played = c.games(generation)
        config = SimConfig((c.players,), 0, bots, c.ruleset, c.seed)
        batches.append(Games(config, c.players, len(played), len(played) + new))
    for candidate, results in zip(candidates, play_games(batches, pool, progress), strict=True):
        candidate.games(generation).extend(results)


def report(outcome: Outcome) -> dict[str, Any]:
    """The search as JSON: plan, cost, every candidate's rates and the choice per count."""
    plan = outcome.plan

    def one(c: Candidate) -> dict[str, Any]:
        out: dict[str, Any] = {"ruleset": c.ruleset.to_wire(), "change": c.change()}
        if c.fitted is not None:
            out["heuristic_fitted"] = c.fitted
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
            "rounds": plan.rounds(),
        },
        "games": outcome.games,
        "rules": outcome.rules(),
        "chosen": {str(n): one(c) for n, c in outcome.chosen.items()},
        "finalists": {str(n): [one(c) for c in f] for n, f in outcome.finalists.items()},
        "candidates": {str(n): [one(c) for c in cs] for n, cs in outcome.candidates.items()},
    }


def table(outcome: Outcome) -> str:
    """One row per player count: the chosen targets (and dials), Good's win rate with its
    95% interval for each generation of bots, and the games behind each."""
    dials = [name for name, _ in outcome.plan.dials]
    head = (
        f"{'players':>7}  {'spend':>5} {'fund':>4} {'AJ':>3} {'Tok':>3}"
        + "".join(f" {d[:14]:>14}" for d in dials)
        + f"  {'heuristic Good':>22}  {outcome.plan.check_bots + ' Good':>22}  {'in band':>7}"
    )
    lines = [head, "-" * len(head)]
    for players, c in outcome.chosen.items():
        spending, fund = c.ruleset.targets(players)
        wire = c.ruleset.to_wire()
        row = (
            f"{players:>7}  {spending:>5} {fund:>4} {c.ruleset.auto_jail_cost(players):>3} "
            f"{c.ruleset.tokhang_cost(players):>3}"
            + "".join(f" {wire.get(d, getattr(Ruleset(), d))!s:>14}" for d in dials)
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
        lines.append(row + f"  {'yes' if all(inside) else 'no':>7}")
    lines.append(
        "spend/fund = Public Spending / Corruption Fund targets (R-05), AJ/Tok = Auto Jail / "
        "Tokhang costs (half the target, rounded up); in band = every point estimate in 45-55%."
    )
    return "\n".join(lines)
