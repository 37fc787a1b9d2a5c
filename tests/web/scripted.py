"""Seats played by the test itself over the live protocol (no browser): the people around a
browser phone, whose every decision the test chooses, so that the phone meets the step it is
about (the committee vote with the phone on the committee, a jail vote that jails someone)
without a whole table of browsers. Each seat is one WebSocket client (websockets' sync API),
as a real phone would be; the host's client ends each discussion (R-35)."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from korapsyon.rules.roles import Role
from korapsyon.server.frames import merged
from tests.server.live import Live, make_room, open_client, play, start
from tests.web.harness import (
    Tab,
    Tabs,
    api_room,
    cautious,
    decide,
    has_decision,
    roles_of,
    snapshot,
    wait_after_confirm,
    wait_for_game,
)

Policy = Callable[[str, dict[str, Any]], dict[str, Any] | None]
"""(seat name, its view) -> the action to take now (the game-record form), or None for the
default of :func:`quiet`."""


def quiet(name: str, view: dict[str, Any]) -> dict[str, Any]:
    """The quiet answer to whatever the view asks: nobody, abstain, no, not standing, the
    first members of a committee, no Nakaw or Suhol (always legal, R-72's defaults)."""
    choice = view["you"]["choices"][0]
    action: dict[str, Any] = {"action": choice["action"], "player": name}
    for field, values in choice["options"].items():
        if choice["pick"]:
            action[field] = values[: choice["pick"]]
        elif None in values:
            action[field] = None
        elif False in values:
            action[field] = False
        else:
            action[field] = values[0]
    return action


class Client:
    """One connection: a seat's (``token``) or the host's (``host_token``)."""

    def __init__(self, live: Live, code: str, **hello: Any) -> None:
        self.opened = connect(live.ws_url, max_size=2**22)
        self.ws: ClientConnection = self.opened.__enter__()  # (left in close)
        self.ws.send(json.dumps({"type": "hello", "room": code, **hello}))
        self.state: dict[str, Any] | None = None
        self.timeline: list[dict[str, Any]] = []  # (what this seat was told, in order)
        self.next_id = 1
        while json.loads(self.ws.recv(timeout=10))["type"] != "welcome":
            pass

    def pump(self) -> None:
        """Read every message that has arrived (the latest state is kept)."""
        while True:
            try:
                frame = self.ws.recv(timeout=0)
            except TimeoutError:
                return
            self._read(json.loads(frame))

    def pump_one(self) -> None:
        """Wait for the next message and read it."""
        self._read(json.loads(self.ws.recv(timeout=10)))

    def _read(self, message: dict[str, Any]) -> dict[str, Any]:
        if message["type"] == "view":
            self.state = message["state"]
            self.timeline = list(message.get("timeline", []))
        elif message["type"] == "update":
            self.state = merged(self.state or {}, message["state"])  # (protocol 4: the changes)
            self.timeline += message.get("timeline", [])
        for ack in message.get("acks", []):
            self._read(ack)
        return message

    def act(self, action: dict[str, Any]) -> None:
        """Send one action and wait for its answer (an error fails the test)."""
        self._request({"type": "act", "action": action})

    def end_step(self) -> None:
        """The host's "end this step now" (R-72: whoever has not decided gets the default)."""
        self._request({"type": "timer", "op": "end"})

    def _request(self, request: dict[str, Any]) -> None:
        ident = self.next_id
        self.next_id += 1
        self.ws.send(json.dumps(request | {"id": ident}))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            message = self._read(json.loads(self.ws.recv(timeout=10)))
            answers = [message, *message.get("acks", [])]
            for answer in answers:
                if answer.get("id") == ident and answer["type"] == "error":
                    raise AssertionError(f"{request} was refused: {answer}")
                if answer.get("id") == ident and answer["type"] in ("ack", "pong"):
                    return
        raise AssertionError(f"no answer to {request}")

    def close(self) -> None:
        self.opened.__exit__(None, None, None)


class Seats:
    """The test's seats of room ``code`` (name -> token) and its host."""

    def __init__(self, live: Live, code: str, host_token: str, tokens: dict[str, str]) -> None:
        self.live = live
        self.code = code
        self.host = Client(live, code, host_token=host_token)
        self.seats = {name: Client(live, code, token=token) for name, token in tokens.items()}

    def step(self) -> tuple[int, str | None]:
        game = self.live.game(self.code)
        return game.year, None if game.step is None else game.step.value

    def play(self, policy: Policy | None = None, *, end_discussion: bool = True) -> bool:
        """Every seat of the test that is asked something now answers it (``policy``, or
        :func:`quiet`), and the host ends an open discussion: whether anything was done."""
        acted = False
        for name, client in self.seats.items():
            client.pump()
            view = client.state
            if not view or view["status"] == "finished":
                continue
            you = view["you"]
            if not (you["to_act"] and you["submitted"] is None and you["choices"]):
                continue
            action = (policy(name, view) if policy else None) or quiet(name, view)
            client.act(action)
            acted = True
        self.host.pump()
        if end_discussion and self.host.state and self.host.state["step"] == "discussion":
            self.host.act({"action": "end_discussion", "player": "@host"})
            acted = True
        return acted

    def until(
        self,
        done: Callable[[], bool],
        policy: Policy | None = None,
        *,
        phones: Iterable[Tab] = (),
        end_discussion: bool = True,
        timeout: float = 30,
    ) -> None:
        """Play (see :meth:`play`) until ``done()`` holds. The browser ``phones`` take the
        quiet choice (:func:`~tests.web.harness.cautious`) of each decision their page
        offers, through the page; other browser seats decide by themselves, or not at all."""
        deadline = time.monotonic() + timeout
        while not done():
            acted = self.play(policy, end_discussion=end_discussion)
            for tab in phones:
                if done():  # (the last decision may have been another phone's)
                    break
                snap = snapshot(tab)
                if has_decision(snap) and (snap.year, snap.step) not in tab.done:
                    picks = cautious(snap)
                    for spec in snap.fields:  # a committee: its first members
                        if spec["multi"]:
                            size = self.live.game(self.code).committee_size
                            picks[spec["field"]] = list(range(size))
                    decide(tab, snap, picks)
                    wait_after_confirm(tab, snap)
                    tab.done.add((snap.year, snap.step))
                    acted = True
            if not acted:
                if time.monotonic() > deadline:
                    raise AssertionError(f"the game did not get there: {self.step()}")
                time.sleep(0.02)  # polling the game, not a timing assertion

    def close(self) -> None:
        for client in [self.host, *self.seats.values()]:
            client.close()


def names_tokens(live: Live, code: str, names: Iterable[str]) -> dict[str, str]:
    """Seats taken over HTTP for ``names``: name -> token."""
    tokens = {}
    with live.http() as http:
        for name in names:
            ticket = http.post(f"/api/rooms/{code}/seats", json={"name": name})
            ticket.raise_for_status()
            tokens[ticket.json()["name"]] = ticket.json()["token"]
    return tokens


def dealt(live: Live, names: Iterable[str]) -> tuple[str, str, dict[str, str], dict[str, Role]]:
    """A room of ``names`` (seats taken over HTTP, the fast settings) whose game has begun:
    its code, the host's token, the seats' tokens and the roles dealt."""
    code, host_token = api_room(live)
    tokens = names_tokens(live, code, names)
    start(live, code, host_token)
    return code, host_token, tokens, roles_of(wait_for_game(live, code))


def open_phone(
    tabs: Tabs,
    code: str,
    name: str,
    token: str,
    *,
    lang: str = "en",
    size: tuple[int, int] = (360, 640),
) -> Tab:
    """A phone (``size``, in ``lang``) holding the seat ``name`` of room ``code``."""
    tab = tabs.open(name, storage={f"korapsyon:{code}": {"token": token, "name": name}})
    tab.context.add_init_script(f"localStorage.setItem('korapsyon:lang:play', {json.dumps(lang)});")
    tab.page.set_viewport_size({"width": size[0], "height": size[1]})
    tab.page.goto(f"/play?room={code}")
    return tab


def catalog(lang: str) -> dict[str, str]:
    """The client's catalog of ``lang`` (the words the page shows)."""
    path = Path(__file__).parents[2] / "src" / "korapsyon" / "web" / "i18n" / f"{lang}.json"
    words: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return words


def plain(text: str | None) -> str:
    """Text as read: without the isolates around names and numbers (FSI, PDI) and the word
    joiners that keep a term of Years ("1", en dash, "2") on one line."""
    return (text or "").translate({0x2068: None, 0x2069: None, 0x2060: None})


def played(live: Live, names: list[str]) -> tuple[str, str, dict[str, str]]:
    """A room of ``names`` whose seats play a whole game of random legal choices over
    WebSockets (on an event loop in a thread: Playwright's is this one's): (code, host
    token, name -> seat token)."""
    code, host_token, tokens = make_room(live, names)
    start(live, code, host_token)
    wait_for_game(live, code)

    async def game() -> None:
        seats = {name: await open_client(live, code, token=t) for name, t in tokens.items()}
        host = await open_client(live, code, host_token=host_token)
        try:
            await play(seats, host, random.Random(len(names)))
        finally:
            for client in [*seats.values(), host]:
                await client.ws.close()

    failed: list[BaseException] = []
    thread = threading.Thread(target=lambda: _record(failed, lambda: asyncio.run(game())))
    thread.start()
    thread.join(120)
    assert not thread.is_alive() and not failed, f"the game was not played: {failed}"
    return code, host_token, tokens


def _record(failed: list[BaseException], run: Any) -> None:
    try:
        run()
    except BaseException as exc:  # (handed to the test's thread)
        failed.append(exc)
