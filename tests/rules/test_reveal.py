"""R-50: the night-by-night reveal at the end of a game. Once (and only once) the game is
over, every view holds the same ``reveal``: every role, each Year's night choices and what
came of them, the COA's audit, and the trackers over the Years, secret ones included. No
ballot is in it (R-34): who voted how stays secret even after the end."""

from __future__ import annotations

import json
import random

import pytest

from korapsyon.rules import Game, Step
from korapsyon.rules.actions import Corrupt
from korapsyon.rules.views import moderator_view, night_by_night, player_view, public_view
from korapsyon.selfplay import play_random
from tests.hidden_variants import BALLOTS, Variation, random_setup, vary
from tests.scenario import corrupt, discuss, elect, jail_vote, night, project, table

BALLOT_FIELDS = {"candidate", "support", "jail", "stand", "votes", "tally", "ballot"}


def _every_view(game: Game) -> list[dict[str, object]]:
    views: list[dict[str, object]] = [public_view(game), moderator_view(game)]
    views += [player_view(game, name) for name in game.players]
    views += [player_view(game, name, words=False) for name in game.players[:2]]
    return views


def _keys(value: object) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for item in value.values() for k in _keys(item)}
    if isinstance(value, list):
        return {k for item in value for k in _keys(item)}
    return set()


def _ballots(game: Game) -> list[str]:
    """Who cast which secret ballot (R-34), in no particular order."""
    return sorted(json.dumps(a.to_wire()) for a in game.actions if isinstance(a, BALLOTS))


@pytest.mark.parametrize("seed", range(12))
def test_R50_the_reveal_is_absent_until_the_end_then_the_same_for_every_viewer(seed: int) -> None:
    game = random_setup(seed)
    rng = random.Random(seed)
    while not game.is_over:
        for view in _every_view(game):
            assert "reveal" not in view  # not even empty: nothing of it before the end
        play_random(game, rng, resubmit=0.05, max_actions=25)
    views = _every_view(game)
    reveal = views[0]["reveal"]
    assert reveal == night_by_night(game)
    assert all(view["reveal"] == reveal for view in views)  # players, board, moderator
    json.dumps(reveal)  # plain JSON data
    assert not _keys(reveal) & BALLOT_FIELDS
    assert isinstance(reveal, dict)
    assert reveal["roles"] == [role.value for role in game.roles]
    trackers = reveal["trackers"]
    assert trackers[0] == {
        "year": 0,
        "corruption_fund": 0,
        "kaban": game.ruleset.kaban_start,
        "kaban_public": game.ruleset.kaban_start,
        "public_spending": 0,
    }
    assert [t["year"] for t in trackers] == list(range(game.year + 1))
    assert (trackers[-1]["corruption_fund"], trackers[-1]["kaban"]) == (
        game.corruption_fund,
        game.kaban,
    )


def test_R50_each_year_tells_every_night_choice_and_what_came_of_it() -> None:
    """One Year, scripted: the Lawyer protects Ana, the Ombudsperson finds Cris Bad, the
    three Corrupt steal and agree on a Tokhang the Fund cannot pay (3 < 10), Cris first
    chose otherwise (the last choice counts), Ana's Auto Jail is cancelled for want of
    Approved Public Spending; the game stops at the end of the Year (R-51, max_years 1)."""
    game = table(max_years=1)
    game.apply(Corrupt(player="Cris", nakaw=False, suhol=True, tokhang="Ben"))  # changed below
    night(
        game,
        Eli="Ana",
        Fe="Cris",
        Ana="Mia",
        Cris=corrupt(nakaw=True, tokhang="Hugo"),
        Dani=corrupt(nakaw=True, tokhang="Hugo"),
        Mia=corrupt(nakaw=True, tokhang="Hugo"),
    )
    elect(game, "Ana")
    project(game, "S3", ["Ana", "Ben", "Eli"], support=0)
    discuss(game)
    jail_vote(game, {})
    assert game.is_over
    (year,) = night_by_night(game)["years"]
    assert year == {
        "year": 1,
        "protect": {"player": "Eli", "target": "Ana"},
        "investigate": {"player": "Fe", "target": "Cris", "aligned": "bad"},
        "corrupt": [
            {"player": "Cris", "nakaw": True, "suhol": False, "tokhang": "Hugo"},
            {"player": "Dani", "nakaw": True, "suhol": False, "tokhang": "Hugo"},
            {"player": "Mia", "nakaw": True, "suhol": False, "tokhang": "Hugo"},
        ],
        "stolen": 3,
        "suhol": None,
        "tokhang": {"target": "Hugo", "result": "unpaid"},
        "auto_jail": [
            {"player": "Ana", "target": "Mia", "result": "not_enough_spending"},
            {"player": "Ben", "target": None, "result": None},  # named nobody
        ],
        "audit": {"project": None, "kickback": None},
    }


def test_R34_no_ballot_is_revealed_two_games_differing_in_who_voted_how_reveal_the_same() -> None:
    """Game B is game A with pairs of voters' secret ballots swapped (elections, committee,
    Witness and jail votes), and the night's submissions in another order: the tallies, and
    so the game, are the same, and so is the reveal."""
    compared = differing = 0
    for seed in range(60):
        rng = random.Random(500 + seed)
        a = random_setup(seed)
        play_random(a, rng, resubmit=0.05)
        swaps: dict[int, tuple[int, int]] = {}
        for year in range(1, a.year + 1):
            for step in (Step.ELECT, Step.COMMITTEE_VOTE, Step.JAIL_VOTE, Step.WITNESS_VOTE):
                swaps[year * 100 + list(Step).index(step)] = tuple(  # type: ignore[assignment]
                    rng.sample(range(len(a.players)), 2)
                )
        b, actions = vary(a, Variation(None, None, swaps, reorder=True), rng)
        try:
            for action in actions:
                b.apply(action)
        except Exception:
            continue  # a swapped ballot B's rules refuse: nothing to compare
        if b.outcome != a.outcome or b.years != a.years:
            continue
        compared += 1
        differing += _ballots(a) != _ballots(b)
        assert public_view(b)["reveal"] == public_view(a)["reveal"]
    assert compared >= 15 and differing >= 15, (compared, differing)
