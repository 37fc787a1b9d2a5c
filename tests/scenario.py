"""A small vocabulary for writing rule tests as short scenarios.

The 13-seat table of the shared examples: Ana and Ben are Good Politicians, Cris, Dani and
Mia Corrupt Politicians, Eli the Lawyer, Fe the Ombudsperson, Gil the COA and Hugo, Ivy,
Jun, Kat and Leo Citizens. Decks start S3, S1, S2 ... and L2, L1, L3 ...

Helpers submit, for every seat that must act, the action given for that name or a
harmless default (nobody / no / abstain), in seat order, and return the events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from korapsyon.rules import Game, Role, Ruleset, Step
from korapsyon.rules.actions import (
    HOST,
    AutoJail,
    CommitteeVote,
    Corrupt,
    Elect,
    EndDiscussion,
    ForcedJailVote,
    Investigate,
    JailVote,
    PickCommittee,
    PickProject,
    Protect,
    Ready,
    Stand,
    Witness,
    WitnessVote,
)
from korapsyon.rules.events import BaseEvent

NAMES = [
    "Ana",
    "Ben",
    "Cris",
    "Dani",
    "Eli",
    "Fe",
    "Gil",
    "Hugo",
    "Ivy",
    "Jun",
    "Kat",
    "Leo",
    "Mia",
]
ROLES = [
    Role.GOOD_POLITICIAN,
    Role.GOOD_POLITICIAN,
    Role.CORRUPT_POLITICIAN,
    Role.CORRUPT_POLITICIAN,
    Role.LAWYER,
    Role.OMBUDSPERSON,
    Role.COA,
    Role.CITIZEN,
    Role.CITIZEN,
    Role.CITIZEN,
    Role.CITIZEN,
    Role.CITIZEN,
    Role.CORRUPT_POLITICIAN,
]
SMALL = ["S3", "S1", "S2", "S4", "S5", "S6", "S7", "S8"]
LARGE = ["L2", "L1", "L3", "L4", "L5", "L6", "L7", "L8"]


def table(seed: int = 1, **rules: Any) -> Game:
    """The examples' 13-seat game, with ruleset overrides."""
    return Game(NAMES, roles=ROLES, seed=seed, ruleset=Ruleset(**rules), decks=(SMALL, LARGE))


def corrupt(nakaw: bool = False, suhol: bool = False, tokhang: str | None = None) -> dict[str, Any]:
    return {"nakaw": nakaw, "suhol": suhol, "tokhang": tokhang}


def night(game: Game, **choices: Any) -> list[BaseEvent]:
    """Every active player's night action. Values: a target name (or None) for the Lawyer,
    Ombudsperson and Good Politicians; a :func:`corrupt` dict for a Corrupt Politician."""
    assert game.step is Step.HIDDEN, game.step
    events: list[BaseEvent] = []
    for seat in sorted(game.to_act):
        name = game.players[seat]
        role = game.roles[seat]
        given = choices.get(name)
        if role is Role.LAWYER:
            action: Any = Protect(player=name, target=given)
        elif role is Role.OMBUDSPERSON:
            action = Investigate(player=name, target=given)
        elif role is Role.GOOD_POLITICIAN:
            action = AutoJail(player=name, target=given)
        elif role is Role.CORRUPT_POLITICIAN:
            action = Corrupt(player=name, **(given or corrupt()))
        else:
            action = Ready(player=name)
        events += game.apply(action)
    return events


def elect(
    game: Game, president: str, votes: Mapping[str, str | None] | None = None
) -> list[BaseEvent]:
    """Only ``president`` stands; everyone votes for them unless ``votes`` says otherwise."""
    events: list[BaseEvent] = []
    assert game.step is Step.STAND, game.step
    for seat in sorted(game.to_act):
        name = game.players[seat]
        events += game.apply(Stand(player=name, stand=name == president))
    for seat in sorted(game.to_act):
        name = game.players[seat]
        events += game.apply(Elect(player=name, candidate=(votes or {}).get(name, president)))
    return events


def project(
    game: Game, card: str, members: list[str], support: int | None = None
) -> list[BaseEvent]:
    """The President picks ``card`` and ``members``; the first ``support`` members (all by
    default) vote Support, the rest Oppose."""
    president = game.players[game.president]  # type: ignore[index]
    events = game.apply(PickProject(player=president, card=card))
    events += game.apply(PickCommittee(player=president, members=tuple(members)))
    yes = len(members) if support is None else support
    for i, name in enumerate(members):
        events += game.apply(CommitteeVote(player=name, support=i < yes))
    return events


def discuss(game: Game, witness: bool = False) -> list[BaseEvent]:
    assert game.step is Step.DISCUSSION, game.step
    events: list[BaseEvent] = []
    if witness:
        omb = game.players[game.ombudsperson]  # type: ignore[index]
        events += game.apply(Witness(player=omb))
    events += game.apply(EndDiscussion(player=HOST))
    return events


def yes_no_vote(game: Game, votes: Mapping[str, bool | None]) -> list[BaseEvent]:
    """A Witness or forced jail vote; players not in ``votes`` abstain."""
    cls: Any = WitnessVote if game.step is Step.WITNESS_VOTE else ForcedJailVote
    events: list[BaseEvent] = []
    for seat in sorted(game.to_act):
        name = game.players[seat]
        events += game.apply(cls(player=name, jail=votes.get(name)))
    return events


def jail_vote(game: Game, votes: Mapping[str, str | None]) -> list[BaseEvent]:
    """A jail vote (or runoff); players not in ``votes`` abstain."""
    assert game.step in (Step.JAIL_VOTE, Step.JAIL_RUNOFF), game.step
    events: list[BaseEvent] = []
    for seat in sorted(game.to_act):
        name = game.players[seat]
        events += game.apply(JailVote(player=name, target=votes.get(name)))
    return events


def quiet_year(game: Game, president: str = "Ana") -> list[BaseEvent]:
    """A Year where nothing happens: no night action, a failed S project, nobody jailed."""
    events = night(game)
    if game.step is Step.STAND:
        events += elect(game, president)
    card = game.offered[0]  # type: ignore[index]
    size = _size(game, card)
    pool = [game.players[s] for s in game.active_seats()]
    events += project(game, card, pool[:size], support=0)
    events += discuss(game)
    events += jail_vote(game, {})
    return events


def _size(game: Game, card: str) -> int:
    from korapsyon.rules import CARDS

    size = CARDS[card].committee
    active = len(game.active_seats())
    return min(size, active if active % 2 else active - 1)


def of_type(events: list[BaseEvent], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
