"""R-30 .. R-38: announcements, the treasury report, revenue, the election, the project,
discussion and Witness, the jail vote, the win check and the End of Year."""

from __future__ import annotations

from typing import Any

import pytest

from korapsyon.rules import CARDS, Game, Role, Step
from korapsyon.rules.actions import (
    HOST,
    AutoJail,
    CommitteeVote,
    Corrupt,
    Elect,
    EndDiscussion,
    JailVote,
    PickCommittee,
    PickProject,
    Stand,
    Witness,
    WitnessVote,
)
from korapsyon.rules.events import (
    EVERYONE,
    ActionTaken,
    AuditDelivered,
    Candidates,
    CoaMuted,
    Kickback,
    PlayerJailed,
    PresidencyEnded,
    PresidentElected,
    ProjectOffered,
    ProjectVoted,
    Revenue,
    WitnessTestimony,
)
from korapsyon.rules.views import moderator_view, player_view, public_view
from tests.scenario import (
    LARGE,
    NAMES,
    SMALL,
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
    president_of,
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


def all_corrupt(**choice: Any) -> dict[str, Any]:
    return {name: corrupt(**choice) for name in CORRUPT_NAMES}


def votes(**groups: str) -> dict[str, str | None]:
    """``votes(Hugo="Ben Cris")``: Ben and Cris vote for Hugo; everyone else abstains."""
    return {voter: target for target, voters in groups.items() for voter in voters.split()}


def stand_and_vote(game: Game, standing: list[str], ballots: dict[str, str | None]) -> None:
    for seat in sorted(game.to_act):
        name = game.players[seat]
        game.apply(Stand(player=name, stand=name in standing))
    cast(game, ballots)


def cast(game: Game, ballots: dict[str, str | None]) -> None:
    for seat in sorted(game.to_act):
        name = game.players[seat]
        game.apply(Elect(player=name, candidate=ballots.get(name)))


# ---------------------------------------------------------------- R-30 announcements
def test_R30_announcements_come_returns_then_tokhang_then_auto_jail() -> None:
    game = table()
    build_up(game, year1_jail=dict.fromkeys(NAMES, "Hugo"))  # Hugo back in Year 5
    quiet_year(game)
    night(game, Ben="Kat", **all_corrupt(tokhang="Leo"))
    texts = public_texts(game)
    texts = texts[texts.index("Year 5 begins.") :]
    lines = [
        "Hugo returns from suspension, on strike 1.",
        "Leo is eliminated by Tokhang. They were a Citizen.",
        "An Auto Jail against Kat was paid from Approved Public Spending (-12, now 3).",
        "Kat is jailed by Auto Jail: strike 1, suspended until Year 9.",
    ]
    positions = [texts.index(line) for line in lines]
    assert positions == sorted(positions)


def test_R30_announcements_of_one_kind_come_in_seat_order() -> None:
    game = table()
    until_jail_vote(game, Fe="Mia", witness=True)
    yes_no_vote(game, everyone(game, True))
    jail_vote(game, everyone(game, "Hugo"))
    assert game.years[-1].jailed == ["Mia", "Hugo"]  # jailed in this order
    for _ in range(3):
        quiet_year(game)
    texts = public_texts(game)
    hugo = texts.index("Hugo returns from suspension, on strike 1.")
    mia = texts.index("Mia returns from suspension, on strike 1.")
    assert hugo < mia  # Hugo sits before Mia


def test_R30_blocked_jailing_is_announced_with_the_exact_line() -> None:
    game = table()
    until_jail_vote(game, Eli="Cris")
    jail_vote(game, everyone(game, "Cris"))
    assert "The attempted jailing of Cris has failed due to legal protection." in public_texts(game)


# ---------------------------------------------------------------- R-31 treasury report
def test_R31_year_1_has_no_previous_treasury_report() -> None:
    game = table()
    night(game, **STEAL)
    texts = public_texts(game)
    assert "No previous treasury report is available." in texts
    assert not any(t.startswith("Last Year's total decrease") for t in texts)


def test_R31_report_gives_last_year_s_steal_plus_project_and_catches_up_the_public_kaban() -> None:
    game = table()
    night(game, **STEAL)
    elect(game, "Ana")
    project(game, "L2", ["Ana", "Ben", "Eli", "Fe", "Gil"])  # +4
    discuss(game)
    jail_vote(game, {})
    end_of_year_1 = game.kaban
    assert end_of_year_1 == 50 - 3 + 13 - 4
    assert game.kaban_public == 50 + 13  # the drop is not public yet
    night(game)
    assert f"Last Year's total decrease: 7. Kaban ng Bayan: {end_of_year_1}." in public_texts(game)
    assert game.kaban_public == end_of_year_1 + 13


def test_R31_suhol_refund_is_subtracted_from_the_reported_decrease() -> None:
    game = table()
    both = corrupt(nakaw=True, suhol=True)
    night(game, Cris=both, Dani=both, Mia=both)
    elect(game, "Ana")
    project(game, "L2", ["Ana", "Ben", "Eli", "Fe", "Gil"])
    discuss(game)
    jail_vote(game, {})
    night(game)
    assert any(t.startswith("Last Year's total decrease: 4.") for t in public_texts(game))


# ---------------------------------------------------------------- R-32 revenue
def test_R32_revenue_is_one_per_active_player_to_the_true_and_public_kaban() -> None:
    game = table()
    (revenue,) = of_type(night(game), Revenue)
    assert (revenue.amount, revenue.audience) == (13, EVERYONE)
    assert game.kaban == game.kaban_public == 63
    after_night(game)
    jail_vote(game, everyone(game, "Hugo"))
    before_true, before_public = game.kaban, game.kaban_public
    (revenue,) = of_type(night(game), Revenue)
    assert revenue.amount == 12  # Hugo is suspended
    assert game.kaban == before_true + 12
    assert game.kaban_public == before_true + 12  # report (no drop) + revenue
    assert before_public == before_true


# ---------------------------------------------------------------- R-33 election
def test_R33_election_is_held_in_year_1_and_only_those_standing_are_candidates() -> None:
    game = table()
    night(game)
    assert step_of(game) is Step.STAND
    for seat in sorted(game.to_act):
        name = game.players[seat]
        game.apply(Stand(player=name, stand=name in ("Ben", "Hugo")))
    assert step_of(game) is Step.ELECT
    assert game.choices("Ana")[0].options["candidate"] == (None, "Ben", "Hugo")
    refused(game, Elect(player="Ana", candidate="Ana"), "R-33", "not_a_candidate")
    cast(game, votes(Ben="Ana Cris", Hugo="Ben"))
    assert president_of(game) == "Ben"


def test_R33_if_nobody_stands_every_active_player_is_a_candidate() -> None:
    game = table()
    until_jail_vote(game)
    jail_vote(game, everyone(game, "Hugo"))
    quiet_year(game)
    night(game)  # Year 3: Ana's term is over
    stand_and_vote(game, [], votes(Ivy="Ana Ben"))
    (candidates,) = [e for e in game.events if isinstance(e, Candidates) and e.year == 3]
    assert candidates.nobody_stood
    assert candidates.candidates == tuple(n for n in NAMES if n != "Hugo")
    assert "Nobody stood: every active player is a candidate." in public_texts(game)
    assert president_of(game) == "Ivy"


def test_R33_most_votes_wins_without_needing_a_majority() -> None:
    game = table()
    night(game)
    stand_and_vote(
        game,
        ["Ana", "Ben", "Cris"],
        votes(Ana="Ana Eli Fe Gil Hugo", Ben="Ben Ivy Jun Kat", Cris="Cris Dani Leo Mia"),
    )
    (elected,) = of_type(game.events, PresidentElected)
    assert (elected.president, elected.by_lots) == ("Ana", False)


def test_R33_tie_goes_to_one_runoff_among_the_tied_only() -> None:
    game = table()
    night(game)
    stand_and_vote(
        game,
        ["Ana", "Ben", "Cris"],
        votes(Ana="Ana Eli Fe Gil Hugo", Ben="Ben Ivy Jun Kat Leo", Cris="Cris Dani Mia"),
    )
    assert step_of(game) is Step.ELECT_RUNOFF
    assert game.choices("Hugo")[0].options["candidate"] == (None, "Ana", "Ben")
    assert "Tie: a runoff between Ana and Ben." in public_texts(game)
    refused(game, Elect(player="Hugo", candidate="Cris"), "R-33", "not_a_candidate")
    cast(game, votes(Ana="Ana Cris Dani Eli Fe Gil Hugo", Ben="Ben Ivy Jun Kat Leo Mia"))
    (elected,) = of_type(game.events, PresidentElected)
    assert (elected.president, elected.by_lots) == ("Ana", False)


def _runoff_tie(seed: int) -> Game:
    game = table(seed=seed)
    night(game)
    tie = votes(Ana="Ana Cris Dani Eli Fe Gil", Ben="Ben Hugo Ivy Jun Kat Leo")
    stand_and_vote(game, ["Ana", "Ben"], tie)
    assert step_of(game) is Step.ELECT_RUNOFF
    cast(game, tie)
    return game


def test_R33_a_second_tie_is_broken_by_lots_from_the_seeded_rng() -> None:
    winners = {}
    for seed in range(12):
        game = _runoff_tie(seed)
        (elected,) = of_type(game.events, PresidentElected)
        assert elected.by_lots
        assert f"{elected.president} is elected President by drawing lots, serving Years 1-2." in (
            public_texts(game)
        )
        assert _runoff_tie(seed).president == game.president  # same seed, same draw
        winners[seed] = elected.president
    assert set(winners.values()) == {"Ana", "Ben"}


def test_R33_all_abstaining_ties_every_candidate() -> None:
    game = table()
    night(game)
    stand_and_vote(game, ["Ana", "Ben"], {})
    assert step_of(game) is Step.ELECT_RUNOFF
    assert game.choices("Ana")[0].options["candidate"] == (None, "Ana", "Ben")
    cast(game, {})
    assert of_type(game.events, PresidentElected)[0].by_lots


def test_R33_term_is_the_election_year_and_the_next_then_the_office_is_vacant() -> None:
    game = table()
    until_jail_vote(game)  # Ana elected in Year 1
    assert of_type(game.events, PresidentElected)[0].term_end == 2
    assert "Ana is elected President, serving Years 1-2." in public_texts(game)
    jail_vote(game, {})
    night(game)
    assert step_of(game) is Step.PICK_PROJECT  # Year 2: no election
    assert public_view(game)["president"]["name"] == "Ana"
    after_night(game)
    jail_vote(game, {})
    assert game.year == 3
    assert game.president is None
    assert public_view(game)["president"] is None
    assert [e.president for e in of_type(game.events, PresidencyEnded)] == ["Ana"]
    assert "President Ana's term is over: the office is vacant." in public_texts(game)
    night(game)
    assert step_of(game) is Step.STAND


@pytest.mark.parametrize(("term", "elections"), [(1, [1, 2, 3, 4]), (2, [1, 3]), (3, [1, 4])])
def test_R33_the_term_length_follows_the_ruleset(term: int, elections: list[int]) -> None:
    game = table(president_term=term)
    held = []
    for _ in range(4):
        night(game)
        if step_of(game) is Step.STAND:
            held.append(game.year)
        after_night(game)
        jail_vote(game, {})
    assert held == elections


def test_R33_election_is_held_the_year_the_president_is_eliminated() -> None:
    game = table()
    build_up(game)  # Ana serves Years 3-4
    night(game, **all_corrupt(tokhang="Ana"))
    assert game.president is None
    assert step_of(game) is Step.STAND
    elect(game, "Ben")
    assert president_of(game) == "Ben"


@pytest.mark.parametrize("allowed", [True, False])
def test_R33_tokhang_may_hit_the_president_unless_the_option_forbids_it(allowed: bool) -> None:
    game = table(tokhang_on_president=allowed)
    build_up(game)  # Ana is President
    assert ("Ana" in game.choices("Cris")[0].options["tokhang"]) is allowed
    action = Corrupt(player="Cris", nakaw=False, suhol=False, tokhang="Ana")
    if allowed:
        night(game, **all_corrupt(tokhang="Ana"))
        assert game.status[game.seat("Ana")] == "eliminated"
    else:
        refused(game, action, "R-33", "president_immune")
        assert "Ana" not in game.choices("Cris")[0].options["tokhang"]


def test_R33_the_sitting_president_cannot_be_jailed() -> None:
    game = table()
    night(game, Fe="Cris")
    elect(game, "Cris")  # Cris is Bad aligned, and President
    project(game, "S3", ["Ana", "Ben", "Gil"], support=0)
    assert not game.witness_available(game.seat("Fe"))
    refused(game, Witness(player="Fe"), "R-35", "witness_unavailable")
    discuss(game)
    assert "Cris" not in game.choices("Ana")[0].options["target"]
    refused(game, JailVote(player="Ana", target="Cris"), "R-33", "president_immune")
    jail_vote(game, {})
    refused(game, AutoJail(player="Ana", target="Cris"), "R-33", "president_immune")


# ---------------------------------------------------------------- R-34 project
def test_R34_top_cards_are_offered_and_both_go_to_the_bottom() -> None:
    game = table()
    assert not of_type(night(game), ProjectOffered)  # Year 1 elects first
    events = elect(game, "Ana")
    (offer,) = of_type(events, ProjectOffered)
    assert (offer.president, offer.small, offer.large) == ("Ana", "S3", "L2")
    assert game.choices("Ana")[0].options["card"] == ("S3", "L2")
    refused(game, PickProject(player="Ana", card="S1"), "R-34", "not_offered")
    refused(game, PickProject(player="Ben", card="S3"), "R-34", "not_your_turn")
    game.apply(PickProject(player="Ana", card="L2"))
    decks = moderator_view(game)["secrets"]["decks"]
    assert decks == {"small": [*SMALL[1:], "S3"], "large": [*LARGE[1:], "L2"]}
    project_members(game, ["Ana", "Ben", "Eli", "Fe", "Gil"], [False] * 5)
    discuss(game)
    jail_vote(game, {})
    (offer,) = of_type(night(game), ProjectOffered)
    assert (offer.small, offer.large) == ("S1", "L1")


def project_members(game: Game, members: list[str], support: list[bool]) -> None:
    president = president_of(game)
    assert president is not None
    game.apply(PickCommittee(player=president, members=tuple(members)))
    for name, vote in zip(members, support, strict=True):
        game.apply(CommitteeVote(player=name, support=vote))


def test_R34_the_deck_order_comes_from_the_seed_unless_given() -> None:
    game = Game(NAMES, seed=5)
    small, large = game.initial_decks
    assert sorted(small) == sorted(SMALL) and sorted(large) == sorted(LARGE)
    assert Game(NAMES, seed=5).initial_decks == game.initial_decks
    assert len({Game(NAMES, seed=s).initial_decks for s in range(10)}) > 5
    assert table().initial_decks == (tuple(SMALL), tuple(LARGE))


def test_R34_the_committee_has_the_card_s_size_from_active_players() -> None:
    game = table()
    until_jail_vote(game)
    jail_vote(game, everyone(game, "Hugo"))
    night(game)
    game.apply(PickProject(player="Ana", card="L1"))
    assert game.committee_size == CARDS["L1"].committee == 7
    six = ("Ana", "Ben", "Cris", "Eli", "Fe", "Gil")
    refused(game, PickCommittee(player="Ana", members=six), "R-34", "committee_size")
    refused(game, PickCommittee(player="Ana", members=(*six, "Ana")), "R-34", "committee_member")
    refused(game, PickCommittee(player="Ana", members=(*six, "Hugo")), "R-34", "inactive_target")
    game.apply(PickCommittee(player="Ana", members=(*six, "Ivy")))  # the President may sit
    assert step_of(game) is Step.COMMITTEE_VOTE
    refused(game, CommitteeVote(player="Jun", support=True), "R-34", "not_your_turn")


def top(card: str) -> tuple[list[str], list[str]]:
    """The example decks with ``card`` moved to the top of its deck."""
    small = [card, *(c for c in SMALL if c != card)] if card.startswith("S") else SMALL
    large = [card, *(c for c in LARGE if c != card)] if card.startswith("L") else LARGE
    return small, large


@pytest.mark.parametrize(
    ("seats", "card", "size"),
    [(6, "L1", 5), (6, "L2", 5), (6, "S2", 3), (5, "L1", 5), (5, "L2", 5), (7, "L1", 7)],
)
def test_R34_committee_shrinks_to_the_largest_odd_number_of_active_players(
    seats: int, card: str, size: int
) -> None:
    roles = [Role.GOOD_POLITICIAN, Role.GOOD_POLITICIAN, Role.CORRUPT_POLITICIAN]
    game = Game(NAMES[:seats], roles=roles + [Role.CITIZEN] * (seats - 3), decks=top(card))
    night(game)
    stand_and_vote(game, ["Ana"], dict.fromkeys(NAMES[:seats], "Ana"))
    game.apply(PickProject(player="Ana", card=card))
    assert game.committee_size == size
    assert game.choices("Ana")[0].pick == size
    too_many = tuple(NAMES[: size + 1])
    refused(game, PickCommittee(player="Ana", members=too_many), "R-34", "committee_size")
    game.apply(PickCommittee(player="Ana", members=tuple(NAMES[:size])))
    assert step_of(game) is Step.COMMITTEE_VOTE


def test_R34_committee_size_counts_only_active_players() -> None:
    game = small_table()
    until_jail_vote(game)
    jail_vote(game, everyone(game, "Hugo"))
    night(game)  # Year 2: four active players
    game.apply(PickProject(player="Ana", card="L1"))
    assert game.committee_size == 3


def test_R34_project_succeeds_on_more_than_half_support() -> None:
    game = table()
    night(game)
    elect(game, "Ana")
    game.apply(PickProject(player="Ana", card="S3"))
    project_members(game, ["Ana", "Ben", "Gil"], [True, False, True])
    (voted,) = of_type(game.events, ProjectVoted)
    assert (voted.support, voted.oppose, voted.succeeded) == (2, 1, True)
    assert game.public_spending == 3
    discuss(game)
    jail_vote(game, {})
    night(game)
    game.apply(PickProject(player="Ana", card="S1"))  # committee of 1
    project_members(game, ["Ben"], [False])
    assert of_type(game.events, ProjectVoted)[-1].succeeded is False
    assert game.public_spending == 3


def test_R34_success_adds_cost_to_spending_and_treasury_decrease_and_takes_it_from_kaban() -> None:
    game = table()
    night(game)
    elect(game, "Ana")
    kaban = game.kaban
    project(game, "L2", ["Ana", "Ben", "Eli", "Fe", "Gil"], support=4)
    assert game.public_spending == CARDS["L2"].cost == 4
    assert game.kaban == kaban - 4
    assert game.treasury_decrease == 4
    assert game.kaban_public == kaban  # reported next Year
    assert "The committee votes 4-1: L2 succeeds. Approved Public Spending +4, now 4." in (
        public_texts(game)
    )
    assert "Committee for L2: Ana, Ben, Eli, Fe, and Gil." in public_texts(game)


def test_R34_kickback_if_a_corrupt_sat_on_the_committee_whatever_their_vote() -> None:
    game = table()
    night(game)
    elect(game, "Ana")
    game.apply(PickProject(player="Ana", card="L2"))
    project_members(game, ["Ana", "Ben", "Cris", "Eli", "Fe"], [True, True, False, True, True])
    (kickback,) = of_type(game.events, Kickback)
    assert (kickback.card, kickback.amount) == ("L2", CARDS["L2"].kickback)
    assert game.corruption_fund == 3
    assert not any("Kickback" in t for t in public_texts(game))


def test_R34_no_kickback_without_corrupt_or_without_success() -> None:
    game = table()
    night(game)
    elect(game, "Ana")
    project(game, "L2", ["Ana", "Ben", "Eli", "Fe", "Gil"])
    assert game.corruption_fund == 0
    game = table()
    night(game)
    elect(game, "Ana")
    project(game, "L2", ["Ana", "Ben", "Cris", "Dani", "Mia"], support=2)
    assert game.corruption_fund == 0


def test_R34_individual_committee_votes_stay_secret() -> None:
    games = [table(), table()]
    for game, ballot in zip(games, ([True, False, True], [False, True, True]), strict=True):
        night(game)
        elect(game, "Ana")
        game.apply(PickProject(player="Ana", card="S3"))
        project_members(game, ["Ana", "Ben", "Gil"], ballot)
    assert public_view(games[0]) == public_view(games[1])
    assert player_view(games[0], "Hugo") == player_view(games[1], "Hugo")
    assert player_view(games[0], "Gil") == player_view(games[1], "Gil")
    assert player_view(games[0], "Cris")["project"]["result"] == {
        "support": 2,
        "oppose": 1,
        "succeeded": True,
    }


@pytest.mark.parametrize(
    ("members", "support", "line"),
    [
        (
            ["Ana", "Ben", "Cris", "Eli", "Fe"],
            5,
            "Audit: Project L2 Provincial Hospital Expansion. Kickback occurred: Yes.",
        ),
        (
            ["Ana", "Ben", "Eli", "Fe", "Gil"],
            5,
            "Audit: Project L2 Provincial Hospital Expansion. Kickback occurred: No.",
        ),
        (["Ana", "Ben", "Cris", "Eli", "Fe"], 2, "Audit: No project last year."),
    ],
    ids=["kickback", "clean", "failed"],
)
def test_R34_the_audit_holds_only_the_project_and_whether_a_kickback_occurred(
    members: list[str], support: int, line: str
) -> None:
    game = table()
    night(game)
    elect(game, "Ana")
    project(game, "L2", members, support=support)
    discuss(game)
    jail_vote(game, {})
    (audit,) = of_type(night(game), AuditDelivered)
    assert set(audit.__struct_fields__) == {"year", "audience", "project", "kickback"}
    assert audit.audience == game.seat("Gil")
    gil = [t["text"] for t in player_view(game, "Gil")["timeline"]]
    assert line in gil
    assert line not in public_texts(game)


# ---------------------------------------------------------------- R-35 discussion, Witness
def test_R35_a_muted_coa_is_told_and_shows_the_mute_for_this_year_only() -> None:
    game = table()
    both = corrupt(nakaw=True, suhol=True)
    events = night(game, Cris=both, Dani=both, Mia=both)
    (muted,) = of_type(events, CoaMuted)
    assert muted.audience == game.seat("Gil")
    after_night(game)
    assert step_of(game) is Step.JAIL_VOTE
    assert player_view(game, "Gil")["you"]["muted"] is True
    assert player_view(game, "Hugo")["you"]["muted"] is False
    jail_vote(game, {})
    assert player_view(game, "Gil")["you"]["muted"] is False


def test_R35_witness_testifies_anonymously_then_a_witness_vote_then_the_jail_vote() -> None:
    game = table()
    night(game, Fe="Cris")
    elect(game, "Ana")
    project(game, "S3", ["Ana", "Ben", "Gil"], support=0)
    assert step_of(game) is Step.DISCUSSION
    assert [c.action for c in game.choices("Fe")] == ["witness"]
    assert game.choices("Hugo") == []
    before = public_view(game)
    events = game.apply(Witness(player="Fe"))
    # Only the witness is told at the tap: the table hears it when the discussion closes,
    # so the moment someone tapped does not point at them (RULINGS, R-35).
    assert [e.audience for e in events] == [game.seat("Fe")]
    assert public_view(game) == before
    assert player_view(game, "Fe")["you"]["testified"] == "Cris"
    assert "testified" not in player_view(game, "Hugo")["you"]
    events = game.apply(EndDiscussion(player=HOST))
    (testimony,) = of_type(events, WitnessTestimony)
    assert (testimony.player, testimony.audience) == ("Cris", EVERYONE)
    assert "A witness has testified that Cris is Bad aligned." in public_texts(game)
    public = [e for e in game.events if e.audience == EVERYONE]
    assert not any(isinstance(e, ActionTaken) and isinstance(e.action, Witness) for e in public)
    assert all("Fe" not in entry["text"] for entry in public_view(game)["timeline"][-3:])
    assert step_of(game) is Step.WITNESS_VOTE
    assert game.to_act == frozenset(game.active_seats())
    yes_no_vote(game, {"Ana": True, "Ben": True, "Fe": True})
    assert game.years == [] and step_of(game) is Step.JAIL_VOTE
    assert game.status[game.seat("Cris")] == "suspended"


def test_R35_witness_vote_jails_on_more_than_half_with_the_president_counting_2() -> None:
    def witness_year(ballots: dict[str, bool | None]) -> Game:
        game = table()
        night(game, Fe="Cris")
        elect(game, "Ana")
        project(game, "S3", ["Ana", "Ben", "Gil"], support=0)
        discuss(game, witness=True)
        yes_no_vote(game, ballots)
        return game

    tie = witness_year({"Ana": True, "Ben": False, "Dani": False})  # 2 - 2
    assert tie.status[tie.seat("Cris")] == "active"
    assert step_of(tie) is Step.JAIL_VOTE  # the regular jail vote still follows
    jailed = witness_year({"Ana": True, "Ben": True, "Cris": False, "Dani": False})  # 3 - 2
    assert jailed.status[jailed.seat("Cris")] == "suspended"
    assert of_type(jailed.events, PlayerJailed)[0].cause == "witness_vote"
    assert step_of(jailed) is Step.JAIL_VOTE
    assert "Cris" not in jailed.choices("Ana")[0].options["target"]


def test_R35_witness_can_be_used_once_per_game() -> None:
    game = table()
    until_jail_vote(game, Fe="Cris", witness=True)
    yes_no_vote(game, {})
    jail_vote(game, {})
    night(game, Fe="Dani")  # Year 2: Dani is Bad aligned, but Witness is spent
    game.apply(PickProject(player="Ana", card="S1"))
    project_members(game, ["Ana"], [False])
    assert not game.witness_available(game.seat("Fe"))
    error = refused(game, Witness(player="Fe"), "R-35", "witness_unavailable")
    assert "once" in error.message


def test_R35_witness_needs_a_bad_aligned_finding_this_year() -> None:
    for finding in ("Hugo", None):
        game = table()
        night(game, Fe=finding)
        elect(game, "Ana")
        project(game, "S3", ["Ana", "Ben", "Gil"], support=0)
        assert game.choices("Fe") == []
        refused(game, Witness(player="Fe"), "R-35", "witness_unavailable")


def test_R35_only_the_active_ombudsperson_may_witness() -> None:
    game = table()
    build_up(game)
    night(game, Fe="Cris", Ben="Fe")  # Auto Jail suspends the Ombudsperson
    game.apply(PickProject(player="Ana", card="S4"))
    project_members(game, ["Ana"], [False])
    refused(game, Witness(player="Fe"), "R-35", "witness_unavailable")
    refused(game, Witness(player="Ana"), "R-35", "witness_unavailable")
    refused(game, Witness(player=HOST), "R-35", "witness_unavailable")


def test_R35_witness_target_must_still_be_active() -> None:
    game = table()
    build_up(game)
    night(game, Fe="Cris", Ben="Cris")  # Auto Jail suspends Cris the same night
    game.apply(PickProject(player="Ana", card="S4"))
    project_members(game, ["Ana"], [False])
    error = refused(game, Witness(player="Fe"), "R-35", "witness_unavailable")
    assert "Cris" in error.message


def test_R35_witness_only_during_the_discussion_and_only_the_host_ends_it() -> None:
    game = table()
    night(game, Fe="Cris")
    refused(game, Witness(player="Fe"), "R-33", "wrong_step")
    elect(game, "Ana")
    project(game, "S3", ["Ana", "Ben", "Gil"], support=0)
    refused(game, EndDiscussion(player="Ana"), "R-35", "not_host")
    refused(game, WitnessVote(player="Ana", jail=True), "R-35", "wrong_step")
    discuss(game)
    refused(game, Witness(player="Fe"), "R-36", "wrong_step")


# ---------------------------------------------------------------- R-36 jail vote
def jail_year(ballots: dict[str, str | None], **rules: Any) -> Game:
    """Year 1 to its jail vote (Ana President), then the given jail ballots."""
    game = table(**rules)
    until_jail_vote(game)
    jail_vote(game, ballots)
    return game


def test_R36_more_than_half_of_the_valid_votes_jails() -> None:
    game = jail_year(votes(Hugo="Ben Cris Dani Eli Fe Gil", Ivy="Jun Kat Leo Mia"))
    assert game.years[0].jailed == ["Hugo"]  # 6 of 10 valid votes
    assert "Jail vote: Hugo 6, Ivy 4 (3 abstained)." in public_texts(game)


def test_R36_exactly_half_is_not_a_majority() -> None:
    game = jail_year(votes(Hugo="Ben Cris Dani Eli Fe", Ivy="Jun Kat Leo Mia", Jun="Gil"))
    assert game.years[0].jailed == []  # 5 of 10, no tie for the most: nobody
    assert "Nobody is jailed." in public_texts(game)
    assert (game.year, step_of(game)) == (2, Step.HIDDEN)


def test_R36_majority_is_more_than_half_of_valid_votes_with_the_president_counting_2() -> None:
    game = jail_year(votes(Hugo="Ana Ben", Ivy="Cris Dani"))  # Ana is President: 3 - 2
    assert game.years[0].jailed == ["Hugo"]
    assert "Jail vote: Hugo 3, Ivy 2 (9 abstained)." in public_texts(game)
    # Ana's vote alone is worth two: 2 - 2 is a tie, not a majority for Ivy
    game = table()
    until_jail_vote(game)
    jail_vote(game, votes(Hugo="Ana", Ivy="Cris Dani"))
    assert step_of(game) is Step.JAIL_RUNOFF


def test_R36_abstentions_are_not_valid_votes() -> None:
    game = jail_year(votes(Hugo="Ben"))  # 1 of 1 valid vote
    assert game.years[0].jailed == ["Hugo"]
    game = jail_year({})
    assert game.years[0].jailed == []
    assert step_of(game) is Step.HIDDEN  # no runoff when nobody got a vote


def test_R36_a_tie_goes_to_one_runoff_among_the_tied_players_only() -> None:
    game = table()
    until_jail_vote(game)
    jail_vote(game, votes(Hugo="Ben Cris Dani Eli", Ivy="Fe Gil Jun Kat"))
    assert step_of(game) is Step.JAIL_RUNOFF
    assert game.choices("Leo")[0].options["target"] == (None, "Hugo", "Ivy")
    assert "Tie: a runoff between Hugo and Ivy." in public_texts(game)
    refused(game, JailVote(player="Leo", target="Jun"), "R-36", "not_a_candidate")
    jail_vote(game, votes(Hugo="Ben Cris Dani Eli Fe", Ivy="Gil Jun Kat"))
    assert game.years[0].jailed == ["Hugo"]


def test_R36_if_the_runoff_fails_nobody_is_jailed() -> None:
    game = table()
    until_jail_vote(game)
    tie = votes(Hugo="Ben Cris Dani Eli", Ivy="Fe Gil Jun Kat")
    jail_vote(game, tie)
    jail_vote(game, tie)
    assert game.years[0].jailed == []
    assert (game.year, step_of(game)) == (2, Step.HIDDEN)  # no second runoff


def test_R36_three_way_runoff_without_majority_jails_nobody() -> None:
    game = table()
    until_jail_vote(game)
    jail_vote(game, votes(Hugo="Ben Cris Dani", Ivy="Eli Fe Gil", Jun="Kat Leo Mia"))
    assert game.choices("Ana")[0].options["target"] == (None, "Hugo", "Ivy", "Jun")
    jail_vote(game, votes(Hugo="Ben Cris Dani Ana", Ivy="Eli Fe Gil", Jun="Kat Leo Mia"))
    assert game.years[0].jailed == []  # 5 of 11 (Ana counts 2): no majority


def test_R36_only_active_non_president_players_can_be_voted_for() -> None:
    game = table()
    until_jail_vote(game)
    jail_vote(game, everyone(game, "Hugo"))
    until_jail_vote(game)
    assert "Hugo" not in game.choices("Ana")[0].options["target"]
    refused(game, JailVote(player="Ben", target="Hugo"), "R-36", "not_a_candidate")
    refused(game, JailVote(player="Ben", target="Ana"), "R-33", "president_immune")
    refused(game, JailVote(player="Hugo", target="Ben"), "R-41", "suspended")
    game.apply(JailVote(player="Ben", target="Ben"))  # oneself is allowed


# ---------------------------------------------------------------- R-37 win check
def test_R37_thresholds_are_checked_only_after_the_jail_vote_resolves() -> None:
    game = table(public_spending_target=4)
    night(game)
    elect(game, "Ana")
    project(game, "L2", ["Ana", "Ben", "Eli", "Fe", "Gil"])
    assert game.public_spending == 4
    assert outcome_of(game) is None
    discuss(game)
    assert step_of(game) is Step.JAIL_VOTE
    assert outcome_of(game) is None
    jail_vote(game, votes(Hugo="Ana Ben"))
    assert outcome_of(game) == ("good", "public_spending")
    assert game.years[-1].jailed == ["Hugo"]  # the jail vote resolved first


def test_R37_win_check_also_follows_a_forced_jail_vote() -> None:
    game = table(auto_jail_mode="forced_vote", corruption_fund_target=14)
    build_up(game)  # Fund 13
    night(game, Ben="Kat", **all_corrupt(nakaw=True))  # Fund 16
    assert outcome_of(game) is None
    after_night(game)
    assert step_of(game) is Step.FORCED_JAIL_VOTE
    yes_no_vote(game, {})
    assert outcome_of(game) == ("bad", "corruption_fund")


# ---------------------------------------------------------------- R-38 End of Year
def test_R38_protection_investigation_and_mute_expire_and_the_decrease_is_stored() -> None:
    game = table()
    both = corrupt(nakaw=True, suhol=True)
    until_jail_vote(game, Eli="Dani", Fe="Cris", Cris=both, Dani=both, Mia=both)
    secrets = moderator_view(game)["secrets"]
    assert (secrets["protected"], secrets["coa_muted"]) == ("Dani", True)
    assert secrets["investigation"] == {"target": "Cris", "aligned": "bad"}
    jail_vote(game, {})
    secrets = moderator_view(game)["secrets"]
    assert (secrets["protected"], secrets["coa_muted"], secrets["investigation"]) == (
        None,
        False,
        None,
    )
    assert secrets["treasury_decrease"] == 0  # a new Year's count
    assert game.last_decrease == 0  # 3 stolen - 3 refunded, no project
    assert player_view(game, "Gil")["you"]["muted"] is False
    assert player_view(game, "Fe")["you"]["investigation"] is None
