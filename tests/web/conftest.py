"""Fixtures of the browser tests: one chromium for the package, a real server per test,
and each test's pages (closed at its end; any console or page error fails the test)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from korapsyon.server.connection import Limits
from tests.server.live import Live, running
from tests.web.harness import CHROMIUM, Tabs, chromium

MACHINE_LIMITS = Limits(messages=1000, chats=1000, connects=0)
"""Machines play faster than people: besides ``running``'s raised message limit, a test's
seats may talk more than 5 times in 10 s (a sixteen-seat game with no timers plays Years in
a second or two, and the same seats claim each Year). The chat limit has its own tests
(tests/security/test_abuse_limits.py, tests/server/test_live_features.py)."""


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"no {CHROMIUM}: scripts/test installs Debian's chromium (CI always has it)")
    with chromium() as launched:
        yield launched


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    with running(f"sqlite:///{tmp_path / 'korapsyon.sqlite3'}", limits=MACHINE_LIMITS) as server:
        yield server


@pytest.fixture
def tabs(browser: Browser, live: Live) -> Iterator[Tabs]:
    pages = Tabs(browser, live.url)
    try:
        yield pages
        pages.assert_clean()
    finally:
        pages.close()
