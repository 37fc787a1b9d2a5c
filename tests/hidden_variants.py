"""Pairs of games that differ only in facts hidden from one viewer (tests' helper).

Game B is game A with facts hidden from viewer P changed: two other players' roles swapped
(with their night actions), two other voters' secret ballots swapped, other players' night
targets redrawn, the order of other players' night submissions shuffled.
:func:`side_by_side` replays A and B together and says, after each action, whether what P
may know (the events P may see, the public trackers and P's own role) is still the same.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from korapsyon.rules import Game, IllegalActionError, Role, Ruleset, Step
from korapsyon.rules.actions import (
    Action,
    AutoJail,
    CommitteeVote,
    Corrupt,
    Elect,
    ForcedJailVote,
    Investigate,
    JailVote,
    Protect,
    Ready,
    Witness,
    WitnessVote,
    action_from_wire,
)
from korapsyon.rules.cards import LARGE_DECK, SMALL_DECK
from korapsyon.rules.events import CORRUPT, EVERYONE, BaseEvent
from korapsyon.rules.ruleset import default_roles
from korapsyon.selfplay import table

NIGHT = (Protect, Investigate, Corrupt, AutoJail, Ready)
BALLOTS = (Elect, CommitteeVote, WitnessVote, ForcedJailVote, JailVote)


def random_setup(seed: int) -> Game:
    """A random table with the deal and decks given explicitly, so that a variant of the
    game with other roles still draws the same lots from the seed (R-06, R-33)."""
    rng = random.Random(seed)
    players = rng.randint(9, 16)
    ruleset = Ruleset(
        auto_jail_mode=rng.choice(["direct", "forced_vote"]),
        lawyer_consecutive=rng.choice(["forbidden", "allowed"]),
        max_years=rng.choice([4, 6, 8]),
    )
    roles = default_roles(players)
    rng.shuffle(roles)
    small, large = list(SMALL_DECK), list(LARGE_DECK)
    rng.shuffle(small)
    rng.shuffle(large)
    return Game(table(players), roles=roles, seed=seed, ruleset=ruleset, decks=(small, large))


@dataclass
class Variation:
    """How game B differs from game A for viewer ``viewer`` (a seat, or None: public)."""

    viewer: int | None
    swap: tuple[int, int] | None
    ballot_swaps: dict[int, tuple[int, int]] = field(default_factory=dict)
    redraw: float = 0.0
    reorder: bool = False


def steps_of(game: Game) -> list[tuple[int, int, Step | None]]:
    """For each action of a finished game: (index, Year, step it was taken in)."""
    replay = Game(
        game.players,
        roles=game.roles,
        seed=game.seed,
        ruleset=game.ruleset,
        decks=game.initial_decks,
    )
    out = []
    for index, action in enumerate(game.actions):
        out.append((index, replay.year, replay.step))
        replay.apply(action)
    return out


def final_choices(
    game: Game, history: list[tuple[int, int, Step | None]]
) -> dict[tuple[int, Step | None, str], Action]:
    """The last submission of each player in each (Year, step)."""
    final: dict[tuple[int, Step | None, str], Action] = {}
    for index, year, step in history:
        action = game.actions[index]
        final[(year, step, action.player)] = action
    return final


def vary(a: Game, variation: Variation, rng: random.Random) -> tuple[Game, list[Action]]:
    """Build game B from game A's setup and actions, changed as ``variation`` says."""
    history = steps_of(a)
    final = final_choices(a, history)
    roles = list(a.roles)
    names = a.players
    if variation.swap is not None:
        x, y = variation.swap
        roles[x], roles[y] = roles[y], roles[x]
    b = Game(a.players, roles=roles, seed=a.seed, ruleset=a.ruleset, decks=a.initial_decks)
    partner: dict[str, str] = {}
    if variation.swap is not None:
        x, y = variation.swap
        partner = {names[x]: names[y], names[y]: names[x]}
    viewer_name = None if variation.viewer is None else names[variation.viewer]
    redrawn: dict[tuple[int, str], Action] = {}
    actions: list[Action] = []
    for index, year, step in history:
        action = a.actions[index]
        player = action.player
        if isinstance(action, NIGHT) and player in partner:
            # the swapped player makes the other one's night choice of that Year
            theirs = final.get((year, step, partner[player]))
            if theirs is None:  # the partner sat this night out: a quiet choice instead
                theirs = quiet_night(roles[a.seat(player)], player)
            action = as_player(theirs, player)
        elif isinstance(action, Witness) and b.ombudsperson is not None:
            action = Witness(player=names[b.ombudsperson])
        elif isinstance(action, BALLOTS) and step is not None:
            pair = variation.ballot_swaps.get(year * 100 + list(Step).index(step))
            weighted = step is not Step.ELECT and step is not Step.COMMITTEE_VOTE
            if pair is not None and weighted and b.president in pair:
                pair = None  # the President's ballot weighs 2: never swap it
            if pair is not None and player in (names[pair[0]], names[pair[1]]):
                other = names[pair[1]] if player == names[pair[0]] else names[pair[0]]
                theirs = final.get((year, step, other))
                if theirs is not None:
                    action = as_player(theirs, player)
        if (
            isinstance(action, (Protect, Investigate, AutoJail))
            and player != viewer_name
            and variation.redraw
        ):
            key = (year, player)
            if key not in redrawn and rng.random() < variation.redraw:
                options = b.choices(player)[0].options["target"] if b.choices(player) else ()
                if options:
                    redrawn[key] = type(action)(player=player, target=rng.choice(options))
            action = redrawn.get(key, action)
        actions.append(action)
    if variation.reorder:
        reorder_nights(actions, history, viewer_name, rng)
    return b, actions


def reorder_nights(
    actions: list[Action],
    history: list[tuple[int, int, Step | None]],
    viewer: str | None,
    rng: random.Random,
) -> None:
    """Shuffle who submits when in each Hidden Phase (the viewer's turns stay put), each
    player submitting their final choice: who is still deciding is hidden (R-70)."""
    groups: dict[int, list[int]] = {}
    for index, year, step in history:
        if step is Step.HIDDEN and actions[index].player != viewer:
            groups.setdefault(year, []).append(index)
    for indices in groups.values():
        last = {actions[i].player: actions[i] for i in indices}
        moved = [last[actions[i].player] for i in indices]
        rng.shuffle(moved)
        for i, action in zip(indices, moved, strict=True):
            actions[i] = action


def quiet_night(role: Role, player: str) -> Action:
    if role is Role.CORRUPT_POLITICIAN:
        return Corrupt(player=player, nakaw=False, suhol=False, tokhang=None)
    if role is Role.LAWYER:
        return Protect(player=player, target=None)
    if role is Role.OMBUDSPERSON:
        return Investigate(player=player, target=None)
    if role is Role.GOOD_POLITICIAN:
        return AutoJail(player=player, target=None)
    return Ready(player=player)


def as_player(action: Action, player: str) -> Action:
    data = action.to_wire()
    data["player"] = player
    return action_from_wire(data)


def visible(event: BaseEvent, viewer: int | None, corrupt: bool) -> bool:
    return (
        event.audience == EVERYONE
        or (viewer is not None and event.audience == viewer)
        or (corrupt and event.audience == CORRUPT)
    )


def public_state(game: Game, viewer: int | None) -> tuple[Any, ...]:
    """The public trackers (R-10, R-12, R-13) and the step, plus the viewer's role."""
    hidden = game.step is Step.HIDDEN
    return (
        game.year,
        game.step,
        None if hidden else sorted(game.to_act),
        None if hidden else len(game.pending),
        tuple(game.status),
        tuple(game.strikes),
        tuple(game.returns_year),
        game.public_spending,
        game.kaban_public,
        game.president,
        game.president_since,
        game.offered,
        game.card,
        game.committee,
        game.committee_size,
        game.candidates,
        game.outcome,
        None if viewer is None else game.roles[viewer],
    )


def hidden_state(game: Game) -> tuple[Any, ...]:
    return (
        game.roles,
        sorted((s, a.to_wire().__repr__()) for s, a in game.pending.items()),
        game.protected,
        game.investigation,
        game.corruption_fund,
        game.kaban,
        game.coa_muted,
    )


def variation_for(game: Game, rng: random.Random) -> Variation:
    n = len(game.players)
    viewer: int | None = rng.choice([None, *range(n)])
    others = [s for s in range(n) if s != viewer]
    corrupt_viewer = viewer is not None and game.roles[viewer] is Role.CORRUPT_POLITICIAN
    if corrupt_viewer:  # a Corrupt viewer knows who the Corrupt are: swap among the rest
        others = [s for s in others if game.roles[s] is not Role.CORRUPT_POLITICIAN]
    swappable = [s for s in others if game.roles[s] is not game.roles[others[0]]]
    swap = (others[0], rng.choice(swappable)) if swappable and rng.random() < 0.8 else None
    ballots: dict[int, tuple[int, int]] = {}
    for year in range(1, game.year + 1):
        for step in (Step.ELECT, Step.COMMITTEE_VOTE, Step.JAIL_VOTE, Step.WITNESS_VOTE):
            if rng.random() < 0.7 and len(others) >= 2:
                x, y = rng.sample(others, 2)
                ballots[year * 100 + list(Step).index(step)] = (x, y)
    return Variation(
        viewer, swap, ballots, redraw=rng.choice([0.0, 0.3]), reorder=rng.random() < 0.5
    )


@dataclass
class Moment:
    """A and B after the same action: the events the viewer saw in each since the last
    moment, and whether the public state (and the viewer's role) is the same."""

    a: Game
    b: Game
    seen_a: list[BaseEvent]
    seen_b: list[BaseEvent]
    same_public_state: bool


def side_by_side(a: Game, variation: Variation, rng: random.Random) -> Iterator[Moment]:
    """Replay A and B together, one moment per action, for as long as B stays legal and
    the viewer has seen the same events in both."""
    b, b_actions = vary(a, variation, rng)
    a2 = Game(a.players, roles=a.roles, seed=a.seed, ruleset=a.ruleset, decks=a.initial_decks)
    viewer = variation.viewer
    seen_a, seen_b = seen_by(a2, viewer, 0), seen_by(b, viewer, 0)
    for action_a, action_b in zip(a.actions, b_actions, strict=True):
        if wire(seen_a) != wire(seen_b):
            return  # what the viewer knows differs from here on (histories only grow)
        yield Moment(a2, b, seen_a, seen_b, public_state(a2, viewer) == public_state(b, viewer))
        before_a, before_b = len(a2.events), len(b.events)
        a2.apply(action_a)
        try:
            b.apply(action_b)
        except IllegalActionError:
            return  # B left the rules: nothing more to compare
        seen_a, seen_b = seen_by(a2, viewer, before_a), seen_by(b, viewer, before_b)
    if wire(seen_a) == wire(seen_b):
        yield Moment(a2, b, seen_a, seen_b, public_state(a2, viewer) == public_state(b, viewer))


def seen_by(game: Game, viewer: int | None, since: int) -> list[BaseEvent]:
    """The events appended since ``since`` that the viewer may see."""
    corrupt = viewer is not None and game.roles[viewer] is Role.CORRUPT_POLITICIAN
    return [e for e in game.events[since:] if visible(e, viewer, corrupt)]


def wire(events: list[BaseEvent]) -> list[Any]:
    return [e.to_wire() for e in events]
