"""A whole game in real browsers: the host's lobby, players joining by link and by code,
bots, the board, every decision made through the phone UI, the end screen and the game
record; and a reload in the middle of a game that keeps the seat."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from korapsyon.record import read_record, replay
from korapsyon.rules.roles import Role
from tests.server.live import Live, add_bots, start
from tests.web.harness import (
    FAST,
    Tab,
    Tabs,
    api_room,
    api_seat,
    cautious,
    create_room,
    decide,
    join_by_code,
    join_by_link,
    play_turns,
    put_settings,
    role_shown,
    roles_of,
    sensible,
    snapshot,
    tid,
    wait_after_confirm,
    wait_for_game,
)


def _asked_analysis(tab: Tab) -> int:
    """How many times the page asked the server for an analysis (its resource timings)."""
    asked: int = tab.page.evaluate(
        "performance.getEntriesByType('resource')"
        ".filter((e) => new URL(e.name).pathname.endsWith('/analysis')).length"
    )
    return asked


def test_R01_R50_a_13_seat_game_from_the_lobby_to_the_end_screen(live: Live, tabs: Tabs) -> None:
    """R-01/R-02: 13 seats (4 phones, 9 bots) set up in the browser lobby; every decision
    made through the phone UI, the Hidden Phase on the night screen (R-70); the end screen
    names the winner (R-50), reveals every role and links the game record."""
    host = tabs.open("Ana")
    code = create_room(host, "Ana")
    stored = host.storage(code)
    assert stored["name"] == "Ana"
    host_token = str(stored["host_token"])
    put_settings(live, code, host_token, FAST)

    expect(host.el("qr-code")).to_be_visible()
    link = host.el("join-link").get_attribute("href")
    assert link and f"room={code}" in link
    phones = [host]
    for name in ("Ben", "Cris"):
        tab = tabs.open(name)
        join_by_link(tab, link, name, code)
        phones.append(tab)
    dani = tabs.open("Dani")
    join_by_code(dani, code, "Dani")
    phones.append(dani)

    seats = host.el("seat-list").locator(tid("seat-item"))
    expect(seats).to_have_count(4)
    for count in range(5, 14):
        host.el("add-bot").click()
        expect(seats).to_have_count(count)
    bots = seats.evaluate_all(
        "(items) => items.filter((i) => !['', 'false', null].includes(i.dataset.bot ?? null))"
        ".map((i) => i.dataset.name)"
    )
    assert len(bots) == 9 and not {"Ana", "Ben", "Cris", "Dani"} & set(bots)
    for tab in phones[1:]:  # everyone sees the same table
        expect(tab.el("seat-list").locator(tid("seat-item"))).to_have_count(13)
        expect(tab.el("start-game")).to_have_count(0)  # host only

    board_link = host.el("open-board").get_attribute("href")
    assert board_link and f"room={code}" in board_link
    board = tabs.open("board", board_link, phone=False)
    expect(board.el("seat-list").locator(tid("seat-item"))).to_have_count(13)

    host.el("start-game").click()
    wait_for_game(live, code)
    roles = roles_of(live.game(code))
    expect(board.el("board-players").locator(tid("board-player"))).to_have_count(13)
    for tab in phones:
        expect(tab.el("screen")).to_be_visible()
        assert role_shown(tab) == roles[tab.label].value

    def committee_size() -> int:
        return live.game(code).committee_size

    def describe() -> str:
        game = live.game(code)
        waiting = [game.players[s] for s in game.waiting_for]
        return f"server: Year {game.year}, step {game.step}, waiting for {waiting}"

    play_turns(
        phones,
        {tab.label: tab.label for tab in phones},
        sensible(roles, "Ana", committee_size),
        host=host,
        until=lambda snaps: all(s.end for s in snaps.values()),
        timeout=180,
        describe=describe,
    )

    game = live.game(code)
    assert game.outcome is not None
    # every decision of the browser players was theirs, made once through their page
    for tab in phones:
        taken = [a for a in game.actions if a.player == tab.label]
        assert taken and not any(a.auto for a in taken)
        assert len(taken) == sum(1 for key in tab.done if len(key) == 2), tab.label
    ended = [a for a in game.actions if a.kind == "end_discussion"]
    assert len(ended) == sum(1 for key in host.done if len(key) == 3) >= 1
    for tab in [*phones, board]:
        end = tab.el("end-screen")
        expect(end).to_be_visible()
        expect(end.locator(tid("winner"))).to_have_attribute("data-team", game.outcome.winner)
        expect(end.locator(tid("win-reason"))).not_to_be_empty()
        expect(end.locator(tid("recap-year"))).to_have_count(game.year)  # one per Year
        # the record is for the table: a phone holds its seat's token; this board holds none
        expect(end.locator(tid("download-record"))).to_have_count(0 if tab is board else 1)
        revealed = end.locator(tid("revealed-role"))
        expect(revealed).to_have_count(13)
        shown = {
            revealed.nth(i).get_attribute("data-name"): revealed.nth(i).get_attribute("data-role")
            for i in range(13)
        }
        assert shown == {name: role.value for name, role in roles.items()}
        # the analysis (issue #20): the board draws every player's line from what the whole
        # table could know; each phone, in a fold, every other player's line from its view,
        # asked of the server only when its player opens the fold
        analysis = end.locator(tid("analysis"))
        if tab is not board:
            expect(analysis).to_have_count(0)
            assert _asked_analysis(tab) == 0
            end.locator(f'{tid("end-fold")}[data-fold="analysis"] summary').click()
        expect(analysis).to_have_attribute("data-state", "done")
        assert _asked_analysis(tab) == 1
        if tab is board:
            expect(analysis).to_have_attribute("data-view", "public")
            lines = analysis.locator(".analysis-line")
            expect(lines).to_have_count(13)
            corrupt = {n for n, r in roles.items() if r is Role.CORRUPT_POLITICIAN}
            assert {
                lines.nth(i).get_attribute("data-name")
                for i in range(13)
                if "team-bad" in (lines.nth(i).get_attribute("class") or "")
            } == corrupt
        else:  # (a Corrupt player knew every side: the fold shows them the table's view)
            knew = roles[tab.label] is Role.CORRUPT_POLITICIAN
            expect(analysis).to_have_attribute("data-view", "public" if knew else tab.label)
            rows = analysis.locator(tid("analysis-row"))
            count = 13 if knew else 12  # every player, or every other one
            expect(rows).to_have_count(count)
            chances = [float(rows.nth(i).get_attribute("data-corrupt") or "") for i in range(count)]
            assert chances == sorted(chances, reverse=True)  # the most suspected first

    with host.page.expect_download() as downloading:  # asked for with the host's token
        host.el("download-record").click()
    assert downloading.value.suggested_filename == f"korapsyon-{code}.json"
    record, bad = read_record(Path(downloading.value.path()).read_bytes())
    assert bad is None
    assert record.format == "korapsyon-record/1"
    assert tuple(record.players) == tuple(game.players)
    replayed, stop = replay(record)
    assert stop is None and replayed.outcome == game.outcome
    tabs.assert_clean()


def test_a_reload_mid_game_keeps_the_seat_and_role(live: Live, tabs: Tabs) -> None:
    """A player's phone reloads during the Hidden Phase and later: the same seat and role
    come back (the token kept in localStorage) and the player can still act."""
    code, host_token = api_room(live)
    stored = api_seat(live, code, "Zenaida")
    add_bots(live, code, host_token, 8)
    phone = tabs.open("Zenaida", f"/play?room={code}", storage={f"korapsyon:{code}": stored})
    expect(phone.el("seat-list").locator(tid("seat-item"))).to_have_count(9)
    start(live, code, host_token)
    wait_for_game(live, code)
    role = roles_of(live.game(code))["Zenaida"].value

    expect(phone.el("night-screen")).to_be_visible()
    assert role_shown(phone) == role
    phone.page.reload()
    expect(phone.el("night-screen")).to_be_visible()
    expect(phone.page.locator("body")).to_contain_text("Zenaida")
    assert role_shown(phone) == role
    assert phone.storage(code)["token"] == stored["token"]

    # still the same seat: its night decision is taken and the Year goes on
    snap = snapshot(phone)
    assert snap.to_act and snap.step == "hidden"
    decide(phone, snap, cautious(snap))
    wait_after_confirm(phone, snap)
    expect(phone.el("screen")).not_to_have_attribute("data-step", "hidden")
    game = live.game(code)
    assert any(a.player == "Zenaida" and a.kind in _NIGHT for a in game.actions)

    # a reload in the Public Phase: the same step, and the player can act in it
    expect(phone.el("screen")).to_have_attribute("data-to-act", "true")
    step = phone.el("screen").get_attribute("data-step")
    phone.page.reload()
    expect(phone.el("screen")).to_have_attribute("data-step", step or "")
    assert role_shown(phone) == role
    snap = snapshot(phone)
    assert snap.to_act and snap.action is not None
    before = len(live.game(code).actions)
    decide(phone, snap, cautious(snap))
    wait_after_confirm(phone, snap)
    assert any(a.player == "Zenaida" for a in live.game(code).actions[before:])
    tabs.assert_clean()


_NIGHT = {"protect", "investigate", "corrupt", "auto_jail", "ready"}
