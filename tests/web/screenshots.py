"""Screenshots of the web client's screens for docs/screenshots/ (and the README).

    .venv/bin/python -m tests.web.screenshots [--out docs/screenshots]

A real server on a loopback port and Debian's chromium, as in the browser tests: the host
creates a room with a human moderator in the lobby, eight more phones join, a game is
played through the phones' UI, and each screen is captured on its way (phones at 390
wide, the board and the moderator at 1280 wide). Not part of the test run.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from PIL import Image
from playwright.sync_api import expect

from korapsyon.selfplay import table
from tests.server.live import Live, running
from tests.web.harness import (
    FAST,
    Snapshot,
    Tab,
    Tabs,
    api_seat,
    chromium,
    create_room,
    decide,
    hold,
    play_turns,
    put_settings,
    release,
    roles_of,
    sensible,
    snapshot,
    tid,
    wait_for_game,
)

OTHERS = table(9)[1:]  # Ana hosts
SHOTS = [
    "phone-lobby",
    "phone-waiting-room",
    "phone-role-card",
    "phone-night",
    "phone-ballot",
    "phone-president-project",
    "phone-end",
    "board",
    "board-end",
    "moderator",
]


def save(tab: Tab, out: Path, name: str) -> Path:
    """The page as it shows now (the viewport), in 128 colours: small PNGs."""
    path = out / f"{name}.png"
    tab.page.screenshot(path=str(path), animations="disabled", caret="initial")
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=128)
    small.save(path, optimize=True)
    print(f"{path} ({path.stat().st_size // 1024} KiB)")
    return path


def unrevealed(board: Tab) -> Tab:
    """The board with its latest result's full-screen reveal closed (a key closes it, as at
    the table), so the shot shows the board under it."""
    if board.el("board-reveal").is_visible():
        board.page.keyboard.press("Escape")
    expect(board.el("board-reveal")).to_be_hidden()
    return board


def main() -> None:
    parser = argparse.ArgumentParser(description="Screenshots of the web client's screens.")
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    out: Path = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as tmp,
        running(f"sqlite:///{Path(tmp) / 'k.sqlite3'}") as live,
        chromium() as browser,
    ):
        tabs = Tabs(browser, live.url)
        try:
            shoot(tabs, live, out)
            tabs.assert_clean()
        finally:
            tabs.close()


def shoot(tabs: Tabs, live: Live, out: Path) -> None:
    host = tabs.open("Ana", "/")
    host.el("name-input").fill("Ana")
    save(host, out, "phone-lobby")
    code = create_room(host, "Ana", moderator=True)
    stored = host.storage(code)
    assert stored.get("moderator_token"), "the lobby kept no moderator token"
    put_settings(live, code, str(stored["host_token"]), {**FAST, "moderator": "human"})
    phones = [host]
    for name in OTHERS:
        seat = api_seat(live, code, name)
        phones.append(tabs.open(name, f"/play?room={code}", storage={f"korapsyon:{code}": seat}))
    expect(host.el("seat-list").locator(tid("seat-item"))).to_have_count(9)
    expect(host.el("qr-code")).to_be_visible()
    save(host, out, "phone-waiting-room")

    board = tabs.open("board", f"/board?room={code}", phone=False)
    moderator = tabs.open(
        "moderator", f"/moderator?room={code}", phone=False, storage={f"korapsyon:{code}": stored}
    )
    host.el("start-game").click()
    wait_for_game(live, code)
    roles = roles_of(live.game(code))

    expect(host.el("night-screen")).to_be_visible()
    hold(host, host.el("role-reveal"))
    expect(host.el("role-name")).to_be_visible()
    save(host, out, "phone-role-card")
    release(host)
    expect(host.el("role-name")).to_be_hidden()
    save(host, out, "phone-night")

    names = {tab.label: tab.label for tab in phones}
    base = sensible(roles, "Ana", lambda: live.game(code).committee_size)

    def elect_ana(me: str, snap: Snapshot) -> dict[str, list[int]]:
        """Ana stands alone and everyone elects her (R-33), so her phone gets the
        President's project choice (R-34)."""
        if snap.action == "elect":
            values = snap.fields[0]["values"]
            return {snap.fields[0]["field"]: [values.index('"Ana"')]}
        return base(me, snap)

    def at(step: str) -> None:
        play_turns(
            phones,
            names,
            elect_ana,
            host=host,
            until=lambda snaps: snaps["Ana"].step == step and snaps["Ana"].to_act,
            timeout=120,
        )

    at("elect")
    snap = snapshot(host)
    values = snap.fields[0]["values"]
    host.el("choice-panel").locator(tid("option")).nth(values.index('"Ana"')).click()
    save(host, out, "phone-ballot")
    decide(host, snapshot(host), {})
    host.done.add((snap.year, snap.step))
    at("pick_project")
    save(host, out, "phone-president-project")
    save(moderator, out, "moderator")
    at("jail_vote")
    save(unrevealed(board), out, "board")
    play_turns(
        phones,
        names,
        elect_ana,
        host=host,
        until=lambda snaps: all(s.end for s in snaps.values()),
        timeout=300,
    )
    expect(board.el("end-screen")).to_be_visible()
    host.page.evaluate("window.scrollTo(0, 0)")
    save(host, out, "phone-end")
    save(unrevealed(board), out, "board-end")


if __name__ == "__main__":
    main()
