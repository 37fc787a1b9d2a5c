"""The agent interface: how anything that is not a person plays a seat.

An agent sees exactly what its player may see, and nothing else:

* :meth:`Agent.observe` receives, in order, every event visible to the seat (public events,
  the seat's own private events, and the Corrupt team's events if the seat is Corrupt) —
  the same events the seat's :func:`~korapsyon.rules.views.player_view` is built from;
* :meth:`Agent.act` receives a :class:`Prompt`: the seat's legal choices now (the view's
  ``you.choices``, and the claims it may make: the view's ``you.claims`` but for a COA
  silenced by Suhol, whose screen shows claims it may not make, R-35), and, on request, the
  whole player view as JSON data.

It answers with one action chosen from those choices (or ``None`` when the prompt is
optional: in the discussion, where talking is free). The simulator, the server's bot seats
and third-party agents all use this interface; :class:`Moderator` is the in-process driver
(:func:`play` runs it to the end of a game).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..rules.actions import HOST, Action, EndDiscussion
from ..rules.events import BaseEvent, recipients
from ..rules.game import Choice, Game
from ..rules.roles import CORRUPT_POLITICIAN
from ..rules.state import DISCUSSION
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


def remembers_nothing(observe: Callable[[Any, Sequence[BaseEvent]], None]) -> Any:
    """Marks an agent's ``observe`` that ignores what it is given: a table whose agents'
    ``observe`` are all so marked is sent no events (a subclass that overrides ``observe``
    is sent them again)."""
    observe.remembers_nothing = True  # type: ignore[attr-defined]
    return observe


def _observes(agent: Agent) -> bool:
    return not getattr(type(agent).observe, "remembers_nothing", False)


def prompt_for(game: Game, player: str, *, optional: bool = False) -> Prompt:
    """The prompt of ``player`` now, as its view shows it."""
    step = game.step
    assert step is not None
    return Prompt(
        player,
        game.year,
        step,
        game.choices(player),
        game.claim_choices(player) if step is DISCUSSION else [],
        optional,
        lambda: player_view(game, player),
    )


class _Postman:
    """Delivers each new event to the agents allowed to see it (events.visible_to)."""

    def __init__(self, game: Game, agents: Mapping[str, Agent]) -> None:
        self.agents = [agents[name] for name in game.players]
        self.corrupt = [s for s, r in enumerate(game.roles) if r is CORRUPT_POLITICIAN]

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


class Moderator:
    """The one driver: it plays the moderator's part for a table of agents.

    It asks the seats that must act, in a random order (with ``resubmit``, a seat that has
    already submitted in this step is sometimes asked again, and its last submission
    counts: players change their minds); in the discussion it gives every active seat
    ``talk_rounds`` chances to talk (claims, or the Ombudsperson's Witness), in a fresh
    random order each round, then closes the discussion as the host. Before an agent is
    asked, it is given every new event it may see, however the game got them.

    :meth:`next_action` says what happens next without applying it (the property tests
    check each action before and after it is applied); :func:`play` applies them.
    """

    def __init__(
        self,
        game: Game,
        agents: Mapping[str, Agent],
        rng: random.Random,
        *,
        talk_rounds: int = 1,
        resubmit: float = 0.0,
    ) -> None:
        self.game = game
        self.agents = agents
        self.rng = rng
        self.talk_rounds = talk_rounds
        self.resubmit = resubmit
        self._postman = _Postman(game, agents)
        self._listening = any(_observes(agent) for agent in agents.values())
        self._delivered = 0
        self._rounds_left: int | None = None  # talk rounds left in this discussion
        self._speakers: list[int] = []  # still to be asked in this round, last first

    def deliver(self) -> None:
        """Give the agents the events that are new since the last time."""
        events = self.game.events
        if len(events) > self._delivered and self._listening:
            self._postman.deliver(events[self._delivered :])
        self._delivered = len(events)

    def next_action(self) -> Action:
        """The next action: a seat's answer, or the host's end of the discussion."""
        self.deliver()
        game = self.game
        if game.step is DISCUSSION:
            return self._discussion()
        self._rounds_left = None
        rng = self.rng
        if self.resubmit and game.pending and rng.random() < self.resubmit:
            seat = rng.choice(sorted(game.pending))
        else:
            seat = rng.choice(sorted(game.waiting_for))
        name = game.players[seat]
        action = self.agents[name].act(prompt_for(game, name))
        if action is None:
            raise ValueError(f"{name}'s agent passed a prompt that needs an answer")
        return action

    def _discussion(self) -> Action:
        game = self.game
        if self._rounds_left is None:
            self._rounds_left = self.talk_rounds
        while True:
            if not self._speakers:
                if not self._rounds_left:
                    self._rounds_left = None
                    return EndDiscussion(player=HOST)
                self._rounds_left -= 1
                speakers = game.active_seats()
                self.rng.shuffle(speakers)
                self._speakers = speakers[::-1]
                continue
            name = game.players[self._speakers.pop()]
            action = self.agents[name].act(prompt_for(game, name, optional=True))
            if action is not None:
                return action


def play(
    game: Game,
    agents: Mapping[str, Agent],
    rng: random.Random,
    *,
    talk_rounds: int = 1,
    resubmit: float = 0.0,
    max_actions: int | None = None,
) -> Game:
    """Play ``game`` to its end (or ``max_actions``) with an agent in every seat, the
    :class:`Moderator` asking them."""
    moderator = Moderator(game, agents, rng, talk_rounds=talk_rounds, resubmit=resubmit)
    taken = 0
    while game.outcome is None and (max_actions is None or taken < max_actions):
        game.apply(moderator.next_action())
        taken += 1
    moderator.deliver()
    return game
