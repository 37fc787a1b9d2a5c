"""The bytes of the views a room's connections are sent (protocol 4).

A ``view`` carries a connection's whole view; an ``update`` only what changed since that
connection's last frame: the members of its state that differ (a member gone reads null),
the new timeline entries, the timer. A frame is assembled from JSON parts encoded once:
the shared part's changes once a push for every base the room's connections hold
(:class:`SharedParts`), a connection's own part once it changes. Players' frames carry a
``pad`` field of spaces to a length set by :mod:`.padding` (R-70).

A client keeps its state and applies an update's with :func:`merged` (the web client does
the same in ``shell.js``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .protocol import Ack, encode

View = Mapping[str, Any]

_PAD_FIELD = b',"pad":"'
PAD_OVERHEAD = len(_PAD_FIELD) + 1  # the field's name and quotes: its least cost
COVER = b'{"type":"cover"}'
EMPTY = b"{}"
ANY_COUNT = -1
"""A base's vote count that no count equals: :meth:`SharedParts.since` then sends the
ballot whatever the count (the most a connection holding that base can be sent)."""


def merged(state: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """A client's state after an ``update`` whose ``state`` is ``changes``."""
    return {**state, **changes}


def changed_members(old: View | None, new: View) -> dict[str, Any]:
    """The members of ``new`` that ``old`` lacks or holds with another value, and those
    ``old`` holds and ``new`` lacks (as None); all of ``new`` if there is no ``old``."""
    if old is None:
        return dict(new)
    if old is new:
        return {}
    missing = object()
    out = {key: value for key, value in new.items() if old.get(key, missing) != value}
    for key in old.keys() - new.keys():
        out[key] = None
    return out


class SharedParts:
    """The shared part of a room's views at one moment (``core``: everything but the vote
    count, as :meth:`~korapsyon.rules.views.ViewTracker.shared_core` builds it, and
    ``cast``, the count), as the JSON each connection is sent: whole, or as the changes
    since the part it last received (its base: a core and a count). Each is encoded once,
    however many connections hold the same base."""

    __slots__ = ("_changes", "_json", "cast", "core")

    def __init__(self, core: View, cast: int | None) -> None:
        self.core = core
        self.cast = cast
        self._changes: dict[int, dict[str, Any]] = {}  # id(base core) -> its changes
        self._json: dict[tuple[int, int | None], bytes] = {}

    def known(self, base: View | None, changes: dict[str, Any]) -> None:
        """Take ``changes`` as the core's changes since ``base`` (worked out by the caller)."""
        self._changes[id(base)] = changes

    def changes(self, base: View | None) -> dict[str, Any]:
        """The members of the core that changed since ``base`` (the count aside)."""
        key = id(base)
        found = self._changes.get(key)
        if found is None:
            found = self._changes[key] = changed_members(base, self.core)
        return found

    def whole(self) -> bytes:
        """The whole shared part (a ``view``'s)."""
        return self.since(None, None)

    def since(self, base: View | None, cast: int | None) -> bytes:
        """The JSON of the shared part's changes since ``base`` with ``cast`` votes counted
        (``base`` None: the whole part). The ballot is sent when it changed, or when only
        its count did."""
        key = (id(base), cast)
        found = self._json.get(key)
        if found is None:
            members = self.changes(base)
            ballot = self.core.get("ballot")
            if ballot is not None and ("ballot" in members or cast != self.cast):
                if self.cast is not None:
                    ballot = {**ballot, "cast": self.cast}
                members = {**members, "ballot": ballot}
            found = self._json[key] = encode(members)
        return found


def view_frame(  # noqa: PLR0917
    kind: bytes,
    shared: bytes,
    personal: bytes,
    timeline: list[dict[str, Any]],
    timer: dict[str, Any] | None,
    now: float,
    seq: int | None = None,
    acks: list[Ack] | None = None,
) -> bytes:
    """A ``view`` or ``update`` message, assembled from the JSON of the shared part (or its
    changes) and of the client's own part (or ``{}``: unchanged), two JSON objects with no
    key in common. It decodes exactly as :class:`~.protocol.View` /
    :class:`~.protocol.Update` would encode."""
    if len(personal) <= len(EMPTY):
        state = shared
    elif len(shared) <= len(EMPTY):
        state = personal
    else:
        state = b"%s,%s" % (shared[:-1], personal[1:])
    parts = [
        b'{"type":"', kind, b'","state":', state, b',"timeline":', encode(timeline),
        b',"timer":', encode(timer), b',"now":', encode(now),
    ]  # fmt: skip
    if acks:
        parts += [b',"acks":', encode(acks)]
    if seq is not None:
        parts += [b',"seq":', encode(seq)]
    parts.append(b"}")
    return b"".join(parts)


def padded(frame: bytes, size: int) -> bytes:
    """``frame`` (one JSON object, ending with ``}``) with a ``pad`` field of spaces that
    makes it exactly ``size`` bytes long (``size`` >= its length + PAD_OVERHEAD)."""
    spaces = size - len(frame) - PAD_OVERHEAD
    if spaces < 0:
        raise ValueError(f"a frame of {len(frame)} bytes cannot be padded to {size}")
    return b"".join((frame[:-1], _PAD_FIELD, b" " * spaces, b'"}'))
