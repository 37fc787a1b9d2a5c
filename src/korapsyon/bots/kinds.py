"""The names of the kinds of bot: what a run (``--bots``) and a room's seat may ask for."""

from typing import Literal, get_args

SeatKind = Literal["heuristic", "random", "search"]
"""The kinds a server's table offers (``POST /api/rooms/{code}/bots``): a smart, a random
and an expert bot. The ``believer`` is left out: it is the expert's own first thought
(docs/BOTS.md), and a fourth shade of clever would ask a host to tell apart names that
say little."""

SEAT_KINDS: tuple[SeatKind, ...] = get_args(SeatKind)

AgentKind = Literal[SeatKind, "believer"]
"""The kinds of agent one seat of a run may hold."""

AGENT_KINDS: tuple[AgentKind, ...] = get_args(AgentKind)

BOT_KINDS = (
    "heuristic",
    "random",
    "believer",
    "search",
    "mix",
    "heuristic:random",
    "random:heuristic",
    "believer:heuristic",
    "heuristic:believer",
    "search:heuristic",
    "heuristic:search",
    "believer:search",
)
"""One kind everywhere, a 50/50 heuristic/random ``mix``, or GOOD:BAD teams
(``believer``: both sides read beliefs, docs/BALANCE.md's second generation;
``believer:search``: the strongest Good team for its cost against the strongest Corrupt
one, docs/BALANCE.md)."""
