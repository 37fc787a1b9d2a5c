"""Beliefs: how likely each player is to hold each role, from one view's events.

* :mod:`.model` - the behaviour model: how likely each public act is, given the roles;
* :mod:`.space` - the role assignments and the exact (or sampled) posterior over them;
* :mod:`.tracker` - :class:`Beliefs`, fed the events of one seat's view or the public's.

The API (for the bots and for ``korapsyon analyse``)::

    beliefs = Beliefs(players, roles, seat="Ana")   # seat=None: the public view
    beliefs = Beliefs.start(first_events)           # or: table and seat from the events
    beliefs.observe(events)                         # what Agent.observe receives
    beliefs.corrupt_probability()                   # {"Ana": 0.0, "Ben": 0.31, ...}
    beliefs.role_probability()                      # {"Ben": {Role.LAWYER: 0.1, ...}}
    beliefs.sample(rng)                             # one assignment, for determinisation
"""

from __future__ import annotations

from .model import DEFAULT_MODEL, BehaviourModel
from .space import Posterior
from .tracker import Beliefs

__all__ = ["DEFAULT_MODEL", "BehaviourModel", "Beliefs", "Posterior"]
