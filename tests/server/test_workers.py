"""`korapsyon serve --workers N`: rooms spread over worker processes, each room served
whole by the worker that owns it (its API, its pages, its WebSocket), games that survive a
worker killed mid-game, and a supervisor that fails at once when a worker cannot start."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import psutil
import pytest
from websockets.asyncio.client import connect

from korapsyon.harness.loadtest import LOAD_OPTIONS
from korapsyon.harness.spawn import spawned_server, wait_healthy
from korapsyon.record import read_record, replay
from korapsyon.selfplay import table
from korapsyon.server.protocol import PROTOCOL_VERSION
from korapsyon.server.shards import Shards
from korapsyon.server.workers import WorkerFailed, supervise
from tests.server.live import HANG_SECONDS, Client, open_client, play


@dataclass
class Workers:
    """A ``korapsyon serve --workers 2`` started for a test (its supervisor's pid)."""

    urls: tuple[str, str]
    pid: int

    def worker(self, index: int) -> psutil.Process:
        for child in psutil.Process(self.pid).children():
            line = child.cmdline()
            if any(line[k : k + 2] == ["--worker", str(index)] for k in range(len(line))):
                return child
        raise LookupError(f"no worker {index}")


@pytest.fixture
def workers(db_url: str) -> Iterator[Workers]:
    db = None if db_url.startswith("sqlite") else db_url
    with spawned_server(db, workers=2, options=LOAD_OPTIONS) as (url, pid):
        port = int(url.rsplit(":", 1)[1])
        yield Workers((url, f"http://127.0.0.1:{port + 1}"), pid)


def _rooms_on_each_worker(workers: Workers) -> dict[int, list[dict[str, str]]]:
    """Rooms created at worker 0 until each worker owns one: worker -> its creations."""
    owned: dict[int, list[dict[str, str]]] = {}
    with httpx.Client(base_url=workers.urls[0], timeout=10) as http:
        for _ in range(40):
            created = http.post("/api/rooms", json={"settings": {"timers": False}}).json()
            owner = workers.urls.index(created["join_url"].partition("/?")[0])
            owned.setdefault(owner, []).append(created)
            if len(owned) == 2:
                return owned
    raise AssertionError("40 new rooms all went to one worker")


@dataclass
class Remote:
    """One worker's WebSocket address, for ``open_client``."""

    url: str

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://") + "/ws"


def test_the_owner_of_a_room_is_its_code_hash() -> None:
    shards = Shards(("http://a", "http://b", "http://c"), 1)
    codes = ["".join(random.Random(i).choices("ABCDEFGH", k=5)) for i in range(300)]
    owners = [shards.owner(code) for code in codes]
    assert set(owners) == {0, 1, 2}  # spread over every worker
    assert all(owners.count(k) > 50 for k in range(3))
    assert [shards.owner(code.lower()) for code in codes] == owners  # codes are case-blind
    each = [Shards(shards.urls, k) for k in range(3)]
    assert all(sum(w.owns(c) for w in each) == 1 for c in codes)  # one owner, always
    assert all(Shards.single("http://x/").owns(code) for code in codes)
    assert Shards.single("http://x/").url_of("ABCDE") == "http://x"


def test_each_room_is_served_by_its_own_worker_and_the_other_says_where(
    workers: Workers,
) -> None:
    owned = _rooms_on_each_worker(workers)
    code = owned[1][0]["code"]
    there = workers.urls[1]
    with httpx.Client(timeout=10) as http:
        # worker 0 created them all but holds only its own
        assert http.get(f"{workers.urls[0]}/healthz").json()["rooms"] == len(owned[0])
        assert http.get(f"{there}/healthz").json()["rooms"] == 0  # not read from the store yet
        # a room created with the host's seat at a worker that does not own it
        for _ in range(40):
            answer = http.post(f"{workers.urls[0]}/api/rooms", json={"name": "Tess"}).json()
            if answer["join_url"].startswith(there):
                break
        info = http.get(f"{there}/api/rooms/{answer['code']}").json()
        assert [seat["name"] for seat in info["seats"]] == ["Tess"]
        assert answer["seat"]["name"] == "Tess" and answer["seat"]["token"]
        # the API: 421 names the owner, with this very request's address there
        answer = http.post(f"{workers.urls[0]}/api/rooms/{code}/seats", json={"name": "Ana"})
        assert answer.status_code == 421
        error = answer.json()["error"]
        assert error["code"] == "elsewhere"
        assert error["url"] == answer.headers["location"] == f"{there}/api/rooms/{code}/seats"
        assert there in error["message"]
        # ... and changed nothing: the owner has no seat
        assert http.get(f"{there}/api/rooms/{code}").json()["seats"] == []
        seat = http.post(f"{there}/api/rooms/{code}/seats", json={"name": "Ana"})
        assert seat.status_code == 201
        # the pages of the room redirect to its worker (tokens and WebSocket live there)
        page = http.get(f"{workers.urls[0]}/play?room={code}&spectate=1")
        assert page.status_code == 307
        assert page.headers["location"] == f"{there}/play?room={code}&spectate=1"
        assert http.get(page.headers["location"]).status_code == 200
        # a room of worker 0 is served there, not redirected
        mine = owned[0][0]["code"]
        assert http.get(f"{workers.urls[0]}/api/rooms/{mine}").status_code == 200
        assert http.get(f"{workers.urls[0]}/?room={mine}").status_code == 200

    async def hello_at_the_wrong_worker() -> dict[str, object]:
        async with connect(Remote(workers.urls[0]).ws_url) as ws:
            hello = {"type": "hello", "protocol": PROTOCOL_VERSION, "room": code, "spectate": True}
            await ws.send(json.dumps(hello))
            answer: dict[str, object] = json.loads(await ws.recv())
            return answer

    refusal = asyncio.run(hello_at_the_wrong_worker())
    assert refusal["type"] == "error" and refusal["code"] == "elsewhere"
    assert there in str(refusal["message"])


def test_games_on_both_workers_survive_one_killed_mid_game(workers: Workers) -> None:
    owned = _rooms_on_each_worker(workers)
    names = table(9)
    rooms: dict[int, tuple[str, str, dict[str, str]]] = {}
    with httpx.Client(timeout=10) as http:
        for owner, creations in owned.items():
            created = creations[0]
            url, code = workers.urls[owner], created["code"]
            tokens = {}
            for name in names:
                answer = http.post(f"{url}/api/rooms/{code}/seats", json={"name": name})
                tokens[name] = answer.raise_for_status().json()["token"]
            rooms[owner] = (code, created["host_token"], tokens)

    async def clients(owner: int) -> tuple[dict[str, Client], Client]:
        code, host, tokens = rooms[owner]
        remote = Remote(workers.urls[owner])
        seats = {n: await open_client(remote, code, token=t) for n, t in tokens.items()}
        return seats, await open_client(remote, code, host_token=host)

    async def both(*, stop_after: int | None, start: bool = False) -> list[int]:
        tables = [await clients(owner) for owner in (0, 1)]
        if start:
            async with httpx.AsyncClient(timeout=10) as http:
                for owner, (code, token, _) in rooms.items():
                    url = f"{workers.urls[owner]}/api/rooms/{code}/start"
                    answer = await http.post(url, headers={"authorization": f"Bearer {token}"})
                    answer.raise_for_status()
        acked = await asyncio.gather(*(
            play(seats, hosting, random.Random(i), stop_after=stop_after)
            for i, (seats, hosting) in enumerate(tables)
        ))  # fmt: skip
        for seats, hosting in tables:
            for client in [*seats.values(), hosting]:
                await client.ws.close()
        return list(acked)

    first = asyncio.run(both(stop_after=30, start=True))
    assert min(first) >= 30
    # kill -9 worker 1 (it has started: it answered, so it told the supervisor first): the
    # supervisor starts it again, and it rebuilds its game from the store
    victim = workers.worker(1)
    victim.send_signal(signal.SIGKILL)
    victim.wait(timeout=10)
    assert wait_healthy(workers.urls[1], time.monotonic() + HANG_SECONDS, lambda: True), "not back"
    assert workers.worker(1).pid != victim.pid
    asyncio.run(both(stop_after=None))
    with httpx.Client(timeout=10) as http:
        for code, host, _ in rooms.values():
            # a finished game's record can be had from any worker (it is in the store)
            auth = {"authorization": f"Bearer {host}"}
            answer = http.get(f"{workers.urls[0]}/api/rooms/{code}/record", headers=auth)
            record, bad = read_record(answer.raise_for_status().content)
            assert bad is None
            game, stop = replay(record)
            assert stop is None and game.is_over
            assert len(record.actions) >= 30


READY = "import os, sys; os.write(int(sys.argv[-1]), b'ready\\n')"  # as a worker says it


def test_a_worker_that_dies_while_starting_stops_them_all() -> None:
    """A worker that dies before it said it has started (``--ready-fd``) fails the whole
    server at once, the healthy one stopped too."""
    commands = [
        [sys.executable, "-c", f"{READY}; import time; time.sleep(60)"],
        [sys.executable, "-c", "raise SystemExit(3)"],
    ]
    before = {child.pid for child in psutil.Process().children()}
    with pytest.raises(WorkerFailed, match="worker 1 stopped while starting"):
        supervise(commands, log=lambda line: None)
    after = {child.pid for child in psutil.Process().children()}
    assert after <= before  # the healthy worker was stopped too


def test_a_worker_that_keeps_dying_after_its_first_run_is_restarted_after_pauses(
    tmp_path: Path,
) -> None:
    """Once a worker has started, its deaths no longer stop the others: it is started
    again, after a pause that doubles while it keeps dying before or soon after it starts
    (here: it says it started and ends, then dies at once, again and again). Whether the
    server fails is decided from what the worker said, not from how long it lived."""
    runs = tmp_path / "runs"
    flaky = (
        f"import os, pathlib, sys; p = pathlib.Path({str(runs)!r}); "
        "n = len(p.read_text()) if p.exists() else 0; p.write_text('x' * (n + 1)); "
        "n or os.write(int(sys.argv[-1]), b'ready\\n')"
    )
    steady = f"{READY}; import time; time.sleep(60)"
    commands = [[sys.executable, "-c", steady], [sys.executable, "-c", flaky]]
    said: list[str] = []

    def log(line: str) -> None:
        said.append(line)
        if len(said) == 3:
            os.kill(os.getpid(), signal.SIGTERM)  # stop the supervisor (its own handler)

    supervise(commands, log=log)  # returns on SIGTERM: nothing raised
    stopped = "worker 1 stopped (exit code 0); starting it again"
    assert said == [f"{stopped} in 1 s", f"{stopped} in 2 s", f"{stopped} in 4 s"]
    assert len(runs.read_text()) == 3  # the first run and two restarts
