"""The random agent: a uniformly random legal action among the choices offered.

Within one :class:`~korapsyon.rules.game.Choice` every field is drawn independently and a
committee is an unordered random sample, so each legal action of that choice is equally
likely. In the discussion it never talks; as Ombudsperson it invokes Witness half the time
it may.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from ..rules.actions import Action
from ..rules.events import BaseEvent
from ..rules.game import Choice
from .agent import Prompt, remembers_nothing

C = TypeVar("C")


def random_pick(choices: Sequence[C], rng: random.Random) -> C:
    """One of ``choices`` (which must not be empty), uniformly; no draw when there is one."""
    return choices[0] if len(choices) == 1 else rng.choice(choices)


def random_fields(
    pick: int, options: Mapping[str, Sequence[Any]], rng: random.Random
) -> dict[str, Any]:
    """A uniformly random legal value for each field of a choice: ``pick`` distinct
    ``members`` (a committee), or one value of each option. A choice's ``pick`` and
    ``options`` are the same in the engine and in a view's JSON, so the harnesses that
    play from views over the wire draw with this too."""
    if pick:
        return {"members": tuple(rng.sample(options["members"], pick))}
    return {name: rng.choice(values) for name, values in options.items()}


def random_action(choices: Sequence[Choice], player: str, rng: random.Random) -> Action:
    """Draw one legal action for ``player`` from ``choices`` (which must not be empty)."""
    choice = random_pick(choices, rng)
    return choice.build(player, **random_fields(choice.pick, choice.options, rng))


def random_wire_action(
    choices: Sequence[Mapping[str, Any]], player: str, rng: random.Random
) -> dict[str, Any]:
    """The same draw from a view's JSON ``choices``: the action as a client sends it."""
    choice = random_pick(choices, rng)
    fields = random_fields(choice["pick"], choice["options"], rng)
    return {"action": choice["action"], "player": player, **fields}


class RandomAgent:
    """Plays a seat with uniformly random legal actions."""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)

    @remembers_nothing
    def observe(self, events: Sequence[BaseEvent]) -> None:
        """A random player remembers nothing."""

    def act(self, prompt: Prompt) -> Action | None:
        if prompt.optional:
            if prompt.choices and self.rng.random() < 0.5:
                return random_action(prompt.choices, prompt.player, self.rng)
            return None
        return random_action(prompt.choices, prompt.player, self.rng)
