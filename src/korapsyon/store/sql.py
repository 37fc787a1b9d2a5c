"""The SQL store (SQLAlchemy Core; SQLite or PostgreSQL) with one writer thread.

Invariants:

1. Every write goes through :class:`Writer`: one thread, one connection, writes applied in
   the order they were submitted. It takes everything queued, applies it in one
   transaction and commits (group commit), then resolves each write's future. A write is
   durable when its future resolves; the server acknowledges nothing before that.
2. If a group fails, each of its writes is retried alone, so one bad write cannot sink the
   others; a write that still fails resolves its future with the error.
3. A failure is told to the server in a few plain words (:func:`describe`: the disk is
   full, the database cannot be reached...), never with SQL, parameters or addresses;
   the details go to the log, once when the store starts failing and once when it works
   again. A lost connection is opened again by the next write.
4. Appending an action is idempotent: if the row is already there with the same data (a
   commit whose answer was lost with the connection, then the same action sent again),
   the append succeeds; a different action at that index is refused, never overwritten.
5. Reads (at start-up, and a finished game's record) use their own short connections;
   their failures are :class:`StoreError` too.

Why one module of ~530 lines: the writer thread, the SQL of each write and the failure
policy above are one argument for durability and must be read together; the tables are
in :mod:`.schema`, the contract every store keeps in :mod:`.base`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
from sqlalchemy import Connection, Table, create_engine, delete, event, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.pool import NullPool

from . import schema
from .base import ChatRow, RoomRow, SeatRow, StoreError, WriteLog

Op = Callable[[Connection], Any]

log = logging.getLogger(__name__)


def describe(error: BaseException) -> str:
    """What went wrong, in a few words fit for a player's screen: no SQL, no parameters,
    no host names or ports."""
    if isinstance(error, StoreError):
        return str(error)
    original = error.orig if isinstance(error, DBAPIError) else error
    text = str(original).lower()
    if "full" in text or "no space" in text or "quota" in text:
        return "the database's disk is full"
    if (isinstance(error, DBAPIError) and error.connection_invalidated) or any(
        word in text for word in ("connect", "terminat", "shutdown", "closed")
    ):
        return "the database cannot be reached"
    if "locked" in text or "busy" in text:
        return "the database is busy"
    return f"the database refused the write ({type(original).__name__})"


@dataclass
class Insert:
    """A row to insert: the writer inserts consecutive rows of a table in one statement.
    ``guard`` (if given) runs first and may refuse the row by raising."""

    table: Table
    values: dict[str, Any]
    guard: Callable[[], None] | None = None
    on_error: Callable[[], None] | None = None
    stored: Callable[[Connection], bool] | None = None  # is this very row already there?


Write = Op | Insert


GATHER_SECONDS = 0.001
"""How long the writer waits after a group's first write for more to join it: fewer,
larger commits (each one an fsync, and SQLAlchemy work holding the interpreter lock), for
as much more on every action's round trip (the figures: docs/PERFORMANCE.md)."""


class Writer:
    """The single writer thread: group commits, in submission order, on one connection.

    A write's outcome goes to a ``concurrent.futures.Future`` (:meth:`submit`) or to an
    asyncio future (:meth:`submit_async`); asyncio futures of one group are settled with
    one wake-up of their event loop.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.queue: queue.SimpleQueue[tuple[Write, Any] | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="korapsyon-writer", daemon=True)
        self.commits = 0
        self.failing = False  # the last write failed (logged once, until one succeeds)
        self.conn: Connection | None = None
        self.thread.start()

    def submit(self, op: Write) -> Future[Any]:
        future: Future[Any] = Future()
        self.queue.put((op, future))
        return future

    def submit_async(self, op: Write) -> asyncio.Future[Any]:
        """Like :meth:`submit`, awaitable on the calling event loop."""
        future = asyncio.get_running_loop().create_future()
        self.queue.put((op, future))
        return future

    def close(self) -> None:
        self.queue.put(None)
        self.thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            first = self.queue.get()
            if first is None:
                break
            time.sleep(GATHER_SECONDS)
            batch = [first]
            stop = False
            while True:
                try:
                    item = self.queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            self._commit(batch)
            if stop:
                break
        if self.conn is not None:
            self.conn.close()

    def _connection(self) -> Connection:
        if self.conn is None or self.conn.closed or self.conn.invalidated:
            if self.conn is not None:
                with contextlib.suppress(Exception):
                    self.conn.close()
            self.conn = self.engine.connect()
        return self.conn

    def _commit(self, batch: list[tuple[Write, Any]]) -> None:
        outcomes: list[tuple[Any, BaseException | None, Any]] = []
        try:
            conn = self._connection()
            with conn.begin():
                results = _apply(conn, [write for write, _ in batch])
            self.commits += 1
            outcomes = [
                (sink, exc, result) for (_, sink), (exc, result) in zip(batch, results, strict=True)
            ]
        except Exception:  # the group failed: retry each write alone
            for write, sink in batch:
                try:
                    conn = self._connection()
                    with conn.begin():
                        ((exc, result),) = _apply(conn, [write])
                except Exception as error:
                    self._forget_broken()
                    if self._already_stored(write):
                        exc, result = None, None
                    else:
                        if isinstance(write, Insert) and write.on_error is not None:
                            write.on_error()
                        exc, result = StoreError(describe(error)), None
                        self._failed(error)
                outcomes.append((sink, exc, result))
        if self.failing and any(exc is None for _, exc, _ in outcomes):
            self.failing = False
            log.warning("the store works again")
        _settle(outcomes)

    def _forget_broken(self) -> None:
        """Drop a connection that was lost: the next write opens a new one."""
        if self.conn is not None and self.conn.invalidated:
            with contextlib.suppress(Exception):
                self.conn.close()
            self.conn = None

    def _already_stored(self, write: Write) -> bool:
        """Whether a failed insert's row is in the database after all, exactly as it
        would have written it (see invariant 4)."""
        if not isinstance(write, Insert) or write.stored is None:
            return False
        try:
            conn = self._connection()
            with conn.begin():
                return write.stored(conn)
        except Exception:
            self._forget_broken()
            return False

    def _failed(self, error: BaseException) -> None:
        if not self.failing:
            self.failing = True
            log.warning("the store fails: %s", error)


def _apply(conn: Connection, writes: list[Write]) -> list[tuple[BaseException | None, Any]]:
    """Apply writes in order, inserting runs of rows of one table in one statement."""
    results: list[tuple[BaseException | None, Any]] = []
    index = 0
    while index < len(writes):
        write = writes[index]
        if not isinstance(write, Insert):
            results.append((None, write(conn)))
            index += 1
            continue
        rows = []
        stop = index
        while stop < len(writes):
            other = writes[stop]
            if not isinstance(other, Insert) or other.table is not write.table:
                break
            try:
                if other.guard is not None:
                    other.guard()
            except StoreError as refused:
                results.append((refused, None))
            else:
                rows.append(other.values)
                results.append((None, None))
            stop += 1
        if rows:
            _insert_rows(conn, write.table, rows)  # if it fails, each row is retried alone
        index = stop
    return results


_INSERTS: dict[tuple[str, str, tuple[str, ...]], tuple[str, tuple[str, ...] | None]] = {}


def _insert_rows(conn: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """Insert rows of one table in one statement, compiled once per dialect: the hot path
    of every action (``conn.execute(table.insert(), rows)`` spends about as much of the
    writer's time again on SQLAlchemy's parameter processing, holding the interpreter lock
    the event loop needs; docs/PERFORMANCE.md)."""
    dialect = conn.dialect
    columns = tuple(rows[0])  # (every row of a table is built by one function: one shape)
    key = (dialect.name, table.name, columns)
    found = _INSERTS.get(key)
    if found is None:
        compiled = table.insert().compile(dialect=dialect, column_keys=list(columns))
        order = tuple(compiled.positiontup or ()) if compiled.positional else None
        found = _INSERTS[key] = (str(compiled), order)
    sql, order = found
    if order is None:
        conn.exec_driver_sql(sql, rows)
    else:
        conn.exec_driver_sql(sql, [tuple([row[name] for name in order]) for row in rows])


def _settle(outcomes: list[tuple[Any, BaseException | None, Any]]) -> None:
    """Hand each write its outcome; asyncio futures with one wake-up per event loop."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any, Any]]] = {}
    for sink, exc, result in outcomes:
        if isinstance(sink, asyncio.Future):
            by_loop.setdefault(sink.get_loop(), []).append((sink, exc, result))
            continue
        with contextlib.suppress(InvalidStateError):  # cancelled by its waiter (a task
            if exc is not None:  # stopped as the server shuts down): nobody to tell, and
                sink.set_exception(exc)  # the writer thread must go on
            else:
                sink.set_result(result)
    for loop, items in by_loop.items():
        with contextlib.suppress(RuntimeError):  # a loop that has closed meanwhile
            loop.call_soon_threadsafe(_settle_async, items)


def _settle_async(items: list[tuple[asyncio.Future[Any], Any, Any]]) -> None:
    for future, exc, result in items:
        if future.done():
            continue
        if exc is not None:
            future.set_exception(exc)
        else:
            future.set_result(result)


class SqlStore:
    """Rooms, seats, games, actions, chat and timers in one SQL database."""

    def __init__(self, url: str) -> None:
        self.url = url
        if url.startswith("sqlite"):
            self.engine = create_engine(url, poolclass=NullPool)
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_engine(url, pool_pre_ping=True, pool_size=2, max_overflow=2)
        self.writer = Writer(self.engine)

    @property
    def commits(self) -> int:
        """How many group commits the writer made so far."""
        return self.writer.commits

    # ------------------------------------------------------------ schema
    def migrate(self) -> None:
        """Bring the schema up to date (Alembic migrations)."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
        with self.engine.begin() as conn:
            config.attributes["connection"] = conn
            command.upgrade(config, "head")

    def close(self) -> None:
        self.writer.close()
        self.engine.dispose()

    # ------------------------------------------------------------ writes (futures)
    def create_room(self, row: RoomRow) -> Future[Any]:
        values = _room_values(row)
        return self.writer.submit(lambda c: c.execute(insert(schema.rooms).values(**values)))

    def update_room(self, code: str, **values: Any) -> Future[Any]:
        if "settings" in values:
            values["settings"] = json.dumps(values["settings"])
        statement = update(schema.rooms).where(schema.rooms.c.code == code).values(**values)
        return self.writer.submit(lambda c: c.execute(statement))

    def add_seat(self, code: str, seat: SeatRow) -> Future[Any]:
        """A new seat after the room's last one (the writer inserts the new seats of many
        rooms in one statement)."""
        return self.writer.submit(Insert(schema.seats, _seat_values(code, seat)))

    def replace_seats(self, code: str, seats: list[SeatRow]) -> Future[Any]:
        def op(conn: Connection) -> None:
            table = schema.seats
            conn.execute(delete(table).where(table.c.room == code))
            if seats:
                conn.execute(insert(table), [_seat_values(code, seat) for seat in seats])

        return self.writer.submit(op)

    def rematch(self, old: str, new: RoomRow, at: float) -> Future[Any]:
        """The room ``new`` (its seats, and its game begun with ``new.setup``) as the
        successor of room ``old``, in one transaction: there is never a successor named
        that is not stored, nor a new room that its old room does not lead to. Fails
        (StoreError) if ``new``'s code is taken, or ``old`` has a successor already."""
        assert new.setup is not None
        room = {**_room_values(new), "status": "playing"}
        seats = [_seat_values(new.code, seat) for seat in new.seats]
        setup = json.dumps(new.setup)

        def op(conn: Connection) -> None:
            table = schema.rooms
            conn.execute(insert(table).values(**room))
            if seats:
                conn.execute(insert(schema.seats), seats)
            conn.execute(insert(schema.games).values(room=new.code, setup=setup, started_at=at))
            moved = conn.execute(
                update(table)
                .where(table.c.code == old, table.c.next_room.is_(None))
                .values(next_room=new.code)
            )
            if moved.rowcount != 1:
                raise StoreError(f"room {old} has moved on already")

        return self.writer.submit(op)

    def set_stand_in(self, code: str, seat: int, bot: str | None) -> Future[Any]:
        """A bot of kind ``bot`` plays seat ``seat`` for its player (None: nobody)."""
        table = schema.seats
        statement = (
            update(table).where(table.c.room == code, table.c.seat == seat).values(stand_in=bot)
        )
        return self.writer.submit(lambda c: c.execute(statement))

    def start_game(self, code: str, setup: dict[str, Any], at: float) -> Future[Any]:
        def op(conn: Connection) -> None:
            conn.execute(
                insert(schema.games).values(room=code, setup=json.dumps(setup), started_at=at)
            )
            conn.execute(
                update(schema.rooms).where(schema.rooms.c.code == code).values(status="playing")
            )

        return self.writer.submit(op)

    def append_action(
        self, code: str, seq: int, data: dict[str, Any], at: float, log: WriteLog | None = None
    ) -> asyncio.Future[Any]:
        """Append one action to a game's record (awaitable on the running loop). With a
        ``log``, a failed write fails every later one of the same generation."""
        encoded = _json(data)
        values = {"room": code, "seq": seq, "data": encoded, "at": at}
        table = schema.actions

        def stored(conn: Connection) -> bool:
            row = conn.execute(
                select(table.c.data).where(table.c.room == code, table.c.seq == seq)
            ).first()
            return row is not None and json.loads(row.data) == json.loads(encoded)

        if log is None:
            return self.writer.submit_async(Insert(table, values, stored=stored))
        generation = log.generation

        def guard() -> None:
            if log.failed >= generation:
                raise StoreError("an earlier write of this game failed")

        def failed() -> None:
            log.failed = max(log.failed, generation)

        return self.writer.submit_async(Insert(table, values, guard, failed, stored))

    def append_chat(self, code: str, chat: ChatRow) -> Future[Any]:
        values = {"room": code, **chat.__dict__}
        return self.writer.submit(lambda c: c.execute(insert(schema.chats).values(**values)))

    def set_timer(self, code: str, data: dict[str, Any]) -> Future[Any]:
        def op(conn: Connection) -> None:
            table = schema.timers
            conn.execute(delete(table).where(table.c.room == code))
            conn.execute(insert(table).values(room=code, data=json.dumps(data)))

        return self.writer.submit(op)

    def finish_game(self, code: str, at: float) -> Future[Any]:
        def op(conn: Connection) -> None:
            conn.execute(
                update(schema.games).where(schema.games.c.room == code).values(finished_at=at)
            )
            conn.execute(
                update(schema.rooms).where(schema.rooms.c.code == code).values(status="finished")
            )
            conn.execute(delete(schema.timers).where(schema.timers.c.room == code))

        return self.writer.submit(op)

    def flush(self) -> None:
        """Wait until everything submitted so far is committed (tests, shutdown)."""
        self.writer.submit(lambda conn: None).result(timeout=30)

    # ------------------------------------------------------------ reads
    def load_rooms(
        self, *, finished: bool = False, owned: Callable[[str], bool] | None = None
    ) -> list[RoomRow]:
        """Every room still in the lobby or playing (and finished ones if asked); only
        those whose code is ``owned``, if given (a worker's share: the others' seats,
        actions and chat are not read)."""
        with self._reading() as conn:
            query = select(schema.rooms)
            if not finished:
                query = query.where(schema.rooms.c.status != "finished")
            rooms = [_room(row) for row in conn.execute(query)]
            if owned is not None:
                rooms = [room for room in rooms if owned(room.code)]
            for room in rooms:
                self._fill(conn, room)
        return rooms

    def load_room(self, code: str) -> RoomRow | None:
        with self._reading() as conn:
            row = conn.execute(select(schema.rooms).where(schema.rooms.c.code == code)).first()
            if row is None:
                return None
            room = _room(row)
            self._fill(conn, room)
            return room

    @contextlib.contextmanager
    def _reading(self) -> Iterator[Connection]:
        try:
            with self.engine.connect() as conn:
                yield conn
        except SQLAlchemyError as error:
            raise StoreError(describe(error)) from error

    def _fill(self, conn: Connection, room: RoomRow) -> None:
        code = room.code
        seats, games, actions, chats, timers = (
            schema.seats,
            schema.games,
            schema.actions,
            schema.chats,
            schema.timers,
        )
        room.seats = [
            SeatRow(r.seat, r.name, r.bot, r.token, r.stand_in)
            for r in conn.execute(select(seats).where(seats.c.room == code).order_by(seats.c.seat))
        ]
        game = conn.execute(select(games).where(games.c.room == code)).first()
        if game is not None:
            room.setup = json.loads(game.setup)
            room.actions = [
                json.loads(r.data)
                for r in conn.execute(
                    select(actions.c.data).where(actions.c.room == code).order_by(actions.c.seq)
                )
            ]
        room.chats = [
            ChatRow(r.seq, r.channel, r.author, r.text, r.year, r.at)
            for r in conn.execute(select(chats).where(chats.c.room == code).order_by(chats.c.seq))
        ]
        timer = conn.execute(select(timers.c.data).where(timers.c.room == code)).first()
        room.timer = None if timer is None else json.loads(timer.data)


def _seat_values(code: str, seat: SeatRow) -> dict[str, Any]:
    """A row of the seats table."""
    return {"room": code, **seat.__dict__}


def _room_values(row: RoomRow) -> dict[str, Any]:
    """A row of the rooms table (a new room: no successor yet)."""
    return {
        "code": row.code,
        "created_at": row.created_at,
        "status": row.status,
        "settings": json.dumps(row.settings),
        "host_token": row.host_token,
        "moderator_token": row.moderator_token,
    }


def _room(row: Any) -> RoomRow:
    return RoomRow(
        row.code,
        row.created_at,
        row.status,
        json.loads(row.settings),
        row.host_token,
        row.moderator_token,
        next_room=row.next_room,
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")  # a committed action survives a power cut
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


_json_encode = msgspec.json.Encoder().encode


def _json(data: Any) -> str:
    return _json_encode(data).decode()
