"""The human moderator's grimoire (R-71) through a whole game of bots, on a phone and on a
laptop: axe-core finds no serious or critical violation at any step or at the end."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import ViewportSize, expect

from tests.server.live import Live, add_bots, start
from tests.web.accessibility import Audit
from tests.web.harness import FAST, Tabs, end_discussion, wait_for_game

SAFETY_SECONDS = 600  # only a hang gets there: nothing here measures speed
SIZES = {"phone-360x640": ViewportSize(width=360, height=640),
         "laptop-1280x720": ViewportSize(width=1280, height=720)}  # fmt: skip


@pytest.mark.parametrize("size", list(SIZES))
def test_R71_the_grimoire_is_accessible_at_every_step(live: Live, tabs: Tabs, size: str) -> None:
    with live.http() as http:
        created = http.post("/api/rooms", json={"settings": {**FAST, "moderator": "human"}})
        created.raise_for_status()
        body = created.json()
    code, host_token = body["code"], body["host_token"]
    add_bots(live, code, host_token, 9)
    stored = {"host_token": host_token, "moderator_token": body["moderator_token"]}
    grimoire = tabs.open(
        "moderator", f"/moderator?room={code}", phone=size.startswith("phone"),
        viewport=SIZES[size], storage={f"korapsyon:{code}": stored},
    )  # fmt: skip
    audit = Audit()
    expect(grimoire.el("seat-list")).to_be_visible()
    audit.check(grimoire, "waiting room")
    start(live, code, host_token)
    game = wait_for_game(live, code)
    expect(grimoire.el("mod-roles")).to_be_visible()
    deadline = time.monotonic() + SAFETY_SECONDS
    while not game.is_over:
        assert time.monotonic() < deadline, f"no end: Year {game.year}, {game.step}"
        audit.check(grimoire, game.step.value if game.step else "over")
        if not end_discussion(grimoire):
            grimoire.page.wait_for_timeout(50)  # polling the page, not a timing assertion
    expect(grimoire.el("board-step")).to_have_attribute("data-step", "")  # the game is over
    audit.check(grimoire, "end")
    audit.assert_clean()
