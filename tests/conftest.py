"""Tests that take ``db_url`` run against both stores: SQLite always, and PostgreSQL at
KORAPSYON_TEST_POSTGRES (scripts/test installs and starts one; without it those runs are
skipped)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'korapsyon.sqlite3'}"
    return clean_postgres()


def clean_postgres() -> str:
    """The URL of the tests' PostgreSQL, emptied (or the test is skipped: there is none)."""
    url = os.environ.get("KORAPSYON_TEST_POSTGRES")
    if not url:
        pytest.skip("no PostgreSQL for the tests (scripts/test starts one)")
    engine = create_engine(url)
    with engine.begin() as conn:  # a clean database for each test
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return url
