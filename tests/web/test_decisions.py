"""Decisions that say what they decide (#18), on a 360x640 phone, in English and Filipino:
every day ballot names its subject (the office and its term, R-33; the project's card by
name, its cost and what passing or failing does, R-34; who cannot be jailed, R-36), card
names are never codes nor broken mid-word, and a player who is asked nothing is told who
is deciding what."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from korapsyon.rules.actions import Elect
from korapsyon.rules.cards import CARDS
from korapsyon.selfplay import table
from tests.server.live import Live, start
from tests.web.harness import (
    Tab,
    Tabs,
    api_room,
    confirm_button,
    snapshot,
    tid,
    wait_after_confirm,
    wait_for_game,
)
from tests.web.scripted import Seats, catalog, names_tokens, open_phone, plain

NAMES = table(9)  # Ana and Ben on phones, the others played by the test
TERM = "1\N{EN DASH}2"  # Years 1 to 2

BROKEN_WORDS = """(el) => {
  // the words of el's text that the browser split over two lines (two rectangles)
  const broken = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}"""


def _step(live: Live, code: str) -> str | None:
    step = live.game(code).step
    return None if step is None else step.value


def _policy(name: str, view: dict[str, Any]) -> dict[str, Any] | None:
    """The test's seats: nobody stands, all elect Ana, the committee supports."""
    action = view["you"]["choices"][0]["action"]
    if action == "elect":
        return {"action": "elect", "player": name, "candidate": "Ana"}
    if action == "committee_vote":
        return {"action": "committee_vote", "player": name, "support": True}
    return None


def _choose(tab: Tab, value: Any) -> None:
    panel = tab.el("choice-panel")
    panel.locator(f"{tid('option')}[data-value='{json.dumps(value)}']").click()


def _confirm(tab: Tab) -> None:
    """Confirm, and wait until the page shows the ballot sent (or the game moved on)."""
    before = snapshot(tab)
    confirm_button(tab).click()
    wait_after_confirm(tab, before)


@pytest.mark.parametrize("lang", ["en", "fil"])
def test_R33_R34_R36_every_ballot_names_what_it_decides(live: Live, tabs: Tabs, lang: str) -> None:
    """Ana stands and is elected (R-33): the stand and elect ballots name the office's
    Years; as President she picks a project among cards shown by name (never a code, no
    name broken mid-word at 360 px) and names a committee for it, on which she then votes:
    her committee ballot names the card, its cost and what passing and failing do (R-34).
    Ben, not asked, is told who is deciding what; at the jail vote both ballots say the
    President cannot be jailed (R-33, R-36). A name tapped after voting is not taken for
    the vote: the ballot says it is not sent."""
    words = catalog(lang)
    code, host_token = api_room(live)
    tokens = names_tokens(live, code, NAMES)
    others = {n: t for n, t in tokens.items() if n not in ("Ana", "Ben")}
    seats = Seats(live, code, host_token, others)
    ana, ben = (open_phone(tabs, code, n, tokens[n], lang=lang) for n in ("Ana", "Ben"))
    start(live, code, host_token)
    wait_for_game(live, code)
    for tab in (ana, ben):  # the night: one tap each
        expect(tab.el("night-screen")).to_be_visible()
        _confirm(tab)

    seats.until(lambda: _step(live, code) == "stand", _policy)
    term = words["prompt.stand"].replace("{term}", TERM)
    for tab, stand in ((ana, True), (ben, False)):
        expect(tab.el("screen")).to_have_attribute("data-step", "stand")
        assert plain(tab.page.locator("#choice-prompt").text_content()) == term
        expect(tab.el("ballot-subject")).to_contain_text(words["about.president"])
        _choose(tab, stand)
        _confirm(tab)

    seats.until(lambda: _step(live, code) == "elect", _policy)
    for tab in (ana, ben):
        expect(tab.el("screen")).to_have_attribute("data-step", "elect")
        assert plain(tab.page.locator("#choice-prompt").text_content()) == words[
            "prompt.elect"
        ].replace("{term}", TERM)
        _choose(tab, "Ana")
        _confirm(tab)
    # Ben taps another answer after voting (abstain): his phone says it is not sent and
    # that the vote confirmed still counts, until he sends it or taps back
    status = ben.el("ballot-status")
    expect(status).to_have_attribute("data-state", "waiting")
    _choose(ben, None)
    expect(status).to_have_attribute("data-state", "unsent")
    expect(status).to_contain_text(words["ballot.unsent"])
    voted = ben.el("choice-panel").locator(f"{tid('option')}[data-value='\"Ana\"']")
    expect(voted).to_have_attribute("data-counted", words["ballot.counted"])  # (in the grid)
    expect(confirm_button(ben)).to_be_enabled()
    game = live.game(code)
    counted = game.pending[game.seat("Ben")]
    assert isinstance(counted, Elect) and counted.candidate == "Ana"  # (what counts)
    _choose(ben, "Ana")
    expect(status).to_have_attribute("data-state", "waiting")
    expect(voted).not_to_have_attribute("data-counted", words["ballot.counted"])

    seats.until(lambda: _step(live, code) == "pick_project", _policy)
    offered = list(live.game(code).offered or ())
    names = {card: words[f"card.name.{card}"] for card in offered}
    expect(ana.el("screen")).to_have_attribute("data-step", "pick_project")
    cards = ana.el("choice-panel").locator(tid("option"))
    expect(cards).to_have_count(2)
    for index, card in enumerate(offered):
        text = plain(cards.nth(index).text_content())
        assert names[card] in text and card not in text.split()  # a name, never a code
        assert words["card.cost"].replace("{cost}", str(CARDS[card].cost)) in text
        assert cards.nth(index).locator(".card-name").evaluate(BROKEN_WORDS) == []
    waiting = ben.el("waiting-for")  # Ben is asked nothing: he is told who decides what
    expect(waiting).to_have_attribute("data-step", "pick_project")
    for part in ("Ana", *names.values()):
        expect(waiting).to_contain_text(part)

    card = offered[0]
    _choose(ana, card)
    _confirm(ana)
    expect(ana.el("screen")).to_have_attribute("data-step", "pick_committee")
    size = live.game(code).committee_size
    assert names[card] in plain(ana.page.locator("#choice-prompt").text_content())
    expect(ana.el("ballot-subject")).to_have_attribute("data-card", card)
    expect(ben.el("waiting-for")).to_have_attribute("data-step", "pick_committee")
    expect(ben.el("waiting-for")).to_contain_text(names[card])
    members = ["Ana", *(n for n in NAMES if n not in ("Ana", "Ben"))][:size]  # not Ben
    for member in members:
        _choose(ana, member)
    # one more than the card's committee: nobody is taken, and the phone says how to change
    picked = ana.el("picked")
    _choose(ana, "Ben")
    full = words["choice.full"].replace("{of}", str(size))
    expect(picked).to_have_text(full)
    expect(ana.page.locator(f"{tid('option')}[aria-pressed='true']")).to_have_count(size)
    _choose(ana, members[-1])  # taken off: back to the count
    expect(picked).not_to_have_text(full)
    _choose(ana, members[-1])
    _confirm(ana)

    expect(ana.el("screen")).to_have_attribute("data-step", "committee_vote")
    prompt = plain(ana.page.locator("#choice-prompt").text_content())
    assert prompt == words["prompt.committee_vote"].replace("{card}", names[card])
    subject = ana.el("ballot-subject")
    expect(subject).to_have_attribute("data-card", card)
    cost = CARDS[card].cost
    expect(subject).to_contain_text(names[card])
    expect(subject).to_contain_text(words["card.cost"].replace("{cost}", str(cost)))
    passes = words["about.passes"].split("{cost}")[0] + str(cost)  # "... +2"
    assert passes in plain(subject.text_content())
    expect(subject).to_contain_text(words["about.fails"])
    assert subject.locator(".card-name").evaluate(BROKEN_WORDS) == []
    waiting = ben.el("waiting-for")  # Ben is not on the committee: who votes on what
    expect(waiting).to_have_attribute("data-step", "committee_vote")
    for part in (names[card], *members):
        expect(waiting).to_contain_text(part)
    _choose(ana, True)
    _confirm(ana)

    seats.until(lambda: _step(live, code) == "jail_vote", _policy)
    immune = words["about.president_immune"].replace("{president}", "Ana")
    for tab in (ana, ben):  # the President is not on the ballot, and it says why
        expect(tab.el("screen")).to_have_attribute("data-step", "jail_vote")
        assert plain(tab.page.locator("#choice-prompt").text_content()) == words["prompt.jail_vote"]
        assert immune in plain(tab.el("ballot-subject").text_content())
        options = tab.el("choice-panel").locator(tid("option"))
        values = options.evaluate_all("(os) => os.map((o) => JSON.parse(o.dataset.value))")
        assert "Ana" not in values and "Ben" in values
    seats.close()
    tabs.assert_clean()
