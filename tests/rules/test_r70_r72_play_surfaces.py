"""R-70 .. R-72: night-screen parity, moderator modes and timeouts."""

from __future__ import annotations

from typing import Any

import pytest

from korapsyon.rules import CARDS, Game, IllegalActionError, Role, Ruleset, Step
from korapsyon.rules.actions import (
    HOST,
    AutoJail,
    CommitteeVote,
    Corrupt,
    Elect,
    EndDiscussion,
    ForcedJailVote,
    Investigate,
    JailVote,
    PickCommittee,
    PickProject,
    Protect,
    Ready,
    Stand,
    WitnessVote,
)
from korapsyon.rules.events import Revenue, StepStarted, TreasuryReport
from korapsyon.rules.script import script_line
from korapsyon.rules.views import moderator_view, player_view, public_view
from tests.scenario import (
    NAMES,
    STEAL,
    after_night,
    build_up,
    corrupt,
    discuss,
    elect,
    jail_vote,
    night,
    night_actions,
    of_type,
    project,
    step_of,
    table,
    until_jail_vote,
    yes_no_vote,
)

NIGHT_KIND = {
    Role.GOOD_POLITICIAN: "auto_jail",
    Role.CORRUPT_POLITICIAN: "corrupt",
    Role.LAWYER: "protect",
    Role.OMBUDSPERSON: "investigate",
    Role.COA: "ready",
    Role.CITIZEN: "ready",
}


# ---------------------------------------------------------------- R-70 night parity
def test_R70_every_active_player_gets_one_night_screen_whatever_the_role() -> None:
    game = table()
    assert game.to_act == frozenset(range(len(NAMES)))
    for seat, name in enumerate(NAMES):
        choices = game.choices(name)
        assert [c.action for c in choices] == [NIGHT_KIND[game.roles[seat]]]
        view = player_view(game, name)
        assert view["you"]["to_act"] is True
        assert view["step"] == "hidden"
    hidden = [e for e in game.events if isinstance(e, StepStarted) and e.step == "hidden"]
    assert hidden[0].actors is None  # who must act is not broadcast


def test_R70_one_tap_completes_each_player_s_night() -> None:
    game = table()
    for action in night_actions(game, Eli="Ana", Fe="Cris", Ben="Hugo", **STEAL)[:-1]:
        game.apply(action)
        assert game.seat(action.player) in game.pending
        assert game.seat(action.player) not in game.waiting_for
    assert step_of(game) is Step.HIDDEN


def test_R70_the_board_does_not_move_while_players_decide() -> None:
    game = table()
    actions = night_actions(game, Eli="Ana", Fe="Cris", Ben="Hugo", **STEAL)
    board = public_view(game)
    assert board["ballot"] == {"step": "hidden"}
    for action in actions[:-1]:
        watcher = "Ivy" if action.player != "Ivy" else "Jun"
        seen = player_view(game, watcher)
        game.apply(action)
        assert public_view(game) == board
        assert player_view(game, watcher) == seen


def test_R70_the_phase_waits_for_the_decoy_taps_too() -> None:
    game = table()
    actions = night_actions(game)
    hugo = next(a for a in actions if a.player == "Hugo")
    for action in actions:
        if action is not hugo:
            game.apply(action)
    assert step_of(game) is Step.HIDDEN
    assert game.waiting_for == frozenset({game.seat("Hugo")})
    game.apply(hugo)
    assert step_of(game) is Step.STAND


# ---------------------------------------------------------------- R-71 moderator modes
def test_R71_the_app_moderates_automatically_between_decisions() -> None:
    game = table()
    events = []
    for action in night_actions(game):
        events = game.apply(action)
    assert of_type(events, TreasuryReport) and of_type(events, Revenue)
    assert step_of(game) is Step.STAND  # no host action was needed
    after_night(game)
    events = jail_vote(game, {})
    assert (game.year, step_of(game)) == (2, Step.HIDDEN)


def test_R71_the_human_moderator_sees_every_tracker_and_secret() -> None:
    game = table()
    build_up(game, year1_jail=dict.fromkeys(NAMES, "Hugo"))
    both = corrupt(nakaw=True, suhol=True)
    game.apply(Corrupt(player="Cris", **both))
    game.apply(Protect(player="Eli", target="Ben"))
    view = moderator_view(game)
    secrets = view["secrets"]
    assert secrets["roles"] == {
        name: role.value for name, role in zip(NAMES, game.roles, strict=True)
    }
    assert secrets["corruption_fund"] == 13
    assert secrets["kaban"] == game.kaban
    assert secrets["pending"]["Cris"] == {"player": "Cris", "action": "corrupt", **both}
    assert secrets["pending"]["Eli"] == {"player": "Eli", "action": "protect", "target": "Ben"}
    assert "Cris" not in secrets["waiting_for"] and "Ana" in secrets["waiting_for"]
    assert secrets["last_protected"] == {"year": 3, "player": None}
    assert secrets["witness_used"] is False
    assert secrets["audit"] == {"project": "L3", "kickback": False}
    hugo = next(p for p in view["players"] if p["name"] == "Hugo")
    assert (hugo["strikes"], hugo["returns_year"]) == (1, 5)
    assert view["president"] == {"name": "Ana", "since": 3, "until": 4}
    assert all(
        entry.get("private") for entry in view["timeline"] if "Lawyer protects" in entry["text"]
    )
    assert "secrets" not in public_view(game)
    assert "secrets" not in player_view(game, "Cris")


def _script_tour(night_choices: dict[str, Any]) -> list[tuple[str | None, str]]:
    """Script lines through a Year with every kind of step."""
    game = table(auto_jail_mode="forced_vote")
    lines: list[tuple[str | None, str]] = []

    def note() -> None:
        line = script_line(game)
        assert moderator_view(game)["script"] == line == public_view(game)["script"]
        step = step_of(game)
        lines.append((None if step is None else step.value, line))

    note()
    night(game, Fe="Cris", **night_choices)
    note()
    for seat in sorted(game.to_act):
        game.apply(Stand(player=game.players[seat], stand=game.players[seat] in ("Ana", "Ben")))
    note()
    tie = {n: ("Ana" if i % 2 else "Ben") for i, n in enumerate(NAMES[:12])}
    for seat in sorted(game.to_act):
        game.apply(Elect(player=game.players[seat], candidate=tie.get(game.players[seat])))
    note()
    tie["Mia"] = "Ana"
    for seat in sorted(game.to_act):
        game.apply(Elect(player=game.players[seat], candidate=tie.get(game.players[seat])))
    note()
    game.apply(PickProject(player="Ana", card="L2"))
    note()
    game.apply(PickCommittee(player="Ana", members=("Ana", "Ben", "Eli", "Fe", "Gil")))
    note()
    for name in ("Ana", "Ben", "Eli", "Fe", "Gil"):
        game.apply(CommitteeVote(player=name, support=False))
    note()
    discuss(game, witness=True)
    note()
    yes_no_vote(game, {})
    note()
    jail_vote(game, {"Ben": "Hugo", "Cris": "Ivy"})
    note()
    return lines


def test_R71_the_script_gives_the_line_to_read_for_every_step() -> None:
    lines = dict(_script_tour({}))
    assert lines["hidden"].startswith("Year 1. Everyone, close your eyes.")
    assert lines["stand"] == "The office of President is vacant. Who will stand for President?"
    assert lines["elect"] == "Vote in secret for President. The candidates are: Ana, Ben."
    assert lines["elect_runoff"] == "The election is tied. Vote again, only between Ana, Ben."
    assert lines["pick_project"] == (
        "President Ana, choose this Year's project: S3 Community Health Center or "
        "L2 Provincial Hospital Expansion."
    )
    assert lines["pick_committee"] == "President Ana, name a committee of 5."
    assert lines["committee_vote"] == (
        "Committee members Ana, Ben, Eli, Fe, Gil: vote in secret, Support or Oppose."
    )
    assert lines["discussion"].startswith("The floor is open.")
    assert lines["witness_vote"] == (
        "A witness has testified that Cris is Bad aligned. Shall Cris be jailed?"
    )
    assert lines["jail_vote"].startswith("Jail vote: vote in secret")
    assert lines["jail_runoff"] == "The jail vote is tied. Vote again, only between Hugo, Ivy."


def test_R71_the_script_reads_only_public_facts() -> None:
    quiet = _script_tour({})
    busy = _script_tour({"Eli": "Ben", "Ana": "Hugo", **STEAL})
    assert quiet == busy


def test_R71_the_script_announces_the_forced_vote_and_the_end() -> None:
    game = table(auto_jail_mode="forced_vote", public_spending_target=20)
    build_up(game)
    night(game, Ben="Kat")
    after_night(game)
    assert script_line(game) == "An Auto Jail forces this Year's vote: shall Kat be jailed?"
    yes_no_vote(game, {})
    until_jail_vote(game)
    game2 = table(public_spending_target=4)
    night(game2)
    elect(game2, "Ana")
    project(game2, "L2", ["Ana", "Ben", "Eli", "Fe", "Gil"])
    discuss(game2)
    jail_vote(game2, {})
    assert script_line(game2) == (
        "The game is over. Good wins: Approved Public Spending reached its target."
    )


# ---------------------------------------------------------------- R-72 timeouts
def _defaults(game: Game) -> list[Any]:
    """Every default the timers would submit now (the host's in the discussion)."""
    if step_of(game) is Step.DISCUSSION:
        return [game.default_action(HOST)]
    return [game.default_action(game.players[s]) for s in sorted(game.waiting_for)]


def test_R72_night_defaults_are_pass_or_nobody() -> None:
    game = table()
    defaults = {a.player: a for a in _defaults(game)}
    assert defaults["Ana"] == AutoJail(player="Ana", target=None, auto=True)
    assert defaults["Cris"] == Corrupt(
        player="Cris", nakaw=False, suhol=False, tokhang=None, auto=True
    )
    assert defaults["Eli"] == Protect(player="Eli", target=None, auto=True)
    assert defaults["Fe"] == Investigate(player="Fe", target=None, auto=True)
    assert defaults["Gil"] == Ready(player="Gil", auto=True)
    assert defaults["Hugo"] == Ready(player="Hugo", auto=True)
    assert all(game.is_legal(a) for a in defaults.values())


def test_R72_vote_defaults_are_abstain_not_standing_and_oppose() -> None:
    game = table()
    night(game)
    assert game.default_action("Ana") == Stand(player="Ana", stand=False, auto=True)
    for seat in sorted(game.to_act):
        game.apply(Stand(player=game.players[seat], stand=game.players[seat] == "Ana"))
    assert game.default_action("Ben") == Elect(player="Ben", candidate=None, auto=True)
    for seat in sorted(game.to_act):
        game.apply(Elect(player=game.players[seat], candidate="Ana"))
    game.apply(PickProject(player="Ana", card="S3"))
    game.apply(PickCommittee(player="Ana", members=("Ana", "Ben", "Gil")))
    assert game.default_action("Gil") == CommitteeVote(player="Gil", support=False, auto=True)
    for name in ("Ana", "Ben", "Gil"):
        game.apply(game.default_action(name))
    assert game.years == [] and game.public_spending == 0  # all Oppose: it failed
    assert game.default_action(HOST) == EndDiscussion(player=HOST, auto=True)
    game.apply(game.default_action(HOST))
    assert game.default_action("Hugo") == JailVote(player="Hugo", target=None, auto=True)


def test_R72_witness_and_forced_vote_defaults_abstain() -> None:
    game = table(auto_jail_mode="forced_vote")
    build_up(game)
    night(game, Fe="Cris", Ben="Kat")
    after_night(game, witness=True)
    assert game.default_action("Hugo") == WitnessVote(player="Hugo", jail=None, auto=True)
    yes_no_vote(game, {})
    assert step_of(game) is Step.FORCED_JAIL_VOTE
    assert game.default_action("Hugo") == ForcedJailVote(player="Hugo", jail=None, auto=True)


def test_R72_the_president_s_card_and_committee_are_drawn_by_the_seeded_rng() -> None:
    drawn = set()
    for seed in range(12):
        game, twin = table(seed=seed), table(seed=seed)
        for g in (game, twin):
            night(g)
            elect(g, "Ana")
        card = game.default_action("Ana")
        assert card == twin.default_action("Ana")
        assert isinstance(card, PickProject) and card.auto
        assert card.card in ("S3", "L2")
        drawn.add(card.card)
        game.apply(card)
        committee = game.default_action("Ana")
        assert isinstance(committee, PickCommittee) and committee.auto
        assert len(committee.members) == len(set(committee.members)) == CARDS[card.card].committee
        assert game.is_legal(committee)
    assert drawn == {"S3", "L2"}


def test_R72_only_players_with_a_decision_have_a_default() -> None:
    game = table()
    night(game)
    elect(game, "Ana")
    for name in ("Ben", HOST):
        with pytest.raises(IllegalActionError) as info:
            game.default_action(name)
        assert (info.value.rule, info.value.code) == ("R-72", "not_your_turn")
    game.apply(PickProject(player="Ana", card="S3"))
    game.apply(PickCommittee(player="Ana", members=("Ana", "Ben", "Gil")))
    for name in ("Ana", "Ben", "Gil"):
        game.apply(CommitteeVote(player=name, support=True))
    with pytest.raises(IllegalActionError) as info:
        game.default_action("Fe")  # in the discussion only the host has a default
    assert info.value.rule == "R-72"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_R72_a_game_driven_only_by_timers_never_waits_forever(seed: int) -> None:
    game = Game(
        NAMES,
        seed=seed,
        ruleset=Ruleset(max_years=6),
    )
    steps = 0
    while not game.is_over:
        for action in _defaults(game):
            assert game.is_legal(action)
            game.apply(action)
        steps += 1
        assert steps < 200
    assert game.outcome is not None
    assert all(a.auto for a in game.actions)
    assert game.outcome.reason == "safety_stop"  # nothing else can happen without choices
