"""The Ombudsperson's Witness on a 360x640 phone (R-35), in English and Filipino: the
testimony is anonymous, so nothing reaches the table at the moment of the tap - a tap
followed by the TV's announcement would point at whoever just tapped. The Ombudsperson's
own phone says, inside its closed private fold, that the testimony is in and when the
table will hear it; the table hears it when the host closes the discussion, and the
Witness vote follows, its tally worded in the phone's language. The Witness cannot be
undone: its first tap asks, in place, and only a "Testify" that has been on the screen a
moment sends it."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import WebSocketRoute, expect

from korapsyon.rules.roles import Role
from korapsyon.rules.steps import Step
from korapsyon.selfplay import table
from tests.server.live import Live
from tests.web.harness import (
    Tab,
    Tabs,
    ask_then_confirm,
    decide,
    has_decision,
    option_values,
    relay,
    snapshot,
    tid,
    wait_after_confirm,
)
from tests.web.scripted import Client, Seats, catalog, dealt, open_phone, plain


def _read_until(client: Client, done: Callable[[Client], bool]) -> None:
    """Read the client's frames as they come until ``done`` holds for it."""
    while not done(client):
        client.pump_one()


def _claimed(client: Client) -> bool:
    return any(e["kind"] == "claim_made" for e in client.timeline)


def _heard(client: Client) -> bool:
    """Whether the seat was told of the testimony."""
    told = any(e["kind"] == "witness_testimony" for e in client.timeline)
    return told or (client.state or {}).get("witness") is not None


def _deal(live: Live) -> tuple[str, dict[str, str], str, str, Seats]:
    """A 9-seat game begun: its code, the seats' tokens, the Ombudsperson (the browser's
    seat), a Corrupt Politician, and the test's seats (everyone but the Ombudsperson)."""
    code, host_token, tokens, roles = dealt(live, table(9))
    omb = next(n for n, r in roles.items() if r is Role.OMBUDSPERSON)
    corrupt = next(n for n, r in roles.items() if r is Role.CORRUPT_POLITICIAN)
    seats = Seats(live, code, host_token, {n: t for n, t in tokens.items() if n != omb})
    return code, tokens, omb, corrupt, seats


def _to_the_discussion(live: Live, code: str, seats: Seats, phone: Tab, corrupt: str) -> None:
    """The night: the Ombudsperson investigates ``corrupt`` through the page (R-22); then
    the Year goes on to its discussion, which the host leaves open. Another of the test's
    seats stands and is elected (a President drawn by lots could be ``corrupt``, whom the
    Witness could not name, R-35)."""
    candidate = next(n for n in seats.seats if n != corrupt)

    def policy(name: str, view: dict[str, Any]) -> dict[str, Any] | None:
        choice = view["you"]["choices"][0]
        if choice["action"] == "stand":
            return {"action": "stand", "player": name, "stand": name == candidate}
        if choice["action"] == "elect":
            field = next(iter(choice["options"]))
            return {"action": "elect", "player": name, field: candidate}
        return None

    seats.until(lambda: has_decision(snapshot(phone)))
    night = snapshot(phone)
    assert night.night
    decide(phone, night, {"target": [option_values(night, 0).index(corrupt)]})
    wait_after_confirm(phone, night)
    phone.done.add((night.year, night.step))

    def discussion() -> bool:
        step = live.game(code).step
        return step is not None and step.value == "discussion"

    seats.until(discussion, policy, phones=[phone], end_discussion=False)
    assert live.game(code).president == live.game(code).seat(candidate)


@pytest.mark.parametrize("lang", ["en", "fil"])
def test_R35_the_table_hears_a_witness_when_the_discussion_closes_not_at_the_tap(
    live: Live, tabs: Tabs, lang: str
) -> None:
    words = catalog(lang)
    code, tokens, omb, corrupt, seats = _deal(live)
    phone = open_phone(tabs, code, omb, tokens[omb], lang=lang)

    _to_the_discussion(live, code, seats, phone, corrupt)
    fold = phone.page.locator("details.private-fold")
    expect(fold).not_to_have_attribute("open", "")  # closed: nothing stands out
    fold.locator("summary").click()
    phone.el("confirm").click()  # "Testify (anonymously)": the Witness, asked
    phone.el("witness-yes").click()  # (once it takes taps)
    said = phone.el("testified")
    expect(said).to_be_visible()
    wanted = words["discussion.testified"].replace("{name}", corrupt)
    assert plain(said.text_content()) == wanted
    said.evaluate('(el) => el.closest("details").scrollIntoView()')
    phone.page.screenshot(path=f"/tmp/witness-{lang}.png")

    # Anything sent after the tap reaches the table after anything the tap caused.
    speaker, listener = [n for n in seats.seats if n != corrupt][:2]
    claim = {"action": "claim", "player": speaker, "claim": "suspect", "target": corrupt}
    seats.seats[speaker].act(claim)
    client = seats.seats[listener]
    _read_until(client, _claimed)
    assert not _heard(client)  # the tap told the table nothing

    seats.host.act({"action": "end_discussion", "player": "@host"})
    _read_until(client, _heard)
    assert client.state is not None and client.state["witness"] == corrupt
    expect(phone.el("screen")).to_have_attribute("data-step", "witness_vote")
    expect(phone.el("testified")).to_have_count(0)
    expect(phone.page.locator(tid("choice-panel"))).to_contain_text(corrupt)

    # The Witness vote's tally counts yes and no, in the phone's language.
    seats.until(lambda: live.game(code).step is not Step.WITNESS_VOTE, phones=[phone])
    entry = phone.page.locator(f"{tid('timeline-entry')}[data-kind='vote_tally']").first
    tally = plain(entry.text_content())
    assert words["tl.vote.witness_vote"] in tally, tally
    assert words["tl.vote_tally.no"] in tally and words["tl.vote_tally.yes"] in tally, tally
    if lang != "en":
        assert not re.search(r"\b(yes|no)\b", tally), tally
    listed = phone.page.evaluate(  # names as a sentence says them (a runoff, a committee)
        "async () => (await import('/static/js/words.js')).nameList(['Ana', 'Ben', 'Cris'])"
    )
    assert plain(listed) == ("Ana, Ben, and Cris" if lang == "en" else "Ana, Ben, at Cris")
    first = phone.page.locator(f"{tid('timeline-entry')}[data-year='0']").first
    assert not (first.text_content() or "").startswith(words["year.short"].format(year=0))
    seats.close()
    tabs.assert_clean()


@pytest.mark.parametrize(("lang", "size"), [("fil", (360, 640)), ("en", (390, 844))])
def test_R35_the_witness_asks_first_and_a_double_tap_sends_nothing(
    live: Live, tabs: Tabs, lang: str, size: tuple[int, int]
) -> None:
    """One tap on "Testify" asks "Testify against Jovito? Once per game." in the fold, with
    "Not now" and a "Testify" that takes taps only 0.7 s after it appears (the page's clock
    is the test's: no waiting): a double tap, a tap on "Testify" as it appears and "Not
    now" send nothing, and the armed "Testify" sends exactly one act. There is nothing to
    choose, so no "make your choice, then confirm" line."""
    words = catalog(lang)
    code, tokens, omb, corrupt, seats = _deal(live)
    sent: list[dict[str, Any]] = []

    def up(ws: WebSocketRoute, message: dict[str, Any], raw: str | bytes) -> str | bytes:
        if message.get("type") == "act" and message["action"]["action"] == "witness":
            sent.append(message["action"])
        return raw

    phone = tabs.open(omb, storage={f"korapsyon:{code}": {"token": tokens[omb], "name": omb}})
    phone.context.add_init_script(
        f"localStorage.setItem('korapsyon:lang:play', {json.dumps(lang)});"
    )
    phone.page.set_viewport_size({"width": size[0], "height": size[1]})
    relay(phone, up=up)
    page = phone.page
    page.clock.install()
    page.goto(f"/play?room={code}")

    _to_the_discussion(live, code, seats, phone, corrupt)
    page.locator("details.private-fold summary").click()
    panel = phone.el("choice-panel")
    expect(panel).to_have_attribute("data-action", "witness")
    expect(panel.locator(tid("ballot-status"))).to_have_count(0)  # nothing to choose
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)  # (the page's time stands still)

    # a double tap on "Testify (anonymously)": asked, nothing sent
    phone.el("confirm").scroll_into_view_if_needed()
    box = phone.el("confirm").bounding_box()
    assert box is not None
    page.mouse.dblclick(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ask = phone.el("witness-ask")
    expect(ask).to_be_visible()
    question = words["discussion.witness_ask"].replace("{name}", corrupt)
    assert plain(ask.locator("p").text_content()) == question
    yes = phone.el("witness-yes")
    expect(yes).to_have_text(words["discussion.witness_yes"])
    expect(yes).to_be_disabled()  # (not yet armed: the clock stands still)
    yes.click(force=True)  # a quick tap as it appears
    expect(phone.el("witness-not-now")).to_have_text(words["discussion.witness_not_now"])
    page.screenshot(path=f"/tmp/witness-ask-{lang}.png")
    assert sent == []

    # "Not now": back as it was, nothing sent
    phone.el("witness-not-now").click()
    expect(ask).to_have_count(0)
    expect(phone.el("confirm")).to_be_enabled()
    expect(phone.el("testified")).to_have_count(0)

    # asked again, and "Testify" once it takes taps: exactly one act
    ask_then_confirm(phone, phone.el("confirm"), "witness-not-now", "witness-yes")
    expect(phone.el("testified")).to_be_visible()
    assert sent == [{"action": "witness", "player": omb}]
    assert live.game(code).witness_used
    seats.close()
    tabs.assert_clean()
