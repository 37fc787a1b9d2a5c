"""``korapsyon replay RECORD...``: replay game records and print their summaries.

One record prints one indented JSON summary. Several print one compact summary per line
(JSON Lines), in the order given. A record stopped by an illegal action prints nothing
(one record; the reason goes to stderr) or ``{"illegal": {"index": K, "reason": ...}}``
(several records); a malformed record prints ``{"error": ...}``. Exit code 2 if any record
was stopped or malformed (GAME_RECORD.md). The work is :func:`korapsyon.record.replay_files`,
which the console script also calls without click (:func:`korapsyon.cli.run`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..record import replay_files


@click.command()
@click.argument("records", nargs=-1, required=True, type=click.Path(path_type=Path))
def replay(records: tuple[Path, ...]) -> None:
    """Replay game RECORDS and print each one's summary."""
    if replay_files(records, sys.stdout.buffer, sys.stderr):
        sys.exit(2)
