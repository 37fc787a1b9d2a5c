"""R-72 with the human moderator's controls (R-71) in a real browser: the step's timer
shows on the grimoire and the phones, pauses, resumes and extends for everyone, and
ending the step gives whoever has not decided the default; in a step's last seconds a
phone that has not confirmed is told that what is not confirmed does not count."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import WebSocketRoute, expect

from korapsyon.rules.steps import Step
from korapsyon.selfplay import table
from tests.server.live import Live, add_bots, start
from tests.web.harness import (
    FAST,
    HOUR_TIMERS,
    Tab,
    Tabs,
    api_room,
    api_seat,
    relay,
    tid,
    wait_for_game,
)
from tests.web.scripted import Seats, catalog, names_tokens


def test_R72_the_moderator_pauses_extends_and_ends_the_step(live: Live, tabs: Tabs) -> None:
    """A ten-minute Hidden Phase: pause and resume show on the phone too, +30 s adds
    time, and ending the step now submits the phone's default (R-72: nobody / ready,
    marked auto) so the Year goes on."""
    settings = {
        "bot_delay": [0.0, 0.05],
        "timers": True,
        "moderator": "human",
        "durations": {"hidden": 600},
    }
    with live.http() as http:
        created = http.post("/api/rooms", json={"settings": settings})
        created.raise_for_status()
        body = created.json()
        code, host_token = body["code"], body["host_token"]
        ticket = http.post(f"/api/rooms/{code}/seats", json={"name": "Zenaida"}).json()
    add_bots(live, code, host_token, 8)
    stored = {"host_token": host_token, "moderator_token": body["moderator_token"]}
    grimoire = tabs.open(
        "moderator", f"/moderator?room={code}", phone=False, storage={f"korapsyon:{code}": stored}
    )
    seat = {"token": ticket["token"], "name": ticket["name"]}
    phone = tabs.open("Zenaida", f"/play?room={code}", storage={f"korapsyon:{code}": seat})
    start(live, code, host_token)
    wait_for_game(live, code)

    clock = grimoire.el("board-timer")
    expect(clock).to_be_visible()
    expect(clock).to_have_attribute("data-paused", "false")
    expect(phone.el("timer")).to_be_visible()
    assert int(clock.get_attribute("data-remaining") or 0) > 500

    grimoire.el("timer-pause").click()
    expect(clock).to_have_attribute("data-paused", "true")
    expect(phone.el("timer")).to_have_attribute("data-paused", "true")
    before = int(clock.get_attribute("data-remaining") or 0)
    grimoire.el("timer-extend").click()
    expect(clock).to_have_attribute("data-remaining", str(before + 30))
    grimoire.el("timer-resume").click()
    expect(clock).to_have_attribute("data-paused", "false")
    expect(phone.el("timer")).to_have_attribute("data-paused", "false")

    expect(phone.el("night-screen")).to_be_visible()
    grimoire.el("timer-end").click()  # asks once, "keep going" first
    expect(grimoire.el("confirm-end")).to_be_visible()
    grimoire.el("keep-going").click()
    expect(grimoire.el("confirm-end")).to_have_count(0)
    expect(phone.el("night-screen")).to_be_visible()
    grimoire.el("timer-end").click()
    grimoire.el("end-now").click()
    expect(phone.el("screen")).not_to_have_attribute("data-step", "hidden")
    for tab in (phone, grimoire):  # the table is told the night was ended early, and by whom
        expect(tab.el("timeline")).to_contain_text("The moderator ended the night early")
    game = live.game(code)
    assert game.step is not Step.HIDDEN
    night = [a for a in game.actions if a.player == "Zenaida"]
    assert len(night) == 1 and night[0].auto  # the default, marked auto
    tabs.assert_clean()


def _last_seconds(
    ws: WebSocketRoute, data: dict[str, Any], message: str | bytes
) -> str | bytes | None:
    """Every running timer the page is sent has 8 seconds left (the server's night has
    minutes: nothing runs out meanwhile)."""
    timer = data.get("timer")
    if isinstance(timer, dict) and not timer.get("paused"):
        timer["deadline"] = data["now"] + 8
        return json.dumps(data)
    return message


def test_R72_in_a_steps_last_seconds_an_unconfirmed_choice_is_said_not_to_count(
    live: Live, tabs: Tabs
) -> None:
    """The night's clock shows its last ten seconds: a phone that has not confirmed is
    told to, since what is not confirmed does not count (R-72: the default)."""
    words = catalog("en")
    code, host_token = api_room(live, FAST | {"timers": True, "durations": {"hidden": 600}})
    seat = api_seat(live, code, "Zenaida")
    phone = tabs.open("Zenaida", storage={f"korapsyon:{code}": seat})
    relay(phone, down=_last_seconds)
    phone.page.goto(f"/play?room={code}")
    add_bots(live, code, host_token, 8)
    start(live, code, host_token)
    wait_for_game(live, code)
    status = phone.el("ballot-status")
    expect(status).to_have_attribute("data-state", "choosing")
    expect(phone.el("timer")).to_have_class(re.compile(r"\burgent\b"))
    after = "(el) => getComputedStyle(el, '::after').content"
    assert words["ballot.hurry"] in status.evaluate(after)
    tabs.assert_clean()


UNCOVERED = """(el) => {
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2;
  const at = (y) => {
    const hit = document.elementFromPoint(x, y);
    const on = hit ? `${hit.tagName}.${hit.className}` : null;
    return { y, hit: !!hit && el.contains(hit), on };
  };
  const centre = at(r.top + r.height / 2);
  return { centre, foot: at(r.bottom - 1), inside: r.top >= 0 && r.bottom <= innerHeight };
}"""
"""Whether taps at ``el``'s centre and at its foot reach it (nothing over them), and
whether it is on the screen."""


def _first_choice_is_uncovered(phone: Tab, where: str, shot: str) -> None:
    """While the line "Confirm now" shows, the first choice is on the screen and a tap on
    its centre reaches it."""
    status = phone.el("ballot-status")
    expect(status).to_have_attribute("data-state", "choosing")
    expect(phone.el("timer")).to_have_class(re.compile(r"\burgent\b"))
    hurry = status.get_attribute("data-hurry") or ""
    assert hurry in status.evaluate("(el) => getComputedStyle(el, '::after').content")
    first = phone.el("choice-panel").locator(tid("option")).first
    found = first.evaluate(UNCOVERED)
    phone.page.screenshot(path=shot)
    assert found["inside"] and found["centre"]["hit"], f"{phone.label}, {where}: {found} ({shot})"
    assert found["foot"]["hit"], f"{phone.label}, {where}: its foot is covered: {found} ({shot})"


@pytest.mark.parametrize("lang", ["fil", "en"])
def test_R72_the_last_seconds_line_covers_no_choice_on_a_small_phone(
    live: Live, tabs: Tabs, lang: str, tmp_path: Path
) -> None:
    """On a 360x640 phone, in a step's last ten seconds the line telling an unconfirmed
    ballot to confirm (R-72) takes room of its own: the night's first choice, and a day
    ballot's, stay on the screen and a tap reaches them (it hid the night's first row)."""
    names = table(9)
    code, host_token = api_room(live, FAST | HOUR_TIMERS)
    tokens = names_tokens(live, code, names)
    me = names[0]
    seats = Seats(live, code, host_token, {n: t for n, t in tokens.items() if n != me})
    phone = tabs.open(me, storage={f"korapsyon:{code}": {"token": tokens[me], "name": me}})
    phone.context.add_init_script(f"localStorage.setItem('korapsyon:lang:play', '{lang}');")
    phone.page.set_viewport_size({"width": 360, "height": 640})
    relay(phone, down=_last_seconds)
    phone.page.goto(f"/play?room={code}")
    start(live, code, host_token)
    wait_for_game(live, code)
    expect(phone.el("night-screen")).to_be_visible()
    _first_choice_is_uncovered(phone, "the night", str(tmp_path / f"night-{lang}.png"))
    seats.until(lambda: live.game(code).step is Step.STAND, phones=[phone])
    expect(phone.el("screen")).to_have_attribute("data-step", "stand")
    _first_choice_is_uncovered(phone, "the stand ballot", str(tmp_path / f"stand-{lang}.png"))
    # nothing chosen yet (Confirm disabled): told to choose, then, once chosen, to confirm
    words, status = catalog(lang), phone.el("ballot-status")
    expect(phone.el("confirm")).to_be_disabled()
    expect(status).to_have_attribute("data-hurry", words["ballot.hurry_choose"])
    phone.el("choice-panel").locator(tid("option")).first.click()
    expect(phone.el("confirm")).to_be_enabled()
    expect(status).to_have_attribute("data-hurry", words["ballot.hurry"])
    seats.close()
    tabs.assert_clean()
