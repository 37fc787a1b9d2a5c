"""The server's refusals, and the one place that turns an error into what a client is told.

Every layer raises :class:`~korapsyon.refusal.Refusal` (code, message, HTTP status): the
store's :class:`~korapsyon.store.sql.StoreError` is one, and so is :class:`Elsewhere`.
:func:`wire` maps a refusal, or an error of the rules (whose codes are the rules'), to the
code and message a client sees; the HTTP and WebSocket adapters use it and nothing else.
"""

from __future__ import annotations

from ..refusal import Refusal
from ..rules.errors import IllegalActionError, KorapsyonError

__all__ = ["Elsewhere", "Refusal", "wire"]


class Elsewhere(Refusal):
    """The room belongs to another worker of the server (``url``, its base URL): ask there."""

    def __init__(self, code: str, url: str) -> None:
        super().__init__("elsewhere", f"room {code} is served by {url}: ask there", 421)
        self.url = url


def wire(exc: Refusal | KorapsyonError) -> tuple[str, str]:
    """The code and message a client is told: a refusal's own; an illegal action's rule
    code and why (naming the rule id); anything else the rules refuse is ``malformed``."""
    if isinstance(exc, Refusal):
        return exc.code, exc.message
    if isinstance(exc, IllegalActionError):
        return exc.code, str(exc)
    return "malformed", str(exc)
