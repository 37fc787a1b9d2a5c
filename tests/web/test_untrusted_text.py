"""Names and chat are untrusted text: the client shows them verbatim, as text, and never
as markup (docs/CLIENT.md: only ``textContent``). A name or a chat message that is HTML
creates no element, runs no script and opens no dialog, on the phones, the board, a
spectator's phone and the moderator's grimoire."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from tests.security.attack import Socket
from tests.server.live import Live, add_bots, start
from tests.web.harness import (
    FAST,
    Snapshot,
    Tab,
    Tabs,
    api_room,
    api_seat,
    join_by_link,
    option_values,
    play_turns,
    tid,
)

SVG = "<svg onload=alert(1)>"  # names are at most 24 characters
IMG = "<img src=x onerror=a()>"
CHAT = "<img src=x onerror=alert(1)> <b>bold</b> & <script>alert(2)</script>"
MOD_CHAT = "<iframe src=javascript:alert(3)></iframe> &amp; <b>bold</b>"

INJECTED = """() => ({
  handlers: document.querySelectorAll('[onload], [onerror]').length,
  scripts: [...document.querySelectorAll('script')].filter((s) => s.text.includes('alert')).length,
  imgs: document.querySelectorAll('img[src="x"]').length,
  bold: [...document.querySelectorAll('b')].filter((b) => b.textContent === 'bold').length,
  frames: document.querySelectorAll('iframe').length,
})"""


def _assert_nothing_injected(tab: Tab) -> None:
    found = tab.page.evaluate(INJECTED)
    assert found == {"handlers": 0, "scripts": 0, "imgs": 0, "bold": 0, "frames": 0}, (
        tab.label,
        found,
    )


def _stand(me: str, snap: Snapshot) -> dict[str, list[int]]:
    """Nobody at night; both stand for President, so the timeline names them."""
    picks: dict[str, list[int]] = {}
    for index, spec in enumerate(snap.fields):
        values = option_values(snap, index)
        want: object = True if snap.action == "stand" else None
        picks[spec["field"] or str(index)] = [values.index(want) if want in values else 0]
    return picks


def test_html_names_and_chat_show_as_text(live: Live, tabs: Tabs) -> None:
    """Names like ``<svg onload=alert(1)>`` (R-01 seats take any printable name) show
    verbatim in the waiting room's seat list, on the board and in the timeline (R-33's
    list of candidates); a chat message with HTML shows verbatim too. No dialog, no
    injected element, no page error."""
    code, host_token = api_room(live)
    link = f"/?room={code}"
    svg, img = tabs.open("svg"), tabs.open("img")
    join_by_link(svg, link, SVG, code)
    join_by_link(img, link, IMG, code)
    add_bots(live, code, host_token, 7)
    board = tabs.open("board", f"/board?room={code}", phone=False)

    for tab in (svg, img):
        seats = tab.el("seat-list").locator(tid("seat-item"))
        expect(seats).to_have_count(9)
        for name in (SVG, IMG):
            seat = seats.and_(tab.page.locator(f"[data-name={_css_string(name)}]"))
            expect(seat).to_be_visible()
            expect(seat).to_contain_text(name)
        _assert_nothing_injected(tab)
    expect(board.el("seat-list").locator(tid("seat-item"))).to_have_count(9)
    for name in (SVG, IMG):  # the board's waiting room
        expect(board.el("seat-list")).to_contain_text(name)
    _assert_nothing_injected(board)

    start(live, code, host_token)
    names = {"svg": SVG, "img": IMG}
    play_turns(
        [svg, img],
        names,
        _stand,
        until=lambda snaps: all(s.step not in (None, "hidden", "stand") for s in snaps.values()),
        timeout=60,
    )
    players = board.el("board-players")
    expect(players.locator(tid("board-player"))).to_have_count(9)
    for name in (SVG, IMG):  # the board in the game
        expect(players.locator(f"[data-name={_css_string(name)}]")).to_contain_text(name)
    for tab in (svg, img, board):
        timeline = tab.el("timeline")
        for name in (SVG, IMG):
            expect(timeline).to_contain_text(name)  # "Standing for President: ..."
        _assert_nothing_injected(tab)

    svg.el("chat-input").fill(CHAT)
    svg.el("chat-send").click()
    for tab in (svg, img):
        message = tab.el("chat").locator(tid("chat-message")).last
        expect(message.locator(tid("chat-text"))).to_have_text(CHAT)
        expect(message.locator(tid("chat-author"))).to_contain_text(SVG)
        expect(message).to_be_visible()
        _assert_nothing_injected(tab)
    tabs.assert_clean()  # no dialog, no console or page error


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def test_html_names_and_chat_show_as_text_to_spectators_and_the_moderator(
    live: Live, tabs: Tabs
) -> None:
    """The same names and chat on the other two pages: a spectator's phone (seat list,
    players, timeline, chat) and the human moderator's grimoire (R-71: every role by name,
    who the night waits for, chat), including a chat message the moderator types."""
    with live.http() as http:
        settings = {**FAST, "moderator": "human"}
        body = http.post("/api/rooms", json={"settings": settings}).json()
    code, host_token = body["code"], body["host_token"]
    seats = {name: api_seat(live, code, name) for name in (SVG, IMG)}
    add_bots(live, code, host_token, 7)
    spectator = tabs.open("spectator", f"/play?room={code}&spectate=1")
    stored = {"host_token": host_token, "moderator_token": body["moderator_token"]}
    grimoire = tabs.open(
        "moderator", f"/moderator?room={code}", phone=False, storage={f"korapsyon:{code}": stored}
    )
    listed = spectator.el("seat-list").locator(tid("seat-item"))
    expect(listed).to_have_count(9)
    for name in (SVG, IMG):
        expect(spectator.el("seat-list")).to_contain_text(name)
    _assert_nothing_injected(spectator)

    start(live, code, host_token)
    items = grimoire.el("mod-roles").locator(tid("mod-role"))
    expect(items).to_have_count(9)
    for name in (SVG, IMG):  # the night waits for the two people, named as text
        expect(
            items.and_(grimoire.page.locator(f"[data-name={_css_string(name)}]"))
        ).to_contain_text(name)
        expect(grimoire.el("mod-waiting")).to_contain_text(name)
    expect(spectator.el("screen")).to_be_visible()
    for name in (SVG, IMG):
        expect(spectator.page.locator(f"[data-name={_css_string(name)}]").first).to_contain_text(
            name
        )

    sock = Socket(live, {"room": code, "token": seats[SVG]["token"]})
    sock.send(json.dumps({"type": "chat", "id": 1, "channel": "public", "text": CHAT}))
    assert sock.next()["type"] == "ack"
    grimoire.el("chat-input").fill(MOD_CHAT)
    grimoire.el("chat-send").click()
    for tab in (spectator, grimoire):
        messages = tab.el("chat").locator(tid("chat-message"))
        expect(messages).to_have_count(2)
        expect(messages.nth(0).locator(tid("chat-text"))).to_have_text(CHAT)
        expect(messages.nth(0).locator(tid("chat-author"))).to_contain_text(SVG)
        expect(messages.nth(1).locator(tid("chat-text"))).to_have_text(MOD_CHAT)
        _assert_nothing_injected(tab)
    sock.close()
    tabs.assert_clean()


RTL = "\u05d0\u05d1 12"  # a Hebrew name ending in digits
DIGITS = "Ana 3"

NOT_ISOLATED = """(names) => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest('[hidden], script, style')) continue;
    for (const name of names) {
      for (let at = node.data.indexOf(name); at >= 0; at = node.data.indexOf(name, at + 1)) {
        const marked = node.data[at - 1] === '\\u2068' && node.data[at + name.length] === '\\u2069';
        const alone = node.data === name && node.parentElement.closest('bdi');
        const where = node.parentElement.tagName;
        if (!marked && !alone) found.push(`${name} in "${node.data}" (${where})`);
      }
    }
  }
  return found;
}"""


def _assert_names_isolated(tab: Tab) -> None:
    found = tab.page.evaluate(NOT_ISOLATED, [RTL, DIGITS])
    assert found == [], (tab.label, found)


def test_every_name_shown_is_isolated_from_the_text_around_it(live: Live, tabs: Tabs) -> None:
    """Issue #17: a right-to-left name with digits reordered the text next to it ("אב 12,
    Ana 3"). Every place a name is shown (the seat list, the players, ballots, the
    timeline, the news, the chat, the role card) holds it in a ``<bdi>`` or between the
    Unicode isolates FSI and PDI."""
    code, host_token = api_room(live)
    link = f"/?room={code}"
    rtl, digits = tabs.open("rtl"), tabs.open("digits")
    join_by_link(rtl, link, RTL, code)
    join_by_link(digits, link, DIGITS, code)
    add_bots(live, code, host_token, 7)
    board = tabs.open("board", f"/board?room={code}", phone=False)
    for tab in (rtl, digits):
        expect(tab.el("seat-list").locator(tid("seat-item"))).to_have_count(9)
    expect(board.el("seat-list").locator(tid("seat-item"))).to_have_count(9)
    for tab in (rtl, digits, board):
        _assert_names_isolated(tab)
    start(live, code, host_token)
    expect(rtl.el("night-screen")).to_be_visible()
    for tab in (rtl, digits, board):
        _assert_names_isolated(tab)
    play_turns(
        [rtl, digits],
        {"rtl": RTL, "digits": DIGITS},
        _stand,
        until=lambda snaps: all(s.step not in (None, "hidden", "stand") for s in snaps.values()),
        timeout=60,
    )
    rtl.el("chat-input").fill("\u05e9\u05dc\u05d5\u05dd 42")  # (a message: its own direction)
    rtl.el("chat-send").click()
    for tab in (rtl, digits, board):
        expect(tab.el("timeline")).to_contain_text(RTL)  # "Standing for President: ..."
        _assert_names_isolated(tab)
    expect(digits.el("chat").locator(tid("chat-author")).last).to_contain_text(RTL)
    tabs.assert_clean()
