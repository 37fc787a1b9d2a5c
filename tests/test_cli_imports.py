"""`korapsyon replay` loads only what replaying needs (#19: its start-up is part of every
replay's cost): not the server, the bots, the simulator's charts or the harnesses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).parent / "data" / "examples" / "president-double-vote.json"

PROBE = """
import sys
from korapsyon.cli import main
try:
    main(["replay", sys.argv[1]])
except SystemExit as done:
    assert done.code == 0, done.code
print(__import__("json").dumps(sorted(sys.modules)), file=sys.stderr)
"""

HEAVY = ("korapsyon.server", "korapsyon.bots", "korapsyon.sim", "korapsyon.harness",
         "starlette", "uvicorn", "sqlalchemy", "matplotlib", "asyncio")  # fmt: skip


def test_replay_imports_neither_the_server_nor_the_bots_nor_the_charts() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(EXAMPLE)], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip()  # it replayed and printed its summary
    loaded = json.loads(done.stderr.strip().splitlines()[-1])
    heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY or m.startswith(HEAVY))
    assert not heavy, f"replay loaded {heavy}"


ANALYSE = PROBE.replace('["replay", sys.argv[1]]', '["analyse", "--json", sys.argv[1]]')
LIGHT = ("korapsyon.server", "korapsyon.sim", "korapsyon.harness", "starlette", "uvicorn",
         "sqlalchemy", "matplotlib", "asyncio")  # fmt: skip


def test_analyse_imports_neither_the_server_nor_the_simulator_nor_the_charts() -> None:
    done = subprocess.run(
        [sys.executable, "-c", ANALYSE, str(EXAMPLE)], capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout)["years"]
    loaded = json.loads(done.stderr.strip().splitlines()[-1])
    heavy = sorted(m for m in loaded if m.split(".")[0] in LIGHT or m.startswith(LIGHT))
    assert not heavy, f"analyse loaded {heavy}"


CONSOLE_PROBE = """
import atexit, sys
atexit.register(lambda: print(__import__("json").dumps(sorted(sys.modules)), file=sys.stderr))
sys.argv = ["korapsyon", "replay", *sys.argv[1:]]
from korapsyon.cli import run
run()
"""


def test_the_console_script_replays_without_click() -> None:
    """``korapsyon replay FILE...`` (the console script, :func:`korapsyon.cli.run`) does not
    import click: its import is a quarter of replay's start-up."""
    done = subprocess.run(
        [sys.executable, "-c", CONSOLE_PROBE, str(EXAMPLE), str(EXAMPLE)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert len(done.stdout.strip().splitlines()) == 2  # one summary line per record
    loaded = json.loads(done.stderr.strip().splitlines()[-1])
    assert "click" not in loaded
    heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY or m.startswith(HEAVY))
    assert not heavy, f"replay loaded {heavy}"
