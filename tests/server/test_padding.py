"""R-70's padding budgets hold the worst case: random games with long non-ASCII names, the
default setups and custom ones with the largest Corrupt teams, every role's frame of every
push (and every whole view) measured as the server builds it, with two acks of the largest
id and the longest clock readings. The worst case found is what the budgets are checked
against, step by step, so a budget that is too small fails here (and not only, now and
then, as an overflow on a live server: tests/security)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from korapsyon.rules import Game, Role, Ruleset
from korapsyon.rules.events import StepStarted
from korapsyon.rules.views import ViewTracker, votes_cast
from korapsyon.selfplay import play_random
from korapsyon.server.frames import ANY_COUNT, PAD_OVERHEAD, SharedParts, view_frame
from korapsyon.server.padding import Padding
from korapsyon.server.protocol import Ack, encode
from tests.hidden_variants import random_setup
from tests.security.wire import odd_names

ACKS = [Ack(2**63 - 1, 99_999), Ack(2**63 - 2, 99_999)]  # two of the longest acks
TIMER = {"paused": True, "remaining": 3599.9}  # the longest timer (a deadline is shorter)
NOW = 9_999_999_999.999_999  # a clock reading of the longest kind


def _corrupt_heavy(seed: int) -> Game:
    """A custom setup of 20 seats with as many Corrupt Politicians as R-03 allows beside
    two Good Politicians and one each of the other roles."""
    rng = random.Random(seed)
    roles = [Role.GOOD_POLITICIAN] * 2 + [Role.LAWYER, Role.OMBUDSPERSON, Role.COA]
    roles += [Role.CORRUPT_POLITICIAN] * (20 - len(roles) - 1) + [Role.CITIZEN]
    rng.shuffle(roles)
    return Game(odd_names(20, rng), roles=roles, seed=seed, ruleset=Ruleset(max_years=4))


def _games() -> list[Game]:
    games = []
    for seed in range(3):
        game = random_setup(700 + seed)
        names = odd_names(len(game.players), random.Random(seed))
        games.append(Game(names, roles=game.roles, seed=game.seed, ruleset=game.ruleset,
                          decks=game.initial_decks))  # fmt: skip
    return [*games, _corrupt_heavy(1), _corrupt_heavy(2)]


def _headroom(game: Game, rng: random.Random) -> list[int]:
    """Play ``game`` out; after each action, how many bytes each player's frames of that
    push had left below the padded size (negative: the budget was too small)."""
    padding = Padding(game)
    public = ViewTracker(game, None, words=False)
    trackers = [ViewTracker(game, name, public, words=False) for name in game.players]
    for tracker in trackers:
        tracker.update()
        tracker.take_timeline()
    public.update()
    taken, seen = len(public.timeline), len(game.events)
    base: Mapping[str, Any] = public.shared_core()
    room: list[int] = []
    while not game.is_over:
        play_random(game, rng, resubmit=0.05, max_actions=1)
        fresh = game.events[seen:]
        began = any(type(e) is StepStarted for e in fresh)
        audiences = {e.audience for e in fresh}
        parts = SharedParts(public.shared_core(), votes_cast(game))
        # a push after every action; every player sent the most any base allows
        shared = parts.since(base, ANY_COUNT)
        base = parts.core
        public_new = public.timeline[taken:]
        size = padding.frame_size(
            game, b"update", shared, public_new, len(game.actions), began=began
        )
        for tracker in trackers:
            tracker.update_from(seen, audiences)
            personal = encode(tracker.personal())
            timeline = tracker.take_timeline()
            seq = len(game.actions)
            frame = view_frame(b"update", shared, personal, timeline, TIMER, NOW, seq, ACKS)
            room.append(size - len(frame) - PAD_OVERHEAD)
        taken, seen = len(public.timeline), len(game.events)
        if game.is_over or len(game.actions) % 7:
            continue
        shared = parts.whole()
        view_size = padding.frame_size(game, b"view", shared, public.timeline)
        for name in game.players:  # a whole view: a phone that (re)connects now
            whole = ViewTracker(game, name, public, words=False)
            whole.update()
            frame = view_frame(
                b"view", shared, encode(whole.personal()), whole.take_timeline(), TIMER, NOW
            )
            room.append(view_size - len(frame) - PAD_OVERHEAD)
    return room


@pytest.mark.parametrize("index", range(5))
def test_no_frame_outgrows_the_padding_budget(index: int) -> None:
    game = _games()[index]
    room = _headroom(game, random.Random(index))
    worst = min(room)
    assert worst >= 0, f"a frame outgrew its budget by {-worst} bytes"
