"""Run bot games for the simulator: one game from (config, player count, index), and many
games in chunks on local cores or a Dask cluster (:mod:`.cluster`). A game's seed depends
only on the run's seed, the player count and the game's index, so results do not depend on
how games are spread over workers or machines."""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from ..bots import seat_agents
from ..bots.agent import play
from ..record import record_of, write_record
from ..rules import events as ev
from ..rules.game import Game
from ..rules.roles import Role
from ..rules.ruleset import Ruleset, check_custom_roles
from ..selfplay import table
from .cluster import place

CHUNK = 25  # heuristic or random games per task sent to a worker
SEARCH_CHUNK = 2  # games per task when search bots play (each takes 3-30 s)


@dataclass(frozen=True)
class SimConfig:
    """What to simulate. ``per_count`` overrides the ruleset for some player counts;
    ``composition`` maps roles to counts (Citizens fill the rest); None means the R-02
    table."""

    players: tuple[int, ...]
    games: int
    bots: str = "heuristic"
    ruleset: Ruleset = field(default_factory=Ruleset)
    seed: int = 0
    composition: tuple[tuple[Role, int], ...] | None = None
    records: bool = False
    per_count: tuple[tuple[int, Ruleset], ...] = ()

    def ruleset_for(self, players: int) -> Ruleset:
        return dict(self.per_count).get(players, self.ruleset)


@dataclass(frozen=True)
class GameResult:
    """What the statistics need from one game (and its record, if asked for)."""

    players: int
    index: int
    seed: int
    winner: str
    reason: str
    years: int
    tokhang: int
    auto_jail: int
    suhol: int
    witness: int
    record: bytes | None = None


def game_seed(seed: int, players: int, index: int) -> int:
    return random.Random(f"korapsyon-sim/{seed}/{players}/{index}").getrandbits(62)


def deal(config: SimConfig, players: int, rng: random.Random) -> list[Role] | None:
    """The roles of a custom composition, shuffled; None for the R-02 deal."""
    if config.composition is None:
        return None
    roles: list[Role] = []
    for role, count in config.composition:
        roles += [role] * count
    if len(roles) > players:
        raise ValueError(f"the composition has {len(roles)} roles for {players} seats")
    roles += [Role.CITIZEN] * (players - len(roles))
    check_custom_roles(roles)
    rng.shuffle(roles)
    return roles


def play_one(config: SimConfig, players: int, index: int) -> GameResult:
    """Play game ``index`` of the ``players``-seat table of a run."""
    seed = game_seed(config.seed, players, index)
    rng = random.Random(seed)
    game = Game(
        table(players),
        roles=deal(config, players, rng),
        seed=seed,
        ruleset=config.ruleset_for(players),
    )
    play(game, seat_agents(game, config.bots, seed), rng)
    assert game.outcome is not None
    counts = dict.fromkeys((ev.TokhangPaid, ev.AutoJailUsed, ev.SuholPaid, ev.WitnessTestimony), 0)
    for event in game.events:
        kind = type(event)
        if kind in counts:
            counts[kind] += 1
    return GameResult(
        players,
        index,
        seed,
        game.outcome.winner,
        game.outcome.reason,
        game.year,
        counts[ev.TokhangPaid],
        counts[ev.AutoJailUsed],
        counts[ev.SuholPaid],
        counts[ev.WitnessTestimony],
        write_record(record_of(game)) if config.records else None,
    )


def chunk_size(bots: str) -> int:
    """Games per task: about a second of work for heuristic or random bots (25 games), about
    a minute for search bots (2 games), so a task is worth sending to a worker."""
    return SEARCH_CHUNK if "search" in bots else CHUNK


@dataclass(frozen=True)
class Games:
    """Games ``start`` to ``stop`` (excluded) of the ``players``-seat table of a run."""

    config: SimConfig
    players: int
    start: int
    stop: int

    def chunks(self) -> Iterator[Games]:
        size = chunk_size(self.config.bots)
        for start in range(self.start, self.stop, size):
            yield Games(self.config, self.players, start, min(start + size, self.stop))


def _play_chunk(games: Games) -> list[GameResult]:
    return [play_one(games.config, games.players, i) for i in range(games.start, games.stop)]


def play_games(
    batches: Sequence[Games],
    pool: Executor,
    progress: Callable[[int], None] | None = None,
) -> list[list[GameResult]]:
    """The results of each batch, in index order, played in chunks on ``pool`` (see
    :func:`.cluster.place`). A pool is given every chunk at once, so it stays busy across
    batches (:class:`.cluster.InlineExecutor` plays each when it is read); ``progress`` is
    called with the number of games of each chunk read back."""
    chunks = [(n, chunk) for n, batch in enumerate(batches) for chunk in batch.chunks()]
    played_chunks = pool.map(_play_chunk, [chunk for _, chunk in chunks])
    results: list[list[GameResult]] = [[] for _ in batches]
    for (n, _), played in zip(chunks, played_chunks, strict=True):
        results[n] += played
        if progress:
            progress(len(played))
    return results


def simulate(
    config: SimConfig,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    *,
    cluster: str | None = None,
) -> list[GameResult]:
    """Every game of the run, ordered by player count then index, on ``workers`` local
    processes (default: every core) or on the Dask cluster whose scheduler is at
    ``cluster``: the same results wherever they run. ``progress`` is called with the number
    of games just finished."""
    batches = [Games(config, players, 0, config.games) for players in config.players]
    with place(workers or os.cpu_count() or 1, cluster) as pool:
        return [result for batch in play_games(batches, pool, progress) for result in batch]


def parse_composition(text: str) -> tuple[tuple[Role, int], ...]:
    """``gp=2,cp=3,lawyer=1,ombudsperson=1,coa=1`` (Citizens fill the remaining seats)."""
    aliases = {"gp": Role.GOOD_POLITICIAN, "cp": Role.CORRUPT_POLITICIAN, "omb": Role.OMBUDSPERSON}
    out: list[tuple[Role, int]] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, value = part.partition("=")
        role = aliases.get(key.strip()) or Role(key.strip())
        out.append((role, int(value)))
    return tuple(out)


def wire_composition(composition: tuple[tuple[Role, int], ...] | None) -> dict[str, int] | None:
    """A composition as JSON writes it (``{"corrupt_politician": 3, ...}``; None: R-02's)."""
    return None if composition is None else {role.value: n for role, n in composition}


def parse_rules(pairs: Sequence[str]) -> tuple[Ruleset, tuple[tuple[int, Ruleset], ...]]:
    """``key=value`` options as a Ruleset (values read as JSON where they can be), and the
    per-player-count rulesets of ``key=N:value,N:value`` options."""
    base: dict[str, Any] = {}
    per_count: dict[int, dict[str, Any]] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"--rule takes key=value, not {pair!r}")
        key = key.strip()
        if re.fullmatch(r"\d+:[^,]+(,\d+:[^,]+)*", value):
            for item in value.split(","):
                count, _, one = item.partition(":")
                per_count.setdefault(int(count), {})[key] = _json(one)
        else:
            base[key] = _json(value)
    ruleset = Ruleset.from_wire(base)
    extra = tuple(
        (count, Ruleset.from_wire({**base, **options}))
        for count, options in sorted(per_count.items())
    )
    return ruleset, extra


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text
