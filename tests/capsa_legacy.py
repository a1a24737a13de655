"""The previous Capsa ``table`` code paths, kept callable for the equivalence tests and the
speed benchmark (which prints them beside the current ones). Not used by the package.

Under tables with card removal they play each hand's own tables in full
(:func:`solver.games.capsa.search.hand_tables`), so they stay a reference for the current
paths; the benchmark gives them the tables without card removal, as they shipped."""

from __future__ import annotations

import numpy as np

from solver import ArrangeResult
from solver._jit import njit
from solver.cards import format_cards
from solver.games.capsa import kernels as K
from solver.games.capsa import lookup as LK
from solver.games.capsa.encoding import split_back, split_front, split_middle
from solver.games.capsa.kernels import legacy as KL
from solver.games.capsa.kernels.table import scoop_chance
from solver.games.capsa.methods.exact import exact_result, opponent_rows, valid_splits
from solver.games.capsa.naturals import detect_natural
from solver.games.capsa.prepared import prepare
from solver.games.capsa.referee import royalty_units
from solver.games.capsa.results import RankedArrangement
from solver.games.capsa.rules import Rules
from solver.games.capsa.search import hand_tables
from solver.games.capsa.splits import Arrangement, parse_hand
from solver.games.capsa.strategy import play
from solver.games.capsa.strategy.play import deal, kernel_params, royalties_grow
from solver.games.capsa.strategy.tables import StrategyTables, tables_for


def table_play(hands: np.ndarray, rules: Rules, tables: StrategyTables | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The previous batch search: one loose bound per back, the full search for single
    royalties and royalty tables that do not grow with strength."""
    scoring, bonus, net, single = kernel_params(rules)
    if single or not royalties_grow(rules):
        return play.table_play(hands, rules, tables, prune=False)
    st = tables if tables is not None else tables_for(rules)
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    if st.removal is not None or st.joint is not None:
        # the previous bound needs tables that grow with strength, which a hand's
        # card-removal tables need not, and rows valued as independent: every split of each
        # hand, under its own tables
        return play.table_play(hands, rules, st, prune=False)
    t = LK.TABLES[rules.wheel]
    split = np.empty(len(hands), dtype=np.int64)
    ev = np.empty(len(hands), dtype=np.float64)
    rows = np.empty((len(hands), 3), dtype=np.int32)
    KL.table_best_many(hands, LK.CARD_WORD, t.rank5, t.flush5, t.rank3, LK.COMB5, LK.COMB3,
                       LK.BACK_SPLITS, t.front_floor, st.pw, st.pt, st.lr, st.roy,
                       scoring, bonus, net, split, ev, rows)
    return split, ev, rows


def _old_top(v5: np.ndarray, v3: np.ndarray, rules: Rules, top: int, st: StrategyTables
             ) -> tuple[int, list[tuple[int, float, tuple]]]:
    """Every valid split scored, a top-k pass over them, then one split per distinct
    row-strength triple: the count and (packed split, value, (front, middle, back))."""
    scoring, bonus, net, single = kernel_params(rules)
    packed = np.empty(2 * len(LK.SPLIT_PAIRS), dtype=np.int64)
    values = np.empty(2 * len(LK.SPLIT_PAIRS), dtype=np.float64)
    n = K.table_valid_evs(v5, v3, LK.SPLIT_PAIRS, st.pw, st.pt, st.lr, st.roy, scoring, bonus,
                          net, single, st.joint_grid, packed, values)
    want = top * 8
    while True:
        m = min(want, n)
        idx = K.top_indices(values, packed, n, m)
        chosen, seen = [], set()
        for i in idx:
            p = int(packed[i])
            key = (int(v3[split_front(p)]), int(v5[split_middle(p)]), int(v5[split_back(p)]))
            if key not in seen:
                seen.add(key)
                chosen.append((p, float(values[i]), key))
                if len(chosen) == top:
                    break
        if len(chosen) == top or m == n:
            return n, chosen
        want *= 8


def table_top(hand: object, rules: Rules, top: int) -> tuple[int, list[tuple[int, float, tuple]]]:
    """The previous ``arrange(method="table")`` core (see :func:`_old_top`)."""
    h = parse_hand(hand)
    return _old_top(*_old_subsets(h, rules.wheel), rules, top,
                    hand_tables(prepare(rules), h))


# ---------------------------------------------------------------- whole previous code paths
def _old_pareto(rows: np.ndarray) -> np.ndarray:
    """The previous candidate filter: a three-key sort, then each split against those kept."""
    order = np.lexsort((-rows[:, 0], -rows[:, 1], -rows[:, 2]))
    return _old_pareto_kernel(rows, order)


@njit
def _old_pareto_kernel(rows, order):
    keep = np.empty(rows.shape[0], dtype=np.int64)
    k = 0
    for idx in order:
        dominated = False
        for j in range(k):
            q = keep[j]
            if rows[q, 0] >= rows[idx, 0] and rows[q, 1] >= rows[idx, 1] \
                    and rows[q, 2] >= rows[idx, 2]:
                dominated = True
                break
        if not dominated:
            keep[k] = idx
            k += 1
    return keep[:k]


def _old_subsets(h: np.ndarray, wheel: str) -> tuple[np.ndarray, np.ndarray]:
    t = LK.TABLES[wheel]
    v5 = np.empty(len(LK.COMB5), dtype=np.int32)
    v3 = np.empty(len(LK.COMB3), dtype=np.int32)
    KL.subset_strengths(h, LK.CARD_WORD, t.rank5, t.flush5, t.rank3, LK.COMB5, LK.COMB3, v5, v3)
    return v5, v3


def _old_unpack(hand: np.ndarray, packed: int) -> Arrangement:
    back = tuple(int(c) for c in hand[LK.COMB5[split_back(packed)]])
    middle = tuple(int(c) for c in hand[LK.COMB5[split_middle(packed)]])
    front = tuple(int(c) for c in hand[LK.COMB3[split_front(packed)]])
    return Arrangement(front, middle, back)


def arrange_table(hand: object, rules: Rules, opponents: int = 3, top: int = 5) -> ArrangeResult:
    """The previous ``arrange(method="table")``, end to end: every valid split scored, a top-k
    pass, the valid count and a result object per arrangement."""
    h = parse_hand(hand)
    v5, v3 = _old_subsets(h, rules.wheel)
    natural = detect_natural(h, rules, (v5, v3))
    st = hand_tables(prepare(rules), h)
    net = rules.royalty_mode == "net"
    n, chosen = _old_top(v5, v3, rules, top, st)
    kinds = LK.TABLES[rules.wheel].kind
    out = []
    for p, value, (f, m_, b) in chosen:
        pw = [st.pw[0, f], st.pw[1, m_], st.pw[2, b]]
        pt = [st.pt[0, f], st.pt[1, m_], st.pt[2, b]]
        per_opp = (1 - st.p_natural) * (value - (st.opp_royalty if net else 0.0)) \
            - st.p_natural * st.natural_units
        cards = tuple(int(c) for c in h)
        _old_unpack(h, p)  # the previous path built each arrangement eagerly: keep its cost
        out.append(RankedArrangement(
            cards, int(p), float(opponents * per_opp),
            tuple(LK.KIND_NAMES[kinds[s]] for s in (f, m_, b)),
            (*(float(x) for x in pw), *(float(x) for x in pt)),
            sum(royalty_units((f, m_, b), rules)), float(scoop_chance(st.joint_grid, *pw))))
    return ArrangeResult(tuple(int(c) for c in h), n, natural, out, "table", opponents, rules)


def arrange_montecarlo(hand: object, rules: Rules, opponents: int, samples: int, seed: int,
                       top: int = 1) -> ArrangeResult:
    """The previous Monte Carlo: the same deals and exact scoring, opponents set with the
    previous search, candidates from the previous filter."""
    h = parse_hand(hand)
    sp = valid_splits(h, rules)
    natural = detect_natural(h, rules, (sp.v5, sp.v3))
    unseen = np.setdiff1d(np.arange(52), h)
    deals = deal(np.random.default_rng(seed), samples, opponents, unseen)
    cand = _old_pareto(sp.rows) if not ((rules.single_royalty and rules.royalty_mode == "winner")
                                         or not royalties_grow(rules)) \
        else np.arange(len(sp.packed))
    opp = opponent_rows(deals, rules, None, table_play)
    ranked = exact_result(sp, rules, opp, top, cand)
    return ArrangeResult(tuple(int(c) for c in h), len(sp.packed), natural, ranked,
                         "montecarlo", opponents, rules, samples, seed, len(cand))


def best_many(hands: np.ndarray, rules: Rules, opponents: int = 3) -> list[dict]:
    """The previous ``best_many(method="table")``: the previous search, then a dict per hand
    built from an :class:`Arrangement`."""
    hands = np.sort(np.asarray(hands, dtype=np.int64).reshape(-1, 13), axis=1)
    st = tables_for(rules)
    split, value, _ = table_play(hands, rules, st)
    net = rules.royalty_mode == "net"
    per_opp = ((1 - st.p_natural) * (value - (st.opp_royalty if net else 0.0))
               - st.p_natural * st.natural_units)
    out = []
    for h, p, e in zip(hands, split, opponents * per_opp):
        d = {"hand": format_cards(h)}
        d.update(_old_unpack(h, int(p)).to_dict())
        d["ev"] = round(float(e), 6)
        out.append(d)
    return out


def count_valid(hand: object, rules: Rules) -> int:
    """The previous ``valid_arrangements``: old subset evaluation, every pair checked."""
    v5, v3 = _old_subsets(parse_hand(hand), rules.wheel)
    return int(KL.count_valid(v5, v3, LK.SPLIT_PAIRS))
