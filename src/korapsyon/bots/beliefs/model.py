"""The behaviour model: how likely each public act is, given who holds which role.

Hard facts (RULES.md) say which role assignments are possible; this model says how much
more likely one possible assignment makes what the table saw than another. Every number
is a probability of an act given the actor's side (and, for committee and claim acts, the
side of the players concerned), so a likelihood ratio between assignments follows.

The model is deliberately simple and stated in full below (docs/BOTS.md, "Beliefs"):

* **The steal (R-25 step 3, R-31).** The free Corrupt steal with probability
  ``steal_first`` until their first public steal, then ``steal_same`` while as many of them
  are free as at their last public steal, and ``steal_changed`` when that number changed
  (a smaller steal would tell the table that the jailed player was Corrupt, so they hold
  back); when they steal, they also pay Suhol (refunding ``min(3, steal)``) with
  probability ``suhol``. So last Year's public decrease minus its project's cost is ``k``
  (steal), ``max(0, k - 3)`` (steal + Suhol) or ``0`` (no steal), where ``k`` is the number
  of Corrupt who were free that night: any other amount is impossible.
* **Committee votes (R-34).** Each Corrupt member opposes with ``oppose_bad``, each Good
  member with ``oppose_good_clean`` when no Corrupt sits on the committee and
  ``oppose_good_dirty`` when one does (Good members who suspect a member oppose).
* **The President's committee.** A Corrupt President seats ``c`` Corrupt with probability
  ``pick_bad[c]`` (one for the kickback, the rest cover); a Good President's committee is
  a uniform draw tilted by ``pick_good_tilt`` per Corrupt member (Good Presidents name the
  players they trust). Within a count, every committee is equally likely.
* **The card.** A Corrupt President picks the Large card with ``large_bad``, a Good one
  with ``large_good``.
* **Standing for President.** ``stand`` gives the chance per role.
* **Claims.** Players lie. A Good player claims only what it holds (``lie_good`` otherwise);
  a Corrupt one bluffs a role, an audit or an investigation at the ``bluff_*`` rates. The
  content of a true claim is true but for ``claim_error``; a Corrupt bluffer accuses Good
  players and covers for teammates (``bluff_accuse_mate``, ``bluff_clear_good``). "I
  suspect X" is worth ``suspect_good`` / ``suspect_bad`` (how much more often the speaker's
  side names a Corrupt than a Good player).
* **Night acts seen in public.** An Auto Jail names a Corrupt target far more often than a
  Good one (``auto_jail_good``); a Tokhang is aimed at a Good player (``tokhang_bad``); a
  Lawyer's protection that blocks a jailing covers a Good player more often
  (``protect_bad``).

Votes whose ballots are secret (elections, jail votes) are not used: a tally says what
the table as a whole believed, which is the same evidence counted again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

import numpy as np
import numpy.typing as npt

from ...rules.roles import Role

Table = npt.NDArray[np.float64]

SUHOL_REFUND = 3  # R-25 step 4: the refund is min(3, this Year's steal)


@dataclass(frozen=True)
class BehaviourModel:
    """The parameters of the model (see the module docstring). The defaults are the
    heuristic bots' rates measured in simulated games (:mod:`.fit`), rounded and kept away
    from 0 and 1 so that a person who plays otherwise is not ruled out; the likelihood
    ratios the counts do not give directly (``suspect_*``, ``trust_*``, ``pick_good_tilt``,
    the bluff rates) were chosen on a small grid of calibration runs (seeds 1-3)."""

    steal_first: float = 0.95
    steal_same: float = 0.95
    steal_changed: float = 0.2
    suhol: float = 0.08
    oppose_bad: float = 0.05
    oppose_good_clean: float = 0.08
    oppose_good_dirty: float = 0.08
    pick_bad: tuple[float, ...] = (0.03, 0.92, 0.05)
    pick_good_tilt: float = 0.8
    large_bad: float = 0.95
    large_good: float = 0.15
    stand: dict[Role, float] = field(
        default_factory=lambda: {
            Role.CORRUPT_POLITICIAN: 0.45,
            Role.GOOD_POLITICIAN: 0.9,
            Role.LAWYER: 0.25,
            Role.OMBUDSPERSON: 0.25,
            Role.COA: 0.25,
            Role.CITIZEN: 0.25,
        }
    )
    lie_good: float = 0.02
    bluff_role: float = 0.1
    bluff_audit: float = 0.2
    bluff_investigation: float = 0.2
    claim_error: float = 0.01
    bluff_accuse_mate: float = 0.05
    bluff_clear_good: float = 0.3
    suspect_good: float = 1.2
    suspect_bad: float = 0.02
    trust_good: float = 0.5
    trust_bad: float = 2.0
    auto_jail_good: float = 0.1
    tokhang_bad: float = 0.03
    protect_bad: float = 0.5

    # --- tables over counts of Corrupt ------------------------------------------------
    def steal_table(self, decrease: int, players: int, before: int | None = None) -> Table:
        """P(net steal = ``decrease`` | k free Corrupt tonight, j free at the last public
        steal), indexed [k] (k = 0..players) when there was none, else [k][j] (j =
        0..``before``, the players free then)."""
        if before is None:
            return np.array(
                [self._steal(decrease, k, self.steal_first) for k in range(players + 1)]
            )
        table = np.zeros((players + 1, before + 1))
        for k in range(players + 1):
            for j in range(before + 1):
                steal = self.steal_same if j == k else self.steal_changed
                table[k, j] = self._steal(decrease, k, steal)
        return table

    def _steal(self, decrease: int, k: int, steal: float) -> float:
        if k == 0:
            return 1.0 if decrease == 0 else 0.0
        p = 0.0
        if decrease == k:
            p += steal * (1 - self.suhol)
        if decrease == max(0, k - SUHOL_REFUND):
            p += steal * self.suhol
        if decrease == 0:
            p += 1 - steal
        return p

    def oppose_table(self, members: int, oppose: int) -> Table:
        """P(``oppose`` of ``members`` oppose | c Corrupt members), for c = 0..members."""
        table = np.zeros(members + 1)
        for c in range(members + 1):
            good = self.oppose_good_dirty if c else self.oppose_good_clean
            table[c] = sum(
                _binom(j, c, self.oppose_bad) * _binom(oppose - j, members - c, good)
                for j in range(min(c, oppose) + 1)
            )
        return table

    def committee_table(self, active: int, size: int, corrupt: int) -> Table:
        """P(this committee | President Corrupt?, c Corrupt on it, k active Corrupt):
        an array indexed [president_bad][c][k] (c = 0..size, k = 0..corrupt)."""
        table = np.zeros((2, size + 1, corrupt + 1))
        for k in range(min(corrupt, active) + 1):  # (more Corrupt than active: impossible)
            counts = [comb(k, c) * comb(active - k, size - c) for c in range(size + 1)]
            tilt = [self.pick_good_tilt**c for c in range(size + 1)]
            good_total = sum(n * t for n, t in zip(counts, tilt, strict=True))
            picks = [self._pick_bad(c) if counts[c] else 0.0 for c in range(size + 1)]
            bad_total = sum(picks)
            for c in range(size + 1):
                if not counts[c]:
                    continue
                if good_total:
                    table[0, c, k] = tilt[c] / good_total
                if bad_total and k:
                    table[1, c, k] = picks[c] / bad_total / counts[c]
        return table

    def _pick_bad(self, c: int) -> float:
        if c < len(self.pick_bad) - 1:
            return self.pick_bad[c]
        return self.pick_bad[-1] / (c - len(self.pick_bad) + 2)

    # --- claims ------------------------------------------------------------------------
    def claim_rate(self, claimed: Role, bluff: float) -> dict[Role, float]:
        """How likely each role is to make a claim that only ``claimed`` would truly make:
        the holder 1, another Good role ``lie_good``, a Corrupt ``bluff``."""
        rates = dict.fromkeys(Role, self.lie_good)
        rates[Role.CORRUPT_POLITICIAN] = bluff
        rates[claimed] = 1.0
        return rates

    def verdict_table(self, says_bad: bool) -> Table:
        """P(an accusation or a clearance of Y | claimant Corrupt?, Y Corrupt?), [xb][yb]:
        the true holder (Good) reports the truth, a Corrupt bluffer accuses Good players."""
        err = self.claim_error
        if says_bad:
            return np.array([[err, 1.0], [1.0, self.bluff_accuse_mate]])
        return np.array([[1.0, err], [self.bluff_clear_good, 1.0]])

    def audit_table(self, kickback: bool) -> Table:
        """P(an audit claim | claimant Corrupt?, Corrupt on last Year's committee?),
        [xb][dirty]: the COA tells the truth; a Corrupt bluffer denies a kickback that
        points at the team, and seldom invents one."""
        err = self.claim_error
        if kickback:
            return np.array([[err, 1.0], [0.5, 0.1]])
        return np.array([[1.0, err], [0.3, 1.0]])

    def talk_table(self, suspect: bool) -> Table:
        """P("I suspect / trust Y" | speaker Corrupt?, Y Corrupt?), [xb][yb]."""
        if suspect:
            return np.array([[1.0, self.suspect_good], [1.0, self.suspect_bad]])
        return np.array([[1.0, self.trust_good], [1.0, self.trust_bad]])


def _binom(j: int, n: int, p: float) -> float:
    if j < 0 or j > n:
        return 0.0
    return float(comb(n, j) * p**j * (1 - p) ** (n - j))


DEFAULT_MODEL = BehaviourModel()
