"""The server's JSON of a view's shared part, spliced from the part without the vote count
(encoded once per public event) and the count, is exactly the shared part."""

from __future__ import annotations

import json
import random

import pytest

from korapsyon.rules import Game, Ruleset
from korapsyon.rules.views import ViewTracker, votes_cast
from korapsyon.selfplay import play_random, table
from korapsyon.server.protocol import encode, with_votes_cast


@pytest.mark.parametrize("seed", range(4))
def test_spliced_shared_json_is_the_shared_part(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(table(9 + 2 * seed), seed=seed, ruleset=Ruleset(max_years=6))
    public = ViewTracker(game, None)
    counted = 0
    while not game.is_over:
        play_random(game, rng, resubmit=0.1, max_actions=1)
        cast = votes_cast(game)
        spliced = with_votes_cast(encode(public.shared_core()), cast)
        assert json.loads(spliced) == public.shared()
        counted += cast is not None and cast > 0
    assert json.loads(with_votes_cast(encode(public.shared_core()), None)) == public.shared()
    assert counted > 0  # counts were spliced in, not only left out
