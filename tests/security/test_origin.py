"""Which pages may open the game's WebSocket (issue #17), against the server's application
in process: the check is the application's own (the Origin against the request's Host and
the allowed origins).

Observed before the fix: the WebSocket took any Origin, so a page of another site could
join a game.
"""

from __future__ import annotations

import json

from korapsyon.server.protocol import PROTOCOL_VERSION
from tests.server.inprocess import in_process


def hello(code: str) -> str:
    return json.dumps(
        {"type": "hello", "protocol": PROTOCOL_VERSION, "room": code, "spectate": True}
    )


def test_only_this_server_s_pages_and_allowed_origins_open_the_websocket() -> None:
    """A WebSocket with no Origin (a program), the server's own origin or one allowed
    (``serve --allow-origin``) is served; a page of another site is refused with
    ``bad_origin`` before anything is read."""
    with in_process(origins=("https://table.example",)) as live:
        with live.http() as http:
            code = http.post("/api/rooms", json={}).json()["code"]

        def answer(origin: str | None) -> str:
            ws = live.open({"origin": origin} if origin else {})
            try:
                ws.send(hello(code))
                message = json.loads(ws.recv(timeout=10))  # (what came before a close)
                return str(message.get("code") or message["type"])
            finally:
                ws.close()

        answers = [
            answer(origin)
            for origin in (None, live.url, "https://table.example",
                           live.url.replace("testserver", "evil.example"),
                           "https://evil.example", "null", "http://table.example",
                           live.url.replace("http://", "https://"))
        ]  # fmt: skip
        assert answers == ["welcome"] * 3 + ["bad_origin"] * 5
