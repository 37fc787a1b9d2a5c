"""The Ombudsperson's Witness on a 360x640 phone (R-35), in English and Filipino: the
testimony is anonymous, so nothing reaches the table at the moment of the tap - a tap
followed by the TV's announcement would point at whoever just tapped. The Ombudsperson's
own phone says, inside its closed private fold, that the testimony is in and when the
table will hear it; the table hears it when the host closes the discussion, and the
Witness vote follows, its tally worded in the phone's language."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from korapsyon.rules.roles import Role
from korapsyon.rules.steps import Step
from korapsyon.selfplay import table
from tests.server.live import Live, start
from tests.web.harness import (
    Tabs,
    api_room,
    decide,
    has_decision,
    option_values,
    roles_of,
    snapshot,
    tid,
    wait_after_confirm,
    wait_for_game,
)
from tests.web.scripted import Client, Seats, catalog, names_tokens, open_phone, plain


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


@pytest.mark.parametrize("lang", ["en", "fil"])
def test_R35_the_table_hears_a_witness_when_the_discussion_closes_not_at_the_tap(
    live: Live, tabs: Tabs, lang: str
) -> None:
    words = catalog(lang)
    code, host_token = api_room(live)
    tokens = names_tokens(live, code, table(9))
    start(live, code, host_token)
    roles = roles_of(wait_for_game(live, code))
    omb = next(n for n, r in roles.items() if r is Role.OMBUDSPERSON)
    corrupt = next(n for n, r in roles.items() if r is Role.CORRUPT_POLITICIAN)
    seats = Seats(live, code, host_token, {n: t for n, t in tokens.items() if n != omb})
    phone = open_phone(tabs, code, omb, tokens[omb], lang=lang)

    # The night: the Ombudsperson investigates a Corrupt Politician through the page.
    seats.until(lambda: has_decision(snapshot(phone)))
    night = snapshot(phone)
    assert night.night
    decide(phone, night, {"target": [option_values(night, 0).index(corrupt)]})
    wait_after_confirm(phone, night)
    phone.done.add((night.year, night.step))

    def discussion() -> bool:
        step = live.game(code).step
        return step is not None and step.value == "discussion"

    seats.until(discussion, phones=[phone], end_discussion=False)
    fold = phone.page.locator("details.private-fold")
    expect(fold).not_to_have_attribute("open", "")  # closed: nothing stands out
    fold.locator("summary").click()
    phone.el("confirm").click()  # "Testify (anonymously)": the Witness
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
    named = phone.page.locator(f"{tid('timeline-entry')}[data-kind='committee_named']").first
    members = plain(named.text_content())  # three names, as a sentence says them
    assert f" {'and' if lang == 'en' else 'at'} " in members, members
    first = phone.page.locator(f"{tid('timeline-entry')}[data-year='0']").first
    assert not (first.text_content() or "").startswith(words["year.short"].format(year=0))
    seats.close()
    tabs.assert_clean()
