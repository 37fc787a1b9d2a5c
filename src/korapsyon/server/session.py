"""A game in progress on the server: the one place where a game meets I/O.

Invariants:

1. Everything that changes the game runs on the event loop, one action at a time: check and
   apply it in memory, append it to the store, and acknowledge it only once it is committed.
2. Views are pushed only when every applied action is committed, so no client ever sees a
   state that a crash could take back. If a write fails, the game is rebuilt from its
   committed actions, the action is refused with a clear error, and nothing else changes.
3. Each connection is sent an ``update`` only when its own view changed (its state, its
   timeline or the timer), built from its own :class:`~korapsyon.rules.views.ViewTracker`
   and the public part computed once for everyone.
4. Bot seats and timers act through :meth:`GameSession.act`, exactly like clients.
5. Nothing about a phone's traffic tells its role (R-70): until the game ends, every frame
   of a push to the players' connections has one length, which depends only on public facts
   (:meth:`GameSession.frame_size`); and in the Hidden Phase, when any player's view changes,
   every player's connection gets a frame in that push (a pre-built ``cover`` when its own
   view did not change), whatever their roles: first to the connections whose actions the
   push shows (their upload was seen), then in the room's connection order.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from ..bots import Board, make_agent
from ..bots.agent import Agent, prompt_for
from ..record import Record, record_of, replay
from ..rules.actions import HOST, Action
from ..rules.events import StepStarted, visible_to
from ..rules.game import Game
from ..rules.roles import Role
from ..rules.steps import Step
from ..rules.views import MODERATOR_VIEWER, View, ViewTracker, votes_cast
from ..store.sql import ChatRow, StoreError, WriteLog
from .connection import Connection
from .protocol import (
    COVER,
    PAD_OVERHEAD,
    Ack,
    ChatPosted,
    encode,
    padded,
    view_frame,
    with_votes_cast,
)

if TYPE_CHECKING:
    from .room import Room, Seat

CHAT_HISTORY = 200
SERVER = "@server"  # the author of the server's notices (no seat's name starts with "@")
PROGRESS_SECONDS = 2.0  # how often a vote count alone is pushed to a room
PAD_BLOCK = 256  # a push whose frames outgrow frame_size pads them to a multiple of this
CLOCK_BYTES = 64  # the timer and ``now`` take at most this much beyond "null" and "0"


class StoreUnavailable(RuntimeError):
    """The store failed: new actions are refused until it works again."""


class Refusal(Exception):
    """A request the session refuses as it stands (a stable ``code``, and why)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class _Bot:
    agent: Agent
    seat: int
    corrupt: bool
    cursor: int = 0  # events of the game delivered so far
    busy: bool = False  # an act is scheduled or running
    talked: int = -1  # the discussion (step serial) it last talked in
    stand_in: bool = False  # it plays a person's seat while they are away: it never talks


class GameSession:
    """The running game of a room."""

    def __init__(self, room: Room, game: Game, setup: Record) -> None:
        self.room = room
        self.game = game
        self.setup = setup  # the record without actions: rebuilds replay from it
        self.committed = len(game.actions)
        self.log = WriteLog()
        self.loop = asyncio.get_event_loop()
        self.rng = random.Random()
        self.public = ViewTracker(game, None, words=False)
        self.push_scheduled = False
        self.shared = b""  # the shared part of the views last pushed (JSON)
        self.shared_core = b""  # the same without the vote count
        self.encoded_core: tuple[View | None, bytes] = (None, b"")  # public.shared_core(), JSON
        self.flush_scheduled = False
        self.flush_handle: asyncio.TimerHandle | None = None  # the vote count's refresh
        self.behind: list[Connection] = []  # sent all but the latest vote count
        self.tasks: set[asyncio.Task[None]] = set()  # timer defaults and bot moves under way
        self.waiting: list[tuple[Connection, int, int]] = []  # (conn, message id, seq) to ack
        self.finished_stored = game.is_over
        # timers
        self.step_serial = 0
        self.deadline: float | None = None
        self.paused_remaining: float | None = None
        self.timer_handle: asyncio.TimerHandle | None = None
        # chat
        self.chat: list[ChatRow] = []
        # bots: the bot seats, and the stand-ins playing for people who are away
        self.bots: dict[str, _Bot] = {}
        self.board = Board()  # the bots' shared public knowledge
        for seat in room.seats:
            kind = seat.bot or seat.stand_in
            if kind is not None:
                self._add_bot(seat.name, kind, stand_in=seat.bot is None)
        # who is away (docs/RULINGS.md): the timer's defaults each seat got in a row (R-72,
        # from the record), and when a seat's last connection closed (the event loop's clock)
        self.misses: dict[str, int] = {}
        for action in game.actions:
            self.misses[action.player] = self.misses.get(action.player, 0) + 1 if action.auto else 0
        self.left: dict[str, float] = {}
        self.away_checks: dict[str, asyncio.TimerHandle] = {}
        self._event_cursor = 0  # events looked at by _new_events
        self._new_events()
        # R-70 padding: the public timeline entries already counted, and the budget
        self.public_taken = len(self.public.timeline)
        self.budget = _budget(game)
        self.overflows = 0  # pushes whose frames outgrew frame_size (tests: never)
        self.covers: tuple[int, bytes] = (0, b"")  # the last cover frame built

    # ------------------------------------------------------------ acting
    async def act(self, action: Action) -> int:
        """Check, apply, store; return the action's index in the record once committed.
        Raises IllegalActionError (nothing changed) or StoreUnavailable."""
        game = self.game
        game.apply(action)
        seq = len(game.actions) - 1
        stored = self.room.store.append_action(
            self.room.code, seq, action.to_wire(), time.time(), self.log
        )
        try:
            await stored
        except StoreError as exc:
            self._rollback()
            raise StoreUnavailable(
                f"the game could not be saved ({exc}); the action was not taken"
            ) from None
        self.committed = max(self.committed, seq + 1)
        self._changed()
        self._count_miss(action)
        return seq

    def _rollback(self) -> None:
        """Rebuild the game from its committed actions (a write failed)."""
        if len(self.game.actions) == self.committed and self.log.failed < self.log.generation:
            return
        committed = msgspec.structs.replace(self.setup, actions=self.game.actions[: self.committed])
        game, _ = replay(committed)  # every one of them was accepted before
        self.game = game
        self.log.generation += 1
        self.public = ViewTracker(game, None, words=False)
        self.public.update()
        self.public_taken = len(self.public.timeline)
        self._event_cursor = min(self._event_cursor, len(game.events))
        for bot in self.bots.values():
            bot.cursor = min(bot.cursor, len(game.events))
        for conn in self.room.connections:
            if conn.tracker is not None:
                self.send_view(conn)

    # ------------------------------------------------------------ after each commit
    def _changed(self) -> None:
        if not self.push_scheduled:
            self.push_scheduled = True
            self.loop.call_soon(self._push)

    def acknowledge(self, conn: Connection, message_id: int, seq: int) -> None:
        """Ack ``conn``'s action ``seq`` once the views showing it are pushed: inside the
        update that shows it to ``conn`` (one frame fewer), or alone right after the push
        when ``conn``'s view did not change."""
        if self.push_scheduled or self.committed != len(self.game.actions):
            self.waiting.append((conn, message_id, seq))
        else:
            conn.send(Ack(message_id, seq, self._pushed()))

    def _pushed(self) -> int | None:
        """Trace mode (benchmarks): the last action whose views were pushed."""
        return self.committed - 1 if self.room.hub.trace else None

    def _push(self, *, flush: bool = False) -> None:
        """Send every client whose view changed its update. A change of nothing but the
        vote count (``ballot.cast``) reaches the others at most every PROGRESS_SECONDS,
        and then only those who are not deciding themselves (the board, spectators,
        the moderator and those who have already voted, who are waiting for the others):
        a player still deciding gets the count with the update of their own vote. Such a
        refresh (``flush``) visits only the connections left behind by the last push."""
        if flush:
            self.flush_scheduled = False
            self.flush_handle = None
        else:
            self.push_scheduled = False
        game = self.game
        if self.committed != len(game.actions):
            return  # a later action is still being written: its commit will push
        if game.is_over and not self.finished_stored:
            self.finished_stored = True
            self._cancel_timer()
            self.room.finished()
        start = self._event_cursor
        began, audiences = self._new_events()
        if began:
            self._start_timer()
        shared, core = self._shared_json()
        if shared != self.shared:  # (comparing the JSON costs less than the dicts)
            count_only = core == self.shared_core
            self.shared, self.shared_core = shared, core
        else:
            count_only = True
        count_only = count_only and not flush
        timer = self.timer_info()
        now = time.time()
        # trace (benchmarks): which action a push shows; a count-only flush shows none
        seq = self.committed - 1 if self.room.hub.trace and not flush else None
        deciding = game.waiting_for if flush else frozenset()
        acks: dict[Connection, list[Ack]] = {}
        if not flush:
            for conn, message_id, index in self.waiting:
                acks.setdefault(conn, []).append(Ack(message_id, index))
            self.waiting = []
        actors = set(acks)
        # R-70: until the game ends, the players' frames of a push have one length; in the
        # Hidden Phase, if any player's view changed, every player gets a frame
        pad = not game.is_over
        hidden = pad and game.step is Step.HIDDEN
        public_new = self.public.timeline[self.public_taken :]
        self.public_taken = len(self.public.timeline)
        out: list[tuple[Connection, bytes | None, bool]] = []  # (conn, frame, a player's?)
        changed_player = False
        size = 0
        visit = self.room.connections
        if flush and start == len(game.events):  # nothing new: the count, to those behind
            visit = self.behind
        self.behind = []
        for conn in visit:
            tracker = conn.tracker
            if tracker is None or conn.closed:
                continue
            player = pad and conn.role == "player"
            seen = tracker.update_from(start, audiences)
            if seen or conn.personal is None:
                conn.personal = encode(tracker.personal())
            stale = conn.shared != shared
            if stale and tracker.seat in deciding:
                stale = False  # a count alone: it comes with this player's own vote
            if not (
                seen
                or timer != conn.last_timer
                or (stale and not count_only)
                or (hidden and player and conn in acks)  # its ack rides in a padded frame
            ):
                if stale:
                    self.behind.append(conn)
                if hidden and player:
                    out.append((conn, None, True))  # a cover, if another player's changed
                continue  # nothing this client can see has changed (or only the count)
            conn.shared, conn.last_timer = shared, timer
            timeline = tracker.take_timeline()
            mine = acks.pop(conn, None) if acks else None
            frame = view_frame(b"update", shared, conn.personal, timeline, timer, now, seq, mine)
            out.append((conn, frame, player))
            changed_player = changed_player or player
        if changed_player:
            size = self.frame_size(b"update", shared, public_new, seq, began=began)
            size = self._fit(size, [f for _, f, p in out if p and f is not None])
        if actors:  # whoever's action this push shows first (the table saw them act), then
            out.sort(key=lambda item: item[0] not in actors)  # the room's order (stable)
        for conn, data, player in out:  # whatever changed for whom
            if data is None:
                if changed_player:
                    conn.send_raw(self._cover(size))
            elif player:
                conn.send_raw(padded(data, size))
            else:
                conn.send_raw(data)
        if self.behind and not self.flush_scheduled:
            self.flush_scheduled = True
            self.flush_handle = self.loop.call_later(
                PROGRESS_SECONDS, lambda: self._push(flush=True)
            )
        if flush:
            return
        pushed = self._pushed()
        for conn, alone in acks.items():  # their views did not change
            for ack in alone:
                conn.send(Ack(ack.id, ack.seq, pushed))
        self._feed_bots()

    def send_view(self, conn: Connection) -> None:
        """A connection's whole view (on joining, reconnecting, after a rebuild)."""
        conn.tracker = tracker = ViewTracker(self.game, conn.viewer, self.public, words=False)
        shared = conn.shared = self._shared_json()[0]
        tracker.update()
        conn.personal = encode(tracker.personal())
        timer = conn.last_timer = self.timer_info()
        timeline = tracker.take_timeline()
        now = time.time()
        frame = view_frame(b"view", shared, conn.personal, timeline, timer, now)
        if conn.role == "player" and not self.game.is_over:  # see frame_size
            size = self.frame_size(b"view", shared, self.public.timeline)
            frame = padded(frame, self._fit(size, [frame]))
        conn.send_raw(frame)

    def _shared_json(self) -> tuple[bytes, bytes]:
        """The JSON of the views' shared part (encoded once for the whole room), and the
        same without the vote count (to compare with the last push's). The part without
        the count changes only with public events and is encoded again only then; the
        count, which changes with every vote, is spliced into the ballot, its last field."""
        view_core = self.public.shared_core()
        if view_core is not self.encoded_core[0]:
            self.encoded_core = (view_core, encode(view_core))
        core = self.encoded_core[1]
        return with_votes_cast(core, votes_cast(self.game)), core

    # ------------------------------------------------------------ frame sizes
    def frame_size(
        self,
        kind: bytes,
        shared: bytes,
        public: list[dict[str, Any]],
        seq: int | None = None,
        *,
        began: bool = False,
    ) -> int:
        """The length of every player's frame of a push: the frame a public viewer would
        get (the shared view and ``public``, the new public timeline entries), plus room for
        the clock readings (so that the length does not vary with the time) and a budget
        for the largest personal part and private timeline entries that any role could
        have (:func:`_budget`): private entries only if a step ``began`` in the push, and
        in a ``view``, which carries the whole timeline, those of every Year so far. It
        depends only on public facts."""
        # the frame with an empty shared part ("{}"), then the shared part's real length
        empty = view_frame(kind, b"{}", b"{}", public, None, 0, seq)
        base = len(empty) - len(b"{}") + len(shared) + CLOCK_BYTES
        budget = self.budget
        size = base + budget.personal[self.game.step] + PAD_OVERHEAD
        if kind == b"view":
            return size + budget.start + budget.yearly * self.game.year
        return size + (budget.private if began else 0)

    def _fit(self, size: int, frames: list[bytes]) -> int:
        """``size``, or if a frame outgrew it (the budget is wrong: tests look for this),
        the longest frame's padded length rounded up to PAD_BLOCK, so that the push's
        frames still have one length."""
        longest = max(map(len, frames), default=0) + PAD_OVERHEAD
        if longest <= size:
            return size
        self.overflows += 1
        return -(-longest // PAD_BLOCK) * PAD_BLOCK

    def _cover(self, size: int) -> bytes:
        """A cover frame of ``size`` bytes (built once for each size)."""
        if self.covers[0] != size:
            self.covers = (size, padded(COVER, size))
        return self.covers[1]

    # ------------------------------------------------------------ timers
    def _new_events(self) -> tuple[bool, set[int]]:
        """The events since the last look: whether a step began (the steps are counted),
        and the events' audiences."""
        events = self.game.events
        fresh = events[self._event_cursor :]
        self._event_cursor = len(events)
        started = sum(1 for e in fresh if type(e) is StepStarted)
        self.step_serial += started
        return started > 0, {e.audience for e in fresh}

    def _start_timer(self, remaining: float | None = None) -> None:
        self._cancel_timer()
        game, settings = self.game, self.room.settings
        if game.is_over or game.step is None or not settings.timers:
            self.deadline = None
            return
        duration = settings.duration(game.step.value) if remaining is None else remaining
        self.paused_remaining = None
        self.deadline = time.time() + duration
        self.timer_handle = self.loop.call_later(duration, self._expire)
        self._store_timer()

    def stop(self) -> None:
        """Start nothing more: no timer, no vote-count refresh, no bot (a room set aside,
        or dropped)."""
        self._cancel_timer()
        if self.flush_handle is not None:
            self.flush_handle.cancel()
            self.flush_handle = None
            self.flush_scheduled = False
        for task in list(self.tasks):
            task.cancel()
        for check in self.away_checks.values():
            check.cancel()
        self.away_checks.clear()
        self.bots.clear()

    def _cancel_timer(self) -> None:
        if self.timer_handle is not None:
            self.timer_handle.cancel()
            self.timer_handle = None

    def _store_timer(self) -> None:
        self.room.store.set_timer(
            self.room.code,
            {
                "serial": self.step_serial,
                "deadline": self.deadline,
                "paused": self.paused_remaining,
            },
        )

    def resume_timer(self, stored: dict[str, Any] | None) -> None:
        """After a restart: the current step's timer carries on (at least 15 s left)."""
        if stored is None or stored.get("serial") != self.step_serial:
            self._start_timer()
            return
        if stored.get("paused") is not None:
            self._cancel_timer()
            self.deadline = None
            self.paused_remaining = float(stored["paused"])
            return
        left = float(stored.get("deadline") or 0) - time.time()
        self._start_timer(max(left, 15.0))

    def timer_info(self) -> dict[str, Any] | None:
        if self.game.is_over or not self.room.settings.timers:
            return None
        if self.paused_remaining is not None:
            return {"paused": True, "remaining": round(self.paused_remaining, 1)}
        if self.deadline is None:
            return None
        return {"paused": False, "deadline": round(self.deadline, 3)}

    def control_timer(self, op: str, seconds: int, by: str = "host") -> None:
        """Host or moderator (``by``): pause, resume, extend or end the current step. A step
        ended early is announced to the table as such (a notice: who ended which step,
        and outside the Hidden Phase how many had decided, R-70)."""
        if self.game.is_over:
            raise ValueError("the game is over")
        if op == "pause":
            if self.deadline is not None:
                self.paused_remaining = max(0.0, self.deadline - time.time())
                self.deadline = None
                self._cancel_timer()
        elif op == "resume":
            if self.paused_remaining is not None:
                self._start_timer(self.paused_remaining)
        elif op == "extend":
            if self.paused_remaining is not None:
                self.paused_remaining += seconds
            elif self.deadline is not None:
                self._start_timer(self.deadline - time.time() + seconds)
        else:  # end
            self._cancel_timer()
            self._spawn(self.notice("step_ended_early", by=by, **self._progress()))
            self.loop.call_soon(self._expire)
        self._store_timer()
        self._changed()

    def _progress(self) -> dict[str, Any]:
        """The current step, and outside the Hidden Phase (whose progress is secret, R-70)
        how many of those asked have answered."""
        game = self.game
        step = game.step
        assert step is not None
        if step in (Step.HIDDEN, Step.DISCUSSION):
            return {"step": step.value}
        return {"step": step.value, "cast": len(game.pending), "of": len(game.to_act)}

    def _expire(self) -> None:
        """R-72: whoever has not decided gets the default, recorded with "auto": true."""
        self.timer_handle = None
        game = self.game
        if game.is_over or game.step is None:
            return
        names = game.players
        if game.step is Step.DISCUSSION:
            waiting = [HOST]
        else:
            waiting = [names[s] for s in sorted(game.waiting_for)]
        serial = self.step_serial

        async def take_defaults() -> None:
            for name in waiting:
                if self.step_serial != serial or self.game.is_over:
                    return
                try:
                    await self.act(self.game.default_action(name))
                except Exception:
                    continue

        self._spawn(take_defaults())

    # ------------------------------------------------------------ bots
    def _feed_bots(self) -> None:
        game = self.game
        events = game.events
        for name, bot in self.bots.items():
            if bot.cursor < len(events):
                seat, corrupt = bot.seat, bot.corrupt
                visible = [e for e in events[bot.cursor :] if visible_to(e, seat, corrupt)]
                bot.cursor = len(events)
                if visible:
                    bot.agent.observe(visible)
            if bot.busy or game.is_over:
                continue
            if game.step is Step.DISCUSSION:
                if bot.stand_in and not game.choices(name):
                    continue  # a stand-in decides (a Witness) but never talks for its player
                if bot.talked != self.step_serial and game.is_active(bot.seat):
                    bot.talked = self.step_serial
                    self._schedule_bot(name, optional=True)
            elif bot.seat in game.waiting_for:
                self._schedule_bot(name, optional=False)

    def _schedule_bot(self, name: str, *, optional: bool) -> None:
        bot = self.bots[name]
        bot.busy = True
        low, high = self.room.settings.bot_delay
        delay = self.rng.uniform(low, max(low, high))
        serial = self.step_serial

        async def run() -> None:
            try:
                game = self.game
                if game.is_over or self.step_serial != serial or self.bots.get(name) is not bot:
                    return  # (a stand-in whose player came back meanwhile: nothing)
                if not optional and bot.seat not in game.waiting_for:
                    return
                prompt = prompt_for(game, name, optional=optional)
                if bot.stand_in:
                    prompt.claims = []  # no claim in its player's name
                action = bot.agent.act(prompt)
                if action is not None:
                    await self.act(action)
            except Exception:
                pass
            finally:
                bot.busy = False
                self._changed()

        self.loop.call_later(delay, lambda: self._spawn(run()))

    def _add_bot(self, name: str, kind: str, *, stand_in: bool) -> None:
        """A bot for seat ``name``: it is given every event the seat may see, from the
        start of the game (:meth:`_feed_bots`), and nothing else."""
        game = self.game
        index = game.seat(name)
        agent = make_agent(kind, f"{self.room.code}/{index}/{self.rng.random()}", self.board)
        corrupt = game.roles[index] is Role.CORRUPT_POLITICIAN
        self.bots[name] = _Bot(agent, index, corrupt, stand_in=stand_in)

    # ------------------------------------------------------------ stand-ins
    def missed(self, name: str) -> int:
        """How many of its decisions in a row the seat ``name`` got the default for (R-72:
        the timer ran out, or the host ended the step early)."""
        return self.misses.get(name, 0)

    def _person(self, name: str) -> tuple[int, Seat]:
        index = self.game.seat(name) if name in self.game.players else None
        if index is None:
            raise Refusal("unknown_player", f"there is no seat {name!r}")
        seat = self.room.seats[index]
        if seat.bot is not None:
            raise Refusal("bot_seat", f"{name} is a bot's seat")
        return index, seat

    def connected(self, name: str) -> bool:
        return any(c.seat == name and not c.closed for c in self.room.connections)

    async def set_stand_in(self, name: str, bot: str | None, by: str) -> None:
        """The host or the moderator (``by``) hands the seat ``name`` to a bot of kind
        ``bot`` while its player is away (no connection, or two defaults in a row), or
        with ``bot`` None takes the bot off (the seat waits for its player again). Raises
        Refusal, or StoreUnavailable."""
        game = self.game
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
        index = self.game.seat(name)
        seat = self.room.seats[index]
        seat.stand_in = bot
        try:
            await asyncio.wrap_future(self.room.store.set_stand_in(self.room.code, index, bot))
        except StoreError:
            seat.stand_in = None
            raise StoreUnavailable("the store failed: no bot was handed the seat") from None
        if seat.stand_in != bot:
            return  # its player came back while it was being saved
        self._add_bot(name, bot, stand_in=True)
        self.room.broadcast_lobby()
        await self.notice("stand_in", player=name, by=by, why=why)
        self._changed()  # the bot reads the seat's events and decides what is waiting

    def _hand_back(self, name: str, why: str) -> None:
        """The seat ``name`` is its player's again (``why``: ``returned``, or who took the
        bot off): the bot stops at once, then the store and the table are told."""
        index = self.game.seat(name)
        seat = self.room.seats[index]
        seat.stand_in = None
        bot = self.bots.get(name)
        if bot is not None and bot.stand_in:
            del self.bots[name]
        self.room.broadcast_lobby()

        async def tell() -> None:
            with contextlib.suppress(StoreError):  # (the next restart finds a bot: it goes
                await asyncio.wrap_future(  # on until the player says hello again)
                    self.room.store.set_stand_in(self.room.code, index, None)
                )
            await self.notice("stand_in_ended", player=name, why=why)

        self._spawn(tell())

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
        index = self.game.seat(name)
        if self.room.seats[index].stand_in is not None and not self.game.is_over:
            self.misses[name] = 0
            self._hand_back(name, "returned")

    def seat_left(self, name: str) -> None:
        """The last connection of seat ``name`` closed. With ``auto_stand_in``, a bot
        plays for its player once they have been gone ``away_seconds`` (docs/RULINGS.md)."""
        game, settings = self.game, self.room.settings
        if game.is_over or self.room.seats[game.seat(name)].bot is not None:
            return
        since = self.left[name] = self.loop.time()
        old = self.away_checks.pop(name, None)
        if old is not None:
            old.cancel()
        if settings.auto_stand_in:
            self.away_checks[name] = self.loop.call_later(
                settings.away_seconds, self._still_away, name, since
            )

    def _still_away(self, name: str, since: float) -> None:
        self.away_checks.pop(name, None)
        if self.left.get(name) == since:
            self._auto_stand_in(name, "away")

    def _count_miss(self, action: Action) -> None:
        """Count the defaults the seat of ``action`` got in a row: with ``auto_stand_in``,
        a bot plays for a player whose seat got two (R-72, docs/RULINGS.md)."""
        name = action.player
        before = self.misses.get(name, 0)
        after = self.misses[name] = before + 1 if action.auto else 0
        if (before >= 2) != (after >= 2):
            self.room.broadcast_lobby()  # away, or back
        if after == 2 and self.room.settings.auto_stand_in:
            self._auto_stand_in(name, "timeouts")

    def _auto_stand_in(self, name: str, why: str) -> None:
        game = self.game
        index = game.seat(name) if name in game.players else None
        if index is None or game.is_over or game.status[index] == "eliminated":
            return
        seat = self.room.seats[index]
        if seat.bot is None and seat.stand_in is None:
            seat.stand_in = "heuristic"  # (at once: no second hand-over while it is saved)
            self._spawn(self._quietly(self._stand_in(name, "heuristic", "auto", why)))

    @staticmethod
    async def _quietly(work: Coroutine[Any, Any, None]) -> None:
        with contextlib.suppress(StoreUnavailable):  # (told in the log; the host may retry)
            await work

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task, keeping a reference until it ends (the event loop keeps
        only a weak one)."""
        task = self.loop.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # ------------------------------------------------------------ chat
    def chat_refusal(self, conn: Connection, channel: str) -> tuple[str, str] | None:
        """Why ``conn`` may not post on ``channel`` now (code, message), or None."""
        game = self.game
        if conn.role == "spectator":
            return ("not_allowed", "spectators read the chat but do not post")
        if conn.seat is None:  # the host without a seat, or the moderator
            return None if channel == "public" else ("not_allowed", "the Corrupt channel is theirs")
        seat = game.seat(conn.seat)
        if not game.is_active(seat) and not game.is_over:
            return ("not_active", f"{conn.seat} is {game.status[seat]} and cannot speak")
        if channel == "corrupt":
            if game.roles[seat] is not Role.CORRUPT_POLITICIAN:
                return ("not_allowed", "only the Corrupt Politicians use this channel")
            if game.step is not Step.HIDDEN:
                return ("not_now", "the Corrupt channel is open during the Hidden Phase (R-23)")
            return None
        if seat == game.coa and game.coa_muted and game.step is not Step.HIDDEN:
            return ("muted", "R-35 muted: the COA was silenced by Suhol this Year")
        return None

    def chat_history(self, conn: Connection) -> list[bytes]:
        """The last CHAT_HISTORY messages as frames for a client that (re)connects: one
        frame a message, a cover of the same length for those it may not read (R-70: the
        same frames, in number and length, whatever its role; covers of the Corrupt
        channel's messages reached every connection live too)."""
        corrupt = self.reads(conn, "corrupt")
        return [
            body if row.channel == "public" or corrupt else cover
            for row in self.chat[-CHAT_HISTORY:]
            for body, cover in (_chat_frames(row),)
        ]

    def reads(self, conn: Connection, channel: str) -> bool:
        """Whether ``conn`` may read ``channel``: the table's and the server's notices,
        everyone; the Corrupt channel, the Corrupt Politicians (R-23) and the moderator."""
        if channel != "corrupt" or conn.role == "moderator":
            return True
        game = self.game
        return conn.seat is not None and game.roles[game.seat(conn.seat)] is Role.CORRUPT_POLITICIAN

    async def post(self, conn: Connection, channel: str, text: str) -> int:
        """Post ``text`` for ``conn``: its author is the seat's name, or for the host
        without a seat and the moderator ``@host`` / ``@moderator``, which no seat's name
        can be (names never start with "@"), so their messages cannot be forged."""
        author = conn.seat or (MODERATOR_VIEWER if conn.role == "moderator" else HOST)
        return await self._publish(channel, author, text)

    async def notice(self, kind: str, **params: Any) -> None:
        """Tell the whole table something the game's own events do not: who ended a step
        early, a seat handed to a bot... Stored and sent like a chat message on the
        ``notice`` channel (author ``@server``; its text the JSON of ``kind`` and
        ``params``, which a client words in its own language)."""
        text = encode({"kind": kind, **params}).decode()
        with contextlib.suppress(StoreUnavailable):  # (a notice lost is told in the log)
            await self._publish("notice", SERVER, text)

    async def _publish(self, channel: str, author: str, text: str) -> int:
        row = ChatRow(len(self.chat), channel, author, text, self.game.year, time.time())
        self.chat.append(row)
        try:
            await asyncio.wrap_future(self.room.store.append_chat(self.room.code, row))
        except StoreError:
            self.chat.remove(row)
            raise StoreUnavailable(
                "the chat could not be saved; the message was not posted"
            ) from None
        # a message on the Corrupt channel reaches every connection as one of the
        # same length would on the table's channel: the message to its readers, a cover to
        # everyone else (players, the board, spectators)
        body, cover = _chat_frames(row)
        for other in self.room.connections:
            other.send_raw(body if self.reads(other, channel) else cover)
        return row.seq

    def record(self) -> Record:
        return record_of(self.game)


CHAT_BLOCK = 256  # chat frames are padded to a multiple of this


def _chat_frames(row: ChatRow) -> tuple[bytes, bytes]:
    """A chat message's frame padded to a multiple of CHAT_BLOCK, whatever its channel,
    and a cover of the same length."""
    message = ChatPosted(row.seq, row.channel, row.author, row.text, row.year, row.at)  # type: ignore[arg-type]
    frame = encode(message)
    size = -(-(len(frame) + PAD_OVERHEAD) // CHAT_BLOCK) * CHAT_BLOCK
    return padded(frame, size), padded(COVER, size)


@dataclass(frozen=True)
class Budget:
    """R-70 padding budgets, in bytes, from public facts only: the names and how many
    Corrupt and Good Politicians the setup holds (:func:`_budget`)."""

    personal: dict[Step | None, int]  # the largest personal part of a view, in each step
    private: int  # the private timeline entries of a push that begins a step
    start: int  # the private entries of the deal (a view's)
    yearly: int  # the private entries of one Year (a view's)


def _budget(game: Game) -> Budget:
    """The personal part (``viewer`` and ``you``) holds the seat's name twice, its role's
    card texts, its choices (night targets, vote options: at most every name once; the
    claims of the discussion name everyone three times), the Corrupt's (or recognising Good
    Politicians') teammates and the Corrupt's live team choices (R-23), a Lawyer's last
    protected, this Year's private results, and the acks of its own actions (two fit).
    Private timeline entries come only with the resolution of a step (a step begins in the
    same push): a night's results, a kickback. Measured on random games, the largest
    personal part beyond what the names account for is about 470 bytes (810 in the
    discussion), a push's private entries about 380: the budgets below add a fifth.
    tests/security checks, on random games with long non-ASCII names and large Corrupt
    teams, that no frame ever outgrows them (``GameSession.overflows``)."""
    names = [len(encode(name)) for name in game.players]
    every = sum(names) + len(names)  # a JSON list of every name
    longest = max(names)
    corrupt = len(game.corrupt_seats)
    team = max(corrupt, len(game.good_politician_seats))
    acks = 2 * 65
    base = 560 + 4 * longest + team * (longest + 1) + acks
    personal: dict[Step | None, int] = dict.fromkeys(Step, base + every)
    personal[None] = base
    personal[Step.DISCUSSION] = base + 400 + 3 * every
    personal[Step.HIDDEN] = base + every + max(0, corrupt - 1) * (120 + 3 * longest)
    private = 460 + 4 * longest
    start = 300 + corrupt * (longest + 1)  # the dealt role, the team revealed
    return Budget(personal, private, start, private + 120)
