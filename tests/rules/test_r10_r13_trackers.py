"""R-10 .. R-13: Approved Public Spending, the Corruption Fund, the Kaban ng Bayan, strikes
and the other trackers."""

from __future__ import annotations

import json

import pytest

from korapsyon.rules import Step
from korapsyon.rules.views import moderator_view, player_view, public_view
from tests.scenario import (
    SMALL_TABLE,
    STEAL,
    corrupt,
    discuss,
    elect,
    everyone,
    jail_vote,
    night,
    project,
    public_texts,
    small_table,
    step_of,
    table,
    until_jail_vote,
    yes_no_vote,
)


# ---------------------------------------------------------------- R-10 Public Spending
def test_R10_public_spending_starts_at_0_and_is_public() -> None:
    game = table()
    assert game.public_spending == 0
    assert public_view(game)["public_spending"] == 0


def test_R10_public_spending_grows_by_successful_projects_only() -> None:
    game = table()
    night(game)
    elect(game, "Ana")
    project(game, "L2", ["Ana", "Ben", "Eli", "Fe", "Gil"], support=3)
    assert public_view(game)["public_spending"] == 4
    assert player_view(game, "Hugo")["public_spending"] == 4
    discuss(game)
    jail_vote(game, {})
    night(game)
    project(game, "L1", ["Ana", "Ben", "Eli", "Fe", "Gil", "Hugo", "Ivy"], support=3)  # 3-4
    assert public_view(game)["public_spending"] == 4


# ---------------------------------------------------------------- R-11 Corruption Fund
def test_R11_corruption_fund_starts_at_0() -> None:
    game = table()
    assert game.corruption_fund == 0
    assert moderator_view(game)["secrets"]["corruption_fund"] == 0


def test_R11_corruption_fund_is_never_shown_on_the_public_board() -> None:
    """Two games whose Funds differ (a steal) look the same to the public and to a
    Citizen for the rest of the Year."""
    stealing, honest = table(), table()
    night(stealing, **STEAL)
    night(honest)
    for game in (stealing, honest):
        elect(game, "Ana")
        project(game, "L2", ["Ana", "Ben", "Cris", "Eli", "Fe"])  # kickback 3
    assert (stealing.corruption_fund, honest.corruption_fund) == (6, 3)
    assert public_view(stealing) == public_view(honest)
    assert player_view(stealing, "Hugo") == player_view(honest, "Hugo")
    assert "corruption_fund" not in public_view(stealing)
    assert "secrets" not in public_view(stealing)


def test_R11_fund_is_theft_plus_kickbacks_minus_suhol_and_tokhang() -> None:
    game = table()

    def fund() -> int:
        value = moderator_view(game)["secrets"]["corruption_fund"]
        assert value == game.corruption_fund
        return int(value)

    night(game, **STEAL)
    assert fund() == 3  # theft
    elect(game, "Ana")
    project(game, "L2", ["Ana", "Ben", "Cris", "Eli", "Fe"])
    assert fund() == 6  # + kickback 3
    discuss(game)
    jail_vote(game, {})
    both = corrupt(nakaw=True, suhol=True)
    night(game, Cris=both, Dani=both, Mia=both)
    assert fund() == 6 + 3 - 3  # theft, Suhol
    project(game, "L1", ["Ana", "Ben", "Cris", "Eli", "Fe", "Gil", "Hugo"])
    assert fund() == 10  # + kickback 4
    discuss(game)
    jail_vote(game, {})
    night(game, **{c: corrupt(tokhang="Leo") for c in ("Cris", "Dani", "Mia")})
    assert fund() == 0  # - Tokhang 10


# ---------------------------------------------------------------- R-12 Kaban ng Bayan
@pytest.mark.parametrize(("option", "start"), [({}, 50), ({"kaban_start": 20}, 20)])
def test_R12_kaban_starts_at_50_unless_the_option_says_otherwise(
    option: dict[str, int], start: int
) -> None:
    game = table(**option)
    assert (game.kaban, game.kaban_public) == (start, start)
    assert public_view(game)["kaban_public"] == start
    assert f"The Kaban ng Bayan holds {start}." in public_texts(game)[0]
    night(game)
    assert public_view(game)["kaban_public"] == start + 13  # + revenue


def test_R12_true_kaban_is_private_and_the_public_figure_lags_until_the_report() -> None:
    game = table()
    night(game, **STEAL)
    elect(game, "Ana")
    project(game, "L2", ["Ana", "Ben", "Eli", "Fe", "Gil"])
    true_kaban = 50 - 3 + 13 - 4
    assert moderator_view(game)["secrets"]["kaban"] == true_kaban
    view = public_view(game)
    assert "kaban" not in view
    assert view["kaban_public"] == 50 + 13  # last report (none: the start) + revenue
    discuss(game)
    jail_vote(game, {})
    night(game)  # Year 2: the report catches up, then revenue
    assert public_view(game)["kaban_public"] == true_kaban + 13
    assert game.kaban == true_kaban + 13


def test_R12_the_public_figures_of_every_past_year_are_in_every_view() -> None:
    """The board's treasury chart: the public Kaban and Approved Spending at the start and
    at the end of each Year, the same for every viewer (a board opened mid-game draws it
    all), never the true Kaban."""
    game = table()
    night(game, **STEAL)
    elect(game, "Ana")
    project(game, "L2", ["Ana", "Ben", "Eli", "Fe", "Gil"])
    discuss(game)
    jail_vote(game, {})
    night(game)
    history = public_view(game)["history"]
    assert history == [
        {"year": 0, "kaban_public": 50, "public_spending": 0},
        {"year": 1, "kaban_public": 50 + 13, "public_spending": 4},
    ]
    assert history[1]["kaban_public"] != 50 - 3 + 13 - 4  # the true Kaban stays secret
    assert player_view(game, "Ben")["history"] == history
    assert moderator_view(game)["history"] == history


def test_R12_kaban_may_go_negative_and_is_never_a_win_or_loss_threshold() -> None:
    game = small_table(kaban_start=0)  # revenue is only 5 a Year at 5 seats
    for card in ("L2", "L1"):
        night(game, Cris=corrupt(nakaw=True))
        if step_of(game) is Step.STAND:
            elect(game, "Ana")
        project(game, card, list(SMALL_TABLE))  # committees of 5 (L1 shrinks to 5)
        discuss(game)
        jail_vote(game, {})
    assert game.kaban == 0 + 2 * 5 - 2 * 1 - 4 - 5 == -1
    assert game.outcome is None
    night(game)
    assert public_view(game)["kaban_public"] == -1 + 5  # the report caught up, then revenue
    game = table(kaban_start=-100)
    for _ in range(3):
        until_jail_vote(game, **STEAL)
        jail_vote(game, {})
    assert game.kaban < 0
    assert game.kaban_public < 0
    assert game.outcome is None
    assert (game.year, step_of(game)) == (4, Step.HIDDEN)


# ---------------------------------------------------------------- R-13 other trackers
def test_R13_strikes_return_year_and_president_are_public() -> None:
    game = table()
    until_jail_vote(game)
    jail_vote(game, everyone(game, "Hugo"))
    view = public_view(game)
    hugo = next(p for p in view["players"] if p["name"] == "Hugo")
    assert (hugo["strikes"], hugo["status"], hugo["returns_year"]) == (1, "suspended", 5)
    assert view["president"] == {"name": "Ana", "since": 1, "until": 2}
    assert player_view(game, "Leo")["president"] == view["president"]


def test_R13_last_lawyer_target_and_witness_used_are_private() -> None:
    game = table()
    night(game, Eli="Ben", Fe="Cris")
    elect(game, "Ana")
    project(game, "S3", ["Ana", "Ben", "Gil"], support=0)
    discuss(game, witness=True)
    yes_no_vote(game, {})
    secrets = moderator_view(game)["secrets"]
    assert secrets["last_protected"] == {"year": 1, "player": "Ben"}
    assert secrets["witness_used"] is True
    for view in (public_view(game), player_view(game, "Hugo"), player_view(game, "Cris")):
        text = json.dumps(view)
        assert "witness_used" not in text
        assert "last_protected" not in text
        assert "The Lawyer protects" not in text
    jail_vote(game, {})
    # The Lawyer alone is reminded of last Year's choice (it bars a repeat, R-21).
    assert player_view(game, "Eli")["you"]["last_protected"] == "Ben"
