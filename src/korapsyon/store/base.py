"""What a store is: the :class:`Store` protocol every store implements (the server uses
nothing else), the rows it reads and writes, and its one error.

Two stores implement it: :class:`~korapsyon.store.sql.SqlStore` (SQLite or PostgreSQL, one
writer thread) and :class:`~korapsyon.store.memory.MemoryStore` (tests, and tools that need
no database). tests/store/test_contract.py holds both, and PostgreSQL when it is there, to
the same behaviour.

Writes return futures (``concurrent.futures``: awaitable with ``asyncio.wrap_future``), which
resolve once the write is durable, or fail with :class:`StoreError`; an action's append
returns an asyncio future of the running loop (the hot path). Writes are applied in the
order they were submitted.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..refusal import Refusal


class StoreError(Refusal):
    """The store could not do what was asked (the database refused or is gone): refused
    as ``store_unavailable`` (503), with what went wrong in a few plain words."""

    def __init__(self, message: str) -> None:
        super().__init__("store_unavailable", message, 503)


@dataclass
class SeatRow:
    seat: int
    name: str
    bot: str | None
    token: str | None
    stand_in: str | None = None  # the kind of bot playing for its player while away


@dataclass
class ChatRow:
    seq: int
    channel: str
    author: str
    text: str
    year: int
    at: float


@dataclass
class RoomRow:
    """A room as stored, with its seats and, once started, its game."""

    code: str
    created_at: float
    status: str
    settings: dict[str, Any]
    host_token: str
    moderator_token: str | None
    seats: list[SeatRow] = field(default_factory=list)
    setup: dict[str, Any] | None = None
    actions: list[dict[str, Any]] = field(default_factory=list)
    chats: list[ChatRow] = field(default_factory=list)
    timer: dict[str, Any] | None = None
    next_room: str | None = None  # the room its table moved on to (the host's rematch)


class WriteLog:
    """One game's writes, shared with the writer thread: once a write fails, every later
    write of the same generation fails too, so the stored record never has a hole. The
    game's owner starts a new generation after rebuilding from what was committed."""

    def __init__(self) -> None:
        self.generation = 0
        self.failed = -1


class Store(Protocol):
    """Rooms, seats, games (setup and actions), chat and timers."""

    @property
    def commits(self) -> int:
        """How many times writes were committed so far (the server's collector waits for
        quiet: no commit for a while)."""

    def migrate(self) -> None:
        """Bring the storage up to date (before first use)."""

    def close(self) -> None:
        """Finish every write submitted, then let go of the storage."""

    def flush(self) -> None:
        """Wait until everything submitted so far is committed."""

    # writes
    def create_room(self, row: RoomRow) -> Future[Any]:
        """A new room (its code unused so far: StoreError otherwise)."""

    def update_room(self, code: str, **values: Any) -> Future[Any]:
        """Change a room's columns (``settings``, ``status``...)."""

    def add_seat(self, code: str, seat: SeatRow) -> Future[Any]:
        """A new seat after the room's last one."""

    def replace_seats(self, code: str, seats: list[SeatRow]) -> Future[Any]:
        """Every seat of a room again (one was removed: the later ones moved up)."""

    def rematch(self, old: str, new: RoomRow, at: float) -> Future[Any]:
        """The room ``new`` (its seats, and its game begun with ``new.setup``) as the
        successor of room ``old``, at once: fails (StoreError), changing nothing, if
        ``new``'s code is taken or ``old`` has a successor already."""

    def set_stand_in(self, code: str, seat: int, bot: str | None) -> Future[Any]:
        """A bot of kind ``bot`` plays seat ``seat`` for its player (None: nobody)."""

    def start_game(self, code: str, setup: dict[str, Any], at: float) -> Future[Any]:
        """The room's game begins with ``setup``; the room is ``playing``."""

    def append_action(
        self, code: str, seq: int, data: dict[str, Any], at: float, log: WriteLog | None = None
    ) -> asyncio.Future[Any]:
        """Append action ``seq`` to a game's record (awaitable on the running loop). The
        same action again at that index succeeds; another one fails. With a ``log``, a
        failed write fails every later one of the same generation."""

    def append_chat(self, code: str, chat: ChatRow) -> Future[Any]:
        """A chat message of the room's game."""

    def set_timer(self, code: str, data: dict[str, Any]) -> Future[Any]:
        """The room's timer as it is now (replacing the last)."""

    def finish_game(self, code: str, at: float) -> Future[Any]:
        """The game is over: the room is ``finished`` and has no timer."""

    # reads
    def load_rooms(
        self, *, finished: bool = False, owned: Callable[[str], bool] | None = None
    ) -> list[RoomRow]:
        """Every room still in the lobby or playing (and finished ones if asked), only
        those whose code is ``owned`` if given; with seats, game, chat and timer."""

    def load_room(self, code: str) -> RoomRow | None:
        """One room, whatever its status, or None."""
