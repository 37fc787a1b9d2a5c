"""Bots play only through their seat's view: a bot given the view of a game that differs
only in facts hidden from it makes the same choices, with the same seed."""

from __future__ import annotations

import random
from collections.abc import Callable

from korapsyon.bots import HeuristicAgent, seat_agents
from korapsyon.bots.agent import Agent, Prompt, play, prompt_for
from korapsyon.bots.believer import BelieverAgent
from korapsyon.bots.search import Budget, SearchAgent
from korapsyon.bots.search.worlds import Table, build_world
from korapsyon.rules import Game, Role
from korapsyon.rules.actions import Action, JailVote
from korapsyon.rules.steps import Step
from tests.hidden_variants import hidden_state, random_setup, side_by_side, variation_for

AgentFactory = Callable[[Game, str], Agent]


def _asks(game: Game, name: str) -> Prompt | None:
    """The prompt the seat would get now, if it has something to decide."""
    if game.outcome is not None:
        return None
    if game.step is Step.DISCUSSION:
        seat = game.seat(name)
        return prompt_for(game, name, optional=True) if game.is_active(seat) else None
    if game.seat(name) in game.waiting_for:
        return prompt_for(game, name)
    return None


def _decisions_agree(make: AgentFactory, games: int) -> tuple[int, int]:
    """Compare one seat's bot in A and B over ``games`` pairs of heuristic games.
    Returns (decisions compared, of which with hidden facts differing)."""
    compared = differing = 0
    for seed in range(games):
        rng = random.Random(5000 + seed)
        a = random_setup(seed)
        play(a, seat_agents(a, "heuristic", seed), random.Random(seed))
        variation = variation_for(a, rng)
        if variation.viewer is None:
            variation.viewer = rng.randrange(len(a.players))
        name = a.players[variation.viewer]
        bot_a, bot_b = make(a, name), make(a, name)
        for moment in side_by_side(a, variation, rng):
            bot_a.observe(moment.seen_a)
            bot_b.observe(moment.seen_b)
            if not moment.same_public_state:
                continue
            prompt_a, prompt_b = _asks(moment.a, name), _asks(moment.b, name)
            if prompt_a is None or prompt_b is None:
                continue
            chosen_a: Action | None = bot_a.act(prompt_a)
            chosen_b: Action | None = bot_b.act(prompt_b)
            assert chosen_a == chosen_b, (seed, variation, len(moment.a.actions))
            compared += 1
            differing += hidden_state(moment.a) != hidden_state(moment.b)
    return compared, differing


def test_heuristic_bot_decides_only_on_what_its_seat_may_see() -> None:
    """60 pairs of heuristic games (9-16 players, both variants), any seat."""
    compared, differing = _decisions_agree(lambda game, name: HeuristicAgent(f"bot/{name}"), 60)
    assert differing >= 300, (compared, differing)  # the check has bite


def test_believer_bot_decides_only_on_what_its_seat_may_see() -> None:
    """12 pairs of games: its beliefs, hence its suspicion, come from its seat's view."""
    compared, differing = _decisions_agree(lambda game, name: BelieverAgent(f"bot/{name}"), 12)
    assert differing >= 50, (compared, differing)


class _PeekingAgent(HeuristicAgent):
    """A cheat: in jail votes it names a Corrupt Politician it cannot know about, read
    from ``true_roles`` (which the test fills with the game's real deal)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"bot/{name}")
        self.true_roles: dict[str, Role] = {}

    def act(self, prompt: Prompt) -> Action | None:
        if prompt.step is Step.JAIL_VOTE:
            for target in prompt.choices[0].options["target"]:
                if target is not None and self.true_roles[target] is Role.CORRUPT_POLITICIAN:
                    return JailVote(player=prompt.player, target=target)
        return super().act(prompt)


class _PeekingSearch(SearchAgent):
    """A cheat of the kind a determinised search could hide: its worlds hold the true
    roles (``true_roles``, filled by the test) instead of roles drawn from its beliefs.
    (Four worlds: with two, a roll-out's verdict rarely turns on the peek, and the harness
    needed 21 pairs of games to catch it, against 3.)"""

    def __init__(self, name: str) -> None:
        super().__init__(f"bot/{name}", budget=Budget(worlds=4, corrupt_worlds=4, options=2))
        self.true_roles: dict[str, Role] = {}

    def _worlds(self) -> list[Game]:
        beliefs, ruleset = self.beliefs, self.ruleset
        assert beliefs is not None and beliefs.seat is not None and ruleset is not None
        table = Table(beliefs.seat, beliefs.players, ruleset, tuple(self.events))
        roles = [self.true_roles[name] for name in beliefs.players]
        return [build_world(table, roles, self.rng) for _ in range(self.budget.worlds)]


def _harness_catches(make: Callable[[str], _PeekingAgent | _PeekingSearch], pairs: int) -> bool:
    """Whether some pair of games (with two other players' roles swapped) makes the bot
    choose differently on the same view when it is shown each game's true roles."""
    for seed in range(pairs):
        rng = random.Random(5000 + seed)
        a = random_setup(seed)
        play(a, seat_agents(a, "heuristic", seed), random.Random(seed))
        variation = variation_for(a, rng)
        if variation.viewer is None or variation.swap is None:
            continue
        name = a.players[variation.viewer]
        bot_a, bot_b = make(name), make(name)
        for moment in side_by_side(a, variation, rng):
            bot_a.observe(moment.seen_a)
            bot_b.observe(moment.seen_b)
            prompt_a, prompt_b = _asks(moment.a, name), _asks(moment.b, name)
            if not moment.same_public_state or prompt_a is None or prompt_b is None:
                continue
            bot_a.true_roles = dict(zip(moment.a.players, moment.a.roles, strict=True))
            bot_b.true_roles = dict(zip(moment.b.players, moment.b.roles, strict=True))
            if bot_a.act(prompt_a) != bot_b.act(prompt_b):
                return True
    return False


def test_the_harness_catches_a_bot_that_peeks() -> None:
    """The same comparison fails a bot that reads hidden roles."""
    assert _harness_catches(_PeekingAgent, 40), "a bot that reads hidden roles went unnoticed"


def test_the_harness_catches_a_search_bot_whose_worlds_peek() -> None:
    """... and a search bot that rolls out worlds holding the true roles."""
    assert _harness_catches(_PeekingSearch, 40), "a search bot's peeking worlds went unnoticed"


def test_search_bot_decides_only_on_what_its_seat_may_see() -> None:
    """The search bot (a small budget) in 3 pairs of games: its worlds, roll-outs and
    choices come from its seat's events and its seed alone."""
    budget = Budget(worlds=2, corrupt_worlds=2, options=2)
    compared, differing = _decisions_agree(
        lambda game, name: SearchAgent(f"bot/{name}", budget=budget), 3
    )
    assert differing >= 10, (compared, differing)
