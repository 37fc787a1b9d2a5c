"""``korapsyon replay RECORD...``: replay game records and print their summaries.

One record prints one indented JSON summary. Several print one compact summary per line
(JSON Lines), in the order given. A record stopped by an illegal action prints nothing
(one record; the reason goes to stderr) or ``{"illegal": {"index": K, "reason": ...}}``
(several records); a malformed record prints ``{"error": ...}``. Exit code 2 if any record
was stopped or malformed (GAME_RECORD.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..record import RecordError, encode_json, replay_bytes


@click.command()
@click.argument("records", nargs=-1, required=True, type=click.Path(path_type=Path))
def replay(records: tuple[Path, ...]) -> None:
    """Replay game RECORDS and print each one's summary."""
    out = sys.stdout.buffer
    failed = False
    single = len(records) == 1
    for path in records:
        try:
            summary, stop = replay_bytes(path.read_bytes())
        except (OSError, RecordError) as exc:
            failed = True
            message = str(exc) if isinstance(exc, RecordError) else f"cannot read: {exc}"
            click.echo(f"{path}: {_one_line(message)}", err=True)
            if not single:
                out.write(encode_json({"error": message}) + b"\n")
            continue
        if stop is not None:
            failed = True
            click.echo(
                f"{path}: illegal action at index {stop.index}: {_one_line(stop.reason)}", err=True
            )
            if not single:
                out.write(
                    encode_json({"illegal": {"index": stop.index, "reason": stop.reason}}) + b"\n"
                )
            continue
        out.write(encode_json(summary, indent=2 if single else 0) + b"\n")
    out.flush()
    if failed:
        sys.exit(2)


def _one_line(text: str) -> str:
    """Control characters (a newline in a player's name...) shown escaped: one line."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
