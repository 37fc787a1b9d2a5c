"""R-40 and R-41: jailing, suspension and elimination."""

from __future__ import annotations

import pytest

from korapsyon.rules import Game, Step
from korapsyon.rules.actions import (
    Corrupt,
    JailVote,
    PickCommittee,
    PickProject,
    Protect,
    Ready,
    Stand,
)
from korapsyon.rules.events import EVERYONE, PlayerEliminated, PlayerJailed, Revenue
from korapsyon.rules.views import public_view
from tests.scenario import (
    after_night,
    build_up,
    corrupt,
    elect,
    everyone,
    jail_vote,
    night,
    of_type,
    public_texts,
    quiet_year,
    refused,
    step_of,
    table,
    until_jail_vote,
    yes_no_vote,
)


def jail(game: Game, name: str) -> None:
    """Play the current Year to its jail vote and jail ``name`` (everyone votes for them)."""
    until_jail_vote(game, president="Ana")
    jail_vote(game, everyone(game, name))


def public_player(game: Game, name: str) -> dict[str, object]:
    return next(p for p in public_view(game)["players"] if p["name"] == name)


# ---------------------------------------------------------------- R-41 jailing
def test_R41_protected_player_is_not_jailed_and_gets_no_strike() -> None:
    game = table()
    until_jail_vote(game, Eli="Hugo")
    events = jail_vote(game, everyone(game, "Hugo"))
    assert not of_type(events, PlayerJailed)
    line = "The attempted jailing of Hugo has failed due to legal protection."
    assert line in [t["text"] for t in public_view(game)["timeline"]]
    assert public_player(game, "Hugo")["strikes"] == 0
    assert public_player(game, "Hugo")["status"] == "active"


def test_R41_jailed_in_year_1_returns_in_year_5() -> None:
    game = table()
    jail(game, "Hugo")
    (jailed,) = of_type(game.events, PlayerJailed)
    assert (jailed.strikes, jailed.returns_year, jailed.audience) == (1, 5, EVERYONE)
    assert "Hugo is jailed by the jail vote: strike 1, suspended until Year 5." in public_texts(
        game
    )
    for year in (2, 3, 4):
        assert game.year == year
        assert public_player(game, "Hugo")["status"] == "suspended"
        assert public_player(game, "Hugo")["returns_year"] == 5
        assert game.seat("Hugo") not in game.to_act
        refused(game, Ready(player="Hugo"), "R-41", "suspended")
        quiet_year(game)
    assert game.year == 5
    assert public_player(game, "Hugo")["status"] == "active"
    assert game.seat("Hugo") in game.to_act
    game.apply(Ready(player="Hugo"))


def test_R41_jailed_in_year_y_returns_at_the_start_of_year_y_plus_4() -> None:
    game = table()
    quiet_year(game)
    quiet_year(game)
    jail(game, "Ivy")  # Year 3
    assert public_player(game, "Ivy")["returns_year"] == 7
    for _ in range(2):  # Years 4 and 5
        quiet_year(game)
    assert (game.year, public_player(game, "Ivy")["status"]) == (6, "suspended")
    quiet_year(game)
    assert (game.year, public_player(game, "Ivy")["status"]) == (7, "active")


@pytest.mark.parametrize(("years", "back"), [(3, 5), (1, 3), (0, 2)])
def test_R41_suspension_length_follows_the_ruleset(years: int, back: int) -> None:
    game = table(suspension_years=years)
    jail(game, "Hugo")
    (jailed,) = of_type(game.events, PlayerJailed)
    assert jailed.returns_year == back
    while game.year < back:
        assert game.status[game.seat("Hugo")] == "suspended"
        quiet_year(game)
    assert game.status[game.seat("Hugo")] == "active"


def test_R41_a_suspended_player_sits_out_the_rest_of_the_year_and_every_step() -> None:
    game = table()
    until_jail_vote(game, Fe="Cris", witness=True)
    assert step_of(game) is Step.WITNESS_VOTE
    yes_no_vote(game, everyone(game, True))
    assert public_player(game, "Cris")["status"] == "suspended"
    assert game.seat("Cris") not in game.to_act  # no vote in the same Year's jail vote
    refused(game, JailVote(player="Cris", target="Hugo"), "R-41", "suspended")
    jail_vote(game, {})
    # Year 2: no night action, no committee, no revenue
    assert game.seat("Cris") not in game.to_act
    refused(
        game, Corrupt(player="Cris", nakaw=True, suhol=False, tokhang=None), "R-41", "suspended"
    )
    (revenue,) = of_type(night(game), Revenue)
    assert revenue.amount == 12
    game.apply(PickProject(player="Ana", card="L1"))
    refused(
        game,
        PickCommittee(player="Ana", members=("Ana", "Ben", "Cris", "Dani", "Eli", "Fe", "Gil")),
        "R-34",
        "inactive_target",
    )


def test_R41_second_strike_eliminates_at_once_without_a_second_suspension() -> None:
    game = table()
    jail(game, "Hugo")
    for _ in range(3):
        quiet_year(game)
    until_jail_vote(game)  # Year 5: Hugo is back
    events = jail_vote(game, everyone(game, "Hugo"))
    (jailed,) = of_type(events, PlayerJailed)
    assert (jailed.strikes, jailed.returns_year) == (2, None)
    (gone,) = of_type(events, PlayerEliminated)
    assert (gone.player, gone.cause, gone.audience) == ("Hugo", "jail_vote", EVERYONE)
    hugo = public_player(game, "Hugo")
    assert (hugo["status"], hugo["strikes"], hugo["returns_year"]) == ("eliminated", 2, None)
    texts = public_texts(game)
    assert "Hugo is jailed by the jail vote: strike 2." in texts
    assert "Hugo is eliminated by the jail vote. They were a Citizen." in texts
    assert game.years[-1].jailed == ["Hugo"] and game.years[-1].eliminated == ["Hugo"]


def test_R41_strikes_are_public() -> None:
    game = table()
    jail(game, "Hugo")
    assert public_player(game, "Hugo")["strikes"] == 1
    for _ in range(3):
        quiet_year(game)
    assert game.year == 5
    assert public_player(game, "Hugo")["strikes"] == 1  # the first strike stays on record


# ---------------------------------------------------------------- R-40 elimination
def test_R40_elimination_reveals_the_role_publicly_at_that_moment() -> None:
    game = table()
    build_up(game)
    assert public_player(game, "Dani")["role"] is None
    night(game, **{c: corrupt(tokhang="Dani") for c in ("Cris", "Dani", "Mia")})
    assert public_player(game, "Dani")["role"] == "corrupt_politician"
    assert "Dani is eliminated by Tokhang. They were a Corrupt Politician." in public_texts(game)


@pytest.mark.parametrize("reveal", [True, False])
def test_R40_tokhang_victim_s_role_is_revealed_unless_the_option_hides_it(reveal: bool) -> None:
    game = table(reveal_tokhang_role=reveal)
    build_up(game)
    events = night(game, **{c: corrupt(tokhang="Eli") for c in ("Cris", "Dani", "Mia")})
    (gone,) = of_type(events, PlayerEliminated)
    assert (gone.role is not None) is reveal
    assert public_player(game, "Eli")["role"] == ("lawyer" if reveal else None)
    assert ("Eli is eliminated by Tokhang. They were a Lawyer." in public_texts(game)) is reveal
    assert public_player(game, "Eli")["status"] == "eliminated"


def test_R40_elimination_is_permanent_and_the_player_takes_no_further_part() -> None:
    game = table()
    build_up(game)
    night(game, **{c: corrupt(tokhang="Hugo") for c in ("Cris", "Dani", "Mia")})
    for _ in range(6):  # Years 4 .. 9
        assert game.seat("Hugo") not in game.to_act
        assert public_player(game, "Hugo")["status"] == "eliminated"
        if step_of(game) is Step.HIDDEN:
            refused(game, Ready(player="Hugo"), "R-40", "eliminated")
            refused(game, Protect(player="Eli", target="Hugo"), "R-21", "inactive_target")
            night(game)
        if step_of(game) is Step.STAND:
            refused(game, Stand(player="Hugo", stand=True), "R-40", "eliminated")
        after_night(game)
        assert "Hugo" not in game.choices("Ana")[0].options["target"]
        jail_vote(game, {})
    assert game.returns_year[game.seat("Hugo")] is None


def test_R40_an_eliminated_player_leaves_committee_and_office() -> None:
    game = table()
    build_up(game)  # Ana is President
    night(game, **{c: corrupt(tokhang="Ana") for c in ("Cris", "Dani", "Mia")})
    assert game.president is None
    assert public_view(game)["president"] is None
    assert step_of(game) is Step.STAND
    refused(game, Stand(player="Ana", stand=True), "R-40", "eliminated")
    elect(game, "Ben")
    game.apply(PickProject(player="Ben", card="S4"))  # committee of 1
    refused(game, PickCommittee(player="Ben", members=("Ana",)), "R-34", "inactive_target")
    assert "Ana" not in game.choices("Ben")[0].options["members"]
