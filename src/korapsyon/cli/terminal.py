"""The one place the CLI writes to the terminal: plain text, no markup interpretation
(player names may contain brackets or other symbols and are printed as they are)."""

from __future__ import annotations

import click


def say(text: str = "") -> None:
    click.echo(text)


def warn(text: str) -> None:
    click.echo(text, err=True)
