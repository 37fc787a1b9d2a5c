"""R-23 in a real browser: during the Hidden Phase the Corrupt Politicians talk on their
own chat channel and see each other's night choices live; nobody else's phone shows
either."""

from __future__ import annotations

from playwright.sync_api import expect

from korapsyon.rules.roles import Role
from korapsyon.selfplay import table
from tests.server.live import Live, start
from tests.web.harness import (
    Tabs,
    api_room,
    api_seat,
    decide,
    hold,
    release,
    roles_of,
    snapshot,
    tid,
    wait_for_game,
)

NAMES = table(9)


def test_R23_the_corrupt_channel_and_live_team_choices_stay_with_the_corrupt(
    live: Live, tabs: Tabs
) -> None:
    """Nine people's seats; after the deal, phones open for both Corrupt Politicians and
    one Good player. A Corrupt message reaches the other Corrupt only; a public message
    reaches everyone; a Corrupt's confirmed night choice shows on the other's held role
    card (team choices) and on no other phone."""
    code, host_token = api_room(live)
    seats = {name: api_seat(live, code, name) for name in NAMES}
    start(live, code, host_token)
    wait_for_game(live, code)
    roles = roles_of(live.game(code))
    a, b = sorted(n for n, r in roles.items() if r is Role.CORRUPT_POLITICIAN)
    c = next(n for n, r in roles.items() if r is Role.CITIZEN)
    phone = {
        name: tabs.open(name, f"/play?room={code}", storage={f"korapsyon:{code}": seats[name]})
        for name in (a, b, c)
    }
    for tab in phone.values():
        expect(tab.el("night-screen")).to_be_visible()

    channels = phone[c].el("chat-channel").locator("option")
    expect(channels).not_to_have_count(0)
    assert "corrupt" not in channels.evaluate_all("(os) => os.map((o) => o.value)")
    phone[a].el("chat-channel").select_option("corrupt")
    phone[a].el("chat-input").fill("Tokhang tonight?")
    phone[a].el("chat-send").click()
    secret = phone[b].el("chat").locator(f'{tid("chat-message")}[data-channel="corrupt"]')
    expect(secret).to_have_count(1)
    expect(secret.locator(tid("chat-text"))).to_have_text("Tokhang tonight?")
    expect(secret.locator(tid("chat-author"))).to_contain_text(a)

    phone[c].el("chat-input").fill("Good evening, everyone")
    phone[c].el("chat-send").click()
    for tab in phone.values():  # after the Corrupt message on the server, so in order
        messages = tab.el("chat").locator(tid("chat-message"))
        expect(messages.last.locator(tid("chat-text"))).to_have_text("Good evening, everyone")
    expect(phone[c].el("chat")).not_to_contain_text("Tokhang tonight?")

    hold(phone[b], phone[b].el("role-reveal"))
    mate = phone[b].el("team-choices").locator(f'[data-name="{a}"]')
    expect(mate).to_be_visible()
    undecided = mate.text_content()
    release(phone[b])
    snap = snapshot(phone[a])
    decide(phone[a], snap, {"toggles": [0]})  # Nakaw on, Tokhang nobody
    expect(phone[a].el("ballot-status")).to_have_attribute("data-state", "waiting")
    hold(phone[b], phone[b].el("role-reveal"))
    expect(mate).not_to_have_text(undecided or "")
    release(phone[b])
    hold(phone[c], phone[c].el("role-reveal"))
    expect(phone[c].el("role-name")).to_be_visible()
    expect(phone[c].el("team-choices")).to_have_count(0)
    release(phone[c])
    tabs.assert_clean()
