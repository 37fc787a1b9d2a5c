"""The moderator's script: the line to read aloud for the current step (R-71).

Every line is read to the whole table (and narrated by the board screen), so it is built
from public facts only: it never depends on roles, night choices or who is still to act.
:func:`cue` says which line and with what (for a client that words it in its own language:
the board narrates in the board's language); :func:`script_line` is the English line.
"""

from __future__ import annotations

from typing import Any

from .cards import CARDS
from .game import Game
from .steps import Step
from .timeline import outcome_text

Cue = dict[str, Any]
"""``{"key": ..., "params": {...}}``: the line's key (the step, or ``game_over``) and the
public facts it names (names, card ids, numbers)."""


def cue(game: Game) -> Cue:
    """Which line the moderator says now, and the facts it names."""
    if game.outcome is not None:
        outcome = game.outcome
        return _cue("game_over", winner=outcome.winner, reason=outcome.reason)
    names = game.players
    step = game.step
    assert step is not None
    president = names[game.president] if game.president is not None else None
    candidates = [names[s] for s in game.candidates]
    if step is Step.HIDDEN:
        return _cue("hidden", year=game.year)
    if step in (Step.ELECT, Step.ELECT_RUNOFF, Step.JAIL_RUNOFF):
        return _cue(step.value, candidates=candidates)
    if step is Step.PICK_PROJECT:
        small, large = game.offered or ("", "")
        return _cue("pick_project", president=president, small=small, large=large)
    if step is Step.PICK_COMMITTEE:
        return _cue("pick_committee", president=president, size=game.committee_size)
    if step is Step.COMMITTEE_VOTE:
        return _cue("committee_vote", members=[names[s] for s in game.committee], card=game.card)
    if step is Step.WITNESS_VOTE:
        return _cue("witness_vote", player=_name(game, game.witness_target))
    if step is Step.FORCED_JAIL_VOTE:
        return _cue("forced_jail_vote", player=_name(game, game.forced_target))
    return _cue(step.value)  # stand, discussion, jail_vote: nothing to name


def script_line(game: Game) -> str:
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


def _name(game: Game, seat: int | None) -> str:
    return game.players[seat] if seat is not None else "?"
