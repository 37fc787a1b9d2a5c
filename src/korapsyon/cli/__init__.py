"""The ``korapsyon`` command line: one command per module, each thin (parse, call, print).

:func:`run` is the console script. ``korapsyon replay FILE...`` - the engine's throughput
benchmark, where start-up counts - runs without click when its arguments are plain paths
(click's import is a quarter of replay's start-up); every other command line, and
``replay`` with any option, goes to the click group :data:`main` (:mod:`.group`), imported
on first use.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import click


def run() -> None:
    """The ``korapsyon`` console script (and ``python -m korapsyon``)."""
    args = sys.argv[1:]
    if len(args) > 1 and args[0] == "replay" and not any(a.startswith("-") for a in args[1:]):
        from ..record import replay_files

        sys.exit(2 if replay_files(args[1:], sys.stdout.buffer, sys.stderr) else 0)
    from .group import main

    main()


def __getattr__(name: str) -> click.Group:
    """``main``, the click group, imported when asked for (PEP 562)."""
    if name == "main":
        from .group import main

        return main
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
