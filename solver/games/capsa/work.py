"""Work limits of Monte Carlo: how much a decision costs before it runs, so a caller (the
HTTP service) can refuse one that would take too long, saying how many samples would fit.

Work is counted in "candidate scorings" (one candidate split against one opponent in one
sampled deal). Setting one sampled opponent hand with the tables (with card removal) costs
about as much as :data:`OPPONENT_SET_COST` of them (measured: ~55 us per hand against
~0.024 us per scoring).

>>> montecarlo_work(1000, 3, 10)
6930000
>>> check_work(1000, 3, 10, max_work=1_000_000)
Traceback (most recent call last):
...
solver.errors.WorkLimitError: this Monte Carlo request needs 6,930,000 work units (1,000 samples x 3 opponents x (10 candidate splits + 2,300 to set each sampled hand)), over the limit of 1,000,000; allowed: at most 144 samples here
"""

from __future__ import annotations

import numpy as np

from solver.errors import WorkLimitError
from solver.games.capsa.methods.exact import candidates, valid_splits
from solver.games.capsa.rules import RulesSpec, resolve_rules

OPPONENT_SET_COST = 2_300


def montecarlo_work(samples: int, opponents: int, candidates: int) -> int:
    """Work units of a Monte Carlo decision: samples x opponents x (candidates + set cost)."""
    return samples * opponents * (candidates + OPPONENT_SET_COST)


def batch_work(hands: np.ndarray, rules: RulesSpec, opponents: int, samples: int) -> int:
    """Work units of a Monte Carlo batch: the sum over its hands (candidates hand by hand)."""
    r = resolve_rules(rules)
    cands = sum(len(candidates(valid_splits(h, r), r)) for h in hands)
    return samples * opponents * (cands + OPPONENT_SET_COST * len(hands))


def _over_limit(what: str, work: int, breakdown: str, max_work: int, fits: int,
                where: str) -> WorkLimitError:
    """The one wording of a refused Monte Carlo request."""
    return WorkLimitError(f"{what} needs {work:,} work units ({breakdown}), over the limit of "
                          f"{max_work:,}; allowed: at most {fits:,} samples {where}")


def check_work(samples: int, opponents: int, candidates: int, max_work: int | None,
               what: str = "this Monte Carlo request") -> None:
    """:class:`WorkLimitError` when one decision's :func:`montecarlo_work` is over
    ``max_work`` (None: no limit)."""
    if max_work is None:
        return
    work = montecarlo_work(samples, opponents, candidates)
    if work > max_work:
        fits = max_work // (opponents * (candidates + OPPONENT_SET_COST))
        raise _over_limit(what, work, f"{samples:,} samples x {opponents} opponents x "
                          f"({candidates:,} candidate splits + {OPPONENT_SET_COST:,} to set "
                          "each sampled hand)", max_work, fits, "here")


def check_batch_work(hands: np.ndarray, rules: RulesSpec, opponents: int, samples: int,
                     max_work: int | None) -> None:
    """:class:`WorkLimitError` when a Monte Carlo batch's :func:`batch_work` is over
    ``max_work`` (None: no limit)."""
    if max_work is None:
        return
    work = batch_work(hands, rules, opponents, samples)
    if work > max_work:
        per_sample = work // samples
        raise _over_limit("this Monte Carlo batch", work,
                          f"{len(hands):,} hands x {samples:,} samples x {opponents} opponents, "
                          f"each hand's candidate splits plus {OPPONENT_SET_COST:,} to set each "
                          "sampled hand", max_work, max(max_work // per_sample, 0),
                          "for these hands, or fewer hands")
