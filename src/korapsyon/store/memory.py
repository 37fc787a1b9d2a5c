"""A store in memory: the :class:`~korapsyon.store.base.Store` protocol with dictionaries
in place of tables, for in-process tests and tools that need no database.

It behaves as the SQL store does (tests/store/test_contract.py runs one contract against
both): writes apply in order, a key taken twice is refused (StoreError) and changes
nothing, an action appended again with the same data succeeds, and what is read is a copy
made from JSON, as a database would give it. Nothing survives the process.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import Any

from .base import ChatRow, RoomRow, SeatRow, StoreError, WriteLog


@dataclass
class _Room:
    row: RoomRow  # the room's own columns (seats, game, chat and timer below)
    seats: dict[int, SeatRow] = field(default_factory=dict)
    setup: str | None = None  # JSON, as the SQL store keeps them
    finished_at: float | None = None
    actions: dict[int, str] = field(default_factory=dict)
    chats: dict[int, ChatRow] = field(default_factory=dict)
    timer: str | None = None


def _done(result: Any = None) -> Future[Any]:
    future: Future[Any] = Future()
    future.set_result(result)
    return future


def _failed(error: StoreError) -> Future[Any]:
    future: Future[Any] = Future()
    future.set_exception(error)
    return future


class MemoryStore:
    """Rooms, seats, games, actions, chat and timers in dictionaries."""

    def __init__(self) -> None:
        self.rooms: dict[str, _Room] = {}
        self.lock = threading.Lock()  # (reads may come from other threads)
        self.writes = 0

    @property
    def commits(self) -> int:
        return self.writes

    def migrate(self) -> None:
        """Nothing to migrate."""

    def close(self) -> None:
        """Nothing to let go of."""

    def flush(self) -> None:
        """Every write is applied when it is submitted."""

    # ------------------------------------------------------------ writes
    def _write(self, op: Callable[[], Any]) -> Future[Any]:
        with self.lock:
            try:
                result = op()
            except StoreError as error:
                return _failed(error)
            self.writes += 1
            return _done(result)

    def _room(self, code: str) -> _Room | None:
        return self.rooms.get(code)

    def create_room(self, row: RoomRow) -> Future[Any]:
        def op() -> None:
            self._insert_room(row)

        return self._write(op)

    def _insert_room(self, row: RoomRow) -> _Room:
        if row.code in self.rooms:
            raise StoreError("the database refused the write (the room exists)")
        settings = json.loads(json.dumps(row.settings))
        room = self.rooms[row.code] = _Room(replace(row, settings=settings, next_room=None))
        room.row.seats, room.row.chats, room.row.actions = [], [], []
        room.row.setup = room.row.timer = None
        return room

    def update_room(self, code: str, **values: Any) -> Future[Any]:
        def op() -> None:
            room = self._room(code)
            if room is None:
                return
            if "settings" in values:
                values["settings"] = json.loads(json.dumps(values["settings"]))
            for name, value in values.items():
                setattr(room.row, name, value)

        return self._write(op)

    def add_seat(self, code: str, seat: SeatRow) -> Future[Any]:
        def op() -> None:
            room = self._room(code)
            if room is not None and seat.seat in room.seats:
                raise StoreError("the database refused the write (the seat exists)")
            if room is not None:
                room.seats[seat.seat] = replace(seat)

        return self._write(op)

    def replace_seats(self, code: str, seats: list[SeatRow]) -> Future[Any]:
        def op() -> None:
            room = self._room(code)
            if room is not None:
                room.seats = {seat.seat: replace(seat) for seat in seats}

        return self._write(op)

    def rematch(self, old: str, new: RoomRow, at: float) -> Future[Any]:
        assert new.setup is not None
        setup = new.setup

        def op() -> None:
            before = self._room(old)
            if new.code in self.rooms:
                raise StoreError("the database refused the write (the room exists)")
            if before is None or before.row.next_room is not None:
                raise StoreError(f"room {old} has moved on already")
            room = self._insert_room(replace(new, status="playing"))
            room.seats = {seat.seat: replace(seat) for seat in new.seats}
            room.setup = json.dumps(setup)
            before.row.next_room = new.code

        return self._write(op)

    def set_stand_in(self, code: str, seat: int, bot: str | None) -> Future[Any]:
        def op() -> None:
            room = self._room(code)
            if room is not None and seat in room.seats:
                room.seats[seat].stand_in = bot

        return self._write(op)

    def start_game(self, code: str, setup: dict[str, Any], at: float) -> Future[Any]:
        def op() -> None:
            room = self._room(code)
            if room is None or room.setup is not None:
                raise StoreError("the database refused the write (no room, or a game already)")
            room.setup = json.dumps(setup)
            room.row.status = "playing"

        return self._write(op)

    def append_action(
        self, code: str, seq: int, data: dict[str, Any], at: float, log: WriteLog | None = None
    ) -> asyncio.Future[Any]:
        encoded = json.dumps(data)
        generation = log.generation if log is not None else 0

        def op() -> None:
            if log is not None and log.failed >= generation:
                raise StoreError("an earlier write of this game failed")
            room = self._room(code)
            if room is None:
                raise StoreError("the database refused the write (no such room)")
            there = room.actions.get(seq)
            if there is not None and json.loads(there) != data:
                if log is not None:
                    log.failed = max(log.failed, generation)
                raise StoreError("the database refused the write (another action is there)")
            room.actions[seq] = encoded

        done = asyncio.get_running_loop().create_future()
        outcome = self._write(op)
        error = outcome.exception()
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(None)
        return done

    def append_chat(self, code: str, chat: ChatRow) -> Future[Any]:
        def op() -> None:
            room = self._room(code)
            if room is None or chat.seq in room.chats:
                raise StoreError("the database refused the write (the message exists)")
            room.chats[chat.seq] = replace(chat)

        return self._write(op)

    def set_timer(self, code: str, data: dict[str, Any]) -> Future[Any]:
        def op() -> None:
            room = self._room(code)
            if room is not None:
                room.timer = json.dumps(data)

        return self._write(op)

    def finish_game(self, code: str, at: float) -> Future[Any]:
        def op() -> None:
            room = self._room(code)
            if room is not None:
                room.finished_at = at
                room.row.status = "finished"
                room.timer = None

        return self._write(op)

    # ------------------------------------------------------------ reads
    def load_rooms(
        self, *, finished: bool = False, owned: Callable[[str], bool] | None = None
    ) -> list[RoomRow]:
        with self.lock:
            return [
                self._read(room)
                for code, room in self.rooms.items()
                if (finished or room.row.status != "finished") and (owned is None or owned(code))
            ]

    def load_room(self, code: str) -> RoomRow | None:
        with self.lock:
            room = self._room(code)
            return None if room is None else self._read(room)

    @staticmethod
    def _read(room: _Room) -> RoomRow:
        """A copy of the room as a database would give it back (fresh, from JSON)."""
        row = room.row
        return RoomRow(
            row.code,
            row.created_at,
            row.status,
            json.loads(json.dumps(row.settings)),
            row.host_token,
            row.moderator_token,
            seats=[replace(room.seats[seat]) for seat in sorted(room.seats)],
            setup=None if room.setup is None else json.loads(room.setup),
            actions=[json.loads(room.actions[seq]) for seq in sorted(room.actions)],
            chats=[replace(room.chats[seq]) for seq in sorted(room.chats)],
            timer=None if room.timer is None else json.loads(room.timer),
            next_room=row.next_room,
        )
