"""Card removal for the ``table`` strategy: the opponent's row tables given my 13 cards, and the
exhaustive best-``k`` search under them.

An opponent's 13 cards come from the 39 I do not hold, so what I hold shifts how it sets its
rows (three aces in my hand make an ace pair in its front rare). Per rank ``k`` the tables file
holds ``delta[k, row, s]``: how the probability that the opponent's ``row`` has strength ``s``
moves when one card of rank ``k`` is known not to be in its hand. For a hand holding ``n_k``
cards of rank ``k``, with ``a_k = alpha * n_k``, the opponent's tables are, to first order,

    win[row, s]      = pw[row, s] + sum_k a_k * D[k, row, s]   D: delta summed below s
    tie[row, s]      = pt[row, s] + sum_k a_k * delta[k, row, s]
    lose_roy[row, s] = lr[row, s] + sum_k a_k * E[k, row, s]   E: delta * royalty above s

then clamped into a distribution (win in [0, 1], tie in [0, 1 - win], royalty >= 0: the first
order overshoots where a strength is rare). The kernels take the tables already shifted for a
hand holding one card of every rank (``pw1 = pw + alpha * sum_k D[k]`` and so on) and add
``alpha * (n_k - 1)`` times each rank's terms: a hand holds 13 cards, so only its missing
ranks and its pairs and more count, about 7 ranks of 13. ``coef[row, s, k] = (D, delta, E)`` is built once
per tables (:func:`solver.games.capsa.prepared.build_removal_terms`). The shift is linear, so a hand
needs only the entries of the strengths its subsets have (a few hundred of the 7,917).
Tables with suit terms (the opponent's flushes depend on my suits, which the ranks' terms
average out) carry 14 more entries per row and strength after the ranks', one per count of
a suit, already scaled: a hand adds the entry of each of its four suit counts
(``coef[r, s, 13 + c]``).

The search is :func:`solver.games.capsa.kernels.search.table_top`'s branch and bound, with
bounds from the hand's own terms: per block of ``1 << BLOCK_BITS`` strengths, the best
separable value, best win chance and least loss chance of the hand's middles and fronts, as
running extremes over blocks, bound every split of a back whose middle and front are capped
(the caps come from the 8 cards the back leaves, as in ``table_top``). The non-separable part
(scoop, two-four unit) grows with wins and falls with losses, so it is bounded at those
extremes. Splits are valued with the hand's tables exactly as the full search values them
(:func:`removal_best_many`, which the tests compare).
"""

from __future__ import annotations

import numpy as np

from solver._jit import njit
from solver.games.capsa.kernels.encoding import (
    choice_front,
    choice_middle,
    pack_split,
    rank_of,
    suit_of,
)
from solver.games.capsa.kernels.evaluate import subset_strengths
from solver.games.capsa.kernels.rules import BASIC, TWO_FOUR
from solver.games.capsa.kernels.search import (
    _back_caps,
    _hand_counters,
    _left_counters,
    _next_back,
    _nonseparable,
    _offer_k,
    _search_buffers,
    _write_odds,
    _write_top,
)
from solver.games.capsa.kernels.table import (
    _scoop_bound,
    _scoop_odds,
    _table_ev,
    table_best_many_full,
)

BLOCK_BITS = 5


@njit(inline="always")
def _rank_weights(hand, alpha, suits, ks, an):
    """The ranks ``hand`` does not hold exactly once (into ``ks``) and ``alpha`` times their
    count minus one (``an``): the tables come in already shifted for one card of every rank
    (13 cards, like any hand), so a hand adds only its missing ranks and its pairs and more,
    about 7 of the 13. With ``suits`` (tables with suit terms), then the term of each suit's
    count ``c`` (index ``13 + c``, weight 1: the terms come scaled). ``ks``, ``an``: 17 long."""
    counts = np.zeros(13, dtype=np.int64)
    per_suit = np.zeros(4, dtype=np.int64)
    for i in range(13):
        counts[rank_of(hand[i])] += 1
        per_suit[suit_of(hand[i])] += 1
    nk = 0
    for k in range(13):
        if counts[k] != 1:
            ks[nk] = k
            an[nk] = alpha * (counts[k] - 1)
            nk += 1
    if suits:
        for x in range(4):
            ks[nk] = 13 + per_suit[x]
            an[nk] = 1.0
            nk += 1
    return nk


@njit(inline="always")
def _shifted(r, s, ks, an, nk, pw, pt, lr, coef):
    """(win, tie, opponent royalty on its wins) of row ``r`` at strength ``s`` for the hand
    whose rank weights are ``ks``, ``an``."""
    dw = 0.0
    dt = 0.0
    dl = 0.0
    for i in range(nk):
        k = ks[i]
        a = an[i]
        dw += a * coef[r, s, k, 0]
        dt += a * coef[r, s, k, 1]
        dl += a * coef[r, s, k, 2]
    return pw[r, s] + dw, pt[r, s] + dt, lr[r, s] + dl


@njit(inline="always")
def _clamped(r, s, ks, an, nk, pw, pt, lr, coef):
    """:func:`_shifted`, made a distribution again: win in [0, 1], tie in [0, 1 - win], the
    opponent's royalty at least 0 (the first-order shifts can overshoot where a strength is
    rare)."""
    w, t, l = _shifted(r, s, ks, an, nk, pw, pt, lr, coef)
    w = min(max(w, 0.0), 1.0)
    t = min(max(t, 0.0), 1.0 - w)
    return w, t, max(l, 0.0)


@njit
def removal_tables(hand, rm, out_pw, out_pt, out_lr):
    """Fill ``out_pw``, ``out_pt``, ``out_lr`` (3, S) with the opponent tables of ``hand``
    (``rm``: :class:`~solver.games.capsa.prepared.RemovalModel`)."""
    alpha, pw, pt, lr, coef, _ = rm
    _removal_tables(hand, alpha, pw, pt, lr, coef, out_pw, out_pt, out_lr)


@njit
def _removal_tables(hand, alpha, pw, pt, lr, coef, out_pw, out_pt, out_lr):
    ks = np.empty(17, dtype=np.int64)
    an = np.empty(17)
    nk = _rank_weights(hand, alpha, coef.shape[2] > 13, ks, an)
    for r in range(3):
        for s in range(pw.shape[1]):
            out_pw[r, s], out_pt[r, s], out_lr[r, s] = _clamped(r, s, ks, an, nk, pw, pt, lr,
                                                                coef)


@njit
def removal_row_terms(hand, rm, rows, out_w, out_t, out_l):
    """Win and tie chances and the opponent's royalty on its wins of the rows ``rows`` (N, 3:
    front, middle, back strengths) of ``hand``, each (N, 3): the entries of
    :func:`removal_tables` for those strengths only."""
    alpha, pw, pt, lr, coef, _ = rm
    ks = np.empty(17, dtype=np.int64)
    an = np.empty(17)
    nk = _rank_weights(hand, alpha, coef.shape[2] > 13, ks, an)
    for i in range(rows.shape[0]):
        for r in range(3):
            out_w[i, r], out_t[i, r], out_l[i, r] = _clamped(r, rows[i, r], ks, an, nk, pw, pt,
                                                             lr, coef)


@njit
def removal_odds(hand, rm, rows, out_w, out_t):
    """Win and tie chances of the rows ``rows`` (N, 3: front, middle, back strengths) of
    ``hand`` against its opponent's shifted tables: (N, 3) each."""
    alpha, pw, pt, lr, coef, _ = rm
    ks = np.empty(17, dtype=np.int64)
    an = np.empty(17)
    nk = _rank_weights(hand, alpha, coef.shape[2] > 13, ks, an)
    for i in range(rows.shape[0]):
        for r in range(3):
            w, t, _ = _clamped(r, rows[i, r], ks, an, nk, pw, pt, lr, coef)
            out_w[i, r] = w
            out_t[i, r] = t


@njit
def removal_best_many(hands, card_word, rank5, flush5, rank3, comb5, comb3, pairs, alpha, pw,
                      pt, lr, coef, roy, scoring, bonus, net, single, joint, out_split, out_ev,
                      out_rows):
    """The reference: each hand's full tables, then :func:`table_best_many_full` (every valid
    split tried)."""
    hpw = np.empty(pw.shape)
    hpt = np.empty(pw.shape)
    hlr = np.empty(pw.shape)
    for h in range(hands.shape[0]):
        _removal_tables(hands[h], alpha, pw, pt, lr, coef, hpw, hpt, hlr)
        table_best_many_full(hands[h:h + 1], card_word, rank5, flush5, rank3, comb5, comb3,
                             pairs, hpw, hpt, hlr, roy, scoring, bonus, net, single, joint,
                             out_split[h:h + 1], out_ev[h:h + 1], out_rows[h:h + 1])


@njit(inline="always")
def _row_value(r, s, ks, an, nk, pw, pt, lr, coef, roy, net, out, i):
    """Store (win, tie, loss, own royalty, opponent royalty, separable value) of row ``r`` at
    strength ``s`` in ``out[i]``, computed exactly as the full search computes them."""
    wi, ti, li = _clamped(r, s, ks, an, nk, pw, pt, lr, coef)
    xi = 1.0 - wi - ti
    out[i, 0] = wi
    out[i, 1] = ti
    out[i, 2] = xi
    out[i, 3] = roy[r, s]
    out[i, 4] = li
    if net:
        out[i, 5] = wi - xi + roy[r, s]
    else:
        out[i, 5] = wi - xi + roy[r, s] * wi - li


@njit(inline="always")
def _clear_blocks(pre):
    """Empty per-block extremes: (best separable value, best win, least loss) of the
    fronts in rows 0-2, of the middles in rows 3-5."""
    for b in range(pre.shape[1]):
        pre[0, b] = -np.inf
        pre[1, b] = -np.inf
        pre[2, b] = np.inf
        pre[3, b] = -np.inf
        pre[4, b] = -np.inf
        pre[5, b] = np.inf


@njit(inline="always")
def _into_block(pre, row, s, sep, w, x):
    """Count a front (``row`` 0) or a middle (``row`` 3) of strength ``s`` with separable
    value ``sep``, win chance ``w`` and loss chance ``x`` (or bounds of them) in its block."""
    b = s >> BLOCK_BITS
    pre[row, b] = max(pre[row, b], sep)
    pre[row + 1, b] = max(pre[row + 1, b], w)
    pre[row + 2, b] = min(pre[row + 2, b], x)


@njit(inline="always")
def _running_blocks(pre):
    """Each block's extremes over it and every block below: what bounds a row capped there."""
    for b in range(1, pre.shape[1]):
        pre[0, b] = max(pre[0, b], pre[0, b - 1])
        pre[1, b] = max(pre[1, b], pre[1, b - 1])
        pre[2, b] = min(pre[2, b], pre[2, b - 1])
        pre[3, b] = max(pre[3, b], pre[3, b - 1])
        pre[4, b] = max(pre[4, b], pre[4, b - 1])
        pre[5, b] = min(pre[5, b], pre[5, b - 1])


@njit(inline="always")
def _block_bound(sep_b, w_b, x_b, fs, cap, pre, scoring, bonus, joint):
    """Value bound of a back (separable value ``sep_b``, win ``w_b``, loss ``x_b``) whose
    middle is at most ``cap`` and front at most ``fs``: the best separable values of the
    hand's own middles and fronts up to those blocks, and the non-separable part at their
    best win and least loss chances (it grows with wins, falls with losses)."""
    bm = cap >> BLOCK_BITS
    bf = fs >> BLOCK_BITS
    return (sep_b + pre[0, bf] + pre[3, bm]
            + _nonseparable(pre[1, bf], 1.0 - pre[1, bf] - pre[2, bf], pre[4, bm],
                            1.0 - pre[4, bm] - pre[5, bm], w_b, 1.0 - w_b - x_b, scoring,
                            bonus, joint))


@njit
def _removal_top(hands, card_word, rank5, flush5, rank3, comb5, comb3, back_splits,
                 front_floor, lut, alpha, pw, pt, lr, coef, roy, scoring, bonus, net, single,
                 joint, k, slot, seen, epoch, out_split, out_ev, out_rows, out_n, out_odds):
    """:func:`solver.games.capsa.kernels.search.table_top` under each hand's card-removal
    tables: the same outputs, order and ties, and the values of the full search.

    Each hand's row terms are computed for the strengths its subsets have (a few hundred);
    per block of ``1 << BLOCK_BITS`` strengths, the best separable value, best win and least
    loss chance of its middles and fronts, as running extremes over blocks, bound every split
    of a back (the middle and front caps come from the 8 cards the back leaves, as in
    ``table_top``).

    ``slot`` (S,), ``seen`` (S,) and ``epoch`` (1,) are scratch kept by the caller between
    calls (one set per thread): ``seen[s]`` marks the strengths met in the hand numbered
    ``epoch[0] + h`` and ``slot[s]`` where their terms are, so a call clears nothing."""
    n5 = comb5.shape[0]
    n3 = comb3.shape[0]
    size = pw.shape[1]
    nb = (size >> BLOCK_BITS) + 1
    v5, v3, rcw, scw, bev, bp, brow, cand, cub = _search_buffers(n5, n3, k)
    order = np.empty(0, dtype=np.int64)
    ks = np.empty(17, dtype=np.int64)
    an = np.empty(17)
    # the hand's terms, one slot per distinct strength: fronts, middles, backs
    fv = np.empty((n3, 6))
    mv = np.empty((n5, 6))
    bv = np.empty((n5, 6))
    s3 = np.empty(n3, dtype=np.int64)      # slot of each 3-card subset
    s5 = np.empty(n5, dtype=np.int64)      # slot of each 5-card subset
    ub1 = np.empty(n5)                     # first bound of a back, per slot
    dist5 = np.empty(n5, dtype=np.int64)   # strength of each 5-card slot
    # per block: front (best sep, best win, least loss), then middle (the same)
    pre = np.empty((6, nb))
    simple = scoring != TWO_FOUR and not single
    use_bonus = scoring != BASIC
    exact_after = simple and use_bonus and joint.shape[1] > 1
    first = epoch[0]
    epoch[0] = first + hands.shape[0]
    for h in range(hands.shape[0]):
        hand = hands[h]
        hid = first + h
        subset_strengths(hand, card_word, rank5, flush5, rank3, v5, v3)
        nk = _rank_weights(hand, alpha, coef.shape[2] > 13, ks, an)
        _clear_blocks(pre)
        nf = 0
        for i in range(n3):
            s = v3[i]
            if seen[s] != hid:
                seen[s] = hid
                slot[s] = nf
                _row_value(0, s, ks, an, nk, pw, pt, lr, coef, roy, net, fv, nf)
                _into_block(pre, 0, s, fv[nf, 5], fv[nf, 0], fv[nf, 2])
                nf += 1
            s3[i] = slot[s]
        top = 0
        nd = 0
        for i in range(n5):
            s = v5[i]
            if s > v5[top]:
                top = i
            if seen[s] != hid:  # 5-card and front strengths are distinct numbers
                seen[s] = hid
                slot[s] = nd
                dist5[nd] = s
                _row_value(1, s, ks, an, nk, pw, pt, lr, coef, roy, net, mv, nd)
                _row_value(2, s, ks, an, nk, pw, pt, lr, coef, roy, net, bv, nd)
                _into_block(pre, 3, s, mv[nd, 5], mv[nd, 0], mv[nd, 2])
                nd += 1
            s5[i] = slot[s]
        _running_blocks(pre)
        for d in range(nd):
            s = dist5[d]
            fs = front_floor[s]
            ub1[d] = (-np.inf if fs < 0 else
                      _block_bound(bv[d, 5], bv[d, 0], bv[d, 2], fs, s, pre, scoring, bonus,
                                   joint)
                      + 1e-9)
        hand_rc, hand_sc = _hand_counters(hand, rcw, scw)
        n = 0
        thr = -1e300
        nc = 0
        pos = -1
        while True:
            a = _next_back(pos, top, nc, order, cub, cand, thr)
            if a < 0:
                break
            pos += 1
            va = v5[a]
            sa = s5[a]
            wb = bv[sa, 0]
            tb = bv[sa, 1]
            xb = bv[sa, 2]
            rb = bv[sa, 3]
            lb = bv[sa, 4]
            sb = bv[sa, 5]
            for j in range(56):
                q = back_splits[a, j]
                b = choice_middle(q)
                f = choice_front(q)
                vb = v5[b]
                vf = v3[f]
                if (vb > va) | (vf > vb):
                    continue
                mb = s5[b]
                ff = s3[f]
                if simple:
                    ev = fv[ff, 5] + mv[mb, 5] + sb
                    if exact_after and (ev + bonus * _scoop_bound(joint, fv[ff, 0], mv[mb, 0],
                                                                  wb, fv[ff, 2], mv[mb, 2], xb)
                                        < thr):
                        continue  # not even its bound reaches the k-th best
                    if use_bonus:
                        ev += bonus * _scoop_odds(joint, fv[ff, 0], mv[mb, 0], wb, fv[ff, 2],
                                                  mv[mb, 2], xb)
                else:
                    if joint.shape[1] > 1 and (
                            _table_ev(fv[ff, 0], fv[ff, 1], mv[mb, 0], mv[mb, 1], wb, tb,
                                      fv[ff, 3], mv[mb, 3], rb, fv[ff, 4], mv[mb, 4], lb,
                                      scoring, bonus, net, single, joint, False) < thr):
                        continue  # not even its bound (the joint model at grid points) does
                    ev = _table_ev(fv[ff, 0], fv[ff, 1], mv[mb, 0], mv[mb, 1], wb, tb,
                                   fv[ff, 3], mv[mb, 3], rb, fv[ff, 4], mv[mb, 4], lb,
                                   scoring, bonus, net, single, joint, True)
                if ev >= thr:
                    n, thr = _offer_k(ev, pack_split(a, b, f), vf, vb, va, k, n, bev, bp, brow,
                                      thr)
            if pos == 0:
                for a in range(n5):
                    va = v5[a]
                    if a == top:
                        continue
                    sa = s5[a]
                    if ub1[sa] < thr:
                        continue
                    sb = bv[sa, 5]
                    wb = bv[sa, 0]
                    xb = bv[sa, 2]
                    cx, sx = _left_counters(a, comb5, rcw, scw, hand_rc, hand_sc)
                    cap, fs = _back_caps(cx, sx, va, lut)
                    if fs < 0:
                        continue
                    ub = _block_bound(sb, wb, xb, fs, cap, pre, scoring, bonus, joint) + 1e-9
                    if ub < thr:
                        continue
                    cand[nc] = a
                    cub[nc] = ub
                    nc += 1
                order = np.argsort(-cub[:nc])
        _write_top(h, n, bev, bp, brow, out_split, out_ev, out_rows, out_n)
        for i in range(n):  # the hand's own odds of what it found, from its slots
            f, m, b = slot[brow[i, 0]], slot[brow[i, 1]], slot[brow[i, 2]]
            _write_odds(h, i, fv[f, 0], mv[m, 0], bv[b, 0], fv[f, 1], mv[m, 1], bv[b, 1], joint,
                        out_odds)


@njit
def removal_top(hands, lk, model, sc, k, scratch, out):
    """:func:`_removal_top` with the search kernels' groups (see
    :func:`solver.games.capsa.kernels.search.table_top`), ``model`` a
    :class:`~solver.games.capsa.prepared.RemovalModel`."""
    card_word, rank5, flush5, rank3, comb5, comb3, back_splits, front_floor, lut = lk
    alpha, pw, pt, lr, coef, roy = model
    scoring, bonus, net, single, joint = sc
    slot, seen, _, _, _, _, epoch = scratch
    out_split, out_ev, out_rows, out_n, out_odds = out
    _removal_top(hands, card_word, rank5, flush5, rank3, comb5, comb3, back_splits,
                 front_floor, lut, alpha, pw, pt, lr, coef, roy, scoring, bonus, net, single,
                 joint, k, slot, seen, epoch, out_split, out_ev, out_rows, out_n, out_odds)
