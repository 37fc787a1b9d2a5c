"""Replaying a scripted game over a live server and recording every frame each client
receives, grouped by action (tests' helper for the wire non-interference tests).

:func:`play_script` opens a room with the game's players, deals the given roles, decks and
seed (:func:`fixed_deal` stands in for the room's fresh random deal, test-side only), then
sends the script's actions one at a time, each by the client of its player (``@host``: the
board, which is the host without a seat); it begins once the room's presence (sent at most
once a second) has settled. After each action it waits for the action's ack,
then pings every client and reads until the pong: the pong leaves the room's one outbox
after every frame of the push that the action caused, so each client's frames fall into
exact per-action groups. The vote count's refresh, which the server sends on a clock
(every ``PROGRESS_SECONDS`` to those who are not deciding), is put off for the length of
the script (:func:`no_count_refresh`): when it fell would depend on the machine's speed,
not on the game, and what it carries is public (a count, the same in both games).

:func:`normalised` is the one place where frames are changed before they are compared: the
room's code becomes ``ROOM`` and the clock readings (``now``, ``at``, ``deadline``) become
0, because two games run at different moments in different rooms; and the spaces of a
``pad`` field are dropped, as the padding makes up for the clock readings' varying width.
Nothing else is touched. The padded frames' raw lengths are compared as they came
(:func:`padded_length`).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import secrets
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from korapsyon.rules import Game
from korapsyon.rules.actions import HOST, Action
from korapsyon.rules.ruleset import default_roles
from korapsyon.server import session as session_module
from tests.server.inprocess import Local
from tests.server.live import Client, make_room, open_client, start

BOARD = "@board"  # the host without a seat: the public view on the table's screen
SPECTATOR = "@spectator"
PUBLIC = (BOARD, SPECTATOR)


class _Deal:
    """Stands in for ``secrets.SystemRandom()`` in ``Room.start``: its shuffles put the
    roles, the small deck and the large deck in the given orders, and the seed is given."""

    def __init__(self, orders: list[list[Any]], seed: int) -> None:
        self.orders = orders
        self.seed = seed

    def shuffle(self, items: list[Any]) -> None:
        order = self.orders.pop(0)
        assert sorted(map(str, order)) == sorted(map(str, items)), "not a reordering"
        items[:] = order

    def randrange(self, stop: int) -> int:
        assert 0 <= self.seed < stop
        return self.seed


@contextmanager
def fixed_deal(game: Game) -> Iterator[None]:
    """While the block runs, a room that starts deals ``game``'s roles, decks and seed."""
    small, large = game.initial_decks
    orders: list[list[Any]] = [list(game.roles), list(small), list(large)]
    saved = secrets.SystemRandom
    secrets.SystemRandom = lambda: _Deal(orders, game.seed)  # type: ignore[assignment,misc]
    try:
        yield
    finally:
        secrets.SystemRandom = saved  # type: ignore[misc]


@contextmanager
def no_count_refresh() -> Iterator[None]:
    """While the block runs, the server's clocked vote-count refresh never comes (see the
    module): the counts reach the clients with the updates the actions cause."""
    saved = session_module.PROGRESS_SECONDS
    session_module.PROGRESS_SECONDS = 1e9
    try:
        yield
    finally:
        session_module.PROGRESS_SECONDS = saved


@dataclass
class Recording:
    """What each client (a player's name, BOARD or SPECTATOR) received: its frames as they
    came, one group at the start and one after each action of the script."""

    groups: dict[str, list[list[str]]] = field(default_factory=dict)
    code: str = ""

    def frames(self, who: str) -> list[str]:
        return [frame for group in self.groups[who] for frame in group]


_LETTERS = ("abcdefghijklmnopqrstuvwxyz", "ÑñÁáÉéÍíÓóÚú", "漢字仮名", "😀🎲🗳️🏛", "\"\\<>&'")


def odd_names(count: int, rng: random.Random) -> list[str]:
    """``count`` different seat names, most of them long (up to 24 characters), mixing
    accents, CJK, emoji and JSON's escaped characters: the padding budget's worst cases."""
    names: list[str] = []
    while len(names) < count:
        size = rng.choice([24, 24, 20, 3])
        name = "".join(rng.choice(rng.choice(_LETTERS)) for _ in range(size))
        name = "N" + name[1:]  # never "@..." and never blank
        if name.casefold() not in {n.casefold() for n in names}:
            names.append(name)
    return names


def room_settings(game: Game) -> dict[str, Any]:
    """A room's settings for ``game``'s ruleset and setup, timers off."""
    settings: dict[str, Any] = {
        "timers": False, "bot_delay": [0.0, 0.0], "ruleset": game.ruleset.to_wire(),
    }  # fmt: skip
    n = len(game.players)
    if not 9 <= n <= 16 or sorted(game.roles) != sorted(default_roles(n)):
        settings["roles"] = [role.value for role in game.roles]  # a custom setup
    return settings


async def play_script(live: Local, game: Game, actions: Sequence[Action]) -> Recording:
    """Deal ``game``'s setup in a new room, play ``actions`` there and record every frame."""
    with no_count_refresh():
        return await _play_script(live, game, actions)


async def _play_script(live: Local, game: Game, actions: Sequence[Action]) -> Recording:
    names = list(game.players)
    settings = room_settings(game)
    code, host_token, tokens = make_room(live, names, settings=settings)
    clients: dict[str, Client] = {}
    for name in names:
        clients[name] = await open_client(live, code, token=tokens[name])
    clients[BOARD] = await open_client(live, code, host_token=host_token)
    clients[SPECTATOR] = await open_client(live, code, spectate=True)
    recording = Recording({who: [] for who in clients}, code)
    marks = dict.fromkeys(clients, 0)

    async def settle() -> None:
        """Every client's frames up to a pong sent after everything before it."""
        await asyncio.gather(*(ping(c) for c in clients.values()))
        for who, client in clients.items():
            recording.groups[who].append(client.frames[marks[who] :])
            marks[who] = len(client.frames)

    # the room's presence (who is connected) goes out at most once a second: wait until the
    # last such lobby frame has gone, and past it, so that no frame of the game's groups
    # depends on when the clients connected
    room = live.hub.rooms[code]
    while room.lobby_pending is not None:
        await asyncio.sleep(0.01)
    await asyncio.gather(*(ping(c) for c in clients.values()))
    for client in clients.values():
        client.frames.clear()  # the welcome and what came before the deal
    with fixed_deal(game):
        start(live, code, host_token)
    await settle()
    for index, action in enumerate(actions):
        actor = clients[BOARD if action.player == HOST else action.player]
        answer = await actor.request({"type": "act", "action": action.to_wire()})
        assert answer["type"] == "ack", (index, action, answer)
        await settle()
    await close_all(clients.values())
    return recording


async def close_all(clients: Iterable[Client]) -> None:
    """Close every client at once (one by one, the last would get a lobby frame for each
    departure unread, and a full receive queue stalls its closing handshake)."""
    await asyncio.gather(*(client.ws.close() for client in clients))


async def ping(client: Client) -> None:
    ident = await client.send_numbered({"type": "ping"})
    while (await client.until("pong"))["id"] != ident:
        pass


_CLOCK = re.compile(rb'"(now|at|deadline)":[-0-9.e+]+')
_PAD = re.compile(rb',"pad":" *"')


def normalised(frame: str, code: str) -> str:
    """``frame`` with the room's code and the clock readings replaced (see the module)."""
    data = _PAD.sub(b"", _CLOCK.sub(rb'"\1":0', frame.encode())).decode()
    for before in (f'"{code}"', f"room={code}"):
        data = data.replace(before, before.replace(code, "ROOM"))
    return data


def padded_length(frame: str) -> int | None:
    """A padded frame's length in bytes as it came (None: not padded)."""
    data = frame.encode()
    return len(data) if _PAD.search(data) else None


def decoded(frame: str) -> dict[str, Any]:
    value = json.loads(frame)
    assert isinstance(value, dict)
    return value
