"""Setting many hands at once with a strategy (one kernel call per batch)."""

from __future__ import annotations

import numpy as np

from solver.games.capsa import kernels as K
from solver.games.capsa.lookup import (
    BACK_SPLITS,
    CARD_WORD,
    COMB3,
    COMB5,
    SPLIT_PAIRS,
    TABLES,
)
from solver.games.capsa.rules import Rules
from solver.games.capsa.strategy.tables import StrategyTables, tables_for

SCORING_CODE = {"one-six": K.ONE_SIX, "two-four": K.TWO_FOUR, "scoop-one": K.SCOOP_ONE,
                "basic": K.BASIC}


def kernel_params(rules: Rules) -> tuple[int, float, bool, bool]:
    """(scoring code, scoop bonus, net royalties, single royalty) as the kernels take them."""
    return (SCORING_CODE[rules.scoring], float(rules.scoop_bonus), rules.royalty_mode == "net",
            rules.single_royalty)


def royalties_grow(rules: Rules) -> bool:
    """True when each row's royalty never falls as the row gets stronger."""
    roy = rules.royalty_array
    front = TABLES[rules.wheel].is_front
    return all(bool(np.all(np.diff(roy[r][front if r == 0 else ~front]) >= 0)) for r in range(3))


def table_play(hands: np.ndarray, rules: Rules, tables: StrategyTables | None = None,
               prune: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Best split of each hand (N, 13) under the table strategy: packed splits, values, rows
    (N, 3: front, middle, back strengths). ``prune=False`` forces the full search. Tables with
    card removal give each hand its own opponent tables."""
    st = tables if tables is not None else tables_for(rules)
    t = TABLES[rules.wheel]
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    n = len(hands)
    split = np.empty(n, dtype=np.int64)
    ev = np.empty(n, dtype=np.float64)
    rows = np.empty((n, 3), dtype=np.int32)
    scoring, bonus, net, single = kernel_params(rules)
    prune = prune and not single and royalties_grow(rules)
    if st.removal is not None:
        K.removal_best_many(hands, CARD_WORD, t.rank5, t.flush5, t.rank3, COMB5, COMB3,
                            BACK_SPLITS, t.front_floor, SPLIT_PAIRS, st.p, st.removal, st.alpha,
                            st.roy, scoring, bonus, net, single, prune, split, ev, rows)
    elif prune:
        K.table_best_many(hands, CARD_WORD, t.rank5, t.flush5, t.rank3, COMB5, COMB3,
                          BACK_SPLITS, t.front_floor, st.pw, st.pt, st.lr, st.roy,
                          scoring, bonus, net, split, ev, rows)
    else:
        K.table_best_many_full(hands, CARD_WORD, t.rank5, t.flush5, t.rank3, COMB5, COMB3,
                               SPLIT_PAIRS, st.pw, st.pt, st.lr, st.roy, scoring, bonus, net,
                               single, split, ev, rows)
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
