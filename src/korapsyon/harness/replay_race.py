"""The replay race (#19): ``korapsyon replay`` against the lean reference
(:mod:`.lean_replay`), side by side, process start-up included.

It plays random legal games of 9-16 players with the one driver, writes their records to a
temporary folder, checks that both commands print the same bytes for them, then times both
as processes, alternately (which goes first alternates too), for several rounds, and
prints the medians and their ratio; then the same for start-up alone (one short record).

    python -m korapsyon.harness.replay_race [--records 250] [--rounds 7] [--bots mix]
    korapsyon bench --versus-lean            # the same, through the CLI

The records: ``--bots random`` games last about 1,150 actions at 9-16 players (23 Years),
heuristic ones about 230; the default, ``mix`` (each seat drawn heuristic or random from
the seed), about 600 - the closest of the bot kinds to the 460 of issue #19's goal.
Both commands run from compiled bytecode, as in an installed package (the environment's
``PYTHONDONTWRITEBYTECODE`` is dropped for them, and a first untimed run writes it).
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

KORAPSYON = (sys.executable, "-m", "korapsyon", "replay")
LEAN = (sys.executable, "-m", "korapsyon.harness.lean_replay")


@dataclass(frozen=True)
class Race:
    """Wall seconds of every round for each command (start-up included)."""

    korapsyon: list[float]
    lean: list[float]

    @property
    def ratio(self) -> float:
        """How fast ``korapsyon replay`` is relative to the reference (1.0: as fast;
        above: faster), from the medians."""
        return statistics.median(self.lean) / statistics.median(self.korapsyon)


def write_records(folder: Path, records: int, bots: str, seed: int) -> list[int]:
    """``records`` random legal games of 9-16 players, written as records in ``folder``;
    returns their action counts."""
    from ..record import record_of, write_record
    from .bench import bot_game

    rng = random.Random(seed)
    counts = []
    for index in range(records):
        game = bot_game(rng.randint(9, 16), rng.getrandbits(32), bots)
        (folder / f"game{index:04d}.json").write_bytes(write_record(record_of(game)))
        counts.append(len(game.actions))
    return counts


def race(paths: Sequence[str], rounds: int) -> Race:
    """Both commands on ``paths``, alternately, ``rounds`` times each (after one untimed
    run of each, which also checks that they print the same bytes)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    outputs = [
        subprocess.run([*command, *paths], capture_output=True, env=env, check=False)
        for command in (KORAPSYON, LEAN)
    ]
    if outputs[0].stdout != outputs[1].stdout or outputs[0].returncode != outputs[1].returncode:
        raise AssertionError("korapsyon replay and the lean reference printed different things")
    times: dict[tuple[str, ...], list[float]] = {KORAPSYON: [], LEAN: []}
    for index in range(rounds):
        order = (KORAPSYON, LEAN) if index % 2 == 0 else (LEAN, KORAPSYON)
        for command in order:
            start = time.perf_counter()
            subprocess.run([*command, *paths], stdout=subprocess.DEVNULL, env=env, check=False)
            times[command].append(time.perf_counter() - start)
    return Race(times[KORAPSYON], times[LEAN])


def processor() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} cores"
    except OSError:
        pass
    return f"{os.cpu_count()} cores"


def run(records: int, rounds: int, bots: str, seed: int, say: Callable[[str], None]) -> Race:
    """The whole race, reported line by line through ``say``."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    say(f"{processor()}, Python {sys.version.split()[0]}, load average {load:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        counts = write_records(Path(folder), records, bots, seed)
        paths = sorted(str(p) for p in Path(folder).glob("*.json"))
        say(
            f"{records} records of 9-16 players ({bots} bots, seed {seed}): "
            f"{statistics.mean(counts):.0f} actions each on average "
            f"(median {statistics.median(counts):.0f}), {sum(counts):,} in all"
        )
        result = race(paths, rounds)
        _report(say, f"{records} records", result, sum(counts))
        start_up = race(paths[:1], rounds)
        _report(say, "start-up (1 record)", start_up, None)
    return result


def _report(say: Callable[[str], None], what: str, result: Race, actions: int | None) -> None:
    for name, times in (("korapsyon replay", result.korapsyon), ("lean reference", result.lean)):
        median = statistics.median(times)
        rate = f", {actions / median:,.0f} actions/s" if actions else ""
        shown = " ".join(f"{t:.3f}" for t in times)
        say(f"{what}: {name:16} median {median:.3f} s{rate}  (rounds: {shown})")
    say(f"{what}: korapsyon replay is {result.ratio:.2f}x the reference's speed")


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m korapsyon.harness.replay_race")
    parser.add_argument("--records", type=int, default=250)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--bots", default="mix", help="random, heuristic, mix, GOOD:BAD")
    parser.add_argument("--seed", type=int, default=19)
    args = parser.parse_args(argv)
    run(args.records, args.rounds, args.bots, args.seed, print)


if __name__ == "__main__":
    main()
