"""Tests that take ``db_url`` run against both stores: SQLite always, and PostgreSQL at
KORAPSYON_TEST_POSTGRES (scripts/test installs and starts one; without it those runs are
skipped).

Under pytest-xdist (scripts/test runs the suite on every core) each worker has a database of
its own beside that one (``korapsyon_test_gw0``, ...), created on first use, so that one
worker's test emptying its database never pulls another's tables away. The browser tests
are not run that way (see scripts/test)."""

from __future__ import annotations

import contextlib
import functools
import os
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ProgrammingError


@pytest.hookimpl(tryfirst=True)  # before -m reads the marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests (tests/web) are marked ``browser``: scripts/test runs them after
    the others, in one process."""
    web = Path(__file__).parent / "web"
    for item in items:
        if item.path.is_relative_to(web):
            item.add_marker(pytest.mark.browser)


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
