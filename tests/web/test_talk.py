"""R-23 in a real browser: during the Hidden Phase the Corrupt Politicians talk on their
own chat channel and see each other's night choices live; nobody else's phone shows
either."""

from __future__ import annotations

import json

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
    one Good player. Every phone offers the same two channels; a Corrupt's private message
    reaches the other Corrupt's held card only, a Citizen's private message is a note on
    its own card, and the log of every phone holds the table's messages only (R-70); a
    Corrupt's confirmed night choice shows on the other's held role card (team choices)
    and on no other phone."""
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

    for tab in phone.values():  # the same two channels on every phone, whatever the role
        channels = tab.el("chat-channel").locator("option")
        assert channels.evaluate_all("(os) => os.map((o) => o.value)") == ["public", "private"]
    phone[a].el("chat-channel").select_option("private")  # at night: the team's channel
    phone[a].el("chat-input").fill("Tokhang tonight?")
    phone[a].el("chat-send").click()
    expect(phone[a].el("chat-channel")).to_have_value("public")  # back to the table's
    hold(phone[b], phone[b].el("role-reveal"))  # the team's messages are in the held card
    secret = phone[b].el("private-talk").locator(tid("private-message"))
    expect(secret).to_have_count(1)
    expect(secret).to_contain_text("Tokhang tonight?")
    expect(secret).to_contain_text(a)
    release(phone[b])
    phone[c].el("chat-channel").select_option("private")  # for the others: a note to self
    phone[c].el("chat-input").fill("Watch Ana")
    phone[c].el("chat-send").click()

    phone[c].el("chat-input").fill("Good evening, everyone")
    phone[c].el("chat-send").click()
    for tab in phone.values():  # after the Corrupt message on the server, so in order
        messages = tab.el("chat").locator(tid("chat-message"))
        expect(messages).to_have_count(1)  # the log: the table's messages only, on every phone
        expect(messages.last.locator(tid("chat-text"))).to_have_text("Good evening, everyone")
        expect(tab.el("chat")).not_to_contain_text("Tokhang tonight?")
    hold(phone[c], phone[c].el("role-reveal"))
    expect(phone[c].el("private-talk")).to_contain_text("Watch Ana")
    expect(phone[c].el("private-talk")).not_to_contain_text("Tokhang tonight?")
    release(phone[c])

    hold(phone[b], phone[b].el("role-reveal"))
    mate = phone[b].el("team-choices").locator(f'[data-name="{a}"]')
    expect(mate).to_be_visible()
    undecided = mate.text_content()
    release(phone[b])
    snap = snapshot(phone[a])
    plans = [json.loads(v) for v in snap.fields[1]["values"]]
    decide(phone[a], snap, {"plan": [plans.index({"nakaw": True, "suhol": False})]})
    expect(phone[a].el("ballot-status")).to_have_attribute("data-state", "waiting")
    hold(phone[b], phone[b].el("role-reveal"))
    expect(mate).not_to_have_text(undecided or "")
    release(phone[b])
    hold(phone[c], phone[c].el("role-reveal"))
    expect(phone[c].el("role-name")).to_be_visible()
    expect(phone[c].el("team-choices")).to_have_count(0)
    release(phone[c])
    tabs.assert_clean()
