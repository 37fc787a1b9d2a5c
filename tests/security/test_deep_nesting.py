"""JSON nested too deeply is malformed like any other bad input, and nothing a client sends
can fill the server's log (issue #17).

Observed before the fix: a WebSocket message nested more than 1,000 deep (8-12 KB) made
msgspec raise RecursionError in ``_id_of()`` / ``decode_client()``, which escaped
``on_message()``: no ``error`` answer, the connection died without a close frame, and 1.4 KB of
traceback was logged per message, as often as the client liked.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest

from korapsyon.record import RecordError, read_record
from korapsyon.selfplay import table
from korapsyon.server import app as server_app
from tests.security.attack import Socket, attacked, human_room
from tests.server.inprocess import Local

DEPTH = 2000  # (the objects: 14 KB, under the 16 KB caps)
ARRAYS = "[" * DEPTH + "]" * DEPTH
OBJECTS = '{"a":' * DEPTH + "1" + "}" * DEPTH
DEEP = [
    '{"type":"act","id":1,"action":{"action":"claim","player":"Ana","claim":"role","x":%s}}',
    '{"id":1,"type":%s}',
    "%s",
]
NAMES = table(9)


@pytest.fixture
def live() -> Iterator[Local]:
    with attacked() as server:
        yield server


def test_a_message_nested_too_deeply_is_answered_malformed_and_logs_nothing(
    live: Local, caplog: pytest.LogCaptureFixture
) -> None:
    code, _, tokens = human_room(live, NAMES)
    ana = Socket(live, {"room": code, "token": tokens[NAMES[0]]})
    caplog.set_level(logging.WARNING)
    for shape in DEEP:
        for inner in (ARRAYS, OBJECTS):
            message = shape % inner
            assert len(message) < 16 * 1024
            ana.send(message)
            answer = ana.next(("error",))
            assert answer["code"] == "malformed", answer
            assert "nested too deeply" in answer["message"] or "Expected" in answer["message"]
    assert ana.alive()
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_a_lobby_request_nested_too_deeply_is_malformed(live: Local) -> None:
    with live.http() as http:
        for inner in (ARRAYS, OBJECTS):
            answer = http.post(
                "/api/rooms",
                content=f'{{"name": "Ana", "x": {inner}}}',
                headers={"content-type": "application/json"},
            )
            assert answer.status_code == 400, answer.text
            assert answer.json()["error"]["code"] == "malformed"
    assert live.hub.rooms == {}


def test_a_record_nested_too_deeply_is_refused_as_a_record_error() -> None:
    for inner in (ARRAYS, OBJECTS):
        with pytest.raises(RecordError, match="nested too deeply"):
            read_record(f'{{"format": "korapsyon-record/1", "x": {inner}}}')


def test_a_failure_nobody_foresaw_is_answered_and_logged_once_per_cause(
    live: Local, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A bug set off by a message (here: every message) answers that message ``internal``
    with its id, keeps the connection, and logs one line, not one per message."""
    code, _, tokens = human_room(live, NAMES)
    ana = Socket(live, {"room": code, "token": tokens[NAMES[0]]})

    async def broken(*args: object) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(server_app, "on_message", broken)
    monkeypatch.setattr(server_app, "incidents", server_app.Incidents())
    caplog.set_level(logging.WARNING)
    for ident in range(1, 51):
        ana.send(json.dumps({"type": "ping", "id": ident}))
        answer = ana.next(("error",))
        assert (answer["id"], answer["code"]) == (ident, "internal")
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1 and lines[0].exc_info is None
    assert "KeyError" in lines[0].getMessage() and "\n" not in lines[0].getMessage()
