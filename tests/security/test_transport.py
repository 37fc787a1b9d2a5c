"""What crosses the network (issue #17): TLS, which proxy is believed, which pages may
open the game's WebSocket.

Observed before the fix: ``serve`` had no TLS, so a passive relay on shared Wi-Fi read the
seat token, the host token and the role off the wire; uvicorn believed X-Forwarded-For
from any local client, which could pick its own address and dodge every per-address
limit; and the WebSocket took any Origin, so a page of another site could join a game.
"""

from __future__ import annotations

import asyncio
import contextlib
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
from websockets.exceptions import ConnectionClosed

from korapsyon.harness.spawn import free_port, wait_healthy
from korapsyon.server.connection import Limits
from korapsyon.server.protocol import PROTOCOL_VERSION
from tests.server.live import HANG_SECONDS, running


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


def hello(code: str) -> str:
    return json.dumps(
        {"type": "hello", "protocol": PROTOCOL_VERSION, "room": code, "spectate": True}
    )


def test_only_this_server_s_pages_and_allowed_origins_open_the_websocket(db: str) -> None:
    """A WebSocket with no Origin (a program), the server's own origin or one allowed
    (``serve --allow-origin``) is served; a page of another site is refused with
    ``bad_origin`` before anything is read."""
    with running(db, origins=("https://table.example",)) as live:
        with live.http() as http:
            code = http.post("/api/rooms", json={}).json()["code"]

        async def answer(origin: str | None) -> str:
            headers = {"origin": origin} if origin else {}
            async with connect(live.ws_url, origin=None, additional_headers=headers) as ws:
                with contextlib.suppress(ConnectionClosed):  # (a refusal may close first)
                    await ws.send(hello(code))
                message = json.loads(await ws.recv())  # (what came before a close)
                return str(message.get("code") or message["type"])

        async def all_of() -> list[str]:
            return [
                await answer(origin)
                for origin in (None, live.url, "https://table.example",
                               live.url.replace("127.0.0.1", "evil.example"),
                               "https://evil.example", "null", "http://table.example",
                               live.url.replace("http://", "https://"))
            ]  # fmt: skip

        assert asyncio.run(all_of()) == ["welcome"] * 3 + ["bad_origin"] * 5


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
