"""The random agent: a uniformly random legal action among the choices offered.

Within one :class:`~korapsyon.rules.game.Choice` every field is drawn independently and a
committee is an unordered random sample, so each legal action of that choice is equally
likely. In the discussion it never talks; as Ombudsperson it invokes Witness half the time
it may.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..rules.actions import Action
from ..rules.events import BaseEvent
from ..rules.game import Choice
from .agent import Prompt


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


class RandomAgent:
    """Plays a seat with uniformly random legal actions."""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)

    def observe(self, events: Sequence[BaseEvent]) -> None:
        """A random player remembers nothing."""

    def act(self, prompt: Prompt) -> Action | None:
        if prompt.optional:
            if prompt.choices and self.rng.random() < 0.5:
                return random_action(prompt.choices, prompt.player, self.rng)
            return None
        return random_action(prompt.choices, prompt.player, self.rng)
