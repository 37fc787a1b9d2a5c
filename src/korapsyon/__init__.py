"""Korapsyon: the rules engine, game records and tools for the social deduction game.

The rules live in :mod:`korapsyon.rules` (pure Python, no I/O); game records and the
``korapsyon replay`` contract in :mod:`korapsyon.record`; the command line in
:mod:`korapsyon.cli`.
"""

__version__ = "0.1.0"
