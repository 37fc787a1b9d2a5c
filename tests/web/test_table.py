"""A party table in real browsers (issue #18): whole games played through the pages at the
sizes people use (360x640 and 390x844 phones; 1280x720 and 1920x1080 TVs), in English and
in Filipino, with five phones of five different roles, the board on the TV (the host
without a seat, who ends each discussion) and a spectator. At every screen of every page:

* **R-70, measured:** phones in the same public situation (the same step, the same turn
  to act, the same public position: President, candidate, committee member) show the same
  element boxes (top and height) and the same page height, whatever their roles, while
  their role cards are not held; the Corrupt phone has used the team's channel at night;
* **accessibility:** axe-core finds no serious or critical violation on any page in any
  state (the lobby, the waiting room, each step, the held role card, the end screens);
* **language:** in Filipino, no English sentence of the catalogs is on any page.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import ViewportSize, expect

from korapsyon.rules import Game
from korapsyon.rules.cards import LARGE_DECK, SMALL_DECK
from korapsyon.rules.roles import Role
from tests.security.wire import _Deal
from tests.server.live import Live, add_bots, start
from tests.web.accessibility import Audit
from tests.web.harness import (
    WAIT_MS,
    Tab,
    Tabs,
    api_room,
    api_seat,
    decide,
    end_discussion,
    has_decision,
    hold,
    release,
    roles_of,
    sensible,
    snapshot,
    tid,
    wait_after_confirm,
    wait_for_game,
)

CATALOGS = Path(__file__).resolve().parents[2] / "src/korapsyon/web/i18n"

PHONES = {  # the browser players and their roles (R-02 at 9 seats; the bots have the rest)
    "Ana": Role.CORRUPT_POLITICIAN,
    "Ben": Role.LAWYER,
    "Cris": Role.OMBUDSPERSON,
    "Dani": Role.CITIZEN,
    "Eli": Role.GOOD_POLITICIAN,
}
BOTS = [Role.CORRUPT_POLITICIAN, Role.GOOD_POLITICIAN, Role.COA, Role.CITIZEN]
SAFETY_SECONDS = 900  # only a hang gets there: nothing here measures speed
SETTINGS = {"bot_delay": [0.0, 0.05], "timers": False}


@dataclass(frozen=True)
class Table:
    """Where and how a game is played: the pages' language and sizes."""

    locale: str
    phone: ViewportSize
    tv: ViewportSize


TABLES = {
    "english-390x844-1920x1080": Table(
        "en-US", ViewportSize(width=390, height=844), ViewportSize(width=1920, height=1080)
    ),
    "filipino-360x640-1280x720": Table(
        "fil-PH", ViewportSize(width=360, height=640), ViewportSize(width=1280, height=720)
    ),
}


@contextmanager
def dealt(roles: list[Role], seed: int = 7) -> Iterator[None]:
    """While the block runs, a room that starts gives its seats these roles, in seat order
    (the decks in their printed order; test-side only, as tests/security/wire.py does)."""
    import secrets

    orders: list[list[Any]] = [list(roles), list(SMALL_DECK), list(LARGE_DECK)]
    saved = secrets.SystemRandom
    secrets.SystemRandom = lambda: _Deal(orders, seed)  # type: ignore[assignment,misc]
    try:
        yield
    finally:
        secrets.SystemRandom = saved  # type: ignore[misc]


# ------------------------------------------------------------------ R-70, measured

LAYOUT = """(marks) => {
  window.scrollTo(0, 0);  // (the sticky bar's place in the page depends on the scroll)
  // "(you)" marks one's own seat wherever it is named (a list, the committee, the night's
  // grid), which differs by seat, not by role: taken out of the text while measuring
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const changed = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue;
    let shorter = text;
    for (const mark of marks) shorter = shorter.split(mark).join('');
    if (shorter !== text) { changed.push([node, text]); node.nodeValue = shorter; }
  }
  const card = document.querySelector('[data-testid="role-card"]');
  const boxes = [];
  for (const el of document.querySelectorAll('body *')) {
    if (card && card !== el && card.contains(el)) continue;  // (hidden unless held)
    if (el.classList.contains('you')) continue;  // "(you)" marks one's own seat, not a role
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    let where = el.parentElement;  // (the nearest test hook around it, to name it)
    while (where && !where.dataset.testid) where = where.parentElement;
    const look = getComputedStyle(el);
    boxes.push([el.tagName.toLowerCase(), el.dataset.testid || '',
                where ? where.dataset.testid : '',
                Math.round(r.top + window.scrollY), Math.round(r.height),
                look.color, look.backgroundColor]);
  }
  const height = document.documentElement.scrollHeight;
  for (const [node, text] of changed) node.nodeValue = text;
  return {height, boxes};
}"""


def public_position(game: Game, name: str) -> tuple[Any, ...]:
    """What the whole table knows about a seat that can change its screen: its status,
    whether it is President, a candidate or on the committee (never its role)."""
    seat = game.seat(name)
    return (game.status[seat], game.president == seat, seat in game.committee,
            seat in game.candidates)  # fmt: skip


class Parity:
    """R-70, measured across the phones at each screen (see the module)."""

    def __init__(self, language: str) -> None:
        catalog = json.loads((CATALOGS / f"{language}.json").read_text(encoding="utf-8"))
        self.marks = [f" {catalog['board.you']}", f" ({catalog['night.you']})"]
        self.checked = 0
        self.groups_compared = 0

    def check(self, phones: list[Tab], game: Game) -> None:
        """Compare the phones in the same situation; a difference must persist (a page may
        be between two frames when it is measured): measured again until it settles."""
        for _attempt in range(20):
            snaps = {tab.label: snapshot(tab) for tab in phones}
            groups: dict[tuple[Any, ...], list[Tab]] = {}
            for tab in phones:
                s = snaps[tab.label]
                if s.status == "finished" or s.end:
                    continue  # every role is revealed: nothing left to hide
                key = (s.year, s.step, s.to_act, s.action, s.ballot, s.status,
                       public_position(game, tab.label))  # fmt: skip
                groups.setdefault(key, []).append(tab)
            differing = []
            for key, members in groups.items():
                if len(members) < 2:
                    continue
                layouts = {tab.label: tab.page.evaluate(LAYOUT, self.marks) for tab in members}
                if len({json.dumps(v, sort_keys=True) for v in layouts.values()}) > 1:
                    differing.append((key, layouts))
            if {tab.label: snapshot(tab) for tab in phones} != snaps:
                continue  # something moved while it was measured: again
            if not differing:
                self.checked += 1
                self.groups_compared += sum(len(m) > 1 for m in groups.values())
                return
            phones[0].page.wait_for_timeout(100)  # settle (polling, not a timing assertion)
        key, layouts = differing[0]
        raise AssertionError(f"R-70: phones in the same situation {key} differ:\n{_diff(layouts)}")


def _diff(layouts: dict[str, Any]) -> str:
    (first, a), *rest = layouts.items()
    lines = []
    for label, b in rest:
        if a["height"] != b["height"]:
            lines.append(f"page height: {first} {a['height']}, {label} {b['height']}")
        shown = 0
        for i, (x, y) in enumerate(zip(a["boxes"], b["boxes"], strict=False)):
            if x != y and shown < 6:  # (the first few: the innermost says what it is)
                lines.append(f"box {i}: {first} {x}, {label} {y}")
                shown += 1
        if len(a["boxes"]) != len(b["boxes"]):
            lines.append(f"boxes: {first} {len(a['boxes'])}, {label} {len(b['boxes'])}")
    return "\n".join(lines)


# ------------------------------------------------------------------ every word Filipino


def english_fragments() -> list[str]:
    """Sentences of the English catalog that a Filipino page must not show: each entry
    that differs from its Filipino one, cut at its placeholders, keeping the pieces of at
    least two words that appear nowhere in the Filipino catalog."""
    en = json.loads((CATALOGS / "en.json").read_text(encoding="utf-8"))
    fil = json.loads((CATALOGS / "fil.json").read_text(encoding="utf-8"))
    filipino = "\n".join(fil.values())
    fragments = set()
    for key, text in en.items():
        if fil.get(key) == text:
            continue
        for raw in re.split(r"\{\w+\}", text):
            piece = raw.strip(" .,:;!?()“”\"'…·—-")
            if len(piece) >= 8 and " " in piece and piece not in filipino:
                fragments.add(piece)
    return sorted(fragments, key=len, reverse=True)


class Words:
    """English catalog sentences found on Filipino pages, with where they were seen."""

    def __init__(self) -> None:
        self.fragments = english_fragments()
        self.found: dict[str, str] = {}

    def check(self, tab: Tab, where: str) -> None:
        text = tab.page.evaluate(
            """() => [document.body.innerText,
                      ...[...document.querySelectorAll('[aria-label],[placeholder],[title]')]
                          .map((el) => [el.getAttribute('aria-label'),
                                        el.getAttribute('placeholder'),
                                        el.getAttribute('title')].filter(Boolean).join(' '))]
                     .join('\\n')"""
        )
        for fragment in self.fragments:
            if fragment in text and fragment not in self.found:
                self.found[fragment] = f"{tab.label} ({where})"

    def assert_clean(self) -> None:
        assert not self.found, "English on Filipino pages:\n" + "\n".join(
            f"{where}: {fragment!r}" for fragment, where in self.found.items()
        )


# ------------------------------------------------------------------ the game


@pytest.mark.parametrize("where", list(TABLES))
def test_a_whole_game_at_a_party_table(live: Live, tabs: Tabs, where: str) -> None:
    table = TABLES[where]
    filipino = table.locale.startswith("fil")
    audit, parity, words = Audit(), Parity("fil" if filipino else "en"), Words()

    def look(tab: Tab, *state: str) -> None:
        audit.check(tab, *state)
        if filipino:
            words.check(tab, "/".join(state))

    code, host_token = api_room(live, SETTINGS)
    phones = []
    for name in PHONES:
        stored = api_seat(live, code, name)
        phones.append(
            tabs.open(name, f"/play?room={code}", viewport=table.phone, locale=table.locale,
                      storage={f"korapsyon:{code}": stored})
        )  # fmt: skip
    add_bots(live, code, host_token, len(BOTS))
    board = tabs.open(
        "board", f"/board?room={code}", phone=False, viewport=table.tv, locale=table.locale,
        storage={f"korapsyon:{code}": {"host_token": host_token}},
    )  # fmt: skip
    spectator = tabs.open(
        "spectator", f"/play?room={code}&spectate=1", viewport=table.phone, locale=table.locale
    )
    lobby = tabs.open("lobby", "/", viewport=table.phone, locale=table.locale)
    expect(lobby.el("create-room")).to_be_enabled()  # (the lobby's script is done: words, handlers)
    look(lobby, "lobby")
    for tab in [*phones, board]:
        expect(tab.el("seat-list").locator(tid("seat-item"))).to_have_count(9)
        look(tab, "waiting room")

    with dealt(list(PHONES.values()) + BOTS):
        start(live, code, host_token)
    game = wait_for_game(live, code)
    assert {n: r for n, r in roles_of(game).items() if n in PHONES} == PHONES

    ana = phones[0]  # Corrupt: she speaks on the team's channel at night, as the card says
    expect(ana.el("night-screen")).to_be_visible()
    ana.el("chat-channel").select_option("private")
    ana.el("chat-input").fill("Nakaw tayo?")
    ana.el("chat-send").click()
    expect(ana.el("chat-input")).to_have_value("")
    for tab in phones:  # each held card, checked while held (the Corrupt's shows the team)
        hold(tab, tab.el("role-reveal"))
        expect(tab.el("role-name")).to_be_visible()
        look(tab, "role card held")
        release(tab)
        expect(tab.el("role-name")).to_be_hidden()

    policy = sensible(dict(roles_of(game)), "", lambda: game.committee_size)
    done: set[tuple[Any, ...]] = set()
    deadline = time.monotonic() + SAFETY_SECONDS
    while not game.is_over:
        assert time.monotonic() < deadline, f"no end: Year {game.year}, {game.step}"
        parity.check(phones, game)
        for tab in [*phones, board, spectator]:
            look(tab, game.step.value if game.step else "over")
        acted = False
        for tab in phones:
            snap = snapshot(tab)
            key = (tab.label, snap.year, snap.step)
            if has_decision(snap) and key not in done:
                decide(tab, snap, policy(tab.label, snap))
                wait_after_confirm(tab, snap)
                done.add(key)
                acted = True
        acted = end_discussion(board) or acted
        if not acted:
            board.page.wait_for_timeout(50)  # polling the pages, not a timing assertion
    for tab in [*phones, board, spectator]:
        expect(tab.el("end-screen")).to_be_visible(timeout=WAIT_MS)
        look(tab, "end")

    assert parity.checked >= 10 and parity.groups_compared >= 10, vars(parity)
    audit.assert_clean()
    words.assert_clean()
    tabs.assert_clean()
