"""Non-interference on the wire, the content check: across random games played over a live
server, no frame any client receives holds a fact the rules hide from that client (R-06,
R-07, R-11, R-12, R-21..R-25, R-33..R-36, R-70).

Each game is dealt by the server (a fresh deal), its seats a mix of WebSocket clients that
play random legal actions (changing their night choice now and then, chatting on the table
and, when Corrupt, on the Corrupt channel) and heuristic bots; the board (the host, without
a seat) and a spectator watch. Some tables have long non-ASCII names, some a custom setup
with a large Corrupt team, some the Good Politicians' recognition variant. Every frame every
client received is then decoded and searched, knowing the true roles:

* other players' roles: only revealed ones (eliminated players, everyone at the end);
* night choices and secret ballots: no action of another player, except a fellow free
  Corrupt's night choice shown to the Corrupt while they decide (R-23);
* the Corruption Fund and the true Kaban: never (only their public targets and figure);
* who is still to act at night: nothing (no voters, no count in the Hidden Phase);
* private results and the Corrupt channel: only to the players they are addressed to;
* ``cover`` frames: nothing but spaces.

KORAPSYON_WIRE_GAMES sets how many games (default 4).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from collections import Counter
from typing import Any

from korapsyon.rules import Game, Role
from korapsyon.rules.views import night_by_night, player_view, public_view
from korapsyon.selfplay import table
from korapsyon.server.frames import merged
from korapsyon.server.session import GameSession
from tests.security.wire import BOARD, SPECTATOR, close_all, odd_names
from tests.server.inprocess import Local, in_process
from tests.server.live import (
    Client,
    add_bots,
    choose,
    close_discussions,
    make_room,
    open_client,
    run_until,
    start,
)

GAMES = int(os.environ.get("KORAPSYON_WIRE_GAMES", "4"))

# Private timeline entries, and the roles they may reach (R-21..R-25, R-34, R-35, R-07).
PRIVATE_KINDS: dict[str, set[Role] | None] = {
    "role_dealt": None,  # anyone: their own role
    "team_revealed": {Role.CORRUPT_POLITICIAN, Role.GOOD_POLITICIAN},
    "protection_set": {Role.LAWYER},
    "investigation_result": {Role.OMBUDSPERSON},
    "stolen": {Role.CORRUPT_POLITICIAN},
    "suhol_paid": {Role.CORRUPT_POLITICIAN},
    "tokhang_paid": {Role.CORRUPT_POLITICIAN},
    "not_paid": {Role.CORRUPT_POLITICIAN},
    "kickback": {Role.CORRUPT_POLITICIAN},
    "coa_muted": {Role.COA},
    "audit_delivered": {Role.COA},
    "auto_jail_cancelled": {Role.GOOD_POLITICIAN},
}
NEVER = ('"secrets"', '"pending"', '"waiting_for"', '"kaban":', '"protected"', '"decks"')


def _walk(value: Any, path: str = "") -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = [(path, value)]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for item in value:
            out += _walk(item, f"{path}[]")
    return out


class Checker:
    """Checks every frame of one client against what the rules let it know."""

    def __init__(self, game: Game, who: str) -> None:
        self.game = game
        self.who = who
        self.roles = dict(zip(game.players, game.roles, strict=True))
        self.role = self.roles.get(who)
        self.corrupt = self.role is Role.CORRUPT_POLITICIAN
        self.frames = 0
        self.known: dict[str, Any] = {}  # the client's state: views and updates applied

    def frame(self, raw: str) -> None:
        self.frames += 1
        message = json.loads(raw)
        state = message.get("state")
        if isinstance(state, dict):  # (an update: only what changed, protocol 4)
            self.known = state if message["type"] == "view" else merged(self.known, state)
        if isinstance(state, dict) and "reveal" in state:
            # at the end every card is turned face up: the night-by-night reveal, the
            # same for every client, tells the secret trackers and night choices by design
            # (tests/rules/test_reveal.py); nothing else may
            assert self.known["status"] == "finished", (self.who, raw[:300])
            assert state.pop("reveal") == night_by_night(self.game), self.who
            self.known = {key: value for key, value in self.known.items() if key != "reveal"}
            raw = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
        for word in NEVER:
            assert word not in raw, (self.who, word, raw[:300])
        if not self.corrupt:
            assert '"team_choices"' not in raw and '"channel":"corrupt"' not in raw, self.who
        kind = message["type"]
        if kind == "cover":
            assert set(message) == {"type", "pad"} and not message["pad"].strip(), raw[:80]
        elif kind in ("view", "update"):
            self.state(self.known, message["timeline"])
        elif kind == "chat_posted":
            assert message["channel"] == "public" or self.corrupt, (self.who, message)
        elif kind == "welcome":
            assert message["seat"] == (None if self.role is None else self.who)
        else:
            assert kind in ("lobby", "ack", "error", "pong"), kind

    def state(self, state: dict[str, Any], timeline: list[dict[str, Any]]) -> None:
        who, role = self.who, self.role
        walked = _walk(state)
        keys = {path.rsplit(".", 1)[-1] for path, _ in walked}
        assert not keys & {"secrets", "pending", "waiting_for", "kaban", "protected"}
        funds = [path for path, _ in walked if path.endswith(".corruption_fund")]
        assert funds == [".targets.corruption_fund"], funds  # never the Fund itself
        finished = state["status"] == "finished"
        for entry in state["players"]:  # roles only once revealed
            if entry["role"] is not None:
                assert finished or entry["status"] == "eliminated", (who, entry)
                assert entry["role"] == self.roles[entry["name"]].value, entry
        if state["step"] == "hidden":  # nothing on who is still deciding
            assert state["ballot"] == {"step": "hidden"}, state["ballot"]
        if role is None:
            assert state["viewer"] == {"kind": "public"} and "you" not in state
        else:
            assert state["viewer"] == {"kind": "player", "name": who}
            you = state["you"]
            assert you["role"] == role.value  # one's own role
            if not self.corrupt:
                assert "team_choices" not in you
            if "teammates" in you:
                mates = {self.roles[name] for name in you["teammates"]}
                assert mates <= {role} and role in PRIVATE_KINDS["team_revealed"]  # type: ignore[operator]
        for path, value in walked:  # R-21..R-24, R-33..R-36: nobody else's choice or ballot
            if isinstance(value, dict) and "action" in value and "player" in value:
                if value["player"] == who:
                    continue
                assert self.corrupt and path.startswith(".you.team_choices."), (who, path, value)
                assert value["action"] == "corrupt"
                assert self.roles[value["player"]] is Role.CORRUPT_POLITICIAN
        for entry in timeline:
            if entry.get("private"):
                allowed = PRIVATE_KINDS[entry["kind"]]
                assert role is not None and (allowed is None or role in allowed), (who, entry)
            assert "audience" not in entry


async def _play(
    game_no: int, live: Local, names: list[str], bots: int, settings: dict[str, Any]
) -> Counter[str]:
    """Play one game; check every client's frames; return what kinds of frames came."""
    code, host_token, tokens = make_room(live, names, settings=settings)
    add_bots(live, code, host_token, bots)
    clients = {n: await open_client(live, code, token=t) for n, t in tokens.items()}
    clients[BOARD] = await open_client(live, code, host_token=host_token)
    clients[SPECTATOR] = await open_client(live, code, spectate=True)
    start(live, code, host_token)
    rng = random.Random(game_no)
    done = asyncio.Event()
    server_game = live.game(code)

    async def player(name: str, client: Client) -> None:
        waiting = False
        corrupt = server_game.roles[server_game.seat(name)] is Role.CORRUPT_POLITICIAN
        greeted = False
        while not done.is_set():
            message = await client.receive(timeout=30)
            if message["type"] in ("ack", "error"):
                waiting = False
            state = client.state
            if state is None:
                continue
            if state["status"] == "finished":
                done.set()
                return
            if waiting:
                continue
            you = state["you"]
            if corrupt and not greeted and state["step"] == "hidden" and you["status"] == "active":
                greeted = waiting = True  # every Corrupt person speaks on the channel once
                text = f"{name}: Nakaw tayo?"
                await client.send_numbered({"type": "chat", "channel": "corrupt", "text": text})
                continue
            if state["step"] == "hidden" and you["submitted"] and rng.random() < 0.1:
                you = {**you, "submitted": None}  # change one's mind at night
            action = choose({**state, "you": you}, rng)
            if action is not None:
                await client.send_numbered({"type": "act", "action": action})
                waiting = True
            elif rng.random() < 0.05 and you["status"] == "active":
                channel = "corrupt" if corrupt and state["step"] == "hidden" else "public"
                text = f"{name}: {rng.choice(['Kumusta', 'Ako ay Citizen', '🗳️ <b>x</b>'])}"
                await client.send_numbered({"type": "chat", "channel": channel, "text": text})
                waiting = True

    async def watch(client: Client) -> None:
        while not done.is_set():
            await client.receive(timeout=30)
            if client.state is not None and client.state["status"] == "finished":
                return

    players = [player(n, c) for n, c in clients.items() if n in tokens]
    await run_until(
        done,
        [*players, close_discussions(clients[BOARD], done, timeout=30), watch(clients[SPECTATOR])],
    )
    for client in clients.values():  # what is still on its way
        while True:
            try:
                await client.receive(timeout=0.2)
            except TimeoutError:
                break
    await close_all(clients.values())
    game = live.game(code)
    assert game.is_over
    for who, client in clients.items():
        checker = Checker(game, who)
        for raw in client.frames:
            checker.frame(raw)
        # the check ran on the whole game: every step of every Year pushed this client at
        # least one frame (how many depends on the game's random deal, not a fixed figure)
        assert checker.frames >= game.year, (who, checker.frames, game.year)
        # what it was sent adds up to exactly its view
        expected = (
            player_view(game, who, words=False) if who in tokens else public_view(game, words=False)
        )
        assert client.state == {k: v for k, v in expected.items() if k != "timeline"}
        assert client.timeline == expected["timeline"]
    session = live.hub.rooms[code].session
    assert isinstance(session, GameSession) and session.overflows == 0
    kinds: Counter[str] = Counter()
    for client in clients.values():
        kinds.update(json.loads(raw)["type"] for raw in client.frames)
        kinds["corrupt_chat"] += sum('"channel":"corrupt"' in raw for raw in client.frames)
    return kinds


def _table(game_no: int, rng: random.Random) -> tuple[list[str], int, dict[str, Any]]:
    """(the people's names, how many bots, the room's settings) for game ``game_no``."""
    seats = rng.randint(9, 16)
    ruleset: dict[str, Any] = {"max_years": rng.choice([3, 4])}
    settings: dict[str, Any] = {"timers": False, "bot_delay": [0.0, 0.01], "ruleset": ruleset}
    if game_no % 4 == 1:  # a large Corrupt team, the Good Politicians recognising each other
        seats = rng.randint(9, 14)
        corrupt = seats // 2 - 1
        roles = ["corrupt_politician"] * corrupt + ["good_politician"] * 3
        roles += ["lawyer", "ombudsperson", "coa"]
        roles += ["citizen"] * (seats - len(roles))
        settings["roles"] = roles
        ruleset["good_politicians_recognise"] = True
    people = rng.randint(seats // 2, seats)
    names = odd_names(people, rng) if game_no % 2 else table(people)
    return names, seats - people, settings


def test_no_frame_holds_a_fact_hidden_from_its_client(tmp_path: object) -> None:
    db = f"sqlite:///{tmp_path}/content.sqlite3"

    async def scenario(live: Local) -> Counter[str]:
        kinds: Counter[str] = Counter()
        for game_no in range(GAMES):
            names, bots, settings = _table(game_no, random.Random(game_no))
            kinds += await _play(game_no, live, names, bots, settings)
        return kinds

    with in_process(db) as live:
        kinds = asyncio.run(scenario(live))
    # the games went through what the check is about: covers, the Corrupt channel
    assert kinds["cover"] > 0 and kinds["corrupt_chat"] > 0 and kinds["chat_posted"] > 0, kinds
