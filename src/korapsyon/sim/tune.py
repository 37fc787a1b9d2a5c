"""The balance tuner: search the rule parameters a designer may change, per player count,
for the setting that brings Good's win rate to 45-55% with two generations of bots: the
heuristic bots, and a stronger kind that checks the finalists (``believer`` by default:
both sides read beliefs, docs/BOTS.md; or ``search``).

For each player count the candidates are every combination of a Corruption Fund target and
a Public Spending target around the centre (the R-05 row, or the targets of the plan's own
ruleset for that count: a setting found earlier; their Tokhang and Auto Jail costs follow,
half the target rounded up) and the values of any other ruleset option given as a dial
(e.g. ``auto_jail_mode``, ``tokhang_consent``, or the costs themselves: ``tokhang_cost``).
The plan's ruleset holds every other option (a dial overrides it).

1. **Heuristic rounds (successive halving).** Every candidate plays ``first`` heuristic
   games; the best third (the estimated Good win rate closest to ``aim``, then the
   smallest change from the rules as they are) plays twice as many new games, and so on
   until ``finalists`` remain. Candidates are ranked on a model fitted to every game of the
   player count (:func:`.rates.fit`), not on their own few games, and each plays its own
   deals (its own seed), so the model's level rests on all the games.
2. **Check rounds.** The finalists play ``check_games`` games each with the ``check_bots``
   kind (a believer game costs about 50 heuristic ones, a search game thousands). The
   stronger generation's rate is modelled as the heuristic model's shifted by one
   log-odds per player count and setting of the dials (:func:`.rates.shift`), fitted to
   the setting's check games (a setting not checked yet takes the count's pooled shift),
   so each candidate has an estimate for both generations. The next round's
   finalists are the candidates whose *worse* generation is nearest 50%
   (:meth:`Candidate.worse`): where the stronger bots favour Good by 10 points, those whose
   heuristic rate is near 45%.
   New ones play heuristic games up to a finalist's of the heuristic rounds (the model
   is fitted again) and then their check games, and the shift is fitted again,
   ``check_rounds`` times.
3. **The choice** is the checked candidate whose worse generation is nearest 50%, the
   stronger generation's rate read from its own check games and the shifted model
   together (:meth:`Candidate.check_estimate`): the model pools every check game of the
   count but has one shift for all targets; a candidate's own games say where its
   targets differ.

Where the generations differ by more than the band is wide (10 points), no candidate puts
both inside it, and the choice splits the difference. The choice is the best of several
noisy estimates: confirm it on another seed (docs/BALANCE.md).

A floor on a game's length (``min_years``: the mean of a candidate's heuristic games, in
Years) puts every candidate whose games are shorter behind every one whose games are not,
in every round and in the choice: short races can balance a count (a Fund target of 6
ends a 9-player game in about 3 Years), but no table wants to play them. A game's length
varies by a few Years, so within a Year of the floor a candidate of 10-20 games is in or
out by luck; the table marks a choice that is under it (no candidate reached it).

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
from ..rules.roles import Role
from ..rules.ruleset import Ruleset, table_targets
from .rates import TARGETS, fit, other_options, shift
from .runner import GameResult, Games, SimConfig, play_games
from .stats import wilson

BAND = (0.45, 0.55)


@dataclass(frozen=True)
class Plan:
    """What to search and how much to spend."""

    players: tuple[int, ...]
    seed: int = 0
    fund_span: int = 5  # Corruption Fund targets from the centre -span to +span
    spending_span: int = 3  # Public Spending targets likewise
    dials: tuple[tuple[str, tuple[Any, ...]], ...] = ()  # other ruleset options' values
    first: int = 40  # heuristic games per candidate in the first round
    finalists: int = 3  # candidates per player count that reach the check
    check_games: int = 0  # games of the stronger generation per finalist (0: heuristic only)
    aim: float = 0.5  # the heuristic Good win rate the heuristic rounds aim at
    check_bots: str = "believer"  # the stronger generation (a --bots kind)
    check_rounds: int = 2  # rounds of finalists checked (each may bring new ones)
    min_years: float = 0.0  # the shortest mean game (heuristic, in Years) worth choosing
    composition: tuple[tuple[Role, int], ...] | None = None  # a custom deal's (None: R-02)
    ruleset: Ruleset = field(default_factory=Ruleset)  # searched around (simulate --rule)
    # whole rulesets where one player count differs, the base's options included (as
    # runner.parse_rules builds them)
    per_count: tuple[tuple[int, Ruleset], ...] = ()

    def centre(self, players: int) -> Ruleset:
        """The ruleset one player count's search is around: its targets are the spans'
        centre (the R-05 row's where it sets none), its other options every candidate's."""
        return dict(self.per_count).get(players, self.ruleset)

    def candidates(self, players: int) -> list[Ruleset]:
        """Every candidate ruleset for one player count (checked: a bad dial is an error)."""
        centre = self.centre(players)
        spending, fund = centre.targets(players)
        held = other_options(centre)
        names = [name for name, _ in self.dials]
        out: list[Ruleset] = []
        for values in itertools.product(*(v for _, v in self.dials)):
            for ps in range(spending - self.spending_span, spending + self.spending_span + 1):
                for cf in range(fund - self.fund_span, fund + self.fund_span + 1):
                    options = held | dict(zip(names, values, strict=True))
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

    def heuristic_games(self) -> int:
        """The heuristic games a finalist of the heuristic rounds has played."""
        return sum(games for _, games in self.rounds())

    def cost(self) -> tuple[int, int]:
        """(heuristic games, check games) the whole search plays, at most: each check round
        brings at most ``finalists`` new ones (none twice), whose heuristic games are
        topped up to a finalist's first."""
        heuristic = sum(alive * games for alive, games in self.rounds())
        finalists = min(self.finalists, self.rounds()[-1][0])
        checked = 0
        if self.check_games:
            checked = min(finalists * self.check_rounds, len(self.candidates(self.players[0])))
            heuristic += (checked - finalists) * self.heuristic_games()
        return heuristic * len(self.players), checked * self.check_games * len(self.players)


@dataclass
class Candidate:
    """One ruleset tried for one player count, with the games it has played so far."""

    players: int
    ruleset: Ruleset
    seed: int = 0  # the candidate's own games (every candidate plays other deals)
    aim: float = 0.5  # the heuristic generation's Good win rate aimed at
    heuristic: list[GameResult] = field(default_factory=list)
    check: list[GameResult] = field(default_factory=list)  # the stronger generation's
    fitted: float | None = None  # the heuristic rate the count's model gives it (rates.fit)
    shifted: float | None = None  # the stronger generation's, that model shifted (rates.shift)
    prior_games: int = 50  # the games the shifted model counts as (the plan's check games)
    min_years: float = 0.0  # the plan's floor on a game's mean length
    composition: tuple[tuple[Role, int], ...] | None = None  # the plan's deal (None: R-02)

    def games(self, generation: str) -> list[GameResult]:
        return self.heuristic if generation == "heuristic" else self.check

    def rate(self, generation: str) -> float | None:
        games = self.games(generation)
        return sum(g.winner == "good" for g in games) / len(games) if games else None

    def interval(self, generation: str) -> tuple[float, float]:
        games = self.games(generation)
        return wilson(sum(g.winner == "good" for g in games), len(games))

    def years(self) -> float | None:
        """The mean length of its heuristic games, in Years."""
        games = self.heuristic
        return sum(g.years for g in games) / len(games) if games else None

    def short(self) -> bool:
        """Are its heuristic games shorter than the plan's floor, on average?"""
        years = self.years()
        return years is not None and years < self.min_years

    def change(self) -> int:
        """How far from the rules as they are (R-05's targets and every option's default, not
        the search's centre: of two candidates equal otherwise, the one nearer the rulebook
        wins): target points moved plus other options set."""
        spending, fund = table_targets(self.players)
        moved = abs(self.ruleset.targets(self.players)[0] - spending)
        moved += abs(self.ruleset.targets(self.players)[1] - fund)
        return moved + len(other_options(self.ruleset))

    def estimate(self) -> float | None:
        """The heuristic Good win rate: the fitted model's if there is one
        (:func:`.rates.fit`), else the candidate's own games'."""
        return self.fitted if self.fitted is not None else self.rate("heuristic")

    def key(self) -> tuple[bool, int, int, str]:
        """The order of the heuristic rounds: long enough games first, then the heuristic
        estimate's distance from its aim, then the smallest change from the rules."""
        rate = self.estimate()
        # whole percentage points: closer than that is noise, and the smaller change wins
        distance = 0 if rate is None else round(abs(rate - self.aim) * 100)
        return (self.short(), distance, self.change(), repr(self.ruleset))

    def check_estimate(self) -> float | None:
        """The stronger generation's Good win rate: its own check games, with the shifted
        model's rate (:func:`.rates.shift`) counted as ``prior_games`` more games (as
        many as a finalist plays: its own games and the model weigh alike); either alone
        when the other is missing."""
        games = self.check
        wins = sum(g.winner == "good" for g in games)
        if self.shifted is None:
            return wins / len(games) if games else None
        prior = self.prior_games
        return (wins + prior * self.shifted) / (len(games) + prior)

    def worse(self) -> tuple[bool, int, int, int, str]:
        """The order of the check rounds and of the choice: long enough games first, then
        the distance from 50% of the generation further from it (whole points), then the
        other's, then the smallest change from the rules as they are."""
        rates = [r for r in (self.estimate(), self.check_estimate()) if r is not None]
        far = sorted((round(abs(r - 0.5) * 100) for r in rates), reverse=True) or [0]
        return (self.short(), far[0], far[-1], self.change(), repr(self.ruleset))


def _seed(seed: int, players: int, number: int) -> int:
    """Candidate ``number``'s own run seed: candidates play independent games, so the
    model's level rests on all of them, not on the luck of one set of deals."""
    return random.Random(f"korapsyon-tune/{seed}/{players}/{number}").getrandbits(62)


@dataclass
class Outcome:
    """The search: every candidate of every player count, the rounds, and the choices."""

    plan: Plan
    candidates: dict[int, list[Candidate]]
    finalists: dict[int, list[Candidate]]  # with check games: every candidate checked
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
            Candidate(
                n,
                r,
                _seed(plan.seed, n, i),
                plan.aim,
                prior_games=plan.check_games,
                min_years=plan.min_years,
                composition=plan.composition,
            )
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
    if not plan.check_games:
        chosen = {n: min(c, key=Candidate.key) for n, c in finalists.items()}
        return Outcome(plan, candidates, finalists, chosen, games)
    for number in range(plan.check_rounds):
        fresh = [c for n in plan.players for c in finalists[n] if not c.check]
        if not fresh:
            break
        games["heuristic"] += _top_up(fresh, plan.heuristic_games(), pool, progress)
        for n in plan.players:
            fit(candidates[n])
        _play(fresh, "check", plan.check_bots, plan.check_games, pool=pool, progress=progress)
        games["check"] += plan.check_games * len(fresh)
        for n in plan.players:
            shift(candidates[n])
        if note:
            note(f"check {number + 1}: {len(fresh)} finalists, {plan.check_games} games each")
        finalists = {
            n: sorted(candidates[n], key=Candidate.worse)[: plan.finalists] for n in plan.players
        }
    checked = {n: [c for c in candidates[n] if c.check] for n in plan.players}
    chosen = {n: min(c, key=Candidate.worse) for n, c in checked.items()}
    return Outcome(plan, candidates, checked, chosen, games)


def _top_up(
    candidates: Sequence[Candidate],
    games: int,
    pool: Executor,
    progress: Callable[[int], None] | None,
) -> int:
    """Heuristic games until each candidate has played ``games`` (a check round's new
    finalist may have left the heuristic rounds early); return how many were played."""
    played = 0
    for missing in sorted({games - len(c.heuristic) for c in candidates} - {0}):
        short = [c for c in candidates if games - len(c.heuristic) == missing]
        _play(short, "heuristic", "heuristic", missing, pool=pool, progress=progress)
        played += missing * len(short)
    return played


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
        config = SimConfig((c.players,), 0, bots, c.ruleset, c.seed, c.composition)
        batches.append(Games(config, c.players, len(played), len(played) + new))
    for candidate, results in zip(candidates, play_games(batches, pool, progress), strict=True):
        candidate.games(generation).extend(results)
