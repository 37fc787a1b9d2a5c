"""Views leak nothing: what a player (or a spectator) sees depends only on what the rules
let them know (R-06, R-07, R-11, R-12, R-21..R-25, R-33..R-36, R-70).

Two checks on random games:

* **Content.** A player's view never holds another player's role (except fellow Corrupt,
  and roles revealed by elimination or at the end), the Corruption Fund, the true Kaban,
  anyone else's night choice or secret vote, or who is still to act at night.
* **Non-interference (the strong form).** Game B is game A with facts hidden from viewer P
  changed: two other players' roles swapped (with their night actions), two other voters'
  secret ballots swapped, other players' night targets redrawn. Wherever everything P may
  know is the same in A and B (the public events and public trackers, P's own events and
  P's role), P's views in A and B must be identical, at every step.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

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
)
from korapsyon.rules.cards import LARGE_DECK, SMALL_DECK
from korapsyon.rules.events import CORRUPT, EVERYONE, BaseEvent
from korapsyon.rules.ruleset import default_roles
from korapsyon.rules.views import player_view, public_view
from korapsyon.selfplay import play_random, table

NIGHT = (Protect, Investigate, Corrupt, AutoJail, Ready)
BALLOTS = (Elect, CommitteeVote, WitnessVote, ForcedJailVote, JailVote)

# Timeline kinds a player may see only when the event is addressed to them.
SECRET_KINDS = {
    "protection_set",
    "investigation_result",
    "stolen",
    "suhol_paid",
    "coa_muted",
    "tokhang_paid",
    "not_paid",
    "auto_jail_cancelled",
    "audit_delivered",
    "kickback",
    "role_dealt",
    "team_revealed",
}


def _random_setup(seed: int) -> Game:
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


# ---------------------------------------------------------------------- content
def _walk(value: Any, path: str = "") -> list[tuple[str, Any]]:
    """Every (key path, value) in a JSON-like value."""
    out: list[tuple[str, Any]] = [(path, value)]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for item in value:
            out += _walk(item, f"{path}[]")
    return out


def _check_content(game: Game, name: str) -> None:
    view = player_view(game, name)
    json.dumps(view)  # plain JSON data
    seat = game.seat(name)
    role = game.roles[seat]
    keys = {path.rsplit(".", 1)[-1] for path, _ in _walk(view)}
    assert not keys & {"secrets", "pending", "waiting_for", "kaban", "protected"}
    assert [p for p, _ in _walk(view) if p.endswith(".corruption_fund")] == [
        ".targets.corruption_fund"
    ]
    revealed = _revealed(game)
    for entry in view["players"]:
        if entry["name"] in revealed:
            assert entry["role"] == revealed[entry["name"]]
        else:
            assert entry["role"] is None
    you = view["you"]
    assert you["role"] == role.value
    corrupt = role is Role.CORRUPT_POLITICIAN
    if corrupt:
        assert set(you["teammates"]) == {game.players[s] for s in game.corrupt_seats} - {name}
    else:
        assert "teammates" not in you and "team_choices" not in you
    pending = game.pending.get(seat)
    assert you["submitted"] == (None if pending is None else pending.to_wire())
    for entry in view["timeline"]:
        if entry["kind"] in SECRET_KINDS:
            assert entry.get("private"), entry
    if game.step is Step.HIDDEN:
        assert view["ballot"] == {"step": "hidden"}  # nothing on who is still deciding


def _revealed(game: Game) -> dict[str, str]:
    if game.outcome is not None:
        return {n: r.value for n, r in zip(game.players, game.roles, strict=True)}
    out = {}
    for event in game.events:
        if type(event).__name__ == "PlayerEliminated" and event.role is not None:  # type: ignore[attr-defined]
            out[event.player] = event.role.value  # type: ignore[attr-defined]
    return out


@pytest.mark.parametrize("seed", range(40))
def test_player_views_hold_only_what_the_player_may_know(seed: int) -> None:
    game = _random_setup(seed)
    rng = random.Random(seed)
    step = 0
    while not game.is_over:
        play_random(game, rng, resubmit=0.05, max_actions=7)
        step += 1
        name = game.players[step % len(game.players)]
        _check_content(game, name)
        public = public_view(game)
        assert "you" not in public
        assert all(not e.get("private") for e in public["timeline"])
    for name in game.players:  # at the end every role is revealed, nothing else breaks
        _check_content(game, name)


# ---------------------------------------------------------------------- non-interference
@dataclass
class Variation:
    """How game B differs from game A for viewer ``viewer`` (a seat, or None: public)."""

    viewer: int | None
    swap: tuple[int, int] | None
    ballot_swaps: dict[int, tuple[int, int]] = field(default_factory=dict)
    redraw: float = 0.0
    reorder: bool = False


def _history(game: Game) -> list[tuple[int, int, Step | None]]:
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


def _final_choices(
    game: Game, history: list[tuple[int, int, Step | None]]
) -> dict[tuple[int, Step | None, str], Action]:
    """The last submission of each player in each (Year, step)."""
    final: dict[tuple[int, Step | None, str], Action] = {}
    for index, year, step in history:
        action = game.actions[index]
        final[(year, step, action.player)] = action
    return final


def _vary(a: Game, variation: Variation, rng: random.Random) -> tuple[Game, list[Action]]:
    """Build game B from game A's setup and actions, changed as ``variation`` says."""
    history = _history(a)
    final = _final_choices(a, history)
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
                theirs = _quiet_night(roles[a.seat(player)], player)
            action = _as(theirs, player)
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
                    action = _as(theirs, player)
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
        _reorder_nights(actions, history, viewer_name, rng)
    return b, actions


def _reorder_nights(
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


def _quiet_night(role: Role, player: str) -> Action:
    if role is Role.CORRUPT_POLITICIAN:
        return Corrupt(player=player, nakaw=False, suhol=False, tokhang=None)
    if role is Role.LAWYER:
        return Protect(player=player, target=None)
    if role is Role.OMBUDSPERSON:
        return Investigate(player=player, target=None)
    if role is Role.GOOD_POLITICIAN:
        return AutoJail(player=player, target=None)
    return Ready(player=player)


def _as(action: Action, player: str) -> Action:
    data = action.to_wire()
    data["player"] = player
    from korapsyon.rules.actions import action_from_wire

    return action_from_wire(data)


def _known_to(game: Game, viewer: int | None, since: int) -> list[Any]:
    """What the viewer learns from the events appended since ``since``."""
    corrupt = viewer is not None and game.roles[viewer] is Role.CORRUPT_POLITICIAN
    out = []
    for event in game.events[since:]:
        if _visible(event, viewer, corrupt):
            out.append(event.to_wire())
    return out


def _visible(event: BaseEvent, viewer: int | None, corrupt: bool) -> bool:
    return (
        event.audience == EVERYONE
        or (viewer is not None and event.audience == viewer)
        or (corrupt and event.audience == CORRUPT)
    )


def _public_state(game: Game, viewer: int | None) -> tuple[Any, ...]:
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


def _hidden_state(game: Game) -> tuple[Any, ...]:
    return (
        game.roles,
        sorted((s, a.to_wire().__repr__()) for s, a in game.pending.items()),
        game.protected,
        game.investigation,
        game.corruption_fund,
        game.kaban,
        game.coa_muted,
    )


def _compare(a: Game, variation: Variation, rng: random.Random) -> tuple[int, int]:
    """Replay A and B side by side; assert equal views wherever the viewer's knowledge is
    equal. Returns (comparisons made, comparisons where hidden facts differed)."""
    b, b_actions = _vary(a, variation, rng)
    a2 = Game(a.players, roles=a.roles, seed=a.seed, ruleset=a.ruleset, decks=a.initial_decks)
    viewer = variation.viewer
    name = None if viewer is None else a.players[viewer]
    compared = differing = 0
    for action_a, action_b in zip(a.actions, b_actions, strict=True):
        before_a, before_b = len(a2.events), len(b.events)
        a2.apply(action_a)
        try:
            b.apply(action_b)
        except IllegalActionError:
            break  # B left the rules: nothing more to compare
        if _known_to(a2, viewer, before_a) != _known_to(b, viewer, before_b):
            break  # what the viewer knows differs from here on (histories only grow)
        if _public_state(a2, viewer) != _public_state(b, viewer):
            continue
        view_a = public_view(a2) if name is None else player_view(a2, name)
        view_b = public_view(b) if name is None else player_view(b, name)
        assert view_a == view_b, (variation, len(a2.actions))
        compared += 1
        differing += _hidden_state(a2) != _hidden_state(b)
    return compared, differing


def _variation(game: Game, rng: random.Random) -> Variation:
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


def test_two_games_differing_only_in_hidden_facts_give_identical_views() -> None:
    """The strong form, over 150 random game pairs (9-16 players, both variants)."""
    total = differing = pairs_with_hidden_difference = 0
    for seed in range(150):
        rng = random.Random(1000 + seed)
        a = _random_setup(seed)
        play_random(a, rng, resubmit=0.05)
        variation = _variation(a, rng)
        made, hidden = _compare(a, variation, rng)
        total += made
        differing += hidden
        pairs_with_hidden_difference += hidden > 0
    # The check must have bite: many comparisons where hidden facts really differed.
    assert pairs_with_hidden_difference >= 100, pairs_with_hidden_difference
    assert differing >= total // 3, (differing, total)
