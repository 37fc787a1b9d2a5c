"""A lean reference replay: RULES.md and GAME_RECORD.md's ``korapsyon replay`` in one file.

``python -m korapsyon.harness.lean_replay RECORD.json ...`` (or this file run by its path)
prints what ``korapsyon replay`` prints, byte for byte, and exits as it does: an indented
summary for one record, JSON Lines for several, ``{"illegal": ...}`` / ``{"error": ...}``
lines and one stderr line for each record it stops. It is the yardstick of the replay race
(:mod:`korapsyon.harness.replay_race`): an independent implementation that does the same
work - every action's shape and legality checked as the engine checks them, the same
refusals with the same rule ids and messages - and nothing else (no events, no views).

It imports nothing from korapsyon, only the standard library and msgspec (the project's
JSON library, so that the JSON read and written, and msgspec's wording of a malformed
record, are the same). tests/harness/test_lean_reference.py holds it to the engine.

The module is longer than 400 lines because it is the whole game in one file, by design:
the setup checks, the shape checks msgspec makes when the engine decodes a record, every
step's checks, the night's resolution, the votes and the summary.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import IO, Annotated, Any, ClassVar, Literal

import msgspec

# --- the tables of RULES.md -------------------------------------------------------------
HOST = "@host"
HOST_SEAT = -100
MAX_NAME = 24
ACTIVE, SUSPENDED, ELIMINATED = "active", "suspended", "eliminated"
GP, CP, LAWYER, OMB, COA, CITIZEN = (
    "good_politician", "corrupt_politician", "lawyer", "ombudsperson", "coa", "citizen",
)  # fmt: skip
ROLES = (GP, CP, LAWYER, OMB, COA, CITIZEN)
TITLES = {LAWYER: "Lawyer", OMB: "Ombudsperson", COA: "COA"}
COMPOSITION = {  # R-02, in ROLES order
    9: (2, 2, 1, 1, 1, 2), 10: (2, 2, 1, 1, 1, 3), 11: (2, 2, 1, 1, 1, 4),
    12: (2, 3, 1, 1, 1, 4), 13: (2, 3, 1, 1, 1, 5), 14: (2, 3, 1, 1, 1, 6),
    15: (2, 3, 1, 1, 1, 7), 16: (2, 4, 1, 1, 1, 7),
}  # fmt: skip
SMALL = ("S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8")
LARGE = ("L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8")
CARDS = {  # id -> (cost, kickback, committee size)
    "S1": (2, 1, 1), "S2": (2, 1, 3), "S3": (3, 1, 3), "S4": (2, 2, 1),
    "S5": (3, 2, 3), "S6": (3, 1, 1), "S7": (2, 2, 3), "S8": (3, 2, 3),
    "L1": (5, 4, 7), "L2": (4, 3, 5), "L3": (6, 5, 7), "L4": (5, 3, 5),
    "L5": (4, 3, 5), "L6": (6, 5, 7), "L7": (5, 4, 7), "L8": (4, 3, 5),
}  # fmt: skip
NIGHT_KIND = {LAWYER: "protect", OMB: "investigate", CP: "corrupt", GP: "auto_jail",
              COA: "ready", CITIZEN: "ready"}  # fmt: skip
NIGHT_RULE = {"protect": "R-21", "investigate": "R-22", "corrupt": "R-23",
              "auto_jail": "R-24", "ready": "R-70"}  # fmt: skip
CLAIM_NEEDS = {"role": {"role"}, "audit": {"kickback"}, "investigation": {"target", "aligned"},
               "suspect": {"target"}, "trust": {"target"}}  # fmt: skip
WINNER = {"corrupt_purge": "good", "public_spending": "good", "good_purge": "bad",
          "corruption_fund": "bad", "safety_stop": "draw"}  # fmt: skip


class Illegal(Exception):
    """A refused action: ``str()`` is the reason the replay prints (rule, code, message)."""

    def __init__(self, code: str, rule: str, message: str) -> None:
        super().__init__(f"{rule} {code}: {message}")


class Malformed(Exception):
    """Input that does not have the record's shape (msgspec's wording)."""


# --- the record's shape (msgspec checks it while it reads the JSON) ----------------------
Name = str
Role = Literal["good_politician", "corrupt_politician", "lawyer", "ombudsperson", "coa",
               "citizen"]  # fmt: skip


class Act(msgspec.Struct, frozen=True, tag_field="action", kw_only=True, gc=False):
    player: str
    auto: bool = False
    kind: ClassVar[str] = ""


class Protect(Act, frozen=True, tag="protect"):
    target: str | None


class Investigate(Act, frozen=True, tag="investigate"):
    target: str | None


class Corrupt(Act, frozen=True, tag="corrupt"):
    nakaw: bool
    suhol: bool
    tokhang: str | None


class AutoJail(Act, frozen=True, tag="auto_jail"):
    target: str | None


class Ready(Act, frozen=True, tag="ready"):
    pass


class Stand(Act, frozen=True, tag="stand"):
    stand: bool


class Elect(Act, frozen=True, tag="elect"):
    candidate: str | None


class PickProject(Act, frozen=True, tag="pick_project"):
    card: str


class PickCommittee(Act, frozen=True, tag="pick_committee"):
    members: tuple[str, ...]


class CommitteeVote(Act, frozen=True, tag="committee_vote"):
    support: bool


class EndDiscussion(Act, frozen=True, tag="end_discussion"):
    pass


class Witness(Act, frozen=True, tag="witness"):
    pass


class Claim(Act, frozen=True, tag="claim"):
    claim: Literal["role", "audit", "investigation", "suspect", "trust"]
    target: str | None = None
    role: Role | None = None
    aligned: Literal["good", "bad"] | None = None
    kickback: bool | None = None


class WitnessVote(Act, frozen=True, tag="witness_vote"):
    jail: bool | None


class ForcedJailVote(Act, frozen=True, tag="forced_jail_vote"):
    jail: bool | None


class JailVote(Act, frozen=True, tag="jail_vote"):
    target: str | None


Action = (
    Protect | Investigate | Corrupt | AutoJail | Ready | Stand | Elect | PickProject
    | PickCommittee | CommitteeVote | EndDiscussion | Witness | Claim | WitnessVote
    | ForcedJailVote | JailVote
)  # fmt: skip
for _cls in Action.__args__:
    _cls.kind = _cls.__struct_config__.tag
NULLABLE = {"protect": ("target",), "investigate": ("target",), "auto_jail": ("target",),
            "corrupt": ("tokhang",), "elect": ("candidate",), "witness_vote": ("jail",),
            "forced_jail_vote": ("jail",), "jail_vote": ("target",)}  # fmt: skip
"""Fields whose null may be written by leaving the field out."""

Years = Annotated[int, msgspec.Meta(ge=1, le=1000)]
Amount = Annotated[int, msgspec.Meta(ge=1, le=1_000_000)]
Consent = Literal["unanimous", "majority"]


class Ruleset(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    auto_jail_mode: Literal["direct", "forced_vote"] = "direct"
    lawyer_consecutive: Literal["forbidden", "allowed"] = "forbidden"
    kaban_start: Annotated[int, msgspec.Meta(ge=-1_000_000, le=1_000_000)] = 50
    max_years: Years = 50
    suspension_years: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 3
    president_term: Years = 2
    public_spending_target: Amount | None = None
    corruption_fund_target: Amount | None = None
    suhol_consent: Consent = "unanimous"
    tokhang_consent: Consent = "unanimous"
    suhol_fund_check: Literal["after_steal", "before_steal"] = "after_steal"
    tokhang_on_president: bool = True
    reveal_tokhang_role: bool = True
    good_politicians_recognise: bool = False
    auto_jail_cost: Amount | None = None
    tokhang_cost: Amount | None = None


class Decks(msgspec.Struct, forbid_unknown_fields=True):
    small: list[str]
    large: list[str]


class Record(msgspec.Struct):
    format: Literal["korapsyon-record/1"]
    players: list[str]
    roles: list[Role] | None = None
    seed: int = 0
    ruleset: Ruleset = Ruleset()
    decks: Decks | None = None
    actions: list[Action] = []


class LooseRecord(Record):
    actions: list[Any] = []


_decode = msgspec.json.Decoder(Record).decode
_decode_loose = msgspec.json.Decoder(LooseRecord).decode
TOO_DEEP = "not a JSON game record: its JSON is nested too deeply to read"


def read_record(data: bytes) -> tuple[Record, tuple[int, str] | None]:
    """The record, and (index, reason) of an action it cannot read (then its actions end
    before it). Raises Malformed for anything else malformed."""
    try:
        return _decode(data), None
    except msgspec.ValidationError:
        pass  # one action, or the setup: read the actions one by one
    except msgspec.DecodeError as exc:
        raise Malformed(f"not a JSON game record: {exc}") from None
    except RecursionError:
        raise Malformed(TOO_DEEP) from None
    try:
        loose = _decode_loose(data)
    except msgspec.DecodeError as exc:
        raise Malformed(f"malformed record: {exc}") from None
    except RecursionError:
        raise Malformed(TOO_DEEP) from None
    actions = []
    for index, given in enumerate(loose.actions):
        raw = given
        kind = raw.get("action") if isinstance(raw, dict) else None
        if isinstance(kind, str):  # a nullable field may be left out
            raw = {**raw, **{f: None for f in NULLABLE.get(kind, ()) if f not in raw}}
        try:
            actions.append(msgspec.convert(raw, Action))
        except msgspec.ValidationError as exc:
            loose.actions = actions
            return loose, (index, "malformed: " + str(exc).replace("`$", f"`$.actions[{index}]"))
    loose.actions = actions
    return loose, None


# --- the game -----------------------------------------------------------------------------
class Game:
    """One game's state: the setup, the trackers (R-10 .. R-13) and the step."""

    def __init__(self, record: Record) -> None:
        try:
            self._setup(record)
        except Malformed as exc:
            raise Malformed(f"bad setup: {exc}") from None
        self.start_year(1)
        if not self.to_act:
            self.advance()

    def _setup(self, record: Record) -> None:
        rules = self.rules = record.ruleset
        rng = self.rng = random.Random(record.seed)
        names = self.names = _check_names(record.players)
        n = len(names)
        roles = self.roles = _deal(record.roles, n, rng)
        self.small, self.large = _decks(record.decks, rng)
        self.seat_of = {name: seat for seat, name in enumerate(names)}
        ps, cf = (16, 14) if n <= 10 else (20, 17) if n <= 12 else (24, 20) if n <= 14 else (28, 23)
        self.ps_target = rules.public_spending_target or ps
        self.cf_target = rules.corruption_fund_target or cf
        self.auto_jail_cost = rules.auto_jail_cost or -(-self.ps_target // 2)
        self.tokhang_cost = rules.tokhang_cost or -(-self.cf_target // 2)
        self.corrupt = [s for s in range(n) if roles[s] == CP]
        self.good = [s for s in range(n) if roles[s] == GP]
        self.lawyer = roles.index(LAWYER) if LAWYER in roles else None
        self.omb = roles.index(OMB) if OMB in roles else None
        self.coa = roles.index(COA) if COA in roles else None
        self.public_spending = self.corruption_fund = 0
        self.kaban = self.kaban_public = self.kaban_last_year = rules.kaban_start
        self.status = [ACTIVE] * n
        self.strikes = [0] * n
        self.returns: list[int | None] = [None] * n
        self.president: int | None = None
        self.president_since = 0
        self.last_protected: tuple[int, int | None] = (0, None)
        self.witness_used = False
        self.last_decrease: int | None = None
        self.year = 0
        self.step: str | None = None
        self.to_act: frozenset[int] = frozenset()
        self.pending: dict[int, Any] = {}
        self.outcome: str | None = None
        self.years: list[dict[str, Any]] = []

    # --- flow ---------------------------------------------------------------------------
    def start_year(self, year: int) -> None:
        """R-20, R-33's term, and the Hidden Phase."""
        self.year = year
        self.protected: int | None = None
        self.investigation: tuple[int, str] | None = None
        self.coa_muted = False
        self.forced: int | None = None
        self.witness_target: int | None = None
        self.offered: tuple[str, str] | None = None
        self.card: str | None = None
        self.committee: list[int] = []
        self.committee_size = 0
        self.candidates: list[int] = []
        self.decrease = 0
        self.jailed: list[str] = []
        self.eliminated: list[str] = []
        self.succeeded: bool | None = None
        if self.president is not None and year >= self.president_since + self.rules.president_term:
            self.president = None
        status, returns = self.status, self.returns
        for seat, back in enumerate(returns):
            if back is not None and back <= year and status[seat] == SUSPENDED:
                status[seat] = ACTIVE
                returns[seat] = None
        self.begin("hidden", self.active())

    def begin(self, step: str, actors: list[int] | tuple[int, ...]) -> None:
        self.step = step
        self.to_act = frozenset(actors)
        self.pending = {}

    def advance(self) -> None:
        """Resolve the step and run on to the next decision (or the end)."""
        while self.step is not None:
            after = RESOLVE[self.step](self)
            if after is None:
                if self.outcome is None:
                    self.end_of_year()
            else:
                self.begin(*after)
            if self.to_act or self.outcome is not None:
                return

    def end_of_year(self) -> None:
        """R-37, R-50, R-38, R-51."""
        if self.public_spending >= self.ps_target:
            return self.finish("public_spending")
        if self.corruption_fund >= self.cf_target:
            return self.finish("corruption_fund")
        self.years.append(self.year_record())
        if self.year >= self.rules.max_years:
            return self.finish("safety_stop", record=False)
        self.last_decrease = self.decrease
        self.kaban_last_year = self.kaban
        self.start_year(self.year + 1)
        return None

    def finish(self, reason: str, record: bool = True) -> None:
        self.outcome = reason
        self.step = None
        self.to_act = frozenset()
        self.pending = {}
        if record:
            self.years.append(self.year_record())

    def year_record(self) -> dict[str, Any]:
        return {
            "year": self.year, "public_spending": self.public_spending,
            "corruption_fund": self.corruption_fund, "kaban": self.kaban,
            "treasury_decrease": self.decrease, "project": self.card,
            "project_succeeded": self.succeeded, "jailed": list(self.jailed),
            "eliminated": list(self.eliminated),
        }  # fmt: skip

    def active(self) -> list[int]:
        return [s for s, st in enumerate(self.status) if st == ACTIVE]

    # --- applying an action ---------------------------------------------------------------
    def apply(self, action: Any) -> None:
        step = self.step
        if step is None:
            raise Illegal(
                "game_over", "R-51" if self.outcome == "safety_stop" else "R-50", "the game is over"
            )
        kind = action.kind
        rule, _, checks, wanted = STEPS[step]
        check = checks.get(kind)
        if check is None:
            raise Illegal("wrong_step", rule, f"step {step} takes {wanted}, not {kind}")
        name = action.player
        seat = HOST_SEAT if name == HOST else self.seat_of.get(name)
        if seat is None:
            raise Illegal("unknown_player", "R-01", f"there is no player named {name!r}")
        check(self, seat, action)
        if kind == "end_discussion":
            self.advance()
        elif kind == "witness":
            assert self.investigation is not None
            self.witness_used = True
            self.witness_target = self.investigation[0]
        elif kind != "claim":
            pending = self.pending
            pending[seat] = action
            if len(pending) == len(self.to_act):
                self.advance()

    # --- the night (R-25) -----------------------------------------------------------------
    def resolve_hidden(self) -> tuple[str, list[int] | tuple[int, ...]] | None:
        pending = self.pending
        if self.lawyer is not None and self.lawyer in pending:
            target = pending[self.lawyer].target
            self.protected = None if target is None else self.seat_of[target]
            self.last_protected = (self.year, self.protected)
        if self.omb is not None and self.omb in pending:
            target = pending[self.omb].target
            if target is not None:
                found = self.seat_of[target]
                self.investigation = (found, "bad" if self.roles[found] == CP else "good")
        plans = [pending[s] for s in self.corrupt if s in pending]
        if plans:
            self.night_corrupt(plans)
        if self.outcome is None:
            self.night_auto_jail()
        if self.outcome is not None:
            return None
        if self.last_decrease is not None:
            self.kaban_public = self.kaban_last_year
        active = self.active()
        self.kaban += len(active)
        self.kaban_public += len(active)
        if self.president is None:
            return ("stand", active)
        return self.begin_project()

    def night_corrupt(self, plans: list[Any]) -> None:
        rules = self.rules
        fund_before = self.corruption_fund
        steal = 0
        if all(p.nakaw for p in plans):
            steal = len(plans)
            self.corruption_fund += steal
            self.kaban -= steal
            self.decrease += steal
        suhol = [p.suhol for p in plans]
        if all(suhol) if rules.suhol_consent == "unanimous" else sum(suhol) * 2 > len(suhol):
            fund = fund_before if rules.suhol_fund_check == "before_steal" else self.corruption_fund
            if fund >= 3:
                self.corruption_fund -= 3
                refund = min(3, steal)
                self.kaban += refund
                self.decrease -= refund
                self.coa_muted = True
        chosen = _agreed_target([p.tokhang for p in plans], rules.tokhang_consent)
        if chosen is not None and self.corruption_fund >= self.tokhang_cost:
            self.corruption_fund -= self.tokhang_cost
            seat = self.seat_of[chosen]
            if seat != self.protected:
                self.eliminate(seat)

    def night_auto_jail(self) -> None:
        already: set[int] = set()
        status, pending = self.status, self.pending
        for gp in self.good:
            order = pending.get(gp)
            if order is None or order.target is None:
                continue
            seat = self.seat_of[order.target]
            if (
                status[gp] != ACTIVE or status[seat] != ACTIVE or seat in already
                or self.forced is not None or self.public_spending < self.auto_jail_cost
            ):  # fmt: skip
                continue
            already.add(seat)
            self.public_spending -= self.auto_jail_cost
            if self.rules.auto_jail_mode == "forced_vote":
                self.forced = seat
            else:
                self.jail(seat)
                if self.outcome is not None:
                    return

    # --- jail (R-40, R-41) ------------------------------------------------------------------
    def jail(self, seat: int) -> None:
        if seat == self.protected:
            return
        self.strikes[seat] += 1
        self.jailed.append(self.names[seat])
        if self.strikes[seat] >= 2:
            self.eliminate(seat)
            return
        self.status[seat] = SUSPENDED
        self.returns[seat] = self.year + self.rules.suspension_years + 1

    def eliminate(self, seat: int) -> None:
        status = self.status
        status[seat] = ELIMINATED
        self.returns[seat] = None
        if self.president == seat:
            self.president = None
        self.eliminated.append(self.names[seat])
        role = self.roles[seat]
        if role == CP and all(status[s] == ELIMINATED for s in self.corrupt):
            self.finish("corrupt_purge")
        elif role == GP and all(status[s] == ELIMINATED for s in self.good):
            self.finish("good_purge")

    # --- the Public Phase (R-33 .. R-36) ------------------------------------------------------
    def resolve_stand(self) -> tuple[str, list[int]]:
        pending = self.pending
        stood = [s for s in sorted(pending) if pending[s].stand]
        self.candidates = stood or self.active()
        return ("elect", self.active())

    def resolve_elect(self) -> tuple[str, Any] | None:
        counts = dict.fromkeys(self.candidates, 0)
        seat_of = self.seat_of
        for vote in self.pending.values():
            if vote.candidate is not None:
                counts[seat_of[vote.candidate]] += 1
        if not counts:
            return self.begin_project()
        top = max(counts.values())
        leaders = [s for s, c in counts.items() if c == top]
        if len(leaders) > 1 and self.step == "elect":
            self.candidates = leaders
            return ("elect_runoff", self.active())
        self.president = leaders[0] if len(leaders) == 1 else self.rng.choice(leaders)
        self.president_since = self.year
        return self.begin_project()

    def begin_project(self) -> tuple[str, Any]:
        if self.president is None:
            return ("discussion", (HOST_SEAT,))
        self.offered = (self.small[0], self.large[0])
        return ("pick_project", (self.president,))

    def resolve_pick_project(self) -> tuple[str, Any]:
        (choice,) = self.pending.values()
        card = self.card = choice.card
        self.small.append(self.small.pop(0))
        self.large.append(self.large.pop(0))
        size = CARDS[card][2]
        active = len(self.active())
        if active < size:
            size = active if active % 2 else active - 1
        self.committee_size = size
        return ("pick_committee", (self.president,))

    def resolve_pick_committee(self) -> tuple[str, Any]:
        (choice,) = self.pending.values()
        self.committee = [self.seat_of[name] for name in choice.members]
        return ("committee_vote", self.committee)

    def resolve_committee_vote(self) -> tuple[str, Any]:
        assert self.card is not None
        cost, kickback, _ = CARDS[self.card]
        support = sum(1 for vote in self.pending.values() if vote.support)
        succeeded = self.succeeded = support * 2 > len(self.committee)
        if succeeded:
            self.public_spending += cost
            self.kaban -= cost
            self.decrease += cost
            if any(self.roles[s] == CP for s in self.committee):
                self.corruption_fund += kickback
        return ("discussion", (HOST_SEAT,))

    def resolve_discussion(self) -> tuple[str, Any]:
        found = self.witness_target
        if found is not None and self.status[found] == ACTIVE:
            return ("witness_vote", self.active())
        return self.begin_jail_vote()

    def begin_jail_vote(self) -> tuple[str, Any]:
        active = self.active()
        forced = self.forced
        if forced is not None and self.status[forced] == ACTIVE and forced != self.president:
            return ("forced_jail_vote", active)
        self.candidates = [s for s in active if s != self.president]
        return ("jail_vote", active)

    def yes_no(self, seat: int) -> None:
        """A Witness or forced vote: jailed if yes > no (the President counts 2)."""
        yes = no = 0
        president = self.president
        for voter, vote in self.pending.items():
            jail = vote.jail
            if jail is not None:
                if jail:
                    yes += 2 if voter == president else 1
                else:
                    no += 2 if voter == president else 1
        if yes > no:
            self.jail(seat)

    def resolve_witness_vote(self) -> tuple[str, Any] | None:
        assert self.witness_target is not None
        self.yes_no(self.witness_target)
        return None if self.outcome is not None else self.begin_jail_vote()

    def resolve_forced_jail_vote(self) -> None:
        assert self.forced is not None
        self.yes_no(self.forced)

    def resolve_jail_vote(self) -> tuple[str, Any] | None:
        counts = dict.fromkeys(self.candidates, 0)
        president, seat_of = self.president, self.seat_of
        for voter, vote in self.pending.items():
            if vote.target is not None:
                counts[seat_of[vote.target]] += 2 if voter == president else 1
        voted = {s: c for s, c in counts.items() if c}
        valid = sum(voted.values())
        if valid:
            top = max(voted.values())
            leaders = [s for s, c in voted.items() if c == top]
            if top * 2 > valid:
                self.jail(leaders[0])
                return None
            if len(leaders) > 1 and self.step == "jail_vote":
                self.candidates = leaders
                return ("jail_runoff", self.active())
        return None

    # --- the summary (GAME_RECORD.md) ---------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        reason, names = self.outcome, self.names
        return {
            "status": "finished" if reason else "in_progress",
            "winner": WINNER[reason] if reason else None,
            "reason": reason,
            "year": self.year,
            "step": self.step,
            "public_spending": self.public_spending,
            "corruption_fund": self.corruption_fund,
            "kaban": self.kaban,
            "kaban_public": self.kaban_public,
            "president": None if self.president is None else names[self.president],
            "players": [
                {
                    "name": name,
                    "role": self.roles[s],
                    "strikes": self.strikes[s],
                    "status": self.status[s],
                    "returns_year": self.returns[s],
                }
                for s, name in enumerate(names)
            ],
            "years": self.years,
        }


def _check_names(players: list[str]) -> list[str]:
    seen: set[str] = set()
    for name in players:
        if not 1 <= len(name) <= MAX_NAME:
            raise Malformed(f"player names are 1-{MAX_NAME} characters: {name!r}")
        if name in (HOST, "@moderator"):
            raise Malformed(f"{name!r} is reserved and cannot be a player's name")
        if name in seen:
            raise Malformed(f"player name {name!r} is used twice")
        seen.add(name)
    return list(players)


def _deal(given: list[Role] | None, n: int, rng: random.Random) -> list[str]:
    """R-02 and R-06 (the seeded deal), or R-01 and R-03's checks of a given one."""
    if given is not None:
        roles: list[str] = list(given)
        _check_custom(roles, n)
        return roles
    if n not in COMPOSITION:
        raise Malformed(f"R-01 a game without a custom setup needs 9-16 players, not {n}")
    roles = [role for role, k in zip(ROLES, COMPOSITION[n], strict=True) for _ in range(k)]
    rng.shuffle(roles)
    return roles


def _decks(given: Decks | None, rng: random.Random) -> tuple[list[str], list[str]]:
    """R-34: each deck shuffled once at setup, or given in full."""
    if given is None:
        small, large = list(SMALL), list(LARGE)
        rng.shuffle(small)
        rng.shuffle(large)
        return small, large
    for deck, full in ((given.small, SMALL), (given.large, LARGE)):
        if sorted(deck) != sorted(full):
            cards = ", ".join(full)
            raise Malformed(f"R-34 a deck must hold each of {cards} exactly once, not {deck}")
    return list(given.small), list(given.large)


def _agreed_target(targets: list[str | None], consent: str) -> str | None:
    if consent == "unanimous":
        first = targets[0]
        return first if all(t == first for t in targets) else None
    named = [t for t in targets if t is not None]
    for t in dict.fromkeys(named):
        if named.count(t) * 2 > len(targets):
            return t
    return None


def _check_custom(roles: list[str], n: int) -> None:
    """R-01, R-03."""
    if len(roles) != n:
        raise Malformed(
            f"R-03 every seat holds exactly one role: {len(roles)} roles for {n} players"
        )
    if not 5 <= n <= 20:
        raise Malformed(f"R-01 a custom setup needs 5-20 seats, not {n}")
    if roles.count(GP) < 2:
        raise Malformed("R-03 a setup needs at least 2 Good Politicians")
    if roles.count(CP) < 1:
        raise Malformed("R-03 a setup needs at least 1 Corrupt Politician")
    for role in (LAWYER, OMB, COA):
        if roles.count(role) > 1:
            raise Malformed(f"R-03 a setup may hold at most one {TITLES[role]}")


# --- the checks of each step --------------------------------------------------------------
ACTORS = {"hidden": "every active player", "stand": "every active player",
          "elect": "every active player", "elect_runoff": "every active player",
          "pick_project": "the President", "pick_committee": "the President",
          "committee_vote": "each committee member", "discussion": "the host",
          "witness_vote": "every active player", "forced_jail_vote": "every active player",
          "jail_vote": "every active player", "jail_runoff": "every active player"}  # fmt: skip


def check_actor(g: Game, seat: int, action: Any) -> None:
    if seat in g.to_act:
        return
    if seat == HOST_SEAT:
        raise Illegal("not_your_turn", "R-35", "the host only ends the discussion")
    status, name = g.status[seat], g.names[seat]
    if status == ELIMINATED:
        raise Illegal("eliminated", "R-40", f"{name} has been eliminated")
    if status == SUSPENDED:
        raise Illegal("suspended", "R-41", f"{name} is suspended until Year {g.returns[seat]}")
    step = g.step
    assert step is not None
    raise Illegal(
        "not_your_turn", STEPS[step][0], f"{name} does not act in {step}: {ACTORS[step]} does"
    )


def target(g: Game, name: str, rule: str) -> int:
    seat = g.seat_of.get(name)
    if seat is None:
        raise Illegal("unknown_player", rule, f"there is no player named {name!r}")
    if g.status[seat] != ACTIVE:
        raise Illegal("inactive_target", rule, f"{name} is {g.status[seat]} and cannot be chosen")
    return seat


def check_night(g: Game, seat: int, action: Any) -> None:
    if seat not in g.to_act:
        check_actor(g, seat, action)
    kind = action.kind
    if kind != NIGHT_KIND[g.roles[seat]]:
        raise Illegal(
            "wrong_role", NIGHT_RULE[kind], f"{g.names[seat]} cannot {kind} in the Hidden Phase"
        )
    if kind == "protect":
        name = action.target
        if name is None:
            return
        year, barred = g.last_protected
        if (
            target(g, name, "R-21") == barred
            and year == g.year - 1
            and (g.rules.lawyer_consecutive != "allowed")
        ):
            raise Illegal(
                "consecutive_protect",
                "R-21",
                f"the Lawyer protected {name} last Year and cannot protect them again",
            )
    elif kind == "investigate":
        name = action.target
        if name is not None and target(g, name, "R-22") == seat:
            raise Illegal("self_target", "R-22", "the Ombudsperson investigates another player")
    elif kind == "corrupt":
        name = action.tokhang
        if (
            name is not None
            and target(g, name, "R-23") == g.president
            and (not g.rules.tokhang_on_president)
        ):
            raise Illegal("president_immune", "R-33", "Tokhang cannot target the President")
    elif kind == "auto_jail":
        name = action.target
        if name is not None and target(g, name, "R-24") == g.president:
            raise Illegal("president_immune", "R-33", f"{name} is President and cannot be jailed")


def check_elect(g: Game, seat: int, action: Any) -> None:
    if seat not in g.to_act:
        check_actor(g, seat, action)
    name = action.candidate
    if name is not None and g.seat_of.get(name, -1) not in g.candidates:
        raise Illegal("not_a_candidate", "R-33", f"{name} is not a candidate")


def check_pick_project(g: Game, seat: int, action: Any) -> None:
    check_actor(g, seat, action)
    card = action.card
    if g.offered is None or card not in g.offered:
        raise Illegal(
            "not_offered",
            "R-34",
            f"card {card!r} is not offered; choose {' or '.join(g.offered or ())}",
        )


def check_pick_committee(g: Game, seat: int, action: Any) -> None:
    check_actor(g, seat, action)
    members = action.members
    if len(members) != g.committee_size:
        raise Illegal(
            "committee_size",
            "R-34",
            f"the committee has {g.committee_size} members, not {len(members)}",
        )
    if len(set(members)) != len(members):
        raise Illegal("committee_member", "R-34", "a committee member is named twice")
    for name in members:
        target(g, name, "R-34")


def check_end_discussion(g: Game, seat: int, action: Any) -> None:
    if seat != HOST_SEAT:
        raise Illegal("not_host", "R-35", "only the host ends the discussion")


def check_witness(g: Game, seat: int, action: Any) -> None:
    refusal = None
    found = g.investigation
    if seat != g.omb:
        refusal = "only the Ombudsperson can invoke Witness"
    elif g.status[seat] != ACTIVE:
        refusal = "the Ombudsperson is not active"
    elif g.witness_used:
        refusal = "Witness can be used once per game"
    elif found is None or found[1] != "bad":
        refusal = "Witness needs this Year's investigation to have found a Bad-aligned player"
    elif g.status[found[0]] != ACTIVE:
        refusal = f"{g.names[found[0]]} is no longer active"
    elif found[0] == g.president:
        refusal = f"{g.names[found[0]]} is President and cannot be jailed"
    if refusal is not None:
        raise Illegal("witness_unavailable", "R-35", refusal)


def check_claim(g: Game, seat: int, action: Any) -> None:
    if seat == HOST_SEAT:
        raise Illegal("not_your_turn", "R-35", "the host makes no claims")
    if g.status[seat] != ACTIVE:
        raise Illegal("not_your_turn", "R-35", f"{g.names[seat]} is not active")
    if seat == g.coa and g.coa_muted:
        raise Illegal("muted", "R-35", "the COA was silenced by Suhol this Year")
    kind = action.claim
    needs = CLAIM_NEEDS[kind]
    given = {f for f in ("target", "role", "aligned", "kickback") if getattr(action, f) is not None}
    if given != needs:
        raise Illegal(
            "bad_claim",
            "R-35",
            f"a {kind} claim names {', '.join(sorted(needs)) or 'nothing else'}",
        )
    name = action.target
    if name is not None:
        about = g.seat_of.get(name)
        if about is None:
            raise Illegal("unknown_player", "R-35", f"no player named {name!r}")
        if about == seat:
            raise Illegal("self_target", "R-35", "a claim about another player")


def check_jail_vote(g: Game, seat: int, action: Any) -> None:
    if seat not in g.to_act:
        check_actor(g, seat, action)
    name = action.target
    if name is None:
        return
    chosen = g.seat_of.get(name)
    if chosen is None or chosen not in g.candidates:
        if chosen is not None and chosen == g.president:
            raise Illegal("president_immune", "R-33", f"{name} is President and cannot be jailed")
        raise Illegal("not_a_candidate", "R-36", f"{name} cannot be voted on in this {g.step}")


Check = Callable[[Game, int, Any], None]
_NIGHT: dict[str, Check] = dict.fromkeys(NIGHT_RULE, check_night)
_CHECKS: dict[str, tuple[str, dict[str, Check]]] = {
    "hidden": ("R-25", _NIGHT),
    "stand": ("R-33", {"stand": check_actor}),
    "elect": ("R-33", {"elect": check_elect}),
    "elect_runoff": ("R-33", {"elect": check_elect}),
    "pick_project": ("R-34", {"pick_project": check_pick_project}),
    "pick_committee": ("R-34", {"pick_committee": check_pick_committee}),
    "committee_vote": ("R-34", {"committee_vote": check_actor}),
    "discussion": ("R-35", {"end_discussion": check_end_discussion,
                            "witness": check_witness, "claim": check_claim}),
    "witness_vote": ("R-35", {"witness_vote": check_actor}),
    "forced_jail_vote": ("R-25", {"forced_jail_vote": check_actor}),
    "jail_vote": ("R-36", {"jail_vote": check_jail_vote}),
    "jail_runoff": ("R-36", {"jail_vote": check_jail_vote}),
}  # fmt: skip
STEPS = {step: (rule, ACTORS[step], checks, ", ".join(sorted(checks)))
         for step, (rule, checks) in _CHECKS.items()}  # fmt: skip
RESOLVE: dict[str, Callable[[Game], Any]] = {
    "hidden": Game.resolve_hidden, "stand": Game.resolve_stand,
    "elect": Game.resolve_elect, "elect_runoff": Game.resolve_elect,
    "pick_project": Game.resolve_pick_project, "pick_committee": Game.resolve_pick_committee,
    "committee_vote": Game.resolve_committee_vote, "discussion": Game.resolve_discussion,
    "witness_vote": Game.resolve_witness_vote,
    "forced_jail_vote": Game.resolve_forced_jail_vote,
    "jail_vote": Game.resolve_jail_vote, "jail_runoff": Game.resolve_jail_vote,
}  # fmt: skip


# --- the command ---------------------------------------------------------------------------
def replay(data: bytes) -> tuple[dict[str, Any] | None, tuple[int, str] | None]:
    """(summary, None), or (None, (index, reason)) for a record stopped by an action;
    raises Malformed for a malformed record."""
    record, unreadable = read_record(data)
    game = Game(record)
    apply = game.apply
    for index, action in enumerate(record.actions):
        try:
            apply(action)
        except Illegal as exc:
            return None, (index, str(exc))
    if unreadable is None:
        return game.summary(), None
    if game.step is not None:
        rule = STEPS[game.step][0]
    else:
        rule = "R-51" if game.outcome == "safety_stop" else "R-50"
    return None, (unreadable[0], f"{rule} {unreadable[1]}")


def _one_line(text: str) -> str:
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def _shown(path: str) -> str:
    from pathlib import Path  # only to name a file as the command line does

    return str(Path(path))


def replay_files(paths: list[str], out: IO[bytes], err: IO[str]) -> bool:
    """Replay each file, writing what ``korapsyon replay`` writes; True if any failed."""
    encode, fmt = msgspec.json.encode, msgspec.json.format
    single, failed = len(paths) == 1, False
    for path in paths:
        try:
            with open(path, "rb") as file:
                data = file.read()
            summary, stop = replay(data)
        except (OSError, Malformed) as exc:
            failed = True
            message = f"cannot read: {exc}" if isinstance(exc, OSError) else str(exc)
            err.write(f"{_shown(path)}: {_one_line(message)}\n")
            if not single:
                out.write(encode({"error": message}) + b"\n")
            continue
        if stop is not None:
            failed = True
            index, reason = stop
            err.write(f"{_shown(path)}: illegal action at index {index}: {_one_line(reason)}\n")
            if not single:
                out.write(encode({"illegal": {"index": index, "reason": reason}}) + b"\n")
            continue
        out.write((fmt(encode(summary), indent=2) if single else encode(summary)) + b"\n")
    out.flush()
    err.flush()
    return failed


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python -m korapsyon.harness.lean_replay RECORD.json ...", file=sys.stderr)
        return 2
    return 2 if replay_files(argv, sys.stdout.buffer, sys.stderr) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
