"""A live server and a PostgreSQL process, stopped mid-game and started again.

A lost database (issue #6): a private PostgreSQL instance is stopped mid-game
(``pg_ctl stop -m immediate``: the clients' connections die at once). The server refuses
actions with ``store_unavailable``, acknowledges nothing it could not store, and shows no
client a refused action; when the database is back, the writer reconnects and the game
finishes with the record of the same game played without the fault.

The shared cluster of scripts/postgres.sh is left alone: this test runs its own (initdb in
a temporary folder, a free port) and is skipped where PostgreSQL is not installed."""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from korapsyon.harness.spawn import free_port
from tests.server.live import running

from .store_faults import break_and_mend, check_finished


class Cluster:
    """A private PostgreSQL instance: its own data folder and port."""

    def __init__(self, bin_dir: Path, folder: Path) -> None:
        self.bin_dir = bin_dir
        self.folder = folder
        self.data = folder / "data"
        self.port = free_port()
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str) -> None:
        args = [str(self.bin_dir / command[0]), *command[1:]]
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            args = ["runuser", "-u", "postgres", "--", *args]
        subprocess.run(args, check=True, capture_output=True, timeout=120)

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-N")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=on"
        log = str(self.folder / "log")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def stop(self, mode: str = "immediate") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    initdb = shutil.which("initdb") or (found[-1] if found else None)
    if initdb is None:
        pytest.skip("PostgreSQL is not installed (scripts/postgres.sh installs it)")
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        pytest.skip("running as root without runuser: cannot start PostgreSQL")
    folder = Path(tempfile.mkdtemp(prefix="korapsyon-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    cluster = Cluster(Path(initdb).parent, folder)
    try:
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            cluster.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)


def test_a_lost_postgresql_and_its_return(cluster: Cluster) -> None:
    with running(cluster.url) as live:

        async def reads_say_so() -> None:
            """A read that needs the database answers 503 store_unavailable, not 500."""
            async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
                response = await http.get("/api/rooms/ZZZZZ/record")
            assert response.status_code == 503
            error = response.json()["error"]
            assert error == {"code": "store_unavailable", "message": error["message"]}
            assert error["message"] == "the database cannot be reached"

        run = asyncio.run(
            break_and_mend(
                live,
                cluster.url,
                break_store=cluster.stop,
                mend_store=cluster.start,
                while_broken=reads_say_so,
            )
        )
        asyncio.run(check_finished(live, cluster.url, run, "cannot be reached"))
