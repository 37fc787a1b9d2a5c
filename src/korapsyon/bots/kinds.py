"""The names of the kinds of bot (kept apart so the command line can list them cheaply)."""

AGENT_KINDS = ("heuristic", "random", "search")
"""The kinds of agent one seat may hold."""

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
