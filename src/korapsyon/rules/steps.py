"""The steps of a Year, as data: what each step accepts, who must act, what may follow.

Invariants (the engine keeps them; tests/test_steps.py checks the transitions):

1. In every step a known set of actors must each submit one action; a submitted actor may
   resubmit until the step resolves, and the last submission counts. The step resolves the
   moment every actor has submitted.
2. Everything between steps (Start of Year, resolution of the night, announcements, the
   treasury report, revenue, win checks, End of Year) happens automatically inside the
   engine and needs no action.
3. A step only ever moves to one of the successors listed in its :class:`StepSpec`
   (``None`` meaning End of Year / the next Year's Hidden Phase, or the end of the game).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .actions import (
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
from .roles import Role


class Step(StrEnum):
    HIDDEN = "hidden"
    STAND = "stand"
    ELECT = "elect"
    ELECT_RUNOFF = "elect_runoff"
    PICK_PROJECT = "pick_project"
    PICK_COMMITTEE = "pick_committee"
    COMMITTEE_VOTE = "committee_vote"
    DISCUSSION = "discussion"
    WITNESS_VOTE = "witness_vote"
    FORCED_JAIL_VOTE = "forced_jail_vote"
    JAIL_VOTE = "jail_vote"
    JAIL_RUNOFF = "jail_runoff"


class Actors(StrEnum):
    """Who must act in a step."""

    ACTIVE = "every active player"
    PRESIDENT = "the President"
    COMMITTEE = "each committee member"
    HOST = "the host"


@dataclass(frozen=True)
class StepSpec:
    step: Step
    rule: str
    actors: Actors
    accepts: tuple[type[BaseAction], ...]
    successors: tuple[Step | None, ...]
    title: str


NIGHT_ACTIONS: dict[Role, type[BaseAction]] = {
    Role.LAWYER: Protect,
    Role.OMBUDSPERSON: Investigate,
    Role.CORRUPT_POLITICIAN: Corrupt,
    Role.GOOD_POLITICIAN: AutoJail,
    Role.COA: Ready,  # R-70 decoy
    Role.CITIZEN: Ready,  # R-70 decoy
}

# After an election the President picks a project; with no active player at all there is
# no candidate, no President that Year and no project, so the discussion follows.
_AFTER_ELECTION = (Step.PICK_PROJECT, Step.DISCUSSION)
_JAIL = (Step.FORCED_JAIL_VOTE, Step.JAIL_VOTE)

STEPS: dict[Step, StepSpec] = {
    spec.step: spec
    for spec in (
        StepSpec(
            Step.HIDDEN,
            "R-25",
            Actors.ACTIVE,
            (Protect, Investigate, Corrupt, AutoJail, Ready),
            (Step.STAND, Step.PICK_PROJECT, None),
            "Hidden Phase",
        ),
        StepSpec(Step.STAND, "R-33", Actors.ACTIVE, (Stand,), (Step.ELECT,), "Who stands?"),
        StepSpec(
            Step.ELECT,
            "R-33",
            Actors.ACTIVE,
            (Elect,),
            (Step.ELECT_RUNOFF, *_AFTER_ELECTION),
            "Election",
        ),
        StepSpec(
            Step.ELECT_RUNOFF,
            "R-33",
            Actors.ACTIVE,
            (Elect,),
            (Step.PICK_PROJECT,),
            "Election runoff",
        ),
        StepSpec(
            Step.PICK_PROJECT,
            "R-34",
            Actors.PRESIDENT,
            (PickProject,),
            (Step.PICK_COMMITTEE,),
            "Project choice",
        ),
        StepSpec(
            Step.PICK_COMMITTEE,
            "R-34",
            Actors.PRESIDENT,
            (PickCommittee,),
            (Step.COMMITTEE_VOTE,),
            "Committee",
        ),
        StepSpec(
            Step.COMMITTEE_VOTE,
            "R-34",
            Actors.COMMITTEE,
            (CommitteeVote,),
            (Step.DISCUSSION,),
            "Committee vote",
        ),
        StepSpec(
            Step.DISCUSSION,
            "R-35",
            Actors.HOST,
            (EndDiscussion, Witness, Claim),
            (Step.WITNESS_VOTE, *_JAIL),
            "Discussion",
        ),
        StepSpec(
            Step.WITNESS_VOTE, "R-35", Actors.ACTIVE, (WitnessVote,), (*_JAIL, None), "Witness vote"
        ),
        StepSpec(
            Step.FORCED_JAIL_VOTE,
            "R-25",
            Actors.ACTIVE,
            (ForcedJailVote,),
            (None,),
            "Forced jail vote",
        ),
        StepSpec(
            Step.JAIL_VOTE,
            "R-36",
            Actors.ACTIVE,
            (JailVote,),
            (Step.JAIL_RUNOFF, None),
            "Jail vote",
        ),
        StepSpec(Step.JAIL_RUNOFF, "R-36", Actors.ACTIVE, (JailVote,), (None,), "Jail runoff"),
    )
}
"""The step table. ``successors`` lists every step that may follow (None: the Year ends
or the game is over); the engine never takes a transition that is not listed here."""


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
