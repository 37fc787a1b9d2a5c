"""Complete games over real WebSocket connections, against a real server on loopback:
every client's view is exactly its player view, a spectator's the public view; a game
survives reconnects and a server restart; a token acts only for its own seat."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from korapsyon.record import read_record, replay, summarize
from korapsyon.rules.views import player_view, public_view
from korapsyon.selfplay import table
from tests.security.wire import ping
from tests.server.inprocess import Local, in_process
from tests.server.live import Client, make_room, open_client, play, start


async def _drain(client: Client) -> None:
    """Read whatever is still on its way to ``client``: everything up to the answer to a
    ping sent now (the server answers it after every frame it had for the client)."""
    await ping(client)


def _record_of(live: Local, code: str, token: str) -> Any:
    """The finished game of room ``code``, from its record (downloaded with ``token``)."""
    with live.http() as http:
        response = http.get(
            f"/api/rooms/{code}/record", headers={"authorization": f"Bearer {token}"}
        )
        response.raise_for_status()
    record, bad = read_record(response.content)
    assert bad is None
    game, stop = replay(record)
    assert stop is None
    return game


@pytest.mark.parametrize("players", [9, 16])
def test_a_complete_game_over_websockets(db_url: str, players: int) -> None:
    names = table(players)

    async def scenario(live: Local) -> tuple[str, dict[str, Client], Client, Client, str]:
        code, host_token, tokens = make_room(live, names)
        clients = {n: await open_client(live, code, token=t) for n, t in tokens.items()}
        host = await open_client(live, code, host_token=host_token)
        spectator = await open_client(live, code, spectate=True)
        start(live, code, host_token)
        await play(clients, host, random.Random(players))
        for client in [*clients.values(), spectator]:
            await _drain(client)
        for client in [*clients.values(), host, spectator]:
            await client.ws.close()
        return code, clients, host, spectator, tokens[names[0]]

    with in_process(db_url) as live:
        code, clients, _host, spectator, seat_token = asyncio.run(scenario(live))
        game = _record_of(live, code, seat_token)  # a seat's token opens the record
    assert game.is_over
    # Each client's view, rebuilt from what it was sent, is exactly its player view: it
    # never received anything outside it. The spectator's is the public view.
    for name, client in clients.items():
        expected = player_view(game, name, words=False)
        assert client.state == {k: v for k, v in expected.items() if k != "timeline"}
        assert client.timeline == expected["timeline"]
        for message in client.received:
            assert "secrets" not in message.get("state", {})
    public = public_view(game, words=False)
    assert spectator.state == {k: v for k, v in public.items() if k != "timeline"}
    assert spectator.timeline == public["timeline"]


def test_reconnect_and_restart_mid_game_then_finish(db_url: str) -> None:
    names = table(9)
    db = db_url

    async def first_half(live: Local) -> tuple[str, str, dict[str, str], dict[str, Any]]:
        code, host_token, tokens = make_room(live, names)
        clients = {n: await open_client(live, code, token=t) for n, t in tokens.items()}
        host = await open_client(live, code, host_token=host_token)
        start(live, code, host_token)
        await play(clients, host, random.Random(3), stop_after=25)
        # a player drops mid-step and comes back: same seat, the same view again
        ana = clients["Ana"]
        before = ana.state
        await ana.ws.close()
        again = await open_client(live, code, token=tokens["Ana"])
        view = await again.until("view")
        assert view["state"]["you"]["name"] == "Ana"
        assert before is not None and view["state"]["year"] >= before["year"]
        live.store.flush()
        expected = player_view(live.game(code), "Ana", words=False)
        assert view["state"] == {k: v for k, v in expected.items() if k != "timeline"}
        for client in [*clients.values(), host, again]:
            await client.ws.close()
        return code, host_token, tokens, expected

    async def second_half(live: Local, code: str, host_token: str, tokens: dict[str, str]) -> None:
        clients = {n: await open_client(live, code, token=t) for n, t in tokens.items()}
        host = await open_client(live, code, host_token=host_token)
        await play(clients, host, random.Random(4))
        for client in [*clients.values(), host]:
            await client.ws.close()

    with in_process(db) as live:
        code, host_token, tokens, before_restart = asyncio.run(first_half(live))
    # the server is gone; a new one on the same database carries on
    with in_process(db) as live:
        assert player_view(live.game(code), "Ana", words=False) == before_restart
        asyncio.run(second_half(live, code, host_token, tokens))
        game = _record_of(live, code, host_token)
    assert game.is_over
    assert summarize(game)["status"] == "finished"


def test_a_token_acts_only_for_its_own_seat(db_url: str) -> None:
    async def scenario(live: Local) -> None:
        code, host_token, tokens = make_room(live, table(9))
        ana = await open_client(live, code, token=tokens["Ana"])
        start(live, code, host_token)
        await ana.until("view")
        before = len(live.game(code).actions)
        for player in ("Ben", "@host", "Nobody"):
            answer = await ana.request(
                {"type": "act", "action": {"action": "ready", "player": player}}
            )
            assert answer["type"] == "error"
            assert answer["code"] in ("not_your_seat", "not_host")
        assert len(live.game(code).actions) == before  # nothing changed
        # a wrong token opens nothing
        stranger = await _raw_hello(live, {"type": "hello", "room": code, "token": "forged"})
        assert stranger["code"] == "bad_token"
        forged_host = await _raw_hello(
            live, {"type": "hello", "room": code, "host_token": "forged"}
        )
        assert forged_host["code"] == "bad_token"
        await ana.ws.close()

    with in_process(db_url) as live:
        asyncio.run(scenario(live))


async def _raw_hello(live: Local, hello: dict[str, Any]) -> dict[str, Any]:
    import json

    socket = await live.connect()
    try:
        await socket.send(json.dumps(hello))
        answer: dict[str, Any] = json.loads(await socket.recv())
        return answer
    finally:
        await socket.close()
