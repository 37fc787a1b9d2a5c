"""Playing again (issue #18): once a game is over the host's one tap makes a new room with
the same settings and seats, in which every token of the old room opens the same place,
started at once with a new deal; the old room remembers it (in the store too) and tells
every page, which moves there; a second tap gives the same room."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

from korapsyon.rules.ruleset import default_roles
from korapsyon.server.shards import Shards
from tests.server.inprocess import Local, in_process
from tests.server.live import (
    Client,
    Live,
    add_bots,
    free_port,
    open_client,
    play,
    running,
    start,
)

QUICK = {
    "timers": False,
    "bot_delay": [0.0, 0.0],
    "ruleset": {"max_years": 1},  # the game stops at the end of Year 1
    "moderator": "human",
}


def _room(
    live: Live | Local, people: list[str], bots: int, shards: Shards | None = None
) -> tuple[str, dict[str, str]]:
    """A room with a human moderator (R-71), these people and bots: (code, tokens), the
    tokens by name, the host's and the moderator's under "@host" and "@moderator". With
    ``shards``, one the worker it is created at owns."""
    with live.http() as http:
        created = http.post("/api/rooms", json={"settings": QUICK}).json()
        while shards is not None and not shards.owns(created["code"]):
            created = http.post("/api/rooms", json={"settings": QUICK}).json()
        code = created["code"]
        tokens = {"@host": created["host_token"], "@moderator": created["moderator_token"]}
        for name in people:
            tokens[name] = http.post(f"/api/rooms/{code}/seats", json={"name": name}).json()[
                "token"
            ]
    add_bots(live, code, tokens["@host"], bots)
    return code, tokens


async def _rematch(live: Live | Local, code: str, token: str) -> httpx.Response:
    auth = {"authorization": f"Bearer {token}"}
    if isinstance(live, Local):  # (the test client is synchronous: from a thread)
        return await asyncio.to_thread(live.client.post, f"/api/rooms/{code}/rematch", headers=auth)
    async with httpx.AsyncClient(base_url=live.url, timeout=10) as http:
        return await http.post(f"/api/rooms/{code}/rematch", headers=auth)


async def _next_room(client: Client) -> dict[str, Any]:
    """The ``next`` of the first lobby message that names one."""
    while True:
        message = await client.until("lobby")
        if message["room"]["next"] is not None:
            return dict(message["room"]["next"])


def test_play_again_keeps_every_seat_and_token_with_a_new_deal(db_url: str) -> None:
    async def scenario(live: Local) -> None:
        code, tokens = _room(live, ["Ana", "Ben"], bots=7)
        people = ("Ana", "Ben")
        players = {name: await open_client(live, code, token=tokens[name]) for name in people}
        host = await open_client(live, code, host_token=tokens["@host"])
        moderator = await open_client(live, code, token=tokens["@moderator"])
        watcher = await open_client(live, code, spectate=True)
        start(live, code, tokens["@host"])
        early = await _rematch(live, code, tokens["@host"])
        assert early.status_code == 409 and early.json()["error"]["code"] == "not_over"
        await play(players, host, random.Random(1))
        old = live.game(code)
        assert old.is_over
        refused = await _rematch(live, code, tokens["Ana"])  # a seat's token is not the host's
        assert refused.status_code == 403
        # two taps, and a second host screen, at once: one new room
        answers = await asyncio.gather(*(_rematch(live, code, tokens["@host"]) for _ in range(3)))
        assert [a.status_code for a in answers] == [200, 200, 200]
        found = {a.json()["next"]["code"] for a in answers}
        assert len(found) == 1
        new = found.pop()
        assert answers[0].json()["next"] == {"code": new, "url": None}  # served here
        assert (await _rematch(live, code, tokens["@host"])).json()["next"]["code"] == new
        for client in (*players.values(), host, moderator, watcher):  # every page is told
            assert await _next_room(client) == {"code": new, "url": None}
        # the same table, started at once with a fresh deal
        with live.http() as http:
            before = http.get(f"/api/rooms/{code}").json()
            after = http.get(f"/api/rooms/{new}").json()
        assert after["status"] == "playing"
        assert [(s["name"], s["bot"]) for s in after["seats"]] == [
            (s["name"], s["bot"]) for s in before["seats"]
        ]
        assert after["settings"] == before["settings"]
        game = live.game(new)
        assert game.players == old.players and game.year == 1
        assert {action.player for action in game.actions} <= {"Bot Amihan", *old.players[2:]}
        assert sorted(game.roles) == sorted(default_roles(9))
        assert game.seed != old.seed  # dealt again, from the operating system's randomness
        # every token of the old room opens the same place in the new one
        for name in ("Ana", "Ben"):
            ana = await open_client(live, new, token=tokens[name])
            assert ana.received[0]["seat"] == name
            view = await ana.until("view")
            assert view["state"]["you"]["name"] == name and view["state"]["step"] == "hidden"
            await ana.ws.close()
        again = await open_client(live, new, host_token=tokens["@host"])
        assert again.received[0]["role"] == "host"
        mod = await open_client(live, new, token=tokens["@moderator"])
        assert mod.received[0]["role"] == "moderator"
        assert "secrets" in (await mod.until("view"))["state"]
        # a page that comes back to the old room later moves on too
        late = await open_client(live, code, spectate=True)
        assert await _next_room(late) == {"code": new, "url": None}
        for client in (*players.values(), host, moderator, watcher, again, mod, late):
            await client.ws.close()

    with in_process(db_url) as live:
        asyncio.run(scenario(live))
        code = next(c for c, room in live.hub.rooms.items() if room.next_room is not None)
        new = live.hub.rooms[code].next_room
    with in_process(db_url) as live, live.http() as http:  # a restart: the old room still
        # leads to the new one
        assert http.get(f"/api/rooms/{code}").json()["next"] == {"code": new, "url": None}
        assert http.get(f"/api/rooms/{new}").json()["status"] == "playing"


def test_the_new_room_may_be_another_worker_s(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With two workers, a new room whose code another worker owns is written to the store
    by the old room's worker and served by the other: its ``next`` names that worker's
    address, where the same tokens open the same seats."""
    db = f"sqlite:///{tmp_path / 'korapsyon.sqlite3'}"
    ports = _ports(2)
    urls = tuple(f"http://127.0.0.1:{port}" for port in ports)
    with (
        running(db, port=ports[0], shards=Shards(urls, 0)) as first,
        running(db, port=ports[1], shards=Shards(urls, 1)) as second,
    ):
        shards = Shards(urls, 0)

        async def scenario() -> None:
            code, tokens = _room(first, ["Ana"], bots=8, shards=shards)
            ana = {"Ana": await open_client(first, code, token=tokens["Ana"])}
            host = await open_client(first, code, host_token=tokens["@host"])
            start(first, code, tokens["@host"])
            await play(ana, host, random.Random(2))
            drawn = first.hub._new_code

            def elsewhere() -> str:
                found = drawn()
                return found if shards.owner(found) == 1 else elsewhere()

            monkeypatch.setattr(first.hub, "_new_code", elsewhere)
            answer = await _rematch(first, code, tokens["@host"])
            following = answer.json()["next"]
            assert following["url"] == urls[1]
            assert await _next_room(ana["Ana"]) == following
            new = following["code"]
            assert new not in first.hub.rooms  # only written to the store here
            seat = await open_client(second, new, token=tokens["Ana"])
            assert seat.received[0]["seat"] == "Ana"
            assert (await seat.until("view"))["state"]["step"] == "hidden"
            for client in (ana["Ana"], host, seat):
                await client.ws.close()

        asyncio.run(scenario())


def _ports(count: int) -> list[int]:
    found: set[int] = set()
    while len(found) < count:
        found.add(free_port())
    return sorted(found)
