"""Non-interference on the wire, the strong form: two games that differ only in facts hidden
from a client send that client byte-identical frames (R-06, R-07, R-11, R-12, R-21..R-25,
R-33..R-36, R-70).

Game B is game A with facts hidden from viewer P changed (tests/hidden_variants.py): two
other players' roles swapped with their night actions, other voters' secret ballots swapped,
other players' night targets redrawn, the order of others' night choices shuffled. Both are
dealt and played action by action over a live server (tests/security/wire.py), every seat a
real WebSocket client; P's frames must be the same bytes in A and B, frame for frame and
action for action, for as long as everything P may know is the same. The only change made
before comparing is wire.normalised: the room code and the clock readings.

KORAPSYON_WIRE_PAIRS sets how many pairs (default 6, a few seconds each); the last larger
run is written down in docs/RELIABILITY.md.
"""

from __future__ import annotations

import asyncio
import os
import random

from korapsyon.server.session import GameSession
from tests.hidden_variants import random_setup, variation_for
from tests.security.pairs import Pair, hidden_pair, played
from tests.security.wire import PUBLIC, Recording, normalised, padded_length, play_script
from tests.server.inprocess import Local, in_process

PAIRS = int(os.environ.get("KORAPSYON_WIRE_PAIRS", "6"))
LIMIT = 160  # actions of a pair replayed at most (a whole game is 100-400)


def _pairs(count: int) -> list[Pair]:
    out: list[Pair] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(7000 + seed)
        a = played(random_setup(300 + seed), seed)
        variation = variation_for(a, rng)
        if len(out) % 3 == 2:  # one in three: the public (board and spectators)
            variation.viewer = None
        pair = hidden_pair(a, variation, rng, LIMIT)
        seed += 1
        if pair.differing >= 5:  # only pairs whose hidden facts really differ
            out.append(pair)
    return out


def _watchers(pair: Pair) -> tuple[str, ...]:
    return PUBLIC if pair.viewer is None else (pair.viewer,)


def _compare(pair: Pair, a: Recording, b: Recording) -> int:
    """Assert the viewer's frames are the same bytes in A and B; return how many."""
    compared = 0
    for who in _watchers(pair):
        groups_a, groups_b = a.groups[who], b.groups[who]
        assert len(groups_a) == len(groups_b)
        for index, (got_a, got_b) in enumerate(zip(groups_a, groups_b, strict=True)):
            frames_a = [normalised(f, a.code) for f in got_a]
            frames_b = [normalised(f, b.code) for f in got_b]
            assert frames_a == frames_b, (who, index, pair.a_actions[index - 1 : index])
            sizes_a = [padded_length(f) for f in got_a]
            assert sizes_a == [padded_length(f) for f in got_b], (who, index)
            compared += len(frames_a)
    return compared


def test_games_differing_only_in_hidden_facts_send_identical_bytes(tmp_path: object) -> None:
    pairs = _pairs(PAIRS)
    db = f"sqlite:///{tmp_path}/wire.sqlite3"

    async def scenario(live: Local) -> tuple[int, int]:
        frames = actions = 0
        for pair in pairs:
            a = await play_script(live, pair.a, pair.a_actions)
            b = await play_script(live, pair.b, pair.b_actions)
            frames += _compare(pair, a, b)
            actions += len(pair.a_actions)
            for code in (a.code, b.code):  # no frame of either game outgrew its padding
                session = live.hub.rooms[code].session
                assert isinstance(session, GameSession) and session.overflows == 0
        return frames, actions

    with in_process(db) as live:
        frames, actions = asyncio.run(scenario(live))
    # The check has bite: many actions and frames compared, hidden facts differing.
    assert actions >= 60 * len(pairs) // 2, actions
    assert sum(p.differing for p in pairs) >= 10 * len(pairs)
    assert frames >= actions, frames
    assert {p.viewer is None for p in pairs} == {True, False}
