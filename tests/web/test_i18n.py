"""Languages: every UI string is in both catalogs (en, fil), and switching the page's
language picker changes the UI's words and is remembered (docs/CLIENT.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.server.live import Live, add_bots, start
from tests.web.harness import (
    Tabs,
    api_room,
    api_seat,
    cautious,
    confirm_button,
    decide,
    snapshot,
    wait_for_game,
)

CATALOGS = Path(__file__).parents[2] / "src" / "korapsyon" / "web" / "i18n"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _catalog(lang: str) -> dict[str, str]:
    path = CATALOGS / f"{lang}.json"
    if not path.exists():
        pytest.fail(f"no catalog {path}")
    catalog: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return catalog


def test_every_english_string_has_a_filipino_one() -> None:
    """Every key of en.json is in fil.json, as a non-empty string with the same
    ``{placeholders}`` (a missing one would show a raw ``{n}`` or drop a number)."""
    en, fil = _catalog("en"), _catalog("fil")
    assert en, "en.json is empty"
    missing = sorted(set(en) - set(fil))
    assert not missing, f"fil.json lacks {len(missing)} keys: {missing}"
    for key, text in en.items():
        assert isinstance(fil[key], str) and fil[key].strip(), f"fil.json: {key} is empty"
        want = set(PLACEHOLDER.findall(text))
        got = set(PLACEHOLDER.findall(fil[key]))
        assert got == want, f"{key}: en has {sorted(want)}, fil has {sorted(got)}"
    extra = sorted(set(fil) - set(en))
    assert not extra, f"fil.json has keys en.json lacks (stale?): {extra}"


def test_every_event_that_moves_the_analysis_has_words() -> None:
    """The analysis's moments name the event that exposed or cleared a player
    (``analysis.by.<kind>``, analysis.js): every kind of event that can change the
    beliefs (tracker.EVIDENCE; the end's own reveal stops the analysis) has its words,
    rather than the catch-all "what happened"."""
    from korapsyon.bots.beliefs.tracker import EVIDENCE

    kinds = {str(kind.__struct_config__.tag) for kind in EVIDENCE} - {"game_over"}
    en = _catalog("en")
    missing = sorted(kind for kind in kinds if f"analysis.by.{kind}" not in en)
    assert not missing, f"en.json has no analysis.by words for {missing}"


def test_switching_to_filipino_changes_the_lobby_and_is_remembered(tabs: Tabs) -> None:
    """The lobby's ``lang-select`` set to ``fil`` changes the words of the UI (the
    create-room button), and the choice survives a reload; back to ``en``, it is English."""
    tab = tabs.open("lobby", "/")
    button = tab.el("create-room")
    expect(button).to_be_enabled()  # (the lobby's script is done: its words are in)
    expect(tab.el("lang-select")).to_have_value("en")
    english = (button.text_content() or "").strip()
    assert english

    tab.el("lang-select").select_option("fil")
    expect(button).not_to_have_text(english)
    filipino = (button.text_content() or "").strip()
    assert filipino and filipino != english
    expect(tab.page.locator("html")).to_have_attribute("lang", "fil")

    tab.page.reload()
    expect(tab.el("lang-select")).to_have_value("fil")
    expect(tab.el("create-room")).to_have_text(filipino)

    tab.el("lang-select").select_option("en")
    expect(tab.el("create-room")).to_have_text(english)
    tabs.assert_clean()


def test_the_phone_in_filipino_mid_game_and_the_board_keeps_its_own_language(
    live: Live, tabs: Tabs
) -> None:
    """A player switches the phone to ``fil`` during the Hidden Phase: the step title and
    the confirm button change language and the night decision still goes through; the
    board opened in the same browser keeps its own language (kept per page kind), and
    a reload keeps the phone in Filipino."""
    code, host_token = api_room(live)
    seat = api_seat(live, code, "Zenaida")
    add_bots(live, code, host_token, 8)
    phone = tabs.open("Zenaida", f"/play?room={code}", storage={f"korapsyon:{code}": seat})
    start(live, code, host_token)
    wait_for_game(live, code)
    expect(phone.el("night-screen")).to_be_visible()
    title = (phone.el("step-title").text_content() or "").strip()
    confirm = (confirm_button(phone).text_content() or "").strip()

    phone.el("lang-select").select_option("fil")
    expect(phone.el("step-title")).not_to_have_text(title)
    expect(confirm_button(phone)).not_to_have_text(confirm)
    board = tabs.open_beside(phone, "board", f"/board?room={code}")
    expect(board.el("lang-select")).to_have_value("en")
    expect(board.el("board-step")).to_contain_text(title)

    phone.page.reload()
    expect(phone.el("lang-select")).to_have_value("fil")
    # the language select is there before the view: wait for the view itself (its night
    # screen, in Filipino) before reading what the page offers
    expect(phone.el("screen")).to_have_attribute("data-step", "hidden")
    expect(phone.el("night-screen")).to_be_visible()
    expect(phone.el("step-title")).not_to_have_text(title)
    snap = snapshot(phone)
    decide(phone, snap, cautious(snap))
    expect(phone.el("screen")).not_to_have_attribute("data-step", "hidden")
    tabs.assert_clean()
