"""Protocol 4's updates carry only what changed: a client that holds the shared part as of
any earlier moment and applies the changes the server encodes since then (once for every
base, :class:`SharedParts`) has exactly the shared part of now, vote count included."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from korapsyon.rules import Game, Ruleset
from korapsyon.rules.views import ViewTracker, votes_cast
from korapsyon.selfplay import play_random, table
from korapsyon.server.frames import ANY_COUNT, EMPTY, SharedParts, changed_members, merged


@pytest.mark.parametrize("seed", range(4))
def test_changes_since_any_base_give_the_shared_part(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(table(9 + 2 * seed), seed=seed, ruleset=Ruleset(max_years=6))
    public = ViewTracker(game, None)
    whole = SharedParts(public.shared_core(), votes_cast(game)).whole()
    # clients that last heard 1, 2, 5 and 20 actions ago: (their state, its base, its count)
    clients: list[tuple[dict[str, Any], Any, int | None]] = [
        (json.loads(whole), public.shared_core(), votes_cast(game)) for _ in range(4)
    ]
    smaller = counted = 0
    while not game.is_over:
        play_random(game, rng, resubmit=0.1, max_actions=1)
        core, cast = public.shared_core(), votes_cast(game)
        parts = SharedParts(core, cast)
        assert json.loads(parts.whole()) == public.shared()
        for index, every in enumerate((1, 2, 5, 20)):
            if len(game.actions) % every and not game.is_over:
                continue
            state, base, base_cast = clients[index]
            changes = parts.since(base, base_cast)
            state = merged(state, json.loads(changes))
            assert state == public.shared()
            smaller += len(changes) < len(parts.whole())
            assert len(changes) <= len(parts.since(base, ANY_COUNT))  # (R-70's bound)
            clients[index] = (state, core, cast)
        counted += cast is not None and cast > 0
    assert counted > 0  # counts were sent, not only left out
    assert smaller > 0


def test_a_count_alone_sends_the_ballot_alone() -> None:
    ballot = {"step": "elect", "voters": ["Ana", "Ben"]}
    core = {"year": 2, "history": [{"year": 1}], "ballot": ballot}
    parts = SharedParts(core, 1)
    assert parts.since(core, 1) == EMPTY
    assert json.loads(parts.since(core, 0)) == {"ballot": {**ballot, "cast": 1}}
    assert json.loads(parts.since(core, ANY_COUNT)) == {"ballot": {**ballot, "cast": 1}}


def test_a_member_gone_reads_null() -> None:
    assert changed_members({"year": 1, "reveal": [1]}, {"year": 2}) == {"year": 2, "reveal": None}
    assert changed_members(None, {"year": 2}) == {"year": 2}
    same = {"players": [{"name": "Ana"}]}
    assert changed_members(same, {"players": [{"name": "Ana"}]}) == {}
