"""The end of a game at a party table (issue #18): every phone says "You won" / "You lost"
in words of its team (and why Good won when both targets fell in one Year, R-50), and the
host plays again with one tap: every page of the table (phones, the board, a spectator)
moves to the new game by itself, in the same seats, with a new deal."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from korapsyon.rules.roles import Role
from korapsyon.selfplay import table
from korapsyon.server.shards import Shards
from tests.server.live import Live, add_bots, free_port, running, start
from tests.web.harness import (
    Tabs,
    api_room,
    api_seat,
    ask_then_confirm,
    cautious,
    play_turns,
    role_shown,
    roles_of,
    tid,
    wait_for_game,
)
from tests.web.scripted import Seats, catalog, names_tokens, open_phone, plain, quiet

QUICK = {"timers": False, "bot_delay": [0.0, 0.05], "ruleset": {"max_years": 1}}
"""Bots answer at once; the game stops at the end of Year 1 (R-51)."""


def test_rematch_keeps_every_seat(live: Live, tabs: Tabs) -> None:
    code, host_token = api_room(live, QUICK)
    people = ["Ana", "Ben", "Cris"]
    phones = []
    for name in people:
        kept = api_seat(live, code, name)
        if name == "Ana":  # the host plays too
            kept["host_token"] = host_token
        phones.append(tabs.open(name, f"/play?room={code}", storage={f"korapsyon:{code}": kept}))
    add_bots(live, code, host_token, 6)
    board = tabs.open("board", f"/board?room={code}", phone=False)
    spectator = tabs.open("spectator", f"/play?room={code}&spectate=1")
    start(live, code, host_token)
    old = wait_for_game(live, code)
    roles = roles_of(old)
    host = phones[0]
    play_turns(
        phones,
        {tab.label: tab.label for tab in phones},
        lambda me, snap: cautious(snap),
        host=host,
        until=lambda snaps: all(s.end for s in snaps.values()),
    )
    assert old.outcome is not None
    winner = old.outcome.winner
    for tab in phones:  # a personal result first, in words of the player's team
        mine = tab.el("my-result")
        expect(mine).to_be_visible()
        team = roles[tab.label].team
        result = "draw" if winner == "draw" else "won" if winner == team.value else "lost"
        expect(mine).to_have_attribute("data-result", result)
        expect(mine).to_have_attribute("data-team", team.value)
        expect(tab.el("role-card")).to_be_hidden()  # nothing left to press and hold for
        expect(tab.el("win-reason")).not_to_contain_text("R-5")  # no rule ids to read
        expect(tab.el("rematch") if tab is host else tab.el("rematch-hint")).to_be_visible()
    for tab in (board, spectator):
        expect(tab.el("end-screen")).to_be_visible()
        expect(tab.el("my-result")).to_have_count(0)
        expect(tab.el("rematch")).to_have_count(0)  # not the host's page
    expect(board.el("night-reveal")).to_be_visible()  # large on the board
    expect(board.el("reveal-year")).to_have_count(old.year)

    host.el("rematch").click()
    host.el("rematch-yes").click()  # (it asks first: once it takes taps)
    host.page.wait_for_url(re.compile(r"room=(?!" + code + r")[A-Z]{5}"))
    new = host.page.url.split("room=")[1][:5]
    game = wait_for_game(live, new)
    assert game.players == old.players and game.seed != old.seed  # dealt anew
    for tab in [*phones, board, spectator]:
        tab.page.wait_for_url(re.compile(f"room={new}"))  # by itself, without a tap
    assert "spectate=1" in spectator.page.url
    for tab in phones:  # the same seat, with a role of the new deal
        expect(tab.el("screen")).to_have_attribute("data-step", "hidden")
        expect(tab.el("end-screen")).to_have_count(0)
        assert tab.storage(new)["token"] == tab.storage(code)["token"]
        assert role_shown(tab) == roles_of(game)[tab.label].value
    assert host.storage(new)["host_token"] == host_token
    seated = {c.seat for c in live.hub.rooms[new].connections if c.seat is not None}
    assert seated == set(people)
    players = board.el("board-players").locator(tid("board-player"))
    expect(players).to_have_count(len(old.players))
    assert players.evaluate_all("(items) => items.map((i) => i.dataset.name)") == list(old.players)
    expect(spectator.el("screen")).to_be_visible()
    tabs.assert_clean()


def test_the_table_follows_a_rematch_to_another_worker_s_origin(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With two workers the new room's code may be the other worker's: the pages of the
    table move to that worker's origin, where their tokens were never kept, carrying them
    in the URL fragment (net.js handOver), and sit in the same seats there; the last game's
    results are the first worker's, and its link takes the page back there and on again."""
    db = f"sqlite:///{tmp_path / 'korapsyon.sqlite3'}"
    ports = sorted({free_port(), free_port()})
    while len(ports) < 2:
        ports = sorted({*ports, free_port()})
    urls = (f"http://127.0.0.1:{ports[0]}", f"http://127.0.0.1:{ports[1]}")
    shards = Shards(urls, 0)
    with (
        running(db, port=ports[0], shards=shards) as first,
        running(db, port=ports[1], shards=Shards(urls, 1)),
    ):
        tabs = Tabs(browser, urls[0])
        try:
            code, host_token = api_room(first, QUICK)
            while not shards.owns(code):
                code, host_token = api_room(first, QUICK)
            kept = {**api_seat(first, code, "Ana"), "host_token": host_token}
            ana = tabs.open("Ana", f"/play?room={code}", storage={f"korapsyon:{code}": kept})
            add_bots(first, code, host_token, 8)
            start(first, code, host_token)
            wait_for_game(first, code)
            play_turns(
                [ana],
                {"Ana": "Ana"},
                lambda me, snap: cautious(snap),
                host=ana,
                until=lambda snaps: snaps["Ana"].end,
            )
            drawn = first.hub._new_code

            def theirs() -> str:
                found = drawn()
                return found if shards.owner(found) == 1 else theirs()

            monkeypatch.setattr(first.hub, "_new_code", theirs)
            ana.el("rematch").click()
            ana.el("rematch-yes").click()
            there = re.escape(urls[1]) + r"/play\?room=([A-Z]{5})&previous=" + code + "$"
            ana.page.wait_for_url(re.compile(there))
            moved = re.match(there, ana.page.url)
            assert moved is not None
            new = moved[1]
            expect(ana.el("screen")).to_have_attribute("data-step", "hidden")
            stored = ana.storage(new)  # kept on the new origin, from the fragment
            assert stored["token"] == kept["token"] and stored["host_token"] == host_token
            assert role_shown(ana)  # her seat
            # the last game is the first worker's: its link is sent there, where her
            # tokens of the old room were kept (her own result shows)
            ana.el("last-game-link").click()
            ana.page.wait_for_url(f"{urls[0]}/play?room={code}&review=1")
            expect(ana.el("my-result")).to_be_visible()
            ana.el("rematch-next").click()
            ana.page.wait_for_url(re.compile(there))
            assert role_shown(ana)
            tabs.assert_clean()
        finally:
            tabs.close()


def test_R50_both_targets_in_one_year_the_end_says_why_good_wins(live: Live, tabs: Tabs) -> None:
    """Both targets are reached at the end of Year 1 (a table with targets of 1: a steal
    and an approved project): Good wins, its goal being checked first (R-50), and the end
    says so, to the table and in a Corrupt player's own words (whose Fund is over its line
    on the chart: "the Good team stopped the Corrupt" would read as a wrong result)."""
    words = catalog("en")
    ruleset = {"public_spending_target": 1, "corruption_fund_target": 1}
    code, host_token = api_room(live, QUICK | {"ruleset": ruleset})
    tokens = names_tokens(live, code, table(9))
    seats = Seats(live, code, host_token, tokens)
    watcher = tabs.open("spectator", f"/play?room={code}&spectate=1")
    start(live, code, host_token)
    game = wait_for_game(live, code)
    expect(watcher.el("screen")).to_be_visible()
    watcher.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # (reading on)

    def policy(name: str, view: dict[str, Any]) -> dict[str, Any] | None:
        """Every free Corrupt steals; everyone stands; the committee supports."""
        action = quiet(name, view)
        kind = action["action"]
        if kind == "corrupt":
            action["nakaw"] = True
        elif kind == "stand":
            action["stand"] = True
        elif kind == "elect":
            action["candidate"] = view["you"]["choices"][0]["options"]["candidate"][-1]
        elif kind == "committee_vote":
            action["support"] = True
        return action

    seats.until(lambda: game.outcome is not None, policy)
    assert game.outcome is not None and game.outcome.winner == "good"
    assert game.corruption_fund >= game.corruption_fund_target  # (both, R-50)
    seats.close()
    expect(watcher.el("winner")).to_be_in_viewport()  # the end opens at its result
    corrupt = next(n for n, r in roles_of(game).items() if r is Role.CORRUPT_POLITICIAN)
    phone = open_phone(tabs, code, corrupt, tokens[corrupt])
    reason = phone.el("win-reason")
    expect(reason).to_have_attribute("data-both", "true")
    expect(reason).to_contain_text(words["end.reason.both"])
    mine = phone.el("my-result")
    expect(mine).to_have_attribute("data-result", "lost")
    role = words["role.corrupt_politician"]
    said = words["end.mine.lost.bad_both"].replace("{role}", role)
    assert said in plain(mine.text_content())  # (the role's name isolated: plain)
    tabs.assert_clean()


def _finished(live: Live) -> tuple[str, str, dict[str, str]]:
    """A room of nine seats (over HTTP) whose one-Year game the test's seats played to its
    end: its code, the host's token and the seats' tokens."""
    code, host_token = api_room(live, QUICK)
    tokens = names_tokens(live, code, table(9))
    seats = Seats(live, code, host_token, tokens)
    start(live, code, host_token)
    game = wait_for_game(live, code)
    seats.until(lambda: game.outcome is not None)
    seats.close()
    return code, host_token, tokens


@pytest.mark.parametrize(
    ("screen", "locale", "size"),
    [
        ("phone", "en-US", (390, 844)),
        ("phone", "fil-PH", (360, 640)),
        ("board", "en-US", (1280, 720)),
        ("board", "fil-PH", (1920, 1080)),
    ],
)
def test_play_again_asks_first_and_a_double_tap_deals_nothing(
    live: Live, tabs: Tabs, screen: str, locale: str, size: tuple[int, int]
) -> None:
    """The host's "Play again" (the host's phone, or a board-only host's TV) takes every
    screen of the table away from the results it shows, so its tap asks first, in place:
    "Start the new game now? ...", with "Not now" focused and a "Play again" that takes
    taps only 0.7 s after it appears (the page's clock is the test's: no waiting). A double
    tap, a tap on "Play again" as it appears and "Not now" deal nothing; asked again, the
    armed "Play again" deals the new game."""
    words = catalog("fil" if locale == "fil-PH" else "en")
    code, host_token, tokens = _finished(live)
    name = next(iter(tokens))
    seat = {"token": tokens[name], "name": name} if screen == "phone" else {}  # (a board-only host)
    kept = {"host_token": host_token} | seat
    host = tabs.open(
        screen,
        phone=screen == "phone",
        storage={f"korapsyon:{code}": kept},
        viewport={"width": size[0], "height": size[1]},
        locale=locale,
    )
    page = host.page
    page.clock.install()
    page.goto(f"/{'play' if screen == 'phone' else 'board'}?room={code}")
    expect(host.el("end-screen")).to_be_visible()
    if host.el("board-reveal").is_visible():  # (the board's reveal of the roles, over it)
        page.keyboard.press("Escape")
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)  # (the page's time stands still)

    again = host.el("rematch")
    expect(again).to_have_text(f"🔁 {words['end.rematch']}")
    box = again.bounding_box()
    assert box is not None
    page.mouse.dblclick(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ask = host.el("rematch-ask")
    expect(ask).to_be_visible()
    assert plain(ask.locator("p").text_content()) == words["end.rematch_ask"]
    yes = host.el("rematch-yes")
    expect(yes).to_have_text(f"🔁 {words['end.rematch_yes']}")
    expect(yes).to_be_disabled()  # (not yet armed: the clock stands still)
    expect(host.el("rematch-not-now")).to_have_text(words["end.rematch_not_now"])
    yes.click(force=True)  # a quick tap as it appears

    host.el("rematch-not-now").click()  # back as it was
    expect(ask).to_have_count(0)
    expect(again).to_be_focused()
    assert live.hub.rooms[code].next_room is None  # nothing dealt

    ask_then_confirm(host, again, "rematch-not-now", "rematch-yes")  # (asked again: armed)
    page.wait_for_url(re.compile(r"room=(?!" + code + r")[A-Z]{5}"))
    assert live.hub.rooms[code].next_room is not None
    tabs.assert_clean()


def test_the_last_game_stays_a_tap_away_after_a_rematch(live: Live, tabs: Tabs) -> None:
    """Every screen moves to the new game at once (it has begun: the seats are needed
    there), and says so, with the way back to the finished game's results: a phone that
    was reading its analysis, and the TV, each show "New game" and "Last game", which
    opens the old room's end screen as it ended (its analysis, its chart), staying there
    (not moved on again) with "To the new game", which goes back to the same seat."""
    words = catalog("en")
    code, host_token, tokens = _finished(live)
    host_name, reader = list(tokens)[:2]
    kept = {"token": tokens[host_name], "name": host_name, "host_token": host_token}
    host = tabs.open(host_name, f"/play?room={code}", storage={f"korapsyon:{code}": kept})
    phone = open_phone(tabs, code, reader, tokens[reader])
    expect(phone.el("rematch-hint")).to_have_text(f"🔁 {words['end.rematch_wait']}")
    phone.page.locator(f'{tid("end-fold")}[data-fold="analysis"] summary').click()
    expect(phone.el("analysis")).to_be_visible()  # (reading it)
    board = tabs.open("board", f"/board?room={code}", phone=False)  # the TV: no token
    expect(board.el("end-screen")).to_be_visible()

    host.el("rematch").click()
    host.el("rematch-yes").click()  # (once it takes taps)
    for tab in (host, phone, board):
        tab.page.wait_for_url(re.compile(rf"room=(?!{code})[A-Z]{{5}}&previous={code}$"))
    new = phone.page.url.split("room=")[1][:5]
    assert role_shown(phone)  # the same seat, in the new game
    for tab in (phone, board):
        expect(tab.el("last-game-link")).to_have_text(words["end.last_game"])
    expect(phone.el("last-game")).to_contain_text(words["end.rematch_arrived"])
    expect(phone.el("last-game")).to_be_in_viewport()  # the first thing the phone shows

    phone.el("last-game-link").click()
    phone.page.wait_for_url(re.compile(rf"room={code}&review=1$"))
    expect(phone.el("my-result")).to_be_visible()  # this seat's end, as it was
    to_new = phone.el("rematch-next")
    expect(to_new).to_have_text(f"▶ {words['end.rematch_to_new']}")  # (the old room's next: here)
    assert f"room={code}&" in phone.page.url  # not moved on by it
    phone.page.locator(f'{tid("end-fold")}[data-fold="analysis"] summary').click()
    expect(phone.el("analysis")).to_be_visible()

    board.el("last-game-link").click()
    board.page.wait_for_url(re.compile(rf"/board\?room={code}&review=1$"))
    expect(board.el("fund-chart")).to_be_visible()
    expect(board.el("rematch-next")).to_be_visible()

    to_new.click()
    phone.page.wait_for_url(re.compile(rf"room={new}&previous={code}$"))
    assert role_shown(phone)  # back in the seat
    expect(phone.el("last-game-link")).to_be_visible()
    phone.page.goto("/")  # a closed tab: the lobby's way back (no ?previous) keeps it
    phone.el("rejoin-button").click()
    phone.page.wait_for_url(re.compile(rf"/play\?room={new}$"))
    expect(phone.el("last-game-link")).to_have_attribute("href", f"/play?room={code}&review=1")

    # the new game over too, its end says nothing more of a "new game", but the link stays
    others = {n: tokens[n] for n in tokens if n not in (host_name, reader)}
    seats = Seats(live, new, host_token, others)
    game = live.game(new)
    seats.until(lambda: game.outcome is not None, phones=[host, phone])
    seats.close()
    expect(phone.el("end-screen")).to_be_visible()
    news = phone.el("last-game").locator(".last-game-new")
    expect(news).to_have_count(1)
    expect(news).to_be_hidden()
    expect(phone.el("last-game-link")).to_be_visible()
    tabs.assert_clean()
