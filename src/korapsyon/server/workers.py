"""The supervisor of ``korapsyon serve --workers N``: starts one server process per worker
(korapsyon.server.shards), restarts one that dies (it rebuilds its rooms from the store,
as after any restart), and stops them all together.

A worker says it has started by writing a line to a pipe the supervisor gives it
(``--ready-fd``) once it has rebuilt its rooms and listens on its port. A worker that dies
before it ever said so (its port is taken, its database unreachable...) is not restarted:
the supervisor stops the others and fails, so that a mistake shows at once instead of a
worker starting and dying forever. Once a worker has started, one that dies is started
again: at once if it had served for STABLE_SECONDS, else after a pause that doubles (up to
MAX_PAUSE) each time it dies again so soon, before or just after it has started (a worker
that crashes as soon as it has rebuilt its rooms must not rebuild them in a loop): the
other workers' games go on meanwhile. The workers get SIGTERM if the supervisor itself
dies. Whether a worker started, and so whether the whole server fails, never depends on
how long anything took; only the length of a pause does.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import FrameType

POLL_SECONDS = 0.2
STABLE_SECONDS = 60.0  # a worker that served this long before it died is restarted at once
STOP_SECONDS = 30.0
MAX_PAUSE = 30.0
PR_SET_PDEATHSIG = 1  # prctl(2)
READY = b"ready\n"  # what a worker writes to its --ready-fd once it serves


class WorkerFailed(RuntimeError):
    """A worker died before it had ever started."""


@dataclass
class _Worker:
    """One worker's current process and what the supervisor knows of it."""

    command: Sequence[str]
    process: subprocess.Popen[bytes] | None = None
    ready_pipe: int = -1  # the read end of the current process's --ready-fd
    ready: bool = False  # the current process said it has started
    ready_at: float = 0.0  # ... then (time.monotonic())
    ever: bool = False  # ... or an earlier one did
    pause: float = 0.0  # before the next restart
    due: float | None = None  # when it is started again (time.monotonic())
    said: bytearray = field(default_factory=bytearray)

    def start(self) -> None:
        read, write = os.pipe()
        command = [*self.command, "--ready-fd", str(write)]
        try:
            self.process = subprocess.Popen(
                command,
                pass_fds=(write,),
                preexec_fn=_die_with_parent,  # noqa: PLW1509 (the supervisor has no threads)
            )
        except BaseException:
            os.close(read)
            raise
        finally:
            os.close(write)
        self.ready_pipe, self.ready, self.due = read, False, None
        self.said.clear()
        os.set_blocking(read, False)

    def read_ready(self) -> bool:
        """Take what the worker wrote to its pipe (it may have died since: what it wrote is
        still there). True once the pipe has nothing more to say (it said it started, or
        its end was closed)."""
        done = False
        with contextlib.suppress(BlockingIOError):
            while chunk := os.read(self.ready_pipe, 64):
                self.said += chunk
            done = True  # end of file
        if READY in self.said and not self.ready:
            self.ready = self.ever = True
            self.ready_at = time.monotonic()
        return done or self.ready

    def close_pipe(self, selector: selectors.BaseSelector) -> None:
        if self.ready_pipe >= 0:
            selector.unregister(self.ready_pipe)
            os.close(self.ready_pipe)
            self.ready_pipe = -1


def supervise(
    commands: Sequence[Sequence[str]],
    *,
    log: Callable[[str], None] = print,
) -> None:
    """Run one process per command (each given ``--ready-fd FD``) until SIGINT or
    SIGTERM; raise WorkerFailed if one dies before it has ever started (the others are
    stopped first)."""
    stopping = threading.Event()

    def stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    workers = [_Worker(command) for command in commands]
    selector = selectors.DefaultSelector()
    try:
        for worker in workers:
            worker.start()
            selector.register(worker.ready_pipe, selectors.EVENT_READ, worker)
        while not stopping.is_set():
            for key, _ in selector.select(POLL_SECONDS):
                if key.data.read_ready():
                    key.data.close_pipe(selector)
            now = time.monotonic()
            for index, worker in enumerate(workers):
                if stopping.is_set():
                    break
                _tend(index, worker, now, selector, log)
    finally:
        _stop_all(workers, selector)
        selector.close()
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _tend(
    index: int,
    worker: _Worker,
    now: float,
    selector: selectors.BaseSelector,
    log: Callable[[str], None],
) -> None:
    """Notice a death, and start a dead worker again when its pause is over."""
    process = worker.process
    if worker.due is None:
        assert process is not None
        code = process.poll()
        if code is None:
            return
        if worker.ready_pipe >= 0:
            worker.read_ready()
            worker.close_pipe(selector)
        if not worker.ever:
            raise WorkerFailed(f"worker {index} stopped while starting (exit code {code})")
        if worker.ready and now - worker.ready_at >= STABLE_SECONDS:
            worker.pause = 0.0  # it served a while: start it again at once
        else:  # died before or soon after it started: wait longer each time
            worker.pause = min(MAX_PAUSE, worker.pause * 2 or 1.0)
        worker.due = now + worker.pause
        after = f" in {worker.pause:g} s" if worker.pause else ""
        log(f"worker {index} stopped (exit code {code}); starting it again{after}")
    if now >= worker.due:
        worker.start()
        selector.register(worker.ready_pipe, selectors.EVENT_READ, worker)


def _stop_all(workers: list[_Worker], selector: selectors.BaseSelector) -> None:
    for worker in workers:
        if worker.process is not None and worker.process.poll() is None:
            worker.process.terminate()
    deadline = time.monotonic() + STOP_SECONDS
    for worker in workers:
        if worker.process is None:
            continue
        try:
            worker.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            worker.process.kill()
        worker.close_pipe(selector)


def _die_with_parent() -> None:
    """In the worker, before it runs: SIGTERM when the supervisor dies (Linux)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
