"""Legality: the check of each kind of action against RULES.md, with the stable error codes
(docs/ARCHITECTURE.md lists them). A check reads the state and changes nothing; a refusal
raises :class:`~korapsyon.rules.errors.IllegalActionError` naming the rule.

Each step's table entry (:data:`korapsyon.rules.steps.STEPS`) names the check of every kind
of action it accepts; :func:`korapsyon.rules.engine.check` runs the common part (the game
is not over, the step accepts the kind, the actor exists) and then that check.
"""

from __future__ import annotations

from .actions import (
    AutoJail,
    BaseAction,
    Claim,
    Corrupt,
    Elect,
    EndDiscussion,
    Investigate,
    JailVote,
    PickCommittee,
    PickProject,
    Protect,
    Ready,
    Witness,
)
from .errors import IllegalActionError
from .roles import (
    BAD_TEAM,
    CITIZEN,
    COA,
    CORRUPT_POLITICIAN,
    GOOD_POLITICIAN,
    LAWYER,
    OMBUDSPERSON,
    Role,
)
from .state import ACTIVE, DISCUSSION, ELIMINATED, HOST_SEAT, SUSPENDED, GameState

NIGHT_ACTIONS: dict[Role, type[BaseAction]] = {
    LAWYER: Protect,
    OMBUDSPERSON: Investigate,
    CORRUPT_POLITICIAN: Corrupt,
    GOOD_POLITICIAN: AutoJail,
    COA: Ready,  # R-70 decoy
    CITIZEN: Ready,  # R-70 decoy
}
"""The one night action of each role."""

_NIGHT_RULES: dict[type[BaseAction], str] = {
    Protect: "R-21",
    Investigate: "R-22",
    Corrupt: "R-23",
    AutoJail: "R-24",
    Ready: "R-70",
}
_CLAIM_FIELDS: dict[str, set[str]] = {
    "role": {"role"},
    "audit": {"kickback"},
    "investigation": {"target", "aligned"},
    "suspect": {"target"},
    "trust": {"target"},
}


def illegal(code: str, rule: str, message: str) -> IllegalActionError:
    return IllegalActionError(code, rule, message)


def check_actor(state: GameState, seat: int, action: BaseAction) -> None:
    """The seat must act in this step (R-40, R-41: nobody inactive ever does)."""
    if seat in state.to_act:
        return
    if seat == HOST_SEAT:
        raise illegal("not_your_turn", "R-35", "the host only ends the discussion")
    status = state.status[seat]
    name = state.players[seat]
    if status is ELIMINATED:
        raise illegal("eliminated", "R-40", f"{name} has been eliminated")
    if status is SUSPENDED:
        raise illegal(
            "suspended", "R-41", f"{name} is suspended until Year {state.returns_year[seat]}"
        )
    from .steps import STEPS  # the table names the checks: imported when a check refuses

    step = state.step
    assert step is not None
    spec = STEPS[step]
    raise illegal("not_your_turn", spec.rule, f"{name} does not act in {step}: {spec.actors} does")


def target(state: GameState, name: str, rule: str) -> int:
    """The seat of an active player named as a target."""
    seat = state.seat_index.get(name)
    if seat is None:
        raise illegal("unknown_player", rule, f"there is no player named {name!r}")
    if state.status[seat] is not ACTIVE:
        raise illegal(
            "inactive_target", rule, f"{name} is {state.status[seat]} and cannot be chosen"
        )
    return seat


# --- the Hidden Phase (R-21 .. R-24) ------------------------------------------------
def _check_night(state: GameState, seat: int, action: BaseAction) -> None:
    if seat not in state.to_act:
        check_actor(state, seat, action)
    if type(action) is not NIGHT_ACTIONS[state.roles[seat]]:
        raise illegal(
            "wrong_role",
            _NIGHT_RULES[type(action)],
            f"{state.players[seat]} cannot {action.kind} in the Hidden Phase",
        )


def barred_protectee(state: GameState) -> int | None:
    """R-21: the player the Lawyer protected last Year (unless the variant allows)."""
    if state.ruleset.lawyer_consecutive == "allowed":
        return None
    year, seat = state.last_protected
    return seat if year == state.year - 1 else None


def check_protect(state: GameState, seat: int, action: Protect) -> None:
    _check_night(state, seat, action)
    if action.target is None:
        return
    if target(state, action.target, "R-21") == barred_protectee(state):
        raise illegal(
            "consecutive_protect",
            "R-21",
            f"the Lawyer protected {action.target} last Year and cannot protect them again",
        )


def check_investigate(state: GameState, seat: int, action: Investigate) -> None:
    _check_night(state, seat, action)
    if action.target is not None and target(state, action.target, "R-22") == seat:
        raise illegal("self_target", "R-22", "the Ombudsperson investigates another player")


def check_corrupt(state: GameState, seat: int, action: Corrupt) -> None:
    _check_night(state, seat, action)
    if action.tokhang is not None:
        chosen = target(state, action.tokhang, "R-23")
        if chosen == state.president and not state.ruleset.tokhang_on_president:
            raise illegal("president_immune", "R-33", "Tokhang cannot target the President")


def check_auto_jail(state: GameState, seat: int, action: AutoJail) -> None:
    _check_night(state, seat, action)
    if action.target is not None and target(state, action.target, "R-24") == state.president:
        raise illegal(
            "president_immune", "R-33", f"{action.target} is President and cannot be jailed"
        )


check_ready = _check_night  # the decoy tap, checked as every night action is


# --- the Public Phase (R-33 .. R-36) ------------------------------------------------
def check_elect(state: GameState, seat: int, action: Elect) -> None:
    if seat not in state.to_act:
        check_actor(state, seat, action)
    if action.candidate is not None:
        chosen = state.seat_index.get(action.candidate)
        if chosen is None or chosen not in state.candidates:
            raise illegal("not_a_candidate", "R-33", f"{action.candidate} is not a candidate")


def check_pick_project(state: GameState, seat: int, action: PickProject) -> None:
    check_actor(state, seat, action)
    if state.offered is None or action.card not in state.offered:
        raise illegal(
            "not_offered",
            "R-34",
            f"card {action.card!r} is not offered; choose {' or '.join(state.offered or ())}",
        )


def check_pick_committee(state: GameState, seat: int, action: PickCommittee) -> None:
    check_actor(state, seat, action)
    members = action.members
    if len(members) != state.committee_size:
        raise illegal(
            "committee_size",
            "R-34",
            f"the committee has {state.committee_size} members, not {len(members)}",
        )
    if len(set(members)) != len(members):
        raise illegal("committee_member", "R-34", "a committee member is named twice")
    for name in members:
        target(state, name, "R-34")


def check_end_discussion(state: GameState, seat: int, action: EndDiscussion) -> None:
    if seat != HOST_SEAT:
        raise illegal("not_host", "R-35", "only the host ends the discussion")


def check_witness(state: GameState, seat: int, action: Witness) -> None:
    refusal = witness_refusal(state, seat)
    if refusal is not None:
        raise illegal("witness_unavailable", "R-35", refusal)


def witness_refusal(state: GameState, seat: int) -> str | None:
    """R-35: why this seat may not invoke Witness now (None: it may)."""
    if state.step is not DISCUSSION:
        return "Witness is invoked during the discussion"
    if seat != state.ombudsperson:
        return "only the Ombudsperson can invoke Witness"
    if state.status[seat] is not ACTIVE:
        return "the Ombudsperson is not active"
    if state.witness_used:
        return "Witness can be used once per game"
    return _finding_refusal(state)


def _finding_refusal(state: GameState) -> str | None:
    """R-35: this Year's finding must be an active, Bad-aligned player who is not President."""
    if state.investigation is None or state.investigation[1] is not BAD_TEAM:
        return "Witness needs this Year's investigation to have found a Bad-aligned player"
    found = state.investigation[0]
    if state.status[found] is not ACTIVE:
        return f"{state.players[found]} is no longer active"
    if found == state.president:
        return f"{state.players[found]} is President and cannot be jailed"
    return None


def check_claim(state: GameState, seat: int, action: Claim) -> None:
    refusal = claim_refusal(state, seat)
    if refusal is not None:
        raise illegal(*refusal)
    kind = action.claim
    needs = _CLAIM_FIELDS[kind]
    given = {
        name
        for name in ("target", "role", "aligned", "kickback")
        if getattr(action, name) is not None
    }
    if given != needs:
        raise illegal(
            "bad_claim",
            "R-35",
            f"a {kind} claim names {', '.join(sorted(needs)) or 'nothing else'}",
        )
    if action.target is not None:
        about = state.seat_index.get(action.target)
        if about is None:
            raise illegal("unknown_player", "R-35", f"no player named {action.target!r}")
        if about == seat:
            raise illegal("self_target", "R-35", "a claim about another player")


def claim_refusal(state: GameState, seat: int) -> tuple[str, str, str] | None:
    """Why this seat may make no claim now (code, rule, message), or None."""
    if seat == HOST_SEAT:
        return ("not_your_turn", "R-35", "the host makes no claims")
    if state.status[seat] is not ACTIVE:
        return ("not_your_turn", "R-35", f"{state.players[seat]} is not active")
    if seat == state.coa and state.coa_muted:
        return ("muted", "R-35", "the COA was silenced by Suhol this Year")
    return None


def check_jail_vote(state: GameState, seat: int, action: JailVote) -> None:
    if seat not in state.to_act:
        check_actor(state, seat, action)
    if action.target is None:
        return
    chosen = state.seat_index.get(action.target)
    if chosen is None or chosen not in state.candidates:
        if chosen is not None and chosen == state.president:
            raise illegal(
                "president_immune", "R-33", f"{action.target} is President and cannot be jailed"
            )
        raise illegal(
            "not_a_candidate", "R-36", f"{action.target} cannot be voted on in this {state.step}"
        )
