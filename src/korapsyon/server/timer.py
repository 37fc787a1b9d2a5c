"""A step's timer (R-72): when it runs out, whoever has not decided gets the default.

:class:`StepTimer` keeps the deadline (or, paused, the time left), the event loop's handle
that calls ``expire`` at the deadline, and what the store keeps of it so that the timer
carries on after a restart. The game session decides when a timer starts and how long it
runs (the room's settings), and what expiring does.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable
from typing import Any

RESUME_SECONDS = 15.0  # after a restart, a running timer has at least this much left


class StepTimer:
    """The current step's timer: running (``deadline``), paused (``paused``), or none."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        expire: Callable[[], None],
        save: Callable[[dict[str, Any]], None],  # (bound methods)
    ) -> None:
        self.loop = loop
        # (weak: the timer is its owner's, and a cycle would keep a dropped room in memory
        # until a full collection)
        self.expire = weakref.WeakMethod(expire)  # at the deadline
        self.save = weakref.WeakMethod(save)  # what to store
        self.deadline: float | None = None  # time.time() when it runs out
        self.paused: float | None = None  # seconds left while paused
        self.handle: asyncio.TimerHandle | None = None

    def start(self, duration: float) -> None:
        """Run for ``duration`` seconds from now."""
        self.cancel()
        self.paused = None
        self.deadline = time.time() + duration
        self.handle = self.loop.call_later(duration, self._ring)
        self.store()

    def clear(self) -> None:
        """No timer (the game is over, or this room has no timers)."""
        self.cancel()
        self.deadline = None

    def cancel(self) -> None:
        """Stop the call at the deadline (the deadline is kept)."""
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None

    def pause(self) -> None:
        if self.deadline is not None:
            self.paused = max(0.0, self.deadline - time.time())
            self.deadline = None
            self.cancel()

    def resume(self) -> None:
        if self.paused is not None:
            self.start(self.paused)

    def extend(self, seconds: float) -> None:
        if self.paused is not None:
            self.paused += seconds
        elif self.deadline is not None:
            self.start(self.deadline - time.time() + seconds)

    def restore(self, stored: dict[str, Any]) -> None:
        """Carry on as ``stored`` says (after a restart): paused, or running with at least
        RESUME_SECONDS left."""
        if stored.get("paused") is not None:
            self.clear()
            self.paused = float(stored["paused"])
            return
        left = float(stored.get("deadline") or 0) - time.time()
        self.start(max(left, RESUME_SECONDS))

    def store(self) -> None:
        save = self.save()
        if save is not None:
            save({"deadline": self.deadline, "paused": self.paused})

    def info(self) -> dict[str, Any] | None:
        """What the clients are told (the ``timer`` of a view)."""
        if self.paused is not None:
            return {"paused": True, "remaining": round(self.paused, 1)}
        if self.deadline is None:
            return None
        return {"paused": False, "deadline": round(self.deadline, 3)}

    def _ring(self) -> None:
        self.handle = None
        expire = self.expire()
        if expire is not None:
            expire()
