"""Terminal output of the commands: plain text, no markup interpretation (player names may
contain brackets or other symbols and are printed as they are). ``korapsyon replay`` writes
its JSON straight to standard output instead, for speed."""

from __future__ import annotations

import click


def say(text: str = "") -> None:
    click.echo(text)
