"""The browser tests' harness: Debian's chromium driven by Playwright (sync API) against a
real server on a loopback port (tests/server/live.py), pages found only by the
``data-testid`` hooks of docs/CLIENT.md. Shared by the tests and by the screenshot script
(tests/web/screenshots.py)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Dialog,
    Error,
    Locator,
    Page,
    Playwright,
    ViewportSize,
    WebSocket,
    WebSocketRoute,
    expect,
    sync_playwright,
)
from playwright.sync_api import (
    TimeoutError as PlaywrightTimeout,
)

from korapsyon.rules import Game
from korapsyon.rules.roles import Role
from korapsyon.rules.steps import DEFAULT_DURATIONS
from tests.server.live import Live

CHROMIUM = Path("/usr/bin/chromium")
PHONE = ViewportSize(width=390, height=844)
DESKTOP = ViewportSize(width=1280, height=800)
FAST = {"bot_delay": [0.0, 0.05], "timers": False}
"""Room settings for tests: bots answer at once, steps wait for every decision."""
HOUR_TIMERS = {"timers": True, "durations": {step.value: 3600 for step in DEFAULT_DURATIONS}}
"""Room settings (with FAST) for tests of what a clock shows: every step's timer shows,
and none runs out within a test."""
WAIT_MS = 30_000  # generous: CI machines are slow, and nothing here measures speed
expect.set_options(timeout=WAIT_MS)


def tid(name: str) -> str:
    """The CSS selector of a ``data-testid`` hook."""
    return f'[data-testid="{name}"]'


def launch(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])


@contextmanager
def chromium() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Tab:
    """One browser context (its own localStorage) with one page, and everything it did
    wrong: console errors, page errors, dialogs; and the WebSocket frames it sent."""

    label: str
    context: BrowserContext
    page: Page
    problems: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    done: set[tuple[Any, ...]] = field(default_factory=set)  # decisions already made
    allowed: list[re.Pattern[str]] = field(default_factory=list)

    def allow(self, pattern: str) -> None:
        """A console error this test provokes on purpose (e.g. the browser's own line
        for a request the server refuses) is not a problem."""
        self.allowed.append(re.compile(pattern))

    def el(self, name: str) -> Locator:
        return self.page.locator(tid(name))

    def storage(self, code: str) -> dict[str, Any]:
        """The tokens this browser keeps for room ``code`` (docs/CLIENT.md)."""
        raw = self.page.evaluate("(key) => localStorage.getItem(key)", f"korapsyon:{code}")
        assert raw, f"{self.label}: nothing stored under korapsyon:{code}"
        value: dict[str, Any] = json.loads(raw)
        return value

    def acts_sent(self) -> list[dict[str, Any]]:
        """The messages this page sent, decoded (pings left out)."""
        messages = [json.loads(frame) for frame in self.sent]
        return [m for m in messages if m.get("type") != "ping"]


class Tabs:
    """The browser pages of one test; closed at its end, and clean: a console error, a
    page error or an unexpected dialog on any page fails the test."""

    def __init__(self, browser: Browser, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.tabs: list[Tab] = []

    def open(
        self,
        label: str,
        path: str | None = None,
        *,
        phone: bool = True,
        storage: dict[str, Any] | None = None,
        viewport: ViewportSize | None = None,
        locale: str = "en-US",
    ) -> Tab:
        """A new browser context (a phone, 390x844 unless ``viewport`` says otherwise, or a
        1280-wide screen) and its page, optionally with ``storage`` put into localStorage
        before any script runs. ``locale`` is the browser's language (``fil-PH``: the
        pages start in Filipino)."""
        context = self.browser.new_context(
            base_url=self.base_url,
            viewport=viewport or (PHONE if phone else DESKTOP),
            device_scale_factor=1,
            has_touch=phone,
            is_mobile=phone,
            locale=locale,
        )
        context.set_default_timeout(WAIT_MS)
        if storage:
            lines = [
                f"if (localStorage.getItem({json.dumps(k)}) === null) "
                f"localStorage.setItem({json.dumps(k)}, {json.dumps(json.dumps(v))});"
                for k, v in storage.items()
            ]
            context.add_init_script("\n".join(lines))
        page = context.new_page()
        tab = Tab(label, context, page)
        self._watch(tab)
        self.tabs.append(tab)
        if path is not None:
            page.goto(path)
        return tab

    def open_beside(self, tab: Tab, label: str, path: str) -> Tab:
        """Another page in ``tab``'s browser context (the same localStorage)."""
        page = tab.context.new_page()
        beside = Tab(label, tab.context, page)
        self._watch(beside)
        self.tabs.append(beside)
        page.goto(path)
        return beside

    @staticmethod
    def _watch(tab: Tab) -> None:
        def console(message: ConsoleMessage) -> None:
            if message.type == "error":
                where = message.location.get("url", "")
                tab.problems.append(f"{tab.label}: console error: {message.text} ({where})")

        def page_error(error: Error) -> None:
            tab.problems.append(f"{tab.label}: page error: {error.message}")

        def dialog(dialog: Dialog) -> None:
            tab.dialogs.append(f"{dialog.type}: {dialog.message}")
            dialog.dismiss()

        def websocket(ws: WebSocket) -> None:
            def frame(payload: str | bytes) -> None:
                tab.sent.append(payload if isinstance(payload, str) else payload.decode())

            ws.on("framesent", frame)

        tab.page.on("console", console)
        tab.page.on("pageerror", page_error)
        tab.page.on("dialog", dialog)
        tab.page.on("websocket", websocket)

    def problems(self) -> list[str]:
        found = [
            p
            for tab in self.tabs
            for p in tab.problems
            if not any(allowed.search(p) for allowed in tab.allowed)
        ]
        found += [f"{tab.label}: dialog {d}" for tab in self.tabs for d in tab.dialogs]
        return found

    def assert_clean(self) -> None:
        problems = self.problems()
        assert not problems, "the client is not clean:\n" + "\n".join(problems)

    def close(self) -> None:
        for context in {id(tab.context): tab.context for tab in self.tabs}.values():
            context.close()
        self.tabs = []


# ---------------------------------------------------------------- the lobby


def create_room(tab: Tab, name: str, *, moderator: bool = False) -> str:
    """In the lobby, the host types a name and creates a room with a seat (and a human
    moderator, R-71, if ``moderator``): its code."""
    if not tab.page.url.endswith("/"):
        tab.page.goto("/")
    if moderator:
        tab.el("moderator-mode").check()
    tab.el("name-input").fill(name)
    tab.el("create-room").click()
    tab.page.wait_for_url(re.compile(r"/play\?room="))
    expect(tab.el("room-code")).to_be_visible()
    code = (tab.el("room-code").text_content() or "").strip()
    assert code, "the waiting room shows no room code"
    return code


def join_by_link(tab: Tab, link: str, name: str, code: str) -> None:
    """A player opens the join link, finds the code filled in, types a name, joins."""
    tab.page.goto(link)
    expect(tab.el("room-code-input")).to_have_value(code)
    tab.el("name-input").fill(name)
    tab.el("join-room").click()
    tab.page.wait_for_url(re.compile(r"/play\?room="))
    expect(tab.el("seat-list").locator(tid("seat-item"))).not_to_have_count(0)


def join_by_code(tab: Tab, code: str, name: str) -> None:
    """A player opens the lobby, types the room code and a name, joins."""
    tab.page.goto("/")
    tab.el("room-code-input").fill(code)
    tab.el("name-input").fill(name)
    tab.el("join-room").click()
    tab.page.wait_for_url(re.compile(r"/play\?room="))
    expect(tab.el("seat-list").locator(tid("seat-item"))).not_to_have_count(0)


def put_settings(live: Live, code: str, host_token: str, settings: dict[str, Any]) -> None:
    with live.http() as http:
        http.put(
            f"/api/rooms/{code}/settings",
            json=settings,
            headers={"authorization": f"Bearer {host_token}"},
        ).raise_for_status()


def api_room(live: Live, settings: dict[str, Any] | None = None) -> tuple[str, str]:
    """A room made over HTTP (no host seat): (code, host token)."""
    with live.http() as http:
        created = http.post("/api/rooms", json={"settings": settings or FAST})
        created.raise_for_status()
        body = created.json()
    return str(body["code"]), str(body["host_token"])


def api_seat(live: Live, code: str, name: str) -> dict[str, Any]:
    """A seat taken over HTTP: what a browser keeps in localStorage for it."""
    with live.http() as http:
        ticket = http.post(f"/api/rooms/{code}/seats", json={"name": name})
        ticket.raise_for_status()
        body = ticket.json()
    return {"token": body["token"], "name": body["name"]}


Relay = Callable[[WebSocketRoute, dict[str, Any], str | bytes], str | bytes | None]
"""What a relayed message becomes (see :func:`relay`): given the socket's route, the
message's JSON and the message, what goes on (it, or another), or None to keep it."""


def relay(tab: Tab, *, up: Relay | None = None, down: Relay | None = None) -> None:
    """A network the test controls for the sockets ``tab``'s page opens from now on:
    through to the server, each message the page sends handed to ``up`` first and each
    the server sends to ``down`` (to answer it, hold it, change it or pass it on)."""

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def through(to: Any, relayed: Relay | None) -> Callable[[str | bytes], None]:
            def send(message: str | bytes) -> None:
                passed = message if relayed is None else relayed(ws, json.loads(message), message)
                if passed is not None:
                    to.send(passed)

            return send

        ws.on_message(through(server, up))
        server.on_message(through(ws, down))

    tab.page.route_web_socket(re.compile(r"/ws$"), route)


def until_routed(tab: Tab, check: Callable[[], object], what: str) -> None:
    """Wait until ``check()`` holds for something a route of ``tab``'s page sees (a request
    or a socket message held on its way): waiting through the page, whose routes are
    handled only while Playwright is called."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while not check():
        assert time.monotonic() < deadline, f"{tab.label}: the page never sent {what}"
        tab.page.wait_for_timeout(25)  # (a polling interval, not a timing assertion)


def wait_for_game(live: Live, code: str) -> Game:
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        room = live.hub.rooms.get(code)
        if room is not None and room.session is not None:
            return room.session.game
        assert time.monotonic() < deadline, "the game did not start"
        time.sleep(0.02)


def roles_of(game: Game) -> dict[str, Role]:
    return dict(zip(game.players, game.roles, strict=True))


# ---------------------------------------------------------------- the game


SNAPSHOT = """() => {
  const t = (id) => `[data-testid="${id}"]`;
  const q = (sel) => document.querySelector(sel);
  const screen = q(t('screen'));
  const night = q(t('night-screen'));
  const panel = q(t('choice-panel'));
  const root = night || panel;
  const ballot = q(t('ballot-status'));
  const year = q(t('year'));
  const fields = root ? [...root.querySelectorAll(t('field'))].map((f) => ({
    field: f.dataset.field || null,
    multi: f.dataset.multi === 'true',
    values: [...f.querySelectorAll(t('option'))].map((o) => o.dataset.value),
    disabled: [...f.querySelectorAll(t('option'))].map(
      (o) => o.disabled || o.getAttribute('aria-disabled') === 'true'),
  })) : [];
  return {
    step: screen ? screen.dataset.step || null : null,
    to_act: screen ? screen.dataset.toAct === 'true' : false,
    status: screen ? screen.dataset.status || null : null,
    year: year ? ((year.textContent || '').match(/\\d+/) || [null])[0] : null,
    night: !!night,
    action: panel ? panel.dataset.action || null : null,
    ballot: ballot ? ballot.dataset.state || null : null,
    fields,
    end_discussion: !!q(`${t('end-discussion')}:not([disabled])`),
    end: !!q(t('end-screen')),
  };
}"""


@dataclass
class Snapshot:
    step: str | None
    to_act: bool
    status: str | None
    year: str | None
    night: bool
    action: str | None
    ballot: str | None
    fields: list[dict[str, Any]]
    end_discussion: bool
    end: bool


def snapshot(tab: Tab) -> Snapshot:
    return Snapshot(**tab.page.evaluate(SNAPSHOT))


Policy = Callable[[str, Snapshot], dict[str, list[int]]]
"""(player name, what the page shows) -> field name -> the indexes of the options to
press."""


def choice_root(tab: Tab, snap: Snapshot) -> Locator:
    return tab.el("night-screen") if snap.night else tab.el("choice-panel")


def dismiss_nightfall(tab: Tab) -> None:
    """The pause between a Year's end and the next night (``nightfall``) covers the page
    until it is tapped away: tap it away, if it is there."""
    cover = tab.el("nightfall")
    if cover.count() and cover.is_visible():
        tab.el("nightfall-continue").click()
        expect(cover).to_have_count(0)


def decide(tab: Tab, snap: Snapshot, picks: dict[str, list[int]]) -> None:
    """Press the chosen options, then ``confirm`` (exactly one act)."""
    dismiss_nightfall(tab)
    root = choice_root(tab, snap)
    fields = root.locator(tid("field"))
    for index, spec in enumerate(snap.fields):
        for option in picks.get(spec["field"] or str(index), []):
            assert not spec["disabled"][option], f"{tab.label}: {spec['values'][option]} is off"
            fields.nth(index).locator(tid("option")).nth(option).click()
    confirm_button(tab).click()


def confirm_button(tab: Tab) -> Locator:
    """The one ``confirm`` of the decision (inside the night screen or around it)."""
    panel = tab.el("choice-panel")
    return (panel if panel.count() else tab.el("night-screen")).locator(tid("confirm"))


def has_decision(snap: Snapshot) -> bool:
    return (
        snap.to_act
        and (snap.night or snap.action is not None)
        and snap.ballot in (None, "choosing")
        and snap.status != "finished"
    )


def wait_after_confirm(tab: Tab, snap: Snapshot) -> None:
    """Until the page shows the decision as taken by the server (or the game has moved
    on); a refusal fails the test."""
    try:
        tab.page.wait_for_function(
            """([step, year]) => {
              const t = (id) => `[data-testid="${id}"]`;
              const screen = document.querySelector(t('screen'));
              if (!screen || screen.dataset.step !== step) return true;
              const y = document.querySelector(t('year'));
              if (y && ((y.textContent || '').match(/\\d+/) || [null])[0] !== year) return true;
              if (screen.dataset.toAct !== 'true') return true;
              const ballot = document.querySelector(t('ballot-status'));
              // acknowledged (the view holds it), or refused: never merely on its way
              return !!ballot && ['waiting', 'refused'].includes(ballot.dataset.state);
            }""",
            arg=[snap.step, snap.year],
            timeout=WAIT_MS,
        )
    except PlaywrightTimeout:
        error = tab.el("error")
        shown = error.first.text_content() if error.count() else None
        raise AssertionError(
            f"{tab.label}: the decision was not taken ({snap}); the page's error: {shown!r}; "
            f"problems: {tab.problems}"
        ) from None
    ballot = tab.el("ballot-status")
    if ballot.count() and ballot.first.get_attribute("data-state") == "refused":
        said = ballot.first.text_content()
        raise AssertionError(f"{tab.label}: the decision was refused: {said}")


def play_turns(
    tabs: list[Tab],
    names: dict[str, str],
    policy: Policy,
    *,
    host: Tab | None = None,
    until: Callable[[dict[str, Snapshot]], bool],
    timeout: float = 150,
    describe: Callable[[], str] = lambda: "",
) -> dict[str, Snapshot]:
    """Every browser player makes each decision its page offers, through the UI, and the
    host ends each discussion, until ``until`` holds for what the pages show."""
    deadline = time.monotonic() + timeout
    while True:
        snaps = {tab.label: snapshot(tab) for tab in tabs}
        if until(snaps):
            return snaps
        acted = False
        for tab in tabs:
            snap = snaps[tab.label]
            key = (snap.year, snap.step)
            if has_decision(snap) and key not in tab.done:
                decide(tab, snap, policy(names[tab.label], snap))
                wait_after_confirm(tab, snap)
                tab.done.add(key)
                acted = True
            elif (
                tab is host
                and snap.step == "discussion"
                and snap.end_discussion
                and (*key, "end") not in tab.done
            ):
                tab.el("end-discussion").click()
                tab.done.add((*key, "end"))
                acted = True
        if time.monotonic() > deadline:
            raise AssertionError(
                "the game did not get there in time; the pages show:\n"
                + "\n".join(f"{label}: {snap}" for label, snap in snaps.items())
                + "\n"
                + describe()
            )
        if not acted:
            tabs[0].page.wait_for_timeout(50)  # polling interval, not a timing assertion


def end_discussion(tab: Tab) -> bool:
    """The host ends the discussion from a board or grimoire (`end-discussion`, R-35) and
    waits until that page shows the next step. False if the button is not there, or if
    the page still shows the discussion after the wait (the act was lost with a dropped
    connection, say): the caller may try again."""
    end = tab.page.locator(f"{tid('end-discussion')}:not([disabled])")
    if tab.el("board-step").get_attribute("data-step") != "discussion" or not end.count():
        return False
    end.click()
    try:
        expect(tab.el("board-step")).not_to_have_attribute("data-step", "discussion")
    except AssertionError:
        return False
    return True


def option_values(snap: Snapshot, index: int) -> list[Any]:
    return [json.loads(v) for v in snap.fields[index]["values"]]


def sensible(roles: dict[str, Role], host: str, committee_size: Callable[[], int]) -> Policy:
    """Legal choices that end a game soon: the Good support projects and vote to jail a
    Corrupt Politician, the Ombudsperson investigates one, the Corrupt steal."""
    corrupt = {name for name, role in roles.items() if role is Role.CORRUPT_POLITICIAN}

    def policy(me: str, snap: Snapshot) -> dict[str, list[int]]:
        bad = me in corrupt
        picks: dict[str, list[int]] = {}
        for index, spec in enumerate(snap.fields):
            values = option_values(snap, index)
            key = spec["field"] or str(index)
            allowed = [v for v, off in zip(values, spec["disabled"], strict=True) if not off]
            if spec["multi"]:  # the committee: honest members first
                order = [i for i in range(len(values)) if not spec["disabled"][i]]
                order.sort(key=lambda i: values[i] in corrupt)
                picks[key] = order[: committee_size()]
                continue
            want: Any = None
            if snap.night and key == "plan":  # the Corrupt steal; the others note nothing
                want = {"nakaw": True, "suhol": False} if bad else {"sure": 0}
            elif snap.night:  # investigate a Corrupt; everyone else names nobody
                if roles[me] is Role.OMBUDSPERSON:
                    want = next((v for v in allowed if v in corrupt), None)
            elif snap.action == "stand":
                want = me == host
            elif snap.action == "elect":
                want = next((v for v in values if v is not None and v not in corrupt), None)
            elif snap.action in ("committee_vote",):
                want = True
            elif snap.action in ("witness_vote", "forced_jail_vote"):
                want = not bad
            elif snap.action == "jail_vote" and not bad:
                want = next((v for v in values if v in corrupt), None)
            picks[key] = [values.index(want if want in allowed else allowed[0])]
        return picks

    return policy


def cautious(snap: Snapshot) -> dict[str, list[int]]:
    """Nobody / no / the quiet night plan / the first option in every field (always legal
    for one seat)."""
    picks: dict[str, list[int]] = {}
    for index, spec in enumerate(snap.fields):
        values = option_values(snap, index)
        for safe in (None, False, {"nakaw": False, "suhol": False}, {"sure": 0}):
            if safe in values and not spec["disabled"][values.index(safe)]:
                picks[spec["field"] or str(index)] = [values.index(safe)]
                break
        else:
            picks[spec["field"] or str(index)] = [0]
    return picks


# ---------------------------------------------------------------- R-70 parity


SKELETON = """(root) => {
  const walk = (el) => {
    const children = [...el.children].map(walk);
    if (el.getAttribute('data-testid') === 'field') {  // options: which seat is where aside
      children.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    }
    return [el.tagName.toLowerCase(), el.getAttribute('data-testid'), el.getAttribute('role'),
            children];
  };
  return walk(root);
}"""


def skeleton(tab: Tab) -> Any:
    """The night screen's DOM structure, with the choice panel around it (its confirm and
    ballot status): tag names, test ids and ARIA roles (no text, no option values, the
    options in any order: the seats' order is the same for all, but where "you" sits
    differs)."""
    night = tab.el("night-screen")
    expect(night).to_be_visible()
    panel = tab.page.locator(f"{tid('choice-panel')}:has({tid('night-screen')})")
    return (panel if panel.count() else night).evaluate(SKELETON)


def ask_then_confirm(tab: Tab, ask: Locator, not_now: str, yes: str, arm_ms: int = 700) -> None:
    """Tap ``ask`` (a button that asks first, in place), see the safe answer ``not_now``
    focused and the confirming ``yes`` not yet taking taps, let the page's installed clock
    (``page.clock``, paused) run ``arm_ms``, and tap ``yes`` once it takes them."""
    ask.click()
    expect(tab.el(not_now)).to_be_focused()  # (a stray Enter does nothing)
    confirm = tab.el(yes)
    expect(confirm).to_be_disabled()
    tab.page.clock.run_for(arm_ms)
    expect(confirm).to_be_enabled()
    tab.page.clock.resume()
    confirm.click()


def hold(tab: Tab, target: Locator) -> None:
    """Press and hold (the role card): the mouse stays down until :func:`release`."""
    dismiss_nightfall(tab)
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    assert box is not None, "nothing to hold"
    tab.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tab.page.mouse.down()


def release(tab: Tab) -> None:
    tab.page.mouse.up()


def role_shown(tab: Tab) -> str:
    """Hold the role card, read the role it shows, let go (the card hides again)."""
    expect(tab.el("role-reveal")).to_be_visible()
    hold(tab, tab.el("role-reveal"))
    name = tab.el("role-name")
    expect(name).to_be_visible()
    role = name.get_attribute("data-role") or ""
    release(tab)
    expect(name).to_be_hidden()
    return role
