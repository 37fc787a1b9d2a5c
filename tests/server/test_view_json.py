"""The server's JSON of a view's shared part, built from the part without the vote count
(encoded once per public event) and the count (:class:`SharedJson`), is exactly the shared
part, with the ballot last on the wire whatever the view's key order."""

from __future__ import annotations

import json
import random

import pytest

from korapsyon.rules import Game, Ruleset
from korapsyon.rules.views import ViewTracker, votes_cast
from korapsyon.selfplay import play_random, table
from korapsyon.server.protocol import SharedJson, encode


def _ballot_last(shared: dict[str, object]) -> bytes:
    """The shared part encoded with its ballot as the last key (the protocol's order)."""
    ordered = {key: value for key, value in shared.items() if key != "ballot"}
    ordered["ballot"] = shared["ballot"]
    return encode(ordered)


@pytest.mark.parametrize("seed", range(4))
def test_shared_json_is_the_shared_part(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(table(9 + 2 * seed), seed=seed, ruleset=Ruleset(max_years=6))
    public = ViewTracker(game, None)
    counted = 0
    while not game.is_over:
        play_random(game, rng, resubmit=0.1, max_actions=1)
        cast = votes_cast(game)
        built = SharedJson(public.shared_core())
        assert built.with_count(cast) == _ballot_last(public.shared())
        assert json.loads(built.with_count(cast)) == public.shared()
        counted += cast is not None and cast > 0
    assert json.loads(SharedJson(public.shared_core()).without_count()) == public.shared()
    assert counted > 0  # counts were added, not only left out


def test_the_ballot_goes_last_whatever_the_key_order() -> None:
    core = {"ballot": {"step": "elect", "voters": ["Ana"]}, "year": 2, "step": "elect"}
    assert SharedJson(core).with_count(3) == (
        b'{"year":2,"step":"elect","ballot":{"step":"elect","voters":["Ana"],"cast":3}}'
    )
    assert SharedJson({"ballot": None}).with_count(None) == b'{"ballot":null}'
    assert SharedJson({"year": 1}).with_count(2) == b'{"year":1}'
