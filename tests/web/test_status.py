"""What went wrong is told where the person is looking (issue #18): next to the control
that caused it, in sight on a 360x640 phone, and the status bar never scrolls away.

Observed before: with 3 (or 17) seats the host pressed Start at the bottom of the page and
nothing visible happened (the error line was in the header, scrolled away); a 17th bot was
accepted into a room that could never start; a refused confirm said nothing near the
ballot."""

from __future__ import annotations

import json
import time
from typing import Any

from playwright.sync_api import Locator, ViewportSize, WebSocketRoute, expect

from tests.server.live import Live, add_bots, start
from tests.web.harness import (
    Tab,
    Tabs,
    api_room,
    api_seat,
    create_room,
    relay,
    tid,
    wait_for_game,
)

SMALL = ViewportSize(width=360, height=640)

IN_SIGHT = """(el) => {
  const box = el.getBoundingClientRect();
  const bar = document.querySelector('[data-testid="status-bar"]');
  const sticky = bar && !bar.contains(el) && getComputedStyle(bar).position === 'sticky';
  const top = sticky ? bar.getBoundingClientRect().bottom : 0;
  return box.height > 0 && box.top >= top - 1 && box.bottom <= innerHeight + 1
    && box.left >= -1 && box.right <= innerWidth + 1;
}"""


def assert_in_sight(tab: Tab, target: Locator) -> None:
    """On screen, whole, and not under the sticky status bar."""
    expect(target).to_be_visible()
    assert target.evaluate(IN_SIGHT), f"{tab.label}: {target} is out of sight"


def assert_next_to(message: Locator, control: Locator, within: float = 24) -> None:
    """The message is right above or right below the control."""
    a, b = message.bounding_box(), control.bounding_box()
    assert a is not None and b is not None
    gap = max(b["y"] - (a["y"] + a["height"]), a["y"] - (b["y"] + b["height"]))
    assert gap <= within, f"{gap:.0f} px between the message and its control"


def test_R01_start_says_why_not_and_a_17th_bot_is_refused_where_it_was_asked(
    live: Live, tabs: Tabs
) -> None:
    """On a 360x640 phone: with 3 seats Start is disabled and says why right over it (and
    the status bar says it too, wherever the page is scrolled); with 9 it is enabled; a
    17th bot is refused by the server (R-01: 16 seats without a custom setup) and the
    refusal shows under "add a bot", in sight. With a custom setup (R-03) a 17th seat is
    taken; back to the usual roles, Start says to remove one."""
    host = tabs.open("Ana")
    host.page.set_viewport_size(SMALL)
    code = create_room(host, "Ana")
    host_token = host.storage(code)["host_token"]
    seats = host.el("seat-list").locator(tid("seat-item"))
    for count in (2, 3):
        host.el("add-bot").click()
        expect(seats).to_have_count(count)
    start_button, why = host.el("start-game"), host.el("start-why")
    expect(start_button).to_be_disabled()
    expect(why).to_have_text(
        "A game needs 9 to 16 players: 3 now. Add bots, or wait for more people to join."
    )
    start_button.scroll_into_view_if_needed()
    assert_in_sight(host, why)
    assert_next_to(why, start_button)
    waiting = host.el("bar-waiting")
    expect(waiting).to_contain_text("3 at the table: 9 to 16 needed to start.")
    assert_in_sight(host, waiting)  # scrolled to the bottom of the page, the bar is still there

    add_bots(live, code, host_token, 6)
    expect(seats).to_have_count(9)
    expect(start_button).to_be_enabled()
    expect(why).to_be_hidden()
    expect(waiting).to_contain_text("Ready")

    add_bots(live, code, host_token, 7)
    expect(seats).to_have_count(16)
    host.allow(r"status of 409 .*/api/rooms/\w+/bots\)$")  # the browser's own line
    add = host.el("add-bot")
    add.click()
    refused = host.el("bot-error")
    expect(refused).to_have_text(
        "⚠ The table is full: 16 players at most (up to 20 when the host chooses the roles)."
    )
    assert_in_sight(host, refused)
    assert_next_to(refused, add)
    assert len(live.hub.rooms[code].seats) == 16

    # a custom setup seats more, and the refusal is gone with the next bot
    host.el("setup-custom").check()
    expect(host.page.locator(tid("role-count")).first).to_be_enabled()
    add.click()
    expect(seats).to_have_count(17)
    expect(refused).to_be_hidden()
    expect(why).to_have_text("The roles add up to 16 for 17 players: make them equal to start.")
    host.el("setup-custom").uncheck()
    expect(why).to_have_text(
        "A game needs 9 to 16 players: 17 now. "
        "Remove 1, or choose the roles yourself (up to 20 players)."
    )
    expect(start_button).to_be_disabled()
    tabs.assert_clean()


def _refuse_acts(
    ws: WebSocketRoute, data: dict[str, Any], message: str | bytes
) -> str | bytes | None:
    """Every `act` the page sends answered as the server answers an action that is not
    wanted any more (the step moved on meanwhile); the rest goes through."""
    if data.get("type") != "act":
        return message
    refusal = {"type": "error", "id": data["id"], "code": "wrong_step", "now": time.time()}
    ws.send(json.dumps(refusal | {"message": "R-70: not now"}))
    return None


def test_a_refused_confirm_is_told_in_the_ballot_in_sight(live: Live, tabs: Tabs) -> None:
    """The night's confirm is refused: the ballot's status says so and why, right under the
    confirm, in sight on a 360x640 phone; choosing again clears it."""
    code, host_token = api_room(live)
    stored = api_seat(live, code, "Zenaida")
    add_bots(live, code, host_token, 8)
    phone = tabs.open("Zenaida", storage={f"korapsyon:{code}": stored})
    phone.page.set_viewport_size(SMALL)
    relay(phone, up=_refuse_acts)
    phone.page.goto(f"/play?room={code}")
    start(live, code, host_token)
    wait_for_game(live, code)
    confirm = phone.el("confirm")
    expect(phone.el("night-screen")).to_be_visible()
    confirm.click()
    status = phone.el("ballot-status")
    expect(status).to_have_attribute("data-state", "refused")
    expect(status).to_contain_text("Not accepted: ")
    expect(status).to_contain_text("That is not what the game is waiting for now.")
    assert_in_sight(phone, status)
    assert_next_to(status, confirm)
    expect(confirm).to_be_enabled()  # it can be tried again
    other = f'{tid("option")}:not([aria-disabled="true"]):not([aria-pressed="true"])'
    phone.el("night-screen").locator(other).first.click()
    expect(status).to_have_attribute("data-state", "choosing")
    game = live.game(code)
    assert game.seat("Zenaida") not in game.pending  # (nothing reached the game)
    tabs.assert_clean()


def test_the_lobby_says_what_is_missing_next_to_it(live: Live, tabs: Tabs) -> None:
    """The lobby on a 360x640 phone: no code, no name, no such room: each said next to what
    it is about, in sight."""
    phone = tabs.open("Ana", "/")
    phone.page.set_viewport_size(SMALL)
    join = phone.el("join-room")
    join.click()
    missing = phone.el("join-error")
    expect(missing).to_have_text("⚠ Type the room code first.")
    assert_in_sight(phone, missing)
    assert_next_to(missing, join)

    phone.el("room-code-input").fill("ZZZZZ")
    join.click()
    name = phone.el("name-error")
    expect(name).to_have_text("⚠ Type your name first.")
    expect(missing).to_be_hidden()
    assert_in_sight(phone, name)
    assert_next_to(name, phone.el("name-input"))
    expect(phone.el("name-input")).to_be_focused()

    phone.allow(r"status of 404 .*/api/rooms/ZZZZZ/seats\)$")
    phone.el("name-input").fill("Ana")
    join.click()
    expect(missing).to_have_text("⚠ There is no room with that code.")
    expect(name).to_be_hidden()
    assert_in_sight(phone, missing)

    create = phone.el("create-room")
    phone.el("name-input").fill("")
    create.click()
    expect(name).to_be_visible()
    assert_in_sight(phone, name)
    tabs.assert_clean()
