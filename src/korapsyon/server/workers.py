"""The supervisor of ``korapsyon serve --workers N``: starts one server process per worker
(korapsyon.server.shards), restarts one that dies (it rebuilds its rooms from the store,
as after any restart), and stops them all together.

A worker that dies within STARTUP_SECONDS of its first start is not restarted (its port is
taken, its database unreachable...): the supervisor stops the others and fails, so that a
mistake shows at once instead of a worker starting and dying forever. Once every worker
has run, one that dies is started again, after a pause that doubles (up to MAX_PAUSE) each
time it dies again within STARTUP_SECONDS: the other workers' games go on meanwhile. The
workers get SIGTERM if the supervisor itself dies.
"""

from __future__ import annotations

import ctypes
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from types import FrameType

STARTUP_SECONDS = 10.0
POLL_SECONDS = 0.2
STOP_SECONDS = 30.0
MAX_PAUSE = 30.0
PR_SET_PDEATHSIG = 1  # prctl(2)


class WorkerFailed(RuntimeError):
    """A worker died while starting."""


def supervise(
    commands: Sequence[Sequence[str]],
    *,
    log: Callable[[str], None] = print,
) -> None:
    """Run one process per command until SIGINT or SIGTERM; raise WorkerFailed if one
    dies while starting (the others are stopped first)."""
    stopping = threading.Event()

    def stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for command in commands:
            processes.append(_start(command))
        started = [time.monotonic()] * len(processes)
        ran = [False] * len(processes)  # has outlived its start-up once
        pause = [0.0] * len(processes)  # before the next restart
        due = [0.0] * len(processes)  # when a dead worker is started again
        while not stopping.is_set():
            time.sleep(POLL_SECONDS)
            now = time.monotonic()
            for index, process in enumerate(processes):
                code = process.poll()
                quick = now - started[index] < STARTUP_SECONDS
                if code is None:
                    ran[index] = ran[index] or not quick
                    continue
                if stopping.is_set():
                    break
                if quick and not ran[index]:
                    raise WorkerFailed(f"worker {index} stopped while starting (exit code {code})")
                if due[index] == 0.0:
                    pause[index] = min(MAX_PAUSE, pause[index] * 2 or 1.0) if quick else 0.0
                    due[index] = now + pause[index]
                    log(f"worker {index} stopped (exit code {code}); starting it again")
                if now >= due[index]:
                    processes[index] = _start(commands[index])
                    started[index], due[index] = now, 0.0
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


def _start(command: Sequence[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(list(command), preexec_fn=_die_with_parent)  # noqa: PLW1509


def _die_with_parent() -> None:
    """In the worker, before it runs: SIGTERM when the supervisor dies (Linux)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
