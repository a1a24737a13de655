"""The previous Capsa ``table`` code paths, kept callable for the equivalence tests and the
speed benchmark (which prints them beside the current ones). Not used by the package."""

from __future__ import annotations

import numpy as np

from solver.games.capsa import kernels as K
from solver.games.capsa.evaluate import subset_strengths
from solver.games.capsa.kernels import legacy as KL
from solver.games.capsa.lookup import BACK_SPLITS, CARD_WORD, COMB3, COMB5, SPLIT_PAIRS, TABLES
from solver.games.capsa.rules import Rules
from solver.games.capsa.splits import parse_hand
from solver.games.capsa.strategy.play import kernel_params, royalties_grow
from solver.games.capsa.strategy.tables import StrategyTables, tables_for


def table_play(hands: np.ndarray, rules: Rules, tables: StrategyTables | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The previous batch search: one loose bound per back, the full search for single
    royalties and royalty tables that do not grow with strength."""
    st = tables if tables is not None else tables_for(rules)
    t = TABLES[rules.wheel]
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    n = len(hands)
    split = np.empty(n, dtype=np.int64)
    ev = np.empty(n, dtype=np.float64)
    rows = np.empty((n, 3), dtype=np.int32)
    scoring, bonus, net, single = kernel_params(rules)
    if not single and royalties_grow(rules):
        KL.table_best_many(hands, CARD_WORD, t.rank5, t.flush5, t.rank3, COMB5, COMB3,
                           BACK_SPLITS, t.front_floor, st.pw, st.pt, st.lr, st.roy,
                           scoring, bonus, net, split, ev, rows)
    else:
        K.table_best_many_full(hands, CARD_WORD, t.rank5, t.flush5, t.rank3, COMB5, COMB3,
                               SPLIT_PAIRS, st.pw, st.pt, st.lr, st.roy, scoring, bonus, net,
                               single, split, ev, rows)
    return split, ev, rows


def table_top(hand: object, rules: Rules, top: int) -> tuple[int, list[tuple[int, float, tuple]]]:
    """The previous ``arrange(method="table")`` core: every valid split scored, a top-k pass
    over them, then one split per distinct row-strength triple. Returns the number of valid
    splits and (packed split, value, (front, middle, back)) best first."""
    h = parse_hand(hand)  # type: ignore[arg-type]
    v5, v3 = subset_strengths(h, rules.wheel)
    st = tables_for(rules)
    scoring, bonus, net, single = kernel_params(rules)
    packed = np.empty(2 * len(SPLIT_PAIRS), dtype=np.int64)
    values = np.empty(2 * len(SPLIT_PAIRS), dtype=np.float64)
    n = K.table_valid_evs(v5, v3, SPLIT_PAIRS, st.pw, st.pt, st.lr, st.roy, scoring, bonus,
                          net, single, packed, values)
    want = top * 8
    while True:
        m = min(want, n)
        idx = K.top_indices(values, packed, n, m)
        chosen, seen = [], set()
        for i in idx:
            p = int(packed[i])
            key = (int(v3[p >> 22]), int(v5[(p >> 11) & 2047]), int(v5[p & 2047]))
            if key not in seen:
                seen.add(key)
                chosen.append((p, float(values[i]), key))
                if len(chosen) == top:
                    break
        if len(chosen) == top or m == n:
            return n, chosen
        want *= 8
