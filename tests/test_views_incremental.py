"""A ViewTracker kept up to date action by action gives exactly the view computed from
scratch, and the timeline it hands out in pieces is the whole timeline."""

from __future__ import annotations

import random

import pytest

from korapsyon.rules import Game, Ruleset
from korapsyon.rules.views import MODERATOR_VIEWER, ViewTracker, view_for
from korapsyon.selfplay import play_random, table


@pytest.mark.parametrize("seed", range(8))
def test_incremental_views_equal_fresh_views(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(table(9 + seed), seed=seed, ruleset=Ruleset(max_years=6))
    viewers: list[str | None] = [None, MODERATOR_VIEWER, *game.players]
    public = ViewTracker(game, None)
    trackers = {who: ViewTracker(game, who, public) for who in viewers}
    pieces: dict[str | None, list[object]] = {who: [] for who in viewers}
    while not game.is_over:
        play_random(game, rng, resubmit=0.1, max_actions=rng.randint(1, 9))
        shared = public.shared()
        for who, tracker in trackers.items():
            tracker.update()
            pieces[who] += tracker.take_timeline()
            state = tracker.state(shared)
            fresh = view_for(game, who)
            assert state == {k: v for k, v in fresh.items() if k != "timeline"}
            assert pieces[who] == fresh["timeline"]


@pytest.mark.parametrize("seed", range(4))
def test_trackers_that_skip_batches_for_others_keep_the_same_views(seed: int) -> None:
    """The server reads a push's new events only for viewers in their audiences
    (update_from): every other viewer moves past them unread and still has exactly the
    view of a tracker that read every event."""
    rng = random.Random(seed)
    game = Game(table(13 + seed), seed=seed, ruleset=Ruleset(max_years=6))
    viewers: list[str | None] = [None, MODERATOR_VIEWER, *game.players]
    public = ViewTracker(game, None)
    reading = {who: ViewTracker(game, who, public) for who in viewers}
    skipping = {who: ViewTracker(game, who, public) for who in viewers}
    pieces: dict[str | None, list[object]] = {who: [] for who in viewers}
    skipped = 0
    while not game.is_over:
        start = len(game.events)
        play_random(game, rng, resubmit=0.1, max_actions=rng.randint(1, 3))
        audiences = {event.audience for event in game.events[start:]}
        shared = public.shared()
        for who in viewers:
            seen = reading[who].update()
            assert skipping[who].update_from(start, audiences) == seen
            skipped += not seen and len(game.events) > start  # (then it did not read them)
            pieces[who] += skipping[who].take_timeline()
            assert skipping[who].state(shared) == reading[who].state(shared)
    for who in viewers:
        assert pieces[who] == view_for(game, who)["timeline"]
    assert skipped > 0  # batches did pass some viewers by


@pytest.mark.parametrize("seed", range(6))
def test_kept_shared_part_equals_a_fresh_one_after_every_action(seed: int) -> None:
    """A tracker keeps the shared part without its ballot until it reads an event its
    viewer may see: that is right only if nothing else in it changes without a public
    event, which this checks after every single action (re-submissions included)."""
    rng = random.Random(seed)
    game = Game(table(9 + seed), seed=seed, ruleset=Ruleset(max_years=8))
    trackers = [ViewTracker(game, None), ViewTracker(game, MODERATOR_VIEWER)]
    trackers.append(ViewTracker(game, game.players[seed % len(game.players)]))
    kept = 0
    while not game.is_over:
        before = [tracker.shared_core() for tracker in trackers]
        play_random(game, rng, resubmit=0.2, max_actions=1)
        fresh = ViewTracker(game, None).shared()
        for tracker, old in zip(trackers, before, strict=True):
            assert tracker.shared() == fresh
            kept += tracker.shared_core() is old
    assert kept > 0  # (votes: only the ballot changed, and the rest was kept)


def test_recipients_and_visible_to_agree() -> None:
    """The transport's fan-out (recipients) and the views' filter (visible_to) are one rule."""
    from korapsyon.rules.events import recipients, visible_to

    game = play_random(Game(table(13), seed=2), random.Random(2))
    corrupt = list(game.corrupt_seats)
    for event in game.events:
        readers = set(recipients(event, len(game.players), corrupt))
        for seat in range(len(game.players)):
            assert (seat in readers) == visible_to(event, seat, seat in corrupt)
