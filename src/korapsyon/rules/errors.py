"""The error hierarchy of the rules core.

Two kinds, with stable codes that the server forwards as they are:

* :class:`MalformedError` - the input could not be understood (bad JSON, wrong types,
  unknown keys, a setup broken by R-01/R-03).
* :class:`IllegalActionError` - a well-formed action that the rules do not allow now.
  It names the rule id; a refused action changes nothing.
"""

from __future__ import annotations

from typing import Any


class KorapsyonError(ValueError):
    """Base class of every error the rules core raises on bad input."""

    code = "error"


class MalformedError(KorapsyonError):
    """Input that could not be parsed or does not describe a valid setup."""

    code = "malformed"

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"{rule} {message}" if rule else message)

    def __reduce__(self) -> tuple[Any, tuple[str, str | None]]:
        return (_malformed, (self.message, self.rule))


def _malformed(message: str, rule: str | None) -> MalformedError:
    return MalformedError(message, rule=rule)


class IllegalActionError(KorapsyonError):
    """An action the rules refuse right now. ``code`` is stable, ``rule`` is an R-xx id."""

    def __init__(self, code: str, rule: str, message: str) -> None:
        self.code = code
        self.rule = rule
        self.message = message
        super().__init__(f"{rule} {code}: {message}")

    def __reduce__(self) -> tuple[type[IllegalActionError], tuple[str, str, str]]:
        return (type(self), (self.code, self.rule, self.message))
