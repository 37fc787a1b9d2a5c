"""The pause between a Year's end and the next night, and barred choices that say why
(#18), on 360x640 phones: when Year 2's night falls, a Lawyer's phone and a Citizen's are
covered by the same account of the Year's end (the jail vote and its result), with the
night's countdown (R-72), until tapped on (R-70; the jailed player's phone says they sit
the night out); then each taps its own name, which the rules refuse tonight (R-21: the
Lawyer protected themself last Year; a decoy's note is about someone else): both phones
show the same neutral line in the same place, and only the held card says why, under
the countdown."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from korapsyon.rules.roles import Role
from korapsyon.selfplay import table
from tests.server.live import Live, start
from tests.web.harness import (
    FAST,
    HOUR_TIMERS,
    Tab,
    Tabs,
    api_room,
    confirm_button,
    dismiss_nightfall,
    hold,
    release,
    roles_of,
    snapshot,
    wait_after_confirm,
    wait_for_game,
)
from tests.web.scripted import Seats, catalog, names_tokens, open_phone, plain

NAMES = table(9)


def _grid_option(tab: Tab, name: str | None) -> Any:
    grid = tab.el("night-screen").locator('[data-testid="field"]').first
    return grid.locator(f"[data-testid='option'][data-value='{json.dumps(name)}']")


def test_R21_R70_the_night_falls_alike_and_a_refused_name_says_why_in_the_card(
    live: Live, tabs: Tabs
) -> None:
    words = catalog("en")
    code, host_token = api_room(live, FAST | HOUR_TIMERS)
    tokens = names_tokens(live, code, NAMES)
    start(live, code, host_token)
    wait_for_game(live, code)
    roles = roles_of(live.game(code))
    lawyer = next(n for n, r in roles.items() if r is Role.LAWYER)
    citizen = next(n for n, r in roles.items() if r is Role.CITIZEN)
    victim = next(n for n, r in roles.items() if r is Role.GOOD_POLITICIAN)  # (jailed)
    mine = (lawyer, citizen, victim)
    seats = Seats(live, code, host_token, {n: t for n, t in tokens.items() if n not in mine})
    phones = {name: open_phone(tabs, code, name, tokens[name]) for name in (lawyer, citizen)}
    out = open_phone(tabs, code, victim, tokens[victim])
    for tab in (*phones.values(), out):
        expect(tab.el("night-screen")).to_be_visible()
        expect(tab.el("nightfall")).to_have_count(0)  # not before the first night

    # Year 1: the Lawyer protects themself, the Citizen names nobody
    law = phones[lawyer]
    _grid_option(law, lawyer).click()
    for tab in (*phones.values(), out):
        before = snapshot(tab)
        confirm_button(tab).click()
        wait_after_confirm(tab, before)

    jailed = [victim]

    candidate = next(iter(seats.seats))

    def policy(name: str, view: dict[str, Any]) -> dict[str, Any] | None:
        """The test's seats jail the third phone's player (R-36), having elected one of
        their own (by lots the victim could be President, whom no vote jails, R-33)."""
        choice = view["you"]["choices"][0]
        if choice["action"] == "stand":
            return {"action": "stand", "player": name, "stand": name == candidate}
        if choice["action"] == "elect":
            return {"action": "elect", "player": name, next(iter(choice["options"])): candidate}
        if choice["action"] != "jail_vote":
            return None
        return {"action": "jail_vote", "player": name, "target": victim}

    def year_two() -> bool:
        game = live.game(code)
        return game.year == 2 and game.step is not None and game.step.value == "hidden"

    seats.until(year_two, policy, phones=[*phones.values(), out], timeout=60)
    assert live.game(code).status[live.game(code).seat(victim)].value == "suspended"
    # the jailed player's pause says they sit the night out (public: the jail vote was)
    expect(out.el("nightfall")).to_be_visible()
    night = words["nightfall.next_out"].replace("{year}", "2")
    expect(out.el("nightfall-next")).to_have_text(f"🌙 {night}")

    # the pause: the same account on both phones, until each is tapped on
    covers = []
    for tab in phones.values():
        cover = tab.el("nightfall")
        expect(cover).to_be_visible()
        expect(cover).to_have_attribute("data-year", "2")
        news = tab.el("nightfall-news").locator("li")
        expect(news.and_(tab.page.locator("[data-kind='player_jailed']"))).to_have_count(1)
        expect(tab.el("nightfall-news")).to_contain_text(jailed[0])
        night = words["nightfall.next"].replace("{year}", "2")
        expect(tab.el("nightfall-next")).to_have_text(f"🌙 {night}")
        # the night's countdown, which the cover hides in the status bar: an hour
        expect(tab.el("nightfall-timer")).to_have_text(re.compile(r"^⏱ \d+:\d\d$"))
        assert int(tab.el("nightfall-timer").get_attribute("data-remaining") or 0) > 3000
        text = re.sub(r"⏱ \d+:\d\d", "⏱", plain(cover.text_content()))
        covers.append((text, cover.locator(".overlay-box").bounding_box()))
    assert covers[0] == covers[1]  # word for word, box for box
    for tab in phones.values():
        tab.el("nightfall-continue").click()
        expect(tab.el("nightfall")).to_have_count(0)
        expect(tab.el("night-screen")).to_be_visible()

    # each taps its own name: refused tonight, the same neutral line on both phones
    notes = []
    for name, tab in phones.items():
        mine = _grid_option(tab, name)
        expect(mine).to_have_attribute("aria-disabled", "true")
        mine.click(force=True)  # (a finger taps it: Playwright would wait for "enabled")
        note = tab.el("barred-note")
        expect(note).to_be_visible()
        expect(note).to_have_text(f"✋ {words['night.barred']}")
        expect(mine).to_have_attribute("aria-pressed", "false")
        expect(_grid_option(tab, None)).to_have_attribute("aria-pressed", "true")
        notes.append((note.bounding_box(), confirm_button(tab).bounding_box()))
    assert notes[0] == notes[1]

    # only the held card says why (R-21; a decoy's note is about someone else)
    hold(law, law.el("role-reveal"))
    # (the held card covers the status bar: it has the night's countdown itself, R-72)
    expect(law.el("card-timer")).to_be_in_viewport()
    expect(law.el("card-timer")).to_have_text(re.compile(r"^⏱ \d+:\d\d$"))
    reason = law.el("barred-reasons").locator(f"li[data-name='{lawyer}']")
    expect(reason).to_have_text(f"✋ {words['night.barred.protect_self']}")
    expect(law.el("last-protected")).to_have_text(words["result.last_protected_self"])
    release(law)
    other = phones[citizen]
    hold(other, other.el("role-reveal"))
    reason = other.el("barred-reasons").locator(f"li[data-name='{citizen}']")
    expect(reason).to_have_text(f"✋ {words['night.barred.note_self']}")
    release(other)

    # a name the rules allow takes the note away
    _grid_option(law, citizen).click()
    expect(law.el("barred-note")).to_be_hidden()
    expect(_grid_option(law, citizen)).to_have_attribute("aria-pressed", "true")

    # by day, the jailed player is told they sit it out, in the discussion too (the bar's
    # "talk it over" is the table's; their phone said nothing of the jail)
    def discussion() -> bool:
        step = live.game(code).step
        return step is not None and step.value == "discussion"

    seats.until(discussion, policy, phones=list(phones.values()), end_discussion=False)
    dismiss_nightfall(out)
    back = live.game(code).returns_year[live.game(code).seat(victim)]
    away = words["phone.suspended"].replace("{year}", str(back))
    expect(out.el("sitting-out")).to_have_text(away)
    seats.close()
    tabs.assert_clean()


TABLE = table(13)


@pytest.mark.parametrize(("lang", "size"), [("fil", (360, 640)), ("en", (390, 844))])
def test_the_pause_opens_at_its_top_with_the_jailing_and_the_bots_counted_after(
    live: Live, tabs: Tabs, lang: str, size: tuple[int, int]
) -> None:
    """A 13-seat game on a phone where the host handed five seats to bots:
    when Night 2 falls, the pause opens at its top, its title and the jailing in sight;
    the five hand-overs are one folded line ("5 seats handed to bots") after the
    news, each notice inside, and "On to the night" is on the screen all along."""
    words = catalog(lang)
    code, host_token = api_room(live, {**FAST, "auto_stand_in": False})
    tokens = names_tokens(live, code, TABLE)
    me, away, people = TABLE[0], TABLE[1:6], TABLE[6:]
    start(live, code, host_token)
    wait_for_game(live, code)
    seats = Seats(live, code, host_token, {n: tokens[n] for n in people})
    phone = open_phone(tabs, code, me, tokens[me], lang=lang, size=size)
    expect(phone.el("night-screen")).to_be_visible()
    for name in away:  # (their phones never came: away, R-72's stand-ins)
        seats.host._request({"type": "stand_in", "player": name})

    def policy(name: str, view: dict[str, Any]) -> dict[str, Any] | None:
        """The test's seats all jail one of their own who is not the President (R-33)."""
        choice = view["you"]["choices"][0]
        if choice["action"] != "jail_vote":
            return None
        president = (view.get("president") or {}).get("name")
        victim = next(n for n in people if n != president and n in choice["options"]["target"])
        return {"action": "jail_vote", "player": name, "target": victim}

    def year_two() -> bool:
        game = live.game(code)
        return game.year == 2 and game.step is not None and game.step.value == "hidden"

    seats.until(year_two, policy, phones=[phone], timeout=60)
    cover = phone.el("nightfall")
    expect(cover).to_be_visible()
    title = phone.page.locator("#nightfall-title")
    expect(title).to_have_text(words["nightfall.year_ended"].replace("{year}", "1"))
    jailed = phone.el("nightfall-news").locator("li[data-kind='player_jailed']").first
    # opened at its top: the title and who was jailed in sight, on the first look
    expect(title).to_be_in_viewport(ratio=1)
    expect(jailed).to_be_in_viewport(ratio=1)
    assert cover.evaluate("(el) => el.scrollTop") == 0
    expect(phone.el("nightfall-continue")).to_be_in_viewport(ratio=1)
    # the hand-overs: one folded line after the news, each notice inside
    fold = phone.el("nightfall-seats")
    expect(fold).not_to_have_attribute("open", "")
    summary = words["nightfall.seats_handed_many"].replace("{n}", "5")
    expect(fold.locator("summary")).to_have_text(f"🤖 {summary}")
    assert fold.evaluate(
        "(el) => el.compareDocumentPosition(document.querySelector("
        "'[data-testid=\"nightfall-news\"]')) & Node.DOCUMENT_POSITION_PRECEDING"
    )
    expect(phone.el("nightfall-news").locator("li[data-kind='notice']")).to_have_count(0)
    phone.page.screenshot(path=f"/tmp/nightfall-{lang}-13.png")
    fold.locator("summary").click()
    expect(fold.locator("li")).to_have_count(5)
    for name in away:
        expect(fold).to_contain_text(name)
    fold.locator("li").last.scroll_into_view_if_needed()
    expect(phone.el("nightfall-continue")).to_be_in_viewport(ratio=1)
    cover.evaluate("(el) => el.scrollTo(0, 0)")  # (the news taller than the screen now)
    expect(title).to_be_in_viewport(ratio=1)
    expect(phone.el("nightfall-continue")).to_be_in_viewport(ratio=1)  # (kept at the foot)
    phone.page.screenshot(path=f"/tmp/nightfall-{lang}-13-open.png")
    phone.el("nightfall-continue").click()
    expect(cover).to_have_count(0)
    seats.close()
    tabs.assert_clean()
