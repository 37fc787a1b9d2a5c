"""The believer bot: a Good seat's suspicion is its beliefs, and that wins games; a Corrupt
seat plays exactly as the heuristic. (That it decides only on its seat's view:
tests/bots/test_no_cheating.)"""

from __future__ import annotations

import math
import random

from korapsyon.bots import seat_agents
from korapsyon.bots.agent import play
from korapsyon.bots.believer import SCALE, BelieverAgent
from korapsyon.bots.heuristic import CERTAIN
from korapsyon.record import record_of, write_record
from korapsyon.rules import Game, Role, Ruleset
from korapsyon.rules.events import visible_to
from korapsyon.rules.outcome import Winner
from korapsyon.selfplay import table

TUNED = Ruleset(public_spending_target=27, corruption_fund_target=14)
"""docs/BALANCE.md's 13-player targets, where heuristic Good and Corrupt are even."""


def _game(kinds: str, seed: int, ruleset: Ruleset = TUNED) -> Game:
    game = Game(table(13), seed=seed, ruleset=ruleset)
    play(game, seat_agents(game, kinds, seed), random.Random(seed))
    assert game.outcome is not None
    return game


def _good_won(kinds: str, seed: int) -> bool:
    outcome = _game(kinds, seed).outcome
    return outcome is not None and outcome.winner is Winner.GOOD


def test_a_good_seat_suspects_what_its_beliefs_say_and_is_sure_of_what_it_knows() -> None:
    """Mid-game, a Good believer's suspicion of each player is its beliefs' log-odds of
    Corrupt against the base rate, and a player it knows (itself) is certain."""
    game = Game(table(13), seed=3, ruleset=TUNED)
    seat = next(s for s, r in enumerate(game.roles) if r is Role.GOOD_POLITICIAN)
    bot = BelieverAgent("bot")
    agents = seat_agents(game, "heuristic", 3)
    play(game, agents, random.Random(3), max_actions=200)
    bot.observe([e for e in game.events if visible_to(e, seat, False)])
    assert bot.beliefs is not None
    scores = bot.scores()
    assert scores[seat] == -CERTAIN
    odds = bot.beliefs.corrupt_probability()
    rate = 3 / 12
    compared = 0
    for other, player in enumerate(game.players):
        p = odds[player]
        if other == seat or not 1e-4 < p < 1 - 1e-4:
            continue
        expected = SCALE * (math.log(p / (1 - p)) - math.log(rate / (1 - rate)))
        assert scores[other] == expected or abs(scores[other]) >= CERTAIN, (player, p)
        compared += abs(scores[other]) < CERTAIN
    assert compared >= 5, compared  # Year 5: most of the table is still in doubt


def test_believer_good_wins_far_more_than_heuristic_good_on_the_same_deals() -> None:
    """40 deals of the tuned 13-player rules against heuristic Corrupt (measured on 400:
    94.8% against 51.2%, docs/BOTS.md): at least 8 more wins."""
    believer = sum(_good_won("believer:heuristic", seed) for seed in range(40))
    heuristic = sum(_good_won("heuristic", seed) for seed in range(40))
    assert believer >= heuristic + 8, (believer, heuristic)


def test_a_corrupt_believer_plays_exactly_as_the_heuristic() -> None:
    for seed in (1, 2):
        mixed = _game("heuristic:believer", seed, Ruleset())
        plain = _game("heuristic", seed, Ruleset())
        assert write_record(record_of(mixed)) == write_record(record_of(plain))
