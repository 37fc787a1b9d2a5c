"""A pick that was not confirmed (R-72): when its step ends - its timer, or the host - a
phone whose person had picked something other than what counted for them (never
confirmed: the default was given; or changed and not sent again) says so once on the next
screen, in the same words for every role (R-70), until tapped away or the step after
ends; a confirmed pick leaves nothing to say. The host ends each step here
(``Client.end_step``): no clock, no waiting."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from korapsyon.rules.actions import Stand
from korapsyon.selfplay import table
from tests.server.live import Live, start
from tests.web.harness import (
    FAST,
    HOUR_TIMERS,
    Tab,
    Tabs,
    api_room,
    decide,
    has_decision,
    snapshot,
    tid,
    wait_after_confirm,
    wait_for_game,
)
from tests.web.scripted import Client, catalog, names_tokens, open_phone


def _next_step(phone: Tab, host: Client, step: str) -> None:
    """The host ends ``step`` (R-72: whoever has not decided gets the default), and the
    phone shows the next one."""
    host.end_step()
    expect(phone.el("screen")).not_to_have_attribute("data-step", step)


@pytest.mark.parametrize(("lang", "size"), [("fil", (360, 640)), ("en", (390, 844))])
def test_R72_a_pick_not_confirmed_in_time_is_said_not_to_have_counted(
    live: Live, tabs: Tabs, lang: str, size: tuple[int, int]
) -> None:
    words = catalog(lang)
    code, host_token = api_room(live, FAST | HOUR_TIMERS | {"auto_stand_in": False})
    names = table(9)
    tokens = names_tokens(live, code, names)
    me = names[0]
    host = Client(live, code, host_token=host_token)
    phone = open_phone(tabs, code, me, tokens[me], lang=lang, size=size)
    start(live, code, host_token)
    wait_for_game(live, code)

    # the night: a name picked, never confirmed; the host ends the night
    grid = phone.el("night-screen").locator(tid("field")).first
    grid.locator(f"{tid('option')}:not([aria-disabled])").nth(1).click()
    expect(phone.el("ballot-status")).to_have_attribute("data-state", "choosing")
    _next_step(phone, host, "hidden")
    note = phone.el("missed-note")
    expect(note).to_have_text(f"⚠ {words['ballot.missed']}{words['ballot.missed_ok']}")
    expect(note).to_be_in_viewport(ratio=1)  # (above the new question, both in sight)
    expect(phone.page.locator("#choice-prompt")).to_be_in_viewport()
    phone.page.screenshot(path=f"/tmp/missed-{lang}.png")
    night = [a for a in live.game(code).actions if a.player == me]
    assert len(night) == 1 and night[0].auto  # (the default counted, as the note says)
    phone.el("missed-ok").click()  # tapped away
    expect(note).to_have_count(0)

    # the stand ballot: "no" confirmed, then "yes" tapped and not sent; the host ends it
    expect(phone.el("screen")).to_have_attribute("data-step", "stand")
    snap = snapshot(phone)
    values = [json.loads(v) for v in snap.fields[0]["values"]]
    decide(phone, snap, {"stand": [values.index(False)]})
    wait_after_confirm(phone, snap)
    yes = phone.el("choice-panel").locator(f"{tid('option')}[data-value='true']")
    yes.click()
    expect(phone.el("ballot-status")).to_have_attribute("data-state", "unsent")
    _next_step(phone, host, "stand")
    expect(note).to_have_text(f"⚠ {words['ballot.missed_changed']}{words['ballot.missed_ok']}")
    stood = [a.stand for a in live.game(code).actions if isinstance(a, Stand) and a.player == me]
    assert stood == [False]  # (what counted: the confirmed "no")

    # the election after it: a name picked and confirmed (not the default, abstaining),
    # then the host ends it: the note of the step before is gone, and nothing new to say
    snap = snapshot(phone)
    assert snap.step == "elect" and has_decision(snap)
    values = [json.loads(v) for v in snap.fields[0]["values"]]
    decide(phone, snap, {snap.fields[0]["field"]: [values.index(next(v for v in values if v))]})
    wait_after_confirm(phone, snap)
    expect(note).to_be_visible()  # (kept through the step after the missed one)
    _next_step(phone, host, "elect")
    expect(note).to_have_count(0)
    host.close()
    tabs.assert_clean()
