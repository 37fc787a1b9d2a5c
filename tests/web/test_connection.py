"""A phone that sleeps or loses the Wi-Fi comes back by itself, and meanwhile says so
(issue #18).

Observed before: confirming while disconnected left "not connected" out of view, the ballot
still said "Make your choice", and nothing was kept or sent again; a socket that died
without a word (a phone asleep) was noticed only when the browser gave up on it.

Nothing here waits on the clock: the network is cut with Playwright's ``set_offline``
(the page gets ``offline`` / ``online``), a socket is killed or held through
``route_web_socket``, the page is woken with a ``visibilitychange`` event, and the
heartbeat's ping and pong times are set short for the page (``korapsyon:heartbeat``,
docs/CLIENT.md), so that every wait is on what the page shows."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Page, ViewportSize, WebSocketRoute, expect

from korapsyon.rules.steps import Step
from tests.server.live import Live, add_bots, start
from tests.web.harness import (
    Tab,
    Tabs,
    api_room,
    api_seat,
    tid,
    wait_for_game,
)

SMALL = ViewportSize(width=360, height=640)
OFFLINE_LINES = (
    r"WebSocket connection to .* failed",
    r"Failed to load resource: net::ERR_INTERNET_DISCONNECTED",
)


@dataclass
class Line:
    """One WebSocket of the page, through to the server: `dead` (nothing passes either
    way, as for a phone whose network went without a word) or `holding` (the server's
    messages after the `welcome` but its pongs wait in `held` until `release()`)."""

    page_side: WebSocketRoute
    server_side: WebSocketRoute
    dead: bool = False
    holding: bool = False
    welcomed: bool = False
    held: list[str | bytes] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)  # the page's messages

    def upward(self, message: str | bytes) -> None:
        if self.dead:
            return
        self.sent.append(json.loads(message))
        self.server_side.send(message)

    def downward(self, message: str | bytes) -> None:
        if self.dead:
            return
        kind = json.loads(message).get("type")
        if self.holding and self.welcomed and kind != "pong":  # (a slow line, not a dead one)
            self.held.append(message)
            return
        self.welcomed = self.welcomed or kind == "welcome"
        self.page_side.send(message)

    def release(self) -> None:
        self.holding = False
        for message in self.held:
            self.page_side.send(message)
        self.held.clear()


class Wire:
    """Every WebSocket the page opens, as a `Line`; `hold_next` holds the next one's
    messages after its welcome."""

    def __init__(self, page: Page) -> None:
        self.lines: list[Line] = []
        self.hold_next = False
        page.route_web_socket(re.compile(r"/ws$"), self.open)

    def open(self, ws: WebSocketRoute) -> None:
        line = Line(ws, ws.connect_to_server(), holding=self.hold_next)
        self.hold_next = False
        ws.on_message(line.upward)
        line.server_side.on_message(line.downward)
        self.lines.append(line)

    def acts(self) -> list[dict[str, Any]]:
        """Every `act` the page sent, on any of its sockets."""
        return [m for line in self.lines for m in line.sent if m.get("type") == "act"]


STATES = """addEventListener('DOMContentLoaded', () => {
  window.connectionStates = [];
  new MutationObserver(() => {
    const state = document.querySelector('[data-testid="connection"]')?.dataset.state;
    if (state && state !== window.connectionStates.at(-1)) window.connectionStates.push(state);
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
});"""
"""Every state the page's ``connection`` shows, in order (`connectionStates`)."""


def _states(phone: Tab) -> list[str]:
    states: list[str] = phone.page.evaluate("window.connectionStates")
    return states


def _night(
    live: Live, tabs: Tabs, heartbeat: dict[str, int] | None = None
) -> tuple[str, str, Tab, Wire]:
    """Zenaida's phone (360x640) and eight bots that answer at once, at the first night:
    (code, host token, the phone, its wire)."""
    code, host_token = api_room(live)
    stored: dict[str, Any] = {f"korapsyon:{code}": api_seat(live, code, "Zenaida")}
    if heartbeat:
        stored["korapsyon:heartbeat"] = heartbeat
    add_bots(live, code, host_token, 8)
    phone = tabs.open("Zenaida", storage=stored)
    phone.page.set_viewport_size(SMALL)
    wire = Wire(phone.page)
    phone.page.add_init_script(STATES)
    phone.page.goto(f"/play?room={code}")
    start(live, code, host_token)
    wait_for_game(live, code)
    expect(phone.el("night-screen")).to_be_visible()
    expect(phone.el("connection")).to_have_attribute("data-state", "open")
    return code, host_token, phone, wire


def _host_board(tabs: Tabs, code: str, host_token: str) -> Tab:
    return tabs.open(
        "board", f"/board?room={code}", phone=False,
        storage={f"korapsyon:{code}": {"host_token": host_token}},
    )  # fmt: skip


def _end_step(board: Tab, step: Step) -> None:
    """The host ends the step now (the timer's "end now", which asks once)."""
    board.el("timer-end").click()
    board.el("end-now").click()
    expect(board.el("board-step")).not_to_have_attribute("data-step", step.value)


def test_a_confirm_while_offline_is_kept_and_sent_once_when_back(live: Live, tabs: Tabs) -> None:
    """The network goes: the bar says so at once and the ballot says the choice will be
    sent when the connection is back; confirm keeps it ("queued"), nothing leaves; the
    network comes back: the phone reconnects by itself and the act is sent exactly once,
    and the night moves on. A chat message typed meanwhile is not sent, and says so next
    to the chat. The screen is kept awake during the game."""
    code, _, phone, wire = _night(live, tabs)
    expect(phone.el("status-bar")).to_have_attribute("data-wake", "on")
    for line in OFFLINE_LINES:
        phone.allow(line)
    phone.context.set_offline(True)
    connection = phone.el("connection")
    expect(connection).to_have_attribute("data-state", "closed")
    expect(connection).to_contain_text("Not connected")
    # the step keeps its room in the bar (the word went beside it and cut it to "Com… vote")
    share = phone.el("step-title").evaluate(
        "(el) => el.clientWidth / el.closest('.bar-row').clientWidth"
    )
    assert share > 0.6, share  # (0.49 beside the word)
    ballot = phone.el("ballot-status")
    expect(ballot).to_have_attribute("data-state", "offline")
    expect(ballot).to_contain_text("your choice will be sent when the connection is back")
    phone.el("confirm").click()
    expect(ballot).to_have_attribute("data-state", "queued")
    expect(ballot).to_be_in_viewport()
    expect(phone.el("confirm")).to_be_disabled()  # (the same choice twice is one)
    assert wire.acts() == []
    game = live.game(code)
    assert game.seat("Zenaida") not in game.pending

    phone.el("chat-input").fill("still there?")
    phone.el("chat-send").click()
    not_sent = phone.el("chat-error")
    expect(not_sent).to_contain_text("Not sent: not connected")
    expect(not_sent).to_be_in_viewport()
    expect(phone.el("chat-input")).to_have_value("still there?")

    phone.context.set_offline(False)
    expect(connection).to_have_attribute("data-state", "open")
    expect(phone.el("screen")).not_to_have_attribute("data-step", "hidden")
    acts = wire.acts()
    assert len(acts) == 1, acts
    assert acts[0]["action"]["player"] == "Zenaida"
    mine = [a for a in live.game(code).actions if a.player == "Zenaida"]
    assert len(mine) == 1 and not mine[0].auto
    tabs.assert_clean()


def test_a_choice_kept_for_a_step_that_ended_is_dropped_and_the_player_told(
    live: Live, tabs: Tabs
) -> None:
    """Offline, the player confirms; meanwhile the host ends the night. Back online, the
    kept choice is not sent (that decision is gone) and the bar says it was not sent."""
    code, host_token, phone, wire = _night(live, tabs)
    board = _host_board(tabs, code, host_token)
    for line in OFFLINE_LINES:
        phone.allow(line)
    phone.context.set_offline(True)
    expect(phone.el("connection")).to_have_attribute("data-state", "closed")
    phone.el("confirm").click()
    expect(phone.el("ballot-status")).to_have_attribute("data-state", "queued")
    _end_step(board, Step.HIDDEN)
    phone.context.set_offline(False)
    expect(phone.el("connection")).to_have_attribute("data-state", "open")
    told = phone.el("error")
    expect(told).to_have_text(
        "Your choice was not sent: that step ended while you were not connected."
    )
    expect(told).to_be_in_viewport()
    expect(phone.el("screen")).not_to_have_attribute("data-step", "hidden")
    assert wire.acts() == []
    assert [a.auto for a in live.game(code).actions if a.player == "Zenaida"] == [True]
    tabs.assert_clean()


def test_the_bar_never_says_connected_over_a_stale_screen(live: Live, tabs: Tabs) -> None:
    """The server closes the phone's socket; while it is away the host ends the night.
    The phone reconnects by itself; its new connection is welcomed but its view held back:
    the night screen is stale, and the bar does not say "connected" over it (`syncing`)
    until the new view has arrived and shows the next step."""
    code, host_token, phone, wire = _night(live, tabs)
    board = _host_board(tabs, code, host_token)
    wire.hold_next = True
    wire.lines[-1].dead = True  # (the server's last words never reach the phone)
    wire.lines[-1].server_side.close()
    lines = len(wire.lines)
    connection = phone.el("connection")
    expect(connection).not_to_have_attribute("data-state", "open")
    _end_step(board, Step.HIDDEN)
    expect(phone.el("night-screen")).to_be_visible()  # what the phone last knew
    expect(connection).to_have_attribute("data-state", "syncing")
    assert len(wire.lines) == lines + 1 and wire.lines[-1].welcomed and wire.lines[-1].held
    expect(connection).to_contain_text("Updating")
    expect(phone.el("night-screen")).to_be_visible()
    expect(connection).to_have_attribute("data-state", "syncing")
    wire.lines[-1].release()
    expect(connection).to_have_attribute("data-state", "open")
    expect(phone.el("screen")).not_to_have_attribute("data-step", "hidden")
    expect(phone.el("night-screen")).to_have_count(0)
    tabs.assert_clean()


def test_a_dead_socket_is_found_by_the_heartbeat_and_replaced(live: Live, tabs: Tabs) -> None:
    """The socket goes quiet without closing (nothing passes either way): the heartbeat's
    ping gets no pong, the phone says it is not connected, drops the socket and opens a
    new one by itself (held here after its welcome: "syncing", not "connected"), and plays
    on."""
    code, _, phone, wire = _night(live, tabs, {"ping_ms": 300, "pong_ms": 1500})
    wire.hold_next = True
    seen, lines = len(_states(phone)), len(wire.lines)
    wire.lines[-1].dead = True
    connection = phone.el("connection")
    expect(connection).to_have_attribute("data-state", "syncing")
    assert len(wire.lines) == lines + 1
    assert _states(phone)[seen:] == ["closed", "syncing"]
    wire.lines[-1].release()
    expect(connection).to_have_attribute("data-state", "open")
    phone.el("confirm").click()
    expect(phone.el("screen")).not_to_have_attribute("data-step", "hidden")
    assert [a.auto for a in live.game(code).actions if a.player == "Zenaida"] == [False]
    tabs.assert_clean()


def test_waking_up_or_the_network_coming_back_reconnects_at_once(live: Live, tabs: Tabs) -> None:
    """With a heartbeat too slow to notice anything here (a ping every ten minutes), a
    socket that went quiet is found as soon as the page is back in view: it asks at once
    (`visibilitychange`: "syncing" while it asks) and, without a pong, connects again. The
    network coming back (`online`) opens a new socket at once too."""
    _, _, phone, wire = _night(live, tabs, {"ping_ms": 600_000, "pong_ms": 400})
    wire.hold_next = True
    seen, lines = len(_states(phone)), len(wire.lines)
    wire.lines[-1].dead = True
    connection = phone.el("connection")
    phone.page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    # asking ("syncing"), no pong: dropped ("closed", for as long as a new socket takes to
    # open: too short to catch by looking, so read from the states the page went through),
    # and the new one, held after its welcome ("syncing")
    phone.page.wait_for_function(
        "(seen) => window.connectionStates.slice(seen).join() === 'syncing,closed,syncing'",
        arg=seen,
    )
    expect(connection).to_have_attribute("data-state", "syncing")
    assert len(wire.lines) == lines + 1
    wire.lines[-1].release()
    expect(connection).to_have_attribute("data-state", "open")
    assert _states(phone)[seen:] == ["syncing", "closed", "syncing", "open"]
    expect(phone.el("night-screen")).to_be_visible()

    wire.hold_next = True
    phone.page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(connection).to_have_attribute("data-state", "syncing")
    assert len(wire.lines) == lines + 2
    wire.lines[-1].release()
    expect(connection).to_have_attribute("data-state", "open")
    phone.el("confirm").click()
    expect(phone.el("screen")).not_to_have_attribute("data-step", "hidden")
    tabs.assert_clean()


WAKE = """addEventListener('DOMContentLoaded', () => {
  window.wakeStates = [];
  new MutationObserver(() => {
    const state = document.querySelector('[data-testid="status-bar"]')?.dataset.wake;
    if (state && state !== window.wakeStates.at(-1)) window.wakeStates.push(state);
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-wake'] });
});"""


def test_the_screen_is_kept_awake_during_the_game_and_let_go_at_its_end(
    live: Live, tabs: Tabs
) -> None:
    """The Screen Wake Lock is taken when the game begins (not in the waiting room) and
    released when it ends (a phone following nine bots through a one-Year game)."""
    settings = {"bot_delay": [0.0, 0.02], "timers": True, "durations": {"discussion": 0.2}}
    code, host_token = api_room(live, settings | {"ruleset": {"max_years": 1}})
    add_bots(live, code, host_token, 9)
    phone = tabs.open("spectator")
    phone.page.add_init_script(WAKE)
    phone.page.goto(f"/play?room={code}&spectate=1")
    bar = phone.el("status-bar")
    expect(phone.el("seat-list").locator(tid("seat-item"))).to_have_count(9)
    expect(bar).to_have_attribute("data-wake", "off")
    start(live, code, host_token)
    expect(phone.el("end-screen")).to_be_visible(timeout=60_000)
    expect(bar).to_have_attribute("data-wake", "off")
    assert phone.page.evaluate("window.wakeStates") == ["on", "off"]
    tabs.assert_clean()
