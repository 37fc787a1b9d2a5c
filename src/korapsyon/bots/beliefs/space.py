"""The space of role assignments and the exact posterior over it.

An assignment gives every seat a role so that the role counts match the setup. Its
weight is the product of

* a per-seat factor ``W[seat, role]`` (hard facts are zeros: an own role card, a revealed
  role, an investigation; soft ones are likelihoods: a claim, standing for President), and
* group factors: a table indexed by how many Corrupt sit in each of a few groups of seats
  (the free Corrupt of a Year's night, a committee, a claimant and its target...).

The prior is uniform over assignments (R-06: the deal is uniform). The posterior is
computed exactly: every set of Corrupt seats consistent with the known Corrupt and Good is
enumerated (at most C(16, 4) = 1,820 with the R-02 compositions), and for each one the Good
roles are summed out by a dynamic programme over the seats whose state is how many
Lawyers, Ombudspersons, COAs and Good Politicians are placed so far (Citizens fill the
rest). All of it is vectorised over the Corrupt sets with numpy.

When there are more Corrupt sets than ``max_exact`` (only custom setups can get there) the
Corrupt sets are drawn uniformly at random instead and weighted (self-normalised
importance sampling); :attr:`Posterior.tolerance` then bounds the standard error of every
marginal, ``0.5 / sqrt(effective sample size)``.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import comb, sqrt

import numpy as np
import numpy.typing as npt

from ...rules.roles import Role

Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

ROLES = tuple(Role)  # columns of W
CP = ROLES.index(Role.CORRUPT_POLITICIAN)
GOOD_ROLES = (Role.LAWYER, Role.OMBUDSPERSON, Role.COA, Role.GOOD_POLITICIAN)
"""The Good roles the programme counts; Citizens fill the seats left."""
GOOD_COLUMNS = tuple(ROLES.index(r) for r in GOOD_ROLES)
CITIZEN = ROLES.index(Role.CITIZEN)


@dataclass(frozen=True)
class GroupFactor:
    """A likelihood indexed by the number of Corrupt in each group of seats."""

    groups: tuple[tuple[int, ...], ...]
    table: Floats

    def weights(self, corrupt: Bools) -> Floats:
        index = tuple(corrupt[:, list(group)].sum(axis=1) for group in self.groups)
        values: Floats = self.table[index]
        return values


@dataclass
class Posterior:
    """The Corrupt sets with their posterior probabilities, and what is needed to sum out
    or sample the Good roles given one of them."""

    corrupt: Bools  # (sets, seats)
    probability: Floats  # (sets,), sums to 1
    goods: Floats  # (sets,): the log Good-role sum of each set (its part of the weight)
    seat_weights: Floats  # W, (seats, roles)
    counts: tuple[int, ...]  # Lawyers, Ombudspersons, COAs, Good Politicians
    exact: bool
    effective: float  # effective sample size (the number of sets when exact)

    @property
    def tolerance(self) -> float:
        """A bound on the standard error of any marginal (0 when exact)."""
        return 0.0 if self.exact else 0.5 / sqrt(max(self.effective, 1.0))

    def corrupt_marginals(self) -> Floats:
        marginals: Floats = self.probability @ self.corrupt
        return marginals

    def role_marginals(self) -> Floats:
        """P(seat holds role), (seats, roles): a forward-backward pass of the programme of
        :func:`log_good_sums`, vectorised over the Corrupt sets."""
        corrupt, weights, counts = self.corrupt, self.seat_weights, self.counts
        sets, seats = corrupt.shape
        ones = [1] * len(counts)
        result = np.zeros((seats, len(ROLES)))
        result[:, CP] = self.corrupt_marginals()
        forward = list(_forward(corrupt, weights, counts))
        back = np.zeros((sets, *(c + 1 for c in counts)))
        lawyers, ombudspersons, coas, politicians = counts
        back[:, lawyers, ombudspersons, coas, politicians] = 1.0
        log_back = np.zeros(sets)
        for seat in range(seats - 1, -1, -1):
            ahead, log_ahead = forward[seat]
            good = ~corrupt[:, seat]
            with np.errstate(over="ignore", invalid="ignore"):
                factor = np.nan_to_num(np.exp(log_ahead + log_back - self.goods))
            mass = self.probability * good * factor
            w = weights[seat]
            both = (ahead * back).reshape(sets, -1).sum(axis=1)
            result[seat, CITIZEN] = float(mass @ both) * w[CITIZEN]
            for axis, column in enumerate(GOOD_COLUMNS, start=1):
                if counts[axis - 1] == 0:
                    continue
                shifted = ahead[_along(axis, slice(None, -1))] * back[_along(axis, slice(1, None))]
                result[seat, column] = (
                    float(mass @ shifted.reshape(sets, -1).sum(axis=1)) * w[column]
                )
            stepped = np.where(good.reshape(-1, *ones), _backward_step(back, w, counts), back)
            scale = stepped.reshape(sets, -1).max(axis=1)
            scale = np.where(scale > 0, scale, 1.0)
            back = stepped / scale.reshape(-1, *ones)
            log_back = log_back + np.log(scale)
        return result

    def sample(self, rng: random.Random) -> tuple[Role, ...]:
        """One role assignment drawn from the posterior (for determinised search)."""
        row = rng.choices(range(len(self.probability)), weights=self.probability.tolist())[0]
        corrupt = self.corrupt[row]
        return _sample_good(corrupt, self.seat_weights, self.counts, rng)


def composition_counts(roles: Sequence[Role]) -> tuple[int, tuple[int, ...]]:
    """(Corrupt count, counts of the Good roles of :data:`GOOD_ROLES`) of a setup."""
    counter = Counter(roles)
    return counter[Role.CORRUPT_POLITICIAN], tuple(counter[r] for r in GOOD_ROLES)


def _along(axis: int, part: slice) -> tuple[slice, ...]:
    """An index taking ``part`` along ``axis`` of a (sets, lawyers, ..., politicians) array."""
    index = [slice(None)] * (len(GOOD_ROLES) + 1)
    index[axis] = part
    return tuple(index)


def _forward_step(dp: Floats, w: Floats, counts: tuple[int, ...]) -> Floats:
    """Place one more seat's role: a Citizen, or a Good role still missing."""
    new: Floats = dp * w[CITIZEN]
    for axis, column in enumerate(GOOD_COLUMNS, start=1):
        if counts[axis - 1] and w[column]:
            new[_along(axis, slice(1, None))] += dp[_along(axis, slice(None, -1))] * w[column]
    return new


def _backward_step(back: Floats, w: Floats, counts: tuple[int, ...]) -> Floats:
    """The weighted ways to finish from one seat earlier (the mirror of the forward step)."""
    new: Floats = back * w[CITIZEN]
    for axis, column in enumerate(GOOD_COLUMNS, start=1):
        if counts[axis - 1] and w[column]:
            new[_along(axis, slice(None, -1))] += back[_along(axis, slice(1, None))] * w[column]
    return new


def _forward(
    corrupt: Bools, weights: Floats, counts: tuple[int, ...]
) -> Iterator[tuple[Floats, Floats]]:
    """The programme's state before each seat and after the last, each normalised per set
    (the numbers stay in range) with the log of what was divided out."""
    sets, seats = corrupt.shape
    ones = [1] * len(counts)
    dp = np.zeros((sets, *(c + 1 for c in counts)))
    dp[:, 0, 0, 0, 0] = 1.0
    log_scale = np.zeros(sets)
    for seat in range(seats):
        yield dp, log_scale
        good = ~corrupt[:, seat].reshape(-1, *ones)
        stepped = np.where(good, _forward_step(dp, weights[seat], counts), dp)
        scale = stepped.reshape(sets, -1).max(axis=1)
        scale = np.where(scale > 0, scale, 1.0)
        dp = stepped / scale.reshape(-1, *ones)
        log_scale = log_scale + np.log(scale)
    yield dp, log_scale


def log_good_sums(corrupt: Bools, weights: Floats, counts: tuple[int, ...]) -> Floats:
    """For each Corrupt set, the log of the sum, over the placements of the Good roles on
    its other seats, of the product of their seat weights (Citizens fill the seats left;
    -inf when no placement is possible)."""
    *_, (dp, log_scale) = _forward(corrupt, weights, counts)
    lawyers, ombudspersons, coas, politicians = counts
    final = dp[:, lawyers, ombudspersons, coas, politicians]
    with np.errstate(divide="ignore"):
        result: Floats = np.log(final) + log_scale
    return result


def _sample_good(
    corrupt: Bools, weights: Floats, counts: tuple[int, ...], rng: random.Random
) -> tuple[Role, ...]:
    """Place the Good roles on the seats outside ``corrupt``, seat by seat, each draw
    weighted by its seat weight times the number of weighted ways to finish."""
    seats = len(corrupt)
    shape = tuple(c + 1 for c in counts)
    # ways[i][state]: the weighted ways seats i.. can take the roles still missing
    ways = [np.zeros(shape) for _ in range(seats + 1)]
    ways[seats][tuple(counts)] = 1.0
    for seat in range(seats - 1, -1, -1):
        after = ways[seat + 1]
        if corrupt[seat]:
            ways[seat] = after
            continue
        w = weights[seat]
        here = after * w[CITIZEN]
        for axis, column in enumerate(GOOD_COLUMNS):
            if counts[axis] == 0:
                continue
            target = [slice(None)] * len(shape)
            source = [slice(None)] * len(shape)
            target[axis] = slice(None, -1)
            source[axis] = slice(1, None)
            here[tuple(target)] += after[tuple(source)] * w[column]
        total = here.max()
        ways[seat] = here / total if total > 0 else here
    state = [0] * len(counts)
    roles: list[Role] = []
    for seat in range(seats):
        if corrupt[seat]:
            roles.append(Role.CORRUPT_POLITICIAN)
            continue
        after = ways[seat + 1]
        w = weights[seat]
        options: list[tuple[Role, float, int | None]] = [
            (Role.CITIZEN, float(w[CITIZEN] * after[tuple(state)]), None)
        ]
        for axis, column in enumerate(GOOD_COLUMNS):
            if state[axis] < counts[axis]:
                moved = list(state)
                moved[axis] += 1
                options.append((GOOD_ROLES[axis], float(w[column] * after[tuple(moved)]), axis))
        role, _, placed = rng.choices(options, weights=[o[1] for o in options])[0]
        roles.append(role)
        if placed is not None:
            state[placed] += 1
    return tuple(roles)


def posterior(
    weights: Floats,
    factors: Sequence[GroupFactor],
    corrupt_count: int,
    counts: tuple[int, ...],
    *,
    max_exact: int = 50_000,
    samples: int = 20_000,
    seed: int = 0,
) -> Posterior:
    """The posterior over the Corrupt sets (see the module docstring). Raises
    ValueError when no assignment is consistent with the hard facts."""
    seats = weights.shape[0]
    if not weights.any(axis=1).all():
        raise ValueError("no role assignment is consistent with what is known")
    sure_bad = [s for s in range(seats) if not weights[s, [*GOOD_COLUMNS, CITIZEN]].any()]
    open_seats = [s for s in range(seats) if weights[s, CP] > 0 and s not in sure_bad]
    need = corrupt_count - len(sure_bad)
    if need < 0 or need > len(open_seats):
        raise ValueError("no role assignment is consistent with what is known")
    total = comb(len(open_seats), need)
    exact = total <= max_exact
    if exact:
        picks = np.array(list(itertools.combinations(open_seats, need)), dtype=np.intp)
        picks = picks.reshape(total, need)
    else:
        rng = np.random.default_rng(seed)
        keys = rng.random((samples, len(open_seats)))
        order = np.argsort(keys, axis=1)[:, :need]
        picks = np.asarray(open_seats, dtype=np.intp)[order]
    corrupt = np.zeros((len(picks), seats), dtype=np.bool_)
    corrupt[:, sure_bad] = True
    rows = np.repeat(np.arange(len(picks)), need)
    corrupt[rows, picks.reshape(-1)] = True
    log_cp = np.log(np.where(weights[:, CP] > 0, weights[:, CP], 1.0))
    log_w = corrupt.astype(np.float64) @ log_cp
    with np.errstate(divide="ignore"):
        for factor in factors:
            log_w = log_w + np.log(factor.weights(corrupt))
    goods = log_good_sums(corrupt, weights, counts)
    log_w = log_w + goods
    top = log_w.max(initial=-np.inf)
    if not np.isfinite(top):
        raise ValueError("no role assignment is consistent with what is known")
    weight = np.exp(log_w - top)
    probability = weight / weight.sum()
    effective = float(len(picks)) if exact else float(1.0 / (probability**2).sum())
    return Posterior(corrupt, probability, goods, weights, counts, exact, effective)
