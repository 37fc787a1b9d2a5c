"""Players who drop (issue #18): a seat whose player is gone (no connection, or the timer's
default in two steps in a row) can be handed to a bot that plays from that seat's view
only, by the host or by itself when the room allows it; the seat is handed back the moment
its player's phone says hello again; the table is told both ways; a restart changes
nothing of it."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from korapsyon.bots import make_agent
from korapsyon.bots.agent import Agent, Prompt
from korapsyon.rules.actions import HOST, Action
from korapsyon.rules.events import BaseEvent, visible_to
from korapsyon.rules.roles import Role
from korapsyon.rules.steps import Step
from korapsyon.server import botseats
from tests.server.inprocess import Local, in_process
from tests.server.live import Client, make_room, open_client, start

FAST = {"timers": False, "bot_delay": [0.0, 0.0]}


async def _until(check: Callable[[], bool], what: str, timeout: float = 15) -> None:
    """Wait until the server's state satisfies ``check`` (it is in this process)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.01)


async def _notice(client: Client, kind: str) -> dict[str, Any]:
    """The next notice of ``kind`` the client is sent (the ``notice`` channel)."""
    while True:
        message = await client.until("chat_posted")
        if message["channel"] == "notice":
            notice: dict[str, Any] = json.loads(message["text"])
            if notice["kind"] == kind:
                assert message["author"] == "@server"
                return notice


async def _seat(client: Client, name: str, **wanted: Any) -> dict[str, Any]:
    """The seat ``name`` as the client's latest lobby message shows it, once it says so
    (waiting for the next lobby messages until one does)."""

    def found(message: dict[str, Any]) -> dict[str, Any] | None:
        seat: dict[str, Any] = next(s for s in message["room"]["seats"] if s["name"] == name)
        return seat if all(seat[key] == value for key, value in wanted.items()) else None

    lobbies = [m for m in client.received if m["type"] == "lobby"]
    seat = found(lobbies[-1]) if lobbies else None
    while seat is None:
        seat = found(await client.until("lobby"))
    return seat


async def _quietly(live: Local, code: str, client: Client, name: str) -> None:
    """``name`` takes the quiet default for the step, as a person would (not ``auto``)."""
    wire = live.game(code).default_action(name).to_wire()
    wire.pop("auto", None)
    answer = await client.request({"type": "act", "action": wire})
    assert answer["type"] == "ack", answer


def test_the_host_hands_an_away_seat_to_a_bot_and_its_player_takes_it_back(
    db_url: str,
) -> None:
    settings = {**FAST, "auto_stand_in": False}
    code = ""
    tokens: dict[str, str] = {}

    async def before_restart(live: Local) -> None:
        nonlocal code
        code, host_token, seats = make_room(live, ["Ana", "Ben"], bots=7, settings=settings)
        tokens.update(seats, host=host_token)
        ana = await open_client(live, code, token=tokens["Ana"])
        ben = await open_client(live, code, token=tokens["Ben"])
        host = await open_client(live, code, host_token=host_token)
        start(live, code, host_token)
        await ben.ws.close()  # Ben's battery dies
        assert (await _seat(host, "Ben", away=True))["stand_in"] is None
        refusals = {
            "Ana": "not_away",  # here: nobody takes her seat
            "Bot Amihan": "bot_seat",
            "Nobody": "unknown_player",
        }
        for name, code_ in refusals.items():
            answer = await host.request({"type": "stand_in", "player": name})
            assert (answer["type"], answer.get("code")) == ("error", code_), answer
        answer = await ana.request({"type": "stand_in", "player": "Ben"})
        assert answer["code"] == "not_host"
        assert (await host.request({"type": "stand_in", "player": "Ben"}))["type"] == "ack"
        told = await _notice(ana, "stand_in")
        assert told == {"kind": "stand_in", "player": "Ben", "by": "host", "why": "away"}
        await _seat(host, "Ben", stand_in="heuristic")
        await _quietly(live, code, ana, "Ana")  # the night ends only if Ben's bot decides
        await _until(lambda: live.game(code).step is Step.STAND, "the night resolves")
        night = next(a for a in live.game(code).actions if a.player == "Ben")
        assert night.kind in ("protect", "investigate", "corrupt", "auto_jail", "ready")
        assert not night.auto  # decided, not defaulted
        row = live.store.load_room(code)
        assert row is not None and [s.stand_in for s in row.seats][:2] == [None, "heuristic"]
        for client in (ana, host):
            await client.ws.close()

    async def after_restart(live: Local) -> None:
        room = live.hub.rooms[code]
        assert room.session is not None and room.session.bots["Ben"].stand_in
        assert room.seats[1].stand_in == "heuristic"
        game = live.game(code)
        await _until(
            lambda: any(a.player == "Ben" and a.kind == "stand" for a in game.actions),
            "Ben's bot stands (or not) after the restart",
        )

    async def back(live: Local) -> None:
        ana = await open_client(live, code, token=tokens["Ana"])
        host = await open_client(live, code, host_token=tokens["host"])
        ben = await open_client(live, code, token=tokens["Ben"])  # Ben's phone is back
        told = await _notice(host, "stand_in_ended")
        assert told == {"kind": "stand_in_ended", "player": "Ben", "why": "returned"}
        await _seat(host, "Ben", stand_in=None, away=False)
        session = live.hub.rooms[code].session
        assert session is not None and "Ben" not in session.bots
        game = live.game(code)
        ben_seat = game.seat("Ben")
        await _quietly(live, code, ana, "Ana")  # the stand: now the election
        await _until(lambda: game.step is Step.ELECT, "the election")
        await _quietly(live, code, ana, "Ana")
        await _until(lambda: game.waiting_for == {ben_seat}, "only Ben is waited for")
        await _quietly(live, code, ben, "Ben")  # Ben votes himself
        await _until(lambda: game.step is not Step.ELECT, "the election ends")
        row = live.store.load_room(code)
        assert row is not None and row.seats[1].stand_in is None
        for client in (ana, ben, host):
            await client.ws.close()

    with in_process(db_url) as live:
        asyncio.run(before_restart(live))
    with in_process(db_url) as live:  # a restart: the bot goes on playing Ben's seat
        asyncio.run(after_restart(live))
        asyncio.run(back(live))


def test_a_bot_stands_in_by_itself_for_a_phone_gone_a_while(db_url: str) -> None:
    settings = {**FAST, "away_seconds": 0.2}  # auto_stand_in: on by default

    async def scenario(live: Local) -> None:
        code, host_token, tokens = make_room(live, ["Ana", "Ben"], bots=7, settings=settings)
        ana = await open_client(live, code, token=tokens["Ana"])
        ben = await open_client(live, code, token=tokens["Ben"])
        start(live, code, host_token)
        await _quietly(live, code, ana, "Ana")
        await ben.ws.close()
        told = await _notice(ana, "stand_in")
        assert told == {"kind": "stand_in", "player": "Ben", "by": "auto", "why": "away"}
        await _until(lambda: live.game(code).step is Step.STAND, "Ben's bot decides the night")
        ben = await open_client(live, code, token=tokens["Ben"])
        assert (await _notice(ana, "stand_in_ended"))["why"] == "returned"
        for client in (ana, ben):
            await client.ws.close()

    with in_process(db_url) as live:
        asyncio.run(scenario(live))


def test_a_bot_stands_in_by_itself_for_a_phone_that_never_came(db_url: str) -> None:
    """Ben's phone is not there when the game starts (a rematch's seat he never opened):
    he is away from the start, and a bot plays for him once he has been gone a while."""
    settings = {**FAST, "away_seconds": 0.2}

    async def scenario(live: Local) -> None:
        code, host_token, tokens = make_room(live, ["Ana", "Ben"], bots=7, settings=settings)
        ana = await open_client(live, code, token=tokens["Ana"])
        start(live, code, host_token)
        told = await _notice(ana, "stand_in")
        assert told == {"kind": "stand_in", "player": "Ben", "by": "auto", "why": "away"}
        await ana.ws.close()

    with in_process(db_url) as live:
        asyncio.run(scenario(live))


def test_a_bot_stands_in_by_itself_after_two_timeouts_in_a_row(db_url: str) -> None:
    """Ben never comes: the timer gives his seat the default at night and at the stand
    (R-72); then a bot plays for him (the election is his bot's, not a default)."""
    durations = {step.value: 0.3 for step in Step}
    settings = {"durations": durations, "bot_delay": [0.0, 0.0]}

    async def scenario(live: Local) -> None:
        code, host_token, _ = make_room(live, ["Ben"], bots=8, settings=settings)
        watcher = await open_client(live, code, spectate=True)
        start(live, code, host_token)
        told = await _notice(watcher, "stand_in")
        assert told == {"kind": "stand_in", "player": "Ben", "by": "auto", "why": "timeouts"}
        game = live.game(code)
        ben = [a for a in game.actions if a.player == "Ben"]
        assert [a.auto for a in ben[:2]] == [True, True]  # the night, the stand
        await _until(
            lambda: any(a.player == "Ben" and not a.auto for a in game.actions),
            "Ben's bot decides",
        )
        await watcher.ws.close()

    with in_process(db_url) as live:
        asyncio.run(scenario(live))


class _Recorder:
    """An agent that records what it is given, then lets the real one play."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.events: list[BaseEvent] = []
        self.prompts: list[Prompt] = []

    def observe(self, events: Sequence[BaseEvent]) -> None:
        self.events += events
        self.agent.observe(events)

    def act(self, prompt: Prompt) -> Action | None:
        self.prompts.append(prompt)
        return self.agent.act(prompt)


def test_a_stand_in_sees_only_its_seat_s_view_and_never_talks(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot-does-not-cheat guarantee holds for a stand-in: it is given exactly the
    events its seat may see (events.visible_to), from the start of the game, in order;
    it is prompted with its seat's choices only, never with claims (it does not speak in
    its player's name)."""
    agents: dict[int, _Recorder] = {}

    def recording(kind: str, seed: int | str, board: Any = None) -> Agent:
        recorder = _Recorder(make_agent(kind, seed, board))
        agents[int(str(seed).split("/")[1])] = recorder
        return recorder

    monkeypatch.setattr(botseats, "make_agent", recording)
    settings = {**FAST, "auto_stand_in": False, "ruleset": {"max_years": 2}}

    async def scenario(live: Local) -> None:
        code, host_token, _ = make_room(live, ["Ben"], bots=8, settings=settings)
        host = await open_client(live, code, host_token=host_token)
        start(live, code, host_token)
        game = live.game(code)
        answer = await host.request({"type": "stand_in", "player": "Ben"})  # never came
        assert answer["type"] == "ack", answer
        while host.state is None or host.state["status"] != "finished":
            await host.receive(timeout=30)
            if host.state is not None and host.state["step"] == "discussion":
                end = {"action": "end_discussion", "player": HOST}
                await host.request({"type": "act", "action": end})
        seat = game.seat("Ben")
        corrupt = game.roles[seat] is Role.CORRUPT_POLITICIAN
        recorder = agents[seat]
        mine = [e for e in game.events if visible_to(e, seat, corrupt)]
        assert recorder.events == mine  # its seat's events, every one, in order: no other
        assert recorder.prompts and all(p.player == "Ben" for p in recorder.prompts)
        assert all(p.claims == [] for p in recorder.prompts)
        assert not any(a.player == "Ben" and a.kind == "claim" for a in game.actions)
        await host.ws.close()

    with in_process(db_url) as live:
        asyncio.run(scenario(live))
