"""The step engine (h11 style: the table is the truth). :func:`check` refuses an action the
current step's spec does not accept or its check refuses; :func:`advance` resolves a step
and takes the transition its resolution returns - only if the step table lists it - and
everything automatic after it: the End of Year (R-37, R-38, R-50, R-51) and the Start of
the next (R-20, R-33's term), up to the next step that needs a decision.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import HOST, BaseAction
from .checks import illegal
from .events import EVERYONE, PlayerReturned, PresidencyEnded, StepStarted, YearEnded, YearStarted
from .jail import finish
from .outcome import Termination
from .state import ACTIVE, DISCUSSION, HIDDEN, HOST_SEAT, SUSPENDED, GameState, Step
from .steps import STEPS

CHECKS = {step: dict(spec.checks) for step, spec in STEPS.items()}  # (a plain dict: faster)


class TransitionError(AssertionError):
    """A step's resolution chose a step its table entry does not list: a bug in the rules
    core, never the players' doing (so not a :class:`~korapsyon.rules.errors.KorapsyonError`)."""


def check(state: GameState, action: BaseAction) -> int:
    """Validate ``action`` without changing anything; return the actor's seat."""
    step = state.step
    if step is None:  # (only once the game is over)
        assert state.outcome is not None
        raise illegal("game_over", state.outcome.rule, "the game is over")
    kind = type(action)
    checker = CHECKS[step].get(kind)
    if checker is None:
        spec = STEPS[step]
        wanted = ", ".join(sorted({cls.kind for cls in spec.checks}))
        shown = getattr(kind, "kind", kind.__name__)
        raise illegal("wrong_step", spec.rule, f"step {step} takes {wanted}, not {shown}")
    name = action.player
    seat = HOST_SEAT if name == HOST else state.seat_index.get(name)
    if seat is None:
        raise illegal("unknown_player", "R-01", f"there is no player named {name!r}")
    checker(state, seat, action)
    return seat


def begin(
    state: GameState, step: Step, actors: Sequence[int], options: tuple[str, ...] | None = None
) -> None:
    """Open ``step`` for these actors (nobody has submitted yet)."""
    state.step = step
    state.step_checks = CHECKS[step]
    state.to_act = frozenset(actors)
    state.pending = {}
    if not state.keeps_events:
        return
    if step is HIDDEN:  # (who acts in the Hidden Phase is not shown)
        shown = None
    else:
        seats, names = state.roster()  # actors are active: as many are all of them
        same = len(actors) == len(seats) and step is not DISCUSSION
        shown = names if same else state.names(actors)
    state.events.append(StepStarted(state.year, EVERYONE, step._value_, shown, options))


def advance(state: GameState) -> None:
    """Resolve the current step (every actor has submitted, or the host ended the
    discussion) and run the game on to the next decision or to its end."""
    step = state.step
    while step is not None:
        spec = STEPS[step]
        after = spec.resolve(state)
        if after is None:
            if None not in spec.successors:
                raise _unlisted(step, None)
            if state.outcome is None:
                end_of_year(state)
        else:
            if after.step not in spec.successors:
                raise _unlisted(step, after.step)
            begin(state, after.step, after.actors, after.options)
        if state.to_act or state.outcome is not None:
            return
        step = state.step  # a step nobody acts in resolves at once


def _unlisted(step: Step, after: Step | None) -> TransitionError:
    return TransitionError(f"{step} resolved to {after}, which the step table does not list")


def start_year(state: GameState, year: int) -> None:
    """The Start of a Year: a President's term ends (R-33), the suspended whose time is up
    return (R-20), and the Hidden Phase opens."""
    state.year = year
    state.reset_year()
    keep, emit = state.keeps_events, state.events.append
    if keep:
        emit(YearStarted(year, EVERYONE))
    president = state.president
    if president is not None and year >= state.president_since + state.ruleset.president_term:
        state.president = None  # vacant from the Start of the third Year
        if keep:
            emit(PresidencyEnded(year, EVERYONE, state.players[president]))
    status = state.status
    for seat, back in enumerate(state.returns_year):
        if back is not None and back <= year and status[seat] is SUSPENDED:
            state.set_status(seat, ACTIVE)
            state.returns_year[seat] = None
            if keep:
                emit(PlayerReturned(year, EVERYONE, state.players[seat], state.strikes[seat]))
    begin(state, HIDDEN, state.active_seats())


def end_of_year(state: GameState) -> None:
    """R-37 / R-50: Good's condition first, then Bad's; R-38 the Year's record; R-51 the
    last Year; else the next Year starts."""
    if state.public_spending >= state.public_spending_target:
        finish(state, Termination.PUBLIC_SPENDING)
        return
    if state.corruption_fund >= state.corruption_fund_target:
        finish(state, Termination.CORRUPTION_FUND)
        return
    state.years.append(state.year_record())
    if state.keeps_events:
        state.events.append(
            YearEnded(state.year, EVERYONE, state.public_spending, state.kaban_public)
        )
    if state.year >= state.ruleset.max_years:
        finish(state, Termination.SAFETY_STOP, record_year=False)
        return
    state.last_decrease = state.treasury_decrease
    state.kaban_last_year = state.kaban
    state.audit = state.year_audit
    state.year_audit = None
    start_year(state, state.year + 1)
