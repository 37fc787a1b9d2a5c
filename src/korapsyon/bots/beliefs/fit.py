"""The behaviour model's rates measured on simulated heuristic games (``korapsyon analyse
--fit``): the moderator's full event log (every ballot and night choice, the true roles)
counted act by act, beside :class:`~.model.BehaviourModel`'s defaults.

The defaults were set from these counts and then kept away from 0 and 1 (a person may do
what a heuristic bot never does), and a few likelihood ratios that the counts do not give
directly (the suspicion claims, the Good President's tilt) were tuned on a small grid of
calibration runs (seeds 1-3; docs/BOTS.md reports seed 7).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from ...rules.actions import CommitteeVote, Stand
from ...rules.events import (
    ActionTaken,
    AutoJailUsed,
    BaseEvent,
    ClaimMade,
    CommitteeNamed,
    PlayerEliminated,
    PlayerJailed,
    PlayerReturned,
    ProjectChosen,
    ProjectOffered,
    StepStarted,
    Stolen,
    SuholPaid,
    YearStarted,
)
from ...rules.game import Game
from ...rules.roles import Role
from .model import DEFAULT_MODEL

CP = Role.CORRUPT_POLITICIAN


@dataclass
class Counts:
    """Hits and trials per rate."""

    hits: Counter[str] = field(default_factory=Counter)
    trials: Counter[str] = field(default_factory=Counter)

    def add(self, name: str, hit: bool) -> None:
        self.hits[name] += hit
        self.trials[name] += 1

    def rate(self, name: str) -> float | None:
        return self.hits[name] / self.trials[name] if self.trials[name] else None


class _Game:
    """One game's log, read with the true roles."""

    def __init__(self, game: Game, counts: Counts) -> None:
        self.index = {name: s for s, name in enumerate(game.players)}
        self.bad = [r is CP for r in game.roles]
        self.roles = game.roles
        self.counts = counts
        self.year = 0
        self.committee: tuple[int, ...] = ()
        self.president: int | None = None
        self.stolen: set[int] = set()
        self.active = set(range(len(game.players)))
        self.night = "no_night"
        self.last_steal: int | None = None

    def read(self, events: list[BaseEvent]) -> None:
        for event in events:
            self._event(event)

    def _event(self, event: BaseEvent) -> None:
        count, index = self.counts.add, self.index
        if self._table(event):
            return
        match event:
            case ProjectChosen() if self.president is not None:
                side = "bad" if self.bad[self.president] else "good"
                count(f"large_{side}", event.card.startswith("L"))
            case CommitteeNamed():
                self._committee(tuple(index[m] for m in event.members))
            case ActionTaken(action=CommitteeVote() as vote):
                self._vote(index[vote.player], vote.support)
            case ActionTaken(action=Stand() as stand):
                count(f"stand_{self.roles[index[stand.player]].value}", stand.stand)
            case ClaimMade():
                self._claim(event)
            case AutoJailUsed():
                count("auto_jail_on_corrupt", self.bad[index[event.target]])

    def _table(self, event: BaseEvent) -> bool:
        """Follow the Year, who is free, the nights' steals and the President."""
        index = self.index
        match event:
            case YearStarted():
                self.year = event.year
            case StepStarted(step="hidden"):
                self._night()
            case PlayerReturned():
                self.active.add(index[event.player])
            case PlayerJailed(returns_year=int()) | PlayerEliminated():
                self.active.discard(index[event.player])
            case Stolen():
                self.counts.hits[self.night] += 1
                self.stolen.add(self.year)
                self.last_steal = event.amount
            case SuholPaid() if self.year in self.stolen:
                self.counts.hits["suhol"] += 1
            case ProjectOffered():
                self.president = index[event.president]
            case _:
                return False
        return True

    def _night(self) -> None:
        """A night of free Corrupt: their steal, after none yet, or after one of the same
        size as tonight's, or after one of another size (a teammate was jailed)."""
        free = sum(self.bad[s] for s in self.active)
        if not free:
            self.night = "no_night"
            return
        if self.last_steal is None:
            self.night = "steal_first"
        else:
            self.night = "steal_same" if self.last_steal == free else "steal_changed"
        self.counts.add(self.night, False)  # made a hit by its Stolen event

    def _committee(self, members: tuple[int, ...]) -> None:
        self.committee = members
        if self.president is not None and self.bad[self.president]:
            corrupt = min(sum(self.bad[m] for m in members), 2)
            for c in range(3):
                self.counts.add(f"pick_bad_{c}", corrupt == c)

    def _vote(self, seat: int, support: bool) -> None:
        if self.bad[seat]:
            self.counts.add("oppose_bad", not support)
        else:
            dirty = any(self.bad[m] for m in self.committee)
            self.counts.add("oppose_good_dirty" if dirty else "oppose_good_clean", not support)

    def _claim(self, event: ClaimMade) -> None:
        speaker = self.index[event.player]
        side = "bad" if self.bad[speaker] else "good"
        if event.claim == "suspect" and event.target is not None:
            self.counts.add(f"suspect_{side}_names_corrupt", self.bad[self.index[event.target]])
        elif event.claim in ("role", "audit", "investigation"):
            claimed = {"audit": Role.COA, "investigation": Role.OMBUDSPERSON}.get(
                event.claim, event.role
            )
            self.counts.add(f"{event.claim}_claim_true", self.roles[speaker] is claimed)


def measure(games: int, players: int = 13, seed: int = 0) -> Counts:
    """Play ``games`` heuristic games and count every rate of the model."""
    from ...selfplay import table
    from .. import play, seat_agents

    counts = Counts()
    for number in range(games):
        game = Game(table(players), seed=seed * 1_000_003 + number)
        rng = random.Random(f"{seed}/{number}")  # the games of calibrate(), seed for seed
        play(game, seat_agents(game, "heuristic", f"{seed}/{number}"), rng)
        _Game(game, counts).read(list(game.events))
    counts.trials["suhol"] = sum(
        counts.hits[k] for k in ("steal_first", "steal_same", "steal_changed")
    )
    return counts


def markdown(counts: Counts) -> str:
    """The measured rates beside the model's defaults."""
    m = DEFAULT_MODEL
    rows: list[tuple[str, str, object]] = [  # (label, key in counts, the model's default)
        ("steal_first (no steal yet)", "steal_first", m.steal_first),
        ("steal_same (as many free as at the last steal)", "steal_same", m.steal_same),
        ("steal_changed (another number free)", "steal_changed", m.steal_changed),
        ("suhol, given a steal", "suhol", m.suhol),
        ("oppose_bad", "oppose_bad", m.oppose_bad),
        ("oppose_good_clean", "oppose_good_clean", m.oppose_good_clean),
        ("oppose_good_dirty", "oppose_good_dirty", m.oppose_good_dirty),
        ("pick_bad[0]", "pick_bad_0", m.pick_bad[0]),
        ("pick_bad[1]", "pick_bad_1", m.pick_bad[1]),
        ("pick_bad[2+]", "pick_bad_2", m.pick_bad[2]),
        ("large_bad", "large_bad", m.large_bad),
        ("large_good", "large_good", m.large_good),
        *((f"stand[{r.value}]", f"stand_{r.value}", m.stand[r]) for r in Role),
        ("an Auto Jail's target is Corrupt", "auto_jail_on_corrupt", "1 : auto_jail_good 0.1"),
        ("a Good speaker's suspect is Corrupt", "suspect_good_names_corrupt", "x1.2"),
        ("a Corrupt speaker's suspect is Corrupt", "suspect_bad_names_corrupt", "x0.02"),
        ("a role claim is true", "role_claim_true", "lie_good, bluff_role"),
        ("an audit claim is the COA's", "audit_claim_true", "bluff_audit"),
        ("an investigation claim is the Ombudsperson's", "investigation_claim_true",
         "bluff_investigation"),
    ]  # fmt: skip
    lines = ["| rate | model default | measured | trials |", "|---|---|---|---|"]
    for label, key, default in rows:
        rate = counts.rate(key)
        shown = "-" if rate is None else f"{rate:.3f}"
        lines.append(f"| {label} | {default} | {shown} | {counts.trials[key]} |")
    return "\n".join(lines)
