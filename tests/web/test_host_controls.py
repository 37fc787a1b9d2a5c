"""The host's controls in a real browser (issue #18): nothing moves under a finger into a
control that cannot be undone, and ending a step early asks once and is announced.

Observed before the fix: in a board-only room the host tapped "End the discussion", then
the same spot again about 300 ms later; that button had gone and "End step now" had moved
under the finger, so the second tap ended the jail vote at once ("no votes (9
abstained)"), with no confirmation and nothing telling the table the host had cut it
short."""

from __future__ import annotations

from playwright.sync_api import expect

from korapsyon.rules.steps import Step
from korapsyon.selfplay import table
from tests.server.live import Live, start
from tests.web.harness import Tabs, api_room, api_seat, wait_for_game

VOTES = (Step.JAIL_VOTE, Step.WITNESS_VOTE, Step.FORCED_JAIL_VOTE)


def test_a_double_tap_on_end_the_discussion_cannot_end_the_vote(live: Live, tabs: Tabs) -> None:
    """Nine seats whose players never connect, so nothing moves but what the host does. The
    host ends each step before the discussion with the timer's "end now", which asks once
    ("keep going" first) and is told to the table; then taps "End the discussion" and the
    same spot again once the jail vote has begun: the second tap does nothing (no vote is
    cut short, no default is recorded, no sheet opens)."""
    code, host_token = api_room(live, {"timers": False})
    for name in table(9):
        api_seat(live, code, name)
    board = tabs.open(
        "board", f"/board?room={code}", phone=False,
        storage={f"korapsyon:{code}": {"host_token": host_token}},
    )  # fmt: skip
    start(live, code, host_token)
    game = wait_for_game(live, code)
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
