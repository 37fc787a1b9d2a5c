"""A room's ``search`` bot seats (issue #20): the host adds them like any bot, they play a
whole game through the session, and they think off the event loop (a search decision
takes a tenth of a second or more: on the loop it would stall every room of the worker)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from korapsyon.bots.search import SearchAgent
from korapsyon.rules.actions import Action
from korapsyon.rules.errors import IllegalActionError
from korapsyon.server.settings import DEFAULT_DURATIONS
from tests.server.inprocess import in_process
from tests.server.live import HANG_SECONDS

FAST = {"timers": False, "bot_delay": [0.0, 0.0]}
SLOW = {
    "durations": {**dict.fromkeys(DEFAULT_DURATIONS, 3600.0), "discussion": 0.02},
    "bot_delay": [0.0, 0.0],
}  # (a table of bots has nobody to end its discussions; every other step waits for them)


def _bot_room_to_the_end(live: Any, http: Any, kinds: list[str]) -> tuple[str, list[Any]]:
    """A room of these bot kinds, started and played to its end: (code, its seats)."""
    created = http.post("/api/rooms", json={"settings": SLOW}).json()
    code, host = created["code"], created["host_token"]
    auth = {"authorization": f"Bearer {host}"}
    for kind in kinds:
        added = http.post(f"/api/rooms/{code}/bots", json={"kind": kind}, headers=auth)
        assert added.status_code == 201, added.text
    seats: list[Any] = http.get(f"/api/rooms/{code}").json()["seats"]
    assert http.post(f"/api/rooms/{code}/start", headers=auth).status_code == 200
    deadline = time.monotonic() + 10 * HANG_SECONDS
    while live.hub.rooms[code].status != "finished":
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.05)
    return code, seats


def test_search_bot_seats_play_a_whole_game_thinking_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    on_loop: list[bool] = []
    act = SearchAgent.act

    def watched(self: SearchAgent, prompt: Any) -> Action | None:
        try:
            asyncio.get_running_loop()
            on_loop.append(True)
        except RuntimeError:  # no loop runs in this thread
            on_loop.append(False)
        return act(self, prompt)

    monkeypatch.setattr(SearchAgent, "act", watched)
    with in_process() as live, live.http() as http:
        code, seats = _bot_room_to_the_end(live, http, ["search"] * 2 + ["heuristic"] * 7)
        assert [s["bot"] for s in seats].count("search") == 2
        game = live.game(code)
        assert game.outcome is not None
        searchers = {s["name"] for s in seats if s["bot"] == "search"}
        theirs = [a for a in game.actions if a.player in searchers]
        assert theirs and not any(a.auto for a in theirs)  # every decision their own
    assert on_loop and not any(on_loop), "a search bot thought on the event loop"


@pytest.mark.parametrize("kind", ["oracle", "believer"])  # (a believer is for runs only)
def test_a_bot_kind_a_table_does_not_offer_is_refused_and_changes_nothing(kind: str) -> None:
    with in_process() as live, live.http() as http:
        created = http.post("/api/rooms", json={"settings": FAST}).json()
        auth = {"authorization": f"Bearer {created['host_token']}"}
        refused = http.post(f"/api/rooms/{created['code']}/bots", json={"kind": kind}, headers=auth)
        assert refused.status_code == 400
        assert kind in refused.json()["error"]["message"]
        assert http.get(f"/api/rooms/{created['code']}").json()["seats"] == []


@pytest.mark.parametrize(
    "error",
    [
        ValueError("n must be a non-negative integer"),
        # (a refusal from inside its thinking, a roll-out's misplay: not the step moving on)
        IllegalActionError("not_your_turn", "R-72", "a roll-out's bot misplayed"),
    ],
    ids=["error", "refusal"],
)
def test_a_bot_seat_that_fails_to_decide_is_logged_and_its_seat_gets_the_default(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, error: Exception
) -> None:
    """A bot's own error (a bug in its beliefs, or a refusal from its roll-outs) is written
    to the server's log with its room and seat, and the decision it owed gets the timer's
    default at once (R-72), not asked of the bot again: the game goes on to its end though
    every step here waits an hour for its timer."""
    act = SearchAgent.act
    failed: list[str] = []

    def flaky(self: SearchAgent, prompt: Any) -> Action | None:
        if not failed:
            failed.append(prompt.player)
            raise error
        return act(self, prompt)

    monkeypatch.setattr(SearchAgent, "act", flaky)
    with in_process() as live, live.http() as http:
        code, _ = _bot_room_to_the_end(live, http, ["search"] + ["heuristic"] * 8)
        game = live.game(code)
    assert failed
    seats_auto = [a.player for a in game.actions if a.auto and a.player != "@host"]
    assert seats_auto == failed  # that decision, no other (the host's: discussions' ends)
    logged = [r for r in caplog.records if "could not decide" in r.getMessage()]
    assert len(logged) == 1
    assert code in logged[0].getMessage() and repr(failed[0]) in logged[0].getMessage()
    assert logged[0].exc_info is not None and logged[0].exc_info[1] is error
