"""The few options a search compares at one decision: the heuristic's own choice first,
then the alternatives the seat's beliefs rank best for its team.

``foe`` maps each player to how likely they are on the other team, from the seat's view
(for a Good seat P(Corrupt), for a Corrupt seat 1 - P(Corrupt): its teammates are 0).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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


def candidate_actions(
    prompt: Prompt,
    proposal: Action,
    foe: Mapping[str, float],
    limit: int,
    good_politician: Callable[[], Mapping[str, float]],
) -> list[Action]:
    """Up to ``limit`` distinct legal actions, ``proposal`` first.
    ``good_politician`` gives P(Good Politician) per player (asked only by a Corrupt
    seat's night, for its Tokhang)."""
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
        for name in _ranked(choice, "candidate", foe, lowest=True):
            add(Elect(player=prompt.player, candidate=name))
    elif step in (Step.JAIL_VOTE, Step.JAIL_RUNOFF):
        for name in _ranked(choice, "target", foe, lowest=False):
            add(JailVote(player=prompt.player, target=name))
    elif step is Step.PICK_COMMITTEE and isinstance(proposal, PickCommittee):
        for members in _committees(choice, proposal.members, foe):
            add(PickCommittee(player=prompt.player, members=members))
    elif step is Step.HIDDEN:
        for action in _night(choice, proposal, foe, good_politician):
            add(action)
    return out


def _ranked(choice: Choice, field: str, foe: Mapping[str, float], *, lowest: bool) -> list[str]:
    names = [n for n in choice.options[field] if n is not None]
    return sorted(names, key=lambda n: (foe[n] if lowest else -foe[n], n))


def _committees(
    choice: Choice, proposed: tuple[str, ...], foe: Mapping[str, float]
) -> list[tuple[str, ...]]:
    """The most trusted committee, and the proposal with its least trusted member swapped
    for the most trusted player left out."""
    pool = _ranked(choice, "members", foe, lowest=True)
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
