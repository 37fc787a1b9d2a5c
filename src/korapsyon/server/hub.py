"""The hub: every room of a server (or of one worker), by code. It creates rooms (and their
successors, when a table plays again), finds a room for a request or a hello (rebuilding it
from the store when it was set aside), rebuilds every unfinished room at start-up, sets idle
rooms aside, and hands out finished games' records to their table.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time

import msgspec

from ..record import Record, new_game
from ..rules.errors import KorapsyonError
from ..store.base import RoomRow, SeatRow, Store, StoreError
from .analysis import Analyses, Analysis
from .errors import Elsewhere, Refusal
from .port import Seat
from .room import Room, stored_record
from .settings import RoomSettings
from .shards import Shards
from .tokens import digest, digests, opens, token

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O: codes are read aloud and typed
CODE_LENGTH = 5
log = logging.getLogger("korapsyon.server")


def _is_code(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(letter in CODE_LETTERS for letter in code)


class Hub:
    """Every room of the server."""

    def __init__(
        self,
        store: Store,
        base_url: str = "",
        *,
        trace: bool = False,
        shards: Shards | None = None,
    ) -> None:
        self.store = store
        self.shards = shards or Shards.single(base_url)  # the workers, if more than one
        self.trace = trace  # benchmarks: acks and updates say which actions they include
        self.rooms: dict[str, Room] = {}
        self.damaged: dict[str, str] = {}  # rooms that could not be rebuilt: code -> why
        self.analyses = Analyses()  # finished games' analyses, for their end screens

    def create_room(self, settings: RoomSettings) -> tuple[Room, str, str | None]:
        """A new room: (room, host token, moderator token if a human moderates). Its random
        code picks the worker that owns it; a room another worker owns is only written to
        the store (that worker reads it from there when it is first asked for), so this
        worker must not use it beyond the request that creates it."""
        code = self._new_code()
        host = token()
        moderator = token() if settings.moderator == "human" else None
        room = Room(
            self.store,
            code,
            shards=self.shards,
            trace=self.trace,
            settings=settings,
            host_token=digest(host),
            moderator_token=moderator and digest(moderator),
            created_at=time.time(),
        )
        if self.shards.owns(code):
            self.rooms[code] = room
        room.last_write = self.store.create_room(
            RoomRow(
                code,
                room.created_at,
                "lobby",
                msgspec.to_builtins(settings),
                room.host_token,
                room.moderator_token,
            )
        )
        return room, host, moderator

    async def rematch(self, room: Room) -> str:
        """The host's "play again" once the game of ``room`` is over: a new room with the
        same settings and seats (names, bots, and the digests of every token: each page of
        the table opens the same place there), started at once with a fresh deal (R-02/
        R-03); ``room`` remembers it as its successor (:attr:`Room.next_room`, stored in the
        same transaction) and tells its pages, which move there. Asked again (a second
        tap, two hosts' screens), it is the same room: one successor, ever. Its code picks
        its worker like any new room's; another worker's is only written to the store,
        which that worker reads on first use. Returns the new room's code."""
        if room.next_room is not None:
            return room.next_room
        if room.session is None or not room.session.game.is_over:
            raise Refusal("not_over", "play again once the game is over", 409)
        if room.rematching is None:
            room.rematching = asyncio.ensure_future(self._rematch(room))
        rematching = room.rematching
        try:
            return await asyncio.shield(rematching)  # (a request that goes away ends nothing)
        finally:
            if rematching.done() and (rematching.cancelled() or rematching.exception()):
                room.rematching = None  # it failed: the next tap tries again

    async def _rematch(self, room: Room) -> str:
        for attempt in range(3):
            code = self._new_code()
            new = Room(
                self.store,
                code,
                shards=self.shards,
                trace=self.trace,
                settings=room.settings,
                host_token=room.host_token,
                moderator_token=room.moderator_token,
                created_at=time.time(),
            )
            new.seats = [Seat(s.name, s.bot, s.token) for s in room.seats]
            setup = new._deal()
            try:
                new_game(setup)  # as the first game's start checked them
            except KorapsyonError as exc:
                raise Refusal("bad_setup", str(exc)) from None
            row = RoomRow(
                code,
                new.created_at,
                "playing",
                msgspec.to_builtins(room.settings),
                room.host_token,
                room.moderator_token,
                seats=[SeatRow(i, s.name, s.bot, s.token) for i, s in enumerate(new.seats)],
                setup=msgspec.to_builtins(setup),
            )
            room.last_write = self.store.rematch(room.code, row, time.time())
            try:
                await asyncio.wrap_future(room.last_write)
                break
            except StoreError:  # the store is failing, or holds an evicted room's code
                if attempt == 2:
                    raise
        room.next_room = code
        room.broadcast_lobby()
        log.info("room %s plays again in room %s", room.code, code)
        if self.shards.owns(code):
            await self.room(code)  # read from the store, as after a restart: its game runs
        return code

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in self.rooms and code not in self.damaged:
                return code

    async def room(self, code: str) -> Room:
        """The room ``code``: in memory, or rebuilt from the store if it was evicted (read
        off the event loop: a slow or unreachable database holds up only this request)."""
        code = code.upper()
        self._refuse_damaged(code)
        room = self.rooms.get(code)
        if room is None and _is_code(code) and not self.shards.owns(code):
            raise Elsewhere(code, self.shards.url_of(code))
        if room is None and _is_code(code):
            row = await asyncio.to_thread(self.store.load_room, code)
            room = self.rooms.get(code)  # another request may have rebuilt it meanwhile
            if room is None and row is not None:
                room = self._rebuild(row)
                if room is None:
                    return await self.room(code)  # set aside: say so
        if room is None:
            raise Refusal("no_room", f"there is no room {code!r}", 404)
        room.touched = time.monotonic()
        return room

    def restore(self) -> int:
        """Rebuild every unfinished room this worker owns from the store; returns how many
        were rebuilt. A room that cannot be rebuilt is set aside (:meth:`_rebuild`): it
        never keeps the server, or any other room, from starting."""
        rows = self.store.load_rooms(owned=self.shards.owns)
        return sum(self._rebuild(row) is not None for row in rows)

    def _rebuild(self, row: RoomRow) -> Room | None:
        """The room of ``row``, rebuilt from the store; or, if that fails (a record the
        rules refuse, seats that do not match the deal, settings this version cannot
        read), None: the room is logged and marked damaged (:attr:`damaged`), requests for
        it are refused with ``room_damaged``, and the store keeps it as it was (what its
        rebuilding had started, a timer, is stopped)."""
        room = None
        try:
            settings = msgspec.convert(row.settings, RoomSettings)
            room = Room(
                self.store,
                row.code,
                shards=self.shards,
                trace=self.trace,
                settings=settings,
                host_token=row.host_token,
                moderator_token=row.moderator_token,
                created_at=row.created_at,
            )
            room.restore(row)
        except Exception as exc:
            if room is not None and room.session is not None:
                room.session.stop()
            self.damaged[row.code] = f"{type(exc).__name__}: {exc}"
            log.exception("room %s cannot be rebuilt from the store: set aside", row.code)
            return None
        self.rooms[row.code] = room
        return room

    def evict_idle(self, idle_seconds: float) -> int:
        """Drop from memory the rooms not playing (in the lobby, or finished) that nobody
        has been connected to or asked for in ``idle_seconds``; their state is all in the
        store, and :meth:`room` rebuilds one when it is asked for again. Returns how many
        rooms were dropped. A game in play is never dropped: its timers and bots run."""
        now = time.monotonic()
        idle = []
        for code, room in self.rooms.items():
            writing = room.last_write is not None and not room.last_write.done()
            if room.connections or writing:  # a write still on its way: not idle yet
                room.touched = now
            elif room.status != "playing" and now - room.touched >= idle_seconds:
                idle.append(code)
        for code in idle:
            room = self.rooms.pop(code)
            if room.lobby_pending is not None:  # nobody is left to send it to
                room.lobby_pending.cancel()
                room.lobby_pending = None
            if room.session is not None:  # (a vote count's refresh may still be due: its
                room.session.stop()  # handle would keep the session, and the room, alive)
            room.session = None  # the session refers to its room: undo the cycle, so that
            # counting references frees them at once (they have aged into the collector's
            # oldest generation, which a loaded server rarely collects)
        return len(idle)

    def record(self, code: str, secret: str) -> Record:
        """A finished game's record (from memory, or from the store, so any worker has it),
        for its table: the holder of one of its room's tokens (a seat's, the host's or the
        moderator's), or anyone if the host chose to publish it (``public_record``; the
        record holds every secret ballot: docs/RULINGS.md). Raises Refusal."""
        settings, tokens, record = self._finished(code)
        if not settings.public_record and not opens(secret, tokens):
            raise Refusal(
                "not_at_table",
                "a game's record is for its table: ask with a seat's, the host's or the "
                "moderator's token (Authorization: Bearer <token>)",
                403,
            )
        if record is None:
            raise Refusal("no_record", f"room {code.upper()!r} has no finished game", 404)
        return record

    def _finished(self, code: str) -> tuple[RoomSettings, list[str | None], Record | None]:
        """Room ``code``'s settings, its tokens' digests and its finished game's record
        (None: no game has finished there). Raises Refusal (no such room, or damaged)."""
        code = code.upper()
        self._refuse_damaged(code)
        room = self.rooms.get(code)
        if room is not None:
            record = room.session.record() if room.session and room.session.game.is_over else None
            return room.settings, room.tokens(), record
        row = self.store.load_room(code)
        if row is None:
            raise Refusal("no_record", f"room {code!r} has no finished game", 404)
        try:
            settings = msgspec.convert(row.settings, RoomSettings)
        except msgspec.ValidationError as exc:
            self.damaged[code] = f"{type(exc).__name__}: {exc}"
            raise self._damaged(code) from None
        tokens = digests(row.host_token, row.moderator_token, row.seats)
        finished = row.setup is not None and row.status == "finished"
        return settings, tokens, stored_record(row) if finished else None

    def analysis(self, code: str, secret: str, viewer: str | None) -> Analysis:
        """A finished game's analysis (:mod:`.analysis`): the public view's for anyone (it
        is worked out from the public events and the roles the end reveals to all), a
        player's own view's (``viewer``) for whoever may read the record (:meth:`record`:
        a player's view holds their private results). Raises Refusal."""
        if viewer is not None:
            return self.analyses.of(code.upper(), self.record(code, secret), viewer)
        record = self._finished(code)[2]
        if record is None:
            raise Refusal("no_record", f"room {code.upper()!r} has no finished game", 404)
        return self.analyses.of(code.upper(), record, None)

    def _refuse_damaged(self, code: str) -> None:
        if code in self.damaged:
            raise self._damaged(code)

    @staticmethod
    def _damaged(code: str) -> Refusal:
        return Refusal(
            "room_damaged",
            f"room {code} could not be read from the store; it is closed until the server's "
            "operator repairs it (the other rooms are not affected, and nothing of it was "
            "changed)",
            503,
        )
