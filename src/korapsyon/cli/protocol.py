"""``korapsyon protocol``: print the live protocol's documentation (docs/PROTOCOL.md) or,
with ``--json``, the JSON Schema of every message."""

from __future__ import annotations

import json

import click

from .terminal import say


@click.command()
@click.option("--json", "as_json", is_flag=True, help="The JSON Schema instead of the document.")
def protocol(as_json: bool) -> None:
    """Print the protocol documentation (or its JSON Schema)."""
    from ..server import protocol as p

    say(json.dumps(p.schemas(), indent=1) if as_json else p.document())
