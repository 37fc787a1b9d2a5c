"""Storage: rooms, seats, game records (the log), chat and timers, in SQLite or PostgreSQL.

The game record is the log: a game's setup is written once and each accepted action is
appended; a game is rebuilt by replaying its record. :class:`~.sql.SqlStore` keeps all
writes on one writer thread that commits in groups, so the event loop never waits on disk.
"""

from .sql import SqlStore, StoreError

__all__ = ["SqlStore", "StoreError"]
