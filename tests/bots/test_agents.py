"""The agent interface and the in-process driver: every seat plays through its view."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest

from korapsyon.bots import RandomAgent, seat_agents
from korapsyon.bots.agent import Prompt, play
from korapsyon.bots.text import render
from korapsyon.record import read_record, record_of, replay, write_record
from korapsyon.rules import Game, Role
from korapsyon.rules.actions import Action
from korapsyon.rules.events import CORRUPT, EVERYONE, BaseEvent, ClaimMade, CoaMuted
from korapsyon.rules.views import player_view
from korapsyon.selfplay import table


class _Recorder(RandomAgent):
    """A random agent that keeps what it was shown."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat
        self.events: list[BaseEvent] = []
        self.prompts: list[Prompt] = []

    def observe(self, events: Sequence[BaseEvent]) -> None:
        self.events += events

    def act(self, prompt: Prompt) -> Action | None:
        self.prompts.append(prompt)
        return super().act(prompt)


def test_each_agent_observes_exactly_the_events_its_seat_may_see() -> None:
    game = Game(table(11), seed=3)
    agents = {name: _Recorder(seat) for seat, name in enumerate(game.players)}
    play(game, agents, random.Random(3))
    for seat, name in enumerate(game.players):
        corrupt = game.roles[seat] is Role.CORRUPT_POLITICIAN
        expected = [
            e
            for e in game.events
            if e.audience in (EVERYONE, seat) or (corrupt and e.audience == CORRUPT)
        ]
        assert agents[name].events == expected
        for prompt in agents[name].prompts:
            assert prompt.player == name


def test_a_prompt_carries_the_seats_choices_and_its_full_view() -> None:
    game = Game(table(9), seed=1)
    seen: list[Prompt] = []

    class Keep(RandomAgent):
        def act(self, prompt: Prompt) -> Action | None:
            seen.append(prompt)
            return super().act(prompt)

    agents = {name: Keep(i) for i, name in enumerate(game.players)}
    play(game, agents, random.Random(1), max_actions=5)
    prompt = seen[0]
    view = prompt.view()
    assert view["you"]["name"] == prompt.player
    assert [c["action"] for c in view["you"]["choices"]] == [c.action for c in prompt.choices]


def test_heuristic_bots_talk_in_claims_that_the_record_keeps() -> None:
    game = Game(table(13), seed=8)
    play(game, seat_agents(game, "heuristic", 8), random.Random(8))
    claims = [e for e in game.events if isinstance(e, ClaimMade)]
    assert claims, "bots should make claims in the discussion"
    muted = {(e.year, game.players[e.audience]) for e in game.events if isinstance(e, CoaMuted)}
    assert not [c for c in claims if (c.year, c.player) in muted]
    again, stop = replay(read_record(write_record(record_of(game)))[0])
    assert stop is None and [e.to_wire() for e in again.events] == [
        e.to_wire() for e in game.events
    ]


@pytest.mark.parametrize("bots", ["heuristic", "random", "mix"])
def test_every_kind_of_bot_plays_every_player_count_to_the_end(bots: str) -> None:
    for players in range(9, 17):
        game = Game(table(players), seed=players)
        play(game, seat_agents(game, bots, players), random.Random(players))
        assert game.outcome is not None


def test_unknown_bot_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot kind"):
        seat_agents(Game(table(9)), "genius", 0)


def test_the_text_briefing_is_built_from_the_view_alone() -> None:
    game = Game(table(13), seed=4)
    play(game, seat_agents(game, "heuristic", 4), random.Random(4), max_actions=40)
    name = game.players[0]
    view = player_view(game, name)
    text = render(view)
    assert text.startswith(f"You are {name}, ")
    assert view["you"]["role_title"] in text
    others = {r.title for s, r in enumerate(game.roles) if s != 0} - {view["you"]["role_title"]}
    for title in others:  # nobody else's role is named in the players list
        assert f": revealed: {title}" not in text
    if view["you"]["choices"] and view["you"]["submitted"] is None:
        line = text.splitlines()[-1].strip()
        assert line.startswith('{"action": ')
    json.dumps(view)


def test_the_text_briefing_shows_as_many_recent_events_as_asked() -> None:
    """``timeline`` lines of the timeline, the latest last; 0 shows none (a language
    model's prompt kept short)."""
    game = Game(table(13), seed=4)
    play(game, seat_agents(game, "heuristic", 4), random.Random(4), max_actions=40)
    view = player_view(game, game.players[0])
    shown = [line for line in render(view, timeline=3).splitlines() if line.startswith("  Year ")]
    assert len(shown) == 3 and shown[-1].endswith(view["timeline"][-1]["text"])
    assert "Recent events:" not in render(view, timeline=0)
