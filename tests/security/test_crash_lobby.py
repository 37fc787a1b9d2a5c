"""kill -9 right after the lobby answers (issue #6): a room the server answered ``201`` for,
and a seat it handed a token for, must still be there after a restart.

They are not yet: ``POST /api/rooms`` and ``POST /api/rooms/{code}/seats`` answer before
the store's writes are committed (``Hub.create_room`` and ``Room.join`` do not wait for
the futures the store returns), so a crash within milliseconds of the answer loses the room
or the seat. In a trial, 12 rooms of 20 were lost this way. The fix belongs to the server
(await the store's futures before answering); this test is expected to fail until then."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import httpx
import pytest

from korapsyon.crashtest import ServerProcess

KILLS = 8  # with the bug, each kill loses the room 6 times in 10: all 8 survive 1 in 1,500


@pytest.mark.xfail(strict=True, reason="lobby answers precede their commits (server/room.py)")
def test_a_room_and_seat_answered_survive_kill_9() -> None:
    async def go() -> list[str]:
        lost = []
        with tempfile.TemporaryDirectory() as folder:
            server = ServerProcess(f"sqlite:///{folder}/lobby.sqlite3", Path(folder) / "log")
            await server.start()
            try:
                for _ in range(KILLS):
                    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
                        body = {"settings": {"timers": False}}
                        room = (await http.post("/api/rooms", json=body)).json()
                        seat = await http.post(
                            f"/api/rooms/{room['code']}/seats", json={"name": "Ana"}
                        )
                        assert seat.status_code == 201
                    server.kill()
                    await server.start()
                    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
                        found = await http.get(f"/api/rooms/{room['code']}")
                    if found.status_code != 200:
                        lost.append(f"room {room['code']}")
                    elif [s["name"] for s in found.json()["seats"]] != ["Ana"]:
                        lost.append(f"the seat of room {room['code']}")
            finally:
                server.stop()
        return lost

    assert asyncio.run(go()) == []
