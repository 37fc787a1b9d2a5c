"""The README's Python example runs as written (its assertions are checked)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).parent.parent / "README.md"


def test_readme_python_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert blocks, "the README should show the engine in use"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {"__name__": "readme"})
