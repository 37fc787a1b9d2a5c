"""The random agent: a uniformly random legal action among the choices offered.

Within one :class:`~korapsyon.rules.game.Choice` every field is drawn independently and a
committee is an unordered random sample, so each legal action of that choice is equally
likely.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..rules.actions import Action
from ..rules.game import Choice


def random_action(choices: Sequence[Choice], player: str, rng: random.Random) -> Action:
    """Draw one legal action for ``player`` from ``choices`` (which must not be empty)."""
    choice = choices[0] if len(choices) == 1 else rng.choice(choices)
    if choice.pick:
        return choice.build(
            player, members=tuple(rng.sample(choice.options["members"], choice.pick))
        )
    return choice.build(
        player, **{name: rng.choice(values) for name, values in choice.options.items()}
    )
