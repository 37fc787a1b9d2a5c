"""Bot seats and stand-ins: the bots that play a room's game through the session, exactly
as clients do (:meth:`Play.act`).

A bot seat is a bot's from the lobby on. A stand-in is a bot that plays a person's seat
while they are away (docs/RULINGS.md): handed over by the host or the moderator, or by
itself (``auto_stand_in``) once a seat's phone has been gone ``away_seconds`` or its seat
got the timer's default twice in a row (R-72); it hands the seat back the moment its
player is here again, and never talks in its player's name. Every bot is given the events
its seat may see, and nothing else.

A ``search`` bot thinks for about a tenth of a second or more a decision (docs/BOTS.md), so
it thinks in a thread, off the event loop: it is handed its prompt whole (the choices and
the view as they are when it is asked), it keeps its own public board (the other bots'
shared one changes meanwhile), it is given no events while it thinks (they wait for it),
and what it decides is dropped if the step moved on meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import weakref
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from ..bots import Board, make_agent
from ..bots.agent import Agent, Prompt, prompt_for
from ..rules.actions import Action
from ..rules.errors import IllegalActionError
from ..rules.events import visible_to
from ..rules.game import Game
from ..rules.roles import CORRUPT_POLITICIAN
from ..rules.state import DISCUSSION
from ..store.base import StoreError
from .errors import Refusal
from .port import RoomPort, Seat

log = logging.getLogger("korapsyon.server")

AUTO_BOT = "heuristic"  # the kind of bot that stands in by itself
THINKING = frozenset({"search"})  # the kinds that think in a thread, off the event loop


class Play(Protocol):
    """The game session, as its bots see it."""

    room: RoomPort
    game: Game
    step_serial: int  # steps begun so far: a bot acts only in the step it was asked in
    loop: asyncio.AbstractEventLoop

    async def act(self, action: Action) -> int: ...

    async def notice(self, kind: str, **params: Any) -> None: ...

    def changed(self) -> None: ...

    def spawn(self, work: Coroutine[Any, Any, None]) -> None: ...


@dataclass
class Bot:
    agent: Agent
    seat: int
    corrupt: bool
    cursor: int = 0  # events of the game delivered so far
    busy: bool = False  # an act is scheduled or running
    thinks: bool = False  # it decides in a thread (:data:`THINKING`)
    thinking: bool = False  # it is deciding in its thread now: its events wait
    talked: int = -1  # the discussion (step serial) it last talked in
    stand_in: bool = False  # it plays a person's seat while they are away: it never talks
    failed: int = -1  # the step (serial) it last failed to decide in (logged once a step)


class BotSeats:
    """A game's bots (bot seats and stand-ins), and who is away."""

    def __init__(self, play: Play) -> None:
        # (a proxy: the bots are their session's, and a cycle would keep a dropped room in
        # memory until a full collection)
        self.play: Play = weakref.proxy(play)
        self.rng = random.Random()
        self.bots: dict[str, Bot] = {}
        self.board = Board()  # the bots' shared public knowledge
        for seat in play.room.seats:
            kind = seat.bot or seat.stand_in
            if kind is not None:
                self.add(seat.name, kind, stand_in=seat.bot is None)
        # who is away (docs/RULINGS.md): the timer's defaults each seat got in a row (R-72,
        # from the record), and when a seat's last connection closed (the event loop's clock)
        self.misses: dict[str, int] = {}
        for action in play.game.actions:
            self.misses[action.player] = self.misses.get(action.player, 0) + 1 if action.auto else 0
        self.left: dict[str, float] = {}
        self.away_checks: dict[str, asyncio.TimerHandle] = {}
        # a person's seat whose phone is not here as the game starts (a rematch's seat its
        # phone never opened, a restart) is away from now on, as if the phone had just left
        for seat in play.room.seats:
            if seat.bot is None and seat.stand_in is None and not self.connected(seat.name):
                self.seat_left(seat.name)

    def add(self, name: str, kind: str, *, stand_in: bool) -> None:
        """A bot for seat ``name``: it is given every event the seat may see, from the
        start of the game (:meth:`feed`), and nothing else."""
        game = self.play.game
        index = game.seat(name)
        thinks = kind in THINKING
        seed = f"{self.play.room.code}/{index}/{self.rng.random()}"
        agent = make_agent(kind, seed, None if thinks else self.board)
        corrupt = game.roles[index] is CORRUPT_POLITICIAN
        self.bots[name] = Bot(agent, index, corrupt, stand_in=stand_in, thinks=thinks)

    def rewind(self, events: int) -> None:
        """The game was rebuilt with ``events`` events: nothing beyond them was seen."""
        for bot in self.bots.values():
            bot.cursor = min(bot.cursor, events)

    def stop(self) -> None:
        for check in self.away_checks.values():
            check.cancel()
        self.away_checks.clear()
        self.bots.clear()

    # ------------------------------------------------------------ playing
    def feed(self) -> None:
        """Give every bot the events it may see since the last push, and ask those whose
        decision is awaited (or who may talk in the discussion) to act."""
        game = self.play.game
        events = game.events
        for name, bot in self.bots.items():
            if bot.thinking:
                continue  # (its events wait until it has decided)
            if bot.cursor < len(events):
                seat, corrupt = bot.seat, bot.corrupt
                visible = [e for e in events[bot.cursor :] if visible_to(e, seat, corrupt)]
                bot.cursor = len(events)
                if visible:
                    bot.agent.observe(visible)
            if bot.busy or game.is_over:
                continue
            if game.step is DISCUSSION:
                if bot.stand_in and not game.choices(name):
                    continue  # a stand-in decides (a Witness) but never talks for its player
                if bot.talked != self.play.step_serial and game.is_active(bot.seat):
                    bot.talked = self.play.step_serial
                    self._schedule(name, optional=True)
            elif bot.seat in game.waiting_for:
                self._schedule(name, optional=False)

    def _schedule(self, name: str, *, optional: bool) -> None:
        play = self.play
        bot = self.bots[name]
        bot.busy = True
        low, high = play.room.settings.bot_delay
        delay = self.rng.uniform(low, max(low, high))
        serial = play.step_serial

        async def run() -> None:
            try:
                await self._turn(bot, name, serial, optional=optional)
            except ReferenceError:
                return  # (the room was closed meanwhile)
            except StoreError:
                pass  # (the store has told the log; the next change asks the bot again)
            except Exception:  # (a refusal too: see _turn)
                await self._failed(bot, name, serial, optional=optional)
            finally:
                bot.busy = False
                with contextlib.suppress(ReferenceError):
                    play.changed()

        play.loop.call_later(delay, lambda: play.spawn(run()))

    async def _turn(self, bot: Bot, name: str, serial: int, *, optional: bool) -> None:
        """``bot`` decides, if it still has something to do in step ``serial``, and acts.
        A refusal is the bot's own bug (raised), but for a thinking bot's act when its
        choices changed while it thought (R-35: a Witness someone else invoked): on the
        loop nothing moves between the prompt and the act."""
        play = self.play
        game = play.game
        if game.is_over or play.step_serial != serial or self.bots.get(name) is not bot:
            return  # (a stand-in whose player came back meanwhile: nothing)
        if not optional and bot.seat not in game.waiting_for:
            return
        prompt = prompt_for(game, name, optional=optional)
        if bot.stand_in:
            prompt.claims = []  # no claim in its player's name
        if not bot.thinks:
            action = bot.agent.act(prompt)
        else:
            action = await self._think(bot, prompt)
            if play.step_serial != serial or self.bots.get(name) is not bot:
                return  # (the step moved on while it thought)
        if action is None:
            return
        try:
            await play.act(action)
        except IllegalActionError:
            if not bot.thinks or play.game.choices(name) == prompt.choices:
                raise

    async def _failed(self, bot: Bot, name: str, serial: int, *, optional: bool) -> None:
        """A bot's own failure to decide: written to the log (once a step), and a decision
        it owed gets the timer's default at once (R-72), so a broken bot never holds up a
        room, even one without timers."""
        play = self.play
        if self.bots.get(name) is not bot:
            return  # (the room was stopped, or the seat's player came back, meanwhile)
        if bot.failed != serial:
            bot.failed = serial
            log.exception("room %s: the bot in seat %r could not decide", play.room.code, name)
        if optional or play.step_serial != serial or bot.seat not in play.game.waiting_for:
            return
        with contextlib.suppress(IllegalActionError, StoreError):
            await play.act(play.game.default_action(name))

    @staticmethod
    async def _think(bot: Bot, prompt: Prompt) -> Action | None:
        """``bot`` decides ``prompt`` in a thread: the prompt whole (its view worked out
        now, on the loop), and no events for it meanwhile (:meth:`feed` skips it)."""
        view = prompt.view()
        whole = dataclasses.replace(prompt, _view=lambda: view)
        bot.thinking = True
        try:
            return await asyncio.to_thread(bot.agent.act, whole)
        finally:
            bot.thinking = False

    # ------------------------------------------------------------ stand-ins
    def missed(self, name: str) -> int:
        """How many of its decisions in a row the seat ``name`` got the default for (R-72:
        the timer ran out, or the host ended the step early)."""
        return self.misses.get(name, 0)

    def connected(self, name: str) -> bool:
        return any(c.seat == name and not c.closed for c in self.play.room.connections)

    def _person(self, name: str) -> tuple[int, Seat]:
        game = self.play.game
        index = game.seat(name) if name in game.players else None
        if index is None:
            raise Refusal("unknown_player", f"there is no seat {name!r}")
        seat = self.play.room.seats[index]
        if seat.bot is not None:
            raise Refusal("bot_seat", f"{name} is a bot's seat")
        return index, seat

    async def set_stand_in(self, name: str, bot: str | None, by: str) -> None:
        """The host or the moderator (``by``) hands the seat ``name`` to a bot of kind
        ``bot`` while its player is away (no connection, or two defaults in a row), or
        with ``bot`` None takes the bot off (the seat waits for its player again). Raises
        Refusal, or StoreError."""
        game = self.play.game
        index, seat = self._person(name)
        if bot is None:
            if seat.stand_in is not None:
                self.misses[name] = 0  # the host's choice holds until two more are missed
                self._hand_back(name, by)
            return
        if seat.stand_in is not None:
            return  # (already: two screens tapped)
        if game.is_over:
            raise Refusal("game_over", "the game is over")
        if game.status[index] == "eliminated":
            raise Refusal("eliminated", f"{name} is out of the game: there is nothing to play")
        here = self.connected(name)
        if here and self.missed(name) < 2:
            raise Refusal("not_away", f"{name} is here: a bot plays only for a player who is away")
        await self._stand_in(name, bot, by, "timeouts" if here else "away")

    async def _stand_in(self, name: str, bot: str, by: str, why: str) -> None:
        """A bot plays for ``name`` (saved first: it goes on after a restart), and the
        table is told (a notice: who handed it over and why)."""
        play = self.play
        room = play.room
        index = play.game.seat(name)
        seat = room.seats[index]
        seat.stand_in = bot
        try:
            await asyncio.wrap_future(room.store.set_stand_in(room.code, index, bot))
        except StoreError:
            seat.stand_in = None
            raise StoreError("the store failed: no bot was handed the seat") from None
        if seat.stand_in != bot:
            return  # its player came back while it was being saved
        self.add(name, bot, stand_in=True)
        room.broadcast_lobby()
        await play.notice("stand_in", player=name, by=by, why=why)
        play.changed()  # the bot reads the seat's events and decides what is waiting

    def _hand_back(self, name: str, why: str) -> None:
        """The seat ``name`` is its player's again (``why``: ``returned``, or who took the
        bot off): the bot stops at once, then the store and the table are told."""
        play = self.play
        room = play.room
        index = play.game.seat(name)
        room.seats[index].stand_in = None
        bot = self.bots.get(name)
        if bot is not None and bot.stand_in:
            del self.bots[name]
        room.broadcast_lobby()

        async def tell() -> None:
            with contextlib.suppress(StoreError):  # (the next restart finds a bot: it goes
                await asyncio.wrap_future(  # on until the player says hello again)
                    room.store.set_stand_in(room.code, index, None)
                )
            await play.notice("stand_in_ended", player=name, why=why)

        play.spawn(tell())

    def seat_connected(self, name: str) -> None:
        """A connection of seat ``name`` said hello: its player is back."""
        self.left.pop(name, None)
        check = self.away_checks.pop(name, None)
        if check is not None:
            check.cancel()
        self.returned(name)

    def returned(self, name: str) -> None:
        """Seat ``name``'s player is here (their phone said hello, acted or posted): a bot
        standing in for them hands the seat back at once."""
        game = self.play.game
        index = game.seat(name)
        if self.play.room.seats[index].stand_in is not None and not game.is_over:
            self.misses[name] = 0
            self._hand_back(name, "returned")

    def seat_left(self, name: str) -> None:
        """The last connection of seat ``name`` closed. With ``auto_stand_in``, a bot
        plays for its player once they have been gone ``away_seconds`` (docs/RULINGS.md)."""
        play = self.play
        game, settings = play.game, play.room.settings
        if game.is_over or play.room.seats[game.seat(name)].bot is not None:
            return
        since = self.left[name] = play.loop.time()
        old = self.away_checks.pop(name, None)
        if old is not None:
            old.cancel()
        if settings.auto_stand_in:
            self.away_checks[name] = play.loop.call_later(
                settings.away_seconds, self._still_away, name, since
            )

    def _still_away(self, name: str, since: float) -> None:
        self.away_checks.pop(name, None)
        if self.left.get(name) == since:
            self._auto_stand_in(name, "away")

    def count_miss(self, action: Action) -> None:
        """Count the defaults the seat of ``action`` got in a row: with ``auto_stand_in``,
        a bot plays for a player whose seat got two (R-72, docs/RULINGS.md)."""
        name = action.player
        before = self.misses.get(name, 0)
        after = self.misses[name] = before + 1 if action.auto else 0
        room = self.play.room
        if (before >= 2) != (after >= 2):
            room.broadcast_lobby()  # away, or back
        if after == 2 and room.settings.auto_stand_in:
            self._auto_stand_in(name, "timeouts")

    def _auto_stand_in(self, name: str, why: str) -> None:
        game = self.play.game
        index = game.seat(name) if name in game.players else None
        if index is None or game.is_over or game.status[index] == "eliminated":
            return
        seat = self.play.room.seats[index]
        if seat.bot is None and seat.stand_in is None:
            seat.stand_in = AUTO_BOT  # (at once: no second hand-over while it is saved)
            self.play.spawn(_quietly(self._stand_in(name, AUTO_BOT, "auto", why)))


async def _quietly(work: Coroutine[Any, Any, None]) -> None:
    with contextlib.suppress(StoreError):  # (told in the log; the host may retry)
        await work
