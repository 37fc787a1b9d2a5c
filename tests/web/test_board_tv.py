"""The board as the table's TV (issue #18): readable from across the room, it fits the
screen without scrolling at 720p, 1080p and 4K with sixteen long names at every step and
at the end; each result is revealed full screen; each player's latest public claim is
pinned next to the name; the President's committee and an election's candidates are
tagged; the treasury report stays as a tile beside the known cost of the projects built
(R-31, R-34); projects are named by their cards, never by their codes.

Observed before: at 1080p half the board was empty and the players list was 18 px; at
720p with sixteen players the board was 1,100 px tall and the waiting room's Start was
below the fold; results were a passing banner; "L6 succeeds"; "1 strike(s)"; the Kaban
chart showed a Year that lost 9 as a rise."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from korapsyon.rules.roles import Role
from korapsyon.rules.steps import Step
from korapsyon.selfplay import table
from tests.server.live import Live, start
from tests.web.harness import Tab, Tabs, api_room, api_seat, tid, wait_for_game
from tests.web.screenshots import unrevealed
from tests.web.scripted import played
from tests.web.tvgame import NAMES, TvGame

SCREENS: list[tuple[int, int, float, str]] = [  # width, height, pixel ratio, language
    (1280, 720, 1, "en"),
    (1920, 1080, 1, "en"),
    (3840, 2160, 1, "en"),
    (1920, 1080, 2, "en"),  # a 4K TV that reports 1920 CSS pixels
    (1280, 720, 1, "fil"),
]
CODE = re.compile(r"\b[SL][1-8]\b")  # a card's id (R-34's deck) shown as a code

FITS = """(hooks) => {
  const out = [];
  const root = document.documentElement;
  const [w, h] = [innerWidth, innerHeight];
  if (root.scrollWidth > w || root.scrollHeight > h) {
    out.push(`the page is ${root.scrollWidth}x${root.scrollHeight} in a ${w}x${h} screen`);
  }
  for (const hook of hooks) {
    for (const el of document.querySelectorAll(`[data-testid="${hook}"]`)) {
      if (el.closest('[hidden]') || !el.getClientRects().length) continue;
      const r = el.getBoundingClientRect();
      if (r.left < -1 || r.top < -1 || r.right > w + 1 || r.bottom > h + 1) {
        const box = `(${r.left},${r.top})-(${r.right},${r.bottom})`;
        out.push(`${hook} ${el.dataset.name || ''} is off screen ${box}`);
      }
      if (el.scrollHeight > el.clientHeight + 2 && getComputedStyle(el).overflowY !== 'visible') {
        out.push(`${hook} ${el.dataset.name || ''} hides ${el.scrollHeight - el.clientHeight}px`);
      }
      if (el.scrollWidth > el.clientWidth + 2 && getComputedStyle(el).overflowX !== 'visible') {
        const across = el.scrollWidth - el.clientWidth;
        out.push(`${hook} ${el.dataset.name || ''} hides ${across}px across`);
      }
    }
  }
  for (const el of document.querySelectorAll('[data-testid="board-player"]')) {
    if (el.scrollHeight > el.clientHeight + 2) {  // its name, tags or claim spill out
      out.push(`board-player ${el.dataset.name} spills ${el.scrollHeight - el.clientHeight}px`);
    }
  }
  return out;
}"""
"""What does not fit: the page scrolls, a hook is off screen, or a box cuts its content."""

GAME_HOOKS = [
    "board-step", "board-timer", "board-voted", "board-kaban", "board-spending",
    "treasury-tile", "board-president", "board-project", "treasury-chart", "board-players",
    "board-player", "end-discussion", "timer-pause", "timer-resume", "timer-extend",
    "timer-end", "narration-toggle", "board-reveal", "end-screen", "winner", "win-reason",
    "revealed-role",
]  # fmt: skip
WAITING_HOOKS = ["room-code", "qr-code", "seat-item", "start-game", "add-bot"]


def tv(tabs: Tabs, path: str, screen: tuple[int, int, float, str], store: dict[str, Any]) -> Tab:
    """A board on a TV of this ``screen``: width and height (CSS pixels), device pixel
    ratio and language."""
    width, height, scale, lang = screen
    context = tabs.browser.new_context(
        base_url=tabs.base_url,
        viewport={"width": width, "height": height},
        device_scale_factor=scale,
        locale="en-US",
    )
    items = {**{k: json.dumps(v) for k, v in store.items()}, "korapsyon:lang:board": lang}
    context.add_init_script(
        "\n".join(
            f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});" for k, v in items.items()
        )
    )
    page = context.new_page()
    tab = Tab(f"board {width}x{height}@{scale} {lang}", context, page)
    Tabs._watch(tab)
    tabs.tabs.append(tab)
    page.goto(path)
    return tab


def isolated(words: str, value: str) -> re.Pattern[str]:
    """``words`` then ``value`` as a sentence puts it (a name between FSI and PDI)."""
    return re.compile(f"{re.escape(words)} \u2068*{re.escape(value)}\u2069*")


def assert_fits(board: Tab, hooks: list[str], where: str) -> None:
    problems = board.page.evaluate(FITS, hooks)
    assert not problems, f"{board.label} at {where}: " + "; ".join(problems)


def assert_comes_to_fit(board: Tab, hooks: list[str], where: str) -> None:
    """As :func:`assert_fits`, once the page has fitted what it shows (the end screen
    refits when a late font or the nights table's next page changes its size): waits for
    the page, then says what is still cut if it never fits."""
    try:
        board.page.wait_for_function(f"(hooks) => ({FITS})(hooks).length === 0", arg=hooks)
    except PlaywrightTimeout:
        assert_fits(board, hooks, where)


@pytest.fixture
def game(live: Live) -> Iterator[TvGame]:
    played = TvGame(live)
    try:
        yield played
    finally:
        played.close()


def test_the_board_fits_a_tv_at_every_step_with_sixteen_long_names(
    game: TvGame, tabs: Tabs
) -> None:
    """Sixteen seats named with 23-24 characters, played to the end one step at a time;
    the host's board on TVs of 1280x720, 1920x1080, 3840x2160 (a pixel ratio of 1, and
    1920x1080 at 2 as a 4K TV reports itself), in English, and 1280x720 in Filipino. In the
    waiting room and at every step until the end screen, on every TV: the page does not
    scroll, every fact, player and host control is on the screen, no player's box cuts
    its content, and the type grows with the screen (the players' names are at least a
    45th of its height: 16 px at 720p, 24 px at 1080p, 48 px at 2160p)."""
    store = {f"korapsyon:{game.code}": {"host_token": game.host_token}}
    boards = [tv(tabs, f"/board?room={game.code}", screen, store) for screen in SCREENS]
    for board in boards:
        expect(board.el("seat-list").locator(tid("seat-item"))).to_have_count(16)
        expect(board.el("start-game")).to_be_visible()
        expect(board.el("open-board")).to_have_count(0)  # the board does not offer itself
        assert_fits(board, WAITING_HOOKS, "the waiting room")
    game.start()
    seen: set[str] = set()
    while True:
        year, step, status = game.where()
        for board in boards:
            if status == "finished":
                expect(board.el("end-screen")).to_be_visible()
                expect(board.el("end-screen")).to_have_attribute("data-fit", "done")
            else:
                expect(board.el("board-year")).to_have_attribute("data-year", str(year))
                expect(board.el("board-step")).to_have_attribute("data-step", str(step))
            expect(board.el("board-players").locator(tid("board-player"))).to_have_count(16)
            if status == "finished":
                assert_comes_to_fit(board, GAME_HOOKS, f"Year {year}, the end")
            else:
                assert_fits(board, GAME_HOOKS, f"Year {year}, {step}")
            name_px = board.page.evaluate(
                "() => parseFloat(getComputedStyle(document.querySelector("
                "'[data-testid=\"board-player\"] .name')).fontSize) / innerHeight"
            )
            assert name_px >= 1 / 45 - 1e-3, f"{board.label}: names are {name_px:.4f} of the height"
        seen.add(step or "end")
        if status == "finished":
            break
        game.advance()
    # the game went through every kind of step a Year has, and to its end
    assert {"hidden", "stand", "elect", "pick_project", "pick_committee", "committee_vote"} <= seen
    assert {"discussion", "jail_vote", "end"} <= seen


def test_a_table_of_phones_away_keeps_the_board_on_a_tv(live: Live, tabs: Tabs) -> None:
    """Thirteen people whose phones are all away (locked, at a party; nobody hands their
    seats to bots): the host's list of them keeps to a few rows, and every fact, player and
    control of the board stays on 1280x720 and 1920x1080 TVs (it pushed the President off
    the screen)."""
    code, host_token = api_room(live, {"timers": False, "auto_stand_in": False})
    for name in table(13):
        api_seat(live, code, name)
    start(live, code, host_token)
    wait_for_game(live, code)
    store = {f"korapsyon:{code}": {"host_token": host_token}}
    for screen in [(1280, 720, 1, "en"), (1920, 1080, 1, "en"), (1280, 720, 1, "fil")]:
        board = tv(tabs, f"/board?room={code}", screen, store)
        away = board.el("stand-ins").locator(tid("stand-in-seat"))
        expect(away).to_have_count(13)
        expect(board.el("board-players").locator(tid("board-player"))).to_have_count(13)
        assert_fits(board, [*GAME_HOOKS, "stand-ins"], "the first night, every phone away")
    tabs.assert_clean()


def test_results_are_revealed_and_claims_tags_and_the_treasury_report_stay(
    game: TvGame, tabs: Tabs
) -> None:
    """One 1920x1080 board through Years 1 and 2. Each result is revealed full screen
    (`board-reveal`, one `reveal-item` per result) and a key closes it: the election names
    the President, the project its card, the committee vote its tally, the jail vote who
    was jailed, the end of Year 1, and in Year 2 the treasury report. The players list tags
    this Year's committee (and nobody else) and pins each player's latest claim; a
    jailed player shows "1 strike". The treasury tile of Year 2 says Year 1's decrease, the
    cost of Year 1's project and what it does not explain, which is what the four Corrupt
    stole (R-25: one each, no Suhol; R-31, R-34). The timeline names cards, never codes."""
    store = {f"korapsyon:{game.code}": {"host_token": game.host_token}}
    board = tv(tabs, f"/board?room={game.code}", (1920, 1080, 1, "en"), store)
    expect(board.el("seat-list").locator(tid("seat-item"))).to_have_count(16)
    game.start()
    reveal = board.el("board-reveal")
    players = board.el("board-players")
    expect(board.el("treasury-tile")).to_contain_text("first report comes in Year 2")

    def reached(step: str) -> dict[str, Any]:
        state = game.advance()
        expect(board.el("board-step")).to_have_attribute("data-step", step)
        assert state["step"] == step, state["step"]
        return state

    def revealed(kind: str, *texts: str) -> None:
        item = reveal.locator(f'{tid("reveal-item")}[data-kind="{kind}"]')
        expect(item).to_be_visible()
        for text in texts:
            expect(item).to_contain_text(text)
        assert not CODE.search(item.inner_text()), item.inner_text()
        board.page.keyboard.press("Escape")  # a key closes it
        expect(reveal).to_be_hidden()

    reached("stand")
    reached("elect")
    state = reached("pick_project")
    president = state["president"]["name"]
    revealed("election", president)
    row = players.locator(f'{tid("board-player")}[data-name="{president}"]')
    expect(row.locator(f'{tid("player-tag")}[data-tag="president"]')).to_have_count(1)

    state = reached("pick_committee")
    card = state["project"]["card"]
    name = next(c["name"] for c in state["project"]["offered"] if c["id"] == card)
    revealed("project", name)
    chosen = board.el("timeline").locator(f'{tid("timeline-entry")}[data-kind="project_chosen"]')
    price = next(c["cost"] for c in state["project"]["offered"] if c["id"] == card)
    expect(chosen).to_contain_text(isolated("The President chooses", name))
    expect(chosen).to_contain_text(f"(cost {price})")
    state = reached("committee_vote")
    committee = set(state["project"]["committee"])
    assert len(committee) >= 3
    for player in NAMES:
        tag = players.locator(
            f'{tid("board-player")}[data-name="{player}"] {tid("player-tag")}[data-tag="committee"]'
        )
        expect(tag).to_have_count(1 if player in committee else 0)

    state = reached("discussion")
    result = state["project"]["result"]
    revealed("committee", f"{result['support']}\u2013{result['oppose']}")  # an en dash
    game.advance()  # the claims, the Ombudsperson's Witness, the host closes it
    latest = {c["player"]: c for c in game.claims[1]}
    for player, claim in latest.items():
        pin = players.locator(f'{tid("board-player")}[data-name="{player}"] {tid("board-claim")}')
        expect(pin).to_have_attribute("data-claim", claim["claim"])
        if claim["claim"] == "suspect":
            expect(pin).to_contain_text(isolated("suspects", claim["target"]))
        if claim["claim"] == "role":
            expect(pin).to_contain_text(isolated("claims to be the", "Ombudsperson"))
    while game.where()[0] == 1:  # the Witness vote, the jail vote (and its runoff)
        state = game.advance()
    assert state["year"] == 2
    jailed = [p for p in state["players"] if p["strikes"] == 1]
    assert jailed, "nobody was jailed in Year 1"
    item = reveal.locator(f'{tid("reveal-item")}[data-kind="jail"]')
    expect(item).to_contain_text("is jailed")
    expect(reveal.locator(f'{tid("reveal-item")}[data-kind="year"]')).to_contain_text(
        "End of Year 1"
    )
    expect(
        players.locator(f'{tid("board-player")}[data-name="{jailed[0]["name"]}"]')
    ).to_contain_text("⚠ 1 strike")
    expect(players).not_to_contain_text("strike(s)")

    # Year 2's treasury report: Year 1's decrease against the known cost of its project
    while game.where()[1] == "hidden":
        state = game.advance()
    assert game.host is not None
    timeline = game.host.timeline
    report = next(e for e in timeline if e["kind"] == "treasury_report" and e["year"] == 2)
    decrease = report["params"]["decrease"]
    cost = state_cost = result["succeeded"] and next(
        e["params"]["cost"] for e in timeline if e["kind"] == "project_voted" and e["year"] == 1
    )
    cost = int(state_cost or 0)
    corrupt = sum(1 for role in game.roles.values() if role is Role.CORRUPT_POLITICIAN)
    assert decrease == cost + corrupt  # R-25 step 3 and R-31: every free Corrupt stole 1
    tile = board.el("treasury-tile")
    expect(tile).to_have_attribute("data-year", "1")
    expect(tile).to_have_attribute("data-decrease", str(decrease))
    expect(tile).to_have_attribute("data-projects", str(cost))
    expect(tile).to_have_attribute("data-unexplained", str(corrupt))
    expect(tile).to_contain_text(name)
    item = reveal.locator(f'{tid("reveal-item")}[data-kind="treasury"]')
    expect(item).to_contain_text(f"Total decrease: {decrease}")
    expect(item).to_contain_text(f"Not explained by projects: {corrupt}")
    chart = board.el("treasury-chart")
    expect(chart).to_have_attribute(
        "aria-label", re.compile(f"Year 1: down {decrease}, of which {cost} for projects")
    )

    board.page.keyboard.press("Escape")
    entries = board.el("timeline").locator(tid("timeline-entry"))
    texts = entries.all_inner_texts()
    assert texts and not [t for t in texts if CODE.search(t)], [t for t in texts if CODE.search(t)]


PINS = """() => [...document.querySelectorAll('[data-testid="board-claim"]')].map((pin) => {
  // each claim pinned to a name as read: its words' type (size, style, weight), whether it
  // stays inside its player's box and clear of the name and the tags, and is cut across
  const row = pin.closest('[data-testid="board-player"]');
  const words = [];
  const walker = document.createTreeWalker(pin, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.data.trim() || el.closest('.sr-only')) continue;
    const style = getComputedStyle(el);
    const size = parseFloat(style.fontSize);
    words.push([node.data.trim(), size, style.fontStyle, Number(style.fontWeight)]);
  }
  const [p, r] = [pin.getBoundingClientRect(), row.getBoundingClientRect()];
  const over = [...row.querySelectorAll('.who, .tags')].filter((el) => {
    const o = el.getBoundingClientRect();
    return Math.min(o.bottom, p.bottom) - Math.max(o.top, p.top) > 0.5
      && Math.min(o.right, p.right) - Math.max(o.left, p.left) > 0.5;
  });
  return {
    name: row.dataset.name, words,
    outside: p.left < r.left - 1 || p.right > r.right + 1
      || p.top < r.top - 1 || p.bottom > r.bottom + 1,
    over: over.map((el) => el.className),
    cut: pin.scrollWidth > pin.clientWidth + 1,
  };
})"""
"""Every claim pinned on the board: its words' type and how it sits in its player's box."""

PIN_SCREENS = [(1280, 720, 1, "en"), (1920, 1080, 1, "en"), (1280, 720, 1, "fil")]


def long_claims(game: TvGame) -> Any:
    """Every active seat's claim in a Year's discussion, the longest the board pins: a
    finding about a 24-character name (as the Ombudsperson) or a kickback (as the COA)."""

    def claims(_year: int) -> list[dict[str, Any]]:
        active = [p["name"] for p in game.state()["players"] if p["status"] == "active"]
        return [
            {"player": name, "claim": "investigation", "target": target, "aligned": "bad"}
            if i % 2 == 0
            else {"player": name, "claim": "audit", "kickback": True}
            for i, (name, target) in enumerate(zip(active, [*active[1:], active[0]], strict=True))
        ]

    return claims


def assert_pins_read(board: Tab, count: int, where: str) -> None:
    """``count`` claims are pinned, every word of each at least the board's smallest body
    text (0.75rem) as rendered, upright and at least semi-bold (an italic 12 px did not
    read across a room), inside its player's box, clear of the name and the tags and not
    cut; and the board (sixteen players) still fits the screen."""
    pins = board.el("board-players").locator(tid("board-claim"))
    expect(pins).to_have_count(count)
    root = board.page.evaluate(
        "() => parseFloat(getComputedStyle(document.documentElement).fontSize)"
    )
    for pin in board.page.evaluate(PINS):
        who = f"{board.label} at {where}: {pin['name']}'s claim"
        small = [(text, size) for text, size, _, _ in pin["words"] if size < 0.75 * root - 0.01]
        assert not small, f"{who}: smaller than {0.75 * root:.1f} px: {small}"
        italic = [text for text, _, style, _ in pin["words"] if style != "normal"]
        assert not italic, f"{who}: not upright: {italic}"
        thin = [(text, weight) for text, _, _, weight in pin["words"] if weight < 600]
        assert not thin, f"{who}: thin: {thin}"
        assert not pin["outside"], f"{who} leaves its box"
        assert not pin["over"], f"{who} is over its {pin['over']}"
        assert not pin["cut"], f"{who} is cut"
    assert_fits(board, GAME_HOOKS, where)


def test_claims_pinned_to_names_read_across_the_room(
    game: TvGame, tabs: Tabs, tmp_path: Path
) -> None:
    """Sixteen seats with 24-character names each make the longest claim the board pins
    (the Ombudsperson's finding about a 24-character name, the COA's kickback) in Year 1's
    discussion. On 1280x720 and 1920x1080 TVs (and 1280x720 in Filipino), after that
    discussion and again in Year 2 (each pin then tagged with its Year): every pinned
    claim's words are at least the board's smallest body text as rendered (0.75rem: 12 px
    at 720p, 18 px at 1080p; the Year tag was 10.6 px at 720p), upright and semi-bold
    (they were italic), inside their player's box and clear of the name and tags, and the
    players list still fits the screen."""
    store = {f"korapsyon:{game.code}": {"host_token": game.host_token}}
    boards = [tv(tabs, f"/board?room={game.code}", screen, store) for screen in PIN_SCREENS]
    for board in boards:
        expect(board.el("seat-list").locator(tid("seat-item"))).to_have_count(16)
    game.start()
    claims = long_claims(game)
    while game.where()[1] != "discussion":
        game.advance()
    active = sum(p["status"] == "active" for p in game.state()["players"])
    game.advance(claims)  # the discussion: every active seat's claim
    for when in ("Year 1, after the discussion", "Year 2"):
        if when == "Year 2":
            while game.where()[0] == 1:
                game.advance(claims)
        for board in boards:
            expect(board.el("board-year")).to_have_attribute("data-year", str(game.where()[0]))
            board.page.keyboard.press("Escape")  # (a result's reveal is over the board)
            expect(board.el("board-reveal")).to_be_hidden()
            _, size, lang = board.label.split()
            shot = f"pins-{size.removesuffix('@1')}-{lang}-y{game.where()[0]}.png"
            board.page.screenshot(path=tmp_path / shot)
            assert_pins_read(board, active, when)
    tabs.assert_clean()


def test_the_phone_table_tags_the_committee_and_marks_you(live: Live, tabs: Tabs) -> None:
    """Nine seats whose players never connect but Ana, on a phone; the host's board moves
    the game on with "end now" (R-72 defaults: everyone stands, lots, the President's card
    and committee drawn). On Ana's phone, the table's players list marks her "(you)" and,
    once the committee is named, tags its members and nobody else (R-34)."""
    code, host_token = api_room(live, {"timers": False})
    names = table(9)
    seats = {name: api_seat(live, code, name) for name in names}
    phone = tabs.open("Ana", f"/play?room={code}", storage={f"korapsyon:{code}": seats[names[0]]})
    board = tabs.open(
        "board",
        f"/board?room={code}",
        phone=False,
        storage={f"korapsyon:{code}": {"host_token": host_token}},
    )
    start(live, code, host_token)
    game = wait_for_game(live, code)
    while game.step is not Step.COMMITTEE_VOTE:
        step = game.step
        assert step is not None
        # (a reveal covers the board below its top bar: the host's controls stay in reach)
        board.el("timer-end").click()
        board.el("end-now").click()
        expect(board.el("board-step")).not_to_have_attribute("data-step", step.value)
    committee = {game.players[s] for s in game.committee}
    fold = phone.page.locator("details.table-facts")
    fold.locator("summary").click()
    players = phone.el("board-players")
    me = players.locator(f'{tid("board-player")}[data-name="{names[0]}"]')
    expect(me).to_contain_text("(you)")
    expect(players.get_by_text("(you)")).to_have_count(1)  # only her own name
    assert len(committee) >= 1
    for name in names:
        row = players.locator(f'{tid("board-player")}[data-name="{name}"]')
        tag = row.locator(f'{tid("player-tag")}[data-tag="committee"]')
        expect(tag).to_have_count(1 if name in committee else 0)


ANALYSIS_TEXT = """() => {
  // every word of the end screen's analysis as read: its type size (an SVG text's, its
  // height on the screen) and the rectangles of its line names
  const box = document.querySelector('[data-testid="analysis"]');
  const sizes = [];
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.data.trim() || el.closest('[hidden], title') || !el.getClientRects().length) continue;
    const size = el instanceof SVGElement
      ? el.getBoundingClientRect().height : parseFloat(getComputedStyle(el).fontSize);
    sizes.push([size, node.data.trim()]);
  }
  const names = [...box.querySelectorAll('.analysis-label:not([hidden])')].map((label) => {
    const r = label.getBoundingClientRect();
    return [r.top, r.bottom];
  });
  const root = parseFloat(getComputedStyle(document.documentElement).fontSize);
  return { sizes, names, smallest: 0.75 * root };
}"""
"""The analysis's words and their sizes, the names' boxes, and the board's smallest body
text (its players' tags, 0.75rem: 12 px at 720p)."""


MOMENT_RANKS = """() => [...document.querySelectorAll('[data-testid="analysis-moment"]')]
  .map((m) => [Number(m.dataset.rank), !m.hidden && m.getClientRects().length > 0,
               Number(getComputedStyle(m).order), m.getBoundingClientRect().top])"""
"""Each of the board's moments, in the list's order: its rank (0: the most telling), whether
it is shown, its place in the order the moments happened, and its top on the screen."""


@pytest.mark.parametrize("players", [13, 16])
def test_the_end_analysis_reads_from_the_sofa_on_a_tv(
    live: Live, tabs: Tabs, players: int, tmp_path: Path
) -> None:
    """At the end of a long game of 13 and of 16 players with 24-character names, the
    board's analysis (each player's line over the Years, issue #20) on 1280x720 and
    1920x1080 TVs (and 1280x720 in Filipino): none of its words (the percentages, the
    Years, the names at the lines' ends, the legend, the moments) is smaller than the
    board's smallest body text (12 px at 720p, 18 px at 1080p; the chart's words were
    drawn at 9-10 px at 720p), no two names overlap, and the end screen still fits
    without scrolling."""
    code, host_token, _ = played(live, NAMES[:players])
    store = {f"korapsyon:{code}": {"host_token": host_token}}
    for width, height, lang in [(1280, 720, "en"), (1920, 1080, "en"), (1280, 720, "fil")]:
        board = tv(tabs, f"/board?room={code}", (width, height, 1, lang), store)
        expect(board.el("end-screen")).to_have_attribute("data-fit", "done")
        expect(board.el("analysis")).to_have_attribute("data-state", "done")
        expect(board.el("analysis-chart")).to_be_visible()
        assert_comes_to_fit(board, [*GAME_HOOKS, "analysis", "analysis-chart"], "the end")
        board.page.screenshot(path=tmp_path / f"end-{players}-{width}x{height}-{lang}.png")
        # the moments stand most telling first (rank 0), so that the least telling give
        # way first, and are shown in the order they happened
        moments = board.page.evaluate(MOMENT_RANKS)
        assert [m[0] for m in moments] == list(range(len(moments))), moments
        shown = sorted((top, order) for _, visible, order, top in moments if visible)
        assert shown and [o for _, o in shown] == sorted(o for _, o in shown), moments
        read = board.page.evaluate(ANALYSIS_TEXT)
        assert read["smallest"] >= height / 60 - 0.01  # (the board's type is the screen's)
        small = [(size, text) for size, text in read["sizes"] if size < read["smallest"] - 0.01]
        assert read["sizes"] and not small, f"{board.label}: {read['smallest']:.2f} px: {small}"
        names = sorted(read["names"])
        assert names, f"{board.label}: no line is named"
        overlaps = [(a, b) for a, b in pairwise(names) if b[0] < a[1] - 0.5]
        assert not overlaps, f"{board.label}: names overlap: {overlaps}"
        cut = board.page.evaluate(NAMES_CUT)  # the roles: a name gives way after its role
        assert not cut, f"{board.label}: a name gives way before its role: {cut}"
    tabs.assert_clean()


def test_the_end_fund_chart_reads_from_the_sofa_on_a_tv(
    live: Live, tabs: Tabs, tmp_path: Path
) -> None:
    """At the end of a long game of sixteen players with 24-character names, the end
    screen's chart of the Corruption Fund and the true Kaban over the Years (R-50) on
    1280x720 and 1920x1080 TVs in English and in Filipino: none of its words (its title,
    the axis's figures, the Years, "Start", the legend) is smaller than the board's smallest
    body text as rendered (0.75rem: 12 px at 720p, 18 px at 1080p; the figures and the
    Years were drawn in the chart's SVG at 10.9 px at 720p, 16.4 px at 1080p, and the
    fitted end screen made the legend 11.5 px, 17.2 px), no word is over another or out of
    the chart, and the end screen still fits without scrolling.
    On a 360x640 phone the same chart, in the end's night-by-night fold, keeps to the
    phone's smallest body text and its width."""
    code, host_token, tokens = played(live, NAMES)
    store = {f"korapsyon:{code}": {"host_token": host_token}}
    screens = [(1280, 720, "en"), (1920, 1080, "en"), (1280, 720, "fil"), (1920, 1080, "fil")]
    for width, height, lang in screens:
        board = tv(tabs, f"/board?room={code}", (width, height, 1, lang), store)
        expect(board.el("end-screen")).to_have_attribute("data-fit", "done")
        expect(board.el("analysis")).to_have_attribute("data-state", "done")  # (beside it)
        expect(board.el("fund-chart")).to_be_visible()
        assert_comes_to_fit(board, [*GAME_HOOKS, "fund-chart", "analysis"], "the end")
        board.page.screenshot(path=tmp_path / f"fund-{width}x{height}-{lang}.png")
        texts = assert_words_read(board, "fund-chart", f"{board.label}, the end")
        assert {"Start", "Simula"} & set(texts), f"{board.label}: no Start: {texts}"
        assert any(t.isdigit() and int(t) > 0 for t in texts), f"{board.label}: no Year: {texts}"
    name = NAMES[0]
    seat = {"token": tokens[name], "name": name}
    phone = tabs.open(
        name,
        f"/play?room={code}",
        storage={f"korapsyon:{code}": seat},
        viewport={"width": 360, "height": 640},
    )
    phone.page.locator(f'{tid("end-fold")}[data-fold="night"] summary').click()
    phone.el("fund-chart").scroll_into_view_if_needed()
    phone.page.screenshot(path=tmp_path / "fund-phone-360x640.png")
    assert_words_read(phone, "fund-chart", "a 360x640 phone, the end")
    across = phone.page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert across <= 0, f"the phone's end scrolls {across} px across"
    tabs.assert_clean()


NAMES_CUT = """() => [...document.querySelectorAll('[data-testid="revealed-role"]')]
  .map((li) => [li.querySelector('.name'), li.querySelector('.role-badge'), li.clientWidth])
  .filter(([name, badge, row]) => {
    const cut = (el) => el.scrollWidth > el.clientWidth + 4; // (not the flex's rounding)
    const least = parseFloat(getComputedStyle(badge).minWidth);
    // a name cut while its role's title could have given more, or a role cut while the
    // whole name leaves room for it
    const alone = name.parentElement.children.length === 2; // (no tag beside them)
    return (cut(name) && badge.clientWidth > least + 4)
      || (alone && cut(badge) && !cut(name) && row - name.clientWidth > badge.scrollWidth + 30);
  })
  .map(([name]) => name.textContent)"""
"""The end's revealed roles where a name gives way before its role's title, or a role's
title gives way though the row has room for it."""


CHART_TEXT = """(testid) => {
  // every word of a chart's box (its heading, the chart, its legend) as read: its type
  // size (an SVG text's computed size times the SVG's scale on the screen) and its box;
  // the chart's box; the board's smallest body text
  const chart = document.querySelector(`[data-testid="${testid}"]`);
  const words = [];
  const walker = document.createTreeWalker(chart.parentElement, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.data.trim() || el.closest('[hidden], title') || !el.getClientRects().length) continue;
    const svg = el.closest('svg');
    const scale = el instanceof SVGElement && svg ? svg.getScreenCTM().a : 1;
    const range = document.createRange();
    range.selectNodeContents(node);
    const r = el instanceof SVGElement ? el.getBoundingClientRect() : range.getBoundingClientRect();
    const size = parseFloat(getComputedStyle(el).fontSize) * scale;
    const box = [r.left, r.top, r.right, r.bottom];
    words.push({ text: node.data.trim(), size, box, inChart: chart.contains(el) });
  }
  const c = chart.getBoundingClientRect();
  const root = parseFloat(getComputedStyle(document.documentElement).fontSize);
  return { words, chart: [c.left, c.top, c.right, c.bottom], smallest: 0.75 * root };
}"""
"""The words of the chart ``testid`` and of its box (with their sizes and boxes), the
chart's box and the page's smallest body text (0.75rem)."""

LONG = {"timers": False, "bot_delay": [0.0, 0.0]} | {
    "ruleset": {"corruption_fund_target": 1000, "public_spending_target": 1000}
}
"""A game no side wins by its Fund or its Public Spending for many Years (only a purge)."""


def assert_words_read(board: Tab, testid: str, where: str) -> list[str]:
    """Every word of the chart ``testid`` and of its box (its heading and legend) is at
    least the page's smallest body text as rendered, none is over another and the chart's
    own words stay inside it: the chart's words."""
    read = board.page.evaluate(CHART_TEXT, testid)
    small = [(round(w["size"], 1), w["text"]) for w in read["words"]]
    small = [(size, text) for size, text in small if size < read["smallest"] - 0.05]
    assert not small, f"{where}: smaller than {read['smallest']:.1f} px: {small}"
    texts = [w["text"] for w in read["words"] if w["inChart"]]
    left, top, right, bottom = read["chart"]
    outside = [
        (w["text"], [round(v) for v in w["box"]])
        for w in read["words"]
        if w["inChart"]
        and (
            w["box"][0] < left - 1
            or w["box"][1] < top - 1
            or w["box"][2] > right + 1
            or w["box"][3] > bottom + 1
        )
    ]
    assert not outside, f"{where}: out of the chart: {outside}"
    boxes = [(w["text"], w["box"]) for w in read["words"]]
    overlaps = [
        (a, b)
        for i, (a, ra) in enumerate(boxes)
        for b, rb in boxes[i + 1 :]
        if min(ra[2], rb[2]) - max(ra[0], rb[0]) > 0.5
        and min(ra[3], rb[3]) - max(ra[1], rb[1]) > 0.5
    ]
    assert not overlaps, f"{where}: words over words: {overlaps}"
    return texts


def assert_chart_reads(board: Tab, year: int, *, tv: bool) -> None:
    """Every word of the treasury chart (Years 1 to ``year``) is at least the board's
    smallest body text as rendered, none overlaps another, and the chart's own words stay
    inside it; on a TV the page also fits without scrolling."""
    chart = board.el("treasury-chart")
    expect(chart).to_have_attribute("aria-label", re.compile(f"(Year|Taon) {year}: "))
    where = f"{board.label}, Year {year}"
    texts = assert_words_read(board, "treasury-chart", where)
    for y in range(1, year + 1):  # (in Filipino T1, in English Y1)
        assert any(re.fullmatch(f"[YT]{y}", t) for t in texts), f"{where}: Year {y}: {texts}"
    expect(chart.locator(tid("treasury-year"))).to_have_count(year)  # a bar a Year
    if tv:
        assert_fits(board, GAME_HOOKS, f"Year {year}")
    else:
        across = board.page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
        assert across <= 0, f"{where}: the page scrolls {across} px across"


def test_the_treasury_chart_reads_from_the_sofa_on_a_tv(
    live: Live, tabs: Tabs, tmp_path: Path
) -> None:
    """A game of sixteen played into its eighth Year (no side reaches its target): the
    treasury chart (each Year's decrease against its known project cost, R-31, R-34) on
    1280x720 and 1920x1080 TVs in English and in Filipino, and on the board opened on a
    phone (360x640, 390x844), at Years 2, 5 and 8 (the eighth Year's bar still waiting
    for its report). None of its words (the axis numbers, the Years, the values over the
    bars, what the projects do not explain, the heading and the legend) is smaller than
    the board's smallest body text as rendered (0.75rem: 12 px at 720p, 18 px at 1080p;
    they were drawn at 7-9 px at 720p), no word is over another or out of the chart, and
    the TV's page does not scroll."""
    game = TvGame(live, settings=LONG)
    try:
        store = {f"korapsyon:{game.code}": {"host_token": game.host_token}}
        screens = [(1280, 720, "en"), (1920, 1080, "en"), (1280, 720, "fil"), (1920, 1080, "fil")]
        boards = [
            (tv(tabs, f"/board?room={game.code}", (w, h, 1, lang), store), True)
            for w, h, lang in screens
        ]
        for w, h in [(360, 640), (390, 844)]:
            boards.append((tv(tabs, f"/board?room={game.code}", (w, h, 1, "en"), store), False))
        for board, _ in boards:
            expect(board.el("seat-list").locator(tid("seat-item"))).to_have_count(16)
        game.start()
        for year in (2, 5, 8):
            while game.where()[0] != year or game.where()[1] == "hidden":  # (its report)
                assert game.where()[2] != "finished", f"the game ended in Year {game.where()[0]}"
                game.advance(lambda _: [])  # (no talk: a claim a Year runs into the rate limit)
            for board, on_tv in boards:
                # The report was revealed (over the board; it stays in the reveal until the
                # next result, though the reveal's own 7 s may have closed it by the time a
                # busy machine gets to the sixth board: so not "visible")
                report = board.el("board-reveal").locator(
                    f'{tid("reveal-item")}[data-kind="treasury"]'
                )
                expect(report).to_be_attached()
                expect(report.locator(".reveal-title")).to_contain_text(str(year - 1))
                unrevealed(board)
                _, size, lang = board.label.split()
                board.page.screenshot(
                    path=tmp_path / f"treasury-{size.removesuffix('@1')}-{lang}-y{year}.png",
                    full_page=not on_tv,
                )
                assert_chart_reads(board, year, tv=on_tv)
    finally:
        game.close()
    tabs.assert_clean()
