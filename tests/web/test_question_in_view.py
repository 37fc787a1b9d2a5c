"""A new decision shows its question (#18): a player who scrolled down the night's grid
to confirm, on a 360x640 phone in Filipino, meets the next day's ballot (R-30: stand for
President) with its question on the screen, under the sticky status bar, not the answer
buttons alone."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.server.live import Live, add_bots, start
from tests.web.harness import (
    FAST,
    Tabs,
    api_room,
    decide,
    snapshot,
    wait_after_confirm,
    wait_for_game,
)
from tests.web.scripted import names_tokens, open_phone

QUESTION_SHOWN = """() => {
  const prompt = document.getElementById('choice-prompt');
  const bar = document.querySelector('[data-testid="status-bar"]');
  if (!prompt || !bar) return null;
  const top = prompt.getBoundingClientRect().top;
  return top >= bar.getBoundingClientRect().bottom && top < innerHeight;
}"""


def test_R30_the_next_ballot_opens_at_its_question(live: Live, tabs: Tabs) -> None:
    code, host_token = api_room(live, FAST)
    tokens = names_tokens(live, code, ["Maria"])
    add_bots(live, code, host_token, 8)
    start(live, code, host_token)
    wait_for_game(live, code)
    phone = open_phone(tabs, code, "Maria", tokens["Maria"], lang="fil")
    expect(phone.el("night-screen")).to_be_visible()
    # down the night's grid, then the one tap on confirm the quiet choice needs
    phone.page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert phone.page.evaluate("scrollY") > 0  # (the page is longer than the screen)
    night = snapshot(phone)
    decide(phone, night, {})
    wait_after_confirm(phone, night)

    expect(phone.el("screen")).to_have_attribute("data-step", "stand")
    expect(phone.el("screen")).to_have_attribute("data-to-act", "true")
    assert phone.page.evaluate(QUESTION_SHOWN) is True
