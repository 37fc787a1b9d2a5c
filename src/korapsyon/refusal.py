"""The one refusal every layer outside the rules raises: the store, the rooms, the game
sessions. A stable ``code`` (clients translate it; it never changes), a ``message`` that
says why, and the HTTP ``status`` the lobby API answers with. The server's adapters map
it, and the rules' own errors, to an HTTP answer or a WebSocket ``error`` in one place
(:mod:`korapsyon.server.errors`)."""

from __future__ import annotations


class Refusal(Exception):
    """A request refused as it stands; nothing was changed."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
