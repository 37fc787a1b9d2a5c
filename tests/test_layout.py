"""The house's layout rule (#19): a module over about 400 lines says at its top why it is one
module, so that a reader knows before scrolling (the rules core's purity is held by
tests/test_core_imports.py)."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "src" / "korapsyon"
LONG = 420  # lines ("about 400")
REASON = re.compile(r"why one (module|file) of ~\d|(longer than|over) 400 lines because")


def long_modules_without_a_reason(package: Path = PACKAGE, long: int = LONG) -> list[str]:
    """The Python and JavaScript modules over ``long`` lines whose first 60 lines do not
    say why they are one module."""
    missing = []
    for path in sorted([*package.rglob("*.py"), *package.rglob("web/js/*.js")]):
        lines = path.read_text(encoding="utf-8").splitlines()
        head = re.sub(r"\s*[*#]?\s+", " ", " ".join(lines[:60]).lower())  # (comment marks)
        if len(lines) > long and not REASON.search(head):
            missing.append(f"{path.relative_to(package)} ({len(lines)} lines)")
    return missing


def test_a_module_over_400_lines_says_why_at_its_top() -> None:
    assert long_modules_without_a_reason() == []


def test_the_rule_finds_a_long_module_without_a_reason(tmp_path: Path) -> None:
    body = "x = 1\n" * 500
    (tmp_path / "plain.py").write_text('"""A module."""\n' + body)
    told = '"""A module.\n\nWhy one module of ~500 lines: ..."""\n'
    (tmp_path / "told.py").write_text(told + body)
    assert long_modules_without_a_reason(tmp_path) == ["plain.py (501 lines)"]
