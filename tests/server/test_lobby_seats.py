"""R-01 at the lobby: a room seats at most 16 with the R-02 roles and at most 20 with a
custom setup (R-03). Before, every room took 20 seats, so a 17th bot was accepted into a
room that could then never start (docs/RULINGS.md)."""

from __future__ import annotations

from pathlib import Path

import httpx

from korapsyon.selfplay import table
from tests.server.inprocess import in_process

FAST = {"timers": False, "bot_delay": [0.0, 0.0]}


def _bot(http: httpx.Client, code: str, host: str) -> httpx.Response:
    auth = {"authorization": f"Bearer {host}"}
    return http.post(f"/api/rooms/{code}/bots", json={"kind": "random"}, headers=auth)


def test_R01_a_17th_seat_needs_a_custom_setup_and_a_21st_is_refused(tmp_path: Path) -> None:
    with in_process() as live, live.http() as http:
        created = http.post("/api/rooms", json={"settings": FAST}).json()
        code, host = created["code"], created["host_token"]
        for _ in range(16):
            assert _bot(http, code, host).status_code == 201
        refused = _bot(http, code, host)
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "room_full"
        person = http.post(f"/api/rooms/{code}/seats", json={"name": "Ana"})
        assert person.status_code == 409 and person.json()["error"]["code"] == "room_full"
        assert len(live.hub.rooms[code].seats) == 16

        # a custom setup seats up to 20; the 21st is refused
        roles = ["good_politician"] * 2 + ["corrupt_politician"] * 4 + ["citizen"] * 14
        settings = {**FAST, "roles": roles}
        auth = {"authorization": f"Bearer {host}"}
        http.put(f"/api/rooms/{code}/settings", json=settings, headers=auth).raise_for_status()
        for name in table(4):
            assert http.post(f"/api/rooms/{code}/seats", json={"name": name}).status_code == 201
        assert _bot(http, code, host).json()["error"]["code"] == "room_full"
        assert len(live.hub.rooms[code].seats) == 20
        started = http.post(f"/api/rooms/{code}/start", headers=auth)
        assert started.status_code == 200, started.text

        # back to the R-02 roles with 20 seats: the room keeps them, and cannot start
        other = http.post("/api/rooms", json={"settings": settings}).json()
        auth = {"authorization": f"Bearer {other['host_token']}"}
        for _ in range(17):
            assert _bot(http, other["code"], other["host_token"]).status_code == 201
        http.put(f"/api/rooms/{other['code']}/settings", json=FAST, headers=auth).raise_for_status()
        too_many = http.post(f"/api/rooms/{other['code']}/start", headers=auth)
        assert too_many.status_code == 400 and too_many.json()["error"]["code"] == "player_count"


def test_a_removal_meant_for_a_seat_that_moved_up_is_refused_and_changes_nothing() -> None:
    """The seats after a removed one move up: a second ✕ tap (or a second host screen)
    that still names the removed player must not remove the next one."""
    with in_process() as live, live.http() as http:
        created = http.post("/api/rooms", json={"settings": FAST}).json()
        code, host = created["code"], created["host_token"]
        auth = {"authorization": f"Bearer {host}"}
        for name in table(4):
            assert http.post(f"/api/rooms/{code}/seats", json={"name": name}).status_code == 201
        first, second = table(4)[1], table(4)[2]
        gone = http.delete(f"/api/rooms/{code}/seats/1", params={"name": first}, headers=auth)
        assert gone.status_code == 200 and first not in [s["name"] for s in gone.json()["seats"]]
        again = http.delete(f"/api/rooms/{code}/seats/1", params={"name": first}, headers=auth)
        assert again.status_code == 409 and again.json()["error"]["code"] == "seat_moved"
        assert [s.name for s in live.hub.rooms[code].seats] == [table(4)[0], second, table(4)[3]]
