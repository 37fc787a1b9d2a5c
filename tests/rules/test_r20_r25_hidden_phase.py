"""R-20 .. R-25: the Start of Year and the Hidden Phase (night decisions and their
resolution order)."""

from __future__ import annotations

from typing import Any

import pytest

from korapsyon.rules import Step, Team
from korapsyon.rules.actions import (
    AutoJail,
    Corrupt,
    Investigate,
    JailVote,
    Protect,
    Ready,
    Witness,
)
from korapsyon.rules.events import (
    CORRUPT,
    EVERYONE,
    MODERATOR,
    AuditDelivered,
    AutoJailCancelled,
    AutoJailUsed,
    BaseEvent,
    CoaMuted,
    ForcedVoteCalled,
    InvestigationResult,
    JailingBlocked,
    NotPaid,
    PlayerEliminated,
    PlayerJailed,
    ProtectionSet,
    Stolen,
    SuholPaid,
    TokhangBlocked,
    TokhangPaid,
    TreasuryReport,
)
from korapsyon.rules.views import moderator_view, player_view, public_view
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
    night_actions,
    of_type,
    project,
    public_texts,
    quiet_year,
    refused,
    step_of,
    table,
    until_jail_vote,
    yes_no_vote,
)

CORRUPT_NAMES = ("Cris", "Dani", "Mia")


def all_corrupt(**choice: Any) -> dict[str, Any]:
    return {name: corrupt(**choice) for name in CORRUPT_NAMES}


def jail_hugo_in_year_1(game: Any) -> None:
    until_jail_vote(game)
    jail_vote(game, everyone(game, "Hugo"))


# ---------------------------------------------------------------- R-20 Start of Year
def test_R20_suspended_player_returns_at_the_start_of_year_with_public_first_strike() -> None:
    game = table()
    jail_hugo_in_year_1(game)
    for _ in range(3):
        quiet_year(game)
    assert game.year == 5
    texts = public_texts(game)
    start = texts.index("Year 5 begins.")
    returned = texts.index("Hugo returns from suspension, on strike 1.")
    hidden = texts.index("Hidden Phase: everyone makes one secret choice.", start)
    assert start < returned < hidden
    view = public_view(game)
    hugo = next(p for p in view["players"] if p["name"] == "Hugo")
    assert (hugo["status"], hugo["strikes"], hugo["returns_year"]) == ("active", 1, None)
    assert game.seat("Hugo") in game.to_act


def test_R20_every_active_player_is_asked_for_a_night_decision() -> None:
    game = table()
    assert game.to_act == frozenset(range(13))
    jail_hugo_in_year_1(game)
    assert step_of(game) is Step.HIDDEN
    assert game.to_act == frozenset(game.active_seats())
    assert game.seat("Hugo") not in game.to_act


# ---------------------------------------------------------------- R-21 Protect
def test_R21_lawyer_may_protect_self_anyone_active_or_nobody() -> None:
    game = table()
    options = game.choices("Eli")[0].options["target"]
    assert options == (None, *game.players)
    for target in ("Cris", None, "Eli"):
        game.apply(Protect(player="Eli", target=target))  # resubmission: the last counts
    for action in night_actions(game):
        if action.player != "Eli":
            game.apply(action)
    assert moderator_view(game)["secrets"]["protected"] == "Eli"  # self


def test_R21_protecting_an_inactive_player_is_refused() -> None:
    game = table()
    jail_hugo_in_year_1(game)
    refused(game, Protect(player="Eli", target="Hugo"), "R-21", "inactive_target")
    refused(game, Protect(player="Eli", target="Nobody"), "R-21", "unknown_player")


def test_R21_consecutive_protection_is_refused_by_default() -> None:
    game = table()
    until_jail_vote(game, Eli="Dani")
    jail_vote(game, {})
    assert "Dani" not in game.choices("Eli")[0].options["target"]
    error = refused(game, Protect(player="Eli", target="Dani"), "R-21", "consecutive_protect")
    assert "Dani" in error.message
    # the bar lasts one Year: protect someone else, then Dani again
    until_jail_vote(game, Eli="Ben")
    jail_vote(game, {})
    assert "Dani" in game.choices("Eli")[0].options["target"]
    game.apply(Protect(player="Eli", target="Dani"))


def test_R21_consecutive_protection_is_accepted_with_the_allowed_variant() -> None:
    game = table(lawyer_consecutive="allowed")
    until_jail_vote(game, Eli="Dani")
    jail_vote(game, everyone(game, "Dani"))
    assert "Dani" in game.choices("Eli")[0].options["target"]
    until_jail_vote(game, Eli="Dani")
    events = jail_vote(game, everyone(game, "Dani"))
    assert [e.player for e in of_type(events, JailingBlocked)] == ["Dani"]
    assert game.strikes[game.seat("Dani")] == 0


def test_R21_protection_blocks_the_jail_vote() -> None:
    game = table()
    until_jail_vote(game, Eli="Dani")
    jail_vote(game, everyone(game, "Dani"))
    assert "The attempted jailing of Dani has failed due to legal protection." in public_texts(game)
    assert game.strikes[game.seat("Dani")] == 0
    assert game.years[-1].jailed == []


def test_R21_protection_blocks_the_witness_vote() -> None:
    game = table()
    until_jail_vote(game, Eli="Cris", Fe="Cris", witness=True)  # stops at the Witness vote
    assert step_of(game) is Step.WITNESS_VOTE
    events = yes_no_vote(game, dict.fromkeys(["Ana", "Ben", "Fe", "Gil", "Hugo"], True))
    assert [e.player for e in of_type(events, JailingBlocked)] == ["Cris"]
    assert game.strikes[game.seat("Cris")] == 0
    assert step_of(game) is Step.JAIL_VOTE


def test_R21_protection_blocks_auto_jail() -> None:
    game = table()
    build_up(game)
    events = night(game, Eli="Kat", Ben="Kat")
    assert [e.player for e in of_type(events, JailingBlocked)] == ["Kat"]
    assert game.status[game.seat("Kat")] == "active"
    assert game.public_spending == 15 - 12  # ruling: the cost is paid even when blocked


def test_R21_protection_blocks_tokhang() -> None:
    game = table()
    build_up(game)
    events = night(game, Eli="Hugo", **all_corrupt(tokhang="Hugo"))
    (blocked,) = of_type(events, TokhangBlocked)
    assert (blocked.player, blocked.audience) == ("Hugo", EVERYONE)
    assert "Hugo survived an attempt on their life: legal protection." in public_texts(game)
    assert game.status[game.seat("Hugo")] == "active"
    assert game.corruption_fund == 13 - 10  # ruling: the cost is paid even when blocked


def test_R21_protection_lasts_this_year_only() -> None:
    game = table()
    until_jail_vote(game, Eli="Dani")
    jail_vote(game, {})
    until_jail_vote(game, Eli=None)
    jail_vote(game, everyone(game, "Dani"))
    assert game.strikes[game.seat("Dani")] == 1
    assert game.status[game.seat("Dani")] == "suspended"


def test_R21_protection_is_secret_until_it_triggers() -> None:
    protected, unprotected = table(), table()
    events = night(protected, Eli="Dani")
    night(unprotected, Eli=None)
    (setting,) = of_type(events, ProtectionSet)
    assert setting.audience == MODERATOR
    for game in (protected, unprotected):
        elect(game, "Ana")
        project(game, "S3", ["Ana", "Ben", "Gil"])
        discuss(game)
    assert public_view(protected) == public_view(unprotected)
    assert player_view(protected, "Dani") == player_view(unprotected, "Dani")
    assert moderator_view(protected)["secrets"]["protected"] == "Dani"


# ---------------------------------------------------------------- R-22 Investigate
def test_R22_investigation_result_is_private_to_the_ombudsperson() -> None:
    game = table()
    (result,) = of_type(night(game, Fe="Mia"), InvestigationResult)
    assert (result.audience, result.target, result.aligned) == (game.seat("Fe"), "Mia", Team.BAD)
    assert player_view(game, "Fe")["you"]["investigation"] == {"target": "Mia", "aligned": "bad"}
    assert "Your investigation: Mia is Bad aligned." in [
        t["text"] for t in player_view(game, "Fe")["timeline"]
    ]
    for name in ("Mia", "Hugo", "Ana"):
        assert player_view(game, name)["you"]["investigation"] is None
    assert not any("investigation" in t.lower() for t in public_texts(game))


def test_R22_ombudsperson_investigates_another_active_player_or_nobody() -> None:
    game = table()
    options = game.choices("Fe")[0].options["target"]
    assert None in options
    assert "Fe" not in options
    refused(game, Investigate(player="Fe", target="Fe"), "R-22", "self_target")
    jail_hugo_in_year_1(game)
    assert "Hugo" not in game.choices("Fe")[0].options["target"]
    refused(game, Investigate(player="Fe", target="Hugo"), "R-22", "inactive_target")
    assert not of_type(night(game, Fe=None), InvestigationResult)


def test_R22_investigation_result_is_valid_this_year_only() -> None:
    game = table()
    until_jail_vote(game, Fe="Cris")
    jail_vote(game, {})
    night(game)
    assert player_view(game, "Fe")["you"]["investigation"] is None
    project(game, "S1", ["Ana"], support=0)
    refused(game, Witness(player="Fe"), "R-35", "witness_unavailable")


# ---------------------------------------------------------------- R-23 Corrupt Politicians
def test_R23_nakaw_happens_only_if_every_free_corrupt_says_yes() -> None:
    game = table()
    events = night(game, Cris=corrupt(nakaw=True), Dani=corrupt(nakaw=True), Mia=corrupt())
    assert not of_type(events, Stolen)
    assert game.corruption_fund == 0
    game = table()
    (stolen,) = of_type(night(game, **STEAL), Stolen)
    assert (stolen.amount, stolen.audience) == (3, CORRUPT)


def test_R23_the_steal_equals_the_number_of_free_corrupt() -> None:
    game = table()
    until_jail_vote(game)
    jail_vote(game, everyone(game, "Dani"))  # Dani suspended Years 2-4
    assert game.seat("Dani") not in game.to_act
    (stolen,) = of_type(night(game, Cris=corrupt(nakaw=True), Mia=corrupt(nakaw=True)), Stolen)
    assert stolen.amount == 2
    assert game.corruption_fund == 2


def test_R23_suspended_corrupt_take_no_part() -> None:
    game = table()
    until_jail_vote(game)
    jail_vote(game, everyone(game, "Dani"))
    refused(
        game, Corrupt(player="Dani", nakaw=False, suhol=False, tokhang=None), "R-41", "suspended"
    )
    # Cris and Mia alone agree: their unanimity is enough (Dani does not block it)
    events = night(game, **all_corrupt(nakaw=True, tokhang=None))
    assert of_type(events, Stolen)[0].amount == 2
    view = player_view(game, "Cris")
    assert "Dani" in view["you"]["teammates"]


@pytest.mark.parametrize(
    ("consent", "paid"), [("unanimous", False), ("majority", True)], ids=["default", "majority"]
)
def test_R23_suhol_needs_every_free_corrupt_unless_majority_option(
    consent: str, paid: bool
) -> None:
    game = table(suhol_consent=consent)
    yes = corrupt(nakaw=True, suhol=True)
    events = night(game, Cris=yes, Dani=yes, Mia=corrupt(nakaw=True))
    assert bool(of_type(events, SuholPaid)) is paid
    assert game.corruption_fund == (0 if paid else 3)
    assert game.coa_muted is paid
    # one vote of three is never a majority
    game = table(suhol_consent=consent)
    events = night(game, Cris=yes, Dani=corrupt(nakaw=True), Mia=corrupt(nakaw=True))
    assert not of_type(events, SuholPaid)


@pytest.mark.parametrize(
    ("consent", "killed"), [("unanimous", False), ("majority", True)], ids=["default", "majority"]
)
def test_R23_tokhang_needs_every_free_corrupt_on_the_same_target_unless_majority_option(
    consent: str, killed: bool
) -> None:
    game = table(tokhang_consent=consent)
    build_up(game)
    events = night(
        game, Cris=corrupt(tokhang="Hugo"), Dani=corrupt(tokhang="Hugo"), Mia=corrupt(tokhang="Ivy")
    )
    assert [e.player for e in of_type(events, PlayerEliminated)] == (["Hugo"] if killed else [])
    assert game.corruption_fund == (3 if killed else 13)
    assert game.status[game.seat("Ivy")] == "active"


def test_R23_tokhang_with_every_corrupt_agreeing_eliminates_the_target() -> None:
    game = table()
    build_up(game)
    events = night(game, **all_corrupt(tokhang="Hugo"))
    (paid,) = of_type(events, TokhangPaid)
    assert (paid.target, paid.audience) == ("Hugo", CORRUPT)
    assert game.status[game.seat("Hugo")] == "eliminated"


def test_R23_tokhang_target_must_be_active() -> None:
    game = table()
    jail_hugo_in_year_1(game)
    assert "Hugo" not in game.choices("Cris")[0].options["tokhang"]
    refused(
        game,
        Corrupt(player="Cris", nakaw=False, suhol=False, tokhang="Hugo"),
        "R-23",
        "inactive_target",
    )


def test_R23_free_corrupt_see_each_other_s_choices_live() -> None:
    game = table()
    jail_hugo_in_year_1(game)
    until_jail_vote(game)
    jail_vote(game, everyone(game, "Mia"))  # Mia suspended
    choice = Corrupt(player="Cris", nakaw=True, suhol=False, tokhang="Leo")
    game.apply(choice)
    dani = player_view(game, "Dani")["you"]
    assert dani["team_choices"] == {"Cris": choice.to_wire()}  # Mia is not free
    assert player_view(game, "Cris")["you"]["team_choices"] == {"Dani": None}
    assert "team_choices" not in player_view(game, "Hugo")["you"]
    assert "team_choices" not in player_view(game, "Ana")["you"]
    # a change of mind is seen too, and the last choice counts
    game.apply(Corrupt(player="Cris", nakaw=False, suhol=False, tokhang=None))
    assert player_view(game, "Dani")["you"]["team_choices"]["Cris"]["nakaw"] is False
    events = night(game, Cris=corrupt(), Dani=corrupt(nakaw=True))
    assert not of_type(events, Stolen)


def test_R23_suspended_corrupt_do_not_see_the_free_corrupt_s_live_choices() -> None:
    game = table()
    until_jail_vote(game)
    jail_vote(game, everyone(game, "Dani"))  # Dani suspended Years 2-4
    game.apply(Corrupt(player="Cris", nakaw=True, suhol=False, tokhang="Leo"))
    dani = player_view(game, "Dani")["you"]
    assert dani["status"] == "suspended"
    assert not dani.get("team_choices")


# ---------------------------------------------------------------- R-24 Auto Jail choice
def test_R24_good_politician_names_an_active_non_president_or_nobody() -> None:
    game = table()
    until_jail_vote(game)  # Ana is President
    jail_vote(game, everyone(game, "Hugo"))
    options = game.choices("Ben")[0].options["target"]
    assert options[0] is None
    assert "Ana" not in options and "Hugo" not in options
    assert "Ben" in options and "Cris" in options
    refused(game, AutoJail(player="Ben", target="Ana"), "R-33", "president_immune")
    refused(game, AutoJail(player="Ben", target="Hugo"), "R-24", "inactive_target")
    game.apply(AutoJail(player="Ben", target="Cris"))


def test_R24_only_good_politicians_may_auto_jail() -> None:
    game = table()
    refused(game, AutoJail(player="Hugo", target="Cris"), "R-24", "wrong_role")
    refused(game, AutoJail(player="Cris", target="Ana"), "R-24", "wrong_role")
    refused(game, Ready(player="Ana"), "R-70", "wrong_role")
    refused(game, Protect(player="Fe", target="Ana"), "R-21", "wrong_role")


# ---------------------------------------------------------------- R-25 resolution
def test_R25_nothing_resolves_until_every_active_player_has_decided() -> None:
    game = table()
    actions = night_actions(game, Fe="Cris", **STEAL)
    for action in actions[:-1]:
        events = game.apply(action)
        assert step_of(game) is Step.HIDDEN
        assert not of_type(events, Stolen) and not of_type(events, InvestigationResult)
    events = game.apply(actions[-1])
    assert of_type(events, Stolen) and of_type(events, InvestigationResult)
    assert step_of(game) is Step.STAND


def test_R25_resolution_runs_in_the_rulebook_order() -> None:
    game = table()
    build_up(game)
    both = corrupt(nakaw=True, suhol=True, tokhang="Leo")
    actions = night_actions(game, Eli="Ana", Fe="Cris", Ben="Kat", Cris=both, Dani=both, Mia=both)
    events: list[BaseEvent] = []
    for action in reversed(actions):  # the order of submission does not matter
        events += game.apply(action)
    order = [
        ProtectionSet,
        InvestigationResult,
        Stolen,
        SuholPaid,
        TokhangPaid,
        PlayerEliminated,
        AutoJailUsed,
        PlayerJailed,
        AuditDelivered,
        TreasuryReport,
    ]
    positions = [next(i for i, e in enumerate(events) if isinstance(e, kind)) for kind in order]
    assert positions == sorted(positions)


def test_R25_public_phase_action_in_the_hidden_phase_is_refused() -> None:
    game = table()
    refused(game, JailVote(player="Ana", target="Cris"), "R-25", "wrong_step")


def test_R25_step3_nakaw_moves_the_steal_from_kaban_to_fund_and_treasury_decrease() -> None:
    game, honest = table(), table()
    night(game, **STEAL)
    night(honest)
    assert game.corruption_fund == 3
    assert game.kaban == honest.kaban - 3
    assert game.treasury_decrease == 3
    assert game.kaban_public == honest.kaban_public  # not public until the report


@pytest.mark.parametrize(
    ("check", "paid"), [("after_steal", True), ("before_steal", False)], ids=["default", "before"]
)
def test_R25_step4_suhol_needs_a_fund_of_3_after_the_steal(check: str, paid: bool) -> None:
    game = table(suhol_fund_check=check)
    both = corrupt(nakaw=True, suhol=True)
    events = night(game, Cris=both, Dani=both, Mia=both)  # the Fund was 0 before the steal
    assert bool(of_type(events, SuholPaid)) is paid
    (not_paid,) = of_type(events, NotPaid) or [None]
    assert (not_paid is None) is paid
    assert game.corruption_fund == (0 if paid else 3)


def test_R25_step4_suhol_is_not_paid_when_the_fund_is_below_3() -> None:
    game = table()
    suhol = corrupt(suhol=True)
    events = night(game, Cris=suhol, Dani=suhol, Mia=suhol)
    (not_paid,) = of_type(events, NotPaid)
    assert (not_paid.ability, not_paid.audience) == ("suhol", CORRUPT)
    assert not of_type(events, CoaMuted)
    assert (game.corruption_fund, game.coa_muted) == (0, False)
    assert player_view(game, "Gil")["you"]["muted"] is False


def test_R25_steal_3_and_suhol_adds_0_to_the_fund_and_no_public_drop() -> None:
    game = table()
    both = corrupt(nakaw=True, suhol=True)
    events = night(game, Cris=both, Dani=both, Mia=both)
    (suhol,) = of_type(events, SuholPaid)
    assert suhol.refund == 3
    assert game.corruption_fund == 0
    assert game.kaban == 50 + 13  # the steal went back
    assert [e.audience for e in of_type(events, CoaMuted)] == [game.seat("Gil")]
    after_night(game)
    jail_vote(game, {})
    night(game)
    assert "Last Year's total decrease: 0. Kaban ng Bayan: 63." in public_texts(game)


def test_R25_step4_suhol_refund_is_at_most_this_year_s_steal() -> None:
    game = table()
    build_up(game)  # Fund 13
    suhol = corrupt(suhol=True)
    events = night(game, Cris=suhol, Dani=suhol, Mia=suhol)  # no steal
    assert of_type(events, SuholPaid)[0].refund == 0
    assert game.corruption_fund == 10
    assert game.treasury_decrease == 0
    after_night(game)
    jail_vote(game, everyone(game, "Dani"))
    # Year 5: two free Corrupt steal 2 and pay Suhol: refund 2, the Fund loses 1
    both = corrupt(nakaw=True, suhol=True)
    events = night(game, Cris=both, Mia=both)
    assert of_type(events, SuholPaid)[0].refund == 2
    assert game.corruption_fund == 10 + 2 - 3
    assert game.treasury_decrease == 0


def test_R25_step4_suhol_never_alters_the_audit() -> None:
    game = table()
    night(game)
    elect(game, "Ana")
    project(game, "L2", ["Ana", "Ben", "Cris", "Eli", "Fe"])  # kickback
    discuss(game)
    jail_vote(game, {})
    both = corrupt(nakaw=True, suhol=True)
    events = night(game, Cris=both, Dani=both, Mia=both)
    assert of_type(events, SuholPaid)
    (audit,) = of_type(events, AuditDelivered)
    assert (audit.audience, audit.project, audit.kickback) == (game.seat("Gil"), "L2", True)


def test_R25_step5_tokhang_needs_the_fund_to_cover_its_cost() -> None:
    game = table()
    until_jail_vote(game, **STEAL)  # Fund 3
    jail_vote(game, {})
    events = night(game, **all_corrupt(nakaw=True, tokhang="Hugo"))  # Fund 6 < 10
    (not_paid,) = of_type(events, NotPaid)
    assert (not_paid.ability, not_paid.cost) == ("tokhang", 10)
    assert game.status[game.seat("Hugo")] == "active"
    assert game.corruption_fund == 6
    assert not any("Hugo" in t for t in public_texts(game))


def test_R25_step5_tokhang_eliminates_with_a_public_role_reveal() -> None:
    game = table()
    build_up(game)
    night(game, **all_corrupt(tokhang="Gil"))
    assert "Gil is eliminated by Tokhang. They were a COA." in public_texts(game)
    assert game.corruption_fund == 3


def test_R25_step6_auto_jail_needs_public_spending_to_cover_its_cost() -> None:
    game = table()
    until_jail_vote(game)
    jail_vote(game, {})
    events = night(game, Ben="Cris")  # Approved Public Spending 0 < 12: cancelled at resolution
    (cancelled,) = of_type(events, AutoJailCancelled)
    assert (cancelled.audience, cancelled.target) == (game.seat("Ben"), "Cris")
    assert game.status[game.seat("Cris")] == "active"
    assert game.public_spending == 0
    assert not any("Auto Jail" in t for t in public_texts(game))
    assert any(
        t["text"].startswith("Your Auto Jail on Cris was cancelled")
        for t in player_view(game, "Ben")["timeline"]
    )


def test_R25_step6_auto_jail_pays_and_jails_directly_by_default() -> None:
    game = table()
    build_up(game)
    events = night(game, Ben="Kat")
    assert not of_type(events, ForcedVoteCalled)
    (jailed,) = of_type(events, PlayerJailed)
    assert (jailed.player, jailed.strikes, jailed.returns_year) == ("Kat", 1, 8)
    assert game.public_spending == 3
    assert "An Auto Jail against Kat was paid from Approved Public Spending (-12, now 3)." in (
        public_texts(game)
    )


@pytest.mark.parametrize("order", ["seat", "reversed"])
def test_R25_step6_auto_jails_resolve_in_seat_order(order: str) -> None:
    game = table()
    build_up(game)  # 15: enough for one Auto Jail only
    actions = night_actions(game, Ana="Leo", Ben="Kat")
    for action in actions if order == "seat" else reversed(actions):
        game.apply(action)
    assert game.status[game.seat("Leo")] == "suspended"  # Ana sits before Ben
    assert game.status[game.seat("Kat")] == "active"
    assert game.public_spending == 3


def test_R25_step6_auto_jail_cancelled_when_its_good_politician_is_no_longer_active() -> None:
    game = table()
    build_up(game)
    events = night(game, Ben="Kat", **all_corrupt(tokhang="Ben"))
    (cancelled,) = of_type(events, AutoJailCancelled)
    assert cancelled.target == "Kat"
    assert game.public_spending == 15
    assert game.status[game.seat("Kat")] == "active"


def test_R25_step6_auto_jail_cancelled_when_its_target_is_no_longer_active() -> None:
    game = table()
    build_up(game)
    events = night(game, Ben="Kat", **all_corrupt(tokhang="Kat"))
    assert of_type(events, AutoJailCancelled)[0].target == "Kat"
    assert game.public_spending == 15


def test_R25_step6_second_auto_jail_on_the_same_target_is_cancelled() -> None:
    game = table(public_spending_target=20)  # Auto Jail costs 10
    build_up(game)
    # protection keeps Kat active after the first Auto Jail; the second is cancelled
    events = night(game, Eli="Kat", Ana="Kat", Ben="Kat")
    (cancelled,) = of_type(events, AutoJailCancelled)
    assert cancelled.audience == game.seat("Ben")
    assert "already" in cancelled.reason
    assert len(of_type(events, AutoJailUsed)) == 1
    assert game.public_spending == 5


def test_R25_step6_forced_vote_variant_pays_and_calls_a_yes_no_vote() -> None:
    game = table(auto_jail_mode="forced_vote")
    build_up(game)
    events = night(game, Ben="Kat")
    assert [e.player for e in of_type(events, ForcedVoteCalled)] == ["Kat"]
    assert not of_type(events, PlayerJailed)
    assert game.public_spending == 3
    project(game, "S4", ["Ana"], support=0)
    discuss(game)
    assert step_of(game) is Step.FORCED_JAIL_VOTE
    assert public_view(game)["forced_vote"] == "Kat"
    # President Ana counts 2: 2 yes - 2 no is not more than half
    yes_no_vote(game, {"Ana": True, "Ben": False, "Cris": False, "Hugo": None})
    assert game.status[game.seat("Kat")] == "active"
    assert (game.year, step_of(game)) == (5, Step.HIDDEN)  # the forced vote replaced the jail vote


def test_R25_step6_forced_vote_jails_on_more_than_half_with_the_president_counting_2() -> None:
    game = table(auto_jail_mode="forced_vote")
    build_up(game)
    night(game, Ben="Kat")
    project(game, "S4", ["Ana"], support=0)
    discuss(game)
    events = yes_no_vote(game, {"Ana": True, "Ben": True, "Cris": False, "Dani": False})
    assert [e.player for e in of_type(events, PlayerJailed)] == ["Kat"]
    assert of_type(events, PlayerJailed)[0].cause == "auto_jail"


def test_R25_step6_forced_vote_is_blocked_by_protection() -> None:
    game = table(auto_jail_mode="forced_vote")
    build_up(game)
    night(game, Ben="Kat", Eli="Kat")
    project(game, "S4", ["Ana"], support=0)
    discuss(game)
    yes_no_vote(game, everyone(game, True))
    assert "The attempted jailing of Kat has failed due to legal protection." in public_texts(game)
    assert game.strikes[game.seat("Kat")] == 0


def test_R25_step6_only_one_forced_vote_a_year_later_auto_jail_cancelled_unpaid() -> None:
    game = table(auto_jail_mode="forced_vote", public_spending_target=20)  # costs 10
    build_up(game)
    events = night(game, Ana="Leo", Ben="Kat")
    assert [e.player for e in of_type(events, ForcedVoteCalled)] == ["Leo"]
    (cancelled,) = of_type(events, AutoJailCancelled)
    assert (cancelled.audience, cancelled.target) == (game.seat("Ben"), "Kat")
    assert game.public_spending == 5  # only one was paid


def test_R25_step6_forced_vote_falls_back_to_the_jail_vote_if_the_target_left() -> None:
    game = table(auto_jail_mode="forced_vote")
    build_up(game)
    night(game, Ben="Cris", Fe="Cris")
    project(game, "S4", ["Ana"], support=0)
    discuss(game, witness=True)
    yes_no_vote(game, everyone(game, True))  # Witness vote jails Cris
    assert game.status[game.seat("Cris")] == "suspended"
    assert step_of(game) is Step.JAIL_VOTE
    assert "Cris" not in game.choices("Ana")[0].options["target"]


def test_R25_step6_forced_vote_falls_back_to_the_jail_vote_if_the_target_is_president() -> None:
    game = table(auto_jail_mode="forced_vote")
    build_up(game)
    quiet_year(game)  # Year 4; Ana's term ends with it
    night(game, Ben="Kat")  # Year 5: no President at night
    assert step_of(game) is Step.STAND
    after_night(game, president="Kat")
    assert step_of(game) is Step.JAIL_VOTE
    assert "Kat" not in game.choices("Ana")[0].options["target"]
    assert game.public_spending == 3  # the cost stays paid


def test_R25_step7_the_coa_audit_is_delivered_privately() -> None:
    game = table()
    events = night(game)
    (audit,) = of_type(events, AuditDelivered)
    assert (audit.audience, audit.project, audit.kickback) == (game.seat("Gil"), None, None)
    gil = [t["text"] for t in player_view(game, "Gil")["timeline"]]
    assert "Audit: No project last year." in gil
    assert not any(t.startswith("Audit") for t in public_texts(game))
    assert not any(t["text"].startswith("Audit") for t in player_view(game, "Hugo")["timeline"])
