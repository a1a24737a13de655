"""Setting many hands at once with a strategy (one kernel call per batch)."""

from __future__ import annotations

import numpy as np

from solver.games.capsa import kernels as K
from solver.games.capsa.kernel_args import SCORING_CODE, kernel_params, royalties_grow
from solver.games.capsa.lookup import (
    CARD_WORD,
    COMB3,
    COMB5,
    SPLIT_PAIRS,
    TABLES,
)
from solver.games.capsa.prepared import prepare
from solver.games.capsa.rules import Rules
from solver.games.capsa.search import search_best
from solver.games.capsa.strategy.tables import StrategyTables

__all__ = ["SCORING_CODE", "deal", "kernel_params", "naive_play", "natural_codes",
           "royalties_grow", "table_play"]


def table_play(hands: np.ndarray, rules: Rules, tables: StrategyTables | None = None,
               prune: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Best split of each hand (N, 13) under the table strategy: packed splits, values, rows
    (N, 3: front, middle, back strengths), from the branch-and-bound search of
    :mod:`solver.games.capsa.search`; ``prune=False`` forces the full search. Tables with card
    removal value each hand against its own opponent tables.
    """
    prep = prepare(rules, tables)
    st = prep.tables
    if prune:
        split, ev, rows, _ = search_best(hands, prep, 1)
        return split[:, 0], ev[:, 0], rows[:, 0]
    t = TABLES[rules.wheel]
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    n = len(hands)
    split = np.empty(n, dtype=np.int64)
    ev = np.empty(n, dtype=np.float64)
    rows = np.empty((n, 3), dtype=np.int32)
    scoring, bonus, net, single = kernel_params(rules)
    if st.removal is not None:
        rm = prep.removal_model
        K.removal_best_many(hands, CARD_WORD, t.rank5, t.flush5, t.rank3, COMB5, COMB3,
                            SPLIT_PAIRS, st.alpha, rm.pw, rm.pt, rm.lr, rm.coef, st.roy, scoring,
                            bonus, net, single, st.joint_grid, split, ev, rows)
    else:
        K.table_best_many_full(hands, CARD_WORD, t.rank5, t.flush5, t.rank3, COMB5, COMB3,
                               SPLIT_PAIRS, st.pw, st.pt, st.lr, st.roy, scoring, bonus, net,
                               single, st.joint_grid, split, ev, rows)
    return split, ev, rows


def naive_play(hands: np.ndarray, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """The naive strategy (strongest back, then middle): packed splits and rows (N, 3)."""
    t = TABLES[rules.wheel]
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    split = np.empty(len(hands), dtype=np.int64)
    rows = np.empty((len(hands), 3), dtype=np.int32)
    K.naive_best_many(hands, CARD_WORD, t.rank5, t.flush5, t.rank3, COMB5, COMB3, SPLIT_PAIRS,
                      split, rows)
    return split, rows


def natural_codes(hands: np.ndarray) -> np.ndarray:
    """Strongest natural per hand by counts: 0 none, 1 three flushes .. 4 dragon."""
    out = np.empty(len(hands), dtype=np.int64)
    K.natural_kinds(np.ascontiguousarray(hands, dtype=np.int64), out)
    return out


def deal(rng: np.random.Generator, n: int, players: int = 1,
         deck: np.ndarray | None = None) -> np.ndarray:
    """``n`` deals of ``players`` hands of 13 from ``deck`` (default: all 52): (n, players, 13)."""
    cards = np.arange(52) if deck is None else np.asarray(deck)
    order = np.argsort(rng.random((n, len(cards))), axis=1)[:, : 13 * players]
    return np.sort(cards[order].reshape(n, players, 13), axis=2).astype(np.int64)
