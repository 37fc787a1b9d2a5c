"""A phone that loses the server (the server restarts mid-game) shows that it is
disconnected, reconnects by itself when the server is back, to the same seat, and the
player carries on."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.server.live import add_bots, free_port, running, start
from tests.web.harness import (
    Tabs,
    api_room,
    api_seat,
    cautious,
    decide,
    role_shown,
    roles_of,
    snapshot,
    wait_after_confirm,
    wait_for_game,
)


def test_a_phone_reconnects_to_its_seat_after_the_server_restarts(
    browser: Browser, tmp_path: Path
) -> None:
    """The ``connection`` hook goes ``closed`` while the server is away and ``open`` when
    a new server on the same database is back; the phone shows the same role and the
    player's night decision is taken."""
    db = f"sqlite:///{tmp_path / 'korapsyon.sqlite3'}"
    port = free_port()
    tabs = Tabs(browser, f"http://127.0.0.1:{port}")
    try:
        with running(db, port=port) as live:
            code, host_token = api_room(live)
            stored = api_seat(live, code, "Zenaida")
            add_bots(live, code, host_token, 8)
            phone = tabs.open(
                "Zenaida", f"/play?room={code}", storage={f"korapsyon:{code}": stored}
            )
            start(live, code, host_token)
            wait_for_game(live, code)
            role = roles_of(live.game(code))["Zenaida"].value
            expect(phone.el("night-screen")).to_be_visible()
            expect(phone.el("connection")).to_have_attribute("data-state", "open")
        # the server is gone: the browser's own lines about the failed reconnections
        phone.allow(r"WebSocket connection to .* failed")
        phone.allow(r"Failed to load resource: net::ERR_CONNECTION_REFUSED")
        expect(phone.el("connection")).to_have_attribute("data-state", "closed")
        with running(db, port=port) as live:
            expect(phone.el("connection")).to_have_attribute("data-state", "open")
            expect(phone.el("night-screen")).to_be_visible()
            assert role_shown(phone) == role
            snap = snapshot(phone)
            assert snap.to_act and snap.step == "hidden"
            decide(phone, snap, cautious(snap))
            wait_after_confirm(phone, snap)
            expect(phone.el("screen")).not_to_have_attribute("data-step", "hidden")
            assert any(a.player == "Zenaida" for a in live.game(code).actions)
            tabs.assert_clean()
            tabs.close()
    finally:
        tabs.close()
