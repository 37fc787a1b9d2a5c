"""Phones die at parties (issue #18): the host hands the seat of a phone that went away to a
bot, which plays from that seat's view; the moment the phone comes back its player has
the seat again; the table reads both in the timeline. A phone whose seat a bot took says
so, and how to have it back."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from korapsyon.rules.steps import Step
from tests.server.live import Live, add_bots, start
from tests.web.harness import (
    FAST,
    HOUR_TIMERS,
    WAIT_MS,
    Tabs,
    api_room,
    api_seat,
    cautious,
    decide,
    role_shown,
    roles_of,
    snapshot,
    tid,
    wait_after_confirm,
    wait_for_game,
)
from tests.web.scripted import Client, catalog

HANDED = re.compile("The host handed \u2068?Ben\u2069?'s seat to a bot")  # (names isolated)
BACK = re.compile("\u2068?Ben\u2069? is back")
SETTINGS = {"timers": False, "bot_delay": [0.0, 0.05], "auto_stand_in": False}
"""No timers and no automatic stand-in: nothing moves but what the test's people do."""


def test_a_dropped_phone_gets_its_seat_back(live: Live, tabs: Tabs) -> None:
    code, host_token = api_room(live, SETTINGS)
    ana_seat = api_seat(live, code, "Ana")
    ana = tabs.open("Ana", f"/play?room={code}", storage={f"korapsyon:{code}": ana_seat})
    ben_seat = api_seat(live, code, "Ben")
    ben = tabs.open("Ben", f"/play?room={code}", storage={f"korapsyon:{code}": ben_seat})
    add_bots(live, code, host_token, 7)
    board = tabs.open(
        "board", f"/board?room={code}", phone=False,
        storage={f"korapsyon:{code}": {"host_token": host_token}},
    )  # fmt: skip
    start(live, code, host_token)
    game = wait_for_game(live, code)
    role = roles_of(game)["Ben"].value
    expect(ben.el("night-screen")).to_be_visible()
    expect(board.el("stand-ins")).to_have_count(0)  # every phone is here: nothing to do

    gone = ben
    gone.page.close()  # Ben's battery dies
    away = board.el("stand-in-seat")
    expect(away).to_have_attribute("data-name", "Ben")
    expect(away).to_have_attribute("data-state", "away")
    board.el("stand-in").click()
    expect(away).to_have_attribute("data-state", "bot")
    timeline = board.el("timeline")
    expect(timeline).to_contain_text(HANDED)
    snap = snapshot(ana)  # Ana decides her night; the night ends only if Ben's bot does too
    decide(ana, snap, cautious(snap))
    wait_after_confirm(ana, snap)
    expect(board.el("board-step")).not_to_have_attribute("data-step", "hidden")
    night = next(a for a in game.actions if a.player == "Ben")
    assert not night.auto  # the bot's decision, not the timer's default

    ben = tabs.open_beside(gone, "Ben again", f"/play?room={code}")  # the phone is back
    expect(ben.el("screen")).to_be_visible()
    expect(board.el("stand-ins")).to_have_count(0)  # his seat is his again
    expect(timeline).to_contain_text(BACK)
    assert role_shown(ben) == role  # the same seat
    session = live.hub.rooms[code].session
    assert session is not None and "Ben" not in session.bots
    # from now on the game waits for Ben: the election is his to vote in, not a bot's
    seat = game.seat("Ben")
    deadline = time.monotonic() + WAIT_MS / 1000
    while game.step is not Step.ELECT or seat not in game.to_act:
        for tab in (ana, ben):  # both stand (or not) as the table goes on
            snap = snapshot(tab)
            if snap.to_act and snap.ballot == "choosing" and snap.step == "stand":
                decide(tab, snap, cautious(snap))
                wait_after_confirm(tab, snap)
        assert time.monotonic() < deadline, f"no election: {game.step}"
        ana.page.wait_for_timeout(50)  # polling interval, not a timing assertion
    expect(ben.el("screen")).to_have_attribute("data-step", "elect")
    snap = snapshot(ana)
    if snap.to_act and snap.ballot == "choosing":
        decide(ana, snap, cautious(snap))
        wait_after_confirm(ana, snap)
    expect(board.el("board-voted")).to_have_attribute("data-cast", str(len(game.to_act) - 1))
    assert game.waiting_for == {seat}  # nobody votes for Ben
    snap = snapshot(ben)
    decide(ben, snap, cautious(snap))
    expect(board.el("board-step")).not_to_have_attribute("data-step", "elect")
    assert any('"elect"' in frame for frame in ben.sent)  # his own vote, from his phone
    expect(ana.el("timeline").locator(tid("timeline-entry"))).not_to_have_count(0)
    expect(ana.el("timeline")).to_contain_text(BACK)
    tabs.assert_clean()


def test_a_phone_whose_seat_a_bot_took_says_so_and_how_to_have_it_back(
    live: Live, tabs: Tabs
) -> None:
    """Ben's phone stays connected, but two of his decisions in a row go by (the host ends
    the night and the stand, each giving him the default, R-72): a bot takes his seat
    (RULINGS), and his phone says so in its status bar, and how to have it back; a message
    from him gives it back, and the line goes."""
    words = catalog("en")
    code, host_token = api_room(live, FAST | HOUR_TIMERS)
    ben_seat = api_seat(live, code, "Ben")
    ben = tabs.open("Ben", f"/play?room={code}", storage={f"korapsyon:{code}": ben_seat})
    add_bots(live, code, host_token, 8)
    start(live, code, host_token)
    wait_for_game(live, code)
    host = Client(live, code, host_token=host_token)
    mine = ben.el("bar-note")
    for step in ("hidden", "stand"):  # the two steps Ben lets go by
        expect(ben.el("screen")).to_have_attribute("data-step", step)
        expect(mine).to_be_hidden()
        host.end_step()
    host.close()
    expect(mine).to_be_visible()  # (in the bar, in sight)
    expect(mine).to_have_text(f"🤖 {words['standin.mine']}")
    expect(mine).to_be_in_viewport()
    session = live.hub.rooms[code].session
    assert session is not None and "Ben" in session.bots
    ben.el("chat-input").fill("Sorry, I'm back")
    ben.el("chat-input").press("Enter")
    expect(mine).to_be_hidden()
    assert "Ben" not in session.bots
    tabs.assert_clean()
