"""One game of Korapsyon as a sans-I/O state machine: :class:`Game`, the façade.

``Game.apply(action)`` checks an action against RULES.md and, if it is legal, records it,
resolves the step when every actor has submitted and runs everything automatic up to the
next step that needs a decision. It returns the events that happened. A refused action
raises :class:`IllegalActionError` naming the rule and changes nothing.

The game's data is a :class:`~korapsyon.rules.state.GameState`; the rules that decide live
beside it: :mod:`.checks` (legality), :mod:`.choices` (what each seat may do, R-72
defaults), :mod:`.night` (R-25), :mod:`.votes` (R-33 .. R-36), :mod:`.jail` (R-40, R-41,
the end), :mod:`.engine` (the transitions of :data:`~korapsyon.rules.steps.STEPS`).

Invariants:

1. The game is a pure function of its setup (players, roles, seed, ruleset, decks) and the
   accepted actions: one ``random.Random(seed)`` draws the deal, the deck order and lots,
   in that order (no clock, no global RNG, no I/O). Only :meth:`Game.default_action`, which
   changes nothing, draws from its own generator seeded by the seed, Year and step.
2. Every change of state is announced by at least one event in :attr:`Game.events`,
   each with its audience; nothing leaves the core except through events and views. (A
   game built with ``keep_events=False`` keeps none, and has no views: a replay that prints
   only the state, which is the same either way.)
3. Only active players (neither suspended nor eliminated) ever act; strikes never pass 2.

Attributes are read-only for callers: change a game only through :meth:`Game.apply`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from . import engine
from .actions import HOST, Action, BaseAction, Claim, Corrupt, EndDiscussion, Witness
from .checks import illegal, witness_refusal
from .choices import Choice, claim_choices
from .engine import TransitionError
from .errors import IllegalActionError
from .events import CORRUPT, EVERYONE, ActionTaken, BaseEvent, ClaimMade
from .night import agreed_target
from .outcome import Outcome, Termination, Winner
from .roles import Role
from .ruleset import Ruleset
from .state import (
    ACTIVE,
    ELIMINATED,
    HOST_SEAT,
    MAX_NAME,
    RESERVED_NAMES,
    SUSPENDED,
    GameState,
    PlayerStatus,
    YearRecord,
)
from .steps import STEPS
from .votes import witness

__all__ = [
    "ACTIVE",
    "ELIMINATED",
    "HOST_SEAT",
    "MAX_NAME",
    "RESERVED_NAMES",
    "SUSPENDED",
    "Choice",
    "Game",
    "LegalActions",
    "Outcome",
    "PlayerStatus",
    "Termination",
    "TransitionError",
    "Winner",
    "YearRecord",
    "agreed_target",
]


_TALK = frozenset((EndDiscussion, Witness, Claim))


class Game(GameState):
    """A game in progress. Build it from a setup; drive it with :meth:`apply` (or
    :meth:`push`); ask it :meth:`choices`, :meth:`legal_actions`, :meth:`is_legal` and
    :meth:`default_action`. Its data (:class:`GameState`) is read-only for callers.
    ``keep_events=False`` builds a game that keeps no events (:meth:`apply` returns an
    empty list)."""

    __slots__ = ()

    def __init__(
        self,
        players: Sequence[str],
        *,
        roles: Sequence[Role | str] | None = None,
        seed: int = 0,
        ruleset: Ruleset | None = None,
        decks: tuple[Sequence[str], Sequence[str]] | None = None,
        keep_events: bool = True,
    ) -> None:
        super().__init__(
            players, roles=roles, seed=seed, ruleset=ruleset, decks=decks, keep_events=keep_events
        )
        engine.start_year(self, 1)
        if not self.to_act:
            engine.advance(self)

    # ------------------------------------------------------------------ the entry point
    def apply(self, action: Action) -> list[BaseEvent]:
        """Check and take ``action``; return the events it caused.

        Raises :class:`IllegalActionError` (and changes nothing) if the rules forbid it.
        """
        events = self.events
        start = len(events)
        self.push(action)
        return events[start:]

    def push(self, action: Action) -> None:
        """:meth:`apply` without returning the events, for a caller that reads
        :attr:`events` itself (python-chess's name for a checked move) or not at all (a
        replay: the hot path, so the common case runs the step's check directly)."""
        kind = type(action)
        checker = self.step_checks.get(kind)
        seat = self.seat_index.get(action.player)
        if checker is None or seat is None:  # the game is over, a wrong step, the host...
            seat = engine.check(self, action)  # ...: the whole check, refusals worded there
        else:
            checker(self, seat, action)
        self.actions.append(action)
        if kind in _TALK:  # the discussion's actions are never pending
            self._discuss(seat, action)
            return
        pending = self.pending
        pending[seat] = action
        if self.keeps_events:
            audience = CORRUPT if kind is Corrupt else self.audiences[seat]
            self.events.append(ActionTaken(self.year, audience, action))
        if len(pending) == len(self.to_act):
            engine.advance(self)

    def _discuss(self, seat: int, action: Action) -> None:
        if isinstance(action, EndDiscussion):
            if self.keeps_events:
                self.events.append(ActionTaken(self.year, EVERYONE, action))
            engine.advance(self)
        elif isinstance(action, Witness):
            witness(self, seat, action)
        elif isinstance(action, Claim) and self.keeps_events:  # talk: only ever an event
            self.events.append(
                ClaimMade(
                    self.year, EVERYONE, action.player, action.claim, action.target,
                    action.role, action.aligned, action.kickback,
                )
            )  # fmt: skip

    # ------------------------------------------------------------------ queries
    def is_legal(self, action: BaseAction) -> bool:
        try:
            engine.check(self, action)
        except IllegalActionError:
            return False
        return True

    def witness_available(self, seat: int) -> bool:
        """R-35: may this seat invoke Witness now?"""
        return witness_refusal(self, seat) is None

    def choices(self, player: str) -> list[Choice]:
        """What ``player`` (a name, or ``"@host"``) may do now, as field domains."""
        step = self.step
        if step is None:
            return []
        seat = self.seat_of(player)
        if seat is None:
            return []
        spec = STEPS[step]
        if seat not in self.to_act and not spec.open_floor:
            return []
        return spec.choices(self, seat)

    def claim_choices(self, player: str) -> list[Choice]:
        """The claims ``player`` may make now: talk in the discussion, kept apart from the
        game's decisions (:meth:`choices`). Empty outside the discussion, for inactive
        players and for a COA silenced by Suhol (R-35)."""
        seat = self.seat_index.get(player)
        return [] if seat is None else claim_choices(self, seat)

    def legal_actions(self, player: str) -> LegalActions:
        """Every action ``player`` may take now (lazy; supports ``in``, ``len``, iteration)."""
        return LegalActions(self, player)

    def default_action(self, player: str) -> Action:
        """R-72: what a timer submits for ``player`` now (marked ``auto``); see
        :mod:`.choices` for each step's."""
        seat = HOST_SEAT if player == HOST else self.seat(player)
        step = self.step
        if step is None or (seat not in self.to_act and not STEPS[step].open_floor):
            raise illegal("not_your_turn", "R-72", f"{player} has nothing to decide now")
        return STEPS[step].default(self, seat, player)


class LegalActions:
    """The legal actions of one player now: ``action in legal``, ``len(legal)``, iteration.
    The choices are computed on first use."""

    def __init__(self, game: Game, player: str) -> None:
        self._game = game
        self._player = player
        self._choices: list[Choice] | None = None

    @property
    def choices(self) -> list[Choice]:
        if self._choices is None:
            self._choices = self._game.choices(self._player)
        return self._choices

    def __iter__(self) -> Iterator[Action]:
        for choice in self.choices:
            yield from choice.actions(self._player)

    def __len__(self) -> int:
        return sum(choice.count() for choice in self.choices)

    def __contains__(self, action: object) -> bool:
        return (
            isinstance(action, BaseAction)
            and not isinstance(action, Claim)  # claims are talk: see Game.claim_choices
            and action.player == self._player
            and self._game.is_legal(action)
        )

    def __repr__(self) -> str:
        return f"<LegalActions for {self._player!r}: {len(self)}>"
