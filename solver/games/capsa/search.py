"""The exhaustive ``table`` search: per-strength terms built once per table, best ``k`` in one
kernel call for a whole batch of hands (see :mod:`solver.games.capsa.kernels.search`)."""

from __future__ import annotations

import functools
import threading
from typing import NamedTuple

import numpy as np

from solver.games.capsa.kernel_args import kernel_params
from solver.games.capsa.kernels import removal as KR
from solver.games.capsa.kernels import search as KS
from solver.games.capsa.lookup import BACK_SPLITS, CARD_WORD, COMB3, COMB5, RANK_KEYS, TABLES
from solver.games.capsa.rules import Rules
from solver.games.capsa.strategy.tables import (
    MAX_PER_TABLES,
    StrategyTables,
    per_tables,
    tables_for,
)

_TERMS: dict[tuple, tuple[StrategyTables, np.ndarray]] = {}
_RANK_KEYS = np.array(RANK_KEYS, dtype=np.int64)


def _nonseparable(wf, tf, wm, tm, wb, tb, rules: Rules, joint: np.ndarray) -> np.ndarray:
    """The kernels' bound of the non-separable value part (scoop bonus or two-four's unit),
    on arrays: the kernel itself, so the first bound is the one the search reads."""
    out = np.empty(len(wb))
    scoring, bonus, _, _ = kernel_params(rules)
    KS.nonseparable_many(joint, scoring, bonus,
                         *(np.ascontiguousarray(np.broadcast_to(a, out.shape), dtype=float)
                           for a in (wf, tf, wm, tm, wb, tb)), out)
    return out


def build_terms(st: StrategyTables, rules: Rules) -> np.ndarray:
    """Every per-strength term the search reads, shape (``N_TERMS``, strengths).

    The separable value of a row (result plus royalties, every royalty counted) is computed
    as the full search computes it, so equal splits get equal floats; its running maximum over
    the strengths a row can hold and the first per-back bound make the search's bounds."""
    t = TABLES[rules.wheel]
    w, tie = st.pw, st.pt
    x = 1.0 - w - tie
    if rules.royalty_mode == "net":
        sep = w - x + st.roy
    else:
        sep = w - x + st.roy * w - st.lr
    out = np.empty((KS.N_TERMS, t.size))
    for r in range(3):
        out[KS.W0 + r], out[KS.T0 + r], out[KS.X0 + r] = w[r], tie[r], x[r]
        out[KS.R0 + r], out[KS.L0 + r], out[KS.S0 + r] = st.roy[r], st.lr[r], sep[r]
        allowed = t.is_front if r == 0 else ~t.is_front
        out[KS.M0 + r] = np.maximum.accumulate(np.where(allowed, sep[r], -np.inf))
    fs = np.maximum(t.front_floor, 0)
    s = np.arange(t.size)
    ubs = (out[KS.M0][fs] + out[KS.M0 + 1] + sep[2]
           + _nonseparable(w[0][fs], tie[0][fs], w[1], tie[1], w[2], tie[2], rules,
                           st.joint_grid))
    # running maximum: still a bound, and monotone, so the kernel finds its cut by bisection
    out[KS.UBS] = np.maximum.accumulate(np.where(t.front_floor[s] >= 0, ubs, -np.inf))
    return np.ascontiguousarray(out)


def terms_for(rules: Rules, tables: StrategyTables | None = None) -> tuple[StrategyTables, np.ndarray]:
    """The strategy tables in force and their search terms (cached per tables object)."""
    st = tables if tables is not None else tables_for(rules)
    return st, per_tables(_TERMS, (id(st), rules), st, lambda: build_terms(st, rules))


_REMOVAL: dict[tuple, tuple] = {}


def build_removal_terms(st: StrategyTables) -> tuple[np.ndarray, ...]:
    """The card-removal coefficients ``coef`` (3, S, 13, 3) of
    :mod:`solver.games.capsa.kernels.removal` for tables carrying shifts, and the win, tie
    and royalty tables shifted for one card of every rank (where each hand starts from)."""
    d = np.asarray(st.removal, dtype=np.float64)
    cum = np.cumsum(d, axis=2) - d                       # D: shifts of strengths below s
    dr = d * st.roy[None]
    above = np.cumsum(dr[:, :, ::-1], axis=2)[:, :, ::-1] - dr  # E: royalty above s
    coef = np.ascontiguousarray(np.stack([cum, d, above], axis=-1).transpose(1, 2, 0, 3))
    one_each = [np.ascontiguousarray(base + st.alpha * part.sum(axis=0))
                for base, part in ((st.pw, cum), (st.pt, d), (st.lr, above))]
    return (coef, *one_each)


def removal_terms(st: StrategyTables) -> tuple[np.ndarray, ...]:
    """:func:`build_removal_terms` (coef, win, tie, royalty), cached per tables object."""
    return per_tables(_REMOVAL, (id(st),), st, lambda: build_removal_terms(st))


_LOCAL = threading.local()


class _Scratch(NamedTuple):
    """One thread's per-strength scratch for the search kernels (allocated once, so a single
    hand's call clears nothing: hands are told apart by their number, from ``epoch``)."""

    slot: np.ndarray   # where a strength's card-removal terms are (removal_top)
    seen: np.ndarray   # the hand that last computed them
    bseen: np.ndarray  # the hand that last bounded a back of this strength
    bval: np.ndarray   # that bound (the back left no flush)
    epoch: np.ndarray  # (1,) the number of the next hand


def _scratch(size: int) -> _Scratch:
    """This thread's :class:`_Scratch` for ``size`` strengths."""
    buf = getattr(_LOCAL, "scratch", None)
    if buf is None or buf.seen.shape[0] != size:
        buf = _LOCAL.scratch = _Scratch(
            np.empty(size, dtype=np.int64), np.full(size, -1, dtype=np.int64),
            np.full(size, -1, dtype=np.int64), np.empty(size), np.zeros(1, dtype=np.int64))
    return buf


def hand_tables(rules: Rules, st: StrategyTables, hand: np.ndarray) -> StrategyTables:
    """The tables against the opponent of this 13-card hand: ``st`` itself without card
    removal, else the hand's shifted tables in full (a reference; the search reads only the
    entries it visits)."""
    if st.removal is None:
        return st
    coef, pw1, pt1, lr1 = removal_terms(st)
    pw, pt, lr = (np.empty_like(st.pw) for _ in range(3))
    KR.removal_tables(np.asarray(hand, dtype=np.int64), st.alpha, pw1, pt1, lr1, coef,
                      pw, pt, lr)
    return StrategyTables(pw, pt, lr, st.roy, st.opp_royalty, st.p_natural, st.natural_units,
                          st.preset, joint=st.joint)


def hand_odds(rules: Rules, st: StrategyTables, hand: np.ndarray,
              rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Win and tie chances (N, 3) of the row strengths ``rows`` (N, 3) of ``hand`` against
    its opponent (with card removal when ``st`` models it)."""
    rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, 3)
    if st.removal is None:
        idx = np.arange(3)
        return st.pw[idx, rows], st.pt[idx, rows]
    coef, pw1, pt1, lr1 = removal_terms(st)
    w = np.empty(rows.shape)
    t = np.empty(rows.shape)
    KR.removal_odds(np.asarray(hand, dtype=np.int64), st.alpha, pw1, pt1, lr1, coef,
                    rows, w, t)
    return w, t


@functools.lru_cache(maxsize=MAX_PER_TABLES)
def row_lists(rules: Rules) -> tuple[list, list]:
    """Hand kind per strength and royalty units (per row, per strength) as Python lists: what
    listing a few arrangements reads, without a NumPy call per value (cached per rules)."""
    return TABLES[rules.wheel].kind.tolist(), rules.royalty_array.tolist()


class TopK(NamedTuple):
    """What the search returns for a batch of N hands and its ``k``."""

    split: np.ndarray  # (N, k) packed splits (-1 past ``found``)
    ev: np.ndarray     # (N, k) values against one opponent, best first
    rows: np.ndarray   # (N, k, 3) row strengths: front, middle, back
    found: np.ndarray  # (N,) how many distinct row-strength triples were found
    odds: np.ndarray   # (N, k, 7) win chances of the rows, their tie chances, chance of all three


def search_top(hands: np.ndarray, rules: Rules, tables: StrategyTables | None = None,
               k: int = 1) -> TopK:
    """The ``k`` best distinct row-strength triples of each hand (N, 13) under the table
    strategy, with their odds against one opponent. Under tables with card removal each
    hand is valued with its own opponent tables, and the odds are its own."""
    st = tables if tables is not None else tables_for(rules)
    _, terms = terms_for(rules, st)
    t = TABLES[rules.wheel]
    hands = np.ascontiguousarray(hands, dtype=np.int64).reshape(-1, 13)
    n = len(hands)
    split = np.full((n, k), -1, dtype=np.int64)
    ev = np.full((n, k), -np.inf)
    rows = np.zeros((n, k, 3), dtype=np.int32)
    found = np.zeros(n, dtype=np.int64)
    odds = np.zeros((n, k, 7))
    scoring, bonus, net, single = kernel_params(rules)
    sc = _scratch(t.size)
    if st.removal is not None:
        coef, pw, pt, lr = removal_terms(st)
        KR.removal_top(hands, CARD_WORD, t.rank5, t.flush5, t.rank3, COMB5, COMB3, BACK_SPLITS,
                       t.front_floor, terms, t.class_cap, _RANK_KEYS, st.alpha, pw, pt, lr,
                       coef, st.roy, scoring, bonus, net, single, st.joint_grid, k, sc.slot,
                       sc.seen, sc.epoch, split, ev, rows, found, odds)
    else:
        KS.table_top(hands, CARD_WORD, t.rank5, t.flush5, t.rank3, COMB5, COMB3, BACK_SPLITS,
                     t.front_floor, terms, t.class_cap, _RANK_KEYS, scoring, bonus, net, single,
                     st.joint_grid, k, sc.bseen, sc.bval, sc.epoch,
                     split, ev, rows, found, odds)
    return TopK(split, ev, rows, found, odds)


def search_best(hands: np.ndarray, rules: Rules, tables: StrategyTables | None = None,
                k: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`search_top` without the odds: packed splits (N, k), values (N, k), rows
    (N, k, 3) and how many (N,)."""
    return search_top(hands, rules, tables, k)[:4]
