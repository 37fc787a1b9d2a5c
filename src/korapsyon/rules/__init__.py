"""The rules core of Korapsyon: pure Python, no I/O, no framework imports.

Data flows one way: an :mod:`action <korapsyon.rules.actions>` goes into
:meth:`Game.apply <korapsyon.rules.game.Game.apply>`, which appends
:mod:`events <korapsyon.rules.events>`; :mod:`views <korapsyon.rules.views>` turn the state
and the events a viewer may see into plain JSON data.
"""

from .actions import HOST, Action, action_from_wire
from .cards import CARDS, ProjectCard
from .errors import IllegalActionError, KorapsyonError, MalformedError
from .game import Choice, Game, LegalActions, Outcome, YearRecord
from .roles import Role, Team
from .ruleset import Ruleset
from .steps import STEPS, Step

__all__ = [
    "CARDS",
    "HOST",
    "STEPS",
    "Action",
    "Choice",
    "Game",
    "IllegalActionError",
    "KorapsyonError",
    "LegalActions",
    "MalformedError",
    "Outcome",
    "ProjectCard",
    "Role",
    "Ruleset",
    "Step",
    "Team",
    "YearRecord",
    "action_from_wire",
]
