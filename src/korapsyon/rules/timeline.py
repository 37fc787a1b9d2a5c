"""The timeline: which events are news, what each says (:func:`params`, for a client that
words it in its own language), and the plain-English line of each (:func:`describe`, for
the terminal, language-model agents and the tests).

:func:`describe` returns ``None`` for events that are bookkeeping rather than news (an
accepted vote, the start of most steps). Private events are phrased to their one reader
("You are the Lawyer.").
"""

from __future__ import annotations

from typing import Any

import msgspec

from .cards import CARDS
from .events import (
    ActionTaken,
    AuditDelivered,
    AutoJailCancelled,
    AutoJailUsed,
    BaseEvent,
    Candidates,
    ClaimMade,
    CoaMuted,
    CommitteeNamed,
    DiscussionOpened,
    ForcedVoteCalled,
    GameOver,
    GameStarted,
    InvestigationResult,
    JailingBlocked,
    Kickback,
    NobodyJailed,
    NotPaid,
    PlayerEliminated,
    PlayerJailed,
    PlayerReturned,
    PresidencyEnded,
    PresidentElected,
    ProjectChosen,
    ProjectOffered,
    ProjectVoted,
    ProtectionSet,
    Revenue,
    RoleDealt,
    StepStarted,
    Stolen,
    SuholPaid,
    TeamRevealed,
    TokhangBlocked,
    TokhangPaid,
    TreasuryReport,
    VoteTally,
    WitnessTestimony,
    YearEnded,
    YearStarted,
)
from .roles import Role

_REASONS = {
    "corrupt_purge": "every Corrupt Politician has been eliminated",
    "public_spending": "Approved Public Spending reached its target",
    "good_purge": "every Good Politician has been eliminated",
    "corruption_fund": "the Corruption Fund reached its target",
    "safety_stop": "the game reached its last Year",
}
_WINNERS = {"good": "Good wins", "bad": "Bad wins", "draw": "The game is a draw"}
_CAUSES = {
    "tokhang": "by Tokhang",
    "jail_vote": "by the jail vote",
    "witness_vote": "by the Witness vote",
    "auto_jail": "by Auto Jail",
}
_CANCELLED = {
    "inactive": "you are no longer active",
    "target_inactive": "{target} is no longer active",
    "already_targeted": "{target} was already the target of an Auto Jail this Year",
    "forced_vote_called": "this Year's forced jail vote is already called",
    "not_enough_spending": "Approved Public Spending is below the cost",
}
_VOTES = {
    "elect": "Election",
    "elect_runoff": "Election runoff",
    "witness_vote": "Witness vote",
    "forced_jail_vote": "Forced jail vote",
    "jail_vote": "Jail vote",
    "jail_runoff": "Jail runoff",
}


def card_text(card_id: str) -> str:
    card = CARDS[card_id]
    return (
        f"{card.id} {card.name} (cost {card.cost}, kickback {card.kickback}, "
        f"committee {card.committee})"
    )


def outcome_text(winner: str, reason: str) -> str:
    return f"{_WINNERS[winner]}: {_REASONS[reason]}."


_NOT_PARAMS = frozenset({"year", "audience", "event"})


def params(event: BaseEvent) -> dict[str, Any]:
    """What a timeline entry says, as plain data: the event's own fields (names, numbers,
    card ids, role and team values) but its Year and audience; of an action taken, only
    its kind; of the game's end, who won and why (the roles are in the view). A client
    words it from its ``kind`` in the reader's language. A card offered or chosen comes
    with its cost (public, R-34), so that a line can name what it costs."""
    if isinstance(event, ActionTaken):
        return {"action": event.action.kind}
    if isinstance(event, GameOver):  # (the trackers' last values are the end's reveal's)
        return {"winner": event.winner, "reason": event.reason, "rule": event.rule}
    fields = msgspec.to_builtins(event)
    out = {key: _listed(value) for key, value in fields.items() if key not in _NOT_PARAMS}
    if isinstance(event, ProjectOffered):
        out.update(small_cost=CARDS[event.small].cost, large_cost=CARDS[event.large].cost)
    elif isinstance(event, ProjectChosen):
        out["cost"] = CARDS[event.card].cost
    return out


def _listed(value: Any) -> Any:
    """``value`` with its tuples as lists (what JSON makes of them)."""
    if isinstance(value, tuple | list):
        return [_listed(item) for item in value]
    return value


def is_news(event: BaseEvent) -> bool:
    """Whether ``event`` makes a timeline entry (:func:`describe` has a line for it)."""
    if isinstance(event, StepStarted):
        runoff = event.step in ("elect_runoff", "jail_runoff") and bool(event.options)
        return event.step == "hidden" or runoff
    if isinstance(event, ActionTaken):
        return event.action.kind == "end_discussion"
    return type(event) in _NEWS


def describe(event: BaseEvent) -> str | None:
    """The timeline line for ``event``, or None if it is not worth a line."""
    match event:
        case GameStarted():
            return (
                f"A game of Korapsyon begins with {len(event.players)} players. Targets: "
                f"Approved Public Spending {event.public_spending_target}, Corruption Fund "
                f"{event.corruption_fund_target}. The Kaban ng Bayan holds {event.kaban_start}."
            )
        case RoleDealt():
            return f"You are {_article(event.role)} {event.role.title}. {event.role.goal}"
        case TeamRevealed():
            plural = (
                "Corrupt Politicians"
                if event.role is Role.CORRUPT_POLITICIAN
                else ("Good Politicians")
            )
            return f"The {plural} are {_join(event.members)}."
        case YearStarted():
            return f"Year {event.year} begins."
        case PresidencyEnded():
            return f"President {event.president}'s term is over: the office is vacant."
        case PlayerReturned():
            return f"{event.player} returns from suspension, on strike {event.strikes}."
        case StepStarted():
            if event.step == "hidden":
                return "Hidden Phase: everyone makes one secret choice."
            if event.step in ("elect_runoff", "jail_runoff") and event.options:
                return f"Tie: a runoff between {_join(event.options)}."
            return None
        case ActionTaken():
            if event.action.kind == "end_discussion":
                return "The discussion is closed."
            return None
        case ProtectionSet():
            return f"The Lawyer protects {event.target or 'nobody'}."
        case InvestigationResult():
            return f"Your investigation: {event.target} is {event.aligned.title()} aligned."
        case Stolen():
            return f"Nakaw: the Corrupt took {event.amount} from the Kaban ng Bayan."
        case SuholPaid():
            return (
                f"Suhol paid ({event.cost} from the Corruption Fund); {event.refund} went back "
                "to the Kaban ng Bayan and the COA is silenced this Year."
            )
        case CoaMuted():
            return "You have been silenced by Suhol: you cannot speak in this Year's discussion."
        case TokhangPaid():
            return f"Tokhang on {event.target} paid ({event.cost} from the Corruption Fund)."
        case NotPaid():
            name = "Suhol" if event.ability == "suhol" else "Tokhang"
            return f"{name} was not paid: the Corruption Fund holds less than {event.cost}."
        case TokhangBlocked():
            return f"{event.player} survived an attempt on their life: legal protection."
        case AutoJailUsed():
            return (
                f"An Auto Jail against {event.target} was paid from Approved Public Spending "
                f"(-{event.cost}, now {event.public_spending})."
            )
        case AutoJailCancelled():
            why = _CANCELLED[event.reason].format(target=event.target)
            return f"Your Auto Jail on {event.target} was cancelled: {why}."
        case AuditDelivered():
            if event.project is None:
                return "Audit: No project last year."
            flag = "Yes" if event.kickback else "No"
            name = CARDS[event.project].name
            return f"Audit: Project {event.project} {name}. Kickback occurred: {flag}."
        case TreasuryReport():
            if event.decrease is None:
                return "No previous treasury report is available."
            return (
                f"Last Year's total decrease: {event.decrease}. "
                f"Kaban ng Bayan: {event.kaban_public}."
            )
        case Revenue():
            return (
                f"Revenue: +{event.amount}, one per active player. "
                f"Kaban ng Bayan: {event.kaban_public}."
            )
        case Candidates():
            if event.nobody_stood:
                return "Nobody stood: every active player is a candidate."
            return f"Standing for President: {_join(event.candidates)}."
        case VoteTally():
            counts = ", ".join(f"{name} {count}" for name, count in event.tally) or "no votes"
            return f"{_VOTES[event.step]}: {counts} ({event.abstained} abstained)."
        case PresidentElected():
            lots = " by drawing lots" if event.by_lots else ""
            return (
                f"{event.president} is elected President{lots}, "
                f"serving Years {event.year}-{event.term_end}."
            )
        case ProjectOffered():
            return (
                f"President {event.president} is offered {card_text(event.small)} and "
                f"{card_text(event.large)}."
            )
        case ProjectChosen():
            return f"The President chooses {event.card} {CARDS[event.card].name}."
        case CommitteeNamed():
            return f"Committee for {event.card}: {_join(event.members)}."
        case ProjectVoted():
            if event.succeeded:
                return (
                    f"The committee votes {event.support}-{event.oppose}: {event.card} succeeds. "
                    f"Approved Public Spending +{event.cost}, now {event.public_spending}."
                )
            return f"The committee votes {event.support}-{event.oppose}: {event.card} fails."
        case Kickback():
            return f"Kickback from {event.card}: +{event.amount} to the Corruption Fund."
        case DiscussionOpened():
            return "Discussion is open."
        case ClaimMade():
            return _claim_text(event)
        case WitnessTestimony():
            return f"A witness has testified that {event.player} is Bad aligned."
        case ForcedVoteCalled():
            return f"This Year's jail vote is a yes/no vote on jailing {event.player}."
        case JailingBlocked():
            return f"The attempted jailing of {event.player} has failed due to legal protection."
        case PlayerJailed():
            how = _CAUSES.get(event.cause, "")
            if event.returns_year is not None:
                return (
                    f"{event.player} is jailed {how}: strike {event.strikes}, suspended until "
                    f"Year {event.returns_year}."
                )
            return f"{event.player} is jailed {how}: strike {event.strikes}."
        case PlayerEliminated():
            role = f" They were a {event.role.title}." if event.role is not None else ""
            return f"{event.player} is eliminated {_CAUSES.get(event.cause, '')}.{role}"
        case NobodyJailed():
            return "Nobody is jailed."
        case YearEnded():
            return f"Year {event.year} ends. Approved Public Spending: {event.public_spending}."
        case GameOver():
            return outcome_text(event.winner, event.reason)
    return None


_NEWS = frozenset({
    GameStarted, RoleDealt, TeamRevealed, YearStarted, PresidencyEnded, PlayerReturned,
    ProtectionSet, InvestigationResult, Stolen, SuholPaid, CoaMuted, TokhangPaid, NotPaid,
    TokhangBlocked, AutoJailUsed, AutoJailCancelled, AuditDelivered, TreasuryReport, Revenue,
    Candidates, VoteTally, PresidentElected, ProjectOffered, ProjectChosen, CommitteeNamed,
    ProjectVoted, Kickback, DiscussionOpened, ClaimMade, WitnessTestimony, ForcedVoteCalled,
    JailingBlocked, PlayerJailed, PlayerEliminated, NobodyJailed, YearEnded, GameOver,
})  # fmt: skip
"""The events always worth a timeline line (two more are, sometimes: see is_news)."""


def _claim_text(event: ClaimMade) -> str:
    who = event.player
    if event.claim == "role" and event.role is not None:
        return f"{who} claims to be {_article(event.role)} {event.role.title}."
    if event.claim == "audit":
        flag = "yes" if event.kickback else "no"
        return f"{who} claims, as the COA: last Year's project had a kickback: {flag}."
    if event.claim == "investigation" and event.aligned is not None:
        return (
            f"{who} claims, as the Ombudsperson: {event.target} is "
            f"{event.aligned.value.title()} aligned."
        )
    if event.claim == "suspect":
        return f"{who} suspects {event.target}."
    return f"{who} trusts {event.target}."


def _article(role: Role) -> str:
    return "the" if role in (Role.LAWYER, Role.OMBUDSPERSON, Role.COA) else "a"


def _join(names: tuple[str, ...] | list[str]) -> str:
    return ", ".join(names)
