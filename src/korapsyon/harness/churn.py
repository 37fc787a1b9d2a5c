"""The spectator churn benchmark (``korapsyon churn``): connections coming and going in
rooms of their own must not slow down anyone else's game.

Spectators need no token, so an attacker can open a room of their own and have sockets
join and leave it as fast as they can, from one address within its socket limit (issue
#17 measured 199 of them stalling another room's WebSocket ping from p99 1.5 ms to
332-597 ms, because every arrival and departure sent the whole lobby to every connection
of the room). This harness does exactly that while a bystander in another room, a game of
bots in play, pings the server; it reports the bystander's ping round trips before and
during the churn, the joins the churners achieved (and those refused by the per-room
spectator cap), and how many lobby frames a spectator who stays in a churned room got.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import httpx
from picows import WSError, WSFrame, WSListener, WSMsgType, WSTransport, ws_connect
from websockets.asyncio.client import ClientConnection, connect

from ..server.protocol import PROTOCOL_VERSION

PING_SECONDS = 0.05  # the bystander's pace


@dataclass
class Pings:
    """Round trips of the bystander's pings, in seconds."""

    trips: list[float] = field(default_factory=list)

    def percentile(self, q: float) -> float:
        if not self.trips:
            return math.nan
        ordered = sorted(self.trips)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def line(self) -> str:
        if not self.trips:
            return "no pings"
        return (
            f"{len(self.trips)} pings, p50 {self.percentile(0.5) * 1000:.1f} ms, "
            f"p99 {self.percentile(0.99) * 1000:.1f} ms, max {max(self.trips) * 1000:.1f} ms"
        )


@dataclass
class ChurnResult:
    spectators: int
    rooms: int
    dwell: float
    seconds: float
    before: Pings
    during: Pings
    joins: int  # welcomes the churners got
    refused: int  # hellos refused (the spectator cap), or sockets refused (the address cap)
    lobby_frames: int  # lobby frames a spectator staying in a churned room got
    frames: int  # every frame the churners and that spectator got

    def report(self) -> str:
        rate = self.lobby_frames / self.seconds
        return "\n".join([
            f"churn: {self.spectators} spectators joining and leaving {self.rooms} room(s), "
            f"staying {self.dwell:g} s each time, for {self.seconds:.0f} s",
            f"  bystander's ping before: {self.before.line()}",
            f"  bystander's ping during: {self.during.line()}",
            f"  joins {self.joins} ({self.joins / self.seconds:.0f}/s), refused {self.refused}",
            f"  a spectator staying in a churned room: {self.lobby_frames} lobby frames "
            f"({rate:.1f}/s); frames to the churners and it: {self.frames:,}",
        ])  # fmt: skip

    def summary(self) -> dict[str, Any]:
        return {
            "spectators": self.spectators,
            "rooms": self.rooms,
            "dwell": self.dwell,
            "seconds": self.seconds,
            "ping_before_p99_ms": round(self.before.percentile(0.99) * 1000, 2),
            "ping_during_p50_ms": round(self.during.percentile(0.5) * 1000, 2),
            "ping_during_p99_ms": round(self.during.percentile(0.99) * 1000, 2),
            "joins": self.joins,
            "refused": self.refused,
            "lobby_frames": self.lobby_frames,
            "frames": self.frames,
        }


def _ws_url(base: str) -> str:
    return base.replace("http://", "ws://").replace("https://", "wss://") + "/ws"


async def _hello(ws: ClientConnection, code: str) -> dict[str, Any]:
    hello = {"type": "hello", "protocol": PROTOCOL_VERSION, "room": code, "spectate": True}
    await ws.send(json.dumps(hello))
    answer: dict[str, Any] = json.loads(await ws.recv())
    return answer


async def _bot_game(http: httpx.AsyncClient) -> str:
    """A room of nine bots in play (the bystander's game): its code."""
    body = {"settings": {"durations": {"discussion": 5.0}, "bot_delay": [0.5, 2.0]}}
    created = (await http.post("/api/rooms", json=body)).raise_for_status().json()
    auth = {"authorization": f"Bearer {created['host_token']}"}
    for _ in range(9):
        added = await http.post(f"/api/rooms/{created['code']}/bots", json={}, headers=auth)
        added.raise_for_status()
    (await http.post(f"/api/rooms/{created['code']}/start", headers=auth)).raise_for_status()
    return str(created["code"])


async def _pinger(url: str, code: str, pings: list[Pings], stop: asyncio.Event) -> None:
    """A spectator of the bystander's game pinging every PING_SECONDS; its round trips go
    to ``pings[-1]`` (the phase the run is in)."""
    async with connect(url, max_size=2**22) as ws:
        assert (await _hello(ws, code))["type"] == "welcome"
        ident = 0
        while not stop.is_set():
            ident += 1
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "id": ident}))
            while True:
                message = json.loads(await ws.recv())
                if message.get("type") == "pong" and message.get("id") == ident:
                    break
            pings[-1].trips.append(time.perf_counter() - sent)
            await asyncio.sleep(PING_SECONDS)


@dataclass
class _Counts:
    joins: int = 0
    refused: int = 0
    frames: int = 0
    lobby_frames: int = 0


class _Churning(WSListener):
    """One churner's socket (``picows``: frames parsed in C, so that the attacker, which
    shares the machine, is not what slows the server): says hello, counts what comes, and
    tells ``welcomed`` whether it was let in."""

    def __init__(self, code: str, counts: _Counts, welcomed: asyncio.Future[bool]) -> None:
        self.code = code
        self.counts = counts
        self.welcomed = welcomed

    def on_ws_connected(self, transport: WSTransport) -> None:
        hello = {"type": "hello", "protocol": PROTOCOL_VERSION, "room": self.code}
        transport.send(WSMsgType.TEXT, json.dumps({**hello, "spectate": True}).encode())

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        if frame.msg_type is WSMsgType.CLOSE:
            transport.disconnect()
        elif frame.msg_type is WSMsgType.TEXT:
            self.counts.frames += 1
            if not self.welcomed.done():
                kind = json.loads(frame.get_payload_as_bytes()).get("type")
                self.welcomed.set_result(kind == "welcome")

    def on_ws_disconnected(self, transport: WSTransport) -> None:
        if not self.welcomed.done():
            self.welcomed.set_result(False)


async def _churner(url: str, code: str, dwell: float, counts: _Counts, stop: asyncio.Event) -> None:
    """Join room ``code`` as a spectator, read what comes for ``dwell`` seconds, leave, and
    again, until ``stop``."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        welcomed: asyncio.Future[bool] = loop.create_future()
        try:
            transport, _ = await ws_connect(partial(_Churning, code, counts, welcomed), url)
        except (OSError, WSError):
            counts.refused += 1
            await asyncio.sleep(0.05)
            continue
        try:
            if await welcomed:
                counts.joins += 1
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), dwell)
            else:
                counts.refused += 1
                await asyncio.sleep(0.05)
        finally:
            transport.disconnect()
            await transport.wait_disconnected()


async def _stayer(ws: ClientConnection, counts: _Counts, stop: asyncio.Event) -> None:
    """A spectator who stays in a churned room (``ws``, welcomed) and counts the lobby
    frames it gets."""
    while not stop.is_set():
        try:
            frame = await asyncio.wait_for(ws.recv(), 0.2)
        except TimeoutError:
            continue
        counts.frames += 1
        if json.loads(frame).get("type") == "lobby":
            counts.lobby_frames += 1


async def run(
    base: str,
    *,
    spectators: int = 199,
    rooms: int = 1,
    seconds: float = 15.0,
    calm: float = 5.0,
    dwell: float = 1.0,
) -> ChurnResult:
    """Measure the bystander's ping for ``calm`` seconds, then for ``seconds`` while
    ``spectators`` sockets (from this one address) join ``rooms`` rooms of their own, stay
    ``dwell`` seconds, leave and join again, as fast as they can."""
    url = _ws_url(base)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        bystander = await _bot_game(http)
        churned = []
        for _ in range(rooms):
            created = (await http.post("/api/rooms", json={})).raise_for_status().json()
            churned.append(created["code"])
    stop = asyncio.Event()
    phases = [Pings()]
    pinger = asyncio.create_task(_pinger(url, bystander, phases, stop))
    await asyncio.sleep(calm)
    phases.append(Pings())
    counts = _Counts()
    stayer = await connect(url, max_size=2**22)
    assert (await _hello(stayer, churned[0]))["type"] == "welcome"
    workers = [asyncio.create_task(_stayer(stayer, counts, stop))]
    workers += [
        asyncio.create_task(_churner(url, churned[k % rooms], dwell, counts, stop))
        for k in range(spectators - 1)  # (the stayer is one of them)
    ]
    began = time.perf_counter()
    await asyncio.sleep(seconds)
    took = time.perf_counter() - began
    stop.set()
    await asyncio.gather(*workers)
    await pinger
    await stayer.close()
    return ChurnResult(
        spectators=spectators,
        rooms=rooms,
        dwell=dwell,
        seconds=took,
        before=phases[0],
        during=phases[1],
        joins=counts.joins,
        refused=counts.refused,
        lobby_frames=counts.lobby_frames,
        frames=counts.frames,
    )
