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
    Tab,
    Tabs,
    api_room,
    api_seat,
    decide,
    dismiss_nightfall,
    hold,
    release,
    roles_of,
    snapshot,
    tid,
    wait_for_game,
)
from tests.web.scripted import Client, catalog

NAMES = table(9)


def _night_phones(live: Live, tabs: Tabs) -> tuple[str, str, tuple[str, str, str], dict[str, Tab]]:
    """Nine people's seats; after the deal, phones open for both Corrupt Politicians (a, b)
    and a Citizen (c), each showing the night: the room's code, its host token, (a, b, c)
    and their phones."""
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
    return code, host_token, (a, b, c), phone


def test_R23_the_corrupt_channel_and_live_team_choices_stay_with_the_corrupt(
    live: Live, tabs: Tabs
) -> None:
    """Nine people's seats; after the deal, phones open for both Corrupt Politicians and
    one Good player. Every phone offers the same two channels; a Corrupt's private message
    reaches the other Corrupt's held card only, a Citizen's private message is a note on
    its own card, and the log of every phone holds the table's messages only (R-70); a
    Corrupt's confirmed night choice shows on the other's held role card (team choices)
    and on no other phone."""
    _, _, (a, b, c), phone = _night_phones(live, tabs)

    for tab in phone.values():  # the same two channels on every phone, whatever the role
        channels = tab.el("chat-channel").locator("option")
        assert channels.evaluate_all("(os) => os.map((o) => o.value)") == ["public", "private"]
    phone[a].el("chat-channel").select_option("private")  # at night: the team's channel
    phone[a].el("chat-input").fill("Tokhang tonight?")
    phone[a].el("chat-send").click()
    expect(phone[a].el("chat-channel")).to_have_value("private")  # still the team's
    hold(phone[b], phone[b].el("role-reveal"))  # the team's messages are in the held card
    secret = phone[b].el("private-talk").locator(tid("private-message"))
    expect(secret).to_have_count(1)
    expect(secret).to_contain_text("Tokhang tonight?")
    expect(secret).to_contain_text(a)
    release(phone[b])
    phone[c].el("chat-channel").select_option("private")  # for the others: a note to self
    phone[c].el("chat-input").fill("Watch Ana")
    phone[c].el("chat-send").click()
    expect(phone[c].el("chat-channel")).to_have_value("private")  # (as chosen)
    phone[c].el("chat-channel").select_option("public")
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


def test_R23_a_corrupt_s_second_private_message_stays_private(live: Live, tabs: Tabs) -> None:
    """Observed: a Corrupt chose "Private" at night, sent a message with Enter, typed a
    second and pressed Enter: the picker had gone back to "Everyone" after the first, so
    the second (the team's Tokhang plan) went to the whole table. Now the channel stays as
    chosen: both messages reach the other Corrupt's held card and no other phone's chat.
    When the night is over every picker is back on "Everyone" (R-70), but under a message
    being typed: out of the night "Private" is a note to oneself, and the phone says so
    under the picker (the same words whatever the role; nothing at night)."""
    words = catalog("en")
    code, host_token, (a, b, c), phone = _night_phones(live, tabs)

    phone[a].el("chat-channel").select_option("private")
    phone[c].el("chat-channel").select_option("private")
    for tab in phone.values():  # at night no phone says what "Private" is
        expect(tab.el("chat-channel-hint")).to_be_hidden()
    box = phone[a].el("chat-input")
    for text in ("Tokhang natin si Flor?", "Oo, si Flor mamaya"):
        box.fill(text)
        box.press("Enter")
        expect(box).to_have_value("")  # (it went)
        expect(phone[a].el("chat-channel")).to_have_value("private")
    phone[b].el("chat-input").fill("Good evening, everyone")
    phone[b].el("chat-input").press("Enter")
    for tab in phone.values():  # after the team's messages on the server, so in order
        messages = tab.el("chat").locator(tid("chat-message"))
        expect(messages.last.locator(tid("chat-text"))).to_have_text("Good evening, everyone")
        expect(messages).to_have_count(1)
        expect(tab.el("chat")).not_to_contain_text("Flor")
    hold(phone[b], phone[b].el("role-reveal"))
    team = phone[b].el("private-talk").locator(tid("private-message"))
    expect(team).to_have_count(2)
    expect(team.nth(0)).to_contain_text("Tokhang natin si Flor?")
    expect(team.nth(1)).to_contain_text("Oo, si Flor mamaya")
    release(phone[b])

    phone[c].el("chat-input").fill("Bukas ulit")  # (typed, not sent, as the night ends)
    host = Client(live, code, host_token=host_token)
    host.end_step()  # the night is over
    host.close()
    for tab in phone.values():
        expect(tab.el("screen")).not_to_have_attribute("data-step", "hidden")
        dismiss_nightfall(tab)
    # every picker is back on "Everyone", alike (R-70: one left on "Private", with its
    # hint, marked the Corrupt at the table), but not under a message being typed, which
    # stays private: out of the night a note on this phone only, as the hint says
    for name in (a, b):
        expect(phone[name].el("chat-channel")).to_have_value("public")
        expect(phone[name].el("chat-channel-hint")).to_be_hidden()
    expect(phone[c].el("chat-channel")).to_have_value("private")  # (never the table's)
    expect(phone[c].el("chat-channel-hint")).to_have_text(words["chat.private_day"])
    phone[c].el("chat-input").press("Enter")  # by day: a note, on this phone only
    expect(phone[c].el("chat-input")).to_have_value("")
    hold(phone[c], phone[c].el("role-reveal"))
    expect(phone[c].el("private-talk")).to_contain_text("Bukas ulit")
    release(phone[c])
    phone[a].el("chat-channel").select_option("private")
    expect(phone[a].el("chat-channel-hint")).to_have_text(words["chat.private_day"])
    phone[c].el("chat-channel").select_option("public")
    phone[c].el("chat-input").fill("Morning")
    phone[c].el("chat-input").press("Enter")
    for tab in phone.values():
        expect(tab.el("chat").locator(tid("chat-text")).last).to_have_text("Morning")
        expect(tab.el("chat")).not_to_contain_text("Bukas ulit")
    hold(phone[b], phone[b].el("role-reveal"))
    expect(phone[b].el("private-talk")).not_to_contain_text("Bukas ulit")
    release(phone[b])
    tabs.assert_clean()
