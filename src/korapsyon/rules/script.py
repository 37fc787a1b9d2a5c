"""The moderator's script: the line to read aloud for the current step (R-71).

Every line is read to the whole table (and narrated by the board screen), so it is built
from public facts only: it never depends on roles, night choices or who is still to act.
"""

from __future__ import annotations

from .cards import CARDS
from .game import Game
from .steps import Step
from .timeline import outcome_text


def script_line(game: Game) -> str:
    """What the moderator says now."""
    if game.outcome is not None:
        return f"The game is over. {outcome_text(game.outcome.winner, game.outcome.reason)}"
    names = game.players
    step = game.step
    president = names[game.president] if game.president is not None else "nobody"
    options = ", ".join(names[s] for s in game.candidates)
    if step is Step.HIDDEN:
        return (
            f"Year {game.year}. Everyone, close your eyes. Each of you makes one secret choice "
            "on your phone: Lawyer, Ombudsperson, Corrupt Politicians and Good Politicians "
            "act; everyone else taps ready. Open your eyes when the night is over."
        )
    if step is Step.STAND:
        return "The office of President is vacant. Who will stand for President?"
    if step is Step.ELECT:
        return f"Vote in secret for President. The candidates are: {options}."
    if step is Step.ELECT_RUNOFF:
        return f"The election is tied. Vote again, only between {options}."
    if step is Step.PICK_PROJECT:
        small, large = game.offered or ("", "")
        return (
            f"President {president}, choose this Year's project: {small} {CARDS[small].name} "
            f"or {large} {CARDS[large].name}."
        )
    if step is Step.PICK_COMMITTEE:
        return f"President {president}, name a committee of {game.committee_size}."
    if step is Step.COMMITTEE_VOTE:
        members = ", ".join(names[s] for s in game.committee)
        return f"Committee members {members}: vote in secret, Support or Oppose."
    if step is Step.DISCUSSION:
        return "The floor is open. Discuss what you know and what you suspect."
    if step is Step.WITNESS_VOTE:
        target = names[game.witness_target] if game.witness_target is not None else "?"
        return f"A witness has testified that {target} is Bad aligned. Shall {target} be jailed?"
    if step is Step.FORCED_JAIL_VOTE:
        target = names[game.forced_target] if game.forced_target is not None else "?"
        return f"An Auto Jail forces this Year's vote: shall {target} be jailed?"
    if step is Step.JAIL_VOTE:
        return (
            "Jail vote: vote in secret for one player to jail, or abstain. The President's "
            "vote counts twice; a jailing needs more than half of the votes cast."
        )
    return f"The jail vote is tied. Vote again, only between {options}."
