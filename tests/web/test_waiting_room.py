"""The host's waiting room in a real browser: seats, bots, rule variants, the discussion
timer and a custom setup (R-02/R-03) reach the server's room as chosen; a setup the
rules refuse is refused with a message next to it and changes nothing."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from typing import Any

from playwright.sync_api import Route, WebSocketRoute, expect

from korapsyon.bots.kinds import SEAT_KINDS
from korapsyon.rules.roles import Role
from tests.server.live import Live
from tests.web.harness import (
    WAIT_MS,
    Tab,
    Tabs,
    api_seat,
    create_room,
    join_by_link,
    relay,
    roles_of,
    tid,
    until_routed,
    wait_for_game,
)


def _room(live: Live, code: str) -> dict[str, Any]:
    with live.http() as http:
        response = http.get(f"/api/rooms/{code}")
        response.raise_for_status()
        body: dict[str, Any] = response.json()
    return body


def _until_room(
    live: Live, code: str, check: Any, what: str, tab: Tab | None = None
) -> dict[str, Any]:
    """The room as the server has it, once ``check(room)`` holds (polled, with a deadline;
    waiting through ``tab``'s page, when given, so that its routes are handled meanwhile)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        room = _room(live, code)
        if check(room):
            return room
        assert time.monotonic() < deadline, f"the server's room never got {what}: {room}"
        # (within the lobby API's requests per address: a miss says so)
        if tab is None:
            time.sleep(0.25)
        else:
            tab.page.wait_for_timeout(250)


def _count(tab: Tab, role: Role) -> Any:
    return tab.page.locator(f'{tid("role-count")}[data-role="{role.value}"]')


def _custom_room_of_nine(live: Live, tabs: Tabs) -> tuple[Tab, str]:
    """A host's room of nine seats (the host and eight bots) with a custom setup (R-03)
    whose counts can be typed: (the host's page, the room code)."""
    host = tabs.open("Ana")
    code = create_room(host, "Ana")
    seats = host.el("seat-list").locator(tid("seat-item"))
    for count in range(2, 10):
        host.el("add-bot").click()
        expect(seats).to_have_count(count)
    host.el("setup-custom").check()
    _until_room(live, code, lambda r: r["settings"].get("roles") is not None, "a custom setup")
    expect(_count(host, Role.CITIZEN)).to_be_enabled()
    return host, code


class _SlowSettings:
    """A slow network for a page's settings changes: each is held on its way (``held``)
    while ``holding``, until the test lands it (:meth:`land`); once not holding, the
    next go through at once."""

    def __init__(self, tab: Tab, code: str) -> None:
        self.held: list[Route] = []
        self.holding = True
        tab.page.route(f"**/api/rooms/{code}/settings", self._route)

    def _route(self, route: Route) -> None:
        if self.holding and route.request.method == "PUT":
            self.held.append(route)
        else:
            route.continue_()

    @staticmethod
    def land(route: Route) -> None:
        """The request reaches the server now, and its answer the page."""
        route.fulfill(response=route.fetch())


def _open_folds(tab: Tab) -> None:
    """Every fold of the page open (the rule variants are in one)."""
    tab.page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")


def _two_counts_on_a_slow_network(host: Tab, network: _SlowSettings) -> None:
    """The host types Citizen 1, then, the first change held on its way, Corrupt 3."""
    _count(host, Role.CITIZEN).fill("1")
    _count(host, Role.CITIZEN).press("Tab")
    until_routed(host, lambda: network.held, "the first change")
    _count(host, Role.CORRUPT_POLITICIAN).fill("3")
    _count(host, Role.CORRUPT_POLITICIAN).press("Tab")


def test_R02_R03_the_hosts_setup_reaches_the_room(live: Live, tabs: Tabs) -> None:
    """The host adds bots (the menu offers every kind the server seats), removes seats (a
    double tap on a ✕ removes one), picks a rule variant (R-25 forced vote), sets the
    discussion timer (R-35), and deals a custom setup (R-03) with a third Corrupt; a setup
    with one Good Politician is refused (R-03) and the inputs keep the room's setup; the
    game starts with exactly the custom roles."""
    host = tabs.open("Ana")
    code = create_room(host, "Ana")
    seats = host.el("seat-list").locator(tid("seat-item"))
    offered = host.el("bot-kind").locator("option").evaluate_all("(os) => os.map((o) => o.value)")
    assert sorted(offered) == sorted(SEAT_KINDS)  # every kind the server seats, no other
    for count in range(2, 12):
        host.el("add-bot").click()
        expect(seats).to_have_count(count)
    last = seats.nth(10)
    gone = last.get_attribute("data-name")
    last.locator(tid("remove-seat")).click()
    expect(seats).to_have_count(10)
    expect(host.page.locator(f'{tid("seat-item")}[data-name="{gone}"]')).to_have_count(0)
    host.page.evaluate("window.scrollTo(0, 0)")  # Start is at hand from the top of a long room
    expect(host.el("start-game")).to_be_in_viewport()
    # a double tap on a ✕ removes that one player, not the next one, who moves up under it
    names = [seats.nth(i).get_attribute("data-name") for i in range(10)]
    seats.nth(4).locator(tid("remove-seat")).dblclick()
    expect(seats).to_have_count(9)
    _until_room(live, code, lambda r: len(r["seats"]) == 9, "9 seats")
    assert [s["name"] for s in _room(live, code)["seats"]] == names[:4] + names[5:]

    _open_folds(host)
    variant = host.page.locator(f'{tid("variant")}[data-option="auto_jail_mode"]')
    variant.select_option('"forced_vote"')
    _until_room(
        live,
        code,
        lambda r: r["settings"].get("ruleset", {}).get("auto_jail_mode") == "forced_vote",
        "the forced-vote variant",
    )
    host.el("discussion-seconds").fill("90")
    host.el("discussion-seconds").press("Tab")
    _until_room(live, code, lambda r: r["settings"].get("discussion_seconds") == 90, "90 s")

    host.el("setup-custom").check()
    _until_room(live, code, lambda r: r["settings"].get("roles") is not None, "a custom setup")
    expect(_count(host, Role.GOOD_POLITICIAN)).to_have_value("2")
    expect(_count(host, Role.GOOD_POLITICIAN)).to_be_enabled()

    host.allow(r"status of 400 .*/api/rooms/\w+/settings\)$")  # the browser's own line
    _count(host, Role.GOOD_POLITICIAN).fill("1")  # at least 2 Good Politicians
    _count(host, Role.GOOD_POLITICIAN).press("Tab")
    # refused, and the refusal names the rule broken, next to the role counts
    expect(host.el("setup-error")).to_have_text("⚠ At least 2 Good Politicians are needed.")
    expect(host.el("setup-error")).to_be_in_viewport()
    expect(_count(host, Role.GOOD_POLITICIAN)).to_have_value("2")
    assert Counter(_room(live, code)["settings"]["roles"])["good_politician"] == 2

    with host.page.expect_response(re.compile(r"/settings$")):  # (its answer draws the
        _count(host, Role.CITIZEN).fill("1")  # room again: not while the next is typed)
        _count(host, Role.CITIZEN).press("Tab")
    expect(_count(host, Role.CITIZEN)).to_have_value("1")
    _count(host, Role.CORRUPT_POLITICIAN).fill("3")
    _count(host, Role.CORRUPT_POLITICIAN).press("Tab")
    want = {"good_politician": 2, "corrupt_politician": 3, "lawyer": 1}
    want |= {"ombudsperson": 1, "coa": 1, "citizen": 1}
    _until_room(live, code, lambda r: Counter(r["settings"]["roles"]) == want, "the setup")

    host.el("start-game").click()  # (at the foot of a long waiting room)
    wait_for_game(live, code)
    dealt = Counter(role.value for role in roles_of(live.game(code)).values())
    assert dealt == want
    assert live.game(code).ruleset.auto_jail_mode == "forced_vote"
    expect(host.el("screen")).to_be_visible()
    # the game opens at its top: "You: Ana" and the role card, not halfway down the night
    expect(host.el("role-reveal")).to_be_in_viewport()
    assert host.page.evaluate("scrollY") == 0
    tabs.assert_clean()


def test_quick_changes_to_the_setup_reach_the_server_in_the_order_made(
    live: Live, tabs: Tabs
) -> None:
    """The host changes one count and, before the server has answered, another (R-03).
    Each change sends the whole setup, so the server must get them in the order made:
    here the network holds the first until the second could have overtaken it (requests
    on two connections are not ordered), and the room ends with the host's last setup."""
    host, code = _custom_room_of_nine(live, tabs)

    network = _SlowSettings(host, code)
    held = network.held
    _two_counts_on_a_slow_network(host, network)
    expect(_count(host, Role.CORRUPT_POLITICIAN)).to_have_value("3")
    # whatever the page has sent by now lands newest first, each before the next
    network.holding = False
    for route in reversed(list(held)):
        network.land(route)
    want = {"good_politician": 2, "corrupt_politician": 3, "citizen": 1}
    want |= {"lawyer": 1, "ombudsperson": 1, "coa": 1}
    _until_room(live, code, lambda r: Counter(r["settings"]["roles"]) == want, "the last", host)
    expect(_count(host, Role.CORRUPT_POLITICIAN)).to_have_value("3")
    expect(_count(host, Role.CITIZEN)).to_have_value("1")
    tabs.assert_clean()


def test_a_count_being_typed_when_the_room_is_drawn_again_is_kept(live: Live, tabs: Tabs) -> None:
    """The host is typing a count (not yet left) when an earlier change's answer draws the
    room again: the count typed stays in its input, and leaving it sends it (R-03)."""
    host, code = _custom_room_of_nine(live, tabs)
    network = _SlowSettings(host, code)
    _count(host, Role.CITIZEN).fill("1")
    _count(host, Role.CITIZEN).press("Tab")
    until_routed(host, lambda: network.held, "the first change")
    _count(host, Role.CORRUPT_POLITICIAN).fill("3")  # typed, not yet left
    host.page.locator(tid("role-count")).first.evaluate("(el) => { el.dataset.drawn = 'before'; }")
    network.holding = False
    network.land(network.held.pop(0))  # its answer draws the room again
    expect(host.page.locator("[data-drawn]")).to_have_count(0)
    expect(_count(host, Role.CORRUPT_POLITICIAN)).to_have_value("3")
    _count(host, Role.CORRUPT_POLITICIAN).press("Tab")
    want = {"good_politician": 2, "corrupt_politician": 3, "citizen": 1}
    want |= {"lawyer": 1, "ombudsperson": 1, "coa": 1}
    _until_room(live, code, lambda r: Counter(r["settings"]["roles"]) == want, "the count", host)
    tabs.assert_clean()


def test_a_count_selected_when_the_room_is_drawn_again_takes_the_digit_typed(
    live: Live, tabs: Tabs
) -> None:
    """The host selects a count to type over it, and before the digit is typed the room is
    drawn again (another person joins the table): the redraw leaves the count focused and
    selected, so the digit typed replaces it ("3", not "23", which the server refused), and
    "3" is what the server is sent (R-03)."""
    host, code = _custom_room_of_nine(live, tabs)
    count = _count(host, Role.CORRUPT_POLITICIAN)
    count.select_text()
    count.evaluate("(el) => { el.dataset.drawn = 'before'; }")
    api_seat(live, code, "Zed")  # another seat: the room's message draws it again
    expect(host.el("seat-list").locator(tid("seat-item"))).to_have_count(10)
    expect(host.page.locator("[data-drawn]")).to_have_count(0)  # (a new element)
    expect(count).to_be_focused()
    with host.page.expect_request(re.compile(r"/settings$")) as sent:
        host.page.keyboard.type("3")
        expect(count).to_have_value("3")
        count.press("Tab")
    roles = Counter(json.loads(sent.value.post_data or "{}")["roles"])
    assert roles["corrupt_politician"] == 3
    want = {"good_politician": 2, "corrupt_politician": 3, "citizen": 2}
    want |= {"lawyer": 1, "ombudsperson": 1, "coa": 1}
    _until_room(live, code, lambda r: Counter(r["settings"]["roles"]) == want, "the count", host)
    expect(count).to_have_value("3")
    tabs.assert_clean()


def test_a_timer_selected_when_a_change_s_answer_draws_the_room_takes_what_is_typed(
    live: Live, tabs: Tabs
) -> None:
    """The host changes a count, then selects the discussion timer to type over it, and the
    count's answer draws the room again before anything is typed: the timer stays focused
    and selected, so "90" replaces "180" (it made "18090", beyond an hour, and nothing was
    sent) and 90 s is what the server is sent (R-35)."""
    host, code = _custom_room_of_nine(live, tabs)
    network = _SlowSettings(host, code)
    _count(host, Role.CITIZEN).fill("1")
    _count(host, Role.CITIZEN).press("Tab")
    until_routed(host, lambda: network.held, "the count's change")
    timer = host.el("discussion-seconds")
    timer.select_text()
    timer.evaluate("(el) => { el.dataset.drawn = 'before'; }")
    network.holding = False
    network.land(network.held.pop(0))  # its answer draws the room again
    expect(host.page.locator("[data-drawn]")).to_have_count(0)
    expect(timer).to_be_focused()
    with host.page.expect_request(re.compile(r"/settings$")) as sent:
        host.page.keyboard.type("90")
        expect(timer).to_have_value("90")
        timer.press("Tab")
    assert json.loads(sent.value.post_data or "{}")["discussion_seconds"] == 90
    _until_room(live, code, lambda r: r["settings"].get("discussion_seconds") == 90, "90", host)
    tabs.assert_clean()


def test_quick_changes_then_start_start_the_game_the_host_set(live: Live, tabs: Tabs) -> None:
    """The host changes a count, then another, then two rule variants and taps Start, on
    a slow network. While the first change's answer redraws the room, the controls keep
    showing the host's changes (not the room's older setup, which the next change would
    read and send back); each variant builds on the one before; and Start goes after the
    changes made before it: the game starts with all of them (R-03, R-21, R-25)."""
    host, code = _custom_room_of_nine(live, tabs)
    _open_folds(host)

    network = _SlowSettings(host, code)
    held = network.held
    _two_counts_on_a_slow_network(host, network)
    host.page.locator(tid("role-count")).first.evaluate("(el) => { el.dataset.drawn = 'before'; }")
    network.land(held.pop(0))  # the first lands; its answer redraws the room
    expect(host.page.locator("[data-drawn]")).to_have_count(0)
    expect(_count(host, Role.CORRUPT_POLITICIAN)).to_have_value("3")  # the host's, still
    expect(_count(host, Role.CITIZEN)).to_have_value("1")
    variant = f'{tid("variant")}[data-option="%s"]'
    host.page.locator(variant % "auto_jail_mode").select_option('"forced_vote"')
    host.page.locator(variant % "lawyer_consecutive").select_option('"allowed"')
    host.el("start-game").click()
    network.holding = False  # the rest of the network is quick
    for route in held:
        network.land(route)
    _until_room(live, code, lambda r: r["status"] != "lobby", "the start", host)
    game = wait_for_game(live, code)
    dealt = Counter(role.value for role in roles_of(game).values())
    assert dealt == {
        "good_politician": 2, "corrupt_politician": 3, "lawyer": 1,
        "ombudsperson": 1, "coa": 1, "citizen": 1,
    }  # fmt: skip
    assert game.ruleset.auto_jail_mode == "forced_vote"
    assert game.ruleset.lawyer_consecutive == "allowed"
    tabs.assert_clean()


def test_start_waits_for_a_change_that_fails_and_a_change_builds_on_the_last_answer(
    live: Live, tabs: Tabs
) -> None:
    """Two orders a slow network makes. (1) The room's own message about a change comes
    after the change's answer: the next change builds on the answer, not on the older
    settings (R-35's timer). (2) The host picks a variant and taps Start, and the
    variant's change fails: the game does not start with settings the host did not
    choose; the failure is told by the variant, Start is back, and the next tap starts
    (R-25)."""
    host, code = _custom_room_of_nine(live, tabs)
    _open_folds(host)
    late: list[tuple[WebSocketRoute, str | bytes]] = []  # the room's messages held back (1)
    holding = [False]

    def lobby_late(
        ws: WebSocketRoute, data: dict[str, Any], message: str | bytes
    ) -> str | bytes | None:
        if holding[0] and data.get("type") == "lobby":
            late.append((ws, message))
            return None
        return message

    relay(host, down=lobby_late)
    host.page.reload()  # (the page's socket, through the route)
    expect(_count(host, Role.CITIZEN)).to_be_enabled()
    _open_folds(host)
    holding[0] = True
    host.el("discussion-seconds").fill("90")
    host.el("discussion-seconds").press("Tab")
    _until_room(live, code, lambda r: r["settings"].get("discussion_seconds") == 90, "90", host)
    variant = host.page.locator(f'{tid("variant")}[data-option="lawyer_consecutive"]')
    variant.select_option('"allowed"')
    _until_room(
        live,
        code,
        lambda r: r["settings"].get("ruleset", {}).get("lawyer_consecutive") == "allowed",
        "the variant",
        host,
    )
    assert _room(live, code)["settings"]["discussion_seconds"] == 90  # not undone
    holding[0] = False
    for ws, message in late:
        ws.send(message)
    starts: list[str] = []
    host.page.on("request", lambda r: starts.append(r.url) if r.url.endswith("/start") else None)

    network = _SlowSettings(host, code)  # (2)
    host.page.locator(f'{tid("variant")}[data-option="auto_jail_mode"]').select_option(
        '"forced_vote"'
    )
    until_routed(host, lambda: network.held, "the variant's change")
    host.el("start-game").click()
    network.holding = False
    failed = network.held.pop()
    failed.fulfill(status=503, json={"error": {"code": "store_unavailable", "message": "busy"}})
    host.allow(r"status of 503 .*/api/rooms/\w+/settings\)$")  # (the browser's own line)
    expect(host.el("variant-error")).to_be_visible()
    expect(host.el("start-game")).to_be_enabled()  # back, and the game did not start
    assert starts == [] and _room(live, code)["status"] == "lobby"
    host.el("start-game").click()
    game = wait_for_game(live, code)
    assert game.ruleset.auto_jail_mode == "direct"  # what the host was shown
    tabs.assert_clean()


def test_a_person_is_removed_only_once_the_host_confirms(live: Live, tabs: Tabs) -> None:
    """The host's own seat has no ✕ (a stray tap took the host out of their own room); a
    person's ✕ asks first, in the row ("Keep" / "Remove"), and a double tap on ✕ removes
    nobody; "Keep" leaves the seat, "Remove" removes it (a bot's ✕ removes at once, above)."""
    host = tabs.open("Ana")
    code = create_room(host, "Ana")
    guest = tabs.open("Ben")
    join_by_link(guest, f"/?room={code}", "Ben", code)
    seats = host.el("seat-list").locator(tid("seat-item"))
    expect(seats).to_have_count(2)
    ana, ben = (host.page.locator(f'{tid("seat-item")}[data-name="{n}"]') for n in ("Ana", "Ben"))
    expect(ana.locator(tid("remove-seat"))).to_have_count(0)
    ben.locator(tid("remove-seat")).dblclick()
    expect(ben.locator(tid("remove-keep"))).to_be_visible()
    expect(ben.locator(tid("remove-confirm"))).to_be_visible()
    assert [s["name"] for s in _room(live, code)["seats"]] == ["Ana", "Ben"]
    ben.locator(tid("remove-keep")).click()
    expect(ben.locator(tid("remove-seat"))).to_be_visible()
    ben.locator(tid("remove-seat")).click()
    ben.locator(tid("remove-confirm")).click()  # (once it takes taps)
    expect(seats).to_have_count(1)
    _until_room(live, code, lambda r: [s["name"] for s in r["seats"]] == ["Ana"], "Ben gone")
    expect(guest.el("app")).to_contain_text("not in this room")
    tabs.assert_clean()


def test_publishing_the_record_is_the_host_s_choice_made_before_everyone(
    live: Live, tabs: Tabs
) -> None:
    """A game's record holds every secret ballot (R-34): it is for the table unless the
    host publishes it, a choice made in the lobby that every seat sees there before the
    game."""
    host = tabs.open("Ana")
    code = create_room(host, "Ana")
    guest = tabs.open("Ben")
    join_by_link(guest, f"/?room={code}", "Ben", code)
    for tab in (host, guest):
        expect(tab.el("public-record")).to_have_count(0)
    host.el("publish-record").check()
    _until_room(live, code, lambda room: room["settings"].get("public_record"), "public_record")
    for tab in (host, guest):
        expect(tab.el("public-record")).to_be_visible()
    host.el("publish-record").uncheck()
    _until_room(live, code, lambda room: not room["settings"].get("public_record"), "private")
    expect(guest.el("public-record")).to_have_count(0)
