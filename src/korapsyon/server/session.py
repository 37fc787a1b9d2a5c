"""A game in progress on the server: the one place where a game meets I/O.

Invariants:

1. Everything that changes the game runs on the event loop, one action at a time: check and
   apply it in memory, append it to the store, and acknowledge it only once it is committed.
2. Views are pushed only when every applied action is committed, so no client ever sees a
   state that a crash could take back. If a write fails, the game is rebuilt from its
   committed actions, the action is refused with a clear error, and nothing else changes.
3. Each connection is sent an ``update`` only when its own view changed (its state, its
   timeline or the timer), and then only what changed (protocol 4, :mod:`.frames`): built
   from its own :class:`~korapsyon.rules.views.ViewTracker` and the shared part's changes,
   computed once for everyone.
4. Bot seats and timers act through :meth:`GameSession.act`, exactly like clients.
5. Nothing about a phone's traffic tells its role (R-70): until the game ends, every frame
   of a push to the players' connections has one length, which depends only on public facts
   (:mod:`.padding`); and in the Hidden Phase, when any player's view changes, every
   player's connection gets a frame in that push (a pre-built ``cover`` when its own view
   did not change), whatever their roles: first to the connections whose actions the push
   shows (their upload was seen), then in the room's connection order.

Why one module of ~490 lines: committing, pushing and acknowledging are one ordering argument
(invariants 1-3), and a push (:class:`_Push`) reads the session's state as it is at that
moment; what could stand alone already does (:mod:`.frames`, :mod:`.padding`,
:mod:`.timer`, :mod:`.botseats`, :mod:`.chat`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Coroutine, Mapping
from typing import Any

import msgspec

from ..record import Record, record_of, replay
from ..rules.actions import HOST, Action
from ..rules.events import StepStarted
from ..rules.game import Game
from ..rules.state import DISCUSSION, HIDDEN
from ..rules.views import ViewTracker, votes_cast
from ..store.base import StoreError, WriteLog
from .botseats import Bot, BotSeats
from .chat import SERVER, Chat, talk
from .connection import Connection
from .errors import Refusal
from .frames import ANY_COUNT, EMPTY, SharedParts, changed_members, padded, view_frame
from .padding import Padding
from .port import RoomPort
from .protocol import Ack, encode
from .timer import StepTimer

PROGRESS_SECONDS = 2.0  # how often a vote count alone is pushed to a room


class GameSession:
    """The running game of a room: commit and rollback, push and ack. Its padding
    (:mod:`.padding`), timer (:mod:`.timer`), bots (:mod:`.botseats`) and chat
    (:mod:`.chat`) are parts of their own."""

    def __init__(self, room: RoomPort, game: Game, setup: Record) -> None:
        self.room = room
        self.game = game
        self.setup = setup  # the record without actions: rebuilds replay from it
        self.committed = len(game.actions)
        self.log = WriteLog()
        self.loop = asyncio.get_event_loop()
        self.public = ViewTracker(game, None, words=False)
        self.push_scheduled = False
        # the shared part of the views as of the last push (connections hold it as their
        # base for the next push's changes): the part without the vote count, and the count
        self.core: Mapping[str, Any] = self.public.shared_core()
        self.cast = votes_cast(game)
        self.flush_scheduled = False
        self.flush_handle: asyncio.TimerHandle | None = None  # the vote count's refresh
        self.behind: list[Connection] = []  # sent all but the latest vote count
        self.tasks: set[asyncio.Task[None]] = set()  # timer defaults and bot moves under way
        self.waiting: list[tuple[Connection, int, int]] = []  # (conn, message id, seq) to ack
        self.finished_stored = game.is_over
        self.step_serial = 0  # steps begun so far
        self.timer = StepTimer(self.loop, self._expire, self._store_timer)
        self.chat = Chat(room)
        self.botseats = BotSeats(self)
        self._event_cursor = 0  # events looked at by _new_events
        self._new_events()
        # R-70 padding: the public timeline entries already counted, and the budget
        self.public_taken = len(self.public.timeline)
        self.padding = Padding(game)

    @property
    def bots(self) -> dict[str, Bot]:
        """The bots playing seats now (bot seats and stand-ins), by seat name."""
        return self.botseats.bots

    @property
    def overflows(self) -> int:
        """Pushes whose frames outgrew the padding's budget (tests: never)."""
        return self.padding.overflows

    # ------------------------------------------------------------ acting
    async def act(self, action: Action) -> int:
        """Check, apply, store; return the action's index in the record once committed.
        Raises IllegalActionError (nothing changed) or StoreError."""
        game = self.game
        game.apply(action)
        seq = len(game.actions) - 1
        room = self.room
        stored = room.store.append_action(room.code, seq, action.to_wire(), time.time(), self.log)
        try:
            await stored
        except StoreError as exc:
            self._rollback()
            raise StoreError(
                f"the game could not be saved ({exc}); the action was not taken"
            ) from None
        self.committed = max(self.committed, seq + 1)
        self.changed()
        self.botseats.count_miss(action)
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
        self.botseats.rewind(len(game.events))
        for conn in self.room.connections:
            if conn.tracker is not None:
                self.send_view(conn)

    # ------------------------------------------------------------ after each commit
    def changed(self) -> None:
        """Something the clients or the bots may see changed: push on the loop's next turn
        (once, however many changes that turn made)."""
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
        return self.committed - 1 if self.room.trace else None

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
            self.timer.cancel()
            self.room.finished()
        push = _Push(self, flush)
        push.build()
        push.send()
        if self.behind and not self.flush_scheduled:
            self.flush_scheduled = True
            self.flush_handle = self.loop.call_later(
                PROGRESS_SECONDS, lambda: self._push(flush=True)
            )
        if flush:
            return
        pushed = self._pushed()
        for conn, alone in push.acks.items():  # their views did not change
            for ack in alone:
                conn.send(Ack(ack.id, ack.seq, pushed))
        self.botseats.feed()

    def send_view(self, conn: Connection) -> None:
        """A connection's whole view (on joining, reconnecting, after a rebuild)."""
        conn.tracker = tracker = ViewTracker(self.game, conn.viewer, self.public, words=False)
        parts = self._shared()
        shared = parts.whole()
        conn.core, conn.cast = parts.core, parts.cast
        tracker.update()
        conn.personal = conn.sent_personal = encode(tracker.personal())
        timer = conn.last_timer = self.timer_info()
        timeline = tracker.take_timeline()
        now = time.time()
        frame = view_frame(b"view", shared, conn.personal, timeline, timer, now)
        if conn.role == "player" and not self.game.is_over:  # see Padding.frame_size
            padding = self.padding
            size = padding.frame_size(self.game, b"view", shared, self.public.timeline)
            frame = padded(frame, padding.fit(size, [frame]))
        conn.send_raw(frame)

    def _shared(self) -> SharedParts:
        """The views' shared part now: the part without the vote count (which changes only
        with public events; the same object as the last push's if nothing in it changed,
        so that a connection's base is known by identity), and the count (which changes
        with every vote); its changes since the last push are worked out once, here."""
        core = self.public.shared_core()
        last = self.core
        changes = changed_members(last, core) if core is not last else {}
        parts = SharedParts(last if not changes else core, votes_cast(self.game))
        parts.known(last, changes)
        return parts

    def _new_events(self) -> tuple[bool, set[int]]:
        """The events since the last look: whether a step began (the steps are counted),
        and the events' audiences."""
        events = self.game.events
        fresh = events[self._event_cursor :]
        self._event_cursor = len(events)
        started = sum(1 for e in fresh if type(e) is StepStarted)
        self.step_serial += started
        return started > 0, {e.audience for e in fresh}

    # ------------------------------------------------------------ timers
    def _start_timer(self, remaining: float | None = None) -> None:
        """The current step's timer: its full duration, or ``remaining`` seconds."""
        game, settings = self.game, self.room.settings
        if game.is_over or game.step is None or not settings.timers:
            self.timer.clear()
            return
        self.timer.start(settings.duration(game.step.value) if remaining is None else remaining)

    def _store_timer(self, data: dict[str, Any]) -> None:
        self.room.store.set_timer(self.room.code, {"serial": self.step_serial, **data})

    def resume_timer(self, stored: dict[str, Any] | None) -> None:
        """After a restart: the current step's timer carries on (at least 15 s left)."""
        if stored is None or stored.get("serial") != self.step_serial:
            self._start_timer()
        else:
            self.timer.restore(stored)

    def timer_info(self) -> dict[str, Any] | None:
        if self.game.is_over or not self.room.settings.timers:
            return None
        return self.timer.info()

    def control_timer(self, op: str, seconds: int, by: str = "host") -> None:
        """Host or moderator (``by``): pause, resume, extend or end the current step. A step
        ended early is announced to the table as such (a notice: who ended which step,
        and outside the Hidden Phase how many had decided, R-70)."""
        if self.game.is_over:
            raise Refusal("refused", "the game is over")
        timer = self.timer
        if op == "pause":
            timer.pause()
        elif op == "resume":
            timer.resume()
        elif op == "extend":
            timer.extend(seconds)
        else:  # end
            timer.cancel()
            self.spawn(self.notice("step_ended_early", by=by, **self._progress()))
            self.loop.call_soon(self._expire)
        timer.store()
        self.changed()

    def _progress(self) -> dict[str, Any]:
        """The current step, and outside the Hidden Phase (whose progress is secret, R-70)
        how many of those asked have answered."""
        game = self.game
        step = game.step
        assert step is not None
        if step in (HIDDEN, DISCUSSION):
            return {"step": step.value}
        return {"step": step.value, "cast": len(game.pending), "of": len(game.to_act)}

    def _expire(self) -> None:
        """R-72: whoever has not decided gets the default, recorded with "auto": true."""
        game = self.game
        if game.is_over or game.step is None:
            return
        names = game.players
        if game.step is DISCUSSION:
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

        self.spawn(take_defaults())

    def stop(self) -> None:
        """Start nothing more: no timer, no vote-count refresh, no bot (a room set aside,
        or dropped)."""
        self.timer.cancel()
        if self.flush_handle is not None:
            self.flush_handle.cancel()
            self.flush_handle = None
            self.flush_scheduled = False
        for task in list(self.tasks):
            task.cancel()
        self.botseats.stop()

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task, keeping a reference until it ends (the event loop keeps
        only a weak one)."""
        task = self.loop.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # ------------------------------------------------------------ a connection's requests
    # Who may do what: a connection acts for its own seat; the host (or the moderator) as
    # @host, and controls the timer and the stand-ins. Each raises Refusal (nothing changed)
    # or the rules' error.
    async def submit(self, conn: Connection, message_id: int, action: Action) -> None:
        """``conn``'s action: checked, applied, stored, then acknowledged."""
        if conn.seat is not None:
            self.botseats.returned(conn.seat)  # its player is here: a bot standing in stops
        if action.player == HOST:
            _host_or_moderator(conn, "acts as @host")
        elif conn.role != "player" or action.player != conn.seat:
            raise Refusal(
                "not_your_seat",
                f"this connection acts for {conn.seat or 'no seat'}, not {action.player!r}",
            )
        if action.kind == "claim" and self.game.step is DISCUSSION:
            talk(conn)  # a claim is table talk, stored and shown on the board: as chat
        seq = await self.act(action)
        self.acknowledge(conn, message_id, seq)

    async def post(self, conn: Connection, channel: str, text: str) -> int:
        """Post ``text`` for ``conn`` on ``channel`` if its rules allow (:mod:`.chat`);
        returns the message's number."""
        if conn.seat is not None:
            self.botseats.returned(conn.seat)  # its player is here: a bot standing in stops
        self.chat.check(self.game, conn, channel, text)
        talk(conn)
        return await self.chat.post(self.game, conn, channel, text)

    async def hand_seat(self, conn: Connection, player: str, bot: str | None) -> None:
        """The host or the moderator hands ``player``'s seat to a bot, or takes it back."""
        _host_or_moderator(conn, "hands a seat to a bot")
        by = "moderator" if conn.role == "moderator" else "host"
        await self.botseats.set_stand_in(player, bot, by)

    def time(self, conn: Connection, op: str, seconds: int) -> None:
        """The host or the moderator controls the timer (:meth:`control_timer`)."""
        _host_or_moderator(conn, "controls the timer")
        self.control_timer(op, seconds, "moderator" if conn.role == "moderator" else "host")

    async def notice(self, kind: str, **params: Any) -> None:
        """Tell the whole table something the game's own events do not: who ended a step
        early, a seat handed to a bot... Stored and sent like a chat message on the
        ``notice`` channel (author ``@server``; its text the JSON of ``kind`` and
        ``params``, which a client words in its own language)."""
        text = self.chat.notice_text(kind, **params)
        with contextlib.suppress(StoreError):  # (a notice lost is told in the log)
            await self.chat.publish(self.game, "notice", SERVER, text)

    def record(self) -> Record:
        return record_of(self.game)


def _host_or_moderator(conn: Connection, what: str) -> None:
    if not (conn.host or conn.role == "moderator"):
        raise Refusal("not_host", f"only the host or the moderator {what}")


class _Push:
    """One push of a session: the frames for every connection whose view changed, and the
    acks that ride in them (:meth:`GameSession._push` says who gets what)."""

    def __init__(self, session: GameSession, flush: bool) -> None:
        self.session = session
        self.flush = flush
        game = session.game
        self.start = session._event_cursor
        self.began, self.audiences = session._new_events()
        if self.began:
            session._start_timer()
        last = session.core
        self.parts = parts = session._shared()
        core, cast = self.core, self.cast = parts.core, parts.cast
        self.last = last  # its changes bound the shared part of a player's frame)
        session.core, session.cast = core, cast
        self.count_only = core is last and not flush  # (and perhaps the count)
        self.timer = session.timer_info()
        # trace (benchmarks): which action a push shows; a count-only flush shows none
        self.seq = session.committed - 1 if session.room.trace and not flush else None
        self.deciding = game.waiting_for if flush else frozenset()
        self.acks: dict[Connection, list[Ack]] = {}
        if not flush:
            for conn, message_id, index in session.waiting:
                self.acks.setdefault(conn, []).append(Ack(message_id, index))
            session.waiting = []
        self.actors = set(self.acks)
        # R-70: until the game ends, the players' frames of a push have one length; in the
        # Hidden Phase, if any player's view changed, every player gets a frame
        self.pad = not game.is_over
        self.hidden = self.pad and game.step is HIDDEN
        self.public_new = session.public.timeline[session.public_taken :]
        session.public_taken = len(session.public.timeline)
        self.out: list[tuple[Connection, bytes | None, bool]] = []  # (conn, frame, a player's?)
        self.changed_player = False

    def build(self) -> None:
        """A frame for every connection whose view changed (None: a cover, if any player's
        did); those left with only an old vote count are noted for the next refresh."""
        session = self.session
        visit = session.room.connections
        if self.flush and self.start == len(session.game.events):  # nothing new: the count,
            visit = session.behind  # to those behind
        session.behind = []
        now = time.time()
        for conn in visit:
            if conn.tracker is None or conn.closed:
                continue
            self._visit(conn, now)

    def _visit(self, conn: Connection, now: float) -> None:
        tracker = conn.tracker
        assert tracker is not None
        player = self.pad and conn.role == "player"
        seen = tracker.update_from(self.start, self.audiences)
        if seen or conn.personal is None:
            conn.personal = encode(tracker.personal())
        core, cast = self.core, self.cast
        stale = conn.core is not core or conn.cast != cast
        if stale and tracker.seat in self.deciding:
            stale = False  # a count alone: it comes with this player's own vote
        if not (
            seen
            or self.timer != conn.last_timer
            or (stale and not self.count_only)
            or (self.hidden and player and conn in self.acks)  # its ack rides in a padded frame
        ):
            if stale:
                self.session.behind.append(conn)
            if self.hidden and player:
                self.out.append((conn, None, True))  # a cover, if another player's changed
            return  # nothing this client can see has changed (or only the count)
        shared = self.parts.since(conn.core, conn.cast)
        personal = conn.personal
        if personal == conn.sent_personal:
            personal = EMPTY  # (unchanged: not sent again)
        else:
            conn.sent_personal = personal
        conn.core, conn.cast, conn.last_timer = core, cast, self.timer
        timeline = tracker.take_timeline()
        mine = self.acks.pop(conn, None) if self.acks else None
        frame = view_frame(b"update", shared, personal, timeline, self.timer, now, self.seq, mine)
        self.out.append((conn, frame, player))
        self.changed_player = self.changed_player or player

    def send(self) -> None:
        """Send the frames: whoever's action this push shows first (the table saw them
        act), then the room's order; the players' padded to one length."""
        session, out = self.session, self.out
        size = 0
        if self.changed_player:
            padding = session.padding
            size = padding.frame_size(
                session.game,
                b"update",
                self.parts.since(self.last, ANY_COUNT),  # the most any player's frame carries
                self.public_new,
                self.seq,
                began=self.began,
            )
            size = padding.fit(size, [f for _, f, p in out if p and f is not None])
        if self.actors:
            out.sort(key=lambda item: item[0] not in self.actors)  # (stable)
        for conn, data, player in out:  # whatever changed for whom
            if data is None:
                if self.changed_player:
                    conn.send_raw(session.padding.cover(size))
            elif player:
                conn.send_raw(padded(data, size))
            else:
                conn.send_raw(data)
