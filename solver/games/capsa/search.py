"""The exhaustive ``table`` search: per-strength terms built once per table, best ``k`` in one
kernel call for a whole batch of hands (see :mod:`solver.games.capsa.kernels.search`)."""

from __future__ import annotations

import functools
import threading
from typing import Any, NamedTuple

import numpy as np

from solver.games.capsa.kernel_args import kernel_params
from solver.games.capsa.kernels import lazy as KL
from solver.games.capsa.kernels import removal as KR
from solver.games.capsa.kernels import search as KS
from solver.games.capsa.kernels import table as KT
from solver.games.capsa.lookup import BACK_SPLITS, CARD_WORD, COMB3, COMB5, TABLES
from solver.games.capsa.rules import Rules
from solver.games.capsa.strategy.tables import (
    MAX_PER_TABLES,
    StrategyTables,
    per_tables,
    tables_for,
)

_TERMS: dict[tuple, tuple[StrategyTables, np.ndarray]] = {}


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
    """The card-removal coefficients ``coef`` (3, S, 13, 3), or (3, S, 27, 3) with the suits'
    terms after the ranks', of
    :mod:`solver.games.capsa.kernels.removal` for tables carrying shifts, and the win, tie
    and royalty tables shifted for one card of every rank (where each hand starts from)."""
    def terms(d: np.ndarray) -> np.ndarray:
        cum = np.cumsum(d, axis=2) - d                       # D: shifts of strengths below s
        dr = d * st.roy[None]
        above = np.cumsum(dr[:, :, ::-1], axis=2)[:, :, ::-1] - dr  # E: royalty above s
        return np.stack([cum, d, above], axis=-1)            # (n, 3, S, 3)

    ranks = terms(np.asarray(st.removal, dtype=np.float64))
    one_each = [np.ascontiguousarray(base + st.alpha * ranks[..., i].sum(axis=0))
                for i, base in enumerate((st.pw, st.pt, st.lr))]
    # the suits' terms (scaled, zero at average suits) follow the ranks': coef[r, s, 13 + c]
    parts = [ranks] if st.suit is None else [ranks, terms(np.asarray(st.suit, dtype=np.float64))]
    coef = np.ascontiguousarray(np.concatenate(parts).transpose(1, 2, 0, 3))
    return (coef, *one_each)


def removal_terms(st: StrategyTables) -> tuple[np.ndarray, ...]:
    """:func:`build_removal_terms` (coef, win, tie, royalty), cached per tables object."""
    return per_tables(_REMOVAL, (id(st),), st, lambda: build_removal_terms(st))


_LAZY: dict[tuple, tuple] = {}


def _shift_range(d: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Bounds (per missing count ``m`` = 0..9, then ``d``'s leading shape) of
    ``sum_k a_k d[..., k]`` over the hands missing ``m`` ranks: their weights are ``-alpha``
    on the ``m`` missing ranks and add up to ``alpha m`` on the ranks they hold twice or
    more."""
    srt = np.sort(d, axis=-1)
    low = np.concatenate([np.zeros(d.shape[:-1] + (1,)), np.cumsum(srt, axis=-1)], axis=-1)
    high = np.concatenate([np.zeros(d.shape[:-1] + (1,)),
                           np.cumsum(srt[..., ::-1], axis=-1)], axis=-1)
    ms = np.arange(KL.MAX_MISSING + 1)
    hi = np.stack([alpha * (m * srt[..., -1] - low[..., m]) for m in ms])
    lo = np.stack([alpha * (m * srt[..., 0] - high[..., m]) for m in ms])
    return hi, lo


def _suit_range(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Bounds of ``v[..., c_0] + v[..., c_1] + v[..., c_2] + v[..., c_3]`` over the suit counts
    of a 13-card hand (``v``: (..., 14), one value per count), by max-plus convolution."""
    out = []
    for pick in (np.max, np.min):
        two = np.stack([pick(np.stack([v[..., a] + v[..., t - a] for a in range(t + 1)]), axis=0)
                        for t in range(14)], axis=-1)
        out.append(pick(np.stack([two[..., t] + two[..., 13 - t] for t in range(14)]), axis=0))
    return out[0], out[1]


def _f32_up(x: np.ndarray) -> np.ndarray:
    """``x`` as float32, rounded up (a bound stays a bound)."""
    y = x.astype(np.float32)
    return np.where(y < x, np.nextafter(y, np.float32(np.inf)), y)


def build_lazy_terms(st: StrategyTables,
                     rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``gsep`` (3, S, 16; 32 with suit terms), ``slab`` (10, 3, S, 4) and ``ubany`` (10, S) of
    :mod:`solver.games.capsa.kernels.lazy`: per rank, the shift of a row's unclamped
    separable value; per missing count, the value at one card of every rank plus the most the
    clamp can add, the largest win chance and the smallest loss chance (float32, rounded so
    each stays a bound; the suits' terms at their extremes over a hand's suit counts), and the
    first bound of a back of each strength for any hand missing that many ranks (a running
    maximum: one bisection finds the backs that can reach a value)."""
    coef, pw1, pt1, lr1 = removal_terms(st)
    alpha = float(st.alpha)
    if alpha < 0:
        raise ValueError("card removal's alpha must be at least 0")
    roy = st.roy
    cw = np.full_like(roy, 2.0) if rules.royalty_mode == "net" else 2.0 + roy

    def split(c: np.ndarray) -> tuple[np.ndarray, ...]:
        """(win, tie, loss) shifts and the separable value's, for columns ``c`` of ``coef``."""
        dw, dt, dl = c[..., 0], c[..., 1], c[..., 2]
        g = 2.0 * dw + dt if rules.royalty_mode == "net" else cw[..., None] * dw + dt - dl
        return dw, dt, -dw - dt, g

    sep1 = (2.0 * pw1 + pt1 - 1.0 + roy if rules.royalty_mode == "net"
            else cw * pw1 + pt1 - 1.0 - lr1)
    dw, dt, dx, g = split(coef[:, :, :13])
    w_hi, w_lo = _shift_range(dw, alpha)
    _, t_lo = _shift_range(dt, alpha)
    _, x_lo = _shift_range(dx, alpha)
    g_hi = _shift_range(g, alpha)[0]
    g_abs = 2 * KL.MAX_MISSING * alpha * np.abs(g).max(axis=-1)
    gsep = np.zeros(pw1.shape + (16 if coef.shape[2] == 13 else 32,), dtype=np.float32)
    gsep[..., :13] = g
    if coef.shape[2] > 13:  # the suits' terms: each of a hand's four counts adds one
        sw, sti, sx, sg = split(coef[:, :, 13:])
        sw_hi, sw_lo = _suit_range(sw)
        w_hi, w_lo = w_hi + sw_hi, w_lo + sw_lo
        t_lo, x_lo = t_lo + _suit_range(sti)[1], x_lo + _suit_range(sx)[1]
        g_hi = g_hi + _suit_range(sg)[0]
        g_abs = g_abs + 4 * np.abs(sg).max(axis=-1)
        gsep[..., 13:27] = sg
    w_lo = pw1 + w_lo
    room = cw * np.maximum(0.0, -w_lo) + np.maximum(0.0, -(pt1 + t_lo))
    err = 1e-12 * (1.0 + np.abs(sep1)) + g_abs * 2.4e-7
    slab = np.zeros((KL.MAX_MISSING + 1,) + pw1.shape + (4,), dtype=np.float32)
    slab[..., 0] = _f32_up(sep1 + room + err)
    slab[..., 1] = _f32_up(np.clip(pw1 + w_hi, 0.0, 1.0))
    slab[..., 2] = -_f32_up(-(1.0 - pw1 - pt1 + x_lo - np.maximum(0.0, -w_lo)))
    # the first bound of a back whatever hand misses m ranks: its cheap terms at their most
    sep_any = slab[..., 0].astype(np.float64) + g_hi + err
    w_any = slab[..., 1].astype(np.float64)
    x_any = np.maximum(0.0, np.minimum(slab[..., 2].astype(np.float64), 1.0 - w_any))
    t = TABLES[rules.wheel]
    fs = np.maximum(t.front_floor, 0)
    ubany = np.empty((KL.MAX_MISSING + 1, t.size))
    for m in range(KL.MAX_MISSING + 1):
        best = []
        for r in range(2):
            allowed = t.is_front if r == 0 else ~t.is_front
            best.append((np.maximum.accumulate(np.where(allowed, sep_any[m, r], -np.inf)),
                         np.maximum.accumulate(np.where(allowed, w_any[m, r], 0.0)),
                         np.minimum.accumulate(np.where(allowed, x_any[m, r], 1.0))))
        (sf, wf, xf), (sm, wm, xm) = best
        wf, xf = wf[fs], np.minimum(xf[fs], 1.0 - wf[fs])
        xm = np.minimum(xm, 1.0 - wm)
        wb, xb = w_any[m, 2], x_any[m, 2]
        ubs = (sf[fs] + sm + sep_any[m, 2]
               + _nonseparable(wf, 1.0 - wf - xf, wm, 1.0 - wm - xm, wb, 1.0 - wb - xb, rules,
                               st.joint_grid) + 1e-9)
        ubany[m] = np.maximum.accumulate(np.where(t.front_floor >= 0, ubs, -np.inf))
    return gsep, np.ascontiguousarray(slab), ubany


def lazy_terms(st: StrategyTables, rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`build_lazy_terms`, cached per (tables object, rules)."""
    return per_tables(_LAZY, (id(st), rules), st, lambda: build_lazy_terms(st, rules))


_LOCAL = threading.local()


class _Scratch(NamedTuple):
    """One thread's per-strength scratch for the search kernels (allocated once, so a single
    hand's call clears nothing: hands are told apart by their number, from ``epoch``)."""

    slot: np.ndarray   # where a strength's card-removal terms are (removal_top)
    seen: np.ndarray   # the hand that last computed them
    bseen: np.ndarray  # the hand that last bounded a back of this strength
    bval: np.ndarray   # that bound (the back left no flush)
    xslot: np.ndarray  # (3, S) where a row's exact card-removal terms are (lazy_top)
    xseen: np.ndarray  # (3, S) the hand that computed them
    epoch: np.ndarray  # (1,) the number of the next hand


def _scratch(size: int) -> _Scratch:
    """This thread's :class:`_Scratch` for ``size`` strengths."""
    buf = getattr(_LOCAL, "scratch", None)
    if buf is None or buf.seen.shape[0] != size:
        buf = _LOCAL.scratch = _Scratch(
            np.empty(size, dtype=np.int64), np.full(size, -1, dtype=np.int64),
            np.full(size, -1, dtype=np.int64), np.empty(size),
            np.empty((3, size), dtype=np.int64), np.full((3, size), -1, dtype=np.int64),
            np.zeros(1, dtype=np.int64))
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


def split_values(rules: Rules, st: StrategyTables, hand: np.ndarray,
                 rows: np.ndarray) -> np.ndarray:
    """The table value against one opponent (N,) of the splits of ``hand`` whose row
    strengths are ``rows`` (N, 3), with the hand's own card removal when ``st`` models it:
    what the search gives the same split, to the last bit (a played arrangement's value,
    beside the best one's, for a review)."""
    rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, 3)
    if st.removal is None:
        idx = np.arange(3)
        w, t, l = st.pw[idx, rows], st.pt[idx, rows], st.lr[idx, rows]
    else:
        coef, pw1, pt1, lr1 = removal_terms(st)
        w, t, l = (np.empty(rows.shape) for _ in range(3))
        KR.removal_row_terms(np.asarray(hand, dtype=np.int64), st.alpha, pw1, pt1, lr1, coef,
                             rows, w, t, l)
    scoring, bonus, net, single = kernel_params(rules)
    out = np.empty(len(rows))
    KT.split_values(rows, np.ascontiguousarray(w), np.ascontiguousarray(t),
                    np.ascontiguousarray(l), st.roy, scoring, bonus, net, single,
                    st.joint_grid, out)
    return out


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


# the card-removal search kernels: "lazy" (exact terms computed as the search needs them,
# :mod:`solver.games.capsa.kernels.lazy`) and "eager" (every term of every strength a hand
# holds first, :func:`solver.games.capsa.kernels.removal.removal_top`: the previous path, kept
# for the benchmark and the tests). Both give the same answers.
REMOVAL_KERNELS = ("lazy", "eager")
DEFAULT_KERNEL = "lazy"


_ARGS: dict[tuple, tuple] = {}


def _kernel_args(st: StrategyTables, rules: Rules, kernel: str) -> tuple[Any, tuple]:
    """The search kernel for these tables and its arguments before ``k`` (lookups, terms,
    rules), cached per (tables object, rules, kernel): one lookup a call."""

    def build() -> tuple[Any, tuple]:
        t = TABLES[rules.wheel]
        _, terms = terms_for(rules, st)
        scoring, bonus, net, single = kernel_params(rules)
        head = (CARD_WORD, t.rank5, t.flush5, t.rank3, COMB5, COMB3, BACK_SPLITS, t.front_floor)
        if st.removal is None:
            return KS.table_top, (*head, terms, t.caps_lut, scoring, bonus, net, single,
                                  st.joint_grid)
        coef, pw, pt, lr = removal_terms(st)
        if kernel == "lazy":
            gsep, slab, ubany = lazy_terms(st, rules)
            return KL.lazy_top, (*head, t.caps_lut, st.alpha, pw, pt, lr, coef, gsep, slab,
                                 ubany, st.roy, scoring, bonus, net, single, st.joint_grid)
        return KR.removal_top, (*head, terms, t.caps_lut, st.alpha, pw, pt, lr, coef, st.roy,
                                scoring, bonus, net, single, st.joint_grid)

    return per_tables(_ARGS, (id(st), rules, kernel), st, build)


def search_top(hands: np.ndarray, rules: Rules, tables: StrategyTables | None = None,
               k: int = 1, kernel: str | None = None) -> TopK:
    """The ``k`` best distinct row-strength triples of each hand (N, 13) under the table
    strategy, with their odds against one opponent. Under tables with card removal each
    hand is valued with its own opponent tables, and the odds are its own; ``kernel`` picks
    the card-removal search (:data:`REMOVAL_KERNELS`, default :data:`DEFAULT_KERNEL`)."""
    kernel = kernel or DEFAULT_KERNEL
    if kernel not in REMOVAL_KERNELS:
        raise ValueError(f"kernel must be one of {', '.join(REMOVAL_KERNELS)}, got {kernel!r}")
    st = tables if tables is not None else tables_for(rules)
    fn, args = _kernel_args(st, rules, kernel)
    hands = np.ascontiguousarray(hands, dtype=np.int64).reshape(-1, 13)
    n = len(hands)
    split = np.full((n, k), -1, dtype=np.int64)
    ev = np.full((n, k), -np.inf)
    rows = np.zeros((n, k, 3), dtype=np.int32)
    found = np.zeros(n, dtype=np.int64)
    odds = np.zeros((n, k, 7))
    sc = _scratch(TABLES[rules.wheel].size)
    if fn is KL.lazy_top:
        fn(hands, *args, k, sc.slot, sc.seen, sc.xslot, sc.xseen, sc.epoch, split, ev, rows,
           found, odds)
    elif fn is KR.removal_top:
        fn(hands, *args, k, sc.slot, sc.seen, sc.epoch, split, ev, rows, found, odds)
    else:
        fn(hands, *args, k, sc.bseen, sc.bval, sc.epoch, split, ev, rows, found, odds)
    return TopK(split, ev, rows, found, odds)


def search_best(hands: np.ndarray, rules: Rules, tables: StrategyTables | None = None,
                k: int = 1, kernel: str | None = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`search_top` without the odds: packed splits (N, k), values (N, k), rows
    (N, k, 3) and how many (N,)."""
    return search_top(hands, rules, tables, k, kernel)[:4]
