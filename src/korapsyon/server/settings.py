"""A room's settings: the ruleset and setup (R-02/R-03), spectators, the moderator mode
(R-71), step durations (R-72) and how long bot seats think."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from ..rules.roles import Role
from ..rules.ruleset import Ruleset
from ..rules.steps import DEFAULT_DURATIONS as STEP_DURATIONS

Seconds = Annotated[float, msgspec.Meta(ge=0.0, le=3600.0)]

DEFAULT_DURATIONS: dict[str, float] = {step.value: s for step, s in STEP_DURATIONS.items()}
"""Seconds a step may last before its timer takes the R-72 defaults (the step table's)."""


class RoomSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """What the host chooses before the start."""

    ruleset: Ruleset = Ruleset()
    roles: list[Role] | None = None  # a custom setup, checked by R-03 at the start
    spectators: bool = True
    moderator: Literal["automatic", "human"] = "automatic"
    durations: dict[str, Seconds] = {}  # per step, overriding DEFAULT_DURATIONS
    discussion_seconds: Seconds | None = None  # the host's discussion timer
    bot_delay: tuple[Seconds, Seconds] = (1.0, 4.0)  # a bot seat thinks this long (min, max)
    timers: bool = True  # False: steps wait for every decision (tests, teaching games)
    public_record: bool = False  # the finished game's record for anyone, not only the table
    auto_stand_in: bool = True  # a bot plays, by itself, for a person who is away (RULINGS)
    away_seconds: Seconds = 60.0  # ... once their phone has been gone this long

    def duration(self, step: str) -> float:
        if step == "discussion" and self.discussion_seconds is not None:
            return self.discussion_seconds
        return self.durations.get(step, DEFAULT_DURATIONS[step])
