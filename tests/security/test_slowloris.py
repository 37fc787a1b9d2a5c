"""Live servers and a process: unfinished requests and held TCP connections are uvicorn's.

Connections that never finish a request are closed, and one address cannot hold the
server's file descriptors (issue #17: slowloris).

Observed before the fix: a connection that never completed its request, or trickled its
headers, was never closed (3,000 held for 30 s, none closed); with a file limit of 1,024,
1,100 of them made 50 of 50 new HTTP requests fail. Now an unfinished request is closed
after ``REQUEST_SECONDS``, an address holds at most ``Limits.http`` HTTP connections,
and the server raises its own file limit to the hard limit at start-up.
"""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import pytest

from korapsyon.harness.spawn import free_port, wait_healthy
from tests.server.live import HANG_SECONDS, Live, running

HELD = 5  # the test server's cap per address


def raw(live: Live, data: bytes = b"") -> socket.socket:
    """A TCP connection to the server that has sent ``data`` and nothing more."""
    conn = socket.create_connection(("127.0.0.1", int(live.url.rsplit(":", 1)[1])), timeout=10)
    if data:
        conn.sendall(data)
    return conn


def closed_by_server(conn: socket.socket) -> bool:
    """Whether the server closes this connection (waits up to the socket's timeout)."""
    try:
        return conn.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[Live]:
    """A server that gives a request half a second, and believes no proxy (so that the
    cap counts the test's own address, 127.0.0.1)."""
    db = f"sqlite:///{tmp_path / 'korapsyon.sqlite3'}"
    with running(db, proxies=(), request_seconds=0.5, per_address=HELD) as server:
        yield server


def test_a_request_that_never_ends_is_closed(quick: Live) -> None:
    """Nothing sent, half a request line, headers without their end, a body that never
    comes: each connection is closed by the server; a whole request still gets its
    answer, on the same kind of connection."""
    unfinished = [
        b"",
        b"GET /healthz HT",
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n",
        b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n{",
    ]
    for data in unfinished:
        with raw(quick, data) as conn:
            assert closed_by_server(conn), data
    with raw(quick, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n") as conn:
        assert conn.recv(1024).startswith(b"HTTP/1.1 200")


def test_one_address_holds_so_many_connections(tmp_path: Path) -> None:
    """Five HTTP connections at once from 127.0.0.1 here (100 by default): the sixth is
    closed at once, unread; the five still work; once one is gone, a new one is taken;
    and another address is not held back."""
    db = f"sqlite:///{tmp_path / 'korapsyon.sqlite3'}"
    with running(db, proxies=(), request_seconds=60, per_address=HELD) as live:
        held = [raw(live) for _ in range(HELD)]
        with raw(live, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n") as sixth:
            assert closed_by_server(sixth)
        held[0].sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert held[0].recv(1024).startswith(b"HTTP/1.1 200")
        held.pop().close()
        deadline = time.monotonic() + HANG_SECONDS
        while True:  # until the server has counted the close
            again = raw(live, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            answer = again.recv(1024)
            again.close()
            if answer.startswith(b"HTTP/1.1 200"):
                break
            assert time.monotonic() < deadline, "a closed connection was never let go"
        port = int(live.url.rsplit(":", 1)[1])
        with socket.socket() as elsewhere:  # (loopback takes any 127/8 source address)
            elsewhere.bind(("127.0.0.2", 0))
            elsewhere.settimeout(10)
            elsewhere.connect(("127.0.0.1", port))
            elsewhere.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert elsewhere.recv(1024).startswith(b"HTTP/1.1 200")
        for conn in held:
            conn.close()


def _low_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, 256), hard))


def test_the_server_raises_its_own_file_limit_at_start_up() -> None:
    """Started with a soft limit of 256 open files, ``korapsyon serve`` runs with its hard
    limit (each connection is a file)."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        command = [
            sys.executable, "-m", "korapsyon", "serve", "--port", str(port),
            "--db", os.path.join(folder, "k.sqlite3"),
        ]  # fmt: skip
        process = subprocess.Popen(command, preexec_fn=_low_file_limit)  # noqa: PLW1509
        try:
            url = f"http://127.0.0.1:{port}"
            alive = lambda: process.poll() is None  # noqa: E731
            assert wait_healthy(url, time.monotonic() + HANG_SECONDS, alive)
            limits = psutil.Process(process.pid).rlimit(psutil.RLIMIT_NOFILE)
            assert limits == (hard, hard)
            assert httpx.get(f"{url}/healthz").json()["ok"]
        finally:
            process.terminate()
            process.wait(timeout=30)
