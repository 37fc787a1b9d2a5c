"""Harnesses that run the server under stress and measure it (load, crashes, attacks,
benchmarks); tools for the project's engineers, not part of a game. Most need the
``harness`` extra (``pip install 'korapsyon[harness]'``); this module itself needs only the
core, so that a command can say so.

* :mod:`.spawn` - the one way to start a ``korapsyon serve`` process and wait for it;
* :mod:`.loadtest`, :mod:`.crashtest`, :mod:`.churn`, :mod:`.slowloris` - the harnesses
  behind ``korapsyon loadtest``, ``crashtest`` and ``attack``;
* :mod:`.bench` - ``korapsyon bench`` (the core alone: the engine and records).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

EXTRA = frozenset({"httpx", "picows", "psutil", "uvloop", "websockets"})
"""The packages of the ``harness`` extra (pyproject.toml), imported only under here."""


@contextlib.contextmanager
def needs_extra(command: str) -> Iterator[None]:
    """Import a harness inside this block: if a package of the extra is missing, say so in
    one line and exit with status 2 (as for a usage error)."""
    try:
        yield
    except ModuleNotFoundError as error:
        if error.name not in EXTRA:
            raise
        print(
            f"korapsyon {command} needs the harness extra: pip install 'korapsyon[harness]'",
            file=sys.stderr,
        )
        raise SystemExit(2) from None


@contextlib.contextmanager
def target(url: str | None) -> Iterator[str]:
    """The base URL of the server to attack: ``url`` (a running server), or a
    ``korapsyon serve`` with its default limits started for the attack and stopped after
    it (as an attacker would meet a server)."""
    if url is not None:
        yield url.rstrip("/")
        return
    from .spawn import spawned_server

    with spawned_server() as (base, _):
        yield base
