"""Spectators coming and going cannot cost the server O(N²) (issue #17).

Observed before the fix: every WebSocket connect or disconnect sent the whole lobby to every
connection of the room, spectators need no token and had no cap per room, so 199 sockets
joining and leaving one room made another room's ping p99 go from 1.5 ms to 332-597 ms.
Now presence changes are coalesced per room (one lobby frame per connection per
PRESENCE_SECONDS, however many changes), a room takes at most ``Limits.spectators``
spectators, and an address may open only ``Limits.connects`` WebSockets a minute. The
ping under that churn is a benchmark (``korapsyon churn``, docs/RELIABILITY.md).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from korapsyon.server.connection import Limits
from korapsyon.server.hub import Hub
from korapsyon.server.settings import RoomSettings
from korapsyon.store.sql import SqlStore
from tests.security.attack import Socket, attacked
from tests.server.inprocess import Local


@dataclass
class Watching:
    """A stand-in for a spectator's connection: the frames the room sent it."""

    frames: list[bytes] = field(default_factory=list)
    role: str = "spectator"
    seat: str | None = None
    closed: bool = False
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    def send_raw(self, data: bytes) -> None:
        self.frames.append(data)
        self.arrived.set()


def test_presence_changes_reach_each_connection_once_per_window(tmp_path: Path) -> None:
    """A hundred arrivals and departures in one moment send each of the room's 50
    connections one lobby frame, not a hundred; the next hundred, one more, a window
    later; a seat or settings change goes out on the event loop's next turn."""
    store = SqlStore(f"sqlite:///{tmp_path / 'korapsyon.sqlite3'}")
    store.migrate()

    async def scenario() -> list[int]:
        hub = Hub(store)
        room, _, _ = hub.create_room(RoomSettings())
        watchers = [Watching() for _ in range(50)]
        room.connections.extend(watchers)  # type: ignore[arg-type]
        counts = []
        for _ in range(2):
            for watcher in watchers:
                watcher.arrived.clear()
            for _ in range(100):
                room.presence_changed()
            await asyncio.wait_for(watchers[-1].arrived.wait(), 10)
            await asyncio.sleep(0)
            counts.append(sum(len(w.frames) for w in watchers))
        room.join("Ana")  # a lobby change: at once, not a window later
        loop = asyncio.get_running_loop()
        assert room.lobby_pending is not None and room.lobby_due <= loop.time()
        await asyncio.wait_for(_frames(watchers[0], 3), 10)
        counts.append(sum(len(w.frames) for w in watchers))
        await room.saved()
        return counts

    try:
        counts = asyncio.run(scenario())
    finally:
        store.close()
    assert counts == [50, 100, 150]


async def _frames(watcher: Watching, count: int) -> None:
    while len(watcher.frames) < count:
        watcher.arrived.clear()
        await watcher.arrived.wait()


@pytest.fixture
def live() -> Iterator[Local]:
    with attacked(limits=Limits(spectators=3, connects=7)) as server:
        yield server


def test_a_room_takes_so_many_spectators_and_an_address_so_many_sockets(live: Local) -> None:
    """Three spectators a room here (50 by default): the fourth is told why and closed,
    another room still takes its own; seven new WebSockets a minute from one address here
    (60 by default): the eighth waits, is told why and closed, and another address is not
    held back."""
    with live.http() as http:
        one = http.post("/api/rooms", json={}).json()["code"]
        two = http.post("/api/rooms", json={}).json()["code"]
        three = http.post("/api/rooms", json={}).json()["code"]
    watching = [Socket(live, {"room": one, "spectate": True}, "10.0.9.1") for _ in range(3)]
    refused = Socket(live, None, "10.0.9.1")
    refused.send(json.dumps({"type": "hello", "room": one, "spectate": True}))
    close_code, reason, said = refused.closed()
    assert [m["code"] for m in said] == ["too_many_spectators"]
    assert close_code == 1008 and "at most 3 spectators" in reason
    assert live.hub.rooms[one].spectators() == 3
    others = [Socket(live, {"room": two, "spectate": True}, "10.0.9.1") for _ in range(3)]
    assert all(s.alive() for s in [*watching, *others])
    eighth = Socket(live, None, "10.0.9.1")  # (seven opened from 10.0.9.1 so far)
    close_code, reason, said = eighth.closed()
    assert [m["code"] for m in said] == ["too_many_connects"]
    assert close_code == 1008 and "7 new connections in 60 s" in reason
    assert Socket(live, {"room": three, "spectate": True}, "10.0.9.2").alive()
