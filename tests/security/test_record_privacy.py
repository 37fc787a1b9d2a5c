"""A finished game's record is for its table (issue #17).

Observed before the fix: ``GET /api/rooms/{code}/record`` needed no token, and the end
screen linked to it, so anyone with the five-letter code read every committee vote, jail
ballot, election ballot and Corrupt night choice (R-34: individual votes stay secret).
Now any token of the room (a seat's, the host's, the moderator's) opens it, and nobody
else, unless the host chose in the lobby to publish it (``public_record``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from korapsyon.bots.beliefs.analysis import analyse
from korapsyon.record import read_record, replay
from korapsyon.server.settings import DEFAULT_DURATIONS
from tests.security.attack import attacked
from tests.server.inprocess import Local
from tests.server.live import HANG_SECONDS, add_bots, start

QUICK = dict.fromkeys(DEFAULT_DURATIONS, 0.02)  # nobody waits for the one person


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Local]:
    """The application in process over SQLite (a record no longer in memory is the SQL
    store's to find)."""
    with attacked(f"sqlite:///{tmp_path / 'korapsyon.sqlite3'}") as server:
        yield server


def finished_room(live: Local, **settings: Any) -> dict[str, str]:
    """A game of one person (who lets every timer run out, R-72) and eight bots, played
    to its end: the room's code and every token of its table."""
    body = {"settings": {"durations": QUICK, "bot_delay": [0.0, 0.0], **settings}}
    with live.http() as http:
        created = http.post("/api/rooms", json=body).json()
        code = created["code"]
        seat = http.post(f"/api/rooms/{code}/seats", json={"name": "Ana"}).json()
    add_bots(live, code, created["host_token"], 8)
    start(live, code, created["host_token"])
    deadline = time.monotonic() + HANG_SECONDS
    while live.hub.rooms[code].status != "finished":
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.02)
    tokens = {"code": code, "host": created["host_token"], "seat": seat["token"]}
    if created["moderator_token"]:
        tokens["moderator"] = created["moderator_token"]
    return tokens


def download(http: httpx.Client, code: str, token: str | None = None) -> httpx.Response:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    return http.get(f"/api/rooms/{code}/record", headers=headers)


def test_only_the_table_reads_a_finished_game_s_record(live: Local) -> None:
    room = finished_room(live, moderator="human")
    other = finished_room(live)
    with live.http() as http:
        for stranger in (None, "not-a-token", other["host"], other["seat"]):
            refused = download(http, room["code"], stranger)
            assert refused.status_code == 403, refused.text
            assert refused.json()["error"]["code"] == "not_at_table"
            assert "actions" not in refused.text
        for holder in ("seat", "host", "moderator"):
            answer = download(http, room["code"], room[holder])
            assert answer.status_code == 200, (holder, answer.text)
            record, bad = read_record(answer.content)
            assert bad is None and record.actions
            assert answer.headers["cache-control"] == "no-store"


def test_a_record_read_from_the_store_is_the_table_s_too(live: Local) -> None:
    """A finished room no longer in memory (evicted, or another worker's) is read from the
    store: the same rule, from the store's digests of the tokens."""
    room = finished_room(live)
    # as an evicted room's or another worker's, its end is committed (the room submits it
    # right after it says it finished: wait for the store, not for the clock)
    deadline = time.monotonic() + HANG_SECONDS
    while (row := live.store.load_room(room["code"])) is None or row.status != "finished":
        assert time.monotonic() < deadline, "the room's end was never committed"
        live.store.flush()
    live.hub.rooms.pop(room["code"])
    with live.http() as http:
        refused = download(http, room["code"])
        assert refused.status_code == 403
        assert refused.json()["error"]["code"] == "not_at_table"
        assert room["code"] not in live.hub.rooms  # a refusal rebuilds nothing
        assert download(http, room["code"], room["seat"]).status_code == 200


def test_a_record_the_host_chose_to_publish_is_anyone_s(live: Local) -> None:
    room = finished_room(live, public_record=True)
    with live.http() as http:
        answer = download(http, room["code"])
        assert answer.status_code == 200
        assert read_record(answer.content)[1] is None
        assert http.get(f"/api/rooms/{room['code']}").json()["settings"]["public_record"]


def test_a_game_in_play_has_no_record_and_says_nothing_to_strangers(live: Local) -> None:
    with live.http() as http:
        created = http.post("/api/rooms", json={"settings": {"timers": False}}).json()
        code, host = created["code"], created["host_token"]
        add_bots(live, code, host, 9)
        start(live, code, host)
        assert download(http, code).json()["error"]["code"] == "not_at_table"
        missing = download(http, code, host)
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_record"


def test_the_end_screens_analysis_is_the_table_s_and_is_korapsyon_analyse_of_the_record(
    live: Local,
) -> None:
    """``GET /api/rooms/{code}/analysis`` (issue #20: the end screens draw it): the public
    view's analysis is anyone's (the board on a TV holds no token; it says only what the
    public events and the roles revealed at the end say), a player's own (``?as=NAME``,
    their private results) follows the record's rule: a stranger is refused and told
    nothing. Each is exactly what ``korapsyon analyse`` says of the downloaded record; a
    name that is not a player's is refused; a game still in play has none."""
    room = finished_room(live)
    with live.http() as http:
        path = f"/api/rooms/{room['code']}/analysis"
        for stranger in (None, "not-a-token"):
            headers = {"authorization": f"Bearer {stranger}"} if stranger else {}
            refused = http.get(path, params={"as": "Ana"}, headers=headers)
            assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_at_table"
            assert "years" not in refused.text
        game, _ = replay(read_record(download(http, room["code"], room["seat"]).content)[0])
        table = {"authorization": f"Bearer {room['host']}"}
        public = http.get(path)
        assert public.status_code == 200, public.text
        assert public.json() == analyse(game.players, game.roles, game.events)
        assert public.json()["years"] and public.headers["cache-control"] == "no-store"
        mine = http.get(
            path, params={"as": "Ana"}, headers={"authorization": f"Bearer {room['seat']}"}
        )
        assert mine.json() == analyse(game.players, game.roles, game.events, "Ana")
        assert mine.json()["view"] == "Ana"
        unknown = http.get(path, params={"as": "Nobody"}, headers=table)
        assert unknown.status_code == 400 and unknown.json()["error"]["code"] == "unknown_player"
        odd = http.get(path, params={"view": "Ana"}, headers=table)
        assert odd.status_code == 400 and "view" in odd.json()["error"]["message"]

        created = http.post("/api/rooms", json={"settings": {"timers": False}}).json()
        code, host = created["code"], created["host_token"]
        add_bots(live, code, host, 9)
        start(live, code, host)
        missing = http.get(
            f"/api/rooms/{code}/analysis", headers={"authorization": f"Bearer {host}"}
        )
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_record"
