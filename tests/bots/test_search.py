"""The search bot: legal play, worlds that reproduce exactly what the seat saw, and
reproducible games. (That it decides only on its seat's view: tests/bots/test_no_cheating.)"""

from __future__ import annotations

import random

import pytest

from korapsyon.bots import search, seat_agents
from korapsyon.bots.agent import Agent, Prompt, play
from korapsyon.bots.heuristic import CERTAIN, Board, HeuristicAgent
from korapsyon.bots.search import Budget, SearchAgent
from korapsyon.bots.search.options import Reading, candidate_actions
from korapsyon.bots.search.worlds import Inconsistent, Table, build_world
from korapsyon.record import record_of, write_record
from korapsyon.rules import Game, Role, Ruleset
from korapsyon.rules.actions import Action, JailVote
from korapsyon.rules.events import visible_to
from korapsyon.rules.steps import Step
from korapsyon.rules.views import player_view
from korapsyon.selfplay import table
from tests.hidden_variants import random_setup

SMALL = Budget(worlds=2, corrupt_worlds=2, options=2)


def _search_game(
    players: int, seed: int, searchers: str = "all", budget: Budget = SMALL
) -> tuple[Game, list[SearchAgent]]:
    game = Game(table(players), seed=seed, ruleset=Ruleset(max_years=3))
    agents: dict[str, Agent] = dict(seat_agents(game, "heuristic", seed))
    board = Board()
    searching: list[SearchAgent] = []
    for seat, name in enumerate(game.players):
        corrupt = game.roles[seat] is Role.CORRUPT_POLITICIAN
        if searchers == "all" or (searchers == "bad") == corrupt:
            agent = SearchAgent(f"{seed}/{seat}", board, budget)
            agents[name] = agent
            searching.append(agent)
    play(game, agents, random.Random(seed))
    return game, searching


def test_search_bots_in_every_seat_play_legal_games_to_the_end() -> None:
    """Game.apply refuses any illegal action: the games end, and the bots searched."""
    for seed in (1, 2):
        game, agents = _search_game(9, seed)
        assert game.outcome is not None
        searched = sum(agent.stats.searched for agent in agents)
        assert searched >= 20, searched
        worlds = sum(agent.stats.worlds for agent in agents)
        rejected = sum(agent.stats.rejected for agent in agents)
        assert worlds > 4 * rejected, (worlds, rejected)  # most draws rebuild


def test_a_search_game_is_reproducible_from_its_seed() -> None:
    first, _ = _search_game(9, 7, "bad")
    second, _ = _search_game(9, 7, "bad")
    assert write_record(record_of(first)) == write_record(record_of(second))


def test_a_world_reproduces_every_event_the_seat_saw_and_its_choices() -> None:
    """Over random tables and rulesets, any seat at any moment: a world rebuilt with the
    true roles always exists, and every world built (true roles or drawn ones) shows the
    seat exactly its events and offers it exactly its choices."""
    built = moments = 0
    for seed in range(6):
        game = random_setup(seed)
        play(game, seat_agents(game, "heuristic", seed), random.Random(seed))
        rng = random.Random(seed)
        for _ in range(6):
            cut = rng.randrange(1, len(game.actions))
            seat = rng.randrange(len(game.players))
            moment = Game(
                game.players,
                roles=game.roles,
                seed=game.seed,
                ruleset=game.ruleset,
                decks=game.initial_decks,
            )
            for action in game.actions[:cut]:
                moment.apply(action)
            if moment.outcome is not None:
                continue
            corrupt = game.roles[seat] is Role.CORRUPT_POLITICIAN
            seen = tuple(e for e in moment.events if visible_to(e, seat, corrupt))
            view = Table(seat, game.players, game.ruleset, seen)
            name = game.players[seat]
            moments += 1
            tries: list[tuple[Role, ...]] = [game.roles]
            for _ in range(3):  # other deals: a world, or an honest refusal
                other = list(game.roles)
                rng.shuffle(other)
                tries.append(tuple(other))
            for number, roles in enumerate(tries):
                try:
                    world = build_world(view, roles, random.Random(number))
                except Inconsistent:
                    assert number > 0, (seed, cut, seat)  # the truth always rebuilds
                    continue
                built += 1
                shown = tuple(e for e in world.events if visible_to(e, seat, corrupt))
                assert shown == seen
                assert world.step == moment.step and world.year == moment.year
                assert world.choices(name) == moment.choices(name)
                mine, theirs = player_view(world, name), player_view(moment, name)
                assert mine["players"] == theirs["players"]
                assert mine["public_spending"] == theirs["public_spending"]
    assert moments >= 25 and built >= moments, (moments, built)


def test_a_corrupt_seat_weighs_the_table_s_suspect_and_the_likeliest_good_politician() -> None:
    """A Corrupt seat knows everyone outside its team is Good, so its beliefs cannot rank
    them for a jail vote: its alternatives are the likeliest Good Politician (a step to the
    Good Purge, R-50) and the players the table suspects most (a vote that can carry,
    R-36) - never merely the first names in the alphabet."""
    game = Game(table(9), seed=3)
    while game.step is not Step.JAIL_VOTE:  # every decision the timer's default
        assert game.outcome is None
        seat = min(game.waiting_for)
        game.apply(game.default_action(game.players[seat] if seat >= 0 else "@host"))
    corrupt = next(s for s in game.to_act if game.roles[s] is Role.CORRUPT_POLITICIAN)
    me = game.players[corrupt]
    goods = [n for s, n in enumerate(game.players) if game.roles[s] is not Role.CORRUPT_POLITICIAN]
    targets = set(game.choices(me)[0].options["target"]) - {None}
    suspected, second, politician = sorted(n for n in goods if n in targets)[-3:]
    table_suspicion = dict.fromkeys(game.players, 0.0) | {suspected: 3.0, second: 2.0}
    odds = dict.fromkeys(game.players, 0.1) | {politician: 0.9}
    reading = Reading(
        True,
        {n: 0.0 if n not in goods else 1.0 for n in game.players},
        table_suspicion,
        lambda: odds,
    )
    prompt = Prompt(me, game.year, Step.JAIL_VOTE, game.choices(me))
    proposal = JailVote(player=me, target=suspected)
    options = candidate_actions(prompt, proposal, reading, 3)
    assert [o.target for o in options if isinstance(o, JailVote)] == [suspected, politician, second]


def test_a_corrupt_seat_reads_the_table_as_corrupt_and_searches_its_own_worlds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each seat ranks its options as its own team (a Corrupt seat as Corrupt) and draws
    the worlds its side's budget gives: here 3 a decision in a Corrupt seat, 1 in a Good
    one (a world that cannot be rebuilt is drawn again, so at most that many)."""
    readings: dict[str, set[bool]] = {}

    def watched(prompt: Prompt, proposal: Action, reading: Reading, limit: int) -> list[Action]:
        readings.setdefault(prompt.player, set()).add(reading.corrupt)
        return candidate_actions(prompt, proposal, reading, limit)

    monkeypatch.setattr(search, "candidate_actions", watched)
    game, agents = _search_game(9, 4, budget=Budget(worlds=1, corrupt_worlds=3, options=2))
    corrupt = {game.players[s] for s, r in enumerate(game.roles) if r is Role.CORRUPT_POLITICIAN}
    assert readings and all(seen == {name in corrupt} for name, seen in readings.items())
    for agent in agents:
        stats = agent.stats
        assert stats.searched > 0
        if agent.role is Role.CORRUPT_POLITICIAN:
            assert stats.searched < stats.worlds <= 3 * stats.searched
        else:
            assert 0 < stats.worlds <= stats.searched


def test_a_good_seat_s_roll_out_teammates_suspect_as_its_beliefs_do() -> None:
    """At the moment of the decision, a Good roll-out bot given the seat's lean, fed the
    seat's own events, suspects every player the seat is unsure of exactly as the seat's
    believer does: the roll-outs model teammates who read the table with beliefs, not the
    heuristic's score alone. (What either is sure of is not passed on.)"""
    game = Game(table(13), seed=4)
    play(game, seat_agents(game, "heuristic", 4), random.Random(4), max_actions=120)
    assert game.outcome is None
    seat = next(s for s, r in enumerate(game.roles) if r is Role.GOOD_POLITICIAN)
    seen = [e for e in game.events if visible_to(e, seat, False)]
    agent = SearchAgent("bot")
    agent.observe(seen)
    believed, plain = agent.inner.scores(), HeuristicAgent.scores(agent.inner)
    leaning = search._Leaning("roll-out", Board(), agent._lean())
    leaning.observe(seen)
    unsure = [s for s in range(13) if max(abs(believed[s]), abs(plain[s])) < CERTAIN]
    assert len(unsure) >= 5, unsure
    assert [leaning.scores()[s] for s in unsure] == pytest.approx([believed[s] for s in unsure])
    assert max(abs(believed[s] - plain[s]) for s in unsure) > 0.5  # (the two do differ)
