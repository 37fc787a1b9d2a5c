"""Tests that take ``db_url`` run against both stores: SQLite always, and PostgreSQL at
KORAPSYON_TEST_POSTGRES (scripts/test installs and starts one; without it those runs are
skipped).

Under pytest-xdist (scripts/test runs the suite on every core) each worker has a database of
its own beside that one (``korapsyon_test_gw0``, ...), created on first use, so that one
worker's test emptying its database never pulls another's tables away; and the browser
tests (tests/web) all run on one worker, one chromium at a time (``--dist loadgroup``): two
at once on two cores made the pages' own timing fail (the board's end screen left cut,
a page that took over 30 s to answer a click), where each passes alone."""

from __future__ import annotations

import contextlib
import functools
import os
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ProgrammingError


def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_BrowserTestsOnOneWorker(), "korapsyon-browser-worker")


class _BrowserTestsOnOneWorker:
    """With ``--dist loadgroup``, the tests under tests/web are one group, run by one worker;
    every other test is scheduled on its own. (xdist's ``xdist_group`` mark would say the
    same, but xdist 3.8 groups by renaming a test's ``_nodeid``, which pytest 9.2 no longer
    reads: the mark is ignored.)"""

    @staticmethod
    def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
        if config.getvalue("dist") != "loadgroup":
            return None
        from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

        class Scheduling(LoadScopeScheduling):  # type: ignore[misc]  # (largest group first)
            def _split_scope(self, nodeid: str) -> str:
                return "browser" if nodeid.startswith("tests/web/") else nodeid

        return Scheduling(config, log)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'korapsyon.sqlite3'}"
    return clean_postgres()


def clean_postgres() -> str:
    """The URL of this test process's PostgreSQL database, emptied (or the test is skipped:
    there is none)."""
    url = os.environ.get("KORAPSYON_TEST_POSTGRES")
    if not url:
        pytest.skip("no PostgreSQL for the tests (scripts/test starts one)")
    url = _database_of_this_worker(url, os.environ.get("PYTEST_XDIST_WORKER"))
    engine = create_engine(url)
    with engine.begin() as conn:  # a clean database for each test
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return url


@functools.cache
def _database_of_this_worker(url: str, worker: str | None) -> str:
    """``url`` itself outside xdist; else the URL of a database named after ``url``'s and
    the ``worker`` ("gw0", ...), created (empty, from template0) if it does not exist yet."""
    if worker is None:
        return url
    base = make_url(url)
    name = f"{base.database}_{worker}"
    if not name.replace("_", "").isalnum():  # it goes into SQL below, unquoted
        raise ValueError(f"unexpected PostgreSQL database name {name!r}")
    engine = create_engine(base, isolation_level="AUTOCOMMIT")  # CREATE DATABASE needs it
    try:
        with engine.connect() as conn:
            found = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name})
            if found.first() is None:
                with contextlib.suppress(ProgrammingError):  # made meanwhile by another run
                    conn.execute(text(f"CREATE DATABASE {name} TEMPLATE template0"))
    finally:
        engine.dispose()
    return base.set(database=name).render_as_string(hide_password=False)
