"""Seat names: what a person may be called at the table.

A name is shown to everyone, on phones and on the board, beside the host's and the
moderator's own messages: it must be readable, must not reorder or hide the text around it,
and must not read as one of those roles ("Host", "H o s t", full-width letters, Greek and
Cyrillic look-alikes...), whose messages only the server marks (``@host`` / ``@moderator``).
"""

from __future__ import annotations

import unicodedata

import disarm

from ..rules.game import MAX_NAME
from .errors import Refusal

INVISIBLE = frozenset("\u115f\u1160\u2800\u3164\uffa0")  # letters that show nothing
MAX_MARKS = 2  # combining marks in a row (more stack into unreadable "Zalgo" text)

RESERVED = frozenset({"host", "thehost", "moderator", "themoderator"})
"""Names no seat may read as: the host's and the moderator's labels in the chat, in every
language of the web client (tests/security checks each catalog's labels against this), with
or without "the"."""


def check_name(raw: str) -> str:
    """A seat name: 1-24 printable characters (NFC), trimmed, white space runs made one space;
    not starting with '@'; no control, format (bidi overrides, zero-width), private-use or
    unassigned characters, no invisible letters, at most MAX_MARKS combining marks in a row;
    not reading as the host or the moderator (:func:`reads_as_reserved`). HTML is allowed:
    the clients show names as text."""
    name = unicodedata.normalize("NFC", " ".join(raw.split()))
    if not 1 <= len(name) <= MAX_NAME:
        raise Refusal("bad_name", f"a name has 1 to {MAX_NAME} characters")
    if name.startswith("@"):
        raise Refusal("bad_name", "a name may not start with '@'")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise Refusal("bad_name", "a name may not hold control, format or invisible characters")
    if any(ch in INVISIBLE for ch in name):
        raise Refusal("bad_name", "a name may not hold invisible letters")
    marks = 0
    for ch in name:
        marks = marks + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            raise Refusal("bad_name", f"at most {MAX_MARKS} combining marks on one letter")
    if reads_as_reserved(name):
        raise Refusal("bad_name", f"{name!r} reads as the host or the moderator: choose another")
    return name


def reads_as_reserved(name: str) -> bool:
    """Whether ``name`` reads as a :data:`RESERVED` word once its case, accents, spacing,
    punctuation and symbols are set aside and look-alike letters of any script (and the
    digits 0 and 1) are read as the Latin letters they mimic: Unicode's confusable skeleton
    (UTS #39, computed by ``disarm``)."""
    decomposed = unicodedata.normalize("NFKD", name)
    return _letters(disarm.skeleton_key(decomposed, digit_policy="tr39")) in RESERVED


def _letters(text: str) -> str:
    """The letters and digits of ``text``, without their accents (compatibility forms
    decomposed: a full-width or mathematical "H" is an "H"). It runs after the skeleton,
    which reads symbols that look like letters (enclosed, squared) as those letters."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if unicodedata.category(ch)[0] in "LN")
