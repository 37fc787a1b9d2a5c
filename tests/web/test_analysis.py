"""The end screens' analysis (issue #20) in a browser: the decisive moments it picks tell
the game's story (the catch that ended it, a telling exposure, a removal against the
evidence told once, not nine times), and a Corrupt player's fold says it is the table's
view and marks their own row; an answer lost on the way says so and breaks nothing.

Observed before: in a purge game all three Corrupt were caught and none of the catches
showed; nine of twelve moments were "X was jailed at 0% Corrupt, while Bot Dalisay stood at
100%"; a Corrupt phone's fold read "Who looked Corrupt to you" above "here is how the whole
table saw it", its player's own row unmarked."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from korapsyon.rules.roles import Role
from tests.server.live import Live
from tests.web.harness import Tabs, roles_of, tid
from tests.web.scripted import played
from tests.web.tvgame import NAMES

PICK = """async ([moments, count]) => {
  const { pickMoments } = await import('/static/js/analysis.js');
  return pickMoments(moments, count, { outcome: { reason: 'corrupt_purge' } });
}"""


def _removed(year: int, player: str, role: str, verdict: str, **more: Any) -> dict[str, Any]:
    return {"year": year, "kind": "jailed", "player": player, "role": role, "verdict": verdict,
            "cause": "jail_vote", "corrupt": 0.0, "most_suspected": "Dalisay",
            "most_suspected_corrupt": 1.0, **more}  # fmt: skip


def _purge() -> list[dict[str, Any]]:
    """A purge game's moments as the reviewer saw them: a claim exposes a Corrupt, the three
    Corrupt are jailed then eliminated (the last ends the game), and nine Good players are
    removed while the table's most suspected was one Corrupt."""
    cp, citizen = "corrupt_politician", "citizen"
    moments: list[dict[str, Any]] = [
        {
            "year": 3,
            "kind": "exposed",
            "player": "Marites",
            "role": cp,
            "by": "claim_made",
            "by_player": "Isko",
            "before": 0.31,
            "after": 0.95,
        },
        {
            "year": 4,
            "kind": "exposed",
            "player": "Jun",
            "role": citizen,
            "by": "claim_made",
            "before": 0.3,
            "after": 0.6,
        },
        _removed(12, "Marites", cp, "corrupt_caught"),
        _removed(13, "Ems", cp, "corrupt_caught"),
        _removed(15, "Dalisay", cp, "corrupt_caught"),
        _removed(16, "Marites", cp, "corrupt_caught", kind="eliminated"),
        _removed(17, "Ems", cp, "corrupt_caught", kind="eliminated"),
    ]
    for k in range(9):
        moments.append(_removed(18 + k, f"Good{k}", citizen, "good_removed_against_evidence"))
    moments.append(_removed(29, "Dalisay", cp, "corrupt_caught", kind="eliminated"))
    return moments


def test_the_moments_tell_the_games_story(live: Live, tabs: Tabs) -> None:
    """The TV's three: the catch that ended the game, the one removal against the evidence
    (told once), the claim that exposed a Corrupt. The phone's twelve: every catch, the
    exposure, and the table's miss told once before the others; the most telling ranked 0."""
    page = tabs.open("reader", "/").page
    moments = _purge()
    three = page.evaluate(PICK, [moments, 3])
    said = [(m["year"], m["player"], m["kind"]) for m in three]
    assert said == [(3, "Marites", "exposed"), (18, "Good0", "jailed"),
                    (29, "Dalisay", "eliminated")]  # fmt: skip
    assert [m["rank"] for m in three if m["year"] == 29] == [0]
    twelve = page.evaluate(PICK, [moments, 12])
    assert [m["year"] for m in twelve] == sorted(m["year"] for m in twelve)  # as it happened
    caught = [m for m in twelve if m.get("verdict") == "corrupt_caught"]
    assert len(caught) == 6
    missed = [m for m in twelve if m.get("verdict") == "good_removed_against_evidence"]
    assert len(missed) < 9 and missed[0]["rank"] < min(m["rank"] for m in missed[1:])


def test_a_corrupt_players_fold_is_the_tables_view_and_marks_them(live: Live, tabs: Tabs) -> None:
    """At the end of a played game a Corrupt player's phone (360x640): the fold is titled as
    the table's view, its rows are every player's, their own marked "(you)", and a moment
    about them says "you"."""
    code, _, tokens = played(live, NAMES[:13])
    roles = roles_of(live.game(code))
    name = next(n for n in tokens if roles[n] is Role.CORRUPT_POLITICIAN)
    phone = tabs.open(
        name,
        f"/play?room={code}",
        storage={f"korapsyon:{code}": {"token": tokens[name], "name": name}},
        viewport={"width": 360, "height": 640},
    )
    fold = phone.page.locator(f'{tid("end-fold")}[data-fold="analysis"]')
    expect(fold.locator("summary")).to_have_text("🔎 How the table saw everyone, Year by Year")
    fold.locator("summary").click()
    analysis = phone.el("analysis")
    expect(analysis).to_have_attribute("data-state", "done")
    expect(analysis).to_have_attribute("data-view", "public")
    rows = analysis.locator(tid("analysis-row"))
    expect(rows).to_have_count(13)
    mine = analysis.locator(f'{tid("analysis-row")}[data-you="1"]')
    expect(mine).to_have_attribute("data-name", name)
    expect(mine.locator(".name")).to_have_text(re.compile(rf"^{re.escape(name)}\s\(you\)$"))
    for text in analysis.locator(tid("analysis-moment")).all_inner_texts():
        if f"{name} (" in text:
            assert ", you)" in text, text
    tabs.assert_clean()


def test_an_analysis_answer_cut_off_on_the_way_says_so_and_breaks_nothing(
    live: Live, tabs: Tabs
) -> None:
    """The board's analysis arrives "200 OK" with a body cut off (as when the page moves on
    to a rematch while it comes, or a connection drops mid-body): the board says it could
    not be loaded, and its page raises nothing (an unreadable answer once passed for an
    empty one, and drawing it read the length of moments it did not have)."""
    code, _, _ = played(live, NAMES[:13])
    board = tabs.open("board", phone=False, viewport={"width": 1280, "height": 720})
    board.page.route(
        re.compile(r"/api/rooms/[A-Z0-9]+/analysis"),
        lambda route: route.fulfill(
            status=200, content_type="application/json", body='{"years": [{"year": 1, "co'
        ),
    )
    board.page.goto(f"/board?room={code}")
    expect(board.el("end-screen")).to_be_visible()
    analysis = board.el("analysis")
    expect(analysis).to_have_attribute("data-state", "failed")
    expect(analysis).to_have_text("The analysis could not be loaded.")
