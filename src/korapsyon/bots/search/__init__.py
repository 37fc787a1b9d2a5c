"""The ``search`` bot: determinised Monte Carlo over worlds drawn from its seat's beliefs.

At a decision with a real choice, a :class:`SearchAgent`

1. takes the ``believer`` bot's choice (:mod:`..believer`: the heuristic's, a Good seat's
   suspicion read from its beliefs) as its first option and adds the few alternatives its
   beliefs rank best for its team (:mod:`.options`);
2. draws role assignments (``Budget.worlds`` of them in a Good seat, ``corrupt_worlds`` in
   a Corrupt seat) from its :class:`~korapsyon.bots.beliefs.Beliefs`
   (what its view allows, weighted by the behaviour model) and rebuilds each as an engine
   game consistent with everything it saw (:mod:`.worlds`; the hidden choices of the other
   seats made up to agree with what was public, a world that cannot is drawn again);
3. plays every option in every world to the end of the game (or ``horizon`` Years, then a
   tracker-based estimate) with heuristic bots in every seat (a Good seat's Good ones
   leaning as its beliefs do, a model of teammates who read the table as it does), the
   same roll-out seed for every option of one world (common random numbers), and keeps
   the option whose team won most often; a tie keeps the first option, and a Good seat
   leaves it only for one that won ``Budget.good_margin`` more roll-outs.

Talk (the discussion's claims), decisions with one legal option and a Corrupt night that
a teammate has already chosen (the team follows its first chooser, as the heuristic does)
are the believer's. It reads only what its seat observes and, once, the ruleset from its
view; every draw comes from its own seeded generator, so a game is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ...record import record_of, replay
from ...rules.actions import Action, Corrupt
from ...rules.errors import KorapsyonError
from ...rules.events import CORRUPT, ActionTaken, BaseEvent, RoleDealt
from ...rules.game import Game
from ...rules.outcome import Winner
from ...rules.roles import Role, Team
from ...rules.ruleset import Ruleset
from ...rules.steps import Step
from ..agent import Prompt, play
from ..beliefs import Beliefs
from ..believer import BelieverAgent
from ..heuristic import CERTAIN, Board, HeuristicAgent
from .options import Reading, candidate_actions
from .worlds import Inconsistent, Table, build_world

__all__ = ["Budget", "SearchAgent", "SearchStats"]


@dataclass(frozen=True)
class Budget:
    """How much one decision may cost: ``worlds`` sampled worlds in a Good seat,
    ``corrupt_worlds`` in a Corrupt seat, each playing out up to ``options`` options (as
    many roll-outs as worlds times options); ``draws`` role assignments tried per world before
    giving up on it; ``horizon`` Years played out (None: to the end).

    A Corrupt seat gets more worlds: it knows the Corrupt team, so its options differ by
    smaller margins, which 4 worlds could not tell apart (it took the heuristic's choice
    in 95% of its decisions, and its team won 66% against heuristic Good; with 12, 71%:
    docs/BOTS.md). There are 2-4 Corrupt seats against 7-12 Good ones: at 13 players the
    three Corrupt seats' search costs a game about 4-6 CPU seconds, what two or three Good
    seats' does.

    A Good seat's first option is the believer's, which wins 95% of the ladder's tuned
    13-player deals on its own: with 4 worlds a rival that leads by one roll-out leads by
    chance as often as not, so a Good seat leaves it only for one that won ``good_margin``
    more. Measured on the ladder's tuned 13-player deals (docs/BOTS.md): without the
    margin and the leaning roll-outs, search Good won 81% of the first 37 where the
    believer alone won 86%; with both, 95.5% of 200 where the believer won 94.5%."""

    worlds: int = 4
    corrupt_worlds: int = 12
    options: int = 3
    draws: int = 3
    horizon: int | None = None
    good_margin: float = 2.0


DEFAULT_BUDGET = Budget()


@dataclass
class SearchStats:
    """What one agent did: decisions asked, searched, roll-outs, worlds that failed."""

    decisions: int = 0
    searched: int = 0
    rollouts: int = 0
    worlds: int = 0
    rejected: int = 0
    changed: int = 0  # searched decisions where it did not take its first option
    by_step: dict[str, int] = field(default_factory=dict)


class SearchAgent:
    """Plays a seat by determinised search with heuristic roll-outs (see the module)."""

    def __init__(
        self, seed: int | str = 0, board: Board | None = None, budget: Budget = DEFAULT_BUDGET
    ) -> None:
        self.inner = BelieverAgent(seed, board, hides=False)  # (it keeps the seat's beliefs)
        self.rng = random.Random(f"{seed}/search")
        self.budget = budget
        self.events: list[BaseEvent] = []
        self.role: Role | None = None
        self.ruleset: Ruleset | None = None
        self.team_chose: set[int] = set()  # Years a teammate chose the night first
        self.stats = SearchStats()

    # ------------------------------------------------------------------ observe
    def observe(self, events: Sequence[BaseEvent]) -> None:
        self.inner.observe(events)
        self.events.extend(events)
        for event in events:
            if isinstance(event, RoleDealt):
                self.role = event.role
            elif (
                isinstance(event, ActionTaken)
                and event.audience == CORRUPT
                and isinstance(event.action, Corrupt)
            ):
                self.team_chose.add(event.year)

    @property
    def beliefs(self) -> Beliefs | None:
        """The seat's beliefs (its believer's)."""
        return self.inner.beliefs

    # ------------------------------------------------------------------ act
    def act(self, prompt: Prompt) -> Action | None:
        proposal = self.inner.act(prompt)
        if prompt.optional or proposal is None:
            return proposal
        self.stats.decisions += 1
        if prompt.step is Step.HIDDEN and prompt.year in self.team_chose:
            return proposal  # follow the teammate who chose first
        beliefs = self.beliefs
        assert beliefs is not None
        good = self.role is not None and self.role.team is Team.GOOD
        corrupt = beliefs.corrupt_probability()
        foe = {n: (p if good else 1.0 - p) for n, p in corrupt.items()}

        def good_politician() -> Mapping[str, float]:
            assert beliefs is not None
            return {n: r[Role.GOOD_POLITICIAN] for n, r in beliefs.role_probability().items()}

        board = self.inner.board
        table = {name: board.sus[seat] for seat, name in enumerate(board.names)}
        reading = Reading(not good, foe, table, good_politician)
        options = candidate_actions(prompt, proposal, reading, self.budget.options)
        if len(options) < 2:
            return proposal
        if self.ruleset is None:
            self.ruleset = Ruleset.from_wire(prompt.view()["ruleset"])
        worlds = self._worlds()
        if not worlds:
            return proposal
        lean = self._lean() if good else None
        scores = [0.0] * len(options)
        for world in worlds:
            seed = self.rng.getrandbits(62)
            for i, option in enumerate(options):
                scores[i] += self._rollout(world, option, seed, good, lean)
        best = max(range(len(options)), key=lambda i: (scores[i], -i))
        if good and scores[best] - scores[0] < self.budget.good_margin:
            best = 0
        stats = self.stats
        stats.searched += 1
        stats.rollouts += len(worlds) * len(options)
        stats.changed += best != 0
        stats.by_step[prompt.step.value] = stats.by_step.get(prompt.step.value, 0) + 1
        return options[best]

    # ------------------------------------------------------------------ worlds
    def _worlds(self) -> list[Game]:
        beliefs, ruleset = self.beliefs, self.ruleset
        assert beliefs is not None and beliefs.seat is not None and ruleset is not None
        table = Table(beliefs.seat, beliefs.players, ruleset, tuple(self.events))
        worlds: list[Game] = []
        budget = self.budget
        corrupt = self.role is Role.CORRUPT_POLITICIAN
        for _ in range(budget.corrupt_worlds if corrupt else budget.worlds):
            for _ in range(budget.draws):
                try:
                    worlds.append(build_world(table, beliefs.sample(self.rng), self.rng))
                except Inconsistent:
                    self.stats.rejected += 1
                    continue
                self.stats.worlds += 1
                break
        return worlds

    def _lean(self) -> list[float]:
        """How far the seat's beliefs lean from the heuristic's suspicion, player by player
        (0 where either is certain): what a Good roll-out bot adds to its own."""
        inner = self.inner
        believed, plain = inner.scores(), HeuristicAgent.scores(inner)
        return [
            0.0 if max(abs(b), abs(h)) >= CERTAIN else b - h
            for b, h in zip(believed, plain, strict=True)
        ]

    def _rollout(
        self, world: Game, option: Action, seed: int, good: bool, lean: list[float] | None
    ) -> float:
        """Play ``option`` in a copy of ``world`` and on with heuristic bots (a Good seat's
        Good ones leaning as its beliefs do): 1 if the seat's team wins, 0.5 a draw, 0 a
        loss."""
        game, _ = replay(record_of(world))  # (a copy: the world serves every option)
        try:
            game.apply(option)
        except KorapsyonError:
            return 0.0
        board = Board()
        agents: dict[str, HeuristicAgent] = {
            name: HeuristicAgent(f"{seed}/{s}", board)
            if lean is None or game.roles[s] is Role.CORRUPT_POLITICIAN
            else _Leaning(f"{seed}/{s}", board, lean)
            for s, name in enumerate(game.players)
        }
        budget = None
        if self.budget.horizon is not None:
            budget = 80 * self.budget.horizon * len(game.players) // 13
        play(game, agents, random.Random(seed), max_actions=budget)
        outcome = game.outcome
        if outcome is None:
            return _estimate(game, good)
        if outcome.winner is Winner.DRAW:
            return 0.5
        return 1.0 if (outcome.winner is Winner.GOOD) == good else 0.0


class _Leaning(HeuristicAgent):
    """A Good roll-out bot whose suspicion leans as the searching seat's beliefs do: a
    model, costing nothing, of teammates who read the table with beliefs (believer and
    search bots) rather than the heuristic's score alone."""

    def __init__(self, seed: str, board: Board, lean: list[float]) -> None:
        super().__init__(seed, board)
        self.lean = lean
        self._leant: list[float] = []
        self._leant_at = -1

    def scores(self) -> list[float]:
        if self._leant_at != self.seen:
            plain = super().scores()
            self._leant = [
                x if abs(x) >= CERTAIN else x + d for x, d in zip(plain, self.lean, strict=True)
            ]
            self._leant_at = self.seen
        return self._leant


def _estimate(game: Game, good: bool) -> float:
    """A game stopped at the horizon: how far each side is from its target (a rough
    value in [0, 1] for Good, from the trackers)."""
    ps = game.public_spending / game.public_spending_target
    cf = game.corruption_fund / game.corruption_fund_target
    value = 0.5 + 0.5 * (ps - cf)
    value = min(1.0, max(0.0, value))
    return value if good else 1.0 - value
