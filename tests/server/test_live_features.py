"""The server's other duties, over real WebSockets: timers take the R-72 defaults, the host
or moderator controls them, chat and its channels and limits, claims, bot seats, the human
moderator's view, spectators, and a store that fails."""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

import pytest

from korapsyon.rules.actions import HOST
from korapsyon.rules.roles import Role
from korapsyon.rules.steps import Step
from korapsyon.selfplay import table
from korapsyon.store.base import StoreError
from tests.server.inprocess import Local, in_process
from tests.server.live import Client, choose, make_room, open_client, start

FAST = {"timers": False, "bot_delay": [0.0, 0.0]}


async def _clients(live: Local, code: str, tokens: dict[str, str]) -> dict[str, Client]:
    return {name: await open_client(live, code, token=secret) for name, secret in tokens.items()}


async def _close(*clients: Client) -> None:
    for client in clients:
        await client.ws.close()


async def _quietly(live: Local, code: str, clients: dict[str, Client], **chosen: Any) -> None:
    """Everyone who must act in this step submits the quiet default (or ``chosen``)."""
    game = live.game(code)
    for seat in sorted(game.waiting_for):
        name = game.players[seat]
        wire = chosen.get(name) or game.default_action(name).to_wire()
        wire.pop("auto", None)
        answer = await clients[name].request({"type": "act", "action": wire})
        assert answer["type"] == "ack", answer


def test_timers_take_the_defaults_and_the_game_goes_on(db_url: str) -> None:
    durations = {step.value: 0.2 for step in Step}
    settings = {"durations": durations, "ruleset": {"max_years": 1}, "bot_delay": [0, 0]}
    settings["auto_stand_in"] = False  # the timers alone (no bot plays for the absent)

    async def scenario(live: Local) -> None:
        code, host_token, _ = make_room(live, table(9), settings=settings)
        watcher = await open_client(live, code, spectate=True)
        start(live, code, host_token)
        while watcher.state is None or watcher.state["status"] != "finished":
            await watcher.receive(timeout=10)
        await _close(watcher)
        game = live.game(code)
        assert game.outcome is not None and game.outcome.reason == "safety_stop"
        assert game.actions and all(action.auto for action in game.actions)

    with in_process(db_url) as live:
        asyncio.run(scenario(live))


def test_the_host_pauses_extends_and_ends_a_step(db_url: str) -> None:
    settings = {"durations": {"hidden": 600}, "bot_delay": [0, 0]}

    async def scenario(live: Local) -> None:
        code, host_token, tokens = make_room(live, table(9), settings=settings)
        host = await open_client(live, code, host_token=host_token)
        ana = await open_client(live, code, token=tokens["Ana"])
        start(live, code, host_token)
        view = await host.until("view")
        deadline = view["timer"]["deadline"]
        assert view["timer"]["paused"] is False
        assert (await ana.request({"type": "timer", "op": "pause"}))["code"] == "not_host"
        assert (await host.request({"type": "timer", "op": "pause"}))["type"] == "ack"
        paused = await host.until("update")
        assert paused["timer"]["paused"] is True and paused["timer"]["remaining"] > 590
        await host.request({"type": "timer", "op": "extend", "seconds": 60})
        assert (await host.until("update"))["timer"]["remaining"] > 650
        await host.request({"type": "timer", "op": "resume"})
        resumed = await host.until("update")
        assert resumed["timer"]["deadline"] > deadline + 50
        await host.request({"type": "timer", "op": "end"})  # nobody decided: the defaults
        while host.state is None or host.state["step"] == "hidden":
            await host.receive()
        game = live.game(code)
        assert game.step is Step.STAND
        assert all(action.auto for action in game.actions)
        await _close(host, ana)

    with in_process(db_url) as live:
        asyncio.run(scenario(live))


def test_chat_channels_limits_and_history(db_url: str) -> None:
    async def scenario(live: Local) -> None:
        code, host_token, tokens = make_room(live, table(9), settings=FAST)
        clients = await _clients(live, code, tokens)
        spectator = await open_client(live, code, spectate=True)
        start(live, code, host_token)
        game = live.game(code)
        corrupt = [game.players[s] for s in game.corrupt_seats]
        good = [n for n in game.players if n not in corrupt]
        # the public table chat reaches everyone, spectators included
        ack = await clients[good[0]].request({"type": "chat", "channel": "public", "text": "hello"})
        assert ack["type"] == "ack"
        posted = await spectator.until("chat_posted")
        assert (posted["author"], posted["text"]) == (good[0], "hello")
        # the Corrupt channel, at night, for the Corrupt only
        ack = await clients[corrupt[0]].request(
            {"type": "chat", "channel": "corrupt", "text": "steal"}
        )
        assert ack["type"] == "ack"
        seen = [await clients[corrupt[1]].until("chat_posted") for _ in range(2)]
        assert [(m["channel"], m["text"]) for m in seen] == [
            ("public", "hello"),
            ("corrupt", "steal"),
        ]
        refused = await clients[good[1]].request(
            {"type": "chat", "channel": "corrupt", "text": "hi"}
        )
        assert refused["code"] == "not_allowed"
        # spectators read, never post; text is limited in size
        refused = await spectator.request({"type": "chat", "channel": "public", "text": "boo"})
        assert refused["code"] == "not_allowed"
        huge = await clients[good[0]].request(
            {"type": "chat", "channel": "public", "text": "x" * 501}
        )
        assert huge["code"] == "malformed"
        # a rate limit per connection
        answers = [
            await clients[good[2]].request({"type": "chat", "channel": "public", "text": f"{i}"})
            for i in range(7)
        ]
        assert [a["type"] for a in answers].count("ack") == 5
        assert answers[-1]["code"] == "rate_limited"
        # after the night the Corrupt channel closes
        await _quietly(live, code, clients)
        refused = await clients[corrupt[0]].request(
            {"type": "chat", "channel": "corrupt", "text": "x"}
        )
        assert refused["code"] == "not_now"
        # a reconnecting player gets the chat it may read, and no more
        await clients[good[3]].ws.close()
        again = await open_client(live, code, token=tokens[good[3]])
        await again.until("view")
        history = [await again.until("chat_posted") for _ in range(6)]
        assert {m["channel"] for m in history} == {"public"}
        await _close(*clients.values(), spectator, again)

    with in_process(db_url) as live:
        asyncio.run(scenario(live))


def test_a_coa_silenced_by_suhol_cannot_post_or_claim(db_url: str) -> None:
    async def scenario(live: Local) -> None:
        code, host_token, tokens = make_room(live, table(9), settings=FAST)
        clients = await _clients(live, code, tokens)
        host = await open_client(live, code, host_token=host_token)
        start(live, code, host_token)
        game = live.game(code)
        corrupt = [game.players[s] for s in game.corrupt_seats]
        coa = game.players[game.roles.index(Role.COA)]
        others = [n for n in game.players if n not in corrupt]
        # Year 1: a Corrupt President runs a large project with a teammate: a kickback
        await _quietly(live, code, clients)
        stand = {
            n: {"action": "stand", "player": n, "stand": n == corrupt[0]} for n in game.players
        }
        await _quietly(live, code, clients, **stand)
        vote = {n: {"action": "elect", "player": n, "candidate": corrupt[0]} for n in game.players}
        await _quietly(live, code, clients, **vote)
        large = game.offered[1] if game.offered else ""
        await clients[corrupt[0]].request(
            {
                "type": "act",
                "action": {"action": "pick_project", "player": corrupt[0], "card": large},
            }
        )
        members = [*corrupt, *others][: game.committee_size]
        await clients[corrupt[0]].request(
            {
                "type": "act",
                "action": {"action": "pick_committee", "player": corrupt[0], "members": members},
            }
        )
        support = {n: {"action": "committee_vote", "player": n, "support": True} for n in members}
        await _quietly(live, code, clients, **support)
        await host.request({"type": "act", "action": {"action": "end_discussion", "player": HOST}})
        await _quietly(live, code, clients)  # the jail vote: everyone abstains
        assert game.corruption_fund >= 3
        # Year 2: the Corrupt pay Suhol
        suhol = {
            n: {"action": "corrupt", "player": n, "nakaw": False, "suhol": True, "tokhang": None}
            for n in corrupt
        }
        await _quietly(live, code, clients, **suhol)
        assert game.coa_muted
        refused = await clients[coa].request(
            {"type": "chat", "channel": "public", "text": "kickback!"}
        )
        assert refused["code"] == "muted" and "R-35" in refused["message"]
        while game.step is not Step.DISCUSSION:
            await _quietly(live, code, clients)
        claim = {"action": "claim", "player": coa, "claim": "audit", "kickback": True}
        refused = await clients[coa].request({"type": "act", "action": claim})
        assert refused["code"] == "muted"
        speaker = next(n for n in others if n != coa)  # everyone else still talks
        claim = {"action": "claim", "player": speaker, "claim": "suspect", "target": corrupt[0]}
        assert (await clients[speaker].request({"type": "act", "action": claim}))["type"] == "ack"
        await _close(*clients.values(), host)

    with in_process(db_url) as live:
        asyncio.run(scenario(live))


def test_bot_seats_play_a_whole_game_with_people(db_url: str) -> None:
    async def scenario(live: Local) -> None:
        code, host_token, tokens = make_room(live, table(4), bots=5, settings=FAST)
        clients = await _clients(live, code, tokens)
        host = await open_client(live, code, host_token=host_token)
        start(live, code, host_token)
        rng = random.Random(7)
        while host.state is None or host.state["status"] != "finished":
            for client in clients.values():
                with contextlib.suppress(TimeoutError):
                    await client.receive(timeout=0.05)
                if client.state is not None and client.state["status"] != "finished":
                    action = choose(client.state, rng)
                    if action is not None:
                        await client.request({"type": "act", "action": action})
            with contextlib.suppress(TimeoutError):
                await host.receive(timeout=0.05)
            if host.state is not None and host.state["step"] == "discussion":
                end = {"action": "end_discussion", "player": HOST}
                await host.request({"type": "act", "action": end})
        game = live.game(code)
        acted = {a.player for a in game.actions}
        assert len(acted - set(tokens) - {HOST}) >= 4  # the bots took part
        await _close(*clients.values(), host)

    with in_process(db_url) as live:
        asyncio.run(scenario(live))


def test_a_human_moderator_sees_everything_and_runs_the_clock(db_url: str) -> None:
    async def scenario(live: Local) -> None:
        with live.http() as http:
            created = http.post(
                "/api/rooms", json={"settings": {"moderator": "human", "timers": True}}
            ).json()
        code, host_token, moderator = (
            created["code"],
            created["host_token"],
            created["moderator_token"],
        )
        assert moderator
        with live.http() as http:
            for name in table(9):
                http.post(f"/api/rooms/{code}/seats", json={"name": name}).raise_for_status()
        mod = await open_client(live, code, token=moderator)
        assert mod.received[0]["role"] == "moderator"
        start(live, code, host_token)
        view = await mod.until("view")
        secrets = view["state"]["secrets"]
        assert len(secrets["roles"]) == 9 and "corruption_fund" in secrets
        assert view["state"]["cue"]["key"] == "hidden"  # the script to read aloud
        assert (await mod.request({"type": "timer", "op": "pause"}))["type"] == "ack"
        await _close(mod)

    with in_process(db_url) as live:
        asyncio.run(scenario(live))


def test_spectators_only_where_the_room_allows_them(db_url: str) -> None:
    async def scenario(live: Local) -> None:
        code, _, _ = make_room(live, table(9), settings={**FAST, "spectators": False})
        from tests.server.test_live_games import _raw_hello

        refused = await _raw_hello(live, {"type": "hello", "room": code, "spectate": True})
        assert refused["code"] == "no_spectators"

    with in_process(db_url) as live:
        asyncio.run(scenario(live))


def test_a_failing_store_refuses_actions_and_recovers(db_url: str) -> None:
    async def scenario(live: Local) -> None:
        code, host_token, tokens = make_room(live, table(9), settings=FAST)
        clients = await _clients(live, code, tokens)
        start(live, code, host_token)
        game = live.game(code)
        name = game.players[0]
        wire = game.default_action(name).to_wire()
        wire.pop("auto")
        original = live.store.append_action

        def broken(*args: Any, **kwargs: Any) -> asyncio.Future[Any]:
            future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            future.set_exception(StoreError("disk full"))
            return future

        live.store.append_action = broken  # type: ignore[method-assign]
        answer = await clients[name].request({"type": "act", "action": wire})
        assert answer["code"] == "store_unavailable" and "not taken" in answer["message"]
        assert live.game(code).actions == []  # nothing was kept that could not be stored
        live.store.append_action = original  # type: ignore[method-assign]
        answer = await clients[name].request({"type": "act", "action": wire})
        assert answer["type"] == "ack" and answer["seq"] == 0
        # protocol 2: the ack rode in the update that shows the sender their own action
        carrier = clients[name].received[-1]
        assert carrier["type"] == "update" and carrier["acks"] == [answer]
        assert carrier["state"]["you"]["submitted"] is not None
        await _close(*clients.values())

    with in_process(db_url) as live:
        asyncio.run(scenario(live))


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("not json", "malformed"),
        ('{"type": "act", "id": 1, "action": {"action": "fly", "player": "Ana"}}', "malformed"),
        ('{"type": "dance", "id": 1}', "malformed"),
        ('{"type": "act", "id": 1}', "malformed"),
        ('{"type": "hello", "room": "X"}', "bad_hello"),
    ],
)
def test_bad_messages_get_clear_errors(db_url: str, message: str, code: str) -> None:
    async def scenario(live: Local) -> None:
        room, host_token, tokens = make_room(live, table(9), settings=FAST)
        ana = await open_client(live, room, token=tokens["Ana"])
        start(live, room, host_token)
        await ana.until("view")
        await ana.ws.send(message)
        answer = await ana.until("error")
        assert answer["code"] == code, answer
        await ana.send({"type": "ping", "id": 9})  # the connection is still fine
        assert (await ana.until("pong"))["id"] == 9
        await _close(ana)

    with in_process(db_url) as live:
        asyncio.run(scenario(live))


def test_vote_counts_reach_the_waiting_not_those_deciding(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """How many have voted (never who) is refreshed for the board and for players who have
    voted and wait for the others; a player still deciding gets it with their own vote."""
    monkeypatch.setattr("korapsyon.server.session.PROGRESS_SECONDS", 0.05)

    def cast(client: Client) -> int:
        assert client.state is not None
        return int(client.state["ballot"]["cast"])

    async def scenario(live: Local) -> None:
        code, host_token, tokens = make_room(live, table(9), settings=FAST)
        clients = await _clients(live, code, tokens)
        board = await open_client(live, code, spectate=True)
        start(live, code, host_token)
        await _quietly(live, code, clients)  # the Hidden Phase
        assert live.game(code).step is Step.STAND
        names = table(9)
        first, deciding = clients[names[0]], clients[names[2]]

        async def stand_down(name: str) -> None:
            action = {"action": "stand", "player": name, "stand": False}
            answer = await clients[name].request({"type": "act", "action": action})
            assert answer["type"] == "ack", answer

        await stand_down(names[0])
        await stand_down(names[1])
        while board.state is None or board.state["step"] != "stand" or cast(board) < 2:
            await board.until("update")
        while cast(first) < 2:
            await first.until("update")
        await deciding.send({"type": "ping", "id": 99})
        await deciding.until("pong")  # whatever was sent to it before has arrived
        assert deciding.state is not None and deciding.state["step"] == "stand"
        assert cast(deciding) == 0
        await stand_down(names[2])
        assert cast(deciding) == 3
        await _close(board, *clients.values())

    with in_process(db_url) as live:
        asyncio.run(scenario(live))
