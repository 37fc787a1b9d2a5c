"""``pip install korapsyon`` (no extras) is all a player, a host and a game designer need:
outside :mod:`korapsyon.harness` no module imports a package of the ``harness`` extra, not
even lazily inside a function, and importing every core module loads none of them."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import korapsyon
from korapsyon.harness import EXTRA

PACKAGE = Path(korapsyon.__file__).parent
PYPROJECT = PACKAGE.parents[1] / "pyproject.toml"


def _top_level_imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.partition(".")[0])
    return names


def _names(specs: list[str]) -> set[str]:
    return {re.split(r"[\[<>=~! ;]", spec, maxsplit=1)[0] for spec in specs}


def test_the_extra_is_what_pyproject_says() -> None:
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    assert _names(project["optional-dependencies"]["harness"]) == EXTRA
    assert not _names(project["dependencies"]) & EXTRA


def test_no_core_module_imports_the_harness_extra() -> None:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if (PACKAGE / "harness") in path.parents:
            continue
        wrong = _top_level_imports(path) & EXTRA
        if wrong:
            found[str(path.relative_to(PACKAGE))] = sorted(wrong)
    assert not found
    assert _top_level_imports(PACKAGE / "harness" / "loadtest.py") & EXTRA  # the scan sees them


def test_importing_the_core_loads_no_harness_package() -> None:
    script = """
import importlib, pkgutil, sys, korapsyon
for module in pkgutil.walk_packages(korapsyon.__path__, "korapsyon."):
    if not module.name.startswith(("korapsyon.harness", "korapsyon.store.migrations")) and (
        module.name != "korapsyon.__main__"
    ):
        importlib.import_module(module.name)
print(" ".join(sorted(name for name in sys.modules if name.startswith("korapsyon.server."))))
print(" ".join(sorted(name.partition(".")[0] for name in sys.modules)))
"""
    out = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True
    ).stdout.splitlines()
    assert "korapsyon.server.app" in out[0].split()  # the whole core was imported
    assert not set(out[1].split()) & EXTRA
