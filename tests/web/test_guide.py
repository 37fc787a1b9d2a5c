"""First-timers (#18): the guide (a one-minute "How to play" and every role: team, goal,
night, day) opens from the waiting room and from the role card, in English and Filipino,
and is the same on every phone (R-70); a tap on the role card too short to reveal it says
"hold longer", the same on every phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, expect

from korapsyon.rules.roles import Role
from korapsyon.selfplay import table
from tests.server.live import Live, start
from tests.web.harness import Tab, Tabs, api_room, roles_of, tid, wait_for_game
from tests.web.scripted import catalog, names_tokens, open_phone, plain

NAMES = table(9)
ROLES = [role.value for role in Role]


def _check_guide(tab: Tab, words: dict[str, str]) -> str:
    """The open guide: its title, the one-minute steps and every role's four facts, in
    the page's language; its whole text (to compare phones)."""
    guide = tab.el("guide")
    expect(guide).to_be_visible()
    expect(guide.locator("#guide-title")).to_contain_text(words["guide.title"])
    steps = tab.el("guide-howto").locator("li")
    expect(steps).to_have_count(7)
    expect(steps.first).to_have_text(words["guide.howto.roles"])
    roles = tab.el("guide-role")
    expect(roles).to_have_count(len(ROLES))
    assert roles.evaluate_all("(rs) => rs.map((r) => r.dataset.role)") == ROLES
    for index, role in enumerate(ROLES):
        card = roles.nth(index)
        expect(card).to_contain_text(words[f"role.{role}"])
        for part in ("goal", "night", "day"):
            expect(card).to_contain_text(words[f"guide.{role}.{part}"])
    return plain(guide.text_content())


def _close(tab: Tab) -> None:
    tab.page.locator(f"{tid('guide-close')}[data-where='top']").click()
    expect(tab.el("guide")).to_have_count(0)


@pytest.mark.parametrize("lang", ["en", "fil"])
def test_the_guide_opens_from_the_waiting_room_and_the_role_card(
    live: Live, tabs: Tabs, lang: str
) -> None:
    """In the waiting room a phone opens the guide at "How to play" and closes it; after
    the deal, a Corrupt Politician's phone and a Citizen's open it from under the role
    card, at the roles: the same guide, word for word, on both (R-70), in the page's
    language. A short tap on either role card says "hold longer" and reveals nothing."""
    words = catalog(lang)
    code, host_token = api_room(live)
    tokens = names_tokens(live, code, NAMES)
    first = open_phone(tabs, code, NAMES[0], tokens[NAMES[0]], lang=lang)
    expect(first.el("seat-list").locator(tid("seat-item"))).to_have_count(9)
    opener = first.el("guide-open")
    expect(opener).to_have_attribute("data-from", "waiting")
    opener.click()
    howto = first.el("guide-howto")
    _check_guide(first, words)
    top = howto.bounding_box()
    assert top is not None and top["y"] < 640  # it opens at "How to play"
    _close(first)
    expect(opener).to_be_focused()  # the focus is back where it was

    start(live, code, host_token)
    wait_for_game(live, code)
    roles = roles_of(live.game(code))
    bad = next(n for n, r in roles.items() if r is Role.CORRUPT_POLITICIAN)
    good = next(n for n, r in roles.items() if r is Role.CITIZEN)
    phones = [open_phone(tabs, code, name, tokens[name], lang=lang) for name in (bad, good)]
    texts = []
    for phone in phones:
        expect(phone.el("night-screen")).to_be_visible()
        hint = phone.el("role-hint")
        expect(hint).to_have_text(f"🂠 {words['role.hold']}")
        grid = phone.el("night-screen").bounding_box()
        phone.el("role-reveal").click()  # a tap, too short to reveal
        expect(hint).to_have_text(f"👆 {words['role.hold_longer']}")
        assert phone.el("night-screen").bounding_box() == grid  # nothing moved under the finger
        expect(phone.el("role-name")).to_be_hidden()
        button = phone.el("role-card").locator(tid("guide-open"))
        expect(button).to_have_attribute("data-from", "card")
        button.click()
        texts.append(_check_guide(phone, words))
        roles_box = phone.el("guide-roles").bounding_box()
        assert roles_box is not None and 0 <= roles_box["y"] < 320  # it opens at the roles
        _close(phone)
    assert texts[0] == texts[1]  # the guide never points at the reader's role

    # the folds show whether they are open: ▸ shut, ▾ open
    phone = phones[0]
    for fold in ("table-facts", "timeline-box"):
        details = phone.page.locator(f"details.{fold}")
        summary = details.locator("summary")
        assert _marker(summary) == "▸" and details.get_attribute("open") is None
        summary.click()
        expect(details).to_have_attribute("open", "")
        assert _marker(summary) == "▾"
    tabs.assert_clean()


def _marker(summary: Locator) -> str:
    """The disclosure marker drawn before a fold's summary (its CSS content)."""
    content: str = summary.evaluate("(s) => getComputedStyle(s, '::before').content")
    return content.split("/", maxsplit=1)[0].strip().strip('"')
