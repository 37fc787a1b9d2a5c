"""The one way the harnesses (and the tests) start a ``korapsyon serve`` process on loopback:
free ports, the command, waiting until every worker answers ``/healthz``, stopping it."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import httpx

from ..server.runtime import raise_file_limit

START_SECONDS = 300.0
"""A started server that is not healthy by then hangs (it is given up at once if its process
ends): a safety net, not a speed requirement."""

PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
"""The folder this copy of korapsyon is imported from: the server runs the same code."""


def free_port(count: int = 1) -> int:
    """A free port on loopback, and the ``count - 1`` after it free too (``serve
    --workers`` listens on consecutive ports)."""
    for _ in range(100):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if port + count - 1 <= 65535 and all(_free(port + k) for k in range(1, count)):
            return port
    raise RuntimeError(f"no {count} free ports in a row")


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def wait_healthy(url: str, deadline: float, alive: Callable[[], bool]) -> bool:
    """Wait until the server at ``url`` answers ``/healthz``; False if it has not by the
    ``deadline`` (``time.monotonic()``) or as soon as ``alive()`` says it has died."""
    while True:
        try:
            httpx.get(f"{url}/healthz", timeout=1).raise_for_status()
            return True
        except httpx.HTTPError:
            if time.monotonic() > deadline or not alive():
                return False
            time.sleep(0.05)


def _raise_file_limit() -> None:  # run in the child before exec: the server holds many sockets
    raise_file_limit()


def start(
    port: int,
    db: str,
    options: Iterable[str] = (),
    *,
    workers: int = 1,
    log: Path | None = None,
) -> subprocess.Popen[bytes]:
    """``korapsyon serve --port port --db db --workers workers *options``, returned once every
    worker answers. Its output goes to the terminal, or to the end of ``log`` (whose tail
    the error quotes if the server does not start)."""
    command = [
        sys.executable, "-m", "korapsyon", "serve", "--port", str(port), "--db", db,
        "--workers", str(workers), *options,
    ]  # fmt: skip
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_ROOT, env.get("PYTHONPATH")) if p)
    with contextlib.ExitStack() as stack:
        err = None if log is None else stack.enter_context(log.open("ab"))
        out = None if log is None else subprocess.DEVNULL
        process = subprocess.Popen(
            command,
            stdout=out,
            stderr=err,
            env=env,
            preexec_fn=_raise_file_limit,  # noqa: PLW1509 (only setrlimit, before exec)
        )
    deadline = time.monotonic() + START_SECONDS
    for worker in range(workers):
        if not wait_healthy(
            f"http://127.0.0.1:{port + worker}", deadline, lambda: process.poll() is None
        ):
            stop(process)
            tail = "" if log is None else ":\n" + log.read_text(errors="replace")[-2000:]
            raise RuntimeError(f"the server did not start{tail}")
    return process


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM (a clean shutdown), then SIGKILL if it has not ended in 30 seconds."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)


@contextlib.contextmanager
def spawned_server(
    db: str | None = None, workers: int = 1, options: Iterable[str] = ()
) -> Iterator[tuple[str, int]]:
    """A ``korapsyon serve`` with these ``options`` and ``workers`` worker processes for the
    block, on free ports and a fresh SQLite file (unless ``db`` is given): (its base URL,
    its process id)."""
    port = free_port(workers)
    with tempfile.TemporaryDirectory(prefix="korapsyon-serve-") as folder:
        database = db or str(Path(folder) / "serve.sqlite3")
        process = start(port, database, options, workers=workers)
        try:
            yield f"http://127.0.0.1:{port}", process.pid
        finally:
            stop(process)
