"""``korapsyon play``: play one complete game (bots in every seat) and print its
timeline Year by Year, as a spectator (or the chosen viewer) would read it."""

from __future__ import annotations

import random
from pathlib import Path

import click

from ..bots.kinds import BOT_KINDS
from .terminal import say


@click.command()
@click.option("--players", "-n", default=13, show_default=True, type=click.IntRange(9, 16))
@click.option("--seed", "-s", default=None, type=int, help="Seed of the game (default: random).")
@click.option(
    "--variant",
    type=click.Choice(["direct", "forced_vote"]),
    default="direct",
    show_default=True,
    help="Auto Jail mode (R-25 step 6).",
)
@click.option(
    "--bots",
    type=click.Choice(list(BOT_KINDS)),
    default="random",
    show_default=True,
    help="Who plays the seats: random, heuristic, believer or search bots, a mix, or GOOD:BAD "
    "(docs/BOTS.md).",
)
@click.option(
    "--as",
    "viewer",
    default=None,
    help="Print the timeline as this player sees it, or '@moderator' (default: public).",
)
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also save the game record to this file.",
)
def play(
    *,
    players: int,
    seed: int | None,
    variant: str,
    bots: str,
    viewer: str | None,
    record_path: Path | None,
) -> None:
    """Play a random game and print its timeline Year by Year."""
    from ..bots import seat_agents
    from ..bots.agent import play as play_with
    from ..record import record_of, write_record
    from ..rules.game import Game
    from ..rules.ruleset import Ruleset
    from ..rules.views import MODERATOR_VIEWER, view_for
    from ..selfplay import table

    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    ruleset = Ruleset(auto_jail_mode=variant)  # type: ignore[arg-type]
    game = Game(table(players), seed=seed, ruleset=ruleset)
    if viewer is not None and viewer != MODERATOR_VIEWER and viewer not in game.players:
        raise click.BadParameter(f"no player {viewer!r}; seats are {', '.join(game.players)}")
    play_with(game, seat_agents(game, bots, seed), random.Random(seed))
    view = view_for(game, viewer)
    say(f"Korapsyon - {players} players, seed {seed}, Auto Jail {variant}, {bots} play")
    current = None
    for entry in view["timeline"]:
        year = entry["year"]
        if year != current:
            current = year
            say()
            say("Setup" if year == 0 else f"== Year {year} ==")
        prefix = "  (private) " if entry.get("private") else "  "
        say(prefix + entry["text"])
    if record_path is not None:
        record_path.write_bytes(write_record(record_of(game)))
        say()
        say(f"Record saved to {record_path} ({len(game.actions)} actions).")
