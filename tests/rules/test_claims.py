"""Claims (R-35 discussion): public talk with no rules effect, possibly false, refused
from a COA silenced by Suhol and from anyone outside the discussion."""

from __future__ import annotations

from typing import Any

import pytest

from korapsyon.record import read_record, record_of, replay, summarize, write_record
from korapsyon.rules import Game, IllegalActionError, Role, Team
from korapsyon.rules.actions import Claim
from korapsyon.rules.events import EVERYONE, ClaimMade
from korapsyon.rules.views import player_view, public_view
from tests.scenario import corrupt, discuss, elect, jail_vote, night, of_type, project, table


def _discussion(**night_choices: Any) -> Game:
    game = table()
    night(game, **night_choices)
    elect(game, "Ana")
    project(game, "S3", ["Ana", "Ben", "Gil"], support=0)
    return game


def test_R35_a_claim_is_a_public_event_with_no_rules_effect() -> None:
    game = _discussion()
    before = summarize(game)
    events = game.apply(Claim(player="Cris", claim="investigation", target="Ana", aligned=Team.BAD))
    (made,) = of_type(events, ClaimMade)
    assert made.audience == EVERYONE and made.player == "Cris"
    assert summarize(game) == before
    texts = [e["text"] for e in public_view(game)["timeline"]]
    assert "Cris claims, as the Ombudsperson: Ana is Bad aligned." in texts


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        (
            Claim(player="Ben", claim="role", role=Role.GOOD_POLITICIAN),
            "Ben claims to be a Good Politician.",
        ),
        (
            Claim(player="Gil", claim="audit", kickback=False),
            "Gil claims, as the COA: last Year's project had a kickback: no.",
        ),
        (Claim(player="Hugo", claim="suspect", target="Mia"), "Hugo suspects Mia."),
        (Claim(player="Hugo", claim="trust", target="Ana"), "Hugo trusts Ana."),
    ],
)
def test_R35_each_claim_reads_as_a_line_of_the_timeline(claim: Claim, text: str) -> None:
    game = _discussion()
    game.apply(claim)
    assert text in [e["text"] for e in public_view(game)["timeline"]]


@pytest.mark.parametrize(
    "claim",
    [
        Claim(player="Hugo", claim="suspect"),  # no target
        Claim(player="Hugo", claim="role"),  # no role
        Claim(player="Hugo", claim="investigation", target="Ana"),  # no alignment
        Claim(player="Hugo", claim="trust", target="Ana", kickback=True),  # a stray field
        Claim(player="Hugo", claim="suspect", target="Hugo"),  # about oneself
        Claim(player="Hugo", claim="suspect", target="Zed"),  # nobody of that name
    ],
)
def test_R35_a_malformed_claim_is_refused_and_changes_nothing(claim: Claim) -> None:
    game = _discussion()
    before = (summarize(game), len(game.events))
    with pytest.raises(IllegalActionError) as info:
        game.apply(claim)
    assert info.value.rule == "R-35"
    assert (summarize(game), len(game.events)) == before


def test_R35_claims_are_made_only_in_the_discussion() -> None:
    game = table()
    with pytest.raises(IllegalActionError) as info:
        game.apply(Claim(player="Hugo", claim="suspect", target="Mia"))
    assert info.value.code == "wrong_step"
    assert game.claim_choices("Hugo") == []


def test_R35_a_coa_silenced_by_suhol_cannot_claim_though_the_screen_looks_alike() -> None:
    game = table()
    night(game)  # Year 1: nothing happens
    elect(game, "Ana")
    project(game, "L2", ["Ana", "Ben", "Cris", "Eli", "Fe"])  # a kickback: Fund 3
    discuss(game)
    jail_vote(game, {})
    night(game, Cris=corrupt(suhol=True), Dani=corrupt(suhol=True), Mia=corrupt(suhol=True))
    project(game, "S1", ["Hugo"], support=0)
    assert game.claim_choices("Gil") == []
    assert player_view(game, "Gil")["you"]["muted"] is True
    # the screen offers the same claims as any active player's, refused when made: no
    # missing row of buttons points at the COA (R-06; the mute is told in the held card)
    shown = player_view(game, "Gil")["you"]["claims"]
    others = player_view(game, "Hugo")["you"]["claims"]
    assert [c["options"]["claim"] for c in shown] == [c["options"]["claim"] for c in others]
    assert shown != []
    with pytest.raises(IllegalActionError) as info:
        game.apply(Claim(player="Gil", claim="audit", kickback=True))
    assert (info.value.code, info.value.rule) == ("muted", "R-35")
    game.apply(Claim(player="Hugo", claim="suspect", target="Cris"))  # others still talk


def test_R35_a_replay_without_events_takes_claims_as_the_game_did() -> None:
    """``korapsyon replay`` keeps no events (``keep_events=False``): a claim is only an
    event, so such a replay takes it, keeps nothing of it but the action, and goes on
    exactly as the game did."""
    game = _discussion()
    game.apply(Claim(player="Fe", claim="investigation", target="Cris", aligned=Team.BAD))
    game.apply(Claim(player="Ben", claim="role", role=Role.GOOD_POLITICIAN))
    discuss(game)
    quiet, stop = replay(read_record(write_record(record_of(game)))[0], keep_events=False)
    assert stop is None and quiet.events == [] and quiet.actions == game.actions
    assert summarize(quiet) == summarize(game)
    assert (quiet.step, quiet.to_act, quiet.pending) == (game.step, game.to_act, game.pending)


def test_claims_survive_a_record_round_trip() -> None:
    game = _discussion()
    game.apply(Claim(player="Fe", claim="investigation", target="Cris", aligned=Team.BAD))
    game.apply(Claim(player="Ben", claim="role", role=Role.GOOD_POLITICIAN))
    data = write_record(record_of(game))
    assert b'"claim": "investigation"' in data
    again, stop = replay(read_record(data)[0])
    assert stop is None
    assert [e.to_wire() for e in again.events] == [e.to_wire() for e in game.events]
