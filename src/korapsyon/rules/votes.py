"""The Public Phase's decisions and their resolution: standing and the election (R-33),
the project, committee and committee vote (R-34), the discussion and Witness (R-35), and
the jail votes (R-36, and the forced vote of R-25 step 6).

Each ``resolve_*`` function is one step's resolution (named in the step table,
:data:`korapsyon.rules.steps.STEPS`): it reads the step's ballots, emits what happened and
returns the :class:`~korapsyon.rules.state.Next` step, or None when the Year ends (or the
game did). The engine checks that the table lists the step it returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

from .actions import (
    CommitteeVote,
    Elect,
    ForcedJailVote,
    JailVote,
    PickCommittee,
    PickProject,
    Stand,
    Witness,
    WitnessVote,
)
from .cards import CARDS
from .events import (
    CORRUPT,
    EVERYONE,
    ActionTaken,
    Candidates,
    CommitteeNamed,
    DiscussionOpened,
    Kickback,
    NobodyJailed,
    PresidentElected,
    ProjectChosen,
    ProjectOffered,
    ProjectVoted,
    VoteTally,
    WitnessTestimony,
)
from .jail import jail
from .state import (
    ACTIVE,
    COMMITTEE_VOTE,
    DISCUSSION,
    ELECT,
    ELECT_RUNOFF,
    FORCED_JAIL_VOTE,
    HOST_SEAT,
    JAIL_RUNOFF,
    JAIL_VOTE,
    PICK_COMMITTEE,
    PICK_PROJECT,
    WITNESS_VOTE,
    GameState,
    Next,
    ballots,
)

YesNoVotes: TypeAlias = Mapping[int, WitnessVote | ForcedJailVote]


# --- the election (R-33) -----------------------------------------------------------
def resolve_stand(state: GameState) -> Next:
    """Who stood are the candidates; if nobody did, every active player is."""
    votes = ballots(state.pending, Stand)
    stood = [s for s in sorted(votes) if votes[s].stand]
    candidates = stood or state.active_seats()
    state.candidates = tuple(candidates)
    names = state.names(candidates)
    if state.keeps_events:
        state.events.append(Candidates(state.year, EVERYONE, names, not stood))
    return Next(ELECT, state.active_seats(), names)


def resolve_elect(state: GameState) -> Next:
    """The most votes wins; a tie goes to one runoff among the tied, then to lots."""
    counts = dict.fromkeys(state.candidates, 0)
    abstained = 0
    index = state.seat_index
    for vote in ballots(state.pending, Elect).values():
        if vote.candidate is None:
            abstained += 1
        else:
            counts[index[vote.candidate]] += 1
    step = state.step
    assert step is not None
    if state.keeps_events:
        tally = state.tally(counts)
        state.events.append(VoteTally(state.year, EVERYONE, step._value_, tally, abstained))
    if not counts:  # nobody active: no President this Year
        return begin_project(state)
    top = max(counts.values())
    leaders = [s for s, c in counts.items() if c == top]
    if len(leaders) == 1:
        return _elect(state, leaders[0], by_lots=False)
    if step is ELECT:
        state.candidates = tuple(leaders)
        return Next(ELECT_RUNOFF, state.active_seats(), state.names(leaders))
    return _elect(state, state.rng.choice(leaders), by_lots=True)


def _elect(state: GameState, seat: int, *, by_lots: bool) -> Next:
    state.president = seat
    state.president_since = state.year
    term_end = state.year + state.ruleset.president_term - 1
    if state.keeps_events:
        state.events.append(
            PresidentElected(state.year, EVERYONE, state.players[seat], term_end, by_lots)
        )
    return begin_project(state)


# --- the project (R-34) ------------------------------------------------------------
def begin_project(state: GameState) -> Next:
    """The President is offered the top card of each deck (no President: no project)."""
    president = state.president
    if president is None:
        return open_discussion(state)
    state.offered = (state.small_deck[0], state.large_deck[0])
    if state.keeps_events:
        state.events.append(
            ProjectOffered(state.year, EVERYONE, state.players[president], *state.offered)
        )
    return Next(PICK_PROJECT, (president,), state.offered)


def resolve_pick_project(state: GameState) -> Next:
    (choice,) = ballots(state.pending, PickProject).values()
    card = state.card = choice.card
    for deck in (state.small_deck, state.large_deck):  # both go to the bottom
        deck.append(deck.pop(0))
    size = CARDS[card].committee
    active = len(state.active_seats())
    if active < size:
        size = active if active % 2 else active - 1
    state.committee_size = size
    if state.keeps_events:
        state.events.append(ProjectChosen(state.year, EVERYONE, card))
    president = state.president
    assert president is not None
    return Next(PICK_COMMITTEE, (president,))


def resolve_pick_committee(state: GameState) -> Next:
    (choice,) = ballots(state.pending, PickCommittee).values()
    assert state.card is not None
    index = state.seat_index
    state.committee = tuple([index[name] for name in choice.members])
    if state.keeps_events:
        state.events.append(CommitteeNamed(state.year, EVERYONE, state.card, choice.members))
    return Next(COMMITTEE_VOTE, state.committee)


def resolve_committee_vote(state: GameState) -> Next:
    """More Support than half the committee passes the project; a Corrupt member on a
    passed committee takes the kickback, and the COA will audit it next Year."""
    year, keep, emit = state.year, state.keeps_events, state.events.append
    assert state.card is not None
    card = CARDS[state.card]
    support = [vote.support for vote in ballots(state.pending, CommitteeVote).values()].count(True)
    size = len(state.committee)
    succeeded = support * 2 > size
    state.project_succeeded = succeeded
    kickback = False
    if succeeded:
        state.public_spending += card.cost
        state.kaban -= card.cost
        state.treasury_decrease += card.cost
        kickback = not set(state.corrupt_seats).isdisjoint(state.committee)
        state.year_audit = (card.id, kickback)
    if keep:
        emit(
            ProjectVoted(
                year, EVERYONE, card.id, support, size - support, succeeded, card.cost,
                state.public_spending,
            )
        )  # fmt: skip
    if kickback:
        state.corruption_fund += card.kickback
        if keep:
            emit(Kickback(year, CORRUPT, card.id, card.kickback))
    return open_discussion(state)


# --- the discussion (R-35) ---------------------------------------------------------
def open_discussion(state: GameState) -> Next:
    if state.keeps_events:
        state.events.append(DiscussionOpened(state.year, EVERYONE))
    return Next(DISCUSSION, (HOST_SEAT,))


def witness(state: GameState, seat: int, action: Witness) -> None:
    """The Ombudsperson testifies against this Year's Bad-aligned finding. Only they are
    told now: the table hears the testimony when the discussion closes (RULINGS, R-35), so
    the moment of a tap does not point at the witness."""
    assert state.investigation is not None
    state.witness_used = True
    state.witness_target = state.investigation[0]
    if state.keeps_events:
        state.events.append(ActionTaken(state.year, state.audiences[seat], action))


def resolve_discussion(state: GameState) -> Next:
    """The host closed the discussion: this Year's testimony, if any, is announced
    (anonymously, R-35) and the Witness vote on that player follows; else the Year's jail
    vote."""
    found = state.witness_target
    if found is None:
        return begin_jail_vote(state)
    name = state.players[found]
    if state.keeps_events:
        state.events.append(WitnessTestimony(state.year, EVERYONE, name))
    return Next(WITNESS_VOTE, state.active_seats(), (name,))


# --- the jail votes (R-36; R-25 step 6) --------------------------------------------
def begin_jail_vote(state: GameState) -> Next:
    """The forced vote on an Auto Jail's target (variant), else the open jail vote."""
    active = state.active_seats()
    forced = state.forced_target
    if forced is not None and state.status[forced] is ACTIVE and forced != state.president:
        return Next(FORCED_JAIL_VOTE, active, (state.players[forced],))
    president = state.president
    state.candidates = tuple([s for s in active if s != president])
    return Next(JAIL_VOTE, active, state.names(state.candidates))


def _yes_no(state: GameState, jail_votes: YesNoVotes) -> tuple[int, int, int]:
    """Weighted yes and no (the President counts 2), and how many abstained."""
    yes = no = abstained = 0
    president = state.president
    for seat, vote in jail_votes.items():
        weight = 2 if seat == president else 1
        if vote.jail is None:
            abstained += 1
        elif vote.jail:
            yes += weight
        else:
            no += weight
    return yes, no, abstained


def _resolve_yes_no(
    state: GameState,
    seat: int,
    cause: str,
    jail_votes: YesNoVotes,
) -> None:
    yes, no, abstained = _yes_no(state, jail_votes)
    step = state.step
    assert step is not None
    if state.keeps_events:
        tally = (("yes", yes), ("no", no))
        state.events.append(VoteTally(state.year, EVERYONE, step._value_, tally, abstained))
    if yes > no:  # yes > half of the valid votes
        jail(state, seat, cause)
    elif state.keeps_events:  # (nobody jailed: only told)
        state.events.append(NobodyJailed(state.year, EVERYONE, step.value))


def resolve_witness_vote(state: GameState) -> Next | None:
    assert state.witness_target is not None
    votes = ballots(state.pending, WitnessVote)
    _resolve_yes_no(state, state.witness_target, "witness_vote", votes)
    return None if state.outcome is not None else begin_jail_vote(state)


def resolve_forced_jail_vote(state: GameState) -> None:
    assert state.forced_target is not None
    votes = ballots(state.pending, ForcedJailVote)
    _resolve_yes_no(state, state.forced_target, "auto_jail", votes)


def resolve_jail_vote(state: GameState) -> Next | None:
    """R-36: more than half of the valid votes jails (the President's vote counts 2); a
    tie of the leaders goes to one runoff among them."""
    counts = dict.fromkeys(state.candidates, 0)
    abstained = 0
    president, index = state.president, state.seat_index
    for seat, vote in ballots(state.pending, JailVote).items():
        if vote.target is None:
            abstained += 1
        else:
            counts[index[vote.target]] += 2 if seat == president else 1
    step = state.step
    assert step is not None
    voted = {s: c for s, c in counts.items() if c}
    if state.keeps_events:
        state.events.append(
            VoteTally(state.year, EVERYONE, step.value, state.tally(voted), abstained)
        )
    valid = sum(voted.values())
    if valid:
        top = max(voted.values())
        leaders = [s for s, c in voted.items() if c == top]
        if top * 2 > valid:
            jail(state, leaders[0], "jail_vote")
            return None
        if len(leaders) > 1 and step is JAIL_VOTE:
            state.candidates = tuple(leaders)
            return Next(JAIL_RUNOFF, state.active_seats(), state.names(leaders))
    if state.keeps_events:
        state.events.append(NobodyJailed(state.year, EVERYONE, step.value))
    return None
