"""``montecarlo``: ``samples`` random deals of the unseen cards; each opponent sets its hand
with the ``table`` strategy, and the candidate splits are scored exactly as the referee would
on the same deals (common random numbers); see :mod:`.exact` for the candidates."""

from __future__ import annotations

import numpy as np

from solver.games.capsa.columns import BatchColumns
from solver.games.capsa.limits import MAX_SAMPLES_PER_DECISION, MAX_SEED
from solver.games.capsa.methods.exact import (
    Splits,
    candidates,
    exact_result,
    opponent_rows,
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


def montecarlo_arrangements(sp: Splits, rules: Rules, opponents: int, samples: int, seed: int,
                            top: int, st: StrategyTables, max_work: int | None = None
                            ) -> tuple[list[RankedArrangement], int]:
    """The ``top`` best splits on ``samples`` deals drawn from ``seed``, and how many
    candidates were scored; :class:`WorkLimitError` first when the work is over
    ``max_work``."""
    cand = candidates(sp, rules)
    check_work(samples, opponents, len(cand), max_work)
    unseen = np.setdiff1d(np.arange(52), sp.hand)
    deals = deal(np.random.default_rng(seed), samples, opponents, unseen)
    return exact_result(sp, rules, opponent_rows(deals, rules, st), top, cand), len(cand)


def montecarlo_best_columns(hands: np.ndarray, rules: Rules, opponents: int, samples: int,
                            seeds: list[int], card_removal: bool = True,
                            tables: str | None = None) -> BatchColumns:
    """The best split and its expected points of each sorted hand of an (N, 13) array, hand
    ``i`` on the deals of ``seeds[i]``; ``tables``: a tables file (default: the one in use)."""
    samples = check_int("samples", samples, 1, MAX_SAMPLES_PER_DECISION)
    st = tables_for(rules, tables, card_removal=card_removal)
    ev = np.empty(len(hands))
    rows = np.empty((len(hands), 13), dtype=np.int64)
    for i, (h, seed) in enumerate(zip(hands, seeds)):
        best = montecarlo_arrangements(valid_splits(h, rules), rules, opponents, samples,
                                       check_int("seed", seed, 0, MAX_SEED), 1, st)[0][0]
        arr = best.arrangement
        rows[i] = arr.front + arr.middle + arr.back
        ev[i] = best.ev
    return BatchColumns(hands, rows[:, :3], rows[:, 3:8], rows[:, 8:], ev)
