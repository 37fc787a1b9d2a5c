"""What a game session needs of its room: a :class:`RoomPort` (a ``Protocol``, so that
``session.py`` and the modules it is made of never import ``room.py``), and the
:class:`Seat` both read.

The room implements the port (:class:`~korapsyon.server.room.Room`); the session calls the
port, and the room calls the session's public methods (``changed``, ``send_view``...).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..store.base import Store
from .connection import Connection
from .settings import RoomSettings


@dataclass
class Seat:
    """A seat at the table: a person's (``token``, the digest of its secret) or a bot's."""

    name: str
    bot: str | None = None
    token: str | None = None  # sha256 of the seat's token (people only)
    stand_in: str | None = None  # a person's seat: the kind of bot playing it while away


class RoomPort(Protocol):
    """The room of a game session, as the session sees it."""

    code: str
    store: Store
    settings: RoomSettings
    seats: list[Seat]
    connections: list[Connection]  # whom a push goes to, in the room's order
    trace: bool  # benchmarks: acks and updates say which actions they include

    def finished(self) -> None:
        """The game is over: store it, and tell the lobby."""

    def broadcast_lobby(self) -> None:
        """The lobby changed (a seat is away, or a bot stands in): send it again."""
