"""Protocol fuzzing against the server's application in process (issue #6): hypothesis-generated
and hand-made bad messages over its WebSocket, while a bot game plays in another room.

For every message: exactly one answer (``error`` with a code and a message, or ``ack`` /
``pong`` when the message was in fact good), the connection stays open, and the game changes
only when an action was acknowledged (then by exactly that action). Where the server must
close (a bad hello) it closes with a code and a reason. Afterwards the server still
answers, and the game beside the attacks has played on to its end. (A frame over uvicorn's
64 KB cap closes the connection before the application sees it: ``test_transport.py``.)

More examples: ``KORAPSYON_FUZZ_EXAMPLES=5000 pytest tests/security/test_fuzz_protocol.py``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any, get_args

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from korapsyon.record import read_record
from korapsyon.rules.actions import Action
from korapsyon.selfplay import table
from korapsyon.server import app as server_app
from korapsyon.server.connection import Limits
from korapsyon.server.protocol import MAX_MESSAGE_BYTES
from tests.security.attack import (
    Socket,
    attacked,
    bot_room,
    human_room,
    snapshot,
    wait_finished,
)
from tests.server.inprocess import Local

# The server runs in a thread of this process (the test client's event loop): if anything
# there drew from the global `random` while hypothesis draws an example (as the keepalive
# pings of a live server's WebSockets do), hypothesis would take it for a strategy using
# `random` and fail the test as flaky. Neither the strategies nor the server use it.
pytestmark = pytest.mark.filterwarnings("ignore:Do not use the `random` module inside strategies")

EXAMPLES = int(os.environ.get("KORAPSYON_FUZZ_EXAMPLES", "1000"))
NAMES = table(9)
ACTION_TAGS = [str(kind.__struct_config__.tag) for kind in get_args(Action)]
WS_MAX = 64 * 1024  # uvicorn's frame cap (serve's ws_max_size)

# Fuzzing must not be cut short by the per-connection limits (tested in test_abuse_limits).
FUZZ_LIMITS = Limits(messages=100_000, chats=100_000, connects=0)


@pytest.fixture(scope="module")
def live() -> Iterator[Local]:
    with attacked(limits=FUZZ_LIMITS) as server:
        yield server


# ---------------------------------------------------------------- strategies
json_leaf = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(NAMES)
)
json_value = st.recursive(
    json_leaf,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
ids = st.integers(0, 2**53) | st.integers() | json_value
players = st.sampled_from([*NAMES, "@host", ""]) | st.text(max_size=10)
action_fields = {
    "target": st.none() | st.sampled_from(NAMES) | json_value,
    "candidate": st.none() | st.sampled_from(NAMES),
    "stand": st.booleans() | json_value,
    "members": st.lists(st.sampled_from(NAMES), max_size=8) | json_value,
    "support": st.booleans(),
    "jail": st.none() | st.booleans(),
    "nakaw": st.booleans(),
    "suhol": st.booleans(),
    "tokhang": st.none() | st.sampled_from(NAMES),
    "card": st.sampled_from(["S1", "S3", "L7", "X9", ""]),
    "claim": st.sampled_from(["role", "investigation", "kickback", "bogus"]),
    "role": st.sampled_from(["citizen", "lawyer", "coa", "king"]),
    "auto": st.booleans(),
    "seq": st.integers(),  # no such field: sequence numbers are the server's
}
actions = st.fixed_dictionaries(
    {"action": st.sampled_from(ACTION_TAGS) | st.text(max_size=12), "player": players},
    optional=action_fields,
)
TYPED = {
    "target": st.none() | st.sampled_from(NAMES),
    "candidate": st.none() | st.sampled_from(NAMES),
    "tokhang": st.none() | st.sampled_from(NAMES),
    "members": st.lists(st.sampled_from(NAMES), max_size=8, unique=True),
    "card": st.sampled_from(["S1", "S2", "S3", "L1", "L7"]),
    "claim": st.sampled_from(["role", "investigation", "kickback"]),
    "role": st.none() | st.sampled_from(["citizen", "lawyer", "coa", "good_politician"]),
    "aligned": st.none() | st.sampled_from(["good", "bad"]),
}


def well_typed(kind: Any) -> st.SearchStrategy[dict[str, Any]]:
    """Actions of this kind with every field of the right type: the rules judge them."""
    info = msgspec.inspect.type_info(kind)
    assert isinstance(info, msgspec.inspect.StructType)
    required: dict[str, Any] = {"action": st.just(info.tag), "player": st.sampled_from(NAMES[:2])}
    for field in info.fields:
        if field.name not in required and field.required:
            required[field.name] = TYPED.get(field.name, st.booleans() | st.none())
    return st.fixed_dictionaries(required)


typed_actions = st.one_of([well_typed(kind) for kind in get_args(Action)])
messages = st.one_of(
    st.fixed_dictionaries({"type": st.just("act"), "id": ids, "action": actions | json_value}),
    st.fixed_dictionaries(
        {"type": st.just("act"), "id": st.integers(0, 2**53), "action": typed_actions}
    ),
    st.fixed_dictionaries(
        {"type": st.just("act"), "id": st.integers(0, 2**53), "action": typed_actions}
    ),
    st.fixed_dictionaries(
        {"type": st.just("act"), "id": st.integers(0, 2**53), "action": actions},
        optional={"seq": st.integers(), "ack": json_value},
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("chat"),
            "id": ids,
            "channel": st.sampled_from(["public", "corrupt", "private"]),
            "text": st.text(max_size=600) | json_value,
        }
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("timer"),
            "id": ids,
            "op": st.sampled_from(["pause", "resume", "extend", "end", "stop"]),
        },
        optional={"seconds": st.integers() | json_value},
    ),
    st.fixed_dictionaries({"type": st.just("ping"), "id": ids}),
    st.fixed_dictionaries(
        {"type": st.just("hello"), "room": st.text(max_size=20)},
        optional={"token": st.text(max_size=10), "spectate": json_value, "protocol": json_value},
    ),
    st.dictionaries(st.text(max_size=8), json_value, max_size=5).map(
        lambda d: {"type": d.get("type", "explode"), **d}
    ),
    json_value,
)
frames = st.one_of(
    messages.map(json.dumps),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=200),  # not JSON at all
    st.binary(max_size=200),  # a binary frame, perhaps not UTF-8
)


def expected_id(frame: str | bytes) -> int | None:
    try:
        value = msgspec.json.decode(frame)  # strict JSON (no NaN or Infinity)
    except msgspec.DecodeError:
        return None
    found = value.get("id") if isinstance(value, dict) else None
    return found if isinstance(found, int) and not isinstance(found, bool) else None


def check_answer(live: Local, code: str, sock: Socket, frame: str | bytes) -> dict[str, Any]:
    """Send one frame: it gets exactly one answer, and the game changes only by an
    acknowledged action."""
    before = snapshot(live, code)
    sock.send(frame)
    answer = sock.next()
    after = snapshot(live, code)
    if answer["type"] == "error":
        assert isinstance(answer["code"], str) and answer["code"], answer
        assert isinstance(answer["message"], str) and answer["message"], answer
        assert after == before, (frame, answer)  # refused: nothing changed
        if answer["code"] not in ("bad_hello", "too_large"):
            assert answer["id"] == expected_id(frame), (frame, answer)
    elif answer["type"] == "ack":
        sent = json.loads(frame)
        assert answer["id"] == sent["id"]
        if sent["type"] == "act":  # a legal action: the record grew by exactly it
            old, new = read_record(before)[0], read_record(after)[0]
            assert new.actions[:-1] == old.actions
            assert new.actions[-1] == msgspec.convert(sent["action"], Action)
            assert answer["seq"] == len(old.actions)
        else:
            assert after == before  # a chat or timer message: the record is the same
    else:
        assert answer == {**answer, "type": "pong", "id": json.loads(frame)["id"]}
        assert after == before
    return answer


def test_fuzzed_messages_get_one_clear_answer_and_change_nothing(live: Local) -> None:
    """Hypothesis's messages from a seated player: wrong types, unknown kinds and actions,
    missing and extra fields, other seats, the host's ``@host``, repeated and
    out-of-order ids, junk text and bytes."""
    bystander, bystander_host = bot_room(live, delay=0.05)
    code, _host, tokens = human_room(live, NAMES)
    sock = Socket(live, {"room": code, "token": tokens[NAMES[0]]})
    answers: dict[str, int] = {}

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(frames)
    def attack(frame: str | bytes) -> None:
        answer = check_answer(live, code, sock, frame)
        key = answer.get("code") or answer["type"]
        answers[key] = answers.get(key, 0) + 1

    attack()
    print(f"{sum(answers.values())} messages: {answers}")  # shown with -s
    assert sock.alive()
    assert answers.get("malformed", 0) > EXAMPLES // 4, answers  # it did get past the decoder
    assert len(answers) >= 5, answers  # ... and reached the other refusals too
    wait_finished(live, bystander, bystander_host)
    sock.close()


def test_hand_made_bad_messages(live: Local) -> None:
    """The classic attacks, each with its own code; the connection stays open."""
    bystander, bystander_host = bot_room(live, delay=0.05)
    code, host, tokens = human_room(live, NAMES)
    ana, ben = NAMES[0], NAMES[1]
    sock = Socket(live, {"room": code, "token": tokens[ana]})
    host_sock = Socket(live, {"room": code, "host_token": host})
    ready = {"action": "ready", "player": ana}

    def refused(message: Any, code_: str, via: Socket = sock) -> None:
        frame = message if isinstance(message, str | bytes) else json.dumps(message)
        answer = check_answer(live, code, via, frame)
        assert (answer["type"], answer.get("code")) == ("error", code_), answer

    refused("{not json", "malformed")
    refused(b"\xff\xfe\x00garbage", "malformed")  # a binary frame, not UTF-8
    refused("[]", "malformed")
    refused({"type": "act", "id": 1}, "malformed")  # no action
    refused({"type": "act", "id": "1", "action": ready}, "malformed")  # wrong type
    refused({"type": "act", "id": -1, "action": ready}, "malformed")  # ids are >= 0
    refused({"type": "act", "id": 2**60, "action": ready}, "malformed")
    refused({"type": "act", "id": 3, "seq": 7, "action": ready}, "malformed")  # extra field
    refused({"type": "act", "id": 4, "action": {"action": "fly", "player": ana}}, "malformed")
    refused({"type": "teleport", "id": 5}, "malformed")  # unknown kind
    refused({"type": "act", "id": 6, "action": {"action": "ready", "player": ben}}, "not_your_seat")
    end = {"action": "end_discussion", "player": "@host"}
    refused({"type": "act", "id": 7, "action": end}, "not_host")  # a player as the host
    refused({"type": "timer", "id": 8, "op": "pause"}, "not_host")
    refused({"type": "chat", "id": 9, "channel": "public", "text": ""}, "malformed")
    refused({"type": "chat", "id": 10, "channel": "public", "text": "x" * 501}, "malformed")
    refused({"type": "hello", "room": code, "token": tokens[ana]}, "bad_hello")  # twice
    # The host's connection acts for no seat, even naming one (the host token is no seat's).
    refused({"type": "act", "id": 11, "action": ready}, "not_your_seat", host_sock)

    # An action of a later step (R-30's vote during the Hidden Phase) is refused by the rules.
    game = live.game(code)
    assert game.step is not None and game.step.value == "hidden"
    vote = {
        "type": "act",
        "id": 12,
        "action": {"action": "jail_vote", "player": ana, "target": ben},
    }
    answer = check_answer(live, code, sock, json.dumps(vote))
    assert answer["type"] == "error" and answer["code"] not in ("malformed", "not_your_seat")

    # A legal night decision is acknowledged; the same message replayed (same id, an older
    # id, the largest id) is a revision R-23 allows while the night lasts, recorded anew.
    # Once every seat has decided and the night is over, a replay is refused: the record
    # keeps what it had.
    legal = _legal_action(live, code, ana)
    first = check_answer(live, code, sock, json.dumps({"type": "act", "id": 20, "action": legal}))
    assert first["type"] == "ack", first
    for name in NAMES[1:]:
        with_seat = Socket(live, {"room": code, "token": tokens[name]})
        frame = json.dumps({"type": "act", "id": 1, "action": _legal_action(live, code, name)})
        assert check_answer(live, code, with_seat, frame)["type"] == "ack"
        with_seat.close()
    assert live.game(code).step is not None and live.game(code).step.value != "hidden"  # type: ignore[union-attr]
    for replay_id in (20, 19, 2**53):
        frame = json.dumps({"type": "act", "id": replay_id, "action": legal})
        again = check_answer(live, code, sock, frame)
        assert again["type"] == "error" and again["id"] == replay_id, again
    actions = read_record(snapshot(live, code))[0].actions
    assert actions.count(msgspec.convert(legal, Action)) == 1

    assert sock.alive() and host_sock.alive()
    wait_finished(live, bystander, bystander_host)


def _legal_action(live: Local, code: str, name: str) -> dict[str, Any]:
    """A legal action of ``name`` now (from the server's own game)."""
    game = live.game(code)
    for action in game.legal_actions(name):
        return action.to_wire()
    raise AssertionError(f"{name} has nothing to do")


def test_sizes_just_under_and_over_the_caps(live: Local) -> None:
    """Up to MAX_MESSAGE_BYTES (16 KB) a message is read; above it, up to the 64 KB frame
    cap, it is refused with ``too_large`` and the connection stays open (a larger frame:
    ``test_transport.py``)."""
    bystander, bystander_host = bot_room(live, delay=0.05)
    code, _host, tokens = human_room(live, NAMES)
    sock = Socket(live, {"room": code, "token": tokens[NAMES[0]]})
    assert check_answer(live, code, sock, padded(MAX_MESSAGE_BYTES))["type"] == "pong"
    for size in (MAX_MESSAGE_BYTES + 1, WS_MAX - 16, WS_MAX):
        answer = check_answer(live, code, sock, padded(size))
        assert (answer["type"], answer["code"]) == ("error", "too_large"), size
    assert sock.alive()
    wait_finished(live, bystander, bystander_host)


def padded(size: int) -> str:
    """A ping of ``size`` bytes."""
    head = '{"type":"ping","id":77'
    return head + " " * (size - len(head) - 1) + "}"


@pytest.mark.parametrize(
    ("hello", "code"),
    [
        ("not json at all", "malformed"),
        ({"type": "ping", "id": 1}, "bad_hello"),
        ({"type": "hello", "room": "ZZZZZ", "spectate": True}, "no_room"),
        ({"type": "hello", "room": "{room}", "token": "{host}"}, "bad_token"),  # host as seat
        ({"type": "hello", "room": "{room}", "token": "{other}"}, "bad_token"),  # other room's
        ({"type": "hello", "room": "{room}", "host_token": "{seat}"}, "bad_token"),
        ({"type": "hello", "room": "{room}"}, "bad_hello"),  # who are you?
        ({"type": "hello", "room": "{room}", "spectate": True, "protocol": 1}, "protocol"),
        ({"type": "hello", "room": "{room}", "spectate": "yes"}, "malformed"),
        ({"type": "hello", "room": "x" * 17, "spectate": True}, "malformed"),
    ],
)
def test_a_bad_hello_is_told_why_and_closed(live: Local, hello: Any, code: str) -> None:
    room, host, tokens = human_room(live, NAMES)
    _, _, other_tokens = human_room(live, NAMES)
    values = {"room": room, "host": host, "other": other_tokens[NAMES[0]], "seat": tokens[NAMES[1]]}
    text = hello if isinstance(hello, str) else json.dumps(hello)
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    before = snapshot(live, room)
    sock = Socket(live)
    sock.send(text)
    close_code, reason, said = sock.closed()
    assert [m["type"] for m in said] == ["error"], said
    assert said[0]["code"] == code, said
    assert close_code == 1008 and reason == said[0]["message"][:123], (close_code, reason)
    assert snapshot(live, room) == before


def test_silence_after_connecting_is_closed_with_a_reason(
    live: Local, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_app, "HELLO_SECONDS", 0.2)
    sock = Socket(live)
    close_code, reason, said = sock.closed()
    assert close_code == 1008 and "hello" in reason
    assert [m["code"] for m in said] == ["bad_hello"]


def test_another_connection_to_a_seat_replaces_the_first_with_a_reason(live: Local) -> None:
    """A seat's token is the seat: a second connection with it (a reconnect, or a stolen
    token) takes the seat, and the first is told why it was closed."""
    code, _host, tokens = human_room(live, NAMES)
    first = Socket(live, {"room": code, "token": tokens[NAMES[0]]})
    second = Socket(live, {"room": code, "token": tokens[NAMES[0]]})
    close_code, reason, said = first.closed()
    assert close_code == 4001 and "another screen" in reason  # (the web client then waits)
    assert [m["code"] for m in said if m["type"] == "error"] == ["replaced"]
    assert second.alive()
