"""The agent interface: how anything that is not a person plays a seat.

An agent sees exactly what its player may see, and nothing else:

* :meth:`Agent.observe` receives, in order, every event visible to the seat (public events,
  the seat's own private events, and the Corrupt team's events if the seat is Corrupt) —
  the same events the seat's :func:`~korapsyon.rules.views.player_view` is built from;
* :meth:`Agent.act` receives a :class:`Prompt`: the seat's legal choices now (the view's
  ``you.choices`` and ``you.claims``), and, on request, the whole player view as JSON data.

It answers with one action chosen from those choices (or ``None`` when the prompt is
optional: in the discussion, where talking is free). The simulator, the server's bot seats
and third-party agents all use this interface; :func:`play` is the in-process driver.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..rules.actions import HOST, Action, EndDiscussion
from ..rules.events import BaseEvent, recipients
from ..rules.game import Choice, Game
from ..rules.roles import Role
from ..rules.steps import Step
from ..rules.views import player_view


@dataclass
class Prompt:
    """What a seat is asked now. ``optional`` prompts (the discussion) may be passed."""

    player: str
    year: int
    step: Step
    choices: list[Choice]
    claims: list[Choice] = field(default_factory=list)
    optional: bool = False
    _view: Callable[[], dict[str, Any]] | None = field(default=None, repr=False)

    def view(self) -> dict[str, Any]:
        """The seat's full player view (plain JSON data), computed on request."""
        if self._view is None:
            raise LookupError("this prompt carries no view")
        return self._view()


class Agent(Protocol):
    """Plays one seat through that seat's view."""

    def observe(self, events: Sequence[BaseEvent]) -> None:
        """New events visible to this seat, in order."""

    def act(self, prompt: Prompt) -> Action | None:
        """An action from ``prompt.choices`` (or ``prompt.claims``), or None to pass an
        optional prompt."""


def prompt_for(game: Game, player: str, *, optional: bool = False) -> Prompt:
    """The prompt of ``player`` now, as its view shows it."""
    step = game.step
    assert step is not None
    return Prompt(
        player,
        game.year,
        step,
        game.choices(player),
        game.claim_choices(player) if step is Step.DISCUSSION else [],
        optional,
        lambda: player_view(game, player),
    )


class _Postman:
    """Delivers each new event to the agents allowed to see it (events.visible_to)."""

    def __init__(self, game: Game, agents: Mapping[str, Agent]) -> None:
        self.agents = [agents[name] for name in game.players]
        self.corrupt = [s for s, r in enumerate(game.roles) if r is Role.CORRUPT_POLITICIAN]

    def deliver(self, events: Sequence[BaseEvent]) -> None:
        if len(events) == 1 and events[0].audience >= 0:  # most actions: the actor's receipt
            self.agents[events[0].audience].observe(events)
            return
        boxes: list[list[BaseEvent]] = [[] for _ in self.agents]
        players = len(boxes)
        for event in events:
            for seat in recipients(event, players, self.corrupt):
                boxes[seat].append(event)
        for agent, box in zip(self.agents, boxes, strict=True):
            if box:
                agent.observe(box)


def play(
    game: Game,
    agents: Mapping[str, Agent],
    rng: random.Random,
    *,
    talk_rounds: int = 1,
    max_actions: int | None = None,
) -> Game:
    """Play ``game`` to its end (or ``max_actions``) with an agent in every seat.

    The driver is the moderator: it asks the seats that must act, in a random order; in the
    discussion it gives every active seat ``talk_rounds`` chances to talk (claims, or the
    Ombudsperson's Witness), then closes the discussion as the host.
    """
    postman = _Postman(game, agents)
    postman.deliver(game.events)
    names = game.players
    apply = game.apply
    taken = 0
    while game.outcome is None and (max_actions is None or taken < max_actions):
        if game.step is Step.DISCUSSION:
            for _ in range(talk_rounds):
                speakers = game.active_seats()
                rng.shuffle(speakers)
                for seat in speakers:
                    name = names[seat]
                    action = agents[name].act(prompt_for(game, name, optional=True))
                    if action is not None:
                        postman.deliver(apply(action))
                        taken += 1
            postman.deliver(apply(EndDiscussion(player=HOST)))
            taken += 1
            continue
        seat = rng.choice(sorted(game.waiting_for))
        name = names[seat]
        action = agents[name].act(prompt_for(game, name))
        if action is None:
            raise ValueError(f"{name}'s agent passed a prompt that needs an answer")
        postman.deliver(apply(action))
        taken += 1
    return game
