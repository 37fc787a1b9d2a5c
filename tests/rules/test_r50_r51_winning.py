"""R-50 and R-51: how the game ends."""

from __future__ import annotations

import pytest

from korapsyon.record import summarize
from korapsyon.rules import Game, Outcome, Termination, Winner
from korapsyon.rules.actions import Ready
from korapsyon.rules.events import (
    EVERYONE,
    AuditDelivered,
    GameOver,
    PlayerEliminated,
    Revenue,
    StepStarted,
    TreasuryReport,
)
from korapsyon.rules.views import public_view
from tests.scenario import (
    STEAL,
    after_night,
    build_up,
    corrupt,
    discuss,
    elect,
    everyone,
    jail_vote,
    night,
    of_type,
    outcome_of,
    project,
    public_texts,
    quiet_year,
    refused,
    small_table,
    step_of,
    table,
    until_jail_vote,
    yes_no_vote,
)

CORRUPT_NAMES = ("Cris", "Dani", "Mia")


def outcome(game: Game) -> tuple[str, str, str]:
    assert game.outcome is not None
    return (game.outcome.winner, game.outcome.reason, game.outcome.rule)


def over(game: Game) -> None:
    """A finished game: no step, nobody to act, every action refused."""
    assert game.is_over
    assert step_of(game) is None
    assert summarize(game)["status"] == "finished"
    refused(game, Ready(player="Hugo"), "R-50", "game_over")
    assert game.choices("Hugo") == []


# ---------------------------------------------------------------- R-50 thresholds
def test_R50_good_wins_when_public_spending_reaches_its_target() -> None:
    game = table()
    build_up(game)  # 15 of 24
    night(game)
    project(game, "L4", ["Ana", "Ben", "Eli", "Fe", "Gil"])  # 20
    discuss(game)
    jail_vote(game, {})
    assert game.outcome is None
    night(game)
    elect(game, "Ana")
    project(game, "L5", ["Ana", "Ben", "Eli", "Fe", "Gil"])  # 24
    discuss(game)
    jail_vote(game, {})
    assert outcome(game) == ("good", "public_spending", "R-50")
    assert game.public_spending == 24
    over(game)
    (end,) = of_type(game.events, GameOver)
    assert end.audience == EVERYONE
    assert "Good wins: Approved Public Spending reached its target." in public_texts(game)
    assert {p["role"] for p in public_view(game)["players"]} >= {"corrupt_politician"}


def test_R50_bad_wins_when_the_corruption_fund_reaches_its_target() -> None:
    game = table()
    build_up(game)  # Fund 13 of 20
    night(game, **STEAL)  # 16
    project(game, "L4", ["Ana", "Ben", "Cris", "Eli", "Fe"])  # kickback 3: 19
    discuss(game)
    jail_vote(game, {})
    assert game.outcome is None
    until_jail_vote(game, **STEAL)  # 22
    jail_vote(game, {})
    assert outcome(game) == ("bad", "corruption_fund", "R-50")
    assert game.corruption_fund == 22
    over(game)


def test_R50_good_is_checked_first_when_both_reach_a_threshold_at_the_same_check() -> None:
    game = table(public_spending_target=4, corruption_fund_target=6)
    night(game, **STEAL)  # Fund 3
    elect(game, "Ana")
    project(game, "L2", ["Ana", "Ben", "Cris", "Eli", "Fe"])  # spending 4, kickback: Fund 6
    discuss(game)
    jail_vote(game, {})
    assert (game.public_spending, game.corruption_fund) == (4, 6)
    assert outcome(game) == ("good", "public_spending", "R-50")


def test_R50_bad_wins_the_same_check_when_good_s_condition_does_not_hold() -> None:
    game = table(public_spending_target=5, corruption_fund_target=6)
    night(game, **STEAL)
    elect(game, "Ana")
    project(game, "L2", ["Ana", "Ben", "Cris", "Eli", "Fe"])
    discuss(game)
    jail_vote(game, {})
    assert (game.public_spending, game.corruption_fund) == (4, 6)
    assert outcome(game) == ("bad", "corruption_fund", "R-50")


# ---------------------------------------------------------------- R-50 purges
def test_R50_purge_by_tokhang_ends_the_game_at_once_in_the_hidden_phase() -> None:
    game = table()
    build_up(game)
    kill_ana = corrupt(nakaw=True, tokhang="Ana")
    night(game, **dict.fromkeys(CORRUPT_NAMES, kill_ana))  # Fund 13 + 3 - 10 = 6
    elect(game, "Cris")  # Ana was President: an election this Year
    project(game, "L4", ["Ben", "Cris", "Eli", "Fe", "Gil"])  # +5, kickback 3
    discuss(game)
    jail_vote(game, {})
    assert (game.year, game.public_spending, game.corruption_fund) == (5, 20, 9)
    # Year 5: the Corrupt steal (12) and Tokhang Ben, the last Good Politician; Ben
    # also named an Auto Jail he could afford (20 >= 12), which never resolves.
    start = len(game.events)
    kill_ben = corrupt(nakaw=True, tokhang="Ben")
    night(game, Ben="Kat", **dict.fromkeys(CORRUPT_NAMES, kill_ben))
    year5 = game.events[start:]
    assert outcome(game) == ("bad", "good_purge", "R-50")
    eliminated = next(i for i, e in enumerate(year5) if isinstance(e, PlayerEliminated))
    assert [e.player for e in of_type(year5, PlayerEliminated)] == ["Ben"]
    assert [type(e) for e in year5[eliminated + 1 :]] == [GameOver]
    assert not of_type(year5, AuditDelivered)
    assert not of_type(year5, TreasuryReport)
    assert not of_type(year5, Revenue)
    assert game.public_spending == 20  # the Auto Jail was never paid
    assert game.status[game.seat("Kat")] == "active"
    assert game.years[-1].year == 5 and game.years[-1].eliminated == ["Ben"]
    assert summarize(game)["year"] == 5 and summarize(game)["step"] is None
    over(game)


def test_R50_corrupt_purge_ends_the_game_at_once_mid_phase() -> None:
    game = small_table()  # Cris is the only Corrupt Politician
    until_jail_vote(game)
    jail_vote(game, everyone(game, "Cris"))  # strike 1, back in Year 5
    for _ in range(3):
        quiet_year(game)
    night(game, Fe="Cris")
    after_night(game, witness=True)
    start = len(game.events)
    yes_no_vote(game, dict.fromkeys(["Ana", "Ben", "Fe", "Hugo"], True))
    assert outcome(game) == ("good", "corrupt_purge", "R-50")
    assert game.status[game.seat("Cris")] == "eliminated"
    # the regular jail vote that follows a Witness vote is never held
    assert not any(
        isinstance(e, StepStarted) and e.step == "jail_vote" for e in game.events[start:]
    )
    assert "Good wins: every Corrupt Politician has been eliminated." in public_texts(game)
    over(game)


def test_R50_a_purge_comes_before_the_threshold_check() -> None:
    game = small_table(corruption_fund_target=2)
    until_jail_vote(game, Cris=corrupt(nakaw=True))  # Fund 1
    jail_vote(game, everyone(game, "Cris"))
    for _ in range(3):
        quiet_year(game)
    until_jail_vote(game, Cris=corrupt(nakaw=True))  # Year 5: Fund 2, the target
    assert game.corruption_fund == 2
    jail_vote(game, everyone(game, "Cris"))  # second strike: the last Corrupt is gone
    assert outcome(game) == ("good", "corrupt_purge", "R-50")


def test_R50_purge_by_auto_jail_ends_the_night_at_once() -> None:
    game = small_table(public_spending_target=4)  # Auto Jail costs 2
    until_jail_vote(game)
    jail_vote(game, everyone(game, "Cris"))
    for _ in range(3):
        quiet_year(game)
    assert game.year == 5
    # Year 5: build enough spending for one Auto Jail, short of the target
    night(game)
    elect(game, "Ana")
    project(game, "S5", ["Ana", "Ben", "Fe"])  # +3
    discuss(game)
    jail_vote(game, {})
    start = len(game.events)
    night(game, Ana="Cris")  # Year 6: Cris is back; the Auto Jail is his second strike
    assert outcome(game) == ("good", "corrupt_purge", "R-50")
    assert not of_type(game.events[start:], TreasuryReport)


# ---------------------------------------------------------------- R-51 safety stop
def test_R51_a_game_reaching_the_end_of_year_50_is_a_draw() -> None:
    game = small_table()
    for _ in range(49):
        quiet_year(game)
    assert (game.year, game.outcome) == (50, None)
    quiet_year(game)
    assert outcome(game) == ("draw", "safety_stop", "R-51")
    assert game.year == 50
    assert [y.year for y in game.years] == list(range(1, 51))
    assert "The game is a draw: the game reached its last Year." in public_texts(game)
    over_game = summarize(game)
    assert (over_game["winner"], over_game["reason"]) == ("draw", "safety_stop")


@pytest.mark.parametrize("last", [1, 3])
def test_R51_max_years_option_moves_the_safety_stop(last: int) -> None:
    game = small_table(max_years=last)
    for _ in range(last - 1):
        quiet_year(game)
    assert outcome_of(game) is None
    quiet_year(game)
    assert game.outcome == Outcome(Winner.DRAW, Termination.SAFETY_STOP, "R-51")
    assert game.outcome == Outcome.of(Termination.SAFETY_STOP)
    assert len(game.years) == last


def test_R51_a_win_at_the_last_year_s_check_beats_the_draw() -> None:
    game = small_table(max_years=1, public_spending_target=3)
    night(game)
    elect(game, "Ana")
    project(game, "S3", ["Ana", "Ben", "Fe"])
    discuss(game)
    jail_vote(game, {})
    assert outcome(game) == ("good", "public_spending", "R-50")


def test_R51_the_kaban_is_never_a_threshold() -> None:
    game = small_table(kaban_start=-1000, max_years=2)
    quiet_year(game)
    assert game.outcome is None
    quiet_year(game)
    assert outcome(game)[1] == "safety_stop"
    assert game.kaban < 0
