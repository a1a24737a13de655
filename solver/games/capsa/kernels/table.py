"""The ``table`` strategy's value of a split, and the best split of many hands."""

from __future__ import annotations

import numpy as np

from solver._jit import njit
from solver.games.capsa.kernels.encoding import split_back, split_front, split_middle
from solver.games.capsa.kernels.evaluate import subset_strengths
from solver.games.capsa.kernels.rules import BASIC, TWO_FOUR, keep_largest_royalty
from solver.games.capsa.kernels.splits import valid_splits

# the joint model of the opponent's rows when a tables file has none: rows independent
NO_JOINT = np.zeros((2, 1, 1, 1))


@njit
def _grid_at(grid, g, u, v, w):
    """Multilinear interpolation of ``grid[g]`` ((n + 1)^3 values on the points ``i / n``) at
    (u, v, w) in [0, 1]^3: monotone where the grid is, and exact for a product ``u v w``."""
    n = grid.shape[1] - 1
    x = min(max(u, 0.0), 1.0) * n
    y = min(max(v, 0.0), 1.0) * n
    z = min(max(w, 0.0), 1.0) * n
    i = min(int(x), n - 1)
    j = min(int(y), n - 1)
    k = min(int(z), n - 1)
    fx = x - i
    fy = y - j
    fz = z - k
    a = grid[g, i, j, k] + fz * (grid[g, i, j, k + 1] - grid[g, i, j, k])
    b = grid[g, i, j + 1, k] + fz * (grid[g, i, j + 1, k + 1] - grid[g, i, j + 1, k])
    c = grid[g, i + 1, j, k] + fz * (grid[g, i + 1, j, k + 1] - grid[g, i + 1, j, k])
    d = grid[g, i + 1, j + 1, k] + fz * (grid[g, i + 1, j + 1, k + 1] - grid[g, i + 1, j + 1, k])
    ab = a + fy * (b - a)
    cd = c + fy * (d - c)
    return ab + fx * (cd - ab)


@njit
def _scoop_odds(joint, wf, wm, wb, xf, xm, xb):
    """P(I win all three rows) - P(I lose all three), from the rows' win and loss chances.

    ``joint`` (2, n + 1, n + 1, n + 1) holds the copula of the opponent's rows, measured on a
    pool set by the strategy (:mod:`solver.games.capsa.strategy.joint`): ``joint[0]`` at
    (wf, wm, wb) is the chance that all three of its rows are below mine, ``joint[1]`` at
    (xf, xm, xb) that all three are above. Its rows are not independent (a strong back takes
    cards from the middle), so the product of the rows' chances overstates both. With
    ``NO_JOINT`` the rows are taken as independent."""
    if joint.shape[1] == 1:
        return wf * wm * wb - xf * xm * xb
    return _grid_at(joint, 0, wf, wm, wb) - _grid_at(joint, 1, xf, xm, xb)


@njit
def _scoop_bound(joint, wf, wm, wb, xf, xm, xb):
    """An upper bound of :func:`_scoop_odds` from two grid values (the corners of the cells
    above the win chances and below the loss chances: the grids grow with each argument);
    the exact value with ``NO_JOINT``. What the search's bounds and its pre-filter use."""
    if joint.shape[1] == 1:
        return wf * wm * wb - xf * xm * xb
    n = joint.shape[1] - 1
    return (joint[0, _cell_above(wf, n), _cell_above(wm, n), _cell_above(wb, n)]
            - joint[1, _cell_below(xf, n), _cell_below(xm, n), _cell_below(xb, n)])


@njit
def _cell_above(u, n):
    """The first grid point at or above ``u`` (clamped into [0, 1])."""
    return min(n, int(np.ceil(max(u, 0.0) * n)))


@njit
def _cell_below(u, n):
    """The last grid point at or below ``u`` (clamped into [0, 1])."""
    return min(n, int(max(u, 0.0) * n))


@njit
def scoop_odds_many(joint, wf, wm, wb, xf, xm, xb, out):
    """:func:`_scoop_odds` over arrays."""
    for i in range(out.shape[0]):
        out[i] = _scoop_odds(joint, wf[i], wm[i], wb[i], xf[i], xm[i], xb[i])


@njit
def scoop_chance(joint, wf, wm, wb):
    """The chance of winning all three rows (the first term of :func:`_scoop_odds`)."""
    if joint.shape[1] == 1:
        return wf * wm * wb
    return _grid_at(joint, 0, wf, wm, wb)


@njit
def _cdf_at(joint, exact, n, u, v, w):
    """The opponent rows' copula ``joint[0]`` at (u, v, w): interpolated, or (``exact``
    false) at the grid point at or above each coordinate."""
    if exact:
        return _grid_at(joint, 0, u, v, w)
    return joint[0, _cell_above(u, n), _cell_above(v, n), _cell_above(w, n)]


@njit
def _majority_odds(joint, wf, tf, wm, tm, wb, tb, exact):
    """Two-four's unit for winning more rows: P(more wins than losses) - P(fewer).

    With ``NO_JOINT`` the opponent's rows are taken as independent: the distribution of the
    first two rows' sum, then the third. Else from the rows' copula: row ``r`` is won when
    the opponent's uniform is below ``a_r = w_r``, tied up to ``b_r = w_r + t_r`` and lost
    above, and summing by parts over the 27 outcomes writes the unit's expectation as a fixed
    sum of the copula at the points with coordinates in {a, b, 1} (14 terms are not 0). The
    unit grows with every ``a`` and ``b`` (a tie turned into a win, a loss into a tie), and
    at grid points the model is the grid, so ``exact`` false (every point rounded up to the
    grid) bounds it from above: what the searches' bounds use."""
    if joint.shape[1] == 1:
        xf = 1.0 - wf - tf
        xm = 1.0 - wm - tm
        xb = 1.0 - wb - tb
        a2 = wf * wm
        a1 = tf * wm + wf * tm
        a0 = wf * xm + tf * tm + xf * wm
        b1 = tf * xm + xf * tm
        b2 = xf * xm
        return (a2 + a1 * (wb + tb) + a0 * wb) - (b2 + b1 * (xb + tb) + a0 * xb)
    n = joint.shape[1] - 1
    af = wf
    am = wm
    ab = wb
    bf = wf + tf
    bm = wm + tm
    bb = wb + tb
    return (_cdf_at(joint, exact, n, af, am, ab) - _cdf_at(joint, exact, n, af, am, bb)
            - _cdf_at(joint, exact, n, af, bm, ab) - _cdf_at(joint, exact, n, af, bm, bb)
            + _cdf_at(joint, exact, n, af, bm, 1.0) + _cdf_at(joint, exact, n, af, 1.0, bb)
            - _cdf_at(joint, exact, n, bf, am, ab) - _cdf_at(joint, exact, n, bf, am, bb)
            + _cdf_at(joint, exact, n, bf, am, 1.0) - _cdf_at(joint, exact, n, bf, bm, ab)
            + _cdf_at(joint, exact, n, bf, bm, bb) + _cdf_at(joint, exact, n, bf, 1.0, ab)
            + _cdf_at(joint, exact, n, 1.0, am, bb) + _cdf_at(joint, exact, n, 1.0, bm, ab)
            - 1.0)


@njit
def majority_odds_many(joint, wf, tf, wm, tm, wb, tb, out):
    """:func:`_majority_odds` (the model's value) over arrays."""
    for i in range(out.shape[0]):
        out[i] = _majority_odds(joint, wf[i], tf[i], wm[i], tm[i], wb[i], tb[i], True)


@njit
def majority_bound_many(joint, wf, tf, wm, tm, wb, tb, out):
    """:func:`_majority_odds`' bound (the joint model at grid points) over arrays."""
    for i in range(out.shape[0]):
        out[i] = _majority_odds(joint, wf[i], tf[i], wm[i], tm[i], wb[i], tb[i], False)


@njit
def _table_ev(wf, tf, wm, tm, wb, tb, rf, rm, rb, lf, lm, lb, scoring, bonus, net, single,
              joint, exact):
    """Expected points against one opponent from per-row win/tie probabilities, own royalty
    units ``r*`` and the opponent's expected royalty on its wins ``l*``; the scoop and
    two-four's unit from the ``joint`` model of the opponent's rows. ``exact`` false: an
    upper bound instead (the model read at grid points, cheaper; what searches filter with
    before they value a split exactly)."""
    xf = 1.0 - wf - tf
    xm = 1.0 - wm - tm
    xb = 1.0 - wb - tb
    ev = (wf - xf) + (wm - xm) + (wb - xb)
    if scoring == TWO_FOUR:
        ev += _majority_odds(joint, wf, tf, wm, tm, wb, tb, exact)
    elif scoring != BASIC:
        if exact:
            ev += bonus * _scoop_odds(joint, wf, wm, wb, xf, xm, xb)
        else:
            ev += bonus * _scoop_bound(joint, wf, wm, wb, xf, xm, xb)
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
                         pw, pt, lr, roy, scoring, bonus, net, single, joint, out_split, out_ev,
                         out_rows):
    """Best split of each hand under the table strategy, trying every split (the reference for
    branch-and-bound search of :mod:`solver.games.capsa.kernels.search`); of splits of equal
    value, the smallest packed one, as the search keeps."""
    v5 = np.empty(comb5.shape[0], dtype=np.int32)
    v3 = np.empty(comb3.shape[0], dtype=np.int32)
    splits = np.empty(2 * pairs.shape[0], dtype=np.int64)
    evs = np.empty(2 * pairs.shape[0])
    for h in range(hands.shape[0]):
        subset_strengths(hands[h], card_word, rank5, flush5, rank3, v5, v3)
        n = table_valid_evs(v5, v3, pairs, pw, pt, lr, roy, scoring, bonus, net, single, joint,
                            splits, evs)
        i = 0
        for j in range(1, n):  # the best value; of equal values, the smallest packed split
            if evs[j] > evs[i] or (evs[j] == evs[i] and splits[j] < splits[i]):
                i = j
        best_p = splits[i]
        out_split[h] = best_p
        out_ev[h] = evs[i]
        out_rows[h, 0] = v3[split_front(best_p)]
        out_rows[h, 1] = v5[split_middle(best_p)]
        out_rows[h, 2] = v5[split_back(best_p)]


@njit
def table_valid_evs(v5, v3, pairs, pw, pt, lr, roy, scoring, bonus, net, single, joint,
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
        a = split_back(p)
        b = split_middle(p)
        f = split_front(p)
        if simple:
            ev = sf[f] + sm[b] + sb[a]
            if scoring != BASIC:
                ev += bonus * _scoop_odds(joint, wf[f], wm[b], wb[a], xf[f], xm[b], xb[a])
        else:
            ev = _table_ev(wf[f], tf[f], wm[b], tm[b], wb[a], tb[a], rf[f], rm[b], rb[a],
                           lf[f], lm[b], lb[a], scoring, bonus, net, single, joint, True)
        out_ev[i] = ev
    return n


@njit
def split_values(rows, w, t, l, roy, sc, out):
    """The table value of given splits: row strengths ``rows`` (N, 3: front, middle, back),
    their win and tie chances and the opponent's royalty on its wins ``w``, ``t``, ``l``
    (N, 3), royalty units per row and strength ``roy`` (3, S), the scoring ``sc``
    (:class:`~solver.games.capsa.prepared.Scoring`). The same operations in the same order
    as :func:`table_valid_evs`, so a split's value is the same to the last bit."""
    scoring, bonus, net, single, joint = sc
    simple = (scoring != TWO_FOUR) and not single
    sep = np.empty(3)
    x = np.empty(3)
    rr = np.empty(3)
    for i in range(rows.shape[0]):
        for r in range(3):
            s = rows[i, r]
            wi = w[i, r]
            ti = t[i, r]
            xi = 1.0 - wi - ti
            x[r] = xi
            rr[r] = roy[r, s]
            if net:
                sep[r] = wi - xi + roy[r, s]
            else:
                sep[r] = wi - xi + roy[r, s] * wi - l[i, r]
        if simple:
            ev = sep[0] + sep[1] + sep[2]
            if scoring != BASIC:
                ev += bonus * _scoop_odds(joint, w[i, 0], w[i, 1], w[i, 2], x[0], x[1], x[2])
        else:
            ev = _table_ev(w[i, 0], t[i, 0], w[i, 1], t[i, 1], w[i, 2], t[i, 2], rr[0], rr[1],
                           rr[2], l[i, 0], l[i, 1], l[i, 2], scoring, bonus, net, single, joint,
                           True)
        out[i] = ev
