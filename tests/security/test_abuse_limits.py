"""Abuse limits against the server's application in process (issue #6): request body and
message size caps, per-connection and per-address rate limits, room-creation limits and
validated names. Each refusal is a clear error (HTTP: a status with a JSON ``error`` body;
WebSocket: an ``error`` message, or a close frame with a reason), changes nothing, and
touches no other address.

The tests speak from made-up addresses through X-Forwarded-For, which the application
believes from its client only (uvicorn's proxy headers, as behind a reverse proxy on the
same machine). A client that stops reading needs real TCP buffers: ``test_transport.py``.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from korapsyon.rules.steps import Step
from korapsyon.selfplay import table
from korapsyon.server.addresses import AddressLimits, PerAddress
from korapsyon.server.connection import Limits
from korapsyon.server.errors import Refusal
from korapsyon.server.names import check_name
from tests.security.attack import Socket, attacked, human_room
from tests.server.inprocess import Local
from tests.server.live import HANG_SECONDS

LIMITS = Limits(requests=20, rooms=3, sockets=4, connects=0)
NAMES = table(9)


@pytest.fixture
def live() -> Iterator[Local]:
    with attacked(limits=LIMITS) as server:
        yield server


def client(live: Local, address: str) -> httpx.Client:
    return live.client_with({"x-forwarded-for": address, "content-type": "application/json"})


def assert_error(answer: httpx.Response, status: int, code: str) -> dict[str, str]:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    error: dict[str, str] = answer.json()["error"]
    assert error["code"] == code and error["message"], error
    return error


# ---------------------------------------------------------------- HTTP
def test_api_requests_are_limited_per_address(live: Local) -> None:
    """Twenty lobby API requests a minute from 10.0.0.1 (this server's limit): the next is
    429 with Retry-After; another address is not held back, nor are the pages."""
    with client(live, "10.0.0.1") as one, client(live, "10.0.0.2") as two:
        for _ in range(LIMITS.requests):
            assert_error(one.get("/api/rooms/QQQQQ"), 404, "no_room")
        refused = one.get("/api/rooms/QQQQQ")
        error = assert_error(refused, 429, "rate_limited")
        assert "20 API requests in 60 s" in error["message"]
        assert 0 < int(refused.headers["retry-after"]) <= 60
        assert_error(one.post("/api/rooms", json={}), 429, "rate_limited")
        assert len(live.hub.rooms) == 0  # refused before anything was made
        assert one.get("/").status_code == 200  # the pages are not counted
        assert one.get("/healthz").status_code == 200
        assert_error(two.get("/api/rooms/QQQQQ"), 404, "no_room")


def test_rooms_are_limited_per_address(live: Local) -> None:
    """Three rooms an hour from one address here (30 by default); a refused or bad request
    makes no room and spends nothing."""
    with client(live, "10.0.1.1") as one, client(live, "10.0.1.2") as two:
        assert_error(one.post("/api/rooms", json={"name": "\u202eevil"}), 400, "bad_name")
        assert_error(one.post("/api/rooms", json={"settings": {"roles": []}}), 400, "bad_setup")
        for _ in range(LIMITS.rooms):
            assert one.post("/api/rooms", json={}).status_code == 201
        error = assert_error(one.post("/api/rooms", json={}), 429, "too_many_rooms")
        assert "3 rooms in 3600 s" in error["message"]
        assert len(live.hub.rooms) == LIMITS.rooms
        assert two.post("/api/rooms", json={}).status_code == 201


def test_request_bodies_are_capped(live: Local) -> None:
    """16 KB: a larger body is 413 whether it says its length or streams it in chunks;
    one just under the cap is read."""
    cap = LIMITS.body_bytes
    with client(live, "10.0.2.1") as http:
        body = b'{"settings": {}}'
        under = body[:-1] + b" " * (cap - len(body)) + b"}"
        assert len(under) == cap
        assert http.post("/api/rooms", content=under).status_code == 201
        over = body[:-1] + b" " * (cap + 1 - len(body)) + b"}"
        assert_error(http.post("/api/rooms", content=over), 413, "too_large")

    # no Content-Length: the server counts as it reads, chunk by chunk
    chunks = [b'{"settings": {}', *[b" " * 1024] * (cap // 1024 + 1), b"}"]
    headers = {"x-forwarded-for": "10.0.2.1", "content-type": "application/json"}
    status, body = live.send_in_chunks("POST", "/api/rooms", chunks, headers)
    assert status == 413 and json.loads(body)["error"]["code"] == "too_large", body
    assert len(live.hub.rooms) == 1


# ---------------------------------------------------------------- WebSocket
def test_websockets_are_limited_per_address(live: Local) -> None:
    """Four WebSockets at once from one address here (200 by default): the fifth is told
    why and closed (1008); another address connects; once one closes, a new one may."""
    code, _, _ = human_room(live, NAMES)
    hello = {"room": code, "spectate": True}
    open_ = [Socket(live, hello, "10.0.3.1") for _ in range(LIMITS.sockets)]
    fifth = Socket(live, None, "10.0.3.1")
    close_code, reason, said = fifth.closed()
    assert [m["code"] for m in said] == ["too_many_connections"]
    assert close_code == 1008 and "4 connections from one address" in reason
    assert Socket(live, hello, "10.0.3.2").alive()
    open_.pop().close()
    deadline = time.monotonic() + HANG_SECONDS
    while True:  # until the server has counted the close
        again = Socket(live, None, "10.0.3.1")
        again.send(json.dumps({"type": "hello", **hello}))
        if again.next(("welcome", "error"))["type"] == "welcome":
            break
        assert time.monotonic() < deadline, "the closed socket was never uncounted"
    assert all(sock.alive() for sock in open_)


def test_a_connection_over_its_message_rate_is_refused_then_closed_for_flooding(
    live: Local,
) -> None:
    """20 messages a second: each one beyond gets ``rate_limited`` and the connection stays
    open; one that keeps on (five times the limit refused in one window) is closed with a
    reason. The others in the room are not touched."""
    code, _host, tokens = human_room(live, NAMES)
    sock = Socket(live, {"room": code, "token": tokens[NAMES[0]]})
    other = Socket(live, {"room": code, "token": tokens[NAMES[1]]})
    burst = LIMITS.messages + 5
    for i in range(burst):
        sock.send(json.dumps({"type": "ping", "id": i}))
    answers = [sock.next() for _ in range(burst)]
    assert sorted(a["id"] for a in answers) == list(range(burst))  # each answered once
    limited = [a for a in answers if a["type"] == "error"]
    assert limited and all(a["code"] == "rate_limited" for a in limited)
    assert len(answers) - len(limited) <= LIMITS.messages

    flood = LIMITS.messages * (LIMITS.flood + 2)
    with contextlib.suppress(ConnectionClosed):  # the server may close before the last one
        for i in range(flood):
            sock.send(json.dumps({"type": "ping", "id": i}))
    close_code, reason, _ = sock.closed()
    assert close_code == 1008 and "flooding" in reason
    assert other.alive()


def test_chat_is_limited_per_connection(live: Local) -> None:
    """Five chat messages in ten seconds; the sixth is refused and not posted."""
    code, _host, tokens = human_room(live, NAMES)
    sock = Socket(live, {"room": code, "token": tokens[NAMES[0]]})
    for i in range(LIMITS.chats):
        sock.send(json.dumps({"type": "chat", "id": i, "channel": "public", "text": f"hi {i}"}))
        assert sock.next()["type"] == "ack"
    sock.send(json.dumps({"type": "chat", "id": 99, "channel": "public", "text": "one more"}))
    answer = sock.next()
    assert (answer["type"], answer["code"]) == ("error", "rate_limited")
    assert "5 chat messages or claims in 10 s" in answer["message"]
    session = live.hub.rooms[code].session
    assert (
        session is not None
        and [row.text for row in session.chat.rows][-1] == f"hi {LIMITS.chats - 1}"
    )


def test_claims_are_limited_like_chat(live: Local) -> None:
    """Claims are table talk, stored and pushed to the board: they share the chat's budget
    (issue #17 saw 318 claims acknowledged in 20 s of one discussion). Five in ten seconds;
    the sixth, and a chat message after them, are refused and change nothing."""
    code, _host, tokens = human_room(live, NAMES)
    sockets = {
        name: Socket(live, {"room": code, "token": token}, f"10.0.7.{k}")
        for k, (name, token) in enumerate(tokens.items())
    }
    game = live.game(code)
    while game.step is not Step.DISCUSSION:  # everyone takes the quiet default
        for seat in sorted(game.waiting_for):
            name = game.players[seat]
            wire = game.default_action(name).to_wire()
            wire.pop("auto", None)
            sockets[name].send(json.dumps({"type": "act", "id": 1, "action": wire}))
            assert sockets[name].next()["type"] == "ack"
    speaker, target = NAMES[0], NAMES[1]
    claim = {"action": "claim", "player": speaker, "claim": "suspect", "target": target}
    for ident in range(LIMITS.chats):
        sockets[speaker].send(json.dumps({"type": "act", "id": ident, "action": claim}))
        assert sockets[speaker].next()["type"] == "ack"
    before = len(game.actions)
    sockets[speaker].send(json.dumps({"type": "act", "id": 98, "action": claim}))
    sockets[speaker].send(json.dumps({"type": "chat", "id": 99, "channel": "public", "text": "x"}))
    for ident in (98, 99):
        answer = sockets[speaker].next()
        assert (answer["id"], answer["code"]) == (ident, "rate_limited")
        assert "chat messages or claims" in answer["message"]
    assert len(game.actions) == before
    other = sockets[target]  # another seat's talk is its own
    other.send(
        json.dumps(
            {"type": "act", "id": 1, "action": {**claim, "player": target, "target": speaker}}
        )
    )
    assert other.next()["type"] == "ack"


@pytest.mark.parametrize(
    "text", ["\u202eevil", "a\u2066b", "bell\x07", "nul\x00", "esc\x1b[31m"], ids=repr
)
def test_chat_refuses_control_and_bidi_override_characters(live: Local, text: str) -> None:
    code, _host, tokens = human_room(live, NAMES)
    sock = Socket(live, {"room": code, "token": tokens[NAMES[0]]})
    sock.send(json.dumps({"type": "chat", "id": 1, "channel": "public", "text": text}))
    answer = sock.next()
    assert (answer["type"], answer["code"]) == ("error", "bad_text")
    session = live.hub.rooms[code].session
    assert session is not None and session.chat.rows == []


# ---------------------------------------------------------------- names
@pytest.mark.parametrize(
    "raw",
    [
        "",
        "   ",
        "x" * 25,  # R-01 seats: 1 to 24 characters
        "@host",
        "@Ana",
        "Ana\x00",
        "Ana\x1b[2J",  # a terminal escape
        "\u202eanA",  # right-to-left override
        "A\u200bna",  # zero-width space
        "A\u200dna",  # zero-width joiner
        "\u2066Ana\u2069",  # bidi isolates
        "\ufeffAna",  # byte order mark
        "\u3164",  # Hangul filler: a letter that shows nothing
        "\u2800",  # blank braille pattern
        "Ana\ue000",  # private use
        "Ana\U000e0001",  # language tag
        "a" + "\u0301\u0300\u0302\u0303\u0304",  # stacked combining marks ("Zalgo")
        "Ana\u0378",  # unassigned
    ],
    ids=repr,
)
def test_bad_names_are_refused(raw: str) -> None:
    with pytest.raises(Refusal) as refused:
        check_name(raw)
    assert refused.value.code == "bad_name" and refused.value.status == 400


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ("Ana", "Ana"),
        ("  Ana \n\t Cruz  ", "Ana Cruz"),  # white space runs are one space
        ("x" * 24, "x" * 24),
        ("<b>Ana</b>", "<b>Ana</b>"),  # HTML is text (the clients never parse it)
        ("<svg onload=alert(1)>", "<svg onload=alert(1)>"),
        ("Nin\u0303o", "Niño"),  # NFC: a decomposed ñ is one letter
        ("Việt", "Việt"),
        ("محمد", "محمد"),  # right-to-left script, no override
        ("李小龙", "李小龙"),
        ("Ana 🎲", "Ana 🎲"),
    ],
)
def test_good_names_are_kept(raw: str, kept: str) -> None:
    assert check_name(raw) == kept


def test_names_are_checked_over_http_and_a_refusal_seats_nobody(live: Local) -> None:
    with client(live, "10.0.4.1") as http:
        code = http.post("/api/rooms", json={}).json()["code"]
        for bad in ("\u202eanA", "x" * 25, "A\u200bna", "@host"):
            assert_error(http.post(f"/api/rooms/{code}/seats", json={"name": bad}), 400, "bad_name")
        assert http.post(f"/api/rooms/{code}/seats", json={"name": "Nin\u0303o"}).status_code == 201
        taken = http.post(f"/api/rooms/{code}/seats", json={"name": "NIÑO"})
        assert_error(taken, 409, "name_taken")  # the same name, whatever its case or form
    assert [s.name for s in live.hub.rooms[code].seats] == ["Niño"]


# ---------------------------------------------------------------- the limits themselves
def test_a_count_of_zero_turns_a_per_address_limit_off() -> None:
    """``serve --limit-requests 0 --limit-rooms 0 --limit-connections 0
    --limit-connects 0`` (the load benchmark: 13,000 WebSockets and 1,000 rooms from one
    address)."""
    unlimited = AddressLimits(Limits(requests=0, rooms=0, sockets=0, connects=0))
    assert all(unlimited.requests.allow("127.0.0.1") for _ in range(20_000))
    assert all(unlimited.rooms.allow("127.0.0.1") for _ in range(2_000))
    assert all(unlimited.open_socket("127.0.0.1") for _ in range(20_000))
    assert all(unlimited.connects.allow("127.0.0.1") for _ in range(20_000))


def test_forgotten_addresses_free_their_memory() -> None:
    limit = PerAddress(2, 0.0)  # a window that has always just ended
    for i in range(1000):
        limit.allow(f"10.9.{i // 256}.{i % 256}")
    assert len(limit.windows) <= 1
