"""R-71: the human moderator's grimoire in a real browser shows everything the moderator
view holds: every role, the private Corruption Fund and true Kaban, who is still to
decide."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.server.live import Live, add_bots, start
from tests.web.harness import (
    FAST,
    Tabs,
    roles_of,
    tid,
    wait_for_game,
)


def test_R71_the_grimoire_shows_every_role_and_the_secret_trackers(live: Live, tabs: Tabs) -> None:
    """A room made with a human moderator: the moderator's page (its token in
    localStorage, as the lobby keeps it) lists every seat's role, the Corruption Fund
    (R-11) and the true Kaban (R-12), and who the Hidden Phase still waits for."""
    with live.http() as http:
        created = http.post("/api/rooms", json={"settings": {**FAST, "moderator": "human"}})
        created.raise_for_status()
        body = created.json()
    code, host_token = body["code"], body["host_token"]
    assert body["moderator_token"]
    add_bots(live, code, host_token, 8)
    stored = {"host_token": host_token, "moderator_token": body["moderator_token"]}
    with live.http() as http:  # one seat stays with a person, so the night waits for it
        ticket = http.post(f"/api/rooms/{code}/seats", json={"name": "Zenaida"}).json()
    grimoire = tabs.open(
        "moderator", f"/moderator?room={code}", phone=False, storage={f"korapsyon:{code}": stored}
    )
    start(live, code, host_token)
    wait_for_game(live, code)
    roles = roles_of(live.game(code))
    assert ticket["name"] == "Zenaida"

    items = grimoire.el("mod-roles").locator(tid("mod-role"))
    expect(items).to_have_count(9)
    shown = {
        items.nth(i).get_attribute("data-name"): items.nth(i).get_attribute("data-role")
        for i in range(9)
    }
    assert shown == {name: role.value for name, role in roles.items()}
    expect(grimoire.el("mod-fund")).to_contain_text("0")
    expect(grimoire.el("mod-fund")).not_to_contain_text("undefined")
    expect(grimoire.el("mod-kaban")).to_contain_text("50")
    expect(grimoire.el("mod-waiting")).to_contain_text("Zenaida")  # the bots have decided
    tabs.assert_clean()
