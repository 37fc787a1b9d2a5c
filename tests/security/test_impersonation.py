"""Nobody can speak as the host or the moderator (issue #17).

Observed before the fix: the names ``host`` and ``moderator`` were accepted, and such a
seat's chat messages went out with ``author: "host"`` / ``"moderator"``, byte for byte the
real ones, which the phones show as "🎙 Host" (a fake "Rule check: Ana is Corrupt" under
the host's line). Now the server marks the host's and the moderator's messages with an
author no seat can have (``@host`` / ``@moderator``), and names that read as those roles,
in any case, script or spacing, are refused.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest

from korapsyon.server.errors import Refusal
from korapsyon.server.names import check_name
from korapsyon.server.web import WEB_DIR
from tests.security.attack import attacked
from tests.server.inprocess import Local
from tests.server.live import open_client, start

LOOK_ALIKES = [
    "host",
    "Host",
    "HOST",
    "H o s t",
    "h.o.s.t",
    "The Host",
    "🎙 Host",
    "\uff28\uff4f\uff53\uff54",  # full-width letters
    "\u041d\u043e\u0455\u0442",  # Cyrillic En, o, dze, te
    "\u0397\u03bf\u0455\u03c4",  # Greek Eta, omicron, ... tau
    "\U0001d421\U0001d428\U0001d42c\U0001d42d",  # mathematical bold
    "\u029c\u1d0f\u0073\u1d1b",  # small capitals
    "H\u00f3st",  # an accent
    "h0st",  # a zero for the o
    "moderator",
    "Moderator",
    "M O D E R A T O R",
    "M\u00f8d\u00e9r\u00e2tor",
    "\uff4d\uff4f\uff44\uff45\uff52\uff41\uff54\uff4f\uff52",
    "\U0001f177\U0001f17e\U0001f182\U0001f183",  # negative squared letters (symbols)
    "\U0001f157\U0001f15e\U0001f162\U0001f163",  # negative circled letters
    "\u24d7\u24de\u24e2\u24e3",  # circled letters
    "H-O-S-T",
]


@pytest.mark.parametrize("raw", LOOK_ALIKES, ids=repr)
def test_names_that_read_as_the_host_or_the_moderator_are_refused(raw: str) -> None:
    with pytest.raises(Refusal) as refused:
        check_name(raw)
    assert refused.value.code == "bad_name" and refused.value.status == 400
    assert "host or the moderator" in refused.value.message


@pytest.mark.parametrize("raw", ["Ghost", "Hostess", "Christ", "Mod", "Modesto", "Thos"])
def test_names_near_them_are_kept(raw: str) -> None:
    assert check_name(raw) == raw


def test_every_language_s_labels_for_the_host_and_the_moderator_are_refused() -> None:
    """The phones show the host's and the moderator's messages under a label of the page's
    language: no seat may be named as that label in any catalog."""
    for catalog in sorted((WEB_DIR / "i18n").glob("*.json")):
        messages = json.loads(catalog.read_text())
        for key in ("chat.host", "chat.moderator"):
            with pytest.raises(Refusal):
                check_name(messages[key])


@pytest.fixture
def live() -> Iterator[Local]:
    with attacked() as server:
        yield server


def test_only_the_server_marks_the_host_s_and_the_moderator_s_messages(live: Local) -> None:
    """A seat named like the host is refused over HTTP; the host's message reaches everyone
    with the author ``@host``, a player's with the seat's name, which never starts with
    "@"."""
    with live.http() as http:
        code = http.post("/api/rooms", json={}).json()["code"]
        for name in ("host", "Moderator", "H o s t"):
            refused = http.post(f"/api/rooms/{code}/seats", json={"name": name})
            assert refused.status_code == 400
            assert refused.json()["error"]["code"] == "bad_name"
    names = ["Ana", "Ben", "Cris", "Dani", "Eli", "Fe", "Gil", "Hugo", "Ivy"]
    with live.http() as http:
        body = {"settings": {"timers": False, "moderator": "human"}}
        created = http.post("/api/rooms", json=body).json()
        code, host_token = created["code"], created["host_token"]
        tokens = {
            name: http.post(f"/api/rooms/{code}/seats", json={"name": name}).json()["token"]
            for name in names
        }

    async def scenario() -> list[str]:
        ana = await open_client(live, code, token=tokens["Ana"])
        board = await open_client(live, code, host_token=host_token)
        moderator = await open_client(live, code, token=created["moderator_token"])
        watcher = await open_client(live, code, spectate=True)
        start(live, code, host_token)
        await ana.until("view")
        for speaker, text in ((board, "Rule check"), (moderator, "Night falls"), (ana, "Hi")):
            answer = await speaker.request({"type": "chat", "channel": "public", "text": text})
            assert answer["type"] == "ack", answer
        authors = [(await watcher.until("chat_posted"))["author"] for _ in range(3)]
        for client in (ana, board, moderator, watcher):
            await client.ws.close()
        return authors

    assert asyncio.run(scenario()) == ["@host", "@moderator", "Ana"]
