"""The strength ladder: a round-robin of bot kinds at one table size, every Good kind
against every Corrupt kind on the same deals, rated per side by a Bradley-Terry fit, with
issue #20's verdict on the search bot.

Game ``i`` of every pairing has the same seed and deal (:func:`.runner.play_one` with the
ladder's seed), so pairings compare on the same deals. Each game played can be appended
to a results file (JSON lines, each game marked with its rules) that a later run under the
same rules reads back instead of playing the game again: a long ladder can stop, resume
and be extended a pairing at a time.

**The model.** ``P(Good wins) = logistic(home + good[G] - corrupt[C])`` for Good kind
``G`` against Corrupt kind ``C``; a draw counts half a win (the ``1 - y`` half is the
Corrupt's). One kind (``heuristic`` if present) is the anchor, rated 0 on both sides, so
``home`` is its mirror match's log-odds. Every pairing gets one virtual drawn game, so a
pairing won every time still has finite ratings (it moves a rating from 30 real games by a
few points, from 2,000 by nothing visible). The fit is maximum likelihood by Newton's
method (a binomial GLM with a handful of parameters: numpy does it in a few lines, where a
statistics package would be a large dependency for one command), and the 95% intervals are
Wald intervals from the observed information on the log-odds scale, where this likelihood
is close to quadratic. Ratings are printed in Elo points (400 / ln 10 per unit of
log-odds).

Why one module of ~490 lines: it is one pipeline, read in order - play (and the results
file), tally, fit, verdict, report and text - each stage a few short functions over the
previous stage's output.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..bots.kinds import AGENT_KINDS
from ..rules.ruleset import Ruleset
from .runner import SimConfig, parse_rules, play_one
from .stats import wilson

DEFAULT_KINDS = ("random", "heuristic", "believer", "search")
CHALLENGER, BASELINE = "search", "heuristic"
MARGIN = 0.08  # issue #20: the search team's win rate at least 8 points above the mirror's
Z95 = 1.959964
ELO = 400 / math.log(10)


@dataclass(frozen=True)
class Played:
    """One game of a pairing: who won (good | bad | draw), why, and in how many Years."""

    good: str
    bad: str
    players: int
    seed: int
    index: int
    winner: str
    reason: str
    years: int
    rules: str = ""  # LadderConfig.rules_key: "" under the default rules

    def to_json(self) -> str:
        return json.dumps(self.__dict__)


@dataclass(frozen=True)
class LadderConfig:
    """A ladder: ``games`` per pairing unless ``games_for`` says otherwise for one."""

    players: int = 13
    kinds: tuple[str, ...] = DEFAULT_KINDS
    games: int = 100
    seed: int = 0
    games_for: tuple[tuple[str, int], ...] = ()  # ("good:bad", games)
    rules: tuple[str, ...] = ()  # ``--rule`` options, as simulate takes them

    def __post_init__(self) -> None:
        self.ruleset()  # a bad option is refused here, before any game
        unknown = [k for k in self.kinds if k not in AGENT_KINDS]
        if unknown:
            raise ValueError(
                f"unknown bot kind {unknown[0]!r}; choose from {', '.join(AGENT_KINDS)}"
            )
        if len(set(self.kinds)) != len(self.kinds) or len(self.kinds) < 2:
            raise ValueError(f"a ladder needs two or more different kinds, not {self.kinds}")
        if not 5 <= self.players <= 20:
            raise ValueError(f"player counts run from 5 to 20, not {self.players}")
        names = {f"{g}:{b}" for g, b in self.pairings()}
        for pairing, games in self.games_for:
            if pairing not in names:
                raise ValueError(
                    f"{pairing!r} is not a pairing of {', '.join(self.kinds)} (GOOD:BAD)"
                )
            if games < 0:
                raise ValueError(f"{pairing}: games must be 0 or more, not {games}")

    def pairings(self) -> list[tuple[str, str]]:
        return [(good, bad) for good in self.kinds for bad in self.kinds]

    def games_of(self, good: str, bad: str) -> int:
        return dict(self.games_for).get(f"{good}:{bad}", self.games)

    def ruleset(self) -> Ruleset:
        """The rules every game of this ladder is played under (``rules`` at its size)."""
        base, per_count = parse_rules(self.rules)
        return dict(per_count).get(self.players, base)

    @property
    def rules_key(self) -> str:
        """The ruleset as a results file marks its games: "" for the default rules, else
        the options that differ from them (the wire form omits defaults), as sorted JSON."""
        changed = self.ruleset().to_wire()
        return json.dumps(changed, sort_keys=True) if changed else ""


# ---------------------------------------------------------------------------- playing
def _play(ladder: LadderConfig, good: str, bad: str, indices: Sequence[int]) -> list[Played]:
    players, seed, key = ladder.players, ladder.seed, ladder.rules_key
    config = SimConfig((players,), max(indices) + 1, f"{good}:{bad}", ladder.ruleset(), seed)
    out = []
    for index in indices:
        r = play_one(config, players, index)
        out.append(Played(good, bad, players, seed, index, r.winner, r.reason, r.years, key))
    return out


def read_results(path: Path) -> list[Played]:
    """The games of a results file (none if it does not exist yet)."""
    if not path.exists():
        return []
    games = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                games.append(Played(**json.loads(line)))
            except (ValueError, TypeError) as exc:
                raise ValueError(f"{path}:{number}: not a ladder game ({exc})") from None
    return games


def run(
    config: LadderConfig,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    results: Path | None = None,
) -> dict[tuple[str, str], list[Played]]:
    """Every pairing's games, by index: read from ``results`` where it has them, the others
    played (on ``workers`` processes) and appended to it as each finishes. ``progress`` is
    called first with the number of games read back, then with each batch played."""
    known: dict[tuple[str, str, int], Played] = {}
    for game in read_results(results) if results is not None else []:
        same = (game.players, game.seed, game.rules)
        if same == (config.players, config.seed, config.rules_key):
            known[game.good, game.bad, game.index] = game
    tasks: list[tuple[str, str, list[int]]] = []
    for good, bad in config.pairings():
        missing = [i for i in range(config.games_of(good, bad)) if (good, bad, i) not in known]
        step = 1 if "search" in (good, bad) else 25  # a search game is 10-40 s: save each
        tasks += [(good, bad, missing[i : i + step]) for i in range(0, len(missing), step)]
    if progress:  # the games read back count as done
        wanted = sum(config.games_of(good, bad) for good, bad in config.pairings())
        progress(wanted - sum(len(indices) for _, _, indices in tasks))
    sink = results.open("a", encoding="utf-8") if results is not None else None

    def done(games: list[Played]) -> None:
        for game in games:
            known[game.good, game.bad, game.index] = game
            if sink is not None:
                sink.write(game.to_json() + "\n")
        if sink is not None:
            sink.flush()
        if progress:
            progress(len(games))

    try:
        if workers == 1:
            for good, bad, indices in tasks:
                done(_play(config, good, bad, indices))
        else:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                futures = [
                    pool.submit(_play, config, good, bad, indices) for good, bad, indices in tasks
                ]
                for future in as_completed(futures):
                    done(future.result())
    finally:
        if sink is not None:
            sink.close()
    return {
        (good, bad): [known[good, bad, i] for i in range(config.games_of(good, bad))]
        for good, bad in config.pairings()
    }


# ---------------------------------------------------------------------------- the fit
@dataclass(frozen=True)
class Tally:
    """One pairing's results."""

    games: int
    good_wins: int
    draws: int

    @property
    def bad_wins(self) -> int:
        return self.games - self.good_wins - self.draws

    @classmethod
    def of(cls, games: Iterable[Played]) -> Tally:
        winners = [g.winner for g in games]
        return cls(len(winners), winners.count("good"), winners.count("draw"))


@dataclass(frozen=True)
class Rating:
    """A rating in Elo points against the anchor, with its 95% interval (None: the anchor,
    or a side the ladder never played)."""

    elo: float
    low: float
    high: float

    def to_wire(self) -> dict[str, float]:
        return {"elo": round(self.elo, 1), "low": round(self.low, 1), "high": round(self.high, 1)}


@dataclass(frozen=True)
class Fit:
    """Ratings per kind and side, the Good side's home advantage, and the model's P(Good
    wins) for every pairing played."""

    anchor: str
    home: Rating
    good: dict[str, Rating | None]
    corrupt: dict[str, Rating | None]
    expected: dict[tuple[str, str], float] = field(default_factory=dict)


def fit(tallies: Mapping[tuple[str, str], Tally], kinds: Sequence[str]) -> Fit:
    """The per-side Bradley-Terry fit (see the module) of the pairings with games."""
    anchor = BASELINE if BASELINE in kinds else kinds[0]
    played = {pair: t for pair, t in tallies.items() if t.games > 0}
    good_kinds = [k for k in kinds if k != anchor and any(g == k for g, _ in played)]
    bad_kinds = [k for k in kinds if k != anchor and any(b == k for _, b in played)]
    columns = 1 + len(good_kinds) + len(bad_kinds)
    pairs = list(played)
    x = np.zeros((len(pairs), columns))
    x[:, 0] = 1.0
    for row, (good, bad) in enumerate(pairs):
        if good in good_kinds:
            x[row, 1 + good_kinds.index(good)] = 1.0
        if bad in bad_kinds:
            x[row, 1 + len(good_kinds) + bad_kinds.index(bad)] = -1.0
    if np.linalg.matrix_rank(x) < columns:
        raise ValueError(
            "the pairings played do not determine every rating: play more pairings "
            f"(played: {', '.join(f'{g}:{b}' for g, b in pairs) or 'none'})"
        )
    n = np.array([played[p].games + 1.0 for p in pairs])  # + the virtual draw
    won = np.array([played[p].good_wins + (played[p].draws + 1) / 2 for p in pairs])
    beta = np.zeros(columns)
    for _ in range(100):
        p = 1 / (1 + np.exp(-(x @ beta)))
        information = x.T @ (x * (n * p * (1 - p))[:, None])
        step = np.linalg.solve(information, x.T @ (won - n * p))
        beta += step
        if np.max(np.abs(step)) < 1e-10:
            break
    p = 1 / (1 + np.exp(-(x @ beta)))
    se = np.sqrt(np.diag(np.linalg.inv(x.T @ (x * (n * p * (1 - p))[:, None]))))

    def rating(column: int) -> Rating:
        b, half = beta[column], Z95 * se[column]
        return Rating(ELO * b, ELO * (b - half), ELO * (b + half))

    def side(present: list[str], offset: int) -> dict[str, Rating | None]:
        ratings: dict[str, Rating | None] = {}
        for kind in kinds:
            if kind == anchor:
                ratings[kind] = Rating(0.0, 0.0, 0.0)
            elif kind in present:
                ratings[kind] = rating(offset + present.index(kind))
            else:
                ratings[kind] = None
        return ratings

    return Fit(
        anchor,
        rating(0),
        side(good_kinds, 1),
        side(bad_kinds, 1 + len(good_kinds)),
        {pair: float(q) for pair, q in zip(pairs, p, strict=True)},
    )


# ---------------------------------------------------------------------------- the verdict
@dataclass(frozen=True)
class Verdict:
    """The challenger's team against the baseline's mirror match, on one side: win rates
    with 95% Wilson intervals, the paired difference on the same deals (95%, normal), and
    whether the rate is ``MARGIN`` above the mirror's outside the intervals."""

    side: str  # "good" | "corrupt"
    games: int
    rate: float
    low: float
    high: float
    mirror_games: int
    mirror_rate: float
    mirror_low: float
    mirror_high: float
    paired_games: int
    paired: float
    paired_low: float
    paired_high: float

    @property
    def strict(self) -> bool:
        """The interval's low end above the mirror interval's high end plus the margin."""
        return self.low > self.mirror_high + MARGIN

    @property
    def met(self) -> bool:
        """The interval's low end above the mirror's rate plus the margin."""
        return self.low > self.mirror_rate + MARGIN

    @property
    def paired_met(self) -> bool:
        """The paired difference's interval lies above the margin."""
        return self.paired_low > MARGIN

    def to_wire(self) -> dict[str, Any]:
        return {
            **self.__dict__,
            "met": self.met,
            "strict": self.strict,
            "paired_met": self.paired_met,
        }


def _wins(games: Sequence[Played], side: str) -> list[int]:
    return [int(g.winner == side) for g in games]


def verdicts(results: Mapping[tuple[str, str], Sequence[Played]]) -> list[Verdict]:
    """Issue #20's test of ``search`` against ``heuristic``, as Good and as Corrupt (only
    the sides whose pairing and mirror match were played)."""
    mirror = results.get((BASELINE, BASELINE), [])
    out = []
    for side, pair, winner in (
        ("good", (CHALLENGER, BASELINE), "good"),
        ("corrupt", (BASELINE, CHALLENGER), "bad"),
    ):
        games = results.get(pair, [])
        if not games or not mirror:
            continue
        ours, theirs = _wins(games, winner), _wins(mirror, winner)
        common = min(len(ours), len(theirs))
        diffs = np.array(ours[:common]) - np.array(theirs[:common])
        mean = float(diffs.mean())
        half = Z95 * float(diffs.std(ddof=1)) / math.sqrt(common) if common > 1 else 1.0
        out.append(
            Verdict(
                side,
                len(ours),
                sum(ours) / len(ours),
                *wilson(sum(ours), len(ours)),
                len(theirs),
                sum(theirs) / len(theirs),
                *wilson(sum(theirs), len(theirs)),
                common,
                mean,
                mean - half,
                mean + half,
            )
        )
    return out


# ---------------------------------------------------------------------------- the report
def report(
    config: LadderConfig, results: Mapping[tuple[str, str], Sequence[Played]]
) -> dict[str, Any]:
    """Everything the command prints, as JSON data."""
    tallies = {pair: Tally.of(games) for pair, games in results.items()}
    model = fit(tallies, config.kinds)
    rows = []
    for (good, bad), t in tallies.items():
        low, high = wilson(t.good_wins, t.games)
        rows.append(
            {
                "good": good,
                "bad": bad,
                "games": t.games,
                "good_wins": t.good_wins,
                "draws": t.draws,
                "good_rate": t.good_wins / t.games if t.games else None,
                "low": low if t.games else None,
                "high": high if t.games else None,
                "model": model.expected.get((good, bad)),
            }
        )

    def side(ratings: Mapping[str, Rating | None]) -> dict[str, Any]:
        return {k: None if r is None else r.to_wire() for k, r in ratings.items()}

    return {
        "players": config.players,
        "seed": config.seed,
        "rules": list(config.rules),
        "kinds": list(config.kinds),
        "pairings": rows,
        "ratings": {
            "anchor": model.anchor,
            "home": model.home.to_wire(),
            "good": side(model.good),
            "corrupt": side(model.corrupt),
        },
        "verdicts": [v.to_wire() for v in verdicts(results)],
    }


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def text(data: Mapping[str, Any]) -> str:
    """The report as the command prints it."""
    rules = f" ({' '.join(data['rules'])})" if data.get("rules") else ""
    lines = [
        f"{data['players']} players{rules}, seed {data['seed']}: Good's wins per pairing "
        "(95% Wilson)",
        "",
        f"{'Good':<10} {'Corrupt':<10} {'games':>6} {'Good wins':>10} {'95% CI':>14} "
        f"{'draws':>6} {'model':>7}",
    ]
    for row in data["pairings"]:
        ci = "-" if row["low"] is None else f"{_pct(row['low'])}-{_pct(row['high'])}"
        lines.append(
            f"{row['good']:<10} {row['bad']:<10} {row['games']:>6} {_pct(row['good_rate']):>10} "
            f"{ci:>14} {row['draws']:>6} {_pct(row['model']):>7}"
        )
    ratings = data["ratings"]
    home = ratings["home"]
    lines += [
        "",
        f"Ratings (Bradley-Terry per side, Elo points against {ratings['anchor']}, 95% Wald):",
        f"  Good's edge in {ratings['anchor']}'s mirror match: {home['elo']:+.0f} "
        f"({home['low']:+.0f} to {home['high']:+.0f})",
        f"  {'kind':<10} {'as Good':>24} {'as Corrupt':>24}",
    ]
    for kind in data["kinds"]:
        cells = []
        for side in ("good", "corrupt"):
            r = ratings[side][kind]
            if r is None:
                cells.append("not played")
            elif kind == ratings["anchor"]:
                cells.append("0 (anchor)")
            else:
                cells.append(f"{r['elo']:+.0f} ({r['low']:+.0f} to {r['high']:+.0f})")
        lines.append(f"  {kind:<10} {cells[0]:>24} {cells[1]:>24}")
    for v in data["verdicts"]:
        who = "Good" if v["side"] == "good" else "Corrupt"
        pair = f"{CHALLENGER}:{BASELINE}" if v["side"] == "good" else f"{BASELINE}:{CHALLENGER}"
        bar = v["mirror_rate"] + MARGIN
        if v["strict"]:
            word = "MET (strict: above the mirror interval's high end + 8 points)"
        elif v["met"]:
            word = "MET (above the mirror's rate + 8 points; not above its high end + 8)"
        else:
            word = "NOT MET"
        paired = "above" if v["paired_met"] else "not above"
        lines += [
            "",
            f"{CHALLENGER} as {who} ({pair}): its team wins {_pct(v['rate'])} of {v['games']} "
            f"({_pct(v['low'])}-{_pct(v['high'])}); {BASELINE}:{BASELINE} {who} "
            f"{_pct(v['mirror_rate'])} of {v['mirror_games']} "
            f"({_pct(v['mirror_low'])}-{_pct(v['mirror_high'])})",
            f"  paired on the same {v['paired_games']} deals: {100 * v['paired']:+.1f} points "
            f"({100 * v['paired_low']:+.1f} to {100 * v['paired_high']:+.1f}): the interval "
            f"is {paired} +8 points",
            f"  +8 points: low end {_pct(v['low'])} against {_pct(bar)} "
            f"(strict: {_pct(v['mirror_high'] + MARGIN)}): {word}",
        ]
    return "\n".join(lines)
