"""Tokens: random secrets handed out once, of which only the SHA-256 is kept (in memory and
in the store), and the checks of a secret against them (in constant time).

A seat's token acts for that seat only; the host token manages the room; the moderator
token (a room with a human moderator, R-71) sees everything.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence

from ..store.base import SeatRow
from .port import Seat


def token() -> str:
    return secrets.token_urlsafe(24)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def matches(secret: str | None, known: str | None) -> bool:
    """Whether ``secret`` is the token whose digest is ``known`` (compared in constant time)."""
    if not secret or known is None:
        return False
    return secrets.compare_digest(digest(secret), known)


def opens(secret: str, digests: list[str | None]) -> bool:
    """Whether ``secret`` is the token of one of these digests."""
    return any(matches(secret, known) for known in digests)


def digests(host: str, moderator: str | None, seats: Sequence[Seat | SeatRow]) -> list[str | None]:
    """The digests of a room's tokens: the host's, the moderator's, the seats'."""
    return [host, moderator, *(seat.token for seat in seats)]
