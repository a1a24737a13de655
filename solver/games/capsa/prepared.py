"""What every search of one call reads, built once: :class:`Prepared` holds the rules, the
strategy tables and, on first use, the arrays the Capsa kernels take, in the named groups
they take them in (each group one argument, a plain tuple in the named tuple's order:
:meth:`Prepared.kernel_group`):

- :class:`Lookups`: card words, strength tables, subset positions, the caps lookup;
- :class:`Scoring`: the rules as kernel scalars, with the tables' joint model of the rows;
- the value model's terms: :class:`PlainModel` (per-strength terms of the plain tables),
  :class:`RemovalModel` (the card-removal coefficients and the tables shifted for one card
  of every rank) and :class:`LazyModel` (with the cheap bounds the lazy search starts from).

:func:`prepare` is the one way to get one: tables read from a file (every
:func:`~solver.games.capsa.strategy.tables.tables_for` answer, which names its source) give
the same object for the same rules, process-wide, so their terms are built once; tables made
any other way are prepared anew, once per call that prepares them.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import NamedTuple

import numpy as np

from solver.games.capsa.kernel_args import kernel_params
from solver.games.capsa.kernels import lazy as KL
from solver.games.capsa.kernels import search as KS
from solver.games.capsa.lookup import BACK_SPLITS, CARD_WORD, COMB3, COMB5, TABLES
from solver.games.capsa.rules import Rules
from solver.games.capsa.strategy.tables import (
    StrategyTables,
    TablesSource,
    plain_tables,
    tables_for,
)

MAX_PREPARED = 32


class Lookups(NamedTuple):
    """The evaluator's and the search's lookups for one wheel rule."""

    card_word: np.ndarray
    rank5: np.ndarray
    flush5: np.ndarray
    rank3: np.ndarray
    comb5: np.ndarray
    comb3: np.ndarray
    back_splits: np.ndarray
    front_floor: np.ndarray
    caps_lut: np.ndarray


class Scoring(NamedTuple):
    """How a split is scored: the scoring code, scoop bonus, net royalties, single royalty
    (:func:`~solver.games.capsa.kernel_args.kernel_params`) and the joint model of the
    opponent's rows (``NO_JOINT``: independent rows)."""

    code: int
    bonus: float
    net: bool
    single: bool
    joint: np.ndarray


class PlainModel(NamedTuple):
    """The plain tables' per-strength terms (``N_TERMS``, strengths): :func:`build_terms`."""

    terms: np.ndarray


class RemovalModel(NamedTuple):
    """Card removal: ``alpha``, the win, tie and royalty tables shifted for one card of every
    rank, the coefficients ``coef`` (3, S, 13 or 27, 3) and the royalty table
    (:func:`build_removal_terms`)."""

    alpha: float
    pw: np.ndarray
    pt: np.ndarray
    lr: np.ndarray
    coef: np.ndarray
    roy: np.ndarray


class LazyModel(NamedTuple):
    """:class:`RemovalModel` and the lazy search's cheap bounds (:func:`build_lazy_terms`)."""

    removal: RemovalModel
    gsep: np.ndarray
    slab: np.ndarray
    ubany: np.ndarray


@lru_cache(maxsize=None)
def lookups_for(wheel: str) -> Lookups:
    """The :class:`Lookups` of a wheel rule."""
    t = TABLES[wheel]
    return Lookups(CARD_WORD, t.rank5, t.flush5, t.rank3, COMB5, COMB3, BACK_SPLITS,
                   t.front_floor, t.caps_lut)


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


def build_lazy_terms(rm: RemovalModel, st: StrategyTables,
                     rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``gsep`` (3, S, 16; 32 with suit terms), ``slab`` (10, 3, S, 4) and ``ubany`` (10, S) of
    :mod:`solver.games.capsa.kernels.lazy`: per rank, the shift of a row's unclamped
    separable value; per missing count, the value at one card of every rank plus the most the
    clamp can add, the largest win chance and the smallest loss chance (float32, rounded so
    each stays a bound; the suits' terms at their extremes over a hand's suit counts), and the
    first bound of a back of each strength for any hand missing that many ranks (a running
    maximum: one bisection finds the backs that can reach a value)."""
    coef, pw1, pt1, lr1 = rm.coef, rm.pw, rm.pt, rm.lr
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




@dataclass(frozen=True, eq=False)
class Prepared:
    """The rules and strategy tables of a call, and what the kernels read of them, each
    built on first use and kept. Get one with :func:`prepare`."""

    rules: Rules
    tables: StrategyTables

    @property
    def card_removal(self) -> bool:
        """Whether each hand plays against its own shifted tables."""
        return self.tables.removal is not None

    @cached_property
    def lookups(self) -> Lookups:
        return lookups_for(self.rules.wheel)

    @cached_property
    def scoring(self) -> Scoring:
        code, bonus, net, single = kernel_params(self.rules)
        return Scoring(code, bonus, net, single, self.tables.joint_grid)

    @cached_property
    def plain_model(self) -> PlainModel:
        return PlainModel(build_terms(self.tables, self.rules))

    @cached_property
    def removal_model(self) -> RemovalModel:
        st = self.tables
        if st.removal is None:
            raise ValueError("these tables have no card removal")
        coef, pw, pt, lr = build_removal_terms(st)
        return RemovalModel(float(st.alpha), pw, pt, lr, coef, st.roy)

    @cached_property
    def lazy_model(self) -> LazyModel:
        gsep, slab, ubany = build_lazy_terms(self.removal_model, self.tables, self.rules)
        return LazyModel(self.removal_model, gsep, slab, ubany)

    @cached_property
    def _flat(self) -> dict[str, tuple]:
        return {}

    def kernel_group(self, name: str) -> tuple:
        """The group ``name`` (``lookups``, ``scoring``, ``plain_model``, ``removal_model`` or
        ``lazy_model``) as the kernels take it, built once: a plain tuple in the named
        tuple's field order (numba reads a plain tuple's types several times faster than a
        named one's: 2.3 against 8.8 us a call for nine arrays)."""
        if name not in self._flat:
            self._flat[name] = _plain(getattr(self, name))
        return self._flat[name]

    @cached_property
    def plain(self) -> Prepared:
        """The same rules and tables without card removal."""
        return prepare(self.rules, plain_tables(self.tables))


def _plain(group: tuple) -> tuple:
    """A named tuple as a plain one, the named tuples in it too."""
    return tuple(_plain(x) if isinstance(x, tuple) else x for x in group)


_PREPARED: dict[tuple[Rules, TablesSource], Prepared] = {}
_PREPARED_LOCK = threading.Lock()


def prepare(rules: Rules, tables: StrategyTables | None = None) -> Prepared:
    """The :class:`Prepared` of ``rules`` and ``tables`` (default: the tables in use for
    those rules): the tables :func:`tables_for` read from a file give the same object for the
    same rules, so what it builds is built once a process; any other tables get a new one.

    >>> from solver.games.capsa.rules import resolve_rules
    >>> r = resolve_rules("standard")
    >>> prepare(r) is prepare(r, tables_for(r))
    True
    """
    st = tables if tables is not None else tables_for(rules)
    src = st.source
    # a copy of file tables with other arrays (replace() keeps the source) is not them
    if src is None or tables_for(src.rules, src.path, src.card_removal) is not st:
        return Prepared(rules, st)
    key = (rules, src)
    with _PREPARED_LOCK:
        prep = _PREPARED.get(key)
        if prep is None or prep.tables is not st:  # new, or the tables were read again
            if len(_PREPARED) >= MAX_PREPARED:
                _PREPARED.clear()
            prep = _PREPARED[key] = Prepared(rules, st)
        return prep
