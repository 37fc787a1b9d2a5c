"""The web client on a server with several workers (``korapsyon serve --workers 2``): a
room is served from its own worker's origin, and the browser follows it there with its
tokens (docs/CLIENT.md), whichever worker's lobby it started from."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, expect

from korapsyon.harness.loadtest import LOAD_OPTIONS
from korapsyon.harness.spawn import spawned_server
from tests.web.harness import Tab, Tabs, tid

CREATIONS = 20
"""UI creations before giving up on seeing a room on worker 0, then one on worker 1 (each
lands on worker 1 with probability 1/2: the room's random code picks its owner)."""


@pytest.fixture
def workers() -> Iterator[tuple[str, str]]:
    """A ``korapsyon serve --workers 2`` on a fresh database: its workers' base URLs."""
    with spawned_server(None, workers=2, options=LOAD_OPTIONS) as (url, _pid):
        port = int(url.rsplit(":", 1)[1])
        yield url, f"http://127.0.0.1:{port + 1}"


def _ready(tab: Tab) -> None:
    """Until the lobby page is set up (its top bar drawn, its buttons listening)."""
    expect(tab.el("lang-select")).to_be_visible()


def _seats(tab: Tab, *names: str) -> None:
    """The waiting room lists exactly these seats, in this order."""
    items = tab.el("seat-list").locator(tid("seat-item"))
    expect(items).to_have_count(len(names))
    for index, name in enumerate(names):
        expect(items.nth(index)).to_have_attribute("data-name", name)


def _seats_at(url: str, code: str) -> list[str]:
    """The names seated in room ``code``, from its worker's API."""
    room = httpx.get(f"{url}/api/rooms/{code}", timeout=10).raise_for_status().json()
    return [seat["name"] for seat in room["seats"]]


def _create_on_each_worker(host: Tab, urls: tuple[str, str]) -> str:
    """The host creates rooms with a seat on worker 0's lobby until one room was worker 0's
    (the page stays there) and then one is worker 1's (the page moves there, and stays on
    it): that room's code."""
    landed: set[str] = set()
    for _ in range(CREATIONS):
        host.page.goto(f"{urls[0]}/")
        _ready(host)
        host.el("name-input").fill("Ana")
        host.el("create-room").click()
        host.page.wait_for_url(re.compile(r"/play\?room=\w+$"))  # no fragment left
        expect(host.el("connection")).to_have_attribute("data-state", "open")
        code = (host.el("room-code").text_content() or "").strip()
        origin = host.page.url.partition("/play?")[0]
        assert origin in urls, host.page.url
        assert host.page.url == f"{origin}/play?room={code}"
        _seats(host, "Ana")
        stored = host.storage(code)  # on the page's own origin, where the room is
        assert stored["host_token"] and stored["token"] and stored["name"] == "Ana"
        landed.add(origin)
        if origin == urls[1] and urls[0] in landed:
            return code
    raise AssertionError(f"{CREATIONS} rooms made in the lobby: not one on worker 0, then 1")


def test_rooms_of_another_worker_are_created_and_joined_there(
    browser: Browser, workers: tuple[str, str]
) -> None:
    """From worker 0's lobby, a host creates a room that worker 1 owns: the phone opens on
    worker 1 with the host's seat (its tokens handed over, none left on worker 0); a
    player who types the code on worker 0's lobby is seated on worker 1, and the host's
    waiting room lists the new seat; a spectator's link to worker 0 is sent there too."""
    tabs = Tabs(browser, workers[0])
    try:
        host = tabs.open("Ana")
        # the client's own question (is the new room here?) and the seat request at the
        # wrong worker: the browser's lines for the 421 answers
        host.allow(r"status of 421 .*/api/rooms/\w+\)$")
        code = _create_on_each_worker(host, workers)

        beside = tabs.open_beside(host, "Ana at worker 0", "/")
        stored = beside.page.evaluate("(key) => localStorage.getItem(key)", f"korapsyon:{code}")
        assert stored is None, "worker 0's origin keeps tokens for worker 1's room"

        player = tabs.open("Bea", "/")
        _ready(player)
        player.allow(r"status of 421 .*/api/rooms/\w+/seats\)$")
        player.el("room-code-input").fill(code)
        player.el("name-input").fill("Bea")
        player.el("join-room").click()
        # the room's own lobby, the name filled in; the seat is taken with one more click
        expect(player.page).to_have_url(f"{workers[1]}/?room={code}")  # the fragment gone
        expect(player.el("name-input")).to_have_value("Bea")
        expect(player.el("room-code-input")).to_have_value(code)
        assert _seats_at(workers[1], code) == ["Ana"]  # not joined by the link alone
        player.el("join-room").click()
        player.page.wait_for_url(f"{workers[1]}/play?room={code}")
        expect(player.el("connection")).to_have_attribute("data-state", "open")
        _seats(player, "Ana", "Bea")
        assert player.storage(code)["name"] == "Bea"
        _seats(host, "Ana", "Bea")

        spectator = tabs.open("spectator", f"/play?room={code}&spectate=1")
        expect(spectator.page).to_have_url(f"{workers[1]}/play?room={code}&spectate=1")
        _seats(spectator, "Ana", "Bea")

        assert _seats_at(workers[1], code) == ["Ana", "Bea"]
        tabs.assert_clean()
    finally:
        tabs.close()
