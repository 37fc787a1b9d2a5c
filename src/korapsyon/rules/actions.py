"""Typed actions: what a player (or the host) submits in a step.

Each action is a small frozen value with a repr you can paste back, ``to_wire()`` giving
the game-record form (GAME_RECORD.md) and :func:`action_from_wire` reading it. Targets
are player names; ``None`` means nobody / abstain. ``auto`` marks a default taken by a
timer (R-72).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal, TypeAlias

import msgspec

from .errors import MalformedError
from .roles import Role, Team

HOST = "@host"
"""The actor name of the host in records (``"player": "@host"``)."""


class _Actor(
    msgspec.Struct,
    frozen=True,
    tag_field="action",
    omit_defaults=True,
    repr_omit_defaults=True,
    gc=False,  # only strings, numbers and tuples: never in a cycle, never worth scanning
):
    player: str


class BaseAction(_Actor, frozen=True, kw_only=True):
    """Fields every action has: who acts, and whether a timer chose it (R-72)."""

    auto: bool = False

    kind: ClassVar[str]

    def to_wire(self) -> dict[str, Any]:
        result: dict[str, Any] = msgspec.to_builtins(self)
        return result

    def __str__(self) -> str:
        fields = [
            f"{name}={_show(getattr(self, name))}"
            for name in self.__struct_fields__
            if name not in ("player", "auto")
        ]
        auto = " (timer)" if self.auto else ""
        return f"{self.player}: {self.kind} {' '.join(fields)}".rstrip() + auto


def _show(value: object) -> str:
    if value is None:
        return "nobody"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value).lower() if isinstance(value, bool) else str(value)


class Protect(BaseAction, frozen=True, tag="protect"):
    """R-21: the Lawyer protects one active player (self allowed) or nobody."""

    kind = "protect"
    target: str | None


class Investigate(BaseAction, frozen=True, tag="investigate"):
    """R-22: the Ombudsperson investigates another active player or nobody."""

    kind = "investigate"
    target: str | None


class Corrupt(BaseAction, frozen=True, tag="corrupt"):
    """R-23: a free Corrupt Politician's three night choices."""

    kind = "corrupt"
    nakaw: bool
    suhol: bool
    tokhang: str | None


class AutoJail(BaseAction, frozen=True, tag="auto_jail"):
    """R-24: a Good Politician names an Auto Jail target or nobody."""

    kind = "auto_jail"
    target: str | None


class Ready(BaseAction, frozen=True, tag="ready"):
    """R-70: the COA's and Citizens' night tap (no effect)."""

    kind = "ready"


class Stand(BaseAction, frozen=True, tag="stand"):
    """R-33: stand for President or not."""

    kind = "stand"
    stand: bool


class Elect(BaseAction, frozen=True, tag="elect"):
    """R-33: a secret vote for a candidate, or abstain."""

    kind = "elect"
    candidate: str | None


class PickProject(BaseAction, frozen=True, tag="pick_project"):
    """R-34: the President picks one of the two offered cards."""

    kind = "pick_project"
    card: str


class PickCommittee(BaseAction, frozen=True, tag="pick_committee"):
    """R-34: the President names the committee."""

    kind = "pick_committee"
    members: tuple[str, ...]


class CommitteeVote(BaseAction, frozen=True, tag="committee_vote"):
    """R-34: a committee member's secret Support (true) or Oppose (false)."""

    kind = "committee_vote"
    support: bool


class EndDiscussion(BaseAction, frozen=True, tag="end_discussion"):
    """R-35: the host closes the discussion."""

    kind = "end_discussion"


class Witness(BaseAction, frozen=True, tag="witness"):
    """R-35: the Ombudsperson testifies against this Year's Bad-aligned finding."""

    kind = "witness"


ClaimKind: TypeAlias = Literal["role", "audit", "investigation", "suspect", "trust"]


class Claim(BaseAction, frozen=True, tag="claim"):
    """A public claim made in the discussion: talk, with no effect on the rules, and
    possibly false (a record-format extension, docs/RECORDS.md).

    ``role``: "I am the <role>" · ``audit``: "I am the COA: the last project had a
    kickback: yes/no" (``kickback``) · ``investigation``: "I am the Ombudsperson: <target>
    is Good/Bad aligned" (``aligned``) · ``suspect`` / ``trust``: "I suspect / trust
    <target>".
    """

    kind = "claim"
    claim: ClaimKind
    target: str | None = None
    role: Role | None = None
    aligned: Team | None = None
    kickback: bool | None = None


class WitnessVote(BaseAction, frozen=True, tag="witness_vote"):
    """R-35: yes (true) / no (false) / abstain (null) on jailing the named player."""

    kind = "witness_vote"
    jail: bool | None


class ForcedJailVote(BaseAction, frozen=True, tag="forced_jail_vote"):
    """R-25 step 6, variant ``forced_vote``: yes / no / abstain on the Auto Jail target."""

    kind = "forced_jail_vote"
    jail: bool | None


class JailVote(BaseAction, frozen=True, tag="jail_vote"):
    """R-36: a secret vote to jail one player, or abstain."""

    kind = "jail_vote"
    target: str | None


Action: TypeAlias = (
    Protect
    | Investigate
    | Corrupt
    | AutoJail
    | Ready
    | Stand
    | Elect
    | PickProject
    | PickCommittee
    | CommitteeVote
    | EndDiscussion
    | Witness
    | Claim
    | WitnessVote
    | ForcedJailVote
    | JailVote
)

ACTION_TYPES: dict[str, type[BaseAction]] = {
    cls.kind: cls
    for cls in (
        Protect,
        Investigate,
        Corrupt,
        AutoJail,
        Ready,
        Stand,
        Elect,
        PickProject,
        PickCommittee,
        CommitteeVote,
        EndDiscussion,
        Witness,
        Claim,
        WitnessVote,
        ForcedJailVote,
        JailVote,
    )
}


_NULLABLE: dict[object, tuple[str, ...]] = {
    "protect": ("target",),
    "investigate": ("target",),
    "auto_jail": ("target",),
    "corrupt": ("tokhang",),
    "elect": ("candidate",),
    "witness_vote": ("jail",),
    "forced_jail_vote": ("jail",),
    "jail_vote": ("target",),
}
"""Fields whose null may also be written by leaving the field out."""


def action_from_wire(data: object) -> Action:
    """Read one action in its record form; raise :class:`MalformedError` on bad input.

    A field that may be null (nobody, abstain) may also be left out."""
    if isinstance(data, dict):
        missing = [f for f in _NULLABLE.get(data.get("action"), ()) if f not in data]
        if missing:
            data = {**data, **dict.fromkeys(missing)}
    try:
        action: Action = msgspec.convert(data, Action)
        return action
    except msgspec.ValidationError as exc:
        raise MalformedError(f"malformed action: {exc}") from None
