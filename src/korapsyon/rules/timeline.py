"""The timeline: which events are news, what each says (:func:`params`, for a client that
words it in its own language), and the plain-English line of each (:func:`describe`, for
the terminal, language-model agents and the tests).

:func:`describe` returns ``None`` for events that are bookkeeping rather than news (an
accepted vote, the start of most steps). Private events are phrased to their one reader
("You are the Lawyer.").
"""

from __future__ import annotations

from collections.abc import Callable
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
from .roles import COA, CORRUPT_POLITICIAN, LAWYER, OMBUDSPERSON, Role

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
    fields = msgspec.to_builtins(event, enc_hook=int)  # (the Audience, dropped below)
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
    line = _LINES.get(type(event))
    return None if line is None else line(event)


def _game_started(event: GameStarted) -> str:
    return (
        f"A game of Korapsyon begins with {len(event.players)} players. Targets: "
        f"Approved Public Spending {event.public_spending_target}, Corruption Fund "
        f"{event.corruption_fund_target}. The Kaban ng Bayan holds {event.kaban_start}."
    )


def _team_revealed(event: TeamRevealed) -> str:
    plural = "Corrupt Politicians" if event.role is CORRUPT_POLITICIAN else "Good Politicians"
    return f"The {plural} are {_join(event.members)}."


def _step_started(event: StepStarted) -> str | None:
    if event.step == "hidden":
        return "Hidden Phase: everyone makes one secret choice."
    if event.step in ("elect_runoff", "jail_runoff") and event.options:
        return f"Tie: a runoff between {_join(event.options)}."
    return None


def _action_taken(event: ActionTaken) -> str | None:
    return "The discussion is closed." if event.action.kind == "end_discussion" else None


def _not_paid(event: NotPaid) -> str:
    name = "Suhol" if event.ability == "suhol" else "Tokhang"
    return f"{name} was not paid: the Corruption Fund holds less than {event.cost}."


def _auto_jail_cancelled(event: AutoJailCancelled) -> str:
    why = _CANCELLED[event.reason].format(target=event.target)
    return f"Your Auto Jail on {event.target} was cancelled: {why}."


def _audit_delivered(event: AuditDelivered) -> str:
    if event.project is None:
        return "Audit: No project last year."
    flag = "Yes" if event.kickback else "No"
    name = CARDS[event.project].name
    return f"Audit: Project {event.project} {name}. Kickback occurred: {flag}."


def _treasury_report(event: TreasuryReport) -> str:
    if event.decrease is None:
        return "No previous treasury report is available."
    return f"Last Year's total decrease: {event.decrease}. Kaban ng Bayan: {event.kaban_public}."


def _candidates(event: Candidates) -> str:
    if event.nobody_stood:
        return "Nobody stood: every active player is a candidate."
    return f"Standing for President: {_join(event.candidates)}."


def _vote_tally(event: VoteTally) -> str:
    counts = ", ".join(f"{name} {count}" for name, count in event.tally) or "no votes"
    return f"{_VOTES[event.step]}: {counts} ({event.abstained} abstained)."


def _president_elected(event: PresidentElected) -> str:
    lots = " by drawing lots" if event.by_lots else ""
    return (
        f"{event.president} is elected President{lots}, "
        f"serving Years {event.year}-{event.term_end}."
    )


def _project_voted(event: ProjectVoted) -> str:
    if event.succeeded:
        return (
            f"The committee votes {event.support}-{event.oppose}: {event.card} succeeds. "
            f"Approved Public Spending +{event.cost}, now {event.public_spending}."
        )
    return f"The committee votes {event.support}-{event.oppose}: {event.card} fails."


def _player_jailed(event: PlayerJailed) -> str:
    how = _CAUSES.get(event.cause, "")
    if event.returns_year is not None:
        return (
            f"{event.player} is jailed {how}: strike {event.strikes}, suspended until "
            f"Year {event.returns_year}."
        )
    return f"{event.player} is jailed {how}: strike {event.strikes}."


def _player_eliminated(event: PlayerEliminated) -> str:
    role = f" They were a {event.role.title}." if event.role is not None else ""
    return f"{event.player} is eliminated {_CAUSES.get(event.cause, '')}.{role}"


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
    return "the" if role in (LAWYER, OMBUDSPERSON, COA) else "a"


def _join(names: tuple[str, ...] | list[str]) -> str:
    """Names as a sentence lists them: "Ana and Ben", "Ana, Ben, and Cris"."""
    if len(names) < 3:
        return " and ".join(names)
    return f"{', '.join(names[:-1])}, and {names[-1]}"


_LINES: dict[type[BaseEvent], Callable[[Any], str | None]] = {
    GameStarted: _game_started,
    RoleDealt: lambda e: f"You are {_article(e.role)} {e.role.title}. {e.role.goal}",
    TeamRevealed: _team_revealed,
    YearStarted: lambda e: f"Year {e.year} begins.",
    PresidencyEnded: lambda e: f"President {e.president}'s term is over: the office is vacant.",
    PlayerReturned: lambda e: f"{e.player} returns from suspension, on strike {e.strikes}.",
    StepStarted: _step_started,
    ActionTaken: _action_taken,
    ProtectionSet: lambda e: f"The Lawyer protects {e.target or 'nobody'}.",
    InvestigationResult: lambda e: (
        f"Your investigation: {e.target} is {e.aligned.title()} aligned."
    ),
    Stolen: lambda e: f"Nakaw: the Corrupt took {e.amount} from the Kaban ng Bayan.",
    SuholPaid: lambda e: (
        f"Suhol paid ({e.cost} from the Corruption Fund); {e.refund} went back "
        "to the Kaban ng Bayan and the COA is silenced this Year."
    ),
    CoaMuted: lambda e: (
        "You have been silenced by Suhol: you cannot speak in this Year's discussion."
    ),
    TokhangPaid: lambda e: f"Tokhang on {e.target} paid ({e.cost} from the Corruption Fund).",
    NotPaid: _not_paid,
    TokhangBlocked: lambda e: f"{e.player} survived an attempt on their life: legal protection.",
    AutoJailUsed: lambda e: (
        f"An Auto Jail against {e.target} was paid from Approved Public Spending "
        f"(-{e.cost}, now {e.public_spending})."
    ),
    AutoJailCancelled: _auto_jail_cancelled,
    AuditDelivered: _audit_delivered,
    TreasuryReport: _treasury_report,
    Revenue: lambda e: (
        f"Revenue: +{e.amount}, one per active player. Kaban ng Bayan: {e.kaban_public}."
    ),
    Candidates: _candidates,
    VoteTally: _vote_tally,
    PresidentElected: _president_elected,
    ProjectOffered: lambda e: (
        f"President {e.president} is offered {card_text(e.small)} and {card_text(e.large)}."
    ),
    ProjectChosen: lambda e: f"The President chooses {e.card} {CARDS[e.card].name}.",
    CommitteeNamed: lambda e: f"Committee for {e.card}: {_join(e.members)}.",
    ProjectVoted: _project_voted,
    Kickback: lambda e: f"Kickback from {e.card}: +{e.amount} to the Corruption Fund.",
    DiscussionOpened: lambda e: "Discussion is open.",
    ClaimMade: _claim_text,
    WitnessTestimony: lambda e: f"A witness has testified that {e.player} is Bad aligned.",
    ForcedVoteCalled: lambda e: f"This Year's jail vote is a yes/no vote on jailing {e.player}.",
    JailingBlocked: lambda e: (
        f"The attempted jailing of {e.player} has failed due to legal protection."
    ),
    PlayerJailed: _player_jailed,
    PlayerEliminated: _player_eliminated,
    NobodyJailed: lambda e: "Nobody is jailed.",
    YearEnded: lambda e: f"Year {e.year} ends. Approved Public Spending: {e.public_spending}.",
    GameOver: lambda e: outcome_text(e.winner, e.reason),
}
"""The line of each kind of event."""
