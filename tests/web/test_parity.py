"""R-70 night-screen parity in a real browser: in the Hidden Phase every role's phone shows
the same screen (the same DOM structure) and sends the same messages for the same taps,
so neither a glance at a neighbour's phone nor the network traffic tells roles apart."""

from __future__ import annotations

import json
import re
from typing import Any

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
    api_seat,
    confirm_button,
    decide,
    hold,
    release,
    roles_of,
    skeleton,
    snapshot,
    tid,
    wait_for_game,
)
from tests.web.scripted import catalog, open_phone, plain

NAMES = table(9)


def test_R70_every_role_has_the_same_night_screen_and_traffic(live: Live, tabs: Tabs) -> None:
    """Nine phones, one per seat, so the R-02 deal at 9 gives them every role (Good
    Politician, Corrupt Politician, Lawyer, Ombudsperson, COA, Citizen). In Year 1's
    Hidden Phase each page's night screen has the same skeleton (tags, test ids, ARIA
    roles: text and option values aside), before and after confirming; the same taps
    (one target, one plan, confirm) send the same number of messages, one `act`
    each; and the phase waits the same way for everyone. The held role card shows each
    phone its role, the Corrupt their teammates (R-07), and afterwards the Ombudsperson
    alone its investigation (R-22)."""
    code, host_token = api_room(live)
    phones: list[Tab] = []
    for name in NAMES:
        stored = api_seat(live, code, name)
        phones.append(tabs.open(name, f"/play?room={code}", storage={f"korapsyon:{code}": stored}))
    for phone in phones:
        expect(phone.el("seat-list").locator(tid("seat-item"))).to_have_count(9)
    start(live, code, host_token)
    wait_for_game(live, code)
    roles = roles_of(live.game(code))
    assert set(roles.values()) == set(Role)  # every role is on a phone

    corrupt = sorted(n for n, r in roles.items() if r is Role.CORRUPT_POLITICIAN)
    for phone in phones:  # the held card shows the role; the Corrupt, each other
        expect(phone.el("night-screen")).to_be_visible()
        hold(phone, phone.el("role-reveal"))
        expect(phone.el("role-name")).to_have_attribute("data-role", roles[phone.label].value)
        if phone.label in corrupt:
            mate = next(n for n in corrupt if n != phone.label)
            expect(phone.el("teammates")).to_contain_text(mate)
        else:
            expect(phone.el("teammates")).to_have_count(0)
        release(phone)
        expect(phone.el("role-name")).to_be_hidden()
    before = {phone.label: len(phone.acts_sent()) for phone in phones}
    shapes = {phone.label: skeleton(phone) for phone in phones}
    _assert_same(shapes, roles, "before confirming")

    omb = next(n for n, r in roles.items() if r is Role.OMBUDSPERSON)

    def tap(phone: Tab) -> None:  # the same taps on every phone: a target, a plan, confirm
        snap = snapshot(phone)
        assert snap.night and snap.to_act and snap.step == "hidden"
        assert [len(f["values"]) for f in snap.fields] == [len(NAMES) + 1, 4]  # + nobody; A-D
        target = corrupt[0] if phone.label == omb else None  # investigate a Corrupt
        index = [json.loads(v) for v in snap.fields[0]["values"]].index(target)
        decide(phone, snap, {snap.fields[0]["field"]: [index], "plan": [1]})

    for phone in phones[:-1]:  # those who confirmed wait, all the same way
        tap(phone)
        expect(phone.el("ballot-status")).to_have_attribute("data-state", "waiting")
    waiting = {phone.label: skeleton(phone) for phone in phones[:-1]}
    _assert_same(waiting, roles, "after confirming")

    # a confirmed phone taps another name: every role's bar says so alike, Change to send
    # it (a Citizen's act is `ready` whatever the grid shows: its bar stayed on "waiting")
    def grid(phone: Tab, name: str | None) -> Any:
        option = f"{tid('option')}[data-value='{json.dumps(name)}']"
        return phone.el("night-screen").locator(option).first

    other = {p.label: next(n for n in NAMES if n not in (p.label, *corrupt)) for p in phones}
    for phone in phones[:-1]:
        grid(phone, other[phone.label]).click()
        expect(phone.el("ballot-status")).to_have_attribute("data-state", "unsent")
        expect(confirm_button(phone)).to_be_enabled()
    changed = {phone.label: skeleton(phone) for phone in phones[:-1]}
    _assert_same(changed, roles, "after a change")
    for phone in phones[:-1]:  # back to what was confirmed
        grid(phone, corrupt[0] if phone.label == omb else None).click()
        expect(phone.el("ballot-status")).to_have_attribute("data-state", "waiting")
    tap(phones[-1])

    for phone in phones:
        expect(phone.el("screen")).not_to_have_attribute("data-step", "hidden")
    sent = {phone.label: phone.acts_sent()[before[phone.label] :] for phone in phones}
    kinds = {label: [m["type"] for m in messages] for label, messages in sent.items()}
    assert all(k == ["act"] for k in kinds.values()), kinds
    sizes = {label: len(messages) for label, messages in sent.items()}
    assert len(set(sizes.values())) == 1, sizes

    for phone in phones:  # only the Ombudsperson learns, privately, in the held card
        hold(phone, phone.el("role-reveal"))
        found = phone.el("investigation")
        if phone.label == omb:
            expect(found).to_have_attribute("data-target", corrupt[0])
            expect(found).to_have_attribute("data-aligned", "bad")
            card = plain(phone.el("role-reveal").text_content())
            assert card.count(f"{corrupt[0]} is Bad aligned") == 1, card  # (it was twice)
        else:
            expect(found).to_have_count(0)
        release(phone)
    tabs.assert_clean()


def _assert_same(shapes: dict[str, Any], roles: dict[str, Role], when: str) -> None:
    groups: dict[str, list[str]] = {}
    for label, shape in shapes.items():
        groups.setdefault(json.dumps(shape), []).append(f"{label} ({roles[label].value})")
    assert len(groups) == 1, f"R-70 {when}: the night screens differ:\n" + "\n".join(
        f"{', '.join(who)}:\n  {shape}" for shape, who in groups.items()
    )


LONG_NAMES = [
    "Maria Clara de los Santo",  # 24 characters, as long as a name may be
    "Bartholomew Fitzgerald X",
    "Ma. Teresita Villanueva",
    "Kristine Joy Macaraeg",
    "Juan Dela Cruz III",
    "Bb. Rosario Lim-Tan",
    *table(16)[:10],
]

HELD = """() => {
  const secret = document.querySelector('.role-reveal.held .secret');
  const name = document.querySelector('[data-testid="role-name"]');
  return {
    overflow: secret.scrollHeight - secret.clientHeight,
    colour: getComputedStyle(name.querySelector('.role-badge') ?? name).color,
  };
}"""

TITLES_CUT = """(titles) => {
  const title = document.querySelector('[data-testid="step-title"]');
  const timer = document.querySelector('[data-testid="timer"]');
  if (!timer.offsetWidth) return ['(no clock beside the title: nothing measured)'];
  const shown = title.textContent;
  const clock = timer.textContent;
  timer.textContent = '⏱ 9:59';  // (the widest a step's clock gets, beside the title)
  const cut = titles.filter((text) => {
    title.textContent = text;
    return title.scrollHeight > title.clientHeight + 1 || title.scrollWidth > title.clientWidth + 1;
  });
  title.textContent = shown;
  timer.textContent = clock;
  return cut;
}"""

MEASURE = """() => {
  const q = (id) => document.querySelector(`[data-testid="${id}"]`);
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return [r.x, r.y, r.width, r.height].map(Math.round);
  };
  const confirm = q('confirm');
  const c = confirm.getBoundingClientRect();
  const hit = document.elementFromPoint(c.x + c.width / 2, c.y + c.height / 2);
  const options = [...q('night-screen').querySelectorAll('[data-testid="option"]')];
  return {
    height: document.documentElement.scrollHeight,
    width: document.documentElement.scrollWidth,
    boxes: {
      card: box(q('role-card')),
      night: box(q('night-screen')),
      fields: [...q('night-screen').querySelectorAll('[data-testid="field"]')].map(box),
      confirm: box(confirm),
      status: box(q('ballot-status')),
    },
    confirm_reachable: c.top >= 0 && c.bottom <= innerHeight && confirm.contains(hit),
    // the first screen shows the prompt and the first row of names above the Confirm bar,
    // and Confirm keeps one line
    first_row_shown: options[0].getBoundingClientRect().bottom
      <= confirm.closest('.confirm-bar').getBoundingClientRect().top,
    confirm_lines: (() => {
      const range = document.createRange();
      range.selectNodeContents(confirm);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.bottom))).size;
    })(),
    cut: options.map((o) => o.querySelector('.option-label'))
      .filter((l) => l.scrollHeight > l.clientHeight + 1 || l.scrollWidth > l.clientWidth + 1)
      .map((l) => l.textContent),
  };
}"""


def test_R70_sixteen_long_names_on_360x640_phones_fit_alike_for_every_role(
    live: Live, tabs: Tabs
) -> None:
    """Sixteen seats with names up to 24 characters (R-02 at 16 deals every role), one
    360x640 phone in Filipino for a seat of each role, in Year 1's Hidden Phase: every
    phone's night screen has the same structure, the same boxes and the same page height
    (R-70), every name and plan letter fits its button whole, the first row of names shows
    above Confirm, which is on screen without scrolling, on one line, under no other
    element; every step title fits beside the clock. A short tap on the role card says
    "hold longer", alike on every phone."""
    code, host_token = api_room(live, FAST | HOUR_TIMERS)  # (the clocks show, as at a table)
    tokens = {name: api_seat(live, code, name) for name in LONG_NAMES}
    start(live, code, host_token)
    wait_for_game(live, code)
    roles = roles_of(live.game(code))
    assert set(roles.values()) == set(Role)
    one_each = {role: next(n for n, r in roles.items() if r is role) for role in Role}
    phones = {
        role: open_phone(tabs, code, name, tokens[name]["token"], lang="fil")
        for role, name in one_each.items()
    }
    measured: dict[str, Any] = {}
    shapes: dict[str, Any] = {}
    hints: set[str] = set()
    colours: set[str] = set()
    for role, phone in phones.items():
        expect(phone.el("night-screen")).to_be_visible()
        phone.page.evaluate("window.scrollTo(0, 0)")
        found = phone.page.evaluate(MEASURE)
        assert found["confirm_reachable"], f"{role.value}: Confirm is not on screen"
        assert found["first_row_shown"], f"{role.value}: the first names are under Confirm"
        lines = found["confirm_lines"]
        assert lines == 1, f"{role.value}: Confirm is on {lines} lines"
        assert found["cut"] == [], f"{role.value}: names or letters cut: {found['cut']}"
        assert found["width"] <= 360, f"{role.value}: the page is wider than the phone"
        measured[phone.label] = {"height": found["height"], "boxes": found["boxes"]}
        shapes[phone.label] = skeleton(phone)
        # held, the card covers the screen whole, every role's alike: all of it readable
        # (nothing cut at its foot), and the role's name in one colour for every team
        hold(phone, phone.el("role-reveal"))
        expect(phone.el("role-name")).to_be_visible()
        held = phone.page.evaluate(HELD)
        release(phone)
        assert held["overflow"] <= 0, f"{role.value}: the held card is cut by {held['overflow']} px"
        colours.add(held["colour"])
        phone.el("role-reveal").click()  # too short a tap: the same hint on every phone
        expect(phone.el("role-hint")).to_have_class(re.compile(r"\btapped\b"))
        hints.add(phone.el("role-hint").text_content() or "")
        expect(phone.el("role-name")).to_be_hidden()
    by_label = {phone.label: role for role, phone in phones.items()}
    _assert_same(shapes, by_label, "at 360x640 with 16 players")
    _assert_same(measured, by_label, "at 360x640 with 16 players (boxes, page height)")
    assert len(hints) == 1, hints
    # every step's title fits the bar whole at 360 wide in Filipino beside a running clock
    # (on two lines if need be)
    phone = next(iter(phones.values()))
    titles = [text for key, text in catalog("fil").items() if key.startswith("step.")]
    cut = phone.page.evaluate(TITLES_CUT, titles)
    assert cut == [], f"step titles cut in the status bar: {cut}"
    assert len(colours) == 1, f"the held role's name is in {colours}: its colour tells the team"
    tabs.assert_clean()
