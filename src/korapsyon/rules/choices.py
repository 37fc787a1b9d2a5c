"""What each seat may do now, as field domains (:class:`Choice`), and what a timer does
for it (R-72): each step's ``choices`` and ``default`` (named in the step table,
:data:`korapsyon.rules.steps.STEPS`), and the discussion's claims.

The choices list every legal action and nothing else (tests/test_properties.py checks
it against :func:`korapsyon.rules.engine.check`); a default is always legal.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from itertools import combinations, product
from typing import Any

import msgspec

from .actions import (
    ACTION_TYPES,
    Action,
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
    WitnessVote,
)
from .checks import barred_protectee, claim_refusal, illegal, witness_refusal
from .roles import (
    BAD_TEAM,
    CORRUPT_POLITICIAN,
    GOOD_POLITICIAN,
    GOOD_TEAM,
    LAWYER,
    OMBUDSPERSON,
    ROLES,
)
from .state import DISCUSSION, HOST_SEAT, GameState

_NOBODY: tuple[str | None, ...] = (None,)
_YES_NO = (False, True)


class Choice(msgspec.Struct, frozen=True):
    """One kind of action a player may take now and the values each field may take.

    ``options`` maps a field to its allowed values (None = nobody / abstain). For
    ``pick_committee``, ``pick`` members are chosen, all different, from
    ``options["members"]``.
    """

    action: str
    options: dict[str, tuple[Any, ...]] = {}
    pick: int = 0

    def count(self) -> int:
        """How many distinct actions this choice allows."""
        if self.pick:
            return math.comb(len(self.options["members"]), self.pick)
        return math.prod(len(values) for values in self.options.values())

    def build(self, player: str, **fields: Any) -> Action:
        """The action of this choice for ``player`` with these field values (unchecked)."""
        cls: Any = ACTION_TYPES[self.action]
        action: Action = cls(player=player, **fields)
        return action

    def actions(self, player: str) -> Iterator[Action]:
        """Every distinct action of this choice, for ``player``."""
        if self.pick:
            for members in combinations(self.options["members"], self.pick):
                yield self.build(player, members=members)
            return
        names = list(self.options)
        for values in product(*(self.options[name] for name in names)):
            yield self.build(player, **dict(zip(names, values, strict=True)))


# --- choices, step by step -------------------------------------------------------
def hidden_choices(state: GameState, seat: int) -> list[Choice]:
    """R-21 .. R-24: each role's night action; the others tap ready (R-70)."""
    role = state.roles[seat]
    names = state.players
    active = state.active_seats()
    if role is LAWYER:
        barred = barred_protectee(state)
        pool = tuple(names[s] for s in active if s != barred)
        return [Choice("protect", {"target": _NOBODY + pool})]
    if role is OMBUDSPERSON:
        pool = tuple(names[s] for s in active if s != seat)
        return [Choice("investigate", {"target": _NOBODY + pool})]
    if role is CORRUPT_POLITICIAN:
        barred_president = None if state.ruleset.tokhang_on_president else state.president
        pool = tuple(names[s] for s in active if s != barred_president)
        fields = {"nakaw": _YES_NO, "suhol": _YES_NO, "tokhang": _NOBODY + pool}
        return [Choice("corrupt", fields)]
    if role is GOOD_POLITICIAN:
        pool = tuple(names[s] for s in active if s != state.president)
        return [Choice("auto_jail", {"target": _NOBODY + pool})]
    return [Choice("ready")]


def stand_choices(state: GameState, seat: int) -> list[Choice]:
    return [Choice("stand", {"stand": _YES_NO})]


def elect_choices(state: GameState, seat: int) -> list[Choice]:
    return [Choice("elect", {"candidate": _NOBODY + state.names(state.candidates)})]


def pick_project_choices(state: GameState, seat: int) -> list[Choice]:
    assert state.offered is not None
    return [Choice("pick_project", {"card": state.offered})]


def pick_committee_choices(state: GameState, seat: int) -> list[Choice]:
    pool = state.names(state.active_seats())
    return [Choice("pick_committee", {"members": pool}, pick=state.committee_size)]


def committee_vote_choices(state: GameState, seat: int) -> list[Choice]:
    return [Choice("committee_vote", {"support": _YES_NO})]


def discussion_choices(state: GameState, seat: int) -> list[Choice]:
    """The host ends the discussion; the Ombudsperson may invoke Witness (R-35)."""
    if seat == HOST_SEAT:
        return [Choice("end_discussion")]
    return [Choice("witness")] if witness_refusal(state, seat) is None else []


def yes_no_choices(state: GameState, seat: int) -> list[Choice]:
    """The Witness vote and the forced jail vote: yes, no or abstain."""
    assert state.step is not None
    return [Choice(state.step.value, {"jail": (None, False, True)})]


def jail_vote_choices(state: GameState, seat: int) -> list[Choice]:
    return [Choice("jail_vote", {"target": _NOBODY + state.names(state.candidates)})]


def claim_choices(state: GameState, seat: int) -> list[Choice]:
    """The claims a seat may make now: talk in the discussion, apart from the decisions."""
    if state.step is not DISCUSSION or claim_refusal(state, seat):
        return []
    return _claim_menu(state, seat)


def claims_shown(state: GameState, seat: int) -> list[Choice]:
    """The claims a seat's screen offers now: those it may make, and to the COA silenced by
    Suhol the same, refused when made (R-35): an active player's screen in the discussion
    looks alike whatever the role, so that a missing row of buttons does not point at the
    COA (R-06; the mute is told in the held card)."""
    if state.step is not DISCUSSION:
        return []
    refusal = claim_refusal(state, seat)
    if refusal is not None and refusal[0] != "muted":
        return []
    return _claim_menu(state, seat)


def _claim_menu(state: GameState, seat: int) -> list[Choice]:
    others = tuple(name for s, name in enumerate(state.players) if s != seat)
    return [
        Choice("claim", {"claim": ("role",), "role": ROLES}),
        Choice("claim", {"claim": ("audit",), "kickback": (False, True)}),
        Choice(
            "claim",
            {"claim": ("investigation",), "target": others, "aligned": (GOOD_TEAM, BAD_TEAM)},
        ),
        Choice("claim", {"claim": ("suspect",), "target": others}),
        Choice("claim", {"claim": ("trust",), "target": others}),
    ]


# --- defaults, step by step ------------------------------------------------
def hidden_default(state: GameState, seat: int, player: str) -> Action:
    """Nobody protected, investigated or jailed; no Corrupt plan; ready."""
    role = state.roles[seat]
    if role is LAWYER:
        return Protect(player=player, target=None, auto=True)
    if role is OMBUDSPERSON:
        return Investigate(player=player, target=None, auto=True)
    if role is CORRUPT_POLITICIAN:
        return Corrupt(player=player, nakaw=False, suhol=False, tokhang=None, auto=True)
    if role is GOOD_POLITICIAN:
        return AutoJail(player=player, target=None, auto=True)
    return Ready(player=player, auto=True)


def stand_default(state: GameState, seat: int, player: str) -> Action:
    return Stand(player=player, stand=False, auto=True)


def elect_default(state: GameState, seat: int, player: str) -> Action:
    return Elect(player=player, candidate=None, auto=True)


def _lots(state: GameState) -> random.Random:
    """The President's defaults are drawn from an RNG seeded by the game's seed, the Year
    and the step, so that the game's own RNG (and so any later draw of lots) does not
    depend on whether a timer ran out."""
    step = state.step
    assert step is not None
    return random.Random(f"{state.seed}/{state.year}/{step.value}")


def pick_project_default(state: GameState, seat: int, player: str) -> Action:
    assert state.offered is not None
    return PickProject(player=player, card=_lots(state).choice(state.offered), auto=True)


def pick_committee_default(state: GameState, seat: int, player: str) -> Action:
    pool = state.names(state.active_seats())
    members = tuple(_lots(state).sample(pool, state.committee_size))
    return PickCommittee(player=player, members=members, auto=True)


def committee_vote_default(state: GameState, seat: int, player: str) -> Action:
    return CommitteeVote(player=player, support=False, auto=True)


def discussion_default(state: GameState, seat: int, player: str) -> Action:
    if seat != HOST_SEAT:
        raise illegal("not_your_turn", "R-72", f"{player} has nothing to decide now")
    return EndDiscussion(player=player, auto=True)


def witness_vote_default(state: GameState, seat: int, player: str) -> Action:
    return WitnessVote(player=player, jail=None, auto=True)


def forced_jail_vote_default(state: GameState, seat: int, player: str) -> Action:
    return ForcedJailVote(player=player, jail=None, auto=True)


def jail_vote_default(state: GameState, seat: int, player: str) -> Action:
    return JailVote(player=player, target=None, auto=True)
