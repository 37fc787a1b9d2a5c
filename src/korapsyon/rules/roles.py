"""Roles and teams (R-04), with the names players read on their role card."""

from __future__ import annotations

from enum import StrEnum


class Team(StrEnum):
    """The two sides of the table (R-04)."""

    GOOD = "good"
    BAD = "bad"


class Role(StrEnum):
    """A role card. The value is the key used in game records."""

    GOOD_POLITICIAN = "good_politician"
    CORRUPT_POLITICIAN = "corrupt_politician"
    LAWYER = "lawyer"
    OMBUDSPERSON = "ombudsperson"
    COA = "coa"
    CITIZEN = "citizen"

    @property
    def team(self) -> Team:
        """R-04: Corrupt Politicians are Bad, everyone else is Good."""
        return _TEAMS[self]

    @property
    def title(self) -> str:  # type: ignore[override]
        return _TITLES[self]

    @property
    def goal(self) -> str:
        """The one-line goal printed on the role card."""
        return _GOALS[self]


# The roles as module names, for hot paths (views, choices, bots): on Python 3.11 a member
# read off its class (``Role.LAWYER``) passes through ``EnumType.__getattr__``, about 160 ns
# against 10 for a module's name (3.12 dropped the hook).
GOOD_POLITICIAN, CORRUPT_POLITICIAN = Role.GOOD_POLITICIAN, Role.CORRUPT_POLITICIAN
LAWYER, OMBUDSPERSON, COA, CITIZEN = Role.LAWYER, Role.OMBUDSPERSON, Role.COA, Role.CITIZEN
ROLES = tuple(Role)
GOOD_TEAM, BAD_TEAM = Team.GOOD, Team.BAD  # the teams likewise (Winner has a GOOD too)
_TEAMS = {role: Team.BAD if role is CORRUPT_POLITICIAN else Team.GOOD for role in Role}

_TITLES = {
    Role.GOOD_POLITICIAN: "Good Politician",
    Role.CORRUPT_POLITICIAN: "Corrupt Politician",
    Role.LAWYER: "Lawyer",
    Role.OMBUDSPERSON: "Ombudsperson",
    Role.COA: "COA",
    Role.CITIZEN: "Citizen",
}

_GOALS = {
    Role.GOOD_POLITICIAN: "Build public projects until Public Spending reaches its target.",
    Role.CORRUPT_POLITICIAN: "Fill the Corruption Fund or remove every Good Politician, unseen.",
    Role.LAWYER: "Each Year, protect one player from jailing and Tokhang.",
    Role.OMBUDSPERSON: "Each Year, investigate one player and expose the Corrupt.",
    Role.COA: "Read last Year's audit and tell the table whether a kickback happened.",
    Role.CITIZEN: "Vote wisely: help the Good side find and jail the Corrupt.",
}
