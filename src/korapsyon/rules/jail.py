"""Jail and removal (R-40, R-41), and the end of the game (R-50, R-51): a jailing that
protection blocks, a strike that suspends, a second strike or a Tokhang that eliminates,
a purge that ends the game at once, and :func:`finish`, which every ending goes through.
"""

from __future__ import annotations

from .events import EVERYONE, GameOver, JailingBlocked, PlayerEliminated, PlayerJailed
from .outcome import Outcome, Termination
from .roles import CORRUPT_POLITICIAN, GOOD_POLITICIAN
from .ruleset import STRIKES_TO_ELIMINATE
from .state import ELIMINATED, SUSPENDED, GameState


def jail(state: GameState, seat: int, cause: str) -> None:
    """R-41: protection blocks; else a strike - suspension, or elimination on the second."""
    name = state.players[seat]
    if seat == state.protected:
        if state.keeps_events:
            state.events.append(JailingBlocked(state.year, EVERYONE, name))
        return
    state.strikes[seat] += 1
    state.year_jailed.append(name)
    strikes = state.strikes[seat]
    if strikes >= STRIKES_TO_ELIMINATE:
        if state.keeps_events:
            state.events.append(PlayerJailed(state.year, EVERYONE, name, strikes, None, cause))
        eliminate(state, seat, cause)
        return
    back = state.year + state.ruleset.suspension_years + 1
    state.set_status(seat, SUSPENDED)
    state.returns_year[seat] = back
    if state.keeps_events:
        state.events.append(PlayerJailed(state.year, EVERYONE, name, strikes, back, cause))


def eliminate(state: GameState, seat: int, cause: str) -> None:
    """R-40, and R-50: a purge ends the game at once."""
    role = state.roles[seat]
    state.set_status(seat, ELIMINATED)
    status = state.status
    state.returns_year[seat] = None
    if state.president == seat:
        state.president = None
    name = state.players[seat]
    state.year_eliminated.append(name)
    shown = role if (cause != "tokhang" or state.ruleset.reveal_tokhang_role) else None
    if state.keeps_events:
        state.events.append(PlayerEliminated(state.year, EVERYONE, name, shown, cause))
    if role is CORRUPT_POLITICIAN and all(status[s] is ELIMINATED for s in state.corrupt_seats):
        finish(state, Termination.CORRUPT_PURGE)
    elif role is GOOD_POLITICIAN and all(
        status[s] is ELIMINATED for s in state.good_politician_seats
    ):
        finish(state, Termination.GOOD_PURGE)


def finish(state: GameState, termination: Termination, *, record_year: bool = True) -> None:
    """End the game: the outcome, the Year's trackers (unless already recorded) and every
    card face up (R-50)."""
    outcome = state.outcome = Outcome.of(termination)
    state.step = None
    state.step_checks = {}
    state.to_act = frozenset()
    state.pending = {}
    if record_year:
        state.years.append(state.year_record())
    if state.keeps_events:
        state.events.append(
            GameOver(
                state.year,
                EVERYONE,
                outcome.winner,
                outcome.reason,
                outcome.rule,
                state.roles,
                state.corruption_fund,
                state.kaban,
            )
        )
