"""What a network observer at the table sees: the size, order and moment of every frame
that reaches each phone must not tell its role (R-70, R-06, R-07, R-23).

On shared Wi-Fi anyone can watch which phones receive frames, when, and how long they are
(TLS hides the content, not the length). The server therefore pads every player's frame of
a push to one length that depends only on public facts, and in the Hidden Phase sends every
player's phone a frame whenever any player's view changes (a ``cover`` to those whose view
did not). Checked over a live server, every seat a real WebSocket client:

* **Two games differing in hidden facts** (other roles swapped with their night choices,
  including Corrupt ones; secret ballots swapped; night targets redrawn; the order of
  night choices shuffled): for every phone, the sizes of the frames it receives after each
  action are the same in both games (padded frames: raw bytes; the others after
  wire.normalised, which zeroes the clock readings).
* **One length a push**: after each action, every player's padded frames have one length,
  and in the Hidden Phase every phone gets exactly one frame.
* **The Corrupt channel** lights up every phone alike.
* Long non-ASCII names and the largest Corrupt teams do not outgrow the padding budget.

KORAPSYON_WIRE_PAIRS sets how many pairs (default 6).
"""

from __future__ import annotations

import asyncio
import os
import random

from korapsyon.rules import Game, Role, Step
from korapsyon.server.session import GameSession
from tests.hidden_variants import Variation, random_setup
from tests.security.pairs import Pair, fresh, hidden_pair, played
from tests.security.wire import (
    PUBLIC,
    Recording,
    close_all,
    normalised,
    odd_names,
    padded_length,
    play_script,
    room_settings,
)
from tests.server.inprocess import Local, in_process
from tests.server.live import Client, make_room, open_client, start

PAIRS = int(os.environ.get("KORAPSYON_WIRE_PAIRS", "6"))
LIMIT = 160


def _public_variation(game: Game, rng: random.Random) -> Variation:
    """Hidden from every phone but the swapped two: any two players of different roles
    swap roles (and night choices), ballots swap, night targets change, night order too."""
    n = len(game.players)
    x = rng.randrange(n)
    y = rng.choice([s for s in range(n) if game.roles[s] is not game.roles[x]])
    ballots = {
        year * 100 + list(Step).index(step): tuple(rng.sample(range(n), 2))
        for year in range(1, game.year + 1)
        for step in (Step.ELECT, Step.COMMITTEE_VOTE, Step.JAIL_VOTE, Step.WITNESS_VOTE)
    }
    return Variation(None, (x, y), ballots, redraw=0.3, reorder=True)  # type: ignore[arg-type]


def _pairs(count: int) -> list[Pair]:
    out: list[Pair] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(9100 + seed)
        game = random_setup(500 + seed)
        if seed % 2:  # long names, non-ASCII, quotes: the padding budget's worst cases
            names = odd_names(len(game.players), rng)
            game = Game(names, roles=game.roles, seed=game.seed, ruleset=game.ruleset,
                        decks=game.initial_decks)  # fmt: skip
        a = played(game, seed)
        pair = hidden_pair(a, _public_variation(a, rng), rng, LIMIT)
        seed += 1
        if pair.differing >= 5:
            out.append(pair)
    return out


def _sizes(frames: list[str], code: str) -> list[int]:
    """The frames' sizes, but the pongs' (the test's own pings, numbered by the test)."""
    return [
        padded_length(f) or len(normalised(f, code).encode())
        for f in frames
        if not f.startswith('{"type":"pong"')
    ]


def _steps(pair: Pair) -> list[tuple[Step | None, Step | None]]:
    """For each group of frames: the step before and after the action that caused it."""
    game = fresh(pair.a)
    out: list[tuple[Step | None, Step | None]] = [(None, game.step)]
    for action in pair.a_actions:
        before = game.step
        game.apply(action)
        out.append((before, game.step))
    return out


def _check_pushes(pair: Pair, rec: Recording) -> int:
    """After each action every player's padded frames have one length; in the Hidden
    Phase every phone gets exactly one frame. Returns the Hidden-Phase pushes seen."""
    phones = [n for n in rec.groups if n not in PUBLIC]
    hidden = 0
    for index, (before, after) in enumerate(_steps(pair)):
        if index == 0:
            continue  # the deal: every phone's view (checked below with the rest)
        lengths = {padded_length(f) for p in phones for f in rec.groups[p][index]} - {None}
        assert len(lengths) <= 1, (index, lengths)
        if Step.HIDDEN in (before, after) and pair.a_actions[index - 1].player != "@host":
            hidden += 1
            for phone in phones:
                frames = [f for f in rec.groups[phone][index] if '"type":"pong"' not in f]
                padded = [f for f in frames if padded_length(f)]
                assert len(padded) == 1, (index, phone, frames)
    views = {padded_length(rec.groups[p][0][0]) for p in phones if rec.groups[p][0]}
    assert len(views) == 1, views  # the deal: one length for every phone's first view
    return hidden


def test_frame_sizes_and_order_do_not_depend_on_hidden_facts(tmp_path: object) -> None:
    pairs = _pairs(PAIRS)
    db = f"sqlite:///{tmp_path}/sizes.sqlite3"

    async def scenario(live: Local) -> tuple[int, int]:
        compared = hidden = 0
        for pair in pairs:
            a = await play_script(live, pair.a, pair.a_actions)
            b = await play_script(live, pair.b, pair.b_actions)
            for phone in pair.a.players:
                for index, (got_a, got_b) in enumerate(
                    zip(a.groups[phone], b.groups[phone], strict=True)
                ):
                    sizes = _sizes(got_a, a.code)
                    assert sizes == _sizes(got_b, b.code), (phone, index)
                    compared += len(sizes)
            hidden += _check_pushes(pair, a) + _check_pushes(pair, b)
            for code in (a.code, b.code):
                session = live.hub.rooms[code].session
                assert isinstance(session, GameSession) and session.overflows == 0
        return compared, hidden

    with in_process(db) as live:
        compared, hidden = asyncio.run(scenario(live))
    assert hidden >= 20 * len(pairs), hidden  # many Hidden-Phase pushes were compared
    assert compared >= 1000 * len(pairs) // 2, compared
    moved = [
        {ra for ra, rb in zip(p.a.roles, p.b.roles, strict=True) if ra is not rb} for p in pairs
    ]
    swapped_corrupt = sum(Role.CORRUPT_POLITICIAN in roles for roles in moved)
    assert swapped_corrupt >= 1, "no pair moved a Corrupt role"


def test_the_corrupt_channel_lights_every_phone_alike(tmp_path: object) -> None:
    """R-23/R-70: a message on the Corrupt channel in the Hidden Phase reaches the Corrupt
    (and the moderator); every other player's phone, and the board, gets a cover of the
    same length at the same moment (as a table message of that length would reach them
    all), and nothing that says what was written."""
    game = random_setup(42)
    db = f"sqlite:///{tmp_path}/chat.sqlite3"

    async def scenario(live: Local) -> None:
        from tests.security.wire import fixed_deal

        code, host_token, tokens = make_room(live, list(game.players), settings=room_settings(game))
        phones = {n: await open_client(live, code, token=t) for n, t in tokens.items()}
        board = await open_client(live, code, host_token=host_token)
        with fixed_deal(game):
            start(live, code, host_token)
        await _settle([*phones.values(), board])
        corrupt = [n for n, r in zip(game.players, game.roles, strict=True)
                   if r is Role.CORRUPT_POLITICIAN]  # fmt: skip
        for text in ("Nakaw tayo?", "Oo, at si Ana ang Tokhang " + "x" * 300):
            marks = {n: len(c.frames) for n, c in phones.items()}
            board_mark = len(board.frames)
            ack = await phones[corrupt[0]].request(
                {"type": "chat", "channel": "corrupt", "text": text}
            )
            assert ack["type"] == "ack", ack
            await _settle([*phones.values(), board])
            got = {n: [f for f in c.frames[marks[n]:] if '"pong"' not in f and '"ack"' not in f]
                   for n, c in phones.items()}  # fmt: skip
            assert all(len(frames) == 1 for frames in got.values()), got
            assert len({len(frames[0].encode()) for frames in got.values()}) == 1
            for name, frames in got.items():
                if name in corrupt:
                    assert text in frames[0]
                else:
                    assert frames[0].startswith('{"type":"cover","pad":"'), frames[0][:40]
                    assert text not in frames[0]
            seen = [f for f in board.frames[board_mark:] if '"pong"' not in f]
            assert len(seen) == 1 and seen[0].startswith('{"type":"cover","pad":"'), seen
            assert len(seen[0].encode()) == len(got[corrupt[0]][0].encode())
        # a table message is padded like a Corrupt one: the size does not tell the channel
        other = next(n for n in phones if n not in corrupt)
        mark = len(board.frames)
        ack = await phones[other].request({"type": "chat", "channel": "public", "text": "Hi"})
        assert ack["type"] == "ack", ack
        await _settle([*phones.values(), board])
        posted = [f for f in board.frames[mark:] if '"chat_posted"' in f]
        assert len(posted) == 1 and len(posted[0].encode()) % 256 == 0, posted
        # reconnecting, a Corrupt phone and another get the same frames in number and length:
        # the history's Corrupt messages come as covers to those who may not read them
        lengths = {}
        for name in (corrupt[0], other):
            await phones[name].ws.close()
            phones[name] = again = await open_client(live, code, token=tokens[name])
            await _settle([again])
            lengths[name] = [
                len(f.encode())
                for f in again.frames
                if not f.startswith(('{"type":"welcome"', '{"type":"lobby"', '{"type":"pong"'))
            ]
        assert lengths[corrupt[0]] == lengths[other], lengths
        assert len(lengths[other]) == 1 + 3  # the view, and the history's three messages
        await close_all([*phones.values(), board])

    with in_process(db) as live:
        asyncio.run(scenario(live))


async def _settle(clients: list[Client]) -> None:
    from tests.security.wire import ping

    await asyncio.gather(*(ping(c) for c in clients))
