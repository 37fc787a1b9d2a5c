"""A small vocabulary for writing rule tests as short scenarios.

The 13-seat table of the shared examples: Ana and Ben are Good Politicians, Cris, Dani and
Mia Corrupt Politicians, Eli the Lawyer, Fe the Ombudsperson, Gil the COA and Hugo, Ivy,
Jun, Kat and Leo Citizens. Decks start S3, S1, S2 ... and L2, L1, L3 ...

Helpers submit, for every seat that must act, the action given for that name or a
harmless default (nobody / no / abstain), in seat order, and return the events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

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


# ---------------------------------------------------------------------------------------
# Additions for the rule tests (tests/rules/). The helpers above are unchanged.

SMALL_TABLE = ["Ana", "Ben", "Cris", "Fe", "Hugo"]
SMALL_ROLES = [
    Role.GOOD_POLITICIAN,
    Role.GOOD_POLITICIAN,
    Role.CORRUPT_POLITICIAN,
    Role.OMBUDSPERSON,
    Role.CITIZEN,
]


def small_table(seed: int = 1, **rules: Any) -> Game:
    """A 5-seat custom table (R-01/R-03): Ana and Ben Good Politicians, Cris the only
    Corrupt Politician, Fe the Ombudsperson, Hugo a Citizen. Same decks as :func:`table`."""
    return Game(
        SMALL_TABLE, roles=SMALL_ROLES, seed=seed, ruleset=Ruleset(**rules), decks=(SMALL, LARGE)
    )


def seat_names(n: int) -> list[str]:
    """``n`` distinct player names (the example names first, then P14, P15 ...)."""
    return [*NAMES[:n], *(f"P{i}" for i in range(len(NAMES) + 1, n + 1))]


def snapshot(game: Game) -> tuple[dict[str, Any], int, int, dict[int, Any]]:
    """Everything a refused action must leave unchanged."""
    from korapsyon.record import summarize

    return summarize(game), len(game.events), len(game.actions), dict(game.pending)


def refused(game: Game, action: Any, rule: str, code: str) -> Any:
    """Assert that ``action`` is refused with ``rule`` and ``code`` and changes nothing;
    return the error."""
    import pytest

    from korapsyon.rules import IllegalActionError

    before = snapshot(game)
    assert not game.is_legal(action)
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    error = info.value
    assert (error.rule, error.code) == (rule, code), str(error)
    assert str(error).startswith(f"{rule} {code}")
    assert snapshot(game) == before
    return error


def public_texts(game: Game) -> list[str]:
    """The lines of the public timeline (the board screen)."""
    from korapsyon.rules.views import public_view

    return [entry["text"] for entry in public_view(game)["timeline"]]


def night_actions(game: Game, **choices: Any) -> list[Any]:
    """The actions :func:`night` would submit, in seat order, without submitting them."""
    assert game.step is Step.HIDDEN, game.step
    actions: list[Any] = []
    for seat in sorted(game.to_act):
        name = game.players[seat]
        role = game.roles[seat]
        given = choices.get(name)
        if role is Role.LAWYER:
            actions.append(Protect(player=name, target=given))
        elif role is Role.OMBUDSPERSON:
            actions.append(Investigate(player=name, target=given))
        elif role is Role.GOOD_POLITICIAN:
            actions.append(AutoJail(player=name, target=given))
        elif role is Role.CORRUPT_POLITICIAN:
            actions.append(Corrupt(player=name, **(given or corrupt())))
        else:
            actions.append(Ready(player=name))
    return actions


def until_jail_vote(
    game: Game, president: str = "Ana", witness: bool = False, **choices: Any
) -> list[BaseEvent]:
    """Like :func:`quiet_year` but stops at the jail vote: the night (with ``choices``) and
    then :func:`after_night`."""
    events = night(game, **choices)
    return events + after_night(game, president, witness)


def after_night(game: Game, president: str = "Ana", witness: bool = False) -> list[BaseEvent]:
    """From the end of the night to the jail vote: an election if one is due (``president``
    stands and wins), a failed Small project, the discussion (with Witness if asked)."""
    events: list[BaseEvent] = []
    if game.step is Step.STAND:
        events += elect(game, president)
    if game.step is Step.PICK_PROJECT:
        card = game.offered[0]  # type: ignore[index]
        pool = [game.players[s] for s in game.active_seats()]
        events += project(game, card, pool[: _size(game, card)], support=0)
    events += discuss(game, witness=witness)
    return events


_V = TypeVar("_V")


def everyone(game: Game, vote: _V) -> dict[str, _V]:
    """Every active player's ``vote`` (a name for :func:`jail_vote`, a bool for
    :func:`yes_no_vote`)."""
    return {game.players[s]: vote for s in game.active_seats()}


STEAL: dict[str, Any] = {
    "Cris": corrupt(nakaw=True),
    "Dani": corrupt(nakaw=True),
    "Mia": corrupt(nakaw=True),
}


def build_up(game: Game, year1_jail: Mapping[str, str | None] | None = None) -> list[BaseEvent]:
    """Years 1-3 on the 13-seat table, so that Year 4's Hidden Phase starts with Approved
    Public Spending 15 and Corruption Fund 13 (one Auto Jail and one Tokhang affordable)
    and Ana President (elected in Year 3, serving Years 3-4).

    Year 1: all three Corrupt steal (3), Ana is elected, L2 succeeds with Cris on the
    committee (+4 spending, +3 kickback). Year 2: steal (3), L1 succeeds with Cris (+5, +4).
    Year 3: Ana is re-elected, L3 succeeds without Corrupt (+6). Hugo sits on no committee
    and nobody is jailed, except by ``year1_jail`` (Year 1's jail votes)."""
    events = night(game, **STEAL)
    events += elect(game, "Ana")
    events += project(game, "L2", ["Ana", "Ben", "Cris", "Eli", "Fe"])
    events += discuss(game)
    events += jail_vote(game, year1_jail or {})
    events += night(game, **STEAL)
    events += project(game, "L1", ["Ana", "Ben", "Cris", "Eli", "Fe", "Gil", "Ivy"])
    events += discuss(game)
    events += jail_vote(game, {})
    events += night(game)
    events += elect(game, "Ana")
    events += project(game, "L3", ["Ana", "Ben", "Eli", "Fe", "Gil", "Ivy", "Jun"])
    events += discuss(game)
    events += jail_vote(game, {})
    assert (game.year, game.step) == (4, Step.HIDDEN)
    assert (game.public_spending, game.corruption_fund) == (15, 13)
    return events


# Reading state through a call keeps type checkers from carrying a narrowed attribute
# (``game.step``, ``game.outcome``, ``game.president``) across actions that change it.
def step_of(game: Game) -> Step | None:
    return game.step


def outcome_of(game: Game) -> tuple[str, str] | None:
    """(winner, reason), or None while the game runs."""
    return None if game.outcome is None else (game.outcome.winner, game.outcome.reason)


def president_of(game: Game) -> str | None:
    return None if game.president is None else game.players[game.president]
