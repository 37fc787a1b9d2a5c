"""R-70 night-screen parity in a real browser: in the Hidden Phase every role's phone shows
the same screen (the same DOM structure) and sends the same messages for the same taps,
so neither a glance at a neighbour's phone nor the network traffic tells roles apart."""

from __future__ import annotations

import json
from typing import Any

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
    hold,
    release,
    roles_of,
    skeleton,
    snapshot,
    tid,
    wait_for_game,
)

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
