"""The supervisor of ``korapsyon serve --workers N``: starts one server process per worker
(korapsyon.server.shards), restarts one that dies (it rebuilds its rooms from the store,
as after any restart), and stops them all together.

A worker that dies within STARTUP_SECONDS of being started is not restarted (its port is
taken, its database unreachable...): the supervisor stops the others and fails, so that a
mistake shows at once instead of a worker starting and dying forever.
"""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from types import FrameType

STARTUP_SECONDS = 10.0
POLL_SECONDS = 0.2
STOP_SECONDS = 30.0


class WorkerFailed(RuntimeError):
    """A worker died while starting."""


def supervise(
    commands: Sequence[Sequence[str]],
    *,
    log: Callable[[str], None] = print,
) -> None:
    """Run one process per command until SIGINT or SIGTERM; raise WorkerFailed if one
    dies while starting (the others are stopped first)."""
    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    processes = [subprocess.Popen(list(command)) for command in commands]
    started = [time.monotonic()] * len(processes)
    try:
        while not stopping:
            time.sleep(POLL_SECONDS)
            for index, process in enumerate(processes):
                code = process.poll()
                if code is None or stopping:
                    continue
                if time.monotonic() - started[index] < STARTUP_SECONDS:
                    raise WorkerFailed(f"worker {index} stopped while starting (exit code {code})")
                log(f"worker {index} stopped (exit code {code}); starting it again")
                processes[index] = subprocess.Popen(list(commands[index]))
                started[index] = time.monotonic()
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + STOP_SECONDS
        for process in processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
        for signum, handler in previous.items():
            signal.signal(signum, handler)
