"""Quick claims (#18) on a 360x640 phone, in English and Filipino: no player is chosen to
begin with, so no claim about a player can go out before one is chosen (the buttons say
so); a tapped claim is held on the phone with Undo and Send now before it reaches the
table: Undo sends nothing, Send now sends exactly one; no claim's words spill out of its
button ("Pinagkakatiwalaan ko si …"). A COA silenced by Suhol has the same claims on
screen, and a refused one says no more than that."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Locator, expect

from korapsyon.rules.actions import Claim
from korapsyon.rules.roles import Role
from korapsyon.selfplay import table
from tests.server.live import Live, start
from tests.web.harness import Tab, Tabs, api_room, hold, release, tid, wait_for_game
from tests.web.scripted import Seats, catalog, dealt, names_tokens, open_phone, quiet

NAMES = ["Ana", "Maria Clara de los Santos"[:24], *table(9)[1:8]]

OVERFLOWING = """(els) => els.filter((el) => el.scrollWidth > el.clientWidth + 1)
  .map((el) => el.textContent)"""


def _claims_sent(tab: Tab) -> list[dict[str, Any]]:
    acts = [m["action"] for m in tab.acts_sent() if m["type"] == "act"]
    return [a for a in acts if a["action"] == "claim"]


def _targeted(tab: Tab) -> Locator:
    about = "[data-claim*='suspect'], [data-claim*='trust'], [data-claim*='investigation']"
    return tab.page.locator(f"{tid('claim')}:is({about})")


@pytest.mark.parametrize("lang", ["en", "fil"])
def test_a_claim_needs_a_chosen_player_and_can_be_undone(live: Live, tabs: Tabs, lang: str) -> None:
    code, host_token = api_room(live)
    tokens = names_tokens(live, code, NAMES)
    seats = Seats(live, code, host_token, {n: t for n, t in tokens.items() if n != "Ana"})
    ana = open_phone(tabs, code, "Ana", tokens["Ana"], lang=lang)
    start(live, code, host_token)
    wait_for_game(live, code)

    def discussion() -> bool:
        step = live.game(code).step
        return step is not None and step.value == "discussion"

    seats.until(discussion, phones=[ana], end_discussion=False)  # (it stays open)
    expect(ana.el("screen")).to_have_attribute("data-step", "discussion")

    # nobody is chosen: every claim about a player is off, and the phone says why
    expect(ana.el("claim-target")).to_have_value("")
    targeted = _targeted(ana)
    expect(targeted).to_have_count(4)  # suspect, trust, the Ombudsperson's two
    for index in range(4):
        expect(targeted.nth(index)).to_be_disabled()
    expect(ana.el("claim-target-hint")).to_be_visible()
    role_claims = ana.page.locator(f"{tid('claim')}[data-claim*='role']")
    expect(role_claims.first).to_be_enabled()  # (a claim about oneself needs no one)

    long_name = NAMES[1]
    ana.el("claim-target").select_option(long_name)
    expect(ana.el("claim-target-hint")).to_be_hidden()
    for index in range(4):
        expect(targeted.nth(index)).to_be_enabled()
    buttons = ana.page.locator(tid("claim"))
    assert buttons.evaluate_all(OVERFLOWING) == []  # every claim fits its button at 360 px
    assert ana.page.evaluate("document.documentElement.scrollWidth") <= 360

    # a tap holds the claim on the phone: Undo, and nothing went out
    trust = ana.page.locator(f"{tid('claim')}[data-claim*='trust']")
    claim = json.loads(trust.get_attribute("data-claim") or "{}")
    assert claim == {"claim": "trust", "target": long_name}
    trust.click()
    held = ana.el("claim-held")
    expect(held).to_be_visible()
    expect(held).to_contain_text(long_name)
    expect(trust).to_be_disabled()  # one claim at a time: a second tap does nothing
    ana.el("claim-undo").click()
    expect(held).to_have_count(0)
    expect(ana.el("claim-status")).to_have_attribute("data-state", "undone")
    assert _claims_sent(ana) == []
    assert not [a for a in live.game(code).actions if isinstance(a, Claim)]

    # Send now: exactly one claim, the one tapped
    suspect = ana.page.locator(f"{tid('claim')}[data-claim*='suspect']")
    suspect.click()  # (waits for the buttons to come back on after Undo)
    expect(held).to_be_visible()
    ana.el("claim-send-now").click()
    expect(ana.el("claim-status")).to_have_attribute("data-state", "sent")
    expect(ana.el("claim-status")).to_contain_text(long_name)
    sent = _claims_sent(ana)
    assert [{k: v for k, v in a.items() if k != "player"} for a in sent] == [
        {"action": "claim", "claim": "suspect", "target": long_name}
    ]
    claims = [a for a in live.game(code).actions if isinstance(a, Claim)]
    assert [(a.player, a.claim, a.target) for a in claims] == [("Ana", "suspect", long_name)]
    # the next claim about a player chooses again
    expect(ana.el("claim-target")).to_have_value("")
    expect(suspect).to_be_disabled()
    seats.close()
    tabs.assert_clean()


def test_R35_a_silenced_coa_s_screen_looks_like_anyone_s_and_a_refused_claim_says_no_more(
    live: Live, tabs: Tabs
) -> None:
    """Thirteen seats; the three Corrupt steal and pay Suhol in Year 1 (R-25: the Fund is
    3 after the steal), so the COA is silenced for its discussion (R-35). The COA's phone
    offers the same claims as a Citizen's (a missing row of buttons would point at the
    COA); a claim tapped there is not told, and its phone says so under the claims, not
    why (the held card does): no "Suhol" in plain sight, nothing in the status bar."""
    words = catalog("en")
    code, host_token, tokens, roles = dealt(live, table(13))
    coa = next(n for n, r in roles.items() if r is Role.COA)
    citizen = next(n for n, r in roles.items() if r is Role.CITIZEN)
    seats = Seats(
        live, code, host_token, {n: t for n, t in tokens.items() if n not in (coa, citizen)}
    )
    phones = {name: open_phone(tabs, code, name, tokens[name]) for name in (coa, citizen)}

    def policy(name: str, view: dict[str, Any]) -> dict[str, Any] | None:
        """The Corrupt steal and pay Suhol; everything else is the quiet answer."""
        if view["you"]["choices"][0]["action"] != "corrupt":
            return None
        return quiet(name, view) | {"nakaw": True, "suhol": True}

    def discussion() -> bool:
        step = live.game(code).step
        return step is not None and step.value == "discussion"

    seats.until(discussion, policy, phones=list(phones.values()), end_discussion=False)
    assert live.game(code).coa_muted
    for phone in phones.values():  # (the game is there: wait for each page to show it)
        expect(phone.page.locator(tid("claim")).first).to_be_visible()
    shown = {
        name: tab.page.locator(tid("claim")).evaluate_all("(bs) => bs.map((b) => b.dataset.claim)")
        for name, tab in phones.items()
    }
    assert len(shown[coa]) > 0 and len(shown[coa]) == len(shown[citizen])
    tab = phones[coa]
    tab.page.locator(f"{tid('claim')}[data-claim*='audit']").first.click()
    tab.el("claim-send-now").click()
    status = tab.el("claim-status")
    expect(status).to_have_attribute("data-state", "refused")
    assert "Suhol" not in (status.text_content() or "")
    expect(tab.el("error")).to_be_hidden()
    hold(tab, tab.el("role-reveal"))  # the held card says why
    expect(tab.el("muted")).to_have_text(f"🔇 {words['chat.muted']}")
    release(tab)
    assert not [e for e in live.game(code).events if type(e).__name__ == "ClaimMade"]

    # the refused claim's line, and the refused message's, look like a sent claim's: the
    # same colour, weight and size, no warning sign (observed: an orange ⚠ line, readable
    # as "something is wrong with this phone" from across the table)
    other = phones[citizen]
    other.page.locator(f"{tid('claim')}[data-claim*='role']").first.click()
    other.el("claim-send-now").click()
    sent = other.el("claim-status")
    expect(sent).to_have_attribute("data-state", "sent")
    tab.el("chat-input").fill("Walang kickback, promise")
    tab.el("chat-input").press("Enter")
    unsent = tab.el("chat-error")
    expect(unsent).to_have_text(f"✕ {words['chat.not_sent_quiet']}")
    expect(tab.el("chat-input")).to_have_value("Walang kickback, promise")
    look = _look(other, "claim-status")
    assert _look(tab, "claim-status") == look
    assert _look(tab, "chat-error") == look
    assert "⚠" not in (status.text_content() or "") + (unsent.text_content() or "")

    # what became of a claim or a message belongs to its discussion: gone in the next step
    # (the message's line) and in the next Year's discussion (the claim's; observed: Year
    # 2's "Told the table: …" under Year 3's claims)
    seats.host.act({"action": "end_discussion", "player": "@host"})
    expect(tab.el("screen")).not_to_have_attribute("data-step", "discussion")
    expect(unsent).to_be_hidden()

    def next_discussion() -> bool:
        game = live.game(code)
        return game.year == 2 and game.step is not None and game.step.value == "discussion"

    seats.until(next_discussion, phones=list(phones.values()), end_discussion=False, timeout=90)
    for phone in phones.values():
        expect(phone.el("screen")).to_have_attribute("data-step", "discussion")
        expect(phone.page.locator(tid("claim")).first).to_be_visible()
        expect(phone.el("claim-status")).to_have_count(0)
    seats.close()
    tabs.assert_clean()


def _look(tab: Tab, line: str) -> tuple[str, str, str]:
    """How a status line looks from across the table: its colour, weight and size. Found
    and measured in one step on the page: a push that redraws the screen in between (the
    other phone's claim reaches this one) would leave a located element detached, with no
    style (seen with both cores busy)."""
    style = tab.page.wait_for_function(
        """(sel) => {
             const el = document.querySelector(sel);
             if (!el) return null;
             const s = getComputedStyle(el);
             return [s.color, s.fontWeight, s.fontSize];
           }""",
        arg=tid(line),
    ).json_value()
    return (style[0], style[1], style[2])
