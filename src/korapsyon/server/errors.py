"""The server's refusals: a lobby request or a hello the room refuses, with a stable code,
a message that says why, and the HTTP status the lobby API answers with."""

from __future__ import annotations


class LobbyError(ValueError):
    """A lobby request the room refuses (the message says why)."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


class Elsewhere(LobbyError):
    """The room belongs to another worker of the server (``url``, its base URL): ask there."""

    def __init__(self, code: str, url: str) -> None:
        super().__init__("elsewhere", f"room {code} is served by {url}: ask there", 421)
        self.url = url
