"""The post-game analysis's verdicts on removals: a removal is judged on what the table
knew when it chose (not on the removal's own events, not on one player's secrets), and a
removal is not also told as an exposure of the player it removed."""

from __future__ import annotations

from typing import Any

from korapsyon.bots.beliefs.analysis import analyse
from korapsyon.rules import Role
from korapsyon.rules import events as ev
from korapsyon.rules.ruleset import default_roles

ALL = ev.EVERYONE
NAMES = ("Ana", "Bong", "Cris", "Dindo", "Ems", "Fe", "Gina", "Hugo", "Isko")


def _table() -> tuple[list[Role], dict[Role, list[str]]]:
    roles = default_roles(len(NAMES))
    seats: dict[Role, list[str]] = {}
    for name, role in zip(NAMES, roles, strict=True):
        seats.setdefault(role, []).append(name)
    return roles, seats


def _game() -> tuple[list[Role], list[ev.BaseEvent], dict[str, str]]:
    """Year 1: a Witness names a Corrupt (verified: 100%). Year 2: an Auto Jail takes a
    Citizen nobody suspected; then the jail vote, with the named Corrupt among its
    candidates, jails the Ombudsperson, who had found in secret that a Citizen is Good."""
    roles, seats = _table()
    named = seats[Role.CORRUPT_POLITICIAN][0]
    citizen, other = seats[Role.CITIZEN][:2]
    ombudsperson = seats[Role.OMBUDSPERSON][0]
    o_seat = NAMES.index(ombudsperson)
    dealt: list[ev.BaseEvent] = [
        ev.RoleDealt(year=0, audience=ev.Audience.seat(s), player=n, role=r)
        for s, (n, r) in enumerate(zip(NAMES, roles, strict=True))
    ]
    team = tuple(seats[Role.CORRUPT_POLITICIAN])
    events: list[ev.BaseEvent] = [
        ev.GameStarted(
            year=0,
            audience=ALL,
            players=NAMES,
            public_spending_target=20,
            corruption_fund_target=16,
            auto_jail_cost=10,
            tokhang_cost=8,
            kaban_start=100,
            composition=tuple((role, roles.count(role)) for role in Role),
        ),
        *dealt,
        ev.TeamRevealed(year=0, audience=ev.CORRUPT, role=Role.CORRUPT_POLITICIAN, members=team),
        ev.YearStarted(year=1, audience=ALL),
        ev.StepStarted(year=1, audience=ALL, step="hidden", actors=None, options=None),
        ev.InvestigationResult(
            year=1, audience=ev.Audience.seat(o_seat), target=other, aligned=Role.CITIZEN.team
        ),
        ev.WitnessTestimony(year=1, audience=ALL, player=named),
        ev.YearEnded(year=1, audience=ALL, public_spending=0, kaban_public=100),
        ev.YearStarted(year=2, audience=ALL),
        ev.StepStarted(year=2, audience=ALL, step="hidden", actors=None, options=None),
        ev.AutoJailUsed(year=2, audience=ALL, target=citizen, cost=10, public_spending=0),
        ev.PlayerJailed(
            year=2, audience=ALL, player=citizen, strikes=1, returns_year=6, cause="auto_jail"
        ),
        ev.StepStarted(
            year=2,
            audience=ALL,
            step="jail_vote",
            actors=None,
            options=tuple(n for n in NAMES if n != citizen),
        ),
        ev.PlayerJailed(
            year=2, audience=ALL, player=ombudsperson, strikes=1, returns_year=6, cause="jail_vote"
        ),
        ev.YearEnded(year=2, audience=ALL, public_spending=0, kaban_public=100),
    ]
    return roles, events, {"named": named, "citizen": citizen, "ombudsperson": ombudsperson}


def _removals(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in result["moments"] if m["kind"] in ("jailed", "eliminated")]


def test_an_auto_jail_is_judged_on_what_was_known_before_it() -> None:
    """The Auto Jail made its target look Corrupt; its verdict is drawn from the table's
    figure before it (the end of Year 1), which pointed at the named Corrupt: against the
    evidence. Nor is the Auto Jail told as an exposure of its own target."""
    roles, events, who = _game()
    result = analyse(NAMES, roles, events)
    before = result["years"][0]["corrupt"][who["citizen"]]
    jailing = next(m for m in _removals(result) if m["player"] == who["citizen"])
    assert jailing["corrupt"] == before < 0.5
    assert jailing["verdict"] == "good_removed_against_evidence"
    assert jailing["most_suspected"] == who["named"]
    assert not [m for m in result["moments"] if m.get("by") == "auto_jail_used"]


def test_a_removal_has_the_tables_verdict_in_every_view() -> None:
    """The Ombudsperson's own view knows she is Good (0%) and knows more of a Citizen;
    the verdict on the table's vote is still drawn from what the table knew, in her view
    and in everyone's."""
    roles, events, who = _game()
    public = _removals(analyse(NAMES, roles, events))
    assert [m["player"] for m in public] == [who["citizen"], who["ombudsperson"]]
    assert next(m for m in public if m["player"] == who["ombudsperson"])["corrupt"] > 0.05
    for viewer in NAMES:
        assert _removals(analyse(NAMES, roles, events, viewer)) == public, viewer


def test_an_auto_jail_the_lawyer_blocked_is_still_evidence_told() -> None:
    """R-41: protected, the target stays; the Auto Jail that named them is then a moment of
    its own (it is not a removal told elsewhere)."""
    roles, events, who = _game()
    blocked = [
        ev.JailingBlocked(year=e.year, audience=ALL, player=e.player)
        if isinstance(e, ev.PlayerJailed) and e.cause == "auto_jail"
        else e
        for e in events
    ]
    result = analyse(NAMES, roles, blocked)
    assert who["citizen"] not in [m["player"] for m in _removals(result)]
    told = [m for m in result["moments"] if m.get("by") == "auto_jail_used"]
    assert [(m["player"], m["kind"]) for m in told] == [(who["citizen"], "exposed")]
