"""``montecarlo``: up to ``samples`` random deals of the unseen cards; each opponent sets its
hand with the ``table`` strategy, and the candidate splits are scored exactly as the referee
would on the same deals (common random numbers); see :mod:`.exact` for the candidates.

Sampling stops early once the best split is settled (``adaptive``, the default): the deals
are drawn as for a full run, and after each block of ``block_size(samples)`` of them (from the
second block on) the candidates' points per block are compared. The run stops when the best
candidate is ahead of every other by more than :data:`STOP_Z` standard errors of their paired
difference (the blocks' spread); a tie so far never stops it. The answer, however many
arrangements it lists, is then the full run's scoring of the deals drawn so far: the same
deals as a full run's first ones, the same seed, the same result on every call, and the same
deals whatever ``top`` (so ``top=1`` and ``top=5`` agree on every EV they both list; the
arrangements after the best are ranked on those deals, as any Monte Carlo ranks them on its
own). Setting sampled opponents costs about 95% of a decision, so stopping early is where the
time goes: on 2,000 random hands at 1,000 samples it drew 74.5% of the deals heads-up
(two-four) and 62.3% against three, and picked the full run's best split on 99.9% and 99.7%
(``benchmarks/bench_capsa_solver.py --agreement-hands 2000``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from solver.games.capsa.columns import BatchColumns
from solver.games.capsa.limits import MAX_SAMPLES_PER_DECISION, MAX_SEED
from solver.games.capsa.methods.exact import (
    OpponentRows,
    Scores,
    Splits,
    candidates,
    opponent_rows,
    ranked,
    score_splits,
    valid_splits,
)
from solver.games.capsa.results import RankedArrangement
from solver.games.capsa.rules import Rules
from solver.games.capsa.strategy.play import deal
from solver.games.capsa.strategy.tables import StrategyTables, tables_for
from solver.games.capsa.work import check_work
from solver.validation import check_int


def hand_seed(seed: int, hand: np.ndarray) -> int:
    """The Monte Carlo seed of one hand of many: fixed by the run's seed and the cards, so a
    hand gets the same answer whatever chunk, order or worker solves it.

    >>> hand_seed(0, np.arange(13)) == hand_seed(0, np.arange(13)[::-1])
    True
    """
    return int(np.random.SeedSequence([seed, *sorted(int(c) for c in hand)]).generate_state(
        2, np.uint64)[0] >> np.uint64(1))


STOP_Z = 3.0  # how many standard errors ahead of every other the best must be to stop early


def block_size(samples: int) -> int:
    """Deals between two checks of an adaptive run: at least 50, a twentieth of the run (so
    no run stops before 100 deals, nor before a tenth of ``samples``)."""
    return max(50, samples // 20)


def settled(blocks: np.ndarray, packed: np.ndarray, z: float = STOP_Z) -> bool:
    """Whether the candidates' points per block (B, C) settle the best one (by total points,
    ties to the smaller packed split, as the answer orders them): ahead of every other by more
    than ``z`` standard errors of the paired difference's block mean.

    >>> settled(np.array([[3.0, 1.0], [3.0, 0.0]]), np.array([7, 5]))
    True
    >>> settled(np.array([[3.0, 3.0], [3.0, 3.0]]), np.array([7, 5]))  # tied so far
    False
    """
    m = len(blocks)
    best = np.lexsort((packed, -blocks.sum(axis=0)))[0]
    diff = np.delete(blocks[:, best, None] - blocks, best, axis=1)
    return bool(np.all(diff.mean(axis=0) > z * diff.std(axis=0, ddof=1) / np.sqrt(m)))


def sampled_deals(hand: np.ndarray, opponents: int, samples: int, seed: int) -> np.ndarray:
    """The ``samples`` deals (S, opponents, 13) of the cards ``hand`` does not hold that a run
    with ``seed`` draws (an adaptive run scores the first ones)."""
    unseen = np.setdiff1d(np.arange(52), hand)
    return deal(np.random.default_rng(seed), samples, opponents, unseen)


# sets the sampled opponents of a block of deals (S, O, 13) that starts at deal ``start``
OpponentSetter = Callable[[np.ndarray, int], OpponentRows]


def sampled_scores(sp: Splits, rules: Rules, opponents: int, samples: int, seed: int,
                   st: StrategyTables, cand: np.ndarray, adaptive: bool = True,
                   setter: OpponentSetter | None = None) -> tuple[Scores, int]:
    """The candidates' scores on the deals drawn from ``seed``, and how many: all ``samples``
    of them, or with ``adaptive`` the first ones up to where the best candidate settles (see
    the module's docstring). Each block is scored once; its sums add up to the answer.
    ``setter`` sets the sampled opponents (default: ``table`` with ``st``; an opponent
    profile's, :func:`solver.games.capsa.profile.profile_setter`)."""
    deals = sampled_deals(sp.hand, opponents, samples, seed)
    step = block_size(samples)
    if not adaptive or len(cand) < 2 or samples < 2 * step:
        step = samples
    total: Scores | None = None
    blocks: list[np.ndarray] = []
    for start in range(0, samples, step):
        block = deals[start:start + step]
        opp = opponent_rows(block, rules, st) if setter is None else setter(block, start)
        part = score_splits(sp, rules, opp, cand)
        total = part if total is None else total + part
        blocks.append(part.points)
        if len(blocks) >= 2 and start + step < samples and \
                settled(np.array(blocks), sp.packed[cand]):
            break
    assert total is not None
    return total, min(start + step, samples)


def montecarlo_arrangements(sp: Splits, rules: Rules, opponents: int, samples: int, seed: int,
                            top: int, st: StrategyTables, max_work: int | None = None,
                            adaptive: bool = True, setter: OpponentSetter | None = None
                            ) -> tuple[list[RankedArrangement], int, int]:
    """The ``top`` best splits on up to ``samples`` deals drawn from ``seed`` (``adaptive``:
    stopping once the best is settled), how many candidates were scored and on how many deals;
    :class:`WorkLimitError` first when the work of all ``samples`` is over ``max_work``.
    ``setter``: how the sampled opponents set their hands (see :func:`sampled_scores`)."""
    cand = candidates(sp, rules)
    check_work(samples, opponents, len(cand), max_work)
    scores, used = sampled_scores(sp, rules, opponents, samples, seed, st, cand, adaptive,
                                  setter)
    return ranked(sp, rules, scores, used, top, cand), len(cand), used


def montecarlo_best_columns(hands: np.ndarray, rules: Rules, opponents: int, samples: int,
                            seeds: list[int], card_removal: bool = True,
                            tables: str | None = None, adaptive: bool = True) -> BatchColumns:
    """The best split and its expected points of each sorted hand of an (N, 13) array, hand
    ``i`` on the deals of ``seeds[i]``; ``tables``: a tables file (default: the one in use)."""
    samples = check_int("samples", samples, 1, MAX_SAMPLES_PER_DECISION)
    st = tables_for(rules, tables, card_removal=card_removal)
    ev = np.empty(len(hands))
    rows = np.empty((len(hands), 13), dtype=np.int64)
    for i, (h, seed) in enumerate(zip(hands, seeds)):
        best = montecarlo_arrangements(valid_splits(h, rules), rules, opponents, samples,
                                       check_int("seed", seed, 0, MAX_SEED), 1, st,
                                       adaptive=adaptive)[0][0]
        arr = best.arrangement
        rows[i] = arr.front + arr.middle + arr.back
        ev[i] = best.ev
    return BatchColumns(hands, rows[:, :3], rows[:, 3:8], rows[:, 8:], ev)
