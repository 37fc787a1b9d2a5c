"""A room's chat: who may post and read on which channel (R-23, R-35), the history a
client gets when it (re)connects, and the frames that carry a message (R-70: padded to a
multiple of CHAT_BLOCK, with a cover of the same length for whoever may not read it).

Channels: ``public`` (the table's), ``corrupt`` (the Corrupt Politicians', in the Hidden
Phase) and ``notice`` (the server's notices: who ended a step early, a seat handed to a
bot...). Every message is stored before anyone sees it.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ..rules.actions import HOST
from ..rules.game import Game
from ..rules.roles import CORRUPT_POLITICIAN
from ..rules.state import HIDDEN
from ..rules.views import MODERATOR_VIEWER
from ..store.base import ChatRow, StoreError
from .connection import Connection
from .errors import Refusal
from .frames import COVER, PAD_OVERHEAD, padded
from .port import RoomPort
from .protocol import ChatPosted, encode

CHAT_HISTORY = 200  # messages a client gets when it (re)connects
CHAT_BLOCK = 256  # chat frames are padded to a multiple of this
SERVER = "@server"  # the author of the server's notices (no seat's name starts with "@")
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Characters that would reorder the text shown after them (chat refuses them)."""


class Chat:
    """The messages of one room's game, and the rules of its channels."""

    def __init__(self, room: RoomPort, rows: list[ChatRow] | None = None) -> None:
        self.room = room
        self.rows: list[ChatRow] = rows or []

    def check(self, game: Game, conn: Connection, channel: str, text: str) -> None:
        """Raise Refusal if ``conn`` may not post ``text`` on ``channel`` now."""
        refusal = self.refusal(game, conn, channel)
        if refusal is not None:
            raise refusal
        if BIDI_CONTROLS.intersection(text) or any(ch < " " and ch not in "\n\t" for ch in text):
            raise Refusal("bad_text", "chat text may not hold control or bidi override characters")

    def refusal(self, game: Game, conn: Connection, channel: str) -> Refusal | None:
        """Why ``conn`` may not post on ``channel`` now, or None."""
        if conn.role == "spectator":
            return Refusal("not_allowed", "spectators read the chat but do not post")
        if conn.seat is None:  # the host without a seat, or the moderator
            corrupt = channel != "public"
            return Refusal("not_allowed", "the Corrupt channel is theirs") if corrupt else None
        seat = game.seat(conn.seat)
        if not game.is_active(seat) and not game.is_over:
            return Refusal("not_active", f"{conn.seat} is {game.status[seat]} and cannot speak")
        if channel == "corrupt":
            return _corrupt_refusal(game, seat)
        if seat == game.coa and game.coa_muted and game.step is not HIDDEN:
            return Refusal("muted", "R-35 muted: the COA was silenced by Suhol this Year")
        return None

    def history(self, game: Game, conn: Connection) -> list[bytes]:
        """The last CHAT_HISTORY messages as frames for a client that (re)connects: one
        frame a message, a cover of the same length for those it may not read (R-70: the
        same frames, in number and length, whatever its role; covers of the Corrupt
        channel's messages reached every connection live too)."""
        corrupt = reads(game, conn, "corrupt")
        return [
            body if row.channel == "public" or corrupt else cover
            for row in self.rows[-CHAT_HISTORY:]
            for body, cover in (frames(row),)
        ]

    async def post(self, game: Game, conn: Connection, channel: str, text: str) -> int:
        """Post ``text`` for ``conn``: its author is the seat's name, or for the host
        without a seat and the moderator ``@host`` / ``@moderator``, which no seat's name
        can be (names never start with "@"), so their messages cannot be forged."""
        author = conn.seat or (MODERATOR_VIEWER if conn.role == "moderator" else HOST)
        return await self.publish(game, channel, author, text)

    def notice_text(self, kind: str, **params: Any) -> str:
        """A notice's text: the JSON of ``kind`` and ``params`` (a client words it)."""
        return encode({"kind": kind, **params}).decode()

    async def publish(self, game: Game, channel: str, author: str, text: str) -> int:
        """Store a message, then send it: to its channel's readers, and a cover of the same
        length to everyone else. Raises StoreError (nobody saw it)."""
        row = ChatRow(len(self.rows), channel, author, text, game.year, time.time())
        self.rows.append(row)
        room = self.room
        try:
            await asyncio.wrap_future(room.store.append_chat(room.code, row))
        except StoreError:
            self.rows.remove(row)
            raise StoreError("the chat could not be saved; the message was not posted") from None
        # a message on the Corrupt channel reaches every connection as one of the
        # same length would on the table's channel: the message to its readers, a cover to
        # everyone else (players, the board, spectators)
        body, cover = frames(row)
        for other in room.connections:
            other.send_raw(body if reads(game, other, channel) else cover)
        return row.seq


def _corrupt_refusal(game: Game, seat: int) -> Refusal | None:
    """Why ``seat`` may not post on the Corrupt channel now (R-23), or None."""
    if game.roles[seat] is not CORRUPT_POLITICIAN:
        return Refusal("not_allowed", "only the Corrupt Politicians use this channel")
    if game.step is not HIDDEN:
        return Refusal("not_now", "the Corrupt channel is open during the Hidden Phase (R-23)")
    return None


def talk(conn: Connection) -> None:
    """Count a chat message or a claim against the connection's talk budget."""
    chat = conn.chat
    if not chat.allow():
        raise Refusal(
            "rate_limited", f"at most {chat.count} chat messages or claims in {chat.seconds:g} s"
        )


def reads(game: Game, conn: Connection, channel: str) -> bool:
    """Whether ``conn`` may read ``channel``: the table's and the server's notices,
    everyone; the Corrupt channel, the Corrupt Politicians (R-23) and the moderator."""
    if channel != "corrupt" or conn.role == "moderator":
        return True
    return conn.seat is not None and game.roles[game.seat(conn.seat)] is CORRUPT_POLITICIAN


def frames(row: ChatRow) -> tuple[bytes, bytes]:
    """A chat message's frame padded to a multiple of CHAT_BLOCK, whatever its channel,
    and a cover of the same length."""
    message = ChatPosted(row.seq, row.channel, row.author, row.text, row.year, row.at)  # type: ignore[arg-type]
    frame = encode(message)
    size = -(-(len(frame) + PAD_OVERHEAD) // CHAT_BLOCK) * CHAT_BLOCK
    return padded(frame, size), padded(COVER, size)
