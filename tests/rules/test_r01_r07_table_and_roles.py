"""R-01 .. R-07: table size, composition, custom setups, teams, targets, the deal and
recognition."""

from __future__ import annotations

from collections import Counter

import pytest

from korapsyon.rules import Game, MalformedError, Role, Step, Team
from korapsyon.rules.actions import Ready
from korapsyon.rules.events import (
    CORRUPT,
    EVERYONE,
    AutoJailUsed,
    GameStarted,
    InvestigationResult,
    TeamRevealed,
)
from korapsyon.rules.views import player_view, public_view
from tests.scenario import (
    NAMES,
    ROLES,
    SMALL_ROLES,
    SMALL_TABLE,
    build_up,
    corrupt,
    everyone,
    jail_vote,
    night,
    of_type,
    quiet_year,
    refused,
    seat_names,
    small_table,
    step_of,
    table,
    until_jail_vote,
)

GP, CP = Role.GOOD_POLITICIAN, Role.CORRUPT_POLITICIAN
LAW, OMB, COA, CIT = Role.LAWYER, Role.OMBUDSPERSON, Role.COA, Role.CITIZEN


def custom(n: int) -> list[Role]:
    return [GP, GP, CP, *[CIT] * (n - 3)]


# ---------------------------------------------------------------- R-01 player count
@pytest.mark.parametrize("n", range(9, 17))
def test_R01_default_setup_plays_with_9_to_16_players(n: int) -> None:
    game = Game(seat_names(n), seed=n)
    assert step_of(game) is Step.HIDDEN
    assert len(game.to_act) == n
    assert not game.roles_given


@pytest.mark.parametrize("n", [5, 8, 17, 20])
def test_R01_default_setup_refuses_fewer_than_9_or_more_than_16_players(n: int) -> None:
    with pytest.raises(MalformedError) as info:
        Game(seat_names(n))
    assert info.value.rule == "R-01"
    assert str(info.value).startswith("R-01")


@pytest.mark.parametrize("n", [5, 6, 8, 17, 20])
def test_R01_custom_setup_may_use_5_to_20_seats(n: int) -> None:
    game = Game(seat_names(n), roles=custom(n))
    assert game.roles == tuple(custom(n))
    assert len(game.to_act) == n


@pytest.mark.parametrize("n", [4, 21])
def test_R01_custom_setup_refuses_fewer_than_5_or_more_than_20_seats(n: int) -> None:
    with pytest.raises(MalformedError) as info:
        Game(seat_names(n), roles=custom(n))
    assert info.value.rule == "R-01"


def test_R01_action_by_a_player_not_at_the_table_is_refused() -> None:
    game = table()
    refused(game, Ready(player="Zed"), "R-01", "unknown_player")


# ---------------------------------------------------------------- R-02 composition
COMPOSITION = {
    9: (2, 2, 1, 1, 1, 2),
    10: (2, 2, 1, 1, 1, 3),
    11: (2, 2, 1, 1, 1, 4),
    12: (2, 3, 1, 1, 1, 4),
    13: (2, 3, 1, 1, 1, 5),
    14: (2, 3, 1, 1, 1, 6),
    15: (2, 3, 1, 1, 1, 7),
    16: (2, 4, 1, 1, 1, 7),
}


@pytest.mark.parametrize("n", sorted(COMPOSITION))
def test_R02_default_composition_for_each_table_size(n: int) -> None:
    expected = dict(zip((GP, CP, LAW, OMB, COA, CIT), COMPOSITION[n], strict=True))
    for seed in range(5):
        game = Game(seat_names(n), seed=seed)
        assert Counter(game.roles) == expected
        assert len(game.corrupt_seats) == expected[CP]
        assert len(game.good_politician_seats) == expected[GP]


# ---------------------------------------------------------------- R-03 custom setups
@pytest.mark.parametrize(
    ("roles", "needle"),
    [
        ([GP, CP, LAW, OMB, CIT], "2 Good Politicians"),
        ([GP, GP, LAW, OMB, CIT], "1 Corrupt Politician"),
        ([GP, GP, CP, LAW, LAW], "Lawyer"),
        ([GP, GP, CP, OMB, OMB], "Ombudsperson"),
        ([GP, GP, CP, COA, COA], "COA"),
    ],
    ids=["one-good-politician", "no-corrupt", "two-lawyers", "two-ombudspersons", "two-coas"],
)
def test_R03_custom_setup_breaking_a_check_is_refused_naming_R03(
    roles: list[Role], needle: str
) -> None:
    with pytest.raises(MalformedError) as info:
        Game(NAMES[:5], roles=roles)
    assert info.value.rule == "R-03"
    assert str(info.value).startswith("R-03")
    assert needle in str(info.value)


@pytest.mark.parametrize("roles", [None, [GP, GP, CP, CP, CP, LAW, OMB, COA, CIT], custom(7)])
def test_R02_R03_the_game_s_start_tells_everyone_the_composition(roles: list[Role] | None) -> None:
    """The composition is public (docs/RULINGS.md), who holds which role is not: the first
    event, seen by everyone, counts each role."""
    n = 9 if roles is None else len(roles)
    game = Game(seat_names(n), roles=roles, seed=3)
    started = game.events[0]
    assert isinstance(started, GameStarted) and started.audience == EVERYONE
    assert [role for role, _ in started.composition] == list(Role)
    assert Counter(started.roles()) == Counter(game.roles)


def test_R03_custom_setup_without_lawyer_ombudsperson_or_coa_plays() -> None:
    roles = [GP, GP, CP, CIT, CIT, CIT]
    game = Game(NAMES[:6], roles=roles, seed=3)
    assert (game.lawyer, game.ombudsperson, game.coa) == (None, None, None)
    assert len(game.to_act) == 6
    quiet_year(game)
    quiet_year(game)
    assert (game.year, game.step, game.outcome) == (3, Step.HIDDEN, None)


def test_R03_custom_setup_with_the_minimum_roles_counts_each_seat_once() -> None:
    game = small_table()
    assert game.roles == tuple(SMALL_ROLES)
    assert [game.roles[game.seat(name)] for name in SMALL_TABLE] == SMALL_ROLES


@pytest.mark.parametrize("count", [12, 14])
def test_R03_roles_list_not_covering_every_seat_is_refused_naming_R03(count: int) -> None:
    roles = [*ROLES, CIT][:count]
    with pytest.raises(MalformedError) as info:
        Game(NAMES, roles=roles)
    assert info.value.rule == "R-03"


def test_R03_unknown_role_is_refused() -> None:
    with pytest.raises(MalformedError) as info:
        Game(
            NAMES[:5],
            roles=["good_politician", "good_politician", "corrupt_politician", "king", "citizen"],
        )
    assert "king" in str(info.value)


# ---------------------------------------------------------------- R-04 teams
@pytest.mark.parametrize(
    ("target", "team"),
    [
        ("Ana", Team.GOOD),
        ("Cris", Team.BAD),
        ("Dani", Team.BAD),
        ("Eli", Team.GOOD),
        ("Gil", Team.GOOD),
        ("Hugo", Team.GOOD),
        ("Mia", Team.BAD),
    ],
)
def test_R04_corrupt_politicians_are_bad_everyone_else_good(target: str, team: Team) -> None:
    game = table()
    (result,) = of_type(night(game, Fe=target), InvestigationResult)
    assert (result.target, result.aligned) == (target, team)


def test_R04_citizens_are_passive_with_only_a_decoy_night_tap() -> None:
    game = table()
    for name in ("Hugo", "Ivy", "Jun", "Kat", "Leo"):
        assert [c.action for c in game.choices(name)] == ["ready"]


# ---------------------------------------------------------------- R-05 targets
@pytest.mark.parametrize(
    ("n", "ps", "cf", "auto_jail", "tokhang"),
    [
        (5, 16, 14, 8, 7),
        (9, 16, 14, 8, 7),
        (10, 16, 14, 8, 7),
        (11, 20, 17, 10, 9),
        (12, 20, 17, 10, 9),
        (13, 24, 20, 12, 10),
        (14, 24, 20, 12, 10),
        (15, 28, 23, 14, 12),
        (16, 28, 23, 14, 12),
        (20, 28, 23, 14, 12),
    ],
)
def test_R05_targets_and_costs_by_table_size(
    n: int, ps: int, cf: int, auto_jail: int, tokhang: int
) -> None:
    game = Game(seat_names(n), seed=1) if 9 <= n <= 16 else Game(seat_names(n), roles=custom(n))
    assert public_view(game)["targets"] == {
        "public_spending": ps,
        "corruption_fund": cf,
        "auto_jail_cost": auto_jail,
        "tokhang_cost": tokhang,
    }


def test_R05_auto_jail_costs_12_and_tokhang_10_at_13_players() -> None:
    game = table()
    build_up(game)  # Approved Public Spending 15, Corruption Fund 13
    events = night(game, Ben="Kat", **{c: corrupt(tokhang="Hugo") for c in ("Cris", "Dani", "Mia")})
    assert game.public_spending == 15 - 12
    assert game.corruption_fund == 13 - 10
    (used,) = of_type(events, AutoJailUsed)
    assert (used.target, used.cost) == ("Kat", 12)
    assert game.status[game.seat("Kat")] == "suspended"
    assert game.status[game.seat("Hugo")] == "eliminated"


def test_R05_half_a_target_is_rounded_up() -> None:
    # Targets 25 and 15 (odd): Auto Jail costs 13, Tokhang 8.
    game = table(public_spending_target=25, corruption_fund_target=15)
    build_up(game)
    night(game, Ben="Kat", **{c: corrupt(tokhang="Hugo") for c in ("Cris", "Dani", "Mia")})
    assert game.public_spending == 15 - 13
    assert game.corruption_fund == 13 - 8


def test_R05_a_ruleset_may_set_either_cost_the_tuners_dial() -> None:
    # a house option (docs/RULINGS.md): Auto Jail 5 and Tokhang 4 instead of 12 and 10
    game = table(auto_jail_cost=5, tokhang_cost=4)
    assert public_view(game)["targets"]["auto_jail_cost"] == 5
    build_up(game)
    night(game, Ben="Kat", **{c: corrupt(tokhang="Hugo") for c in ("Cris", "Dani", "Mia")})
    assert game.public_spending == 15 - 5
    assert game.corruption_fund == 13 - 4
    assert table(tokhang_cost=4).ruleset.costs(13) == (12, 4)  # the other stays R-05's


# ---------------------------------------------------------------- R-06 the deal
def test_R06_the_seed_fixes_the_deal() -> None:
    deals = {Game(NAMES, seed=seed).roles for seed in range(20)}
    assert len(deals) > 10  # the seed matters
    for seed in (0, 7, 12345):
        assert Game(NAMES, seed=seed).roles == Game(NAMES, seed=seed).roles


def test_R06_deal_is_uniform_over_seats() -> None:
    per_seat: list[Counter[Role]] = [Counter() for _ in NAMES]
    games = 1300
    for seed in range(games):
        for seat, role in enumerate(Game(NAMES, seed=seed).roles):
            per_seat[seat][role] += 1
    for counts in per_seat:
        # expected 300 Corrupt and 100 Lawyers per seat; the bounds are > 5 sd wide
        assert 220 < counts[CP] < 380
        assert 50 < counts[LAW] < 150


def test_R06_a_fixed_deal_is_used_as_given() -> None:
    game = table()
    assert game.roles == tuple(ROLES)
    assert game.roles_given
    assert player_view(game, "Mia")["you"]["role"] == "corrupt_politician"


def test_R06_roles_stay_secret_until_revealed_by_elimination() -> None:
    game = table()
    assert all(p["role"] is None for p in public_view(game)["players"])
    hugo = player_view(game, "Hugo")
    assert hugo["you"]["role"] == "citizen"
    assert all(p["role"] is None for p in hugo["players"])
    build_up(game)
    night(game, **{c: corrupt(tokhang="Eli") for c in ("Cris", "Dani", "Mia")})
    roles = {p["name"]: p["role"] for p in public_view(game)["players"]}
    assert roles["Eli"] == "lawyer"
    assert [name for name, role in roles.items() if role is not None] == ["Eli"]


# ---------------------------------------------------------------- R-07 recognition
def test_R07_corrupt_politicians_know_each_other_from_the_start() -> None:
    game = table()
    (shown,) = [e for e in game.events if isinstance(e, TeamRevealed)]
    assert shown.audience == CORRUPT
    assert set(shown.members) == {"Cris", "Dani", "Mia"}
    for name in ("Cris", "Dani", "Mia"):
        view = player_view(game, name)
        assert set(view["you"]["teammates"]) == {"Cris", "Dani", "Mia"} - {name}
        assert "The Corrupt Politicians are Cris, Dani, and Mia." in [
            t["text"] for t in view["timeline"]
        ]


def test_R07_nobody_else_learns_anyone_s_role() -> None:
    game = table()
    for name in ("Ana", "Eli", "Fe", "Gil", "Hugo"):
        view = player_view(game, name)
        assert "teammates" not in view["you"]
        texts = [t["text"] for t in view["timeline"]]
        assert not any("Corrupt Politicians are" in t for t in texts)
        assert sum(t.startswith("You are") for t in texts) == 1
        assert [p["role"] for p in view["players"]] == [None] * len(NAMES)


def test_R07_corrupt_keep_knowing_suspended_and_eliminated_teammates() -> None:
    game = table()
    build_up(game)
    # Year 4: Ben's Auto Jail suspends Dani, the Corrupt's own Tokhang eliminates Mia.
    night(game, Ben="Dani", **{c: corrupt(tokhang="Mia") for c in ("Cris", "Dani", "Mia")})
    assert (game.status[game.seat("Dani")], game.status[game.seat("Mia")]) == (
        "suspended",
        "eliminated",
    )
    assert set(player_view(game, "Cris")["you"]["teammates"]) == {"Dani", "Mia"}


@pytest.mark.parametrize("recognise", [False, True])
def test_R07_good_politicians_recognise_each_other_only_with_the_option(
    recognise: bool,
) -> None:
    game = table(good_politicians_recognise=recognise)
    line = "The Good Politicians are Ana and Ben."
    for name, other in (("Ana", "Ben"), ("Ben", "Ana")):
        view = player_view(game, name)
        texts = [t["text"] for t in view["timeline"]]
        if recognise:
            assert view["you"]["teammates"] == [other]
            assert line in texts
        else:
            assert "teammates" not in view["you"]
            assert line not in texts
    for name in ("Cris", "Hugo"):
        assert line not in [t["text"] for t in player_view(game, name)["timeline"]]
    assert line not in [t["text"] for t in public_view(game)["timeline"]]


def test_R07_recognition_does_not_change_over_the_game() -> None:
    game = table()
    until_jail_vote(game)
    jail_vote(game, everyone(game, "Dani"))
    assert player_view(game, "Cris")["you"]["teammates"] == ["Dani", "Mia"]
    assert "teammates" not in player_view(game, "Hugo")["you"]
