"""Storage: rooms, seats, game records (the log), chat and timers.

The game record is the log: a game's setup is written once and each accepted action is
appended; a game is rebuilt by replaying its record. :class:`~.base.Store` is what every
store does; :class:`~.sql.SqlStore` (SQLite or PostgreSQL) keeps all writes on one writer
thread that commits in groups, so the event loop never waits on disk;
:class:`~.memory.MemoryStore` keeps everything in memory.
"""

from .base import Store, StoreError
from .memory import MemoryStore
from .sql import SqlStore

__all__ = ["MemoryStore", "SqlStore", "Store", "StoreError"]
