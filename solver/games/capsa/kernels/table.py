"""The ``table`` strategy's value of a split, and the best split of many hands."""

from __future__ import annotations

import numpy as np

from solver._jit import njit
from solver.games.capsa.kernels.evaluate import subset_strengths
from solver.games.capsa.kernels.rules import BASIC, TWO_FOUR, keep_largest_royalty
from solver.games.capsa.kernels.splits import valid_splits


@njit
def _table_ev(wf, tf, wm, tm, wb, tb, rf, rm, rb, lf, lm, lb, scoring, bonus, net, single):
    """Expected points against one opponent from per-row win/tie probabilities (rows taken as
    independent), own royalty units ``r*`` and the opponent's expected royalty on its wins ``l*``."""
    xf = 1.0 - wf - tf
    xm = 1.0 - wm - tm
    xb = 1.0 - wb - tb
    ev = (wf - xf) + (wm - xm) + (wb - xb)
    if scoring == TWO_FOUR:
        # sign(wins - losses): distribution of the first two rows' sum, then the third
        a2 = wf * wm
        a1 = tf * wm + wf * tm
        a0 = wf * xm + tf * tm + xf * wm
        b1 = tf * xm + xf * tm
        b2 = xf * xm
        ev += (a2 + a1 * (wb + tb) + a0 * wb) - (b2 + b1 * (xb + tb) + a0 * xb)
    elif scoring != BASIC:
        ev += bonus * (wf * wm * wb - xf * xm * xb)
    if single:
        rf, rm, rb = keep_largest_royalty(rf, rm, rb)
    if net:
        ev += rf + rm + rb
    else:
        ev += rf * wf + rm * wm + rb * wb - lf - lm - lb
    return ev


@njit
def _term_buffers(n5, n3):
    """Scratch arrays for the per-subset row terms: (win, tie, loss, royalty, opponent
    royalty, separable value) for the 5-card subsets as middle, as back, then the fronts."""
    out5 = [np.empty(n5) for _ in range(12)]
    out3 = [np.empty(n3) for _ in range(6)]
    return (out5[0], out5[1], out5[2], out5[3], out5[4], out5[5], out5[6], out5[7], out5[8],
            out5[9], out5[10], out5[11], out3[0], out3[1], out3[2], out3[3], out3[4], out3[5])


@njit
def _row_terms(v, row, pw, pt, lr, roy, net, w, t, x, r, l, sep):
    """Per-subset terms of one row: win, tie, loss, own royalty and the separable part of the
    value (row result plus royalties, exact unless royalties are single)."""
    for i in range(v.shape[0]):
        s = v[i]
        wi = pw[row, s]
        ti = pt[row, s]
        xi = 1.0 - wi - ti
        w[i] = wi
        t[i] = ti
        x[i] = xi
        r[i] = roy[row, s]
        l[i] = lr[row, s]
        if net:
            sep[i] = wi - xi + roy[row, s]
        else:
            sep[i] = wi - xi + roy[row, s] * wi - lr[row, s]


@njit
def table_best_many_full(hands, card_word, rank5, flush5, rank3, comb5, comb3, pairs,
                         pw, pt, lr, roy, scoring, bonus, net, single, out_split, out_ev, out_rows):
    """Best split of each hand under the table strategy, trying every split (the reference for
    branch-and-bound search of :mod:`solver.games.capsa.kernels.search`); of splits of equal
    value, the smallest packed one, as the search keeps."""
    v5 = np.empty(comb5.shape[0], dtype=np.int32)
    v3 = np.empty(comb3.shape[0], dtype=np.int32)
    splits = np.empty(2 * pairs.shape[0], dtype=np.int64)
    evs = np.empty(2 * pairs.shape[0])
    for h in range(hands.shape[0]):
        subset_strengths(hands[h], card_word, rank5, flush5, rank3, v5, v3)
        n = table_valid_evs(v5, v3, pairs, pw, pt, lr, roy, scoring, bonus, net, single,
                            splits, evs)
        i = 0
        for j in range(1, n):  # the best value; of equal values, the smallest packed split
            if evs[j] > evs[i] or (evs[j] == evs[i] and splits[j] < splits[i]):
                i = j
        best_p = splits[i]
        out_split[h] = best_p
        out_ev[h] = evs[i]
        out_rows[h, 0] = v3[best_p >> 22]
        out_rows[h, 1] = v5[(best_p >> 11) & 2047]
        out_rows[h, 2] = v5[best_p & 2047]


@njit
def table_valid_evs(v5, v3, pairs, pw, pt, lr, roy, scoring, bonus, net, single,
                    out_split, out_ev):
    """Every valid ordered split (packed, in ``valid_splits`` order) with its table value;
    returns the count. Per-subset row terms are computed first so the value loop reads small
    arrays only."""
    n5 = v5.shape[0]
    n3 = v3.shape[0]
    (wm, tm, xm, rm, lm, sm, wb, tb, xb, rb, lb, sb,
     wf, tf, xf, rf, lf, sf) = _term_buffers(n5, n3)
    _row_terms(v5, 1, pw, pt, lr, roy, net, wm, tm, xm, rm, lm, sm)
    _row_terms(v5, 2, pw, pt, lr, roy, net, wb, tb, xb, rb, lb, sb)
    _row_terms(v3, 0, pw, pt, lr, roy, net, wf, tf, xf, rf, lf, sf)
    simple = (scoring != TWO_FOUR) and not single
    n = valid_splits(v5, v3, pairs, out_split)
    for i in range(n):
        p = out_split[i]
        a = p & 2047
        b = (p >> 11) & 2047
        f = p >> 22
        if simple:
            ev = sf[f] + sm[b] + sb[a]
            if scoring != BASIC:
                ev += bonus * (wf[f] * wm[b] * wb[a] - xf[f] * xm[b] * xb[a])
        else:
            ev = _table_ev(wf[f], tf[f], wm[b], tm[b], wb[a], tb[a], rf[f], rm[b], rb[a],
                           lf[f], lm[b], lb[a], scoring, bonus, net, single)
        out_ev[i] = ev
    return n
