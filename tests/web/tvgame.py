"""A game for the board's TV tests and screenshots: sixteen seats with 24-character names
(the longest R-01 and MAX_NAME allow), played over WebSockets one step at a time from a
thread of their own, so that a test looks at the boards at every step while the game
waits for it (no timers: a step ends when its last decision is in).

The seats play to make things happen on the board: the Corrupt steal every night and a
Corrupt President builds Large projects with a Corrupt committee (kickbacks: Bad wins by
the Corruption Fund in a few Years, R-50); the Ombudsperson investigates a Corrupt and
testifies (R-35); the discussions carry public claims; jail votes jail, tie into a runoff
or jail nobody; Tokhang eliminates a Good Politician once the Fund can pay (R-25)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from websockets.exceptions import ConnectionClosed

from korapsyon.rules import Game
from korapsyon.rules.roles import Role
from tests.server.live import Client, Live, open_client, start
from tests.web.harness import api_room, api_seat, wait_for_game

T = TypeVar("T")

LONG_NAMES = [
    "Maria Clara Dela Cruz II",
    "Juan Miguel Bautista III",
    "Rosario Villanueva-Reyes",
    "Andres Bonifacio Santos ",
    "Teresa Magbanua Gonzaga ",
    "Emilio Aguinaldo Ramos Jr",
    "Gabriela Silang Mendoza ",
    "Jose Protasio Rizal Lim ",
    "Melchora Aquino Pascual ",
    "Apolinario Mabini Torres",
    "Gregoria de Jesus Ocampo",
    "Marcelo H. del Pilar Sy  ",
    "Josefa Llanes Escoda Tan",
    "Antonio Luna Novicio Uy ",
    "Corazon Cojuangco Aquino",
    "Benigno Simeon Aquino Jr",
]
NAMES = [f"{name.strip():<24}"[:24].strip() for name in LONG_NAMES]
"""Sixteen names of 23-24 characters (trailing spaces are trimmed by the server)."""

Claim = dict[str, Any]


class TvGame:
    """Sixteen seats over WebSockets and the host's connection, run on an event loop in a
    thread of their own; :meth:`advance` makes every decision the current step asks for
    (and closes a discussion) and returns once the game has moved on."""

    def __init__(self, live: Live, *, settings: dict[str, Any] | None = None) -> None:
        self.live = live
        settings = settings or {"timers": False, "bot_delay": [0.0, 0.0]}
        self.code, self.host_token = api_room(live, settings)
        self.tokens = {name: str(api_seat(live, self.code, name)["token"]) for name in NAMES}
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.clients: dict[str, Client] = {}
        self.host: Client | None = None
        self.changed: asyncio.Event | None = None
        self.readers: list[asyncio.Task[None]] = []
        self.errors: list[dict[str, Any]] = []  # refusals the seats were sent
        self.acked: dict[int, set[int]] = {}  # id(client) -> the ids of its acked messages
        self.claims: dict[int, list[Claim]] = {}  # Year -> claims made in its discussion
        self.game: Game | None = None
        self.roles: dict[str, Role] = {}

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 30) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def start(self) -> None:
        """Connect every seat and the host, then deal (R-02 for 16)."""
        self.run(self._connect())
        start(self.live, self.code, self.host_token)
        self.game = wait_for_game(self.live, self.code)
        self.roles = dict(zip(self.game.players, self.game.roles, strict=True))
        self.run(self._until(lambda: all(c.state is not None for c in self.everyone())))

    def everyone(self) -> list[Client]:
        return [*self.clients.values(), *([self.host] if self.host else [])]

    async def _connect(self) -> None:
        self.changed = asyncio.Event()
        for name, token in self.tokens.items():
            self.clients[name] = await open_client(self.live, self.code, token=token)
        self.host = await open_client(self.live, self.code, host_token=self.host_token)
        for client in [*self.clients.values(), self.host]:
            self.readers.append(asyncio.ensure_future(self._read(client)))

    async def _read(self, client: Client) -> None:
        assert self.changed is not None
        while True:
            try:
                message = await client.receive(timeout=3600)
            except ConnectionClosed:
                return
            if message["type"] == "error":
                self.errors.append(message)
            if message["type"] == "ack":
                self.acked.setdefault(id(client), set()).add(message["id"])
            self.changed.set()

    def close(self) -> None:
        async def stop() -> None:
            for task in self.readers:
                task.cancel()
            for client in [*self.clients.values(), *([self.host] if self.host else [])]:
                await client.ws.close()

        try:
            self.run(stop(), timeout=10)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=10)
            self.loop.close()

    # ------------------------------------------------------------ the game
    def state(self) -> dict[str, Any]:
        """The public view as the host's connection has it now."""
        assert self.host is not None and self.host.state is not None
        return self.host.state

    def where(self) -> tuple[int, str | None, str]:
        state = self.state()
        return state["year"], state["step"], state["status"]

    def advance(self, claims: Callable[[int], list[Claim]] | None = None) -> dict[str, Any]:
        """Every seat asked decides (``claims``: the discussion's claims first, by Year),
        the host closes a discussion; returns the public view once the step is another."""
        return self.run(self._advance(claims))

    async def _advance(self, claims: Callable[[int], list[Claim]] | None) -> dict[str, Any]:
        assert self.host is not None and self.changed is not None
        await self._until(lambda: self.host is not None and self.host.state is not None)
        here = self.where()
        year, step, _ = here
        if step == "discussion":
            for name, client in self.clients.items():  # the Ombudsperson testifies
                you = (client.state or {}).get("you") or {}
                if any(c["action"] == "witness" for c in you.get("choices", [])):
                    witness = {"action": "witness", "player": name}
                    await self._request(client, witness)
            for claim in (claims or self.default_claims)(year):
                player = claim["player"]
                await self._request(self.clients[player], {"action": "claim", **claim})
                self.claims.setdefault(year, []).append(claim)
        sent: set[str] = set()
        while self.where() == here:
            for name, client in self.clients.items():
                # only a seat whose own view is at this step: the host's may lag behind the
                # seats' (then a seat already past it would act in the next step twice)
                now = client.state or {}
                behind = (now.get("year"), now.get("step")) != (year, step)
                action = None if name in sent or behind else self.decide(name, client.state)
                if action is not None:
                    sent.add(name)
                    await client.send_numbered({"type": "act", "action": action})
            if step == "discussion" and "@host" not in sent:
                sent.add("@host")
                end = {"action": "end_discussion", "player": "@host"}
                await self.host.send_numbered({"type": "act", "action": end})
            self.changed.clear()
            if self.where() == here:
                await asyncio.wait_for(self.changed.wait(), 20)
        return self.state()

    async def _request(self, client: Client, action: dict[str, Any]) -> None:
        """Send an act and wait for its ack (the reader task receives it)."""
        ident = await client.send_numbered({"type": "act", "action": action})
        await self._until(lambda: ident in self.acked.get(id(client), set()))

    async def _until(self, ready: Callable[[], bool]) -> None:
        assert self.changed is not None
        while not ready():
            assert not self.errors, self.errors
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 20)

    def default_claims(self, year: int) -> list[Claim]:
        """Public talk of Year ``year``'s discussion: role claims, suspicions, trust."""
        actives = [p["name"] for p in self.state()["players"] if p["status"] == "active"]
        if len(actives) < 6:
            return []
        a, b, c, d, e, f = actives[(year - 1) % 3 :][:6] if len(actives) >= 9 else actives[:6]
        return [
            {"player": a, "claim": "role", "role": "ombudsperson"},
            {"player": b, "claim": "suspect", "target": c},
            {"player": d, "claim": "trust", "target": a},
            {"player": e, "claim": "audit", "kickback": True},
            {"player": f, "claim": "investigation", "target": b, "aligned": "bad"},
            {"player": b, "claim": "suspect", "target": f},  # b's latest: f
        ]

    def corrupt(self) -> list[str]:
        return [n for n, r in self.roles.items() if r is Role.CORRUPT_POLITICIAN]

    def decide(self, name: str, state: dict[str, Any] | None) -> dict[str, Any] | None:
        """This seat's action now, or None (nothing asked, or already answered)."""
        if state is None:
            return None
        you = state["you"]
        if not you["to_act"] or you["submitted"] is not None or not you["choices"]:
            return None
        choice = you["choices"][0]
        kind = choice["action"]
        options = choice["options"]
        year = state["year"]
        corrupt = self.corrupt()
        good = [n for n, r in self.roles.items() if r is Role.GOOD_POLITICIAN]
        act: dict[str, Any] = {"action": kind, "player": name}
        actives = [p["name"] for p in state["players"] if p["status"] == "active"]
        if kind == "protect":
            act["target"] = None
        elif kind == "investigate":  # a Corrupt, so the Witness is there in Year 1
            act["target"] = next((n for n in corrupt if n in options["target"]), None)
        elif kind == "corrupt":  # steal; Tokhang on a Good Politician once the Fund can pay
            assert self.game is not None
            free = len([n for n in corrupt if n in actives])
            pay = self.game.corruption_fund + free >= self.game.tokhang_cost
            victim = next((n for n in good if n in options["tokhang"]), None) if pay else None
            act.update(nakaw=True, suhol=False, tokhang=victim)
        elif kind in ("auto_jail",):
            act["target"] = None
        elif kind == "stand":
            act["stand"] = name in corrupt[1:2]
        elif kind in ("elect",):
            running = options["candidate"]
            act["candidate"] = next((n for n in running if n in corrupt), running[0])
        elif kind == "pick_project":
            act["card"] = max(options["card"], key=lambda c: c.startswith("L"))
        elif kind == "pick_committee":
            members = sorted(options["members"], key=lambda n: (n not in corrupt, n))
            act["members"] = members[: choice["pick"]]
        elif kind == "committee_vote":
            act["support"] = True
        elif kind in ("witness_vote", "forced_jail_vote"):
            act["jail"] = True
        elif kind in ("jail_vote", "jail_runoff"):
            runoff = state["step"] == "jail_runoff"
            act["target"] = self.jail_target(name, year, options["target"], runoff)
        elif kind == "ready":
            pass
        else:
            for field, values in options.items():
                act[field] = values[0]
        return act

    def jail_target(
        self, name: str, year: int, targets: list[str | None], runoff: bool
    ) -> str | None:
        """Year 1: a tie between two, then a runoff that jails one; Year 2: one jailed at
        once; later: everyone abstains (nobody is jailed)."""
        candidates = [t for t in targets if t is not None and t not in self.corrupt()]
        if year >= 3 or len(candidates) < 2:
            return None
        if year == 1:
            if runoff:  # everyone for the first
                return candidates[0]
            seat = NAMES.index(name)
            return candidates[seat % 2]
        return candidates[-1]
