"""The rules core of Korapsyon: pure Python, no I/O, no framework imports.

Data flows one way: an :mod:`action <korapsyon.rules.actions>` goes into
:meth:`Game.apply <korapsyon.rules.game.Game.apply>`, which checks it against the step
table (:mod:`steps <korapsyon.rules.steps>`), resolves the step and appends
:mod:`events <korapsyon.rules.events>`; :mod:`views <korapsyon.rules.views>` turn the state
and the events a viewer may see into plain JSON data.
"""

from .actions import HOST, Action, action_from_wire
from .cards import CARDS, ProjectCard
from .choices import Choice
from .errors import IllegalActionError, KorapsyonError, MalformedError
from .events import Audience
from .game import Game, LegalActions
from .outcome import Outcome, Termination, Winner
from .roles import Role, Team
from .ruleset import Ruleset
from .state import PlayerStatus, YearRecord
from .steps import STEPS, Step

__all__ = [
    "CARDS",
    "HOST",
    "STEPS",
    "Action",
    "Audience",
    "Choice",
    "Game",
    "IllegalActionError",
    "KorapsyonError",
    "LegalActions",
    "MalformedError",
    "Outcome",
    "PlayerStatus",
    "ProjectCard",
    "Role",
    "Ruleset",
    "Step",
    "Team",
    "Termination",
    "Winner",
    "YearRecord",
    "action_from_wire",
]
