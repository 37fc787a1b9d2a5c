"""The ruleset: player-count tables (R-02, R-05), setup checks (R-01, R-03) and every
[house]/[variant] option of RULES.md with its default.

A :class:`Ruleset` holds only overrides chosen for a game; ``None`` targets mean "use the
R-05 table for this many players".
"""

# Annotations evaluated, not postponed: see the note in rules/actions.py.

from collections import Counter
from collections.abc import Sequence
from typing import Annotated, Literal, Self

import msgspec

from .errors import MalformedError
from .roles import Role

MIN_PLAYERS, MAX_PLAYERS = 9, 16  # R-01, default compositions
MIN_CUSTOM, MAX_CUSTOM = 5, 20  # R-01, custom setups
SUHOL_COST = 3  # R-25 step 4 [S0]
STRIKES_TO_ELIMINATE = 2

# Good Politician, Corrupt Politician, Lawyer, Ombudsperson, COA, Citizen.
_COMPOSITION: dict[int, tuple[int, int, int, int, int, int]] = {
    9: (2, 2, 1, 1, 1, 2),
    10: (2, 2, 1, 1, 1, 3),
    11: (2, 2, 1, 1, 1, 4),
    12: (2, 3, 1, 1, 1, 4),
    13: (2, 3, 1, 1, 1, 5),
    14: (2, 3, 1, 1, 1, 6),
    15: (2, 3, 1, 1, 1, 7),
    16: (2, 4, 1, 1, 1, 7),
}
_ROLE_ORDER = (
    Role.GOOD_POLITICIAN,
    Role.CORRUPT_POLITICIAN,
    Role.LAWYER,
    Role.OMBUDSPERSON,
    Role.COA,
    Role.CITIZEN,
)

Years = Annotated[int, msgspec.Meta(ge=1, le=1000)]
Amount = Annotated[int, msgspec.Meta(ge=1, le=1_000_000)]


class Ruleset(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Options of a game. Every field is a [house] or [variant] rule, or a number the
    record format lets a game override (GAME_RECORD.md ``ruleset``)."""

    auto_jail_mode: Literal["direct", "forced_vote"] = "direct"  # R-25 step 6 [variant]
    lawyer_consecutive: Literal["forbidden", "allowed"] = "forbidden"  # R-21 [variant]
    kaban_start: Annotated[int, msgspec.Meta(ge=-1_000_000, le=1_000_000)] = 50  # R-12 [house]
    max_years: Years = 50  # R-51 [house]
    suspension_years: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 3
    president_term: Years = 2
    public_spending_target: Amount | None = None
    corruption_fund_target: Amount | None = None
    # Extensions of the record format (documented in docs/RULINGS.md):
    suhol_consent: Literal["unanimous", "majority"] = "unanimous"  # R-23 [house]
    tokhang_consent: Literal["unanimous", "majority"] = "unanimous"  # R-23 [house]
    suhol_fund_check: Literal["after_steal", "before_steal"] = "after_steal"  # R-25 [house]
    tokhang_on_president: bool = True  # R-33 [house]
    reveal_tokhang_role: bool = True  # R-40 [house]
    good_politicians_recognise: bool = False  # R-07 [house]
    auto_jail_cost: Amount | None = None  # R-05 [house]: a designer's dial (None: the table's)
    tokhang_cost: Amount | None = None  # R-05 [house]: likewise

    @classmethod
    def from_wire(cls, data: object) -> Self:
        """Build a ruleset from a record's ``ruleset`` object, refusing unknown keys."""
        try:
            return msgspec.convert(data, cls)
        except msgspec.ValidationError as exc:
            raise MalformedError(f"ruleset: {exc}") from None

    def to_wire(self) -> dict[str, object]:
        result: dict[str, object] = msgspec.to_builtins(self)
        return result

    def targets(self, players: int) -> tuple[int, int]:
        """(Public Spending target, Corruption Fund target) for this many players (R-05)."""
        ps, cf = table_targets(players)
        return (self.public_spending_target or ps, self.corruption_fund_target or cf)

    def costs(self, players: int) -> tuple[int, int]:
        """(Auto Jail cost, Tokhang cost) for this many players: R-05's half of each
        target, rounded up (12 and 10 at 13 players), unless the ruleset sets one."""
        spending, fund = self.targets(players)
        return (self.auto_jail_cost or -(-spending // 2), self.tokhang_cost or -(-fund // 2))


def table_targets(players: int) -> tuple[int, int]:
    """The R-05 row for a table size; sizes outside 9-16 use the nearest row."""
    if players <= 10:
        return (16, 14)
    if players <= 12:
        return (20, 17)
    if players <= 14:
        return (24, 20)
    return (28, 23)


def default_roles(players: int) -> list[Role]:
    """The R-02 composition for 9-16 players, in the table's column order."""
    if players not in _COMPOSITION:
        raise MalformedError(
            f"a game without a custom setup needs {MIN_PLAYERS}-{MAX_PLAYERS} players, "
            f"not {players}",
            rule="R-01",
        )
    return list(_DEFAULT_ROLES[players])


_DEFAULT_ROLES: dict[int, tuple[Role, ...]] = {
    players: tuple(role for role, count in zip(_ROLE_ORDER, row, strict=True) for _ in range(count))
    for players, row in _COMPOSITION.items()
}
"""The R-02 deal of each table size, before the shuffle (built once, copied per game)."""


def check_custom_roles(roles: Sequence[Role]) -> None:
    """R-01 and R-03: refuse a custom setup that breaks a rule, naming it."""
    if not MIN_CUSTOM <= len(roles) <= MAX_CUSTOM:
        raise MalformedError(
            f"a custom setup needs {MIN_CUSTOM}-{MAX_CUSTOM} seats, not {len(roles)}",
            rule="R-01",
        )
    counts = Counter(roles)
    if counts[Role.GOOD_POLITICIAN] < 2:
        raise MalformedError("a setup needs at least 2 Good Politicians", rule="R-03")
    if counts[Role.CORRUPT_POLITICIAN] < 1:
        raise MalformedError("a setup needs at least 1 Corrupt Politician", rule="R-03")
    for role in (Role.LAWYER, Role.OMBUDSPERSON, Role.COA):
        if counts[role] > 1:
            raise MalformedError(f"a setup may hold at most one {role.title}", rule="R-03")
