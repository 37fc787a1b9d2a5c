"""Accessibility checks in the browser tests: axe-core (the npm package, installed into
``.venv/npm`` by scripts/test, or wherever ``KORAPSYON_AXE`` points) run inside a page as
it shows now, keeping the violations a person would hit: impact "moderate", "serious" or "critical"
(or the impacts ``KORAPSYON_AXE_IMPACTS`` lists).

axe-core is put into the page through the DevTools protocol (Playwright's ``evaluate``), so
the pages' strict Content-Security-Policy stays as it is. :class:`Audit` checks a page once
per state it is asked about (a page kind and a step, say) and keeps every violation with
where it was seen, so a whole game is checked at every screen without checking the same
screen twice.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.web.harness import Tab

ROOT = Path(__file__).resolve().parents[2]
AXE = Path(os.environ.get("KORAPSYON_AXE", ROOT / ".venv/npm/node_modules/axe-core/axe.min.js"))
IMPACTS = tuple(os.environ.get("KORAPSYON_AXE_IMPACTS", "moderate,serious,critical").split(","))
"""The impacts that fail a test (``KORAPSYON_AXE_IMPACTS=minor,moderate,serious,critical``
lists every finding, to look for more than the tests require)."""

RUN = """async (impacts) => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations
    .filter((v) => impacts.includes(v.impact))
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => ({
        target: n.target.join(' '),
        summary: (n.failureSummary || '').split('\\n').slice(0, 3).join(' '),
      })),
    }));
}"""


@cache
def axe_source() -> str:
    """axe-core's script; the test is skipped where scripts/test could not install it."""
    if not AXE.exists():
        pytest.skip(f"no {AXE}: scripts/test installs axe-core from npm (CI always has it)")
    return AXE.read_text(encoding="utf-8")


def violations(tab: Tab) -> list[dict[str, Any]]:
    """The serious and critical violations of ``tab``'s page as it shows now."""
    page = tab.page
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(axe_source() + "\n;0")  # (an expression: nothing comes back)
    found: list[dict[str, Any]] = page.evaluate(RUN, list(IMPACTS))
    return found


@dataclass
class Audit:
    """Every violation seen, each with the page and state it was seen in; each state is
    checked once (the first time it is asked about)."""

    seen: set[tuple[str, ...]] = field(default_factory=set)
    found: list[str] = field(default_factory=list)

    def check(self, tab: Tab, *state: str) -> None:
        key = (tab.label, *state)
        if key in self.seen:
            return
        self.seen.add(key)
        for v in violations(tab):
            nodes = "; ".join(f"{n['target']} ({n['summary']})" for n in v["nodes"])
            self.found.append(f"{'/'.join(key)}: {v['rule']} [{v['impact']}] {v['help']}: {nodes}")

    def assert_clean(self) -> None:
        assert not self.found, f"axe-core found {'/'.join(IMPACTS)} violations:\n" + "\n".join(
            dict.fromkeys(self.found)
        )
