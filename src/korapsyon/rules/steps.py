"""The steps of a Year, as data: one :class:`StepSpec` per step says everything about it -
the rule, who must act, which actions it accepts and the check of each, what each actor may
choose, what a timer does (R-72) and after how long, how the step resolves and which steps
may follow.

Invariants (the engine keeps them; tests/test_steps.py checks them):

1. In every step a known set of actors must each submit one action; a submitted actor may
   resubmit until the step resolves, and the last submission counts. The step resolves the
   moment every actor has submitted.
2. Everything between steps (Start of Year, resolution of the night, announcements, the
   treasury report, revenue, win checks, End of Year) happens automatically inside the
   engine and needs no action.
3. A step only ever moves to one of the successors listed in its :class:`StepSpec`
   (``None`` meaning End of Year / the next Year's Hidden Phase, or the end of the game):
   the engine refuses any other (:class:`~korapsyon.rules.engine.TransitionError`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Any

import msgspec

from . import checks, choices, night, votes
from .actions import (
    Action,
    AutoJail,
    BaseAction,
    Claim,
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
from .checks import NIGHT_ACTIONS
from .choices import Choice
from .state import GameState, Next, Step

__all__ = ["DEFAULT_DURATIONS", "NIGHT_ACTIONS", "STEPS", "Actors", "Step", "StepSpec", "diagram"]


class Actors(StrEnum):
    """Who must act in a step."""

    ACTIVE = "every active player"
    PRESIDENT = "the President"
    COMMITTEE = "each committee member"
    HOST = "the host"


Check = Callable[[GameState, int, Any], None]
"""Refuse an action (of the kind it is registered for) from a seat, or return."""
Choices = Callable[[GameState, int], list[Choice]]
Default = Callable[[GameState, int, str], Action]
Resolve = Callable[[GameState], Next | None]


class StepSpec(msgspec.Struct, frozen=True):
    """One step: its rule, actors and title; ``checks`` maps each action kind it accepts to
        that kind's check; ``choices`` and ``default`` answer for one seat that must act;
        ``resolve`` runs once every actor has submitted (the discussion: when the host ends it)
        and returns the next step or None (the Year ends, or the game did); ``successors``
        lists every step ``resolve`` may return; ``duration`` is the seconds a timer gives the
        step by default (R-72). ``open_floor``: players who are not actors may act too (the
        discussion's Witness and claims). ``on_candidates``: the ballot names the candidates
    (the views show them as its options)."""

    step: Step
    rule: str
    actors: Actors
    title: str
    checks: Mapping[type[BaseAction], Check]
    choices: Choices
    default: Default
    resolve: Resolve
    successors: tuple[Step | None, ...]
    duration: float
    open_floor: bool = False
    on_candidates: bool = False

    @property
    def accepts(self) -> tuple[type[BaseAction], ...]:
        return tuple(self.checks)


_NIGHT_CHECKS: dict[type[BaseAction], Check] = {
    Protect: checks.check_protect,
    Investigate: checks.check_investigate,
    Corrupt: checks.check_corrupt,
    AutoJail: checks.check_auto_jail,
    Ready: checks.check_ready,
}

# After an election the President picks a project; with no active player at all there is
# no candidate, no President that Year and no project, so the discussion follows.
_AFTER_ELECTION = (Step.PICK_PROJECT, Step.DISCUSSION)
_JAIL = (Step.FORCED_JAIL_VOTE, Step.JAIL_VOTE)

# Each runoff repeats its vote among the tied: the same spec, but its step and successors.
_ELECT = StepSpec(
    Step.ELECT,
    "R-33",
    Actors.ACTIVE,
    "Election",
    checks={Elect: checks.check_elect},
    choices=choices.elect_choices,
    default=choices.elect_default,
    resolve=votes.resolve_elect,
    successors=(Step.ELECT_RUNOFF, *_AFTER_ELECTION),
    duration=45,
    on_candidates=True,
)
_JAIL_VOTE = StepSpec(
    Step.JAIL_VOTE,
    "R-36",
    Actors.ACTIVE,
    "Jail vote",
    checks={JailVote: checks.check_jail_vote},
    choices=choices.jail_vote_choices,
    default=choices.jail_vote_default,
    resolve=votes.resolve_jail_vote,
    successors=(Step.JAIL_RUNOFF, None),
    duration=45,
    on_candidates=True,
)

_SPECS = (
    StepSpec(
        Step.HIDDEN, "R-25", Actors.ACTIVE, "Hidden Phase",
        checks=_NIGHT_CHECKS,
        choices=choices.hidden_choices,
        default=choices.hidden_default,
        resolve=night.resolve_hidden,
        successors=(Step.STAND, Step.PICK_PROJECT, None),
        duration=60,
    ),
    StepSpec(
        Step.STAND, "R-33", Actors.ACTIVE, "Who stands?",
        checks={Stand: checks.check_actor},
        choices=choices.stand_choices,
        default=choices.stand_default,
        resolve=votes.resolve_stand,
        successors=(Step.ELECT,),
        duration=30,
    ),
    _ELECT,
    msgspec.structs.replace(  # the same vote among the tied; lots settle a second tie
        _ELECT, step=Step.ELECT_RUNOFF, title="Election runoff", successors=(Step.PICK_PROJECT,)
    ),
    StepSpec(
        Step.PICK_PROJECT, "R-34", Actors.PRESIDENT, "Project choice",
        checks={PickProject: checks.check_pick_project},
        choices=choices.pick_project_choices,
        default=choices.pick_project_default,
        resolve=votes.resolve_pick_project,
        successors=(Step.PICK_COMMITTEE,),
        duration=45,
    ),
    StepSpec(
        Step.PICK_COMMITTEE, "R-34", Actors.PRESIDENT, "Committee",
        checks={PickCommittee: checks.check_pick_committee},
        choices=choices.pick_committee_choices,
        default=choices.pick_committee_default,
        resolve=votes.resolve_pick_committee,
        successors=(Step.COMMITTEE_VOTE,),
        duration=60,
    ),
    StepSpec(
        Step.COMMITTEE_VOTE, "R-34", Actors.COMMITTEE, "Committee vote",
        checks={CommitteeVote: checks.check_actor},
        choices=choices.committee_vote_choices,
        default=choices.committee_vote_default,
        resolve=votes.resolve_committee_vote,
        successors=(Step.DISCUSSION,),
        duration=30,
    ),
    StepSpec(
        Step.DISCUSSION, "R-35", Actors.HOST, "Discussion",
        checks={
            EndDiscussion: checks.check_end_discussion,
            Witness: checks.check_witness,
            Claim: checks.check_claim,
        },
        choices=choices.discussion_choices,
        default=choices.discussion_default,
        resolve=votes.resolve_discussion,
        successors=(Step.WITNESS_VOTE, *_JAIL),
        duration=180,
        open_floor=True,
    ),
    StepSpec(
        Step.WITNESS_VOTE, "R-35", Actors.ACTIVE, "Witness vote",
        checks={WitnessVote: checks.check_actor},
        choices=choices.yes_no_choices,
        default=choices.witness_vote_default,
        resolve=votes.resolve_witness_vote,
        successors=(*_JAIL, None),
        duration=30,
    ),
    StepSpec(
        Step.FORCED_JAIL_VOTE, "R-25", Actors.ACTIVE, "Forced jail vote",
        checks={ForcedJailVote: checks.check_actor},
        choices=choices.yes_no_choices,
        default=choices.forced_jail_vote_default,
        resolve=votes.resolve_forced_jail_vote,
        successors=(None,),
        duration=30,
    ),
    _JAIL_VOTE,
    msgspec.structs.replace(  # the same vote among the tied; a second tie jails nobody
        _JAIL_VOTE, step=Step.JAIL_RUNOFF, title="Jail runoff", successors=(None,)
    ),
)  # fmt: skip

STEPS: dict[Step, StepSpec] = {spec.step: spec for spec in _SPECS}
"""The step table. ``successors`` lists every step that may follow (None: the Year ends
or the game is over); the engine never takes a transition that is not listed here."""

DEFAULT_DURATIONS: Mapping[Step, float] = MappingProxyType(
    {step: spec.duration for step, spec in STEPS.items()}
)
"""Seconds a step may last before its timer takes the R-72 defaults (a room may change
them)."""


def diagram() -> str:
    """The step table as a Mermaid flowchart (docs/ARCHITECTURE.md shows it)."""
    lines = ["flowchart TD"]
    lines.append("    start([Start of Year]) --> hidden")
    for spec in STEPS.values():
        for successor in spec.successors:
            target = "end_of_year([End of Year / game over])" if successor is None else successor
            lines.append(f"    {spec.step.value} --> {target}")
    lines.append("    end_of_year --> start")
    return "\n".join(lines)
