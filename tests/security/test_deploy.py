"""A live server behind a Caddy process: the documented deployment, over real TLS and TCP.

The public deployment of the README (docs/DEPLOY.md) works as written: the server behind
Caddy with docs/deploy/Caddyfile, unchanged, over HTTPS (issue #17).

Caddy serves ``localhost`` with a certificate of its own local CA, so the test needs no
domain: ``KORAPSYON_DOMAIN`` is ``localhost:PORT``. Skipped where Caddy is not installed
(scripts/test installs Debian's).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from korapsyon.harness.spawn import free_port
from korapsyon.server.connection import Limits
from korapsyon.server.protocol import PROTOCOL_VERSION
from tests.server.live import HANG_SECONDS, Live, running

CADDYFILE = Path(__file__).resolve().parents[2] / "docs" / "deploy" / "Caddyfile"
CADDY = shutil.which("caddy")


@pytest.fixture
def behind_caddy(tmp_path: Path) -> Iterator[tuple[Live, str, ssl.SSLContext]]:
    """The server on loopback as DEPLOY.md runs it (--trust-proxy 127.0.0.1, the public
    URL), and Caddy in front with the documented file: (server, public URL, TLS context
    trusting Caddy's local CA)."""
    if CADDY is None:
        pytest.skip("Caddy is not installed (scripts/test installs Debian's caddy)")
    https, http_port = free_port(), free_port()
    public = f"https://localhost:{https}"
    db = f"sqlite:///{tmp_path / 'korapsyon.sqlite3'}"
    limits = Limits(requests=5, connects=0)
    with running(db, limits=limits, proxies=("127.0.0.1",), public_url=public) as live:
        env = {
            **os.environ,
            "HOME": str(tmp_path),
            "XDG_DATA_HOME": str(tmp_path / "data"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "KORAPSYON_DOMAIN": f"localhost:{https}",
            "KORAPSYON_HTTP_PORT": str(http_port),
            "KORAPSYON_UPSTREAM": live.url.removeprefix("http://"),
        }
        command = [CADDY, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"]
        log = (tmp_path / "caddy.log").open("wb")
        caddy = subprocess.Popen(command, env=env, stdout=log, stderr=log)
        try:
            root = tmp_path / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
            deadline = time.monotonic() + HANG_SECONDS
            while True:
                assert caddy.poll() is None, (tmp_path / "caddy.log").read_text()
                with contextlib.suppress(httpx.HTTPError, ssl.SSLError, FileNotFoundError):
                    context = ssl.create_default_context(cafile=str(root))
                    httpx.get(f"{public}/", verify=context, timeout=5).raise_for_status()
                    break
                assert time.monotonic() < deadline, (tmp_path / "caddy.log").read_text()
                time.sleep(0.1)
            yield live, public, context
        finally:
            caddy.terminate()
            caddy.wait(timeout=30)
            log.close()


def test_the_documented_caddy_deployment_serves_the_game_over_https(
    behind_caddy: tuple[Live, str, ssl.SSLContext],
) -> None:
    """Through Caddy: the lobby over HTTPS with join links on the public URL; a client's
    X-Forwarded-For is replaced by its real address (five requests here from one machine,
    whatever they claim, then 429); the game over wss:// from the site's own pages, and a
    page of another site refused."""
    live, public, context = behind_caddy
    with httpx.Client(base_url=public, verify=context, timeout=10) as http:
        created = http.post("/api/rooms", json={"name": "Ana"})
        assert created.status_code == 201, created.text
        room = created.json()
        assert room["join_url"] == f"{public}/?room={room['code']}"
        assert http.get("/").headers["strict-transport-security"]
        claimed = [
            http.get(f"/api/rooms/{room['code']}", headers={"x-forwarded-for": f"10.2.0.{k}"})
            for k in range(5)
        ]
    assert [answer.status_code for answer in claimed] == [200, 200, 200, 200, 429]

    async def hello(origin: str) -> str:
        async with connect(
            public.replace("https://", "wss://") + "/ws", ssl=context, origin=None,
            additional_headers={"origin": origin},
        ) as ws:  # fmt: skip
            message = {
                "type": "hello", "protocol": PROTOCOL_VERSION, "room": room["code"],
                "token": room["seat"]["token"],
            }  # fmt: skip
            with contextlib.suppress(ConnectionClosed):
                await ws.send(json.dumps(message))
            answer = json.loads(await ws.recv())
            return str(answer.get("code") or answer["type"])

    assert asyncio.run(hello(public)) == "welcome"
    assert asyncio.run(hello("https://evil.example")) == "bad_origin"
    assert live.hub.rooms[room["code"]].seats[0].name == "Ana"
