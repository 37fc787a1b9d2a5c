"""The Hidden Phase's resolution (R-25, steps 1-7: R-21 .. R-24 and the COA's audit),
then the automatic start of the Public Phase: the treasury report (R-31) and revenue
(R-32), leading to the election (R-33) or, with a sitting President, the project (R-34).

Every night choice is taken in the fixed order of R-25; a Tokhang or an Auto Jail can end
the game midway (R-50), and then nothing after it happens.
"""

from __future__ import annotations

from .actions import AutoJail, Corrupt, Investigate, Protect
from .events import (
    CORRUPT,
    EVERYONE,
    MODERATOR,
    AuditDelivered,
    AutoJailCancelled,
    AutoJailUsed,
    CancelReason,
    CoaMuted,
    ForcedVoteCalled,
    InvestigationResult,
    NotPaid,
    ProtectionSet,
    Revenue,
    Stolen,
    SuholPaid,
    TokhangBlocked,
    TokhangPaid,
    TreasuryReport,
)
from .jail import eliminate, jail
from .ruleset import SUHOL_COST
from .state import ACTIVE, STAND, GameState, Next
from .votes import begin_project


def resolve_hidden(state: GameState) -> Next | None:
    """R-25: resolve every night decision in the fixed order, then open the Public Phase
    (None: the game ended in the night)."""
    _protect(state)
    _investigate(state)
    _corrupt(state)
    if state.outcome is None:
        _auto_jail(state)
    if state.outcome is not None:
        return None
    _audit(state)
    return public_phase(state)


def _protect(state: GameState) -> None:
    """Step 1, R-21."""
    lawyer = state.lawyer
    choice = state.pending.get(lawyer) if lawyer is not None else None
    if not isinstance(choice, Protect):
        return
    state.protected = None if choice.target is None else state.seat_index[choice.target]
    state.last_protected = (state.year, state.protected)
    if state.keeps_events:
        state.events.append(ProtectionSet(state.year, MODERATOR, choice.target))


def _investigate(state: GameState) -> None:
    """Step 2, R-22."""
    omb = state.ombudsperson
    look = state.pending.get(omb) if omb is not None else None
    if omb is None or not isinstance(look, Investigate) or look.target is None:
        return
    found = state.seat_index[look.target]
    team = state.roles[found].team
    state.investigation = (found, team)
    if state.keeps_events:
        state.events.append(
            InvestigationResult(state.year, state.audiences[omb], look.target, team)
        )


def _corrupt(state: GameState) -> None:
    """Steps 3-5, R-23: Nakaw, Suhol and Tokhang of the free Corrupt Politicians."""
    pending = state.pending
    plans = [p for s in state.corrupt_seats if isinstance(p := pending.get(s), Corrupt)]
    if not plans:
        return
    fund_before_steal = state.corruption_fund
    steal = _nakaw(state, plans)
    if _agreed([p.suhol for p in plans], state.ruleset.suhol_consent):
        _suhol(state, steal, fund_before_steal)
    chosen = agreed_target([p.tokhang for p in plans], state.ruleset.tokhang_consent)
    if chosen is not None:
        _tokhang(state, chosen)


def _nakaw(state: GameState, plans: list[Corrupt]) -> int:
    """Step 3: every free Corrupt steals one from the Kaban, if all of them agree."""
    if not all(p.nakaw for p in plans):
        return 0
    steal = len(plans)
    state.corruption_fund += steal
    state.kaban -= steal
    state.treasury_decrease += steal
    if state.keeps_events:
        state.events.append(Stolen(state.year, CORRUPT, steal))
    return steal


def _suhol(state: GameState, steal: int, fund_before_steal: int) -> None:
    """Step 4: the COA is silenced for the Year, if the Fund can pay."""
    year, keep, emit = state.year, state.keeps_events, state.events.append
    before = state.ruleset.suhol_fund_check == "before_steal"
    if (fund_before_steal if before else state.corruption_fund) < SUHOL_COST:
        if keep:
            emit(NotPaid(year, CORRUPT, "suhol", SUHOL_COST))
        return
    state.corruption_fund -= SUHOL_COST
    refund = min(SUHOL_COST, steal)
    state.kaban += refund
    state.treasury_decrease -= refund
    state.coa_muted = True
    if keep:
        emit(SuholPaid(year, CORRUPT, SUHOL_COST, refund))
    coa = state.coa
    if keep and coa is not None and state.status[coa] is ACTIVE:
        emit(CoaMuted(year, state.audiences[coa]))  # (the silencing is the flag above)


def _tokhang(state: GameState, name: str) -> None:
    """Step 5: the agreed target is eliminated, unless protected, if the Fund can pay."""
    year, keep, emit, cost = state.year, state.keeps_events, state.events.append, state.tokhang_cost
    if state.corruption_fund < cost:
        if keep:
            emit(NotPaid(year, CORRUPT, "tokhang", cost))
        return
    state.corruption_fund -= cost
    if keep:
        emit(TokhangPaid(year, CORRUPT, name, cost))
    seat = state.seat_index[name]
    if seat == state.protected:
        if keep:
            emit(TokhangBlocked(year, EVERYONE, name))
    else:
        eliminate(state, seat, "tokhang")


def _auto_jail(state: GameState) -> None:
    """Step 6, R-24: each Good Politician's Auto Jail in seat order, paid from Approved
    Public Spending: a direct jailing, or (variant) the Year's forced vote."""
    year, keep, emit = state.year, state.keeps_events, state.events.append
    already: set[int] = set()
    pending = state.pending
    for gp in state.good_politician_seats:
        order = pending.get(gp)
        if not isinstance(order, AutoJail) or order.target is None:
            continue
        seat = state.seat_index[order.target]
        reason = _auto_jail_refusal(state, gp, seat, already)
        if reason is not None:
            if keep:
                emit(AutoJailCancelled(year, state.audiences[gp], order.target, reason))
            continue
        already.add(seat)
        state.public_spending -= state.auto_jail_cost
        if keep:
            emit(
                AutoJailUsed(
                    year, EVERYONE, order.target, state.auto_jail_cost, state.public_spending
                )
            )
        if state.ruleset.auto_jail_mode == "forced_vote":
            state.forced_target = seat
            if keep:
                emit(ForcedVoteCalled(year, EVERYONE, order.target))
        else:
            jail(state, seat, "auto_jail")
            if state.outcome is not None:
                return


def _auto_jail_refusal(
    state: GameState, gp: int, seat: int, already: set[int]
) -> CancelReason | None:
    if state.status[gp] is not ACTIVE:
        return "inactive"
    if state.status[seat] is not ACTIVE:
        return "target_inactive"
    if seat in already:
        return "already_targeted"
    if state.forced_target is not None:
        return "forced_vote_called"
    if state.public_spending < state.auto_jail_cost:
        return "not_enough_spending"
    return None


def _audit(state: GameState) -> None:
    """Step 7, R-34: last Year's audit for an active COA."""
    if not state.keeps_events:
        return  # (the audit is only told: nothing changes)
    coa = state.coa
    if coa is not None and state.status[coa] is ACTIVE:
        audit = state.audit
        state.events.append(
            AuditDelivered(
                state.year,
                state.audiences[coa],
                audit[0] if audit else None,
                audit[1] if audit else None,
            )
        )


def public_phase(state: GameState) -> Next:
    """R-31 the treasury report, R-32 revenue, then R-33: an election if the office is
    vacant, else the President's project."""
    year, keep, emit = state.year, state.keeps_events, state.events.append
    if state.last_decrease is None:
        if keep:
            emit(TreasuryReport(year, EVERYONE, None, state.kaban_public))
    else:
        state.kaban_public = state.kaban_last_year
        if keep:
            emit(TreasuryReport(year, EVERYONE, state.last_decrease, state.kaban_public))
    active = state.active_seats()
    state.kaban += len(active)
    state.kaban_public += len(active)
    if keep:
        emit(Revenue(year, EVERYONE, len(active), state.kaban_public))
    if state.president is None:
        return Next(STAND, active)
    return begin_project(state)


def _agreed(votes: list[bool], consent: str) -> bool:
    """R-23: unanimity (default) or a majority of the free Corrupt."""
    if not votes:
        return False
    if consent == "unanimous":
        return all(votes)
    return sum(votes) * 2 > len(votes)


def agreed_target(targets: list[str | None], consent: str) -> str | None:
    """R-23: the Tokhang target the free Corrupt agreed on (None: no agreement)."""
    if not targets:
        return None
    if consent == "unanimous":
        first = targets[0]
        return first if all(t == first for t in targets) else None
    named = [t for t in targets if t is not None]
    for t in dict.fromkeys(named):
        if named.count(t) * 2 > len(targets):
            return t
    return None
