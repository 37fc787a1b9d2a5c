"""A phone that loses the server (the server restarts mid-game) shows that it is
disconnected, reconnects by itself when the server is back, to the same seat, and the
player carries on."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.server.live import Live, add_bots, free_port, running, start
from tests.web.harness import (
    Tabs,
    api_room,
    api_seat,
    cautious,
    decide,
    join_by_code,
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


def test_a_seat_opened_on_a_second_screen_moves_there_once_and_can_come_back(
    live: Live, tabs: Tabs
) -> None:
    """Issue #17: a seated player who opens the join link again (a re-scan of the QR code)
    had two tabs taking the connection from each other every second, for ever. The newest
    tab wins; the older one says why over the whole page, stops reconnecting, and takes
    the seat back with one tap, which moves the offer to the other tab."""
    code, host_token = api_room(live)
    stored = api_seat(live, code, "Zenaida")
    add_bots(live, code, host_token, 8)
    first = tabs.open("first", f"/play?room={code}", storage={f"korapsyon:{code}": stored})
    start(live, code, host_token)
    wait_for_game(live, code)
    expect(first.el("night-screen")).to_be_visible()
    second = tabs.open_beside(first, "second", f"/play?room={code}")
    expect(second.el("night-screen")).to_be_visible()
    expect(first.el("replaced")).to_be_visible()
    expect(first.el("connection")).to_have_attribute("data-state", "closed")
    room = live.hub.rooms[code]

    def seat_connections() -> list[object]:
        return [c for c in room.connections if c.seat == "Zenaida" and not c.closed]

    # the second tab plays on (its night decision is taken) while the first stays put
    snap = snapshot(second)
    decide(second, snap, cautious(snap))
    wait_after_confirm(second, snap)
    assert any(a.player == "Zenaida" for a in live.game(code).actions)
    assert len(seat_connections()) == 1
    expect(first.el("replaced")).to_be_visible()
    expect(second.el("replaced")).to_have_count(0)
    first.el("take-back").click()
    expect(second.el("replaced")).to_be_visible()
    expect(first.el("replaced")).to_have_count(0)
    expect(first.el("connection")).to_have_attribute("data-state", "open")
    step = live.game(code).step
    assert step is not None  # (the game waits for Zenaida: no timers)
    expect(first.el("screen")).to_have_attribute("data-step", step.value)
    assert len(seat_connections()) == 1


def test_the_lobby_offers_the_way_back_to_a_game_in_progress(live: Live, tabs: Tabs) -> None:
    """A player who leaves the game's page (the phone's Back button) lands on the lobby,
    which offers the way back to their seat in the game still on - and offers nothing for
    a room that is gone."""
    code, host_token = api_room(live)
    phone = tabs.open("Zenaida")
    join_by_code(phone, code, "Zenaida")
    add_bots(live, code, host_token, 8)
    start(live, code, host_token)
    wait_for_game(live, code)
    expect(phone.el("night-screen")).to_be_visible()

    phone.page.go_back()  # the lobby, where the code was typed
    back = phone.el("rejoin-button")
    expect(back).to_be_visible()
    expect(back).to_contain_text(code)
    expect(back).to_contain_text("Zenaida")
    back.click()
    phone.page.wait_for_url(f"**/play?room={code}")
    expect(phone.el("night-screen")).to_be_visible()  # the same seat, mid-night

    phone.page.evaluate(
        """() => {
          localStorage.setItem('korapsyon:ZZZZZ', JSON.stringify({ token: 'x', name: 'Zenaida' }));
          localStorage.setItem('korapsyon:last', 'ZZZZZ');
        }"""
    )
    phone.allow(r"status of 404")  # (the browser's own line for the room asked for)
    with phone.page.expect_response(lambda r: r.url.endswith("/api/rooms/ZZZZZ")):
        phone.page.goto("/")
    # a room the server does not know: nothing offered, and not asked for again
    phone.page.wait_for_function("() => localStorage.getItem('korapsyon:last') === null")
    expect(phone.el("rejoin")).to_be_hidden()
