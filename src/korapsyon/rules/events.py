"""Events: every change the engine makes, each with an audience.

The event log is the one history of a game. Views, the timeline and the moderator's
sheet are all built from it, and :func:`visible_to` is the single test of who may see an
event. Audiences are :data:`EVERYONE`, :data:`CORRUPT` (the Corrupt team),
:data:`MODERATOR` (the moderator only) or one seat (that one player): an
:class:`Audience`.

The module is a little over 400 lines because it is a catalogue: one small class per kind
of event, each a few lines, read by kind rather than top to bottom.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal, TypeAlias

import msgspec

from .actions import Action
from .outcome import Termination, Winner
from .roles import Role, Team


class Audience(int):
    """Who may see an event: :attr:`everyone`, the :attr:`corrupt` team, the
    :attr:`moderator` only, or one player (:meth:`seat`). It is the int the event always
    carried (-1, -2, -3, or the seat number), so it compares, hashes and indexes as one,
    and reads ``Audience.seat(3)`` in a repr."""

    __slots__ = ()

    everyone: ClassVar[Audience]
    corrupt: ClassVar[Audience]
    moderator: ClassVar[Audience]

    @staticmethod
    def seat(seat: int) -> Audience:
        """The player at ``seat`` alone."""
        if seat < 0:
            raise ValueError(f"a seat is a number from 0, not {seat}")
        return Audience(seat)

    def __repr__(self) -> str:
        value = int(self)
        if value >= 0:
            return f"Audience.seat({value})"
        return f"Audience.{_GROUPS[value]}"


_GROUPS = {-1: "everyone", -2: "corrupt", -3: "moderator"}
Audience.everyone = EVERYONE = Audience(-1)
Audience.corrupt = CORRUPT = Audience(-2)
Audience.moderator = MODERATOR = Audience(-3)

Tally: TypeAlias = tuple[tuple[str, int], ...]


class BaseEvent(msgspec.Struct, frozen=True, tag_field="event", gc=False):
    """Fields every event has: the Year it happened in and who may see it.

    Events hold only strings, numbers and tuples, so they can never be part of a reference
    cycle: they are kept out of the garbage collector (``gc=False``), which would
    otherwise walk every event of every game again and again."""

    year: int
    audience: Audience

    def to_wire(self) -> dict[str, Any]:
        data: dict[str, Any] = msgspec.to_builtins(self, enc_hook=int)
        return data


# --- setup -------------------------------------------------------------------------
class GameStarted(BaseEvent, frozen=True, tag="game_started"):
    """The table, its targets and costs (R-05), and its composition: how many seats hold
    each role (R-02, or the custom setup the table agreed to, R-03), every role in
    :class:`Role`'s order. The composition is public; who holds what is not."""

    players: tuple[str, ...]
    public_spending_target: int
    corruption_fund_target: int
    auto_jail_cost: int
    tokhang_cost: int
    kaban_start: int
    composition: tuple[tuple[Role, int], ...]

    def roles(self) -> list[Role]:
        """The composition as a list of roles, one a seat (in no seat's order)."""
        return [role for role, count in self.composition for _ in range(count)]


class RoleDealt(BaseEvent, frozen=True, tag="role_dealt"):
    """R-06: a player's own role card."""

    player: str
    role: Role


class TeamRevealed(BaseEvent, frozen=True, tag="team_revealed"):
    """R-07: the Corrupt (and, with the option, the Good Politicians) see each other."""

    role: Role
    members: tuple[str, ...]


# --- the Year and its steps ------------------------------------------------------
class YearStarted(BaseEvent, frozen=True, tag="year_started"):
    pass


class PresidencyEnded(BaseEvent, frozen=True, tag="presidency_ended"):
    """R-33: the President's term is over; the office is vacant."""

    president: str


class PlayerReturned(BaseEvent, frozen=True, tag="player_returned"):
    """R-20: a suspended player is back, with their public first strike."""

    player: str
    strikes: int


class StepStarted(BaseEvent, frozen=True, tag="step_started"):
    """A step begins. ``actors`` is who must act (omitted for the Hidden Phase, where it
    is every active player); ``options`` the candidates, tied players or offered cards."""

    step: str
    actors: tuple[str, ...] | None
    options: tuple[str, ...] | None


class ActionTaken(BaseEvent, frozen=True, tag="action_taken"):
    """An accepted action. Audience: the actor (the Corrupt team for Corrupt night
    choices, everyone for the host's)."""

    action: Action


# --- Hidden Phase resolution (R-25) ---------------------------------------------
class ProtectionSet(BaseEvent, frozen=True, tag="protection_set"):
    target: str | None


class InvestigationResult(BaseEvent, frozen=True, tag="investigation_result"):
    target: str
    aligned: Team


class Stolen(BaseEvent, frozen=True, tag="stolen"):
    """Nakaw happened: the Fund gains and the true Kaban loses ``amount``."""

    amount: int


class SuholPaid(BaseEvent, frozen=True, tag="suhol_paid"):
    cost: int
    refund: int


class CoaMuted(BaseEvent, frozen=True, tag="coa_muted"):
    """R-35: the COA cannot speak in this Year's Public Phase."""


class TokhangPaid(BaseEvent, frozen=True, tag="tokhang_paid"):
    target: str
    cost: int


class NotPaid(BaseEvent, frozen=True, tag="not_paid"):
    """Suhol or Tokhang was agreed but the Corruption Fund could not pay for it."""

    ability: str
    cost: int


class TokhangBlocked(BaseEvent, frozen=True, tag="tokhang_blocked"):
    """R-25 step 5: the target was protected and survived."""

    player: str


class AutoJailUsed(BaseEvent, frozen=True, tag="auto_jail_used"):
    """R-25 step 6: Approved Public Spending paid ``cost`` for an Auto Jail on ``target``."""

    target: str
    cost: int
    public_spending: int


CancelReason: TypeAlias = Literal[
    "inactive", "target_inactive", "already_targeted", "forced_vote_called",
    "not_enough_spending",
]  # fmt: skip


class AutoJailCancelled(BaseEvent, frozen=True, tag="auto_jail_cancelled"):
    """R-25 step 6: an Auto Jail not carried out (nothing paid), and why: its Good
    Politician or its target is no longer active, the target was already an Auto Jail's
    this Year, the Year's forced vote is already called, or Approved Public Spending is
    below the cost."""

    target: str
    reason: CancelReason


class AuditDelivered(BaseEvent, frozen=True, tag="audit_delivered"):
    """R-34: last Year's audit for the COA; ``project`` None = no project last Year."""

    project: str | None
    kickback: bool | None


# --- Public Phase ------------------------------------------------------------------
class TreasuryReport(BaseEvent, frozen=True, tag="treasury_report"):
    """R-31: last Year's total decrease (None in Year 1) and the new public Kaban."""

    decrease: int | None
    kaban_public: int


class Revenue(BaseEvent, frozen=True, tag="revenue"):
    """R-32: one per active player, to the true and the public Kaban."""

    amount: int
    kaban_public: int


class Candidates(BaseEvent, frozen=True, tag="candidates"):
    candidates: tuple[str, ...]
    nobody_stood: bool


class VoteTally(BaseEvent, frozen=True, tag="vote_tally"):
    """The public count of a finished vote (who voted how stays secret)."""

    step: str
    tally: Tally
    abstained: int


class PresidentElected(BaseEvent, frozen=True, tag="president_elected"):
    president: str
    term_end: int
    by_lots: bool


class ProjectOffered(BaseEvent, frozen=True, tag="project_offered"):
    president: str
    small: str
    large: str


class ProjectChosen(BaseEvent, frozen=True, tag="project_chosen"):
    card: str


class CommitteeNamed(BaseEvent, frozen=True, tag="committee_named"):
    card: str
    members: tuple[str, ...]


class ProjectVoted(BaseEvent, frozen=True, tag="project_voted"):
    card: str
    support: int
    oppose: int
    succeeded: bool
    cost: int
    public_spending: int


class Kickback(BaseEvent, frozen=True, tag="kickback"):
    card: str
    amount: int


class DiscussionOpened(BaseEvent, frozen=True, tag="discussion_opened"):
    pass


class WitnessTestimony(BaseEvent, frozen=True, tag="witness_testimony"):
    """R-35: anonymous testimony that ``player`` is Bad aligned."""

    player: str


class ClaimMade(BaseEvent, frozen=True, tag="claim_made"):
    """A public claim in the discussion (no rules effect; possibly false)."""

    player: str
    claim: str
    target: str | None
    role: Role | None
    aligned: Team | None
    kickback: bool | None


class ForcedVoteCalled(BaseEvent, frozen=True, tag="forced_vote_called"):
    """R-25 step 6 (forced_vote): this Year's jail vote is a yes/no vote on ``player``."""

    player: str


class JailingBlocked(BaseEvent, frozen=True, tag="jailing_blocked"):
    """R-41: "The attempted jailing of [Name] has failed due to legal protection." """

    player: str


class PlayerJailed(BaseEvent, frozen=True, tag="player_jailed"):
    """R-41: a strike. ``returns_year`` is set for a first strike (suspension)."""

    player: str
    strikes: int
    returns_year: int | None
    cause: str


class PlayerEliminated(BaseEvent, frozen=True, tag="player_eliminated"):
    """R-40: permanent; the role card is revealed (``role``)."""

    player: str
    role: Role | None
    cause: str


class NobodyJailed(BaseEvent, frozen=True, tag="nobody_jailed"):
    step: str


class YearEnded(BaseEvent, frozen=True, tag="year_ended"):
    public_spending: int
    kaban_public: int


class GameOver(BaseEvent, frozen=True, tag="game_over"):
    """R-50/R-51: the outcome, and every card turned face up."""

    winner: Winner
    reason: Termination
    rule: str
    roles: tuple[Role, ...]
    corruption_fund: int
    kaban: int


Event: TypeAlias = (
    GameStarted
    | RoleDealt
    | TeamRevealed
    | YearStarted
    | PresidencyEnded
    | PlayerReturned
    | StepStarted
    | ActionTaken
    | ProtectionSet
    | InvestigationResult
    | Stolen
    | SuholPaid
    | CoaMuted
    | TokhangPaid
    | NotPaid
    | TokhangBlocked
    | AutoJailUsed
    | AutoJailCancelled
    | AuditDelivered
    | TreasuryReport
    | Revenue
    | Candidates
    | VoteTally
    | PresidentElected
    | ProjectOffered
    | ProjectChosen
    | CommitteeNamed
    | ProjectVoted
    | Kickback
    | DiscussionOpened
    | WitnessTestimony
    | ClaimMade
    | ForcedVoteCalled
    | JailingBlocked
    | PlayerJailed
    | PlayerEliminated
    | NobodyJailed
    | YearEnded
    | GameOver
)


def visible_to(event: BaseEvent, seat: int | None, corrupt: bool) -> bool:
    """Whether the player at ``seat`` (None: a spectator) may see ``event``.

    ``corrupt`` says whether that player is on the Corrupt team. The moderator sees all.
    """
    audience = event.audience
    return (
        audience == EVERYONE
        or (seat is not None and audience == seat)
        or (corrupt and audience == CORRUPT)
    )


def recipients(event: BaseEvent, players: int, corrupt: Sequence[int]) -> Sequence[int]:
    """The seats that may see ``event`` (the same rule as :func:`visible_to`, seat by seat),
    for a transport that hands each event to its readers."""
    audience = event.audience
    if audience == EVERYONE:
        return range(players)
    if audience == CORRUPT:
        return corrupt
    return (audience,) if audience >= 0 else ()


def audience_to_wire(audience: Audience, players: tuple[str, ...]) -> object:
    if audience == EVERYONE:
        return "everyone"
    if audience == CORRUPT:
        return "corrupt"
    if audience == MODERATOR:
        return "moderator"
    return {"player": players[audience]}
