"""The names of the kinds of bot: what a run (``--bots``) and a room's seat may ask for."""

from typing import Literal, get_args

AgentKind = Literal["heuristic", "random", "search"]
"""The kinds of agent one seat may hold: in a run, and at a server's table
(``POST /api/rooms/{code}/bots``)."""

AGENT_KINDS: tuple[AgentKind, ...] = get_args(AgentKind)

BOT_KINDS = (
    "heuristic",
    "random",
    "search",
    "mix",
    "heuristic:random",
    "random:heuristic",
    "search:heuristic",
    "heuristic:search",
)
"""One kind everywhere, a 50/50 heuristic/random ``mix``, or GOOD:BAD teams."""
