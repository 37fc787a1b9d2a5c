"""Live servers: TLS, proxy headers, the 64 KB frame cap and full socket buffers are uvicorn's.

What crosses the network (issues #6, #17): TLS, which proxy is believed, the WebSocket's
frame cap, and a client that stops reading.

Observed before the fixes: ``serve`` had no TLS, so a passive relay on shared Wi-Fi read
the seat token, the host token and the role off the wire; uvicorn believed
X-Forwarded-For from any local client, which could pick its own address and dodge every
per-address limit; and a client that stopped reading held up its whole room. (Which pages
may open the WebSocket is the application's own check: ``test_origin.py``.)
"""

from __future__ import annotations

import asyncio
import json
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import trustme
from websockets.asyncio.client import connect

from korapsyon.harness.spawn import free_port, wait_healthy
from korapsyon.selfplay import table
from korapsyon.server.connection import Limits
from korapsyon.server.protocol import PROTOCOL_VERSION
from tests.security.attack import Deaf, Socket, human_room, serving, snapshot
from tests.server.live import HANG_SECONDS, running

NAMES = table(9)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'korapsyon.sqlite3'}"


def test_x_forwarded_for_is_believed_only_from_a_proxy_named_for_it(db: str) -> None:
    """Without ``--trust-proxy`` every request from this machine is 127.0.0.1, whatever
    address it names: three requests here (the limit) and the fourth is refused. With it,
    each named address has a budget of its own."""
    limits = Limits(requests=3, connects=0)
    for proxies, refused in (((), True), (("127.0.0.1",), False)):
        with running(db, limits=limits, proxies=proxies) as live, live.http() as http:
            answers = [
                http.get("/api/rooms/QQQQQ", headers={"x-forwarded-for": f"10.1.0.{k}"})
                for k in range(4)
            ]
        assert [a.status_code for a in answers[:3]] == [404] * 3
        assert (answers[3].status_code == 429) is refused


def test_a_frame_over_64_kb_closes_the_connection_and_nothing_else(db: str) -> None:
    """uvicorn reads a frame of at most 64 KB (``serve``'s ws_max_size): a larger one closes
    the connection (1009, "message too big") before the application sees it; the game is
    unchanged and the seat may come back. (Up to the cap: ``test_fuzz_protocol.py``.)"""
    with serving(db) as live:
        code, _host, tokens = human_room(live, NAMES)
        sock = Socket(live, {"room": code, "token": tokens[NAMES[0]]})
        assert sock.alive()
        before = snapshot(live, code)
        head = '{"type":"ping","id":77'
        sock.send(head + " " * (64 * 1024 + 1 - len(head) - 1) + "}")
        close_code, reason, _ = sock.closed()
        assert close_code == 1009, (close_code, reason)
        assert snapshot(live, code) == before
        again = Socket(live, {"room": code, "token": tokens[NAMES[0]]})
        assert again.alive()


def test_a_client_that_stops_reading_does_not_hold_up_its_room(db: str) -> None:
    """A seat's client stops reading (a phone gone from the network without a word) while
    its room's traffic goes on: without a limit, the room's send queue would wait on it and
    everyone else in the room would hear nothing until the keep-alive ping gave up on it
    (90 s). After ``send_seconds`` (here 0.5 s) the server drops it, with a reason, and the
    others get every message."""
    limits = Limits(messages=10**6, chats=10**6, send_seconds=0.5, connects=0)
    with serving(db, limits) as live:
        code, _host, tokens = human_room(live, NAMES)
        deaf = Deaf(live, {"room": code, "token": tokens[NAMES[0]]})
        reader = Socket(live, {"room": code, "spectate": True})
        talker = Socket(live, {"room": code, "token": tokens[NAMES[1]]})
        count = 3000  # 2 MB that the deaf client will not take (it may be dropped mid-way,
        # so another seat does the talking)
        for i in range(count):
            talker.send(
                json.dumps({"type": "chat", "id": i, "channel": "public", "text": "x" * 500})
            )
        seqs = [reader.next(("chat_posted",), timeout=20)["seq"] for _ in range(count)]
        assert seqs == list(range(count))
        dropped = [c for c in live.hub.rooms[code].connections if c.seat == NAMES[0]]
        assert all(c.closed and c.reason == "too slow to read its messages" for c in dropped)
        assert reader.alive()
        deaf.close()


@pytest.fixture
def certificate(tmp_path: Path) -> Iterator[tuple[trustme.CA, Path, Path]]:
    """A certificate for 127.0.0.1 signed by a CA made for the test: (CA, cert, key)."""
    ca = trustme.CA()
    issued = ca.issue_cert("127.0.0.1", "localhost")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    issued.private_key_pem.write_to_path(str(key))
    issued.cert_chain_pems[0].write_to_path(str(cert))
    for extra in issued.cert_chain_pems[1:]:
        with cert.open("ab") as out:
            out.write(extra.bytes())
    yield ca, cert, key


def test_serve_speaks_tls_with_a_certificate_and_its_links_say_https(
    certificate: tuple[trustme.CA, Path, Path],
) -> None:
    """``korapsyon serve --tls-cert --tls-key``: the lobby API over HTTPS, join links and
    QR codes on https://, the game over wss://; plain HTTP gets no answer."""
    ca, cert, key = certificate
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        command = [
            sys.executable, "-m", "korapsyon", "serve", "--port", str(port),
            "--db", str(Path(folder) / "k.sqlite3"), "--tls-cert", str(cert), "--tls-key", str(key),
        ]  # fmt: skip
        process = subprocess.Popen(command)
        try:
            base = f"https://127.0.0.1:{port}"
            context = ssl.create_default_context()
            ca.configure_trust(context)
            deadline = time.monotonic() + HANG_SECONDS
            while True:
                try:
                    httpx.get(f"{base}/healthz", verify=context).raise_for_status()
                    break
                except httpx.HTTPError:
                    assert process.poll() is None and time.monotonic() < deadline
                    time.sleep(0.1)
            with httpx.Client(base_url=base, verify=context) as http:
                created = http.post("/api/rooms", json={"name": "Ana"}).json()
            assert created["join_url"].startswith(f"https://127.0.0.1:{port}/")

            async def play() -> str:
                async with connect(f"wss://127.0.0.1:{port}/ws", ssl=context) as ws:
                    token = created["seat"]["token"]
                    await ws.send(json.dumps({
                        "type": "hello", "protocol": PROTOCOL_VERSION, "room": created["code"],
                        "token": token,
                    }))  # fmt: skip
                    return str(json.loads(await ws.recv())["type"])

            assert asyncio.run(play()) == "welcome"
            with pytest.raises(httpx.HTTPError):
                httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5)
            assert not wait_healthy(f"http://127.0.0.1:{port}", time.monotonic(), lambda: True)
        finally:
            process.terminate()
            process.wait(timeout=30)
