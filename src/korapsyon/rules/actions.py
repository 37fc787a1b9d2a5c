"""Typed actions: what a player (or the host) submits in a step.

Each action is a small frozen value with a repr you can paste back, ``to_wire()`` giving
the game-record form (GAME_RECORD.md) and :func:`action_from_wire` reading it. Its shape
is checked when it is built (``Protect(player=1, target=2)`` raises TypeError); what
depends on the game (who may act, which targets) is checked by the game. Targets
are player names; ``None`` means nobody / abstain. ``auto`` marks a default taken by a
timer (R-72).
"""

# Annotations are evaluated here, not postponed (no ``from __future__ import annotations``):
# msgspec reads them to build the record's decoder at import, and evaluating strings one
# by one was 4% of ``korapsyon replay``'s start-up. Likewise in ruleset.py and record.py.

from typing import Any, ClassVar, Literal, TypeAlias

import msgspec

from .errors import MalformedError
from .roles import Role, Team

HOST = "@host"
"""The actor name of the host in records (``"player": "@host"``)."""


class _CheckedWhenBuilt(msgspec.StructMeta):
    """Checks an action's shape when code builds it. Decoding does not come here: it checks
    the same itself, with its own messages (:func:`action_from_wire`), and the replay of a
    record decodes every action, so a second check there would only cost time."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        action = super().__call__(*args, **kwargs)
        action._check_shape()
        return action


class _Actor(
    msgspec.Struct,
    metaclass=_CheckedWhenBuilt,
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
    null_means: ClassVar[Literal["nobody", "abstain"]] = "nobody"
    """What a null field of this action means: no target, or (a vote) abstaining."""

    def _check_shape(self) -> None:
        """Refuse a field of the wrong type (each kind with fields of its own checks them
        too): an action built in code is well-formed from the moment it exists."""
        if not ((self.auto is True or self.auto is False) and isinstance(self.player, str)):
            raise _shape_error(self)

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


def _shape_error(action: BaseAction) -> TypeError:
    """Why an action built in code has the wrong shape (decoding checks the same first, with
    its own messages: :func:`action_from_wire`)."""
    fields = {name: getattr(action, name) for name in action.__struct_fields__}
    try:
        msgspec.convert({"action": action.kind, **fields}, type(action))
    except msgspec.ValidationError as exc:
        return TypeError(f"{type(action).__name__}: {exc}")
    return TypeError(f"{type(action).__name__}: a field is of the wrong type: {fields}")


def _show(value: object) -> str:
    if value is None:
        return "nobody"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value).lower() if isinstance(value, bool) else str(value)


class _Targeted(BaseAction, frozen=True):
    """An action that names one player, or nobody (None)."""

    target: str | None

    def _check_shape(self) -> None:
        if not (
            (self.auto is True or self.auto is False)
            and isinstance(self.player, str)
            and (self.target is None or isinstance(self.target, str))
        ):
            raise _shape_error(self)


class _YesNo(BaseAction, frozen=True):
    """A yes (true) / no (false) / abstain (null) vote on jailing a named player."""

    null_means = "abstain"
    jail: bool | None

    def _check_shape(self) -> None:
        if not (
            (self.auto is True or self.auto is False)
            and isinstance(self.player, str)
            and (self.jail is None or (self.jail is True or self.jail is False))
        ):
            raise _shape_error(self)


class Protect(_Targeted, frozen=True, tag="protect"):
    """R-21: the Lawyer protects one active player (self allowed) or nobody."""

    kind = "protect"


class Investigate(_Targeted, frozen=True, tag="investigate"):
    """R-22: the Ombudsperson investigates another active player or nobody."""

    kind = "investigate"


class Corrupt(BaseAction, frozen=True, tag="corrupt"):
    """R-23: a free Corrupt Politician's three night choices."""

    kind = "corrupt"
    nakaw: bool
    suhol: bool
    tokhang: str | None

    def _check_shape(self) -> None:
        if not (
            (self.auto is True or self.auto is False)
            and isinstance(self.player, str)
            and (self.nakaw is True or self.nakaw is False)
            and (self.suhol is True or self.suhol is False)
            and (self.tokhang is None or isinstance(self.tokhang, str))
        ):
            raise _shape_error(self)


class AutoJail(_Targeted, frozen=True, tag="auto_jail"):
    """R-24: a Good Politician names an Auto Jail target or nobody."""

    kind = "auto_jail"


class Ready(BaseAction, frozen=True, tag="ready"):
    """R-70: the COA's and Citizens' night tap (no effect)."""

    kind = "ready"


class Stand(BaseAction, frozen=True, tag="stand"):
    """R-33: stand for President or not."""

    kind = "stand"
    stand: bool

    def _check_shape(self) -> None:
        if not (
            (self.auto is True or self.auto is False)
            and isinstance(self.player, str)
            and (self.stand is True or self.stand is False)
        ):
            raise _shape_error(self)


class Elect(BaseAction, frozen=True, tag="elect"):
    """R-33: a secret vote for a candidate, or abstain."""

    kind = "elect"
    null_means = "abstain"
    candidate: str | None

    def _check_shape(self) -> None:
        if not (
            (self.auto is True or self.auto is False)
            and isinstance(self.player, str)
            and (self.candidate is None or isinstance(self.candidate, str))
        ):
            raise _shape_error(self)


class PickProject(BaseAction, frozen=True, tag="pick_project"):
    """R-34: the President picks one of the two offered cards."""

    kind = "pick_project"
    card: str

    def _check_shape(self) -> None:
        if not (
            (self.auto is True or self.auto is False)
            and isinstance(self.player, str)
            and isinstance(self.card, str)
        ):
            raise _shape_error(self)


class PickCommittee(BaseAction, frozen=True, tag="pick_committee"):
    """R-34: the President names the committee."""

    kind = "pick_committee"
    members: tuple[str, ...]

    def _check_shape(self) -> None:
        if not (
            (self.auto is True or self.auto is False)
            and isinstance(self.player, str)
            and type(self.members) is tuple
            and all(isinstance(m, str) for m in self.members)
        ):
            raise _shape_error(self)


class CommitteeVote(BaseAction, frozen=True, tag="committee_vote"):
    """R-34: a committee member's secret Support (true) or Oppose (false)."""

    kind = "committee_vote"
    support: bool

    def _check_shape(self) -> None:
        if not (
            (self.auto is True or self.auto is False)
            and isinstance(self.player, str)
            and (self.support is True or self.support is False)
        ):
            raise _shape_error(self)


class EndDiscussion(BaseAction, frozen=True, tag="end_discussion"):
    """R-35: the host closes the discussion."""

    kind = "end_discussion"


class Witness(BaseAction, frozen=True, tag="witness"):
    """R-35: the Ombudsperson testifies against this Year's Bad-aligned finding."""

    kind = "witness"


ClaimKind: TypeAlias = Literal["role", "audit", "investigation", "suspect", "trust"]
_CLAIM_KINDS = frozenset(("role", "audit", "investigation", "suspect", "trust"))


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

    def _check_shape(self) -> None:
        if not (
            (self.auto is True or self.auto is False)
            and isinstance(self.player, str)
            and self.claim in _CLAIM_KINDS
            and (self.target is None or isinstance(self.target, str))
            and (self.role is None or isinstance(self.role, Role))
            and (self.aligned is None or isinstance(self.aligned, Team))
            and (self.kickback is None or (self.kickback is True or self.kickback is False))
        ):
            raise _shape_error(self)


class WitnessVote(_YesNo, frozen=True, tag="witness_vote"):
    """R-35: yes (true) / no (false) / abstain (null) on jailing the named player."""

    kind = "witness_vote"


class ForcedJailVote(_YesNo, frozen=True, tag="forced_jail_vote"):
    """R-25 step 6, variant ``forced_vote``: yes / no / abstain on the Auto Jail target."""

    kind = "forced_jail_vote"


class JailVote(_Targeted, frozen=True, tag="jail_vote"):
    """R-36: a secret vote to jail one player, or abstain."""

    kind = "jail_vote"
    null_means = "abstain"


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
