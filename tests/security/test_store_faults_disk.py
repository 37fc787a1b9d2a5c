"""A live server: a whole game over WebSockets, which in process costs about twice the CPU.

A full disk mid-game (issue #6): the server refuses actions with ``store_unavailable``
rather than acknowledging what it could not store; no client sees a refused action as
taken; the game in memory is never ahead of the database; and once there is space again
the game carries on and ends with the record of the same game played without the fault.

Two ways to fill the disk: SQLite's page limit lowered on the writer's connection (works
anywhere), and a real file system that runs out of space (a small tmpfs; needs mount)."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, event

from tests.server.live import running

from .store_faults import break_and_mend, check_finished

UNLIMITED = 1073741823  # SQLite's default max_page_count


def test_sqlite_page_limit_full_disk(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    limit: dict[str, int] = {}

    with running(url) as live:
        writer = live.store.writer

        @event.listens_for(live.store.engine, "connect")
        def _limit(dbapi_connection: Any, _record: Any) -> None:  # a reconnecting writer
            if "pages" in limit:
                dbapi_connection.execute(f"PRAGMA max_page_count = {limit['pages']}")

        def fill() -> None:
            def op(conn: Connection) -> None:
                pages = conn.exec_driver_sql("PRAGMA page_count").scalar_one()
                limit["pages"] = pages
                conn.exec_driver_sql(f"PRAGMA max_page_count = {pages}")

            writer.submit(op).result(timeout=30)

        def free() -> None:
            limit.clear()
            writer.submit(
                lambda conn: conn.exec_driver_sql(f"PRAGMA max_page_count = {UNLIMITED}")
            ).result(timeout=30)

        run = asyncio.run(break_and_mend(live, url, break_store=fill, mend_store=free))
        asyncio.run(check_finished(live, url, run, "disk is full"))


@contextlib.contextmanager
def small_file_system(where: Path, megabytes: int) -> Iterator[Path]:
    where.mkdir()
    try:
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs", str(where)],
            check=True,
            capture_output=True,
        )
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"cannot mount a small file system here: {exc}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False, capture_output=True)


def test_a_file_system_that_runs_out_of_space(tmp_path: Path) -> None:
    with small_file_system(tmp_path / "small", 16) as folder:
        url = f"sqlite:///{folder / 'db.sqlite3'}"
        filler = folder / "filler"
        with running(url) as live:

            def fill() -> None:
                # an empty write-ahead log: the next commit must grow a file
                with contextlib.closing(sqlite3.connect(folder / "db.sqlite3")) as db:
                    busy, _, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                    assert busy == 0
                out = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
                try:
                    while os.write(out, b"\0" * 65536):
                        pass
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC, exc
                finally:
                    os.close(out)

            def free() -> None:
                filler.unlink()

            run = asyncio.run(break_and_mend(live, url, break_store=fill, mend_store=free))
            asyncio.run(check_finished(live, url, run, "disk is full"))
