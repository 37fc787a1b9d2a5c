"""Memory stays bounded by the rooms in use: finished games and abandoned lobbies leave the
server's memory once nobody has used them for a while, and come back from the store, whole,
when someone asks for them again (a record download, a reload of the final screen, a late
join in a lobby)."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref

import pytest

from korapsyon.rules.actions import HOST
from korapsyon.server import app as server_app
from korapsyon.server import session as server_session
from korapsyon.server.room import Room
from tests.server.inprocess import Local, in_process
from tests.server.live import HANG_SECONDS, make_room, open_client, start

FAST = {"timers": False, "bot_delay": [0.0, 0.0]}


async def _play_out(live: Local, code: str, host_token: str) -> None:
    """The host ends each discussion until the bots have finished the game."""
    host = await open_client(live, code, host_token=host_token)
    start(live, code, host_token)
    while host.state is None or host.state["status"] != "finished":
        await host.receive(timeout=30)
        if host.state is not None and host.state["step"] == "discussion":
            end = {"action": "end_discussion", "player": HOST}
            await host.request({"type": "act", "action": end})
    await host.ws.close()


def _wait_until_gone(live: Local, *codes: str) -> None:
    deadline = time.monotonic() + HANG_SECONDS
    while any(code in live.hub.rooms for code in codes):
        assert time.monotonic() < deadline, "the idle rooms were never evicted"
        time.sleep(0.05)


def test_idle_rooms_leave_memory_and_come_back_whole(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_app, "SWEEP_SECONDS", 0.05)
    # a vote count's refresh due long after the rooms go idle: its handle must not keep
    # them alive (it did, now and then, when a room was dropped within 2 s of its last push)
    monkeypatch.setattr(server_session, "PROGRESS_SECONDS", 3600.0)
    monkeypatch.setattr(server_app, "IDLE_SECONDS", 3600.0)  # until the rooms are set up
    with in_process(db_url) as live:
        finished, host_token, _ = make_room(live, [], bots=9, settings=FAST)
        asyncio.run(_play_out(live, finished, host_token))
        record = live.hub.record(finished, host_token)
        lobby, _, tokens = make_room(live, ["Ana"], settings=FAST)
        playing, playing_host, _ = make_room(live, [], bots=9, settings=FAST)
        start(live, playing, playing_host)  # no host to end its discussion: it stays in play
        rooms: list[weakref.ref[Room]] = [weakref.ref(live.hub.rooms[c]) for c in (finished, lobby)]
        # Freed by reference counting alone: a loaded server's collector rarely looks at
        # old objects (korapsyon.collector), so the rooms must hold no reference cycle.
        gc.collect()
        gc.freeze()  # every object so far is out of the collector's reach
        try:
            monkeypatch.setattr(server_app, "IDLE_SECONDS", 0.2)
            _wait_until_gone(live, finished, lobby)
            assert [ref() for ref in rooms] == [None, None]  # nothing else held them
        finally:
            gc.unfreeze()
        assert playing in live.hub.rooms  # a game in play keeps its timers and bots

        async def come_back() -> None:
            watcher = await open_client(live, finished, spectate=True)
            view = await watcher.until("view")
            assert view["state"]["status"] == "finished"
            await watcher.ws.close()
            ana = await open_client(live, lobby, token=tokens["Ana"])
            await ana.ws.close()

        asyncio.run(come_back())
        with live.http() as http:
            auth = {"authorization": f"Bearer {host_token}"}
            downloaded = http.get(f"/api/rooms/{finished}/record", headers=auth)
            assert downloaded.status_code == 200
            assert len(downloaded.json()["actions"]) == len(record.actions)
            joined = http.post(f"/api/rooms/{lobby}/seats", json={"name": "Ben"})
            assert joined.status_code == 201, joined.text
            info = http.get(f"/api/rooms/{lobby}").json()
            assert [seat["name"] for seat in info["seats"]] == ["Ana", "Ben"]
            assert http.get("/api/rooms/ZZZZZ").status_code == 404
            assert http.get("/api/rooms/not-a-code").status_code == 404
