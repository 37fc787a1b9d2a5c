"""The believer bot: a Good seat's suspicion is its beliefs, and that wins games; a Corrupt
seat reads the public's beliefs, hides what they would see, and that wins games back. (That
it decides only on its seat's view: tests/bots/test_no_cheating.)"""

from __future__ import annotations

import functools
import math
import random

from korapsyon.bots import seat_agents
from korapsyon.bots.agent import play
from korapsyon.bots.beliefs import Beliefs
from korapsyon.bots.believer import SCALE, BelieverAgent
from korapsyon.bots.heuristic import CERTAIN, HeuristicAgent
from korapsyon.record import record_of, write_record
from korapsyon.rules import Game, Role, Ruleset
from korapsyon.rules.actions import Corrupt
from korapsyon.rules.events import (
    EVERYONE,
    ClaimMade,
    CommitteeNamed,
    PlayerEliminated,
    PresidencyEnded,
    PresidentElected,
    TokhangPaid,
    visible_to,
)
from korapsyon.rules.outcome import Winner
from korapsyon.selfplay import table

CORRUPT = Role.CORRUPT_POLITICIAN
TUNED = Ruleset(public_spending_target=27, corruption_fund_target=14)
"""The heuristic's tuned 13-player targets of 5 December (docs/BALANCE.md, history), where
heuristic Good and Corrupt are even."""
NINE = Ruleset(public_spending_target=19, corruption_fund_target=8)
"""Its 9-player targets: the win-rate tests play 9 players, where a believer game costs a
third of a 13-player one and the generations differ as much (measured on 6 December:
heuristic 54.0%, believer Good against heuristic Corrupt 90.0%, believer both sides
74.0%)."""


def _game(kinds: str, seed: int, ruleset: Ruleset = TUNED, *, players: int = 13) -> Game:
    game = Game(table(players), seed=seed, ruleset=ruleset)
    play(game, seat_agents(game, kinds, seed), random.Random(seed))
    assert game.outcome is not None
    return game


@functools.cache
def _game_at_nine(kinds: str, seed: int) -> Game:
    """Deal ``seed`` of 9 players under NINE, played (kept: several tests read the same
    believer games)."""
    return _game(kinds, seed, NINE, players=9)


def _good_won_at_nine(kinds: str, seed: int) -> bool:
    outcome = _game_at_nine(kinds, seed).outcome
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
    """60 deals of 9 players against heuristic Corrupt (55 against 32 here): at least 12
    more wins."""
    believer = sum(_good_won_at_nine("believer:heuristic", seed) for seed in range(60))
    heuristic = sum(_good_won_at_nine("heuristic", seed) for seed in range(60))
    assert believer >= heuristic + 12, (believer, heuristic)


def test_a_corrupt_believer_that_does_not_hide_plays_exactly_as_the_heuristic() -> None:
    """``hides=False`` is the search bot's first thought in a Corrupt seat: the heuristic's
    play, so the search figures measured with it stay true."""
    for seed in (1, 2):
        plain = _game("heuristic", seed, Ruleset())
        game = Game(table(13), seed=seed, ruleset=Ruleset())
        agents = seat_agents(game, "heuristic", seed)
        shared = next(iter(agents.values()))
        assert isinstance(shared, HeuristicAgent)
        for seat, (name, role) in enumerate(zip(game.players, game.roles, strict=True)):
            if role is CORRUPT:
                agents[name] = BelieverAgent(f"{seed}/{seat}", shared.board, hides=False)
        play(game, agents, random.Random(seed))
        assert write_record(record_of(game)) == write_record(record_of(plain))


def test_a_corrupt_seat_believes_what_the_public_can_and_reads_it_as_the_table() -> None:
    """A Corrupt believer's beliefs are the public view's (fed its public events only),
    and its table suspicion is their log-odds against the base rate."""
    game = Game(table(13), seed=4, ruleset=TUNED)
    seat = game.roles.index(Role.CORRUPT_POLITICIAN)
    play(game, seat_agents(game, "heuristic", 4), random.Random(4), max_actions=200)
    bot = BelieverAgent("bot")
    bot.observe([e for e in game.events if visible_to(e, seat, True)])
    assert bot.table is not None and bot.table.seat is None
    public = Beliefs.start([e for e in game.events if e.audience == EVERYONE])
    odds = public.corrupt_probability()
    rate = 3 / 13
    for other, player in enumerate(game.players):
        p = odds[player]
        if 1e-4 < p < 1 - 1e-4:
            expected = SCALE * (math.log(p / (1 - p)) - math.log(rate / (1 - rate)))
            assert bot.table_suspicion(other) == expected, player


def test_a_corrupt_believer_president_picks_and_names_as_a_good_one_would() -> None:
    """It takes the Large card only when a Good President would, and keeps the team off
    a committee of 3 or fewer while no COA is revealed (a kickback there points at one of
    at most three players)."""
    small_committees = 0
    for seed in range(12):
        game = _game("believer", seed)
        corrupt = {p for p, r in zip(game.players, game.roles, strict=True) if r is CORRUPT}
        president, coa_revealed = None, False
        for event in game.events:
            if isinstance(event, PresidentElected):
                president = event.president
            elif isinstance(event, PresidencyEnded):
                president = None
            elif isinstance(event, PlayerEliminated) and event.role is Role.COA:
                coa_revealed = True
            elif (
                president in corrupt
                and isinstance(event, CommitteeNamed)
                and len(event.members) <= 3
                and not coa_revealed
            ):
                small_committees += 1
                assert not corrupt & set(event.members), (seed, event)
    assert small_committees >= 3  # the case arose (a heuristic Corrupt takes the Large card)


def test_a_corrupt_believer_never_claims_a_finding_the_ombudsperson_could_contradict() -> None:
    """A hiding Corrupt seat bluffs no investigation (there is one Ombudsperson, R-02), where
    the heuristic's Corrupt seats, on the same deals, do."""

    def bluffs(kinds: str) -> int:
        count = 0
        for seed in range(12):
            game = _game(kinds, seed)
            corrupt = {p for p, r in zip(game.players, game.roles, strict=True) if r is CORRUPT}
            count += sum(
                isinstance(e, ClaimMade) and e.claim == "investigation" and e.player in corrupt
                for e in game.events
            )
        return count

    assert bluffs("believer") == 0
    assert bluffs("believer:heuristic") >= 3  # the case arises


def test_believer_corrupt_win_back_against_believer_good_on_the_same_deals() -> None:
    """60 deals of 9 players (36 against 55 here; at 13 players, on the ladder's 400 deals,
    far more, docs/BOTS.md): at least 12 fewer Good wins."""
    both = sum(_good_won_at_nine("believer", seed) for seed in range(60))
    good_only = sum(_good_won_at_nine("believer:heuristic", seed) for seed in range(60))
    assert both <= good_only - 12, (both, good_only)


def _corrupt_choices(game: Game) -> list[Corrupt]:
    return [a for a in game.actions if isinstance(a, Corrupt)]


def test_R25_a_corrupt_believer_steals_every_night() -> None:
    """A Corrupt who hides takes the Nakaw every night, also when a teammate's jailing
    changed the amount: a missing steal tells the table as much as a smaller one. The
    heuristic's Corrupt skip it then (46 of their 376 night choices on the same deals)."""
    hiding = [c for seed in range(60) for c in _corrupt_choices(_game_at_nine("believer", seed))]
    plain = [
        c for seed in range(60) for c in _corrupt_choices(_game_at_nine("believer:heuristic", seed))
    ]
    assert len(hiding) >= 300 and all(c.nakaw for c in hiding)
    assert sum(not c.nakaw for c in plain) >= 20


def test_R25_R50_a_corrupt_believer_pays_for_tokhang_only_to_end_the_game() -> None:
    """A Corrupt who hides pays for Tokhang (half the Fund's target, R-05) only on the last
    player claiming Good Politician once another was revealed: the Good Purge (R-50). The
    heuristic's Corrupt also pay for it on a dangerous player (30 times in the same deals,
    each before any Good Politician was revealed)."""

    def early(kinds: str) -> int:
        """Tokhangs paid before any Good Politician was revealed."""
        count = 0
        for seed in range(60):
            revealed = False
            for event in _game_at_nine(kinds, seed).events:
                if isinstance(event, PlayerEliminated) and event.role is Role.GOOD_POLITICIAN:
                    revealed = True
                elif isinstance(event, TokhangPaid):
                    count += not revealed
        return count

    assert early("believer") == 0
    assert early("believer:heuristic") >= 15
