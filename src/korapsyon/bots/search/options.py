"""The few options a search compares at one decision: the believer's own choice first,
then the alternatives the seat's beliefs rank best for its team (:class:`Reading`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from ...rules.actions import (
    Action,
    AutoJail,
    Corrupt,
    Elect,
    Investigate,
    JailVote,
    PickCommittee,
    Protect,
)
from ...rules.choices import Choice
from ...rules.steps import Step
from ..agent import Prompt

ENUMERATED = (
    Step.STAND,
    Step.PICK_PROJECT,
    Step.COMMITTEE_VOTE,
    Step.WITNESS_VOTE,
    Step.FORCED_JAIL_VOTE,
)


@dataclass(frozen=True)
class Reading:
    """How a seat reads the other players, to rank the alternatives.

    ``foe``: how likely each player is on the other team, from the seat's view (for a Good
    seat P(Corrupt); for a Corrupt seat 1 - P(Corrupt), so its teammates are 0 and everyone
    else 1). ``table``: how much the whole table suspects each (public facts only), the
    tie-break among players ``foe`` cannot tell apart - for a Corrupt seat, which Good
    player a jail vote could actually reach. ``good_politician``: P(Good Politician) per
    player, asked only by a Corrupt seat (its Tokhang, its jail vote's purge)."""

    corrupt: bool
    foe: Mapping[str, float]
    table: Mapping[str, float]
    good_politician: Callable[[], Mapping[str, float]]


def candidate_actions(
    prompt: Prompt, proposal: Action, reading: Reading, limit: int
) -> list[Action]:
    """Up to ``limit`` distinct legal actions, ``proposal`` first."""
    out: list[Action] = [proposal]

    def add(action: Action) -> None:
        if len(out) < limit and action not in out:
            out.append(action)

    choice = prompt.choices[0]
    step = prompt.step
    if step in ENUMERATED:
        for action in choice.actions(prompt.player):
            add(action)
    elif step in (Step.ELECT, Step.ELECT_RUNOFF):
        for name in _ranked(choice, "candidate", reading, lowest=True):
            add(Elect(player=prompt.player, candidate=name))
    elif step in (Step.JAIL_VOTE, Step.JAIL_RUNOFF):
        targets = _ranked(choice, "target", reading, lowest=False)
        goods = [n for n in targets if reading.foe[n] > 0]
        if reading.corrupt and goods:  # the surest Good Politician: a step to the purge
            odds = reading.good_politician()
            likeliest = max(goods, key=lambda n: (odds[n], n))
            add(JailVote(player=prompt.player, target=likeliest))
        for name in targets:
            add(JailVote(player=prompt.player, target=name))
    elif step is Step.PICK_COMMITTEE and isinstance(proposal, PickCommittee):
        for members in _committees(choice, proposal.members, reading):
            add(PickCommittee(player=prompt.player, members=members))
    elif step is Step.HIDDEN:
        for action in _night(choice, proposal, reading.foe, reading.good_politician):
            add(action)
    return out


def _ranked(choice: Choice, field: str, reading: Reading, *, lowest: bool) -> list[str]:
    """The choice's players, the least likely foes first (``lowest``) or the likeliest;
    among equals, the least / most suspected by the table."""
    foe, table = reading.foe, reading.table
    names = [n for n in choice.options[field] if n is not None]
    sign = 1 if lowest else -1
    return sorted(names, key=lambda n: (sign * foe[n], sign * table.get(n, 0.0), n))


def _committees(
    choice: Choice, proposed: tuple[str, ...], reading: Reading
) -> list[tuple[str, ...]]:
    """The most trusted committee, and the proposal with its least trusted member swapped
    for the most trusted player left out."""
    foe = reading.foe
    pool = _ranked(choice, "members", reading, lowest=True)
    trusted = tuple(sorted(pool[: choice.pick]))
    worst = max(proposed, key=lambda n: (foe[n], n))
    outside = [n for n in pool if n not in proposed]
    swapped = [tuple(sorted((set(proposed) - {worst}) | {outside[0]}))] if outside else []
    return [trusted, *swapped]


def _night(
    choice: Choice,
    proposal: Action,
    foe: Mapping[str, float],
    good_politician: Callable[[], Mapping[str, float]],
) -> list[Action]:
    if isinstance(proposal, (Protect, Investigate, AutoJail)):
        targets = choice.options["target"]
        names: list[str] = [n for n in targets if n is not None]
        if isinstance(proposal, Protect):  # the most surely Good
            order = sorted(names, key=lambda n: (foe[n], n))
        elif isinstance(proposal, Investigate):  # the least known
            order = sorted(names, key=lambda n: (abs(foe[n] - 0.5), n))
        else:  # Auto Jail: nobody, or the most surely Corrupt
            order = sorted(names, key=lambda n: (-foe[n], n))
        ranked: list[str | None] = [None, *order] if isinstance(proposal, AutoJail) else [*order]
        return [_with(proposal, target=n) for n in ranked if n in targets]
    if isinstance(proposal, Corrupt):
        variants = [_with(proposal, nakaw=not proposal.nakaw)]
        tokhang = [n for n in choice.options["tokhang"] if n is not None]
        if proposal.tokhang is not None:
            variants.append(_with(proposal, tokhang=None))
        elif tokhang:
            odds = good_politician()
            variants.append(_with(proposal, tokhang=max(tokhang, key=lambda n: (odds[n], n))))
        if True in choice.options["suhol"]:
            variants.append(_with(proposal, suhol=not proposal.suhol))
        return variants
    return []


def _with(action: Action, **fields: Any) -> Action:
    changed: Action = msgspec.structs.replace(action, **fields)
    return changed
