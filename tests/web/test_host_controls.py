"""The host's controls in a real browser (issue #18): nothing moves under a finger into a
control that cannot be undone, and ending a step early asks once and is announced; a
refused end of the discussion gives its button back.

Observed before the fix: in a board-only room the host tapped "End the discussion", then
the same spot again about 300 ms later; that button had gone and "End step now" had moved
under the finger, so the second tap ended the jail vote at once ("no votes (9
abstained)"), with no confirmation and nothing telling the table the host had cut it
short."""

from __future__ import annotations

import json
import time
from typing import Any

from playwright.sync_api import WebSocketRoute, expect

from korapsyon.rules.game import Game
from korapsyon.rules.steps import Step
from korapsyon.selfplay import table
from tests.server.live import Live, add_bots, start
from tests.web.harness import (
    FAST,
    HOUR_TIMERS,
    Tab,
    Tabs,
    api_room,
    api_seat,
    cautious,
    play_turns,
    relay,
    until_routed,
    wait_for_game,
)
from tests.web.scripted import Client, catalog, plain

VOTES = (Step.JAIL_VOTE, Step.WITNESS_VOTE, Step.FORCED_JAIL_VOTE)


def _board_only_game(live: Live, tabs: Tabs) -> tuple[Tab, Game]:
    """A game of nine seats whose players never connect (nothing moves but what the host
    does), without timers, and its host's board."""
    board, game, _, _ = _board_only_room(live, tabs)
    return board, game


def _board_only_room(live: Live, tabs: Tabs) -> tuple[Tab, Game, str, str]:
    """:func:`_board_only_game`, with its room's code and host token."""
    code, host_token = api_room(live, {"timers": False})
    for name in table(9):
        api_seat(live, code, name)
    board = tabs.open(
        "board", f"/board?room={code}", phone=False,
        storage={f"korapsyon:{code}": {"host_token": host_token}},
    )  # fmt: skip
    start(live, code, host_token)
    return board, wait_for_game(live, code), code, host_token


def test_a_double_tap_on_end_the_discussion_cannot_end_the_vote(live: Live, tabs: Tabs) -> None:
    """Nine seats whose players never connect, so nothing moves but what the host does. The
    host ends each step before the discussion with the timer's "end now", which asks once
    ("keep going" first) and is told to the table; then taps "End the discussion" and the
    same spot again once the jail vote has begun: the second tap does nothing (no vote is
    cut short, no default is recorded, no sheet opens)."""
    board, game = _board_only_game(live, tabs)
    ended = 0
    while game.step is not Step.DISCUSSION:  # the host moves the game on, one step at a time
        step = game.step
        assert step is not None
        board.el("timer-end").click()
        expect(board.el("confirm-end")).to_be_visible()
        board.el("end-now").click()
        expect(board.el("confirm-end")).to_have_count(0)
        expect(board.el("board-step")).not_to_have_attribute("data-step", step.value)
        ended += 1
        assert ended < 12, "no discussion after a dozen steps"
    expect(board.el("timeline")).to_contain_text("The host ended")  # the table is told
    end = board.el("end-discussion")
    expect(end).to_be_enabled()
    box = end.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    auto = sum(action.auto for action in game.actions)
    board.page.mouse.click(x, y)
    expect(board.el("board-step")).not_to_have_attribute("data-step", "discussion")  # voting now
    assert game.step in VOTES
    board.page.mouse.click(x, y)  # the same spot, again
    expect(board.el("end-discussion")).to_be_disabled()
    expect(board.el("confirm-end")).to_have_count(0)
    assert game.step in VOTES
    assert sum(action.auto for action in game.actions) == auto  # nobody's vote taken for them
    tabs.assert_clean()


def test_the_end_now_sheet_says_what_ending_each_step_does(live: Live, tabs: Tabs) -> None:
    """The host ends every step of Year 1 early, up to the vote after the discussion. The
    sheet says what that does: in the night, no count (R-70); in the discussion, that it
    closes and the votes begin (observed: "0 of 1 have voted. Everyone else counts as not
    voting", the "1" being the host, in a step where nobody votes); in a vote, how many of
    those asked have voted and what the others count as (R-72: Oppose in the committee's
    vote, else not voting)."""
    words = catalog("en")
    board, game = _board_only_game(live, tabs)
    said: dict[Step, str] = {}
    asked: dict[Step, int] = {}
    while Step.DISCUSSION not in said:
        step = game.step
        assert step is not None and step not in said, f"{step} twice before the discussion"
        expect(board.el("board-step")).to_have_attribute("data-step", step.value)
        board.el("timer-end").click()
        sheet = board.el("confirm-end")
        said[step] = sheet.locator("p").inner_text()
        asked[step] = len(game.to_act)
        board.el("end-now").click()
        expect(sheet).to_have_count(0)
        expect(board.el("board-step")).not_to_have_attribute("data-step", step.value)
    assert said[Step.HIDDEN] == words["timer.end_night"]
    assert not any(ch.isdigit() for ch in said[Step.HIDDEN])  # no count at night
    assert said[Step.DISCUSSION] == words["timer.end_discussion"]
    assert said[Step.STAND] == words["timer.end_other"]  # (answers, not votes)
    if Step.COMMITTEE_VOTE in said:
        count = {"cast": 0, "of": asked[Step.COMMITTEE_VOTE]}
        assert said[Step.COMMITTEE_VOTE] == words["timer.end_committee"].format(**count)
    # and the table is told what became of it: the President's pick is no vote (it said
    # "0 of 1 had voted"), nobody decides in the discussion, and a committee's silent
    # members count as Oppose
    told = plain(board.el("timeline").text_content())
    pick = words["notice.step_ended_early.other.host"]
    assert pick.replace("{step}", words["step.pick_project"]) in told, told
    assert words["notice.step_ended_early.discussion.host"] in told, told
    if Step.COMMITTEE_VOTE in said:
        committee = words["notice.step_ended_early.committee.host"].format(
            step=words["step.committee_vote"], cast=0, of=asked[Step.COMMITTEE_VOTE]
        )
        assert committee in told, told
    vote = game.step
    assert vote in VOTES  # (nobody testified: the jail vote)
    expect(board.el("board-step")).to_have_attribute("data-step", vote.value)
    board.el("timer-end").click()
    sheet = board.el("confirm-end")
    count = {"cast": 0, "of": len(game.to_act)}
    expect(sheet.locator("p")).to_have_text(words["timer.end_vote"].format(**count))
    board.el("keep-going").click()
    expect(sheet).to_have_count(0)
    assert game.step is vote
    tabs.assert_clean()


def test_a_refused_end_of_the_discussion_gives_the_button_back(live: Live, tabs: Tabs) -> None:
    """The host's phone taps "End the discussion", and the page is drawn again (the host
    pauses the timer) before the server answers; the server refuses it (as when the step
    has just moved on): the button now on the page is enabled again, not left disabled
    for the rest of the discussion (R-35)."""
    code, host_token = api_room(live, FAST | HOUR_TIMERS)
    kept = api_seat(live, code, "Ana")
    kept["host_token"] = host_token
    held: list[tuple[WebSocketRoute, int]] = []

    def hold_the_end(
        ws: WebSocketRoute, data: dict[str, Any], message: str | bytes
    ) -> str | bytes | None:
        """The page's end of the discussion held on its way."""
        if data.get("type") == "act" and data["action"]["action"] == "end_discussion":
            held.append((ws, data["id"]))
            return None
        return message

    phone = tabs.open("Ana", storage={f"korapsyon:{code}": kept})
    relay(phone, up=hold_the_end)
    phone.page.goto(f"/play?room={code}")
    add_bots(live, code, host_token, 8)
    start(live, code, host_token)
    wait_for_game(live, code)
    play_turns(
        [phone],
        {"Ana": "Ana"},
        lambda me, snap: cautious(snap),
        until=lambda snaps: snaps["Ana"].step == "discussion",
    )
    end = phone.el("end-discussion")
    expect(end).to_be_enabled()
    end.click()
    expect(end).to_be_disabled()
    phone.el("timer-pause").click()  # the host controls are drawn again meanwhile
    expect(phone.el("timer")).to_have_attribute("data-paused", "true")
    until_routed(phone, lambda: held, "the end of the discussion")
    ws, request = held[0]
    refusal = {"type": "error", "id": request, "code": "wrong_step", "now": time.time()}
    ws.send(json.dumps(refusal | {"message": "R-35: not now"}))
    expect(end).to_be_enabled()  # it can be tried again
    assert live.game(code).step is Step.DISCUSSION
    tabs.assert_clean()


def test_an_end_now_sheet_left_open_ends_nothing_once_its_step_is_over(
    live: Live, tabs: Tabs
) -> None:
    """The host opens "end now" in the night, and the night ends meanwhile (here from the
    host's other screen): "End now" then sends nothing. The request names no step, so it
    would have cut the next one short; a second sheet never opens over the first."""
    board, game, code, host_token = _board_only_room(live, tabs)
    expect(board.el("board-step")).to_have_attribute("data-step", "hidden")
    board.el("timer-end").click()
    board.el("timer-end").dispatch_event("click")  # (a double tap's second: still one sheet)
    expect(board.el("confirm-end")).to_have_count(1)
    elsewhere = Client(live, code, host_token=host_token)
    elsewhere.end_step()  # the night is over, not by this sheet
    elsewhere.close()
    expect(board.el("board-step")).not_to_have_attribute("data-step", "hidden")
    step = game.step
    sent = len(board.sent)
    board.el("end-now").click()
    expect(board.el("confirm-end")).to_have_count(0)
    board.page.evaluate("() => 0")  # (a frame sent by the tap is reported before this)
    ended = [m for m in board.sent[sent:] if '"timer"' in m and '"end"' in m]
    assert ended == [], ended
    assert game.step is step
