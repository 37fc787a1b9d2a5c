"""A spectator's phone (``/play?room=CODE&spectate=1``) follows the public view: no role,
no decisions, no posting; it sees the game through to the end screen."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.server.live import Live, add_bots, start
from tests.web.harness import Tabs, api_room, tid


def test_a_spectator_sees_the_public_game_to_its_end(live: Live, tabs: Tabs) -> None:
    """Nine bots play (each discussion closes after a moment, R-72); the spectator's
    page shows the seats, then the game with no role card, no choice panel and no way to
    post, and the end screen with every role revealed (R-40)."""
    settings = {"bot_delay": [0.0, 0.02], "timers": True, "durations": {"discussion": 0.2}}
    code, host_token = api_room(live, settings)
    add_bots(live, code, host_token, 9)
    spectator = tabs.open("spectator", f"/play?room={code}&spectate=1")
    expect(spectator.el("seat-list").locator(tid("seat-item"))).to_have_count(9)
    expect(spectator.el("start-game")).to_have_count(0)
    expect(spectator.el("remove-seat")).to_have_count(0)
    start(live, code, host_token)
    expect(spectator.el("screen")).to_be_visible()
    expect(spectator.el("role-card")).to_have_count(0)
    expect(spectator.el("choice-panel")).to_have_count(0)

    end = spectator.el("end-screen")
    expect(end).to_be_visible(timeout=60_000)
    expect(end.locator(tid("revealed-role"))).to_have_count(9)
    game = live.game(code)
    assert game.outcome is not None
    expect(end.locator(tid("winner"))).to_have_attribute("data-team", game.outcome.winner)
    expect(spectator.el("role-card")).to_have_count(0)
    expect(spectator.el("choice-panel")).to_have_count(0)
    chat = spectator.el("chat-send")
    if chat.count():
        expect(chat).to_be_disabled()
    tabs.assert_clean()
