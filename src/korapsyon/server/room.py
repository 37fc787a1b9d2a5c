"""A room: the lobby (seats, bots, settings, tokens, who is connected) and, once started,
its game session (:mod:`.session`). The rooms of a server are held by its :mod:`.hub`;
their tokens are :mod:`.tokens`.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from concurrent.futures import Future
from typing import Any

import msgspec

from ..bots.kinds import SEAT_KINDS
from ..record import FORMAT, Decks, Record, new_game, replay
from ..rules.cards import LARGE_DECK, SMALL_DECK
from ..rules.errors import KorapsyonError
from ..rules.ruleset import MAX_CUSTOM, MAX_PLAYERS, MIN_PLAYERS, check_custom_roles, default_roles
from ..store.base import RoomRow, SeatRow, Store
from .api import NextRoom, RoomInfo, SeatInfo
from .connection import Connection, Outbox
from .errors import Refusal
from .names import check_name
from .port import Seat
from .protocol import Lobby, encode
from .session import GameSession
from .settings import RoomSettings
from .shards import Shards
from .tokens import digest, digests, matches, token

PRESENCE_SECONDS = 1.0  # connections coming and going re-send the lobby at most this often
log = logging.getLogger("korapsyon.server")
BOT_NAMES = ("Bot Amihan", "Bot Bayani", "Bot Dalisay", "Bot Diwa", "Bot Habagat", "Bot Isko",
             "Bot Kidlat", "Bot Liwayway", "Bot Mayumi", "Bot Ningning", "Bot Tala", "Bot Ulan",
             "Bot Yumi", "Bot Kalayaan", "Bot Marikit", "Bot Sinag", "Bot Tanglaw", "Bot Alon",
             "Bot Bituin", "Bot Hiraya")  # fmt: skip


def stored_record(row: RoomRow) -> Record:
    """A game's record as the store holds it: its setup and every committed action."""
    assert row.setup is not None
    return msgspec.convert({**row.setup, "actions": row.actions}, Record)


def check_settings(settings: RoomSettings) -> None:
    """A custom setup must pass R-03's checks (the rest the settings' types check)."""
    if settings.roles is not None:
        try:
            check_custom_roles(settings.roles)
        except KorapsyonError as exc:
            raise Refusal("bad_setup", str(exc)) from None


class Room:
    """A room: its lobby and, once started, its game."""

    def __init__(
        self,
        store: Store,
        code: str,
        *,
        shards: Shards,
        trace: bool,
        settings: RoomSettings,
        host_token: str,
        moderator_token: str | None,
        created_at: float,
    ) -> None:
        self.store = store
        self.shards = shards  # the server's workers: which one serves this room
        self.trace = trace  # benchmarks: acks and updates say which actions they include
        self.code = code
        self.settings = settings
        self.host_token = host_token
        self.moderator_token = moderator_token
        self.created_at = created_at
        self.status = "lobby"
        self.starting = False  # the deal is being committed: the lobby is closed already
        self.seats: list[Seat] = []
        self.connections: list[Connection] = []
        self.outbox = Outbox()  # every message to this room's clients, in order
        self.session: GameSession | None = None
        self.next_room: str | None = None  # the room its table moved on to (rematch)
        self.rematching: asyncio.Future[str] | None = None  # the rematch being committed
        self.touched = time.monotonic()  # last asked for by a request or seen connected
        self.last_write: Future[Any] | None = None  # the lobby's latest write to the store
        self.lobby_pending: asyncio.Handle | None = None  # the lobby's next broadcast
        self.lobby_due = 0.0  # ... at this time of the event loop's clock
        self.lobby_sent = -PRESENCE_SECONDS  # when it last went out (time.monotonic())

    # ------------------------------------------------------------ lobby
    def join(self, raw_name: str) -> tuple[int, str]:
        """A person takes a seat: (seat index, the seat's secret token)."""
        self._in_lobby()
        name = self._new_name(raw_name)
        secret = token()
        self.seats.append(Seat(name, None, digest(secret)))
        self._save_new_seat()
        return len(self.seats) - 1, secret

    def add_bot(self, kind: str, raw_name: str | None = None) -> int:
        self._in_lobby()
        if kind not in SEAT_KINDS:
            raise Refusal("bad_bot", f"bots are {', '.join(SEAT_KINDS)}, not {kind!r}")
        if raw_name is None:
            taken = {s.name for s in self.seats}
            raw_name = next((n for n in BOT_NAMES if n not in taken), f"Bot {len(self.seats) + 1}")
        self.seats.append(Seat(self._new_name(raw_name), kind, None))
        self._save_new_seat()
        return len(self.seats) - 1

    def remove_seat(self, index: int, name: str | None = None) -> None:
        """Remove seat ``index`` - only if it is still ``name``'s, when given: the seats
        after it move up, so a second tap, or a second host screen, that meant the seat
        just removed would otherwise remove the next player."""
        self._in_lobby()
        if not 0 <= index < len(self.seats):
            raise Refusal("no_seat", f"there is no seat {index}", 404)
        if name is not None and self.seats[index].name != name:
            raise Refusal("seat_moved", f"{name} is no longer in seat {index + 1}", 409)
        removed = self.seats.pop(index)
        for conn in list(self.connections):
            if conn.seat == removed.name:
                conn.close()
        self._save_seats()

    def update_settings(self, settings: RoomSettings) -> None:
        self._in_lobby()
        check_settings(settings)
        self.settings = settings
        self.last_write = self.store.update_room(self.code, settings=msgspec.to_builtins(settings))
        self.broadcast_lobby()

    def _in_lobby(self) -> None:
        if self.starting:
            raise Refusal("starting", "the game is starting: the seats are fixed", 409)
        if self.status != "lobby":
            raise Refusal("started", "the game has started: the seats are fixed", 409)

    def _new_name(self, raw: str) -> str:
        name = check_name(raw)
        if any(s.name.casefold() == name.casefold() for s in self.seats):
            raise Refusal("name_taken", f"{name!r} is already at the table", 409)
        # 16 seats at most for the R-02 roles, 20 with a custom setup (docs/RULINGS.md)
        limit = MAX_PLAYERS if self.settings.roles is None else MAX_CUSTOM
        if len(self.seats) >= limit:
            raise Refusal("room_full", f"R-01: this room seats at most {limit}", 409)
        return name

    def _save_seats(self) -> None:
        """Store every seat again (a seat was removed: the later ones moved up)."""
        rows = [SeatRow(i, s.name, s.bot, s.token) for i, s in enumerate(self.seats)]
        self.last_write = self.store.replace_seats(self.code, rows)
        self.broadcast_lobby()

    def _save_new_seat(self) -> None:
        """Store the seat just added (the last one): one row, not the whole table again."""
        index = len(self.seats) - 1
        seat = self.seats[index]
        self.last_write = self.store.add_seat(
            self.code, SeatRow(index, seat.name, seat.bot, seat.token)
        )
        self.broadcast_lobby()

    async def saved(self) -> None:
        """Wait until the lobby's latest change is committed (the store's writer commits in
        order, so every earlier one is too): a lobby request is answered only then, so a
        room or seat the client was told about survives a crash. Raises StoreError if the
        write failed (the next seat change stores every seat again; docs/RULINGS.md)."""
        if self.last_write is not None:
            await asyncio.wrap_future(self.last_write)

    # ------------------------------------------------------------ start
    async def start(self) -> None:
        """Deal and begin (R-02/R-03 checked), with a fresh seed, deal and deck order.

        The lobby closes the moment the seats are read for the deal (``starting``): a join,
        a bot, a removal or a settings change that arrives while the deal is being
        committed is refused (409 ``starting``), never taken into a room whose game was
        dealt without it. Everything that can fail is done before the commit; if the commit
        fails, the room is back in its lobby, unchanged."""
        self._in_lobby()
        setup = self._deal()
        try:
            game = new_game(setup)
            session = GameSession(self, game, setup)
        except KorapsyonError as exc:
            raise Refusal("bad_setup", str(exc)) from None
        self.starting = True
        try:
            self.last_write = self.store.start_game(
                self.code, msgspec.to_builtins(setup), time.time()
            )
            await asyncio.wrap_future(self.last_write)
        finally:
            self.starting = False
        self.status = "playing"
        self.session = session
        self.broadcast_lobby()
        session.resume_timer(None)  # the first step's timer
        for conn in self.connections:
            session.send_view(conn)
        session.changed()  # bots begin

    def _deal(self) -> Record:
        """The game's setup from the seats and settings as they are now."""
        names = [s.name for s in self.seats]
        rng = secrets.SystemRandom()
        roles = list(self.settings.roles) if self.settings.roles is not None else None
        if roles is None:
            if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
                raise Refusal(
                    "player_count",
                    f"R-01: a game needs {MIN_PLAYERS}-{MAX_PLAYERS} seats, not {len(names)}",
                )
            roles = default_roles(len(names))
        elif len(roles) != len(names):
            raise Refusal(
                "player_count", f"the custom setup has {len(roles)} roles for {len(names)} seats"
            )
        rng.shuffle(roles)
        small, large = list(SMALL_DECK), list(LARGE_DECK)
        rng.shuffle(small)
        rng.shuffle(large)
        return Record(
            format=FORMAT,
            players=names,
            roles=roles,
            seed=rng.randrange(2**62),
            ruleset=self.settings.ruleset,
            decks=Decks(small, large),
        )

    def restore(self, row: RoomRow) -> None:
        """Rebuild from the store: the lobby, and the game by replaying its record."""
        self.status = row.status
        self.next_room = row.next_room
        self.seats = [Seat(s.name, s.bot, s.token, s.stand_in) for s in row.seats]
        if row.setup is None:
            return
        record = stored_record(row)
        game, refused = replay(record)
        if refused is not None:
            raise RuntimeError(f"room {self.code}: its stored record is refused: {refused.reason}")
        setup = msgspec.structs.replace(record, actions=[])
        self.session = GameSession(self, game, setup)
        self.session.chat.rows = list(row.chats)
        if game.is_over and self.status != "finished":
            self.finished()  # a crash fell between the last action's commit and this one
        if not game.is_over:
            self.session.resume_timer(row.timer)
            self.session.changed()

    def finished(self) -> None:
        self.status = "finished"
        self.store.finish_game(self.code, time.time())
        self.broadcast_lobby()

    # ------------------------------------------------------------ who is who
    def is_host(self, secret: str) -> bool:
        return matches(secret, self.host_token)

    def check_host(self, secret: str) -> None:
        """Raise Refusal unless ``secret`` is this room's host token (the lobby API's
        requests that manage the room)."""
        if not self.is_host(secret):
            raise Refusal(
                "not_host", "only the host may do this (Authorization: Bearer <host token>)", 403
            )

    def identify(
        self, token_: str | None, host_token: str | None, spectate: bool
    ) -> tuple[str, str | None, bool]:
        """(role, seat name, host?) for a hello; raises Refusal if the tokens are wrong."""
        host = host_token is not None and self.is_host(host_token)
        if host_token is not None and not host:
            raise Refusal("bad_token", "that is not this room's host token", 403)
        if token_ is not None:
            if matches(token_, self.moderator_token):
                return "moderator", None, host
            for seat in self.seats:
                if matches(token_, seat.token):
                    return "player", seat.name, host
            raise Refusal("bad_token", "that token does not open a seat of this room", 403)
        if host:
            return "host", None, True
        if spectate:
            if not self.settings.spectators:
                raise Refusal("no_spectators", "this room does not allow spectators", 403)
            return "spectator", None, False
        raise Refusal("bad_hello", "say who you are: a seat token, the host token or spectate")

    def tokens(self) -> list[str | None]:
        """The digests of every token of the room: the host's, the moderator's, the seats'."""
        return digests(self.host_token, self.moderator_token, self.seats)

    def info(self, joining: Connection | None = None) -> RoomInfo:
        """What anyone in the room (or the lobby page) may see (with ``joining`` counted
        among its connections: the lobby a connection gets before it joins)."""
        connections = [*self.connections, joining] if joining else self.connections
        connected = {c.seat for c in connections if c.seat is not None and not c.closed}
        session = self.session
        playing = session if session is not None and not session.game.is_over else None
        seats = []
        for i, s in enumerate(self.seats):
            here = s.bot is not None or s.name in connected
            away = (
                playing is not None
                and s.bot is None
                and (not here or playing.botseats.missed(s.name) >= 2)
            )
            seats.append(SeatInfo(i, s.name, s.bot, here, s.stand_in, away))
        shards = self.shards
        follow = self.next_room
        return RoomInfo(
            code=self.code,
            status=self.status,  # type: ignore[arg-type]
            join_url=f"{shards.url_of(self.code)}/?room={self.code}",
            seats=seats,
            settings=self.settings,
            spectators=sum(1 for c in connections if c.role == "spectator"),
            next=None
            if follow is None
            else NextRoom(follow, None if shards.owns(follow) else shards.url_of(follow)),
        )

    def spectators(self) -> int:
        return sum(1 for c in self.connections if c.role == "spectator")

    def lobby_frame(self, joining: Connection | None = None) -> bytes:
        return encode(Lobby(msgspec.to_builtins(self.info(joining))))

    def broadcast_lobby(self) -> None:
        """The lobby changed (seats, settings, status): every connection gets it on the
        event loop's next turn, once however many changes that turn made."""
        self._send_lobby_in(0.0)

    def presence_changed(self) -> None:
        """A connection came or went (who is connected, how many watch): every connection
        gets the lobby, at most once every PRESENCE_SECONDS, so that clients coming and
        going cost the room one frame per connection per PRESENCE_SECONDS, not one per
        connection per change (spectators need no token)."""
        self._send_lobby_in(max(0.0, self.lobby_sent + PRESENCE_SECONDS - time.monotonic()))

    def _send_lobby_in(self, delay: float) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a tool using the rooms): nobody is connected
            return
        when = loop.time() + delay
        if self.lobby_pending is not None:
            if self.lobby_due <= when:
                return  # already due as soon
            self.lobby_pending.cancel()
        self.lobby_due = when
        self.lobby_pending = loop.call_at(when, self._send_lobby)

    def _send_lobby(self) -> None:
        self.lobby_pending = None
        self.lobby_sent = time.monotonic()
        if self.connections:
            frame = self.lobby_frame()
            for conn in self.connections:
                conn.send_raw(frame)
