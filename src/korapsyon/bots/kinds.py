"""The names of the kinds of bot (kept apart so the command line can list them cheaply)."""

BOT_KINDS = ("heuristic", "random", "mix", "heuristic:random", "random:heuristic")
"""``heuristic`` and ``random`` everywhere, a 50/50 ``mix``, or GOOD:BAD teams."""
