"""``korapsyon attack``: attacks on a server, measured (docs/RELIABILITY.md); one module
per attack."""

from __future__ import annotations

import click

from .churn import churn
from .slowloris import slowloris


@click.group()
def attack() -> None:
    """Attack a server (one started for it, or --url) and measure what it does."""


attack.add_command(churn)
attack.add_command(slowloris)
