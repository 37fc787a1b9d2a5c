"""The moderator's script: the line to read aloud for the current step (R-71).

Every line is read to the whole table (and narrated by the board screen), so it is built
from public facts only: it never depends on roles, night choices or who is still to act.
:func:`cue` says which line and with what (for a client that words it in its own language:
the board narrates in the board's language); :func:`script_line` is the English line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import CARDS
from .state import GameState, Step
from .timeline import outcome_text

Cue = dict[str, Any]
"""``{"key": ..., "params": {...}}``: the line's key (the step, or ``game_over``) and the
public facts it names (names, card ids, numbers)."""


def cue(game: GameState) -> Cue:
    """Which line the moderator says now, and the facts it names."""
    outcome = game.outcome
    if outcome is not None:
        return _cue("game_over", winner=outcome.winner, reason=outcome.reason)
    step = game.step
    assert step is not None
    facts = _FACTS.get(step)
    return {"key": step.value, "params": {} if facts is None else facts(game)}


def _candidates(game: GameState) -> dict[str, Any]:
    return {"candidates": [game.players[s] for s in game.candidates]}


def _president(game: GameState) -> str | None:
    return game.players[game.president] if game.president is not None else None


def _pick_project(game: GameState) -> dict[str, Any]:
    small, large = game.offered or ("", "")
    return {"president": _president(game), "small": small, "large": large}


_FACTS: dict[Step, Callable[[GameState], dict[str, Any]]] = {
    Step.HIDDEN: lambda game: {"year": game.year},
    Step.ELECT: _candidates,
    Step.ELECT_RUNOFF: _candidates,
    Step.JAIL_RUNOFF: _candidates,
    Step.PICK_PROJECT: _pick_project,
    Step.PICK_COMMITTEE: lambda game: {
        "president": _president(game),
        "size": game.committee_size,
    },
    Step.COMMITTEE_VOTE: lambda game: {
        "members": [game.players[s] for s in game.committee],
        "card": game.card,
    },
    Step.WITNESS_VOTE: lambda game: {"player": _name(game, game.witness_target)},
    Step.FORCED_JAIL_VOTE: lambda game: {"player": _name(game, game.forced_target)},
}
"""The public facts each step's line names (stand, discussion, jail_vote: none)."""


def script_line(game: GameState) -> str:
    """What the moderator says now, in English."""
    found = cue(game)
    key, facts = found["key"], dict(found["params"])
    if key == "game_over":
        return f"The game is over. {outcome_text(facts['winner'], facts['reason'])}"
    for field in ("small", "large"):
        if field in facts:
            facts[f"{field}_name"] = CARDS[facts[field]].name
    for field in ("candidates", "members"):
        if field in facts:
            facts[field] = ", ".join(facts[field])
    return ENGLISH[key].format(**facts)


ENGLISH = {
    "hidden": (
        "Year {year}. Everyone, close your eyes. Each of you makes one secret choice on your "
        "phone: Lawyer, Ombudsperson, Corrupt Politicians and Good Politicians act; everyone "
        "else taps ready. Open your eyes when the night is over."
    ),
    "stand": "The office of President is vacant. Who will stand for President?",
    "elect": "Vote in secret for President. The candidates are: {candidates}.",
    "elect_runoff": "The election is tied. Vote again, only between {candidates}.",
    "pick_project": (
        "President {president}, choose this Year's project: {small} {small_name} or "
        "{large} {large_name}."
    ),
    "pick_committee": "President {president}, name a committee of {size}.",
    "committee_vote": "Committee members {members}: vote in secret, Support or Oppose.",
    "discussion": "The floor is open. Discuss what you know and what you suspect.",
    "witness_vote": (
        "A witness has testified that {player} is Bad aligned. Shall {player} be jailed?"
    ),
    "forced_jail_vote": "An Auto Jail forces this Year's vote: shall {player} be jailed?",
    "jail_vote": (
        "Jail vote: vote in secret for one player to jail, or abstain. The President's vote "
        "counts twice; a jailing needs more than half of the votes cast."
    ),
    "jail_runoff": "The jail vote is tied. Vote again, only between {candidates}.",
}
"""The moderator's lines in English, by cue key."""


def _cue(key: str, **facts: Any) -> Cue:
    return {"key": key, "params": facts}


def _name(game: GameState, seat: int | None) -> str:
    return game.players[seat] if seat is not None else "?"
