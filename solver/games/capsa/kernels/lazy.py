"""The card-removal best-``k`` search with each hand's exact row terms computed lazily, only
for the rows a split that can still reach the ``k``-th best needs.

:func:`solver.games.capsa.kernels.removal.removal_top` computes every row term of every
strength a hand holds (about 900 of them, each 21 coefficients from a 7 MB table) before it
searches; most of them bound splits that are never scored. Here a hand starts from a cheap
upper bound of each row's separable value and win chance and a lower bound of its loss
chance, read from two small tables built once per (tables, rules)
(:func:`solver.games.capsa.prepared.build_lazy_terms`):

- ``gsep[r, s, k]``: how row ``r``'s separable value at strength ``s`` moves per unit of rank
  ``k``'s weight (``(2 + royalty) D + delta - E``, or ``2 D + delta`` with net royalties), so
  the unclamped value is exact from one 64-byte line (two with suit terms: ``k`` = 13 + a
  suit's count, weight 1);
- ``slab[m, r, s]``: for hands missing ``m`` ranks (their weights are ``-alpha`` on the ``m``
  missing ranks and ``alpha (n_k - 1)`` summing to ``alpha m`` on the others), the value at one
  card of every rank plus the most the clamp into a distribution can add, the largest win
  chance and the smallest loss chance any such hand can have (a small table per ``m``, so a
  hand reads 200 KB that stay in cache); with suit terms, at their extremes over the suit
  counts a hand can have.

Those bounds make the block extremes and the back bounds of ``removal_top``; a split is
scored only when its bound, with the exact terms already computed and the cheap ones for the
rest, reaches the ``k``-th best, and then with the exact terms, computed as the full search
computes them (:func:`solver.games.capsa.kernels.removal._row_value`) and kept for the hand.
The result, its order and its ties are ``removal_top``'s (the tests compare both with the full
search).
"""

from __future__ import annotations

import numpy as np

from solver._jit import njit
from solver.games.capsa.kernels.encoding import choice_front, choice_middle, pack_split
from solver.games.capsa.kernels.evaluate import subset_strengths
from solver.games.capsa.kernels.removal import (
    BLOCK_BITS,
    _block_bound,
    _clear_blocks,
    _into_block,
    _rank_weights,
    _row_value,
    _running_blocks,
)
from solver.games.capsa.kernels.rules import BASIC, TWO_FOUR
from solver.games.capsa.kernels.search import (
    _back_caps,
    _flush_left,
    _hand_counters,
    _left_counters,
    _next_back,
    _nonseparable,
    _offer_k,
    _search_buffers,
    _write_odds,
    _write_top,
)
from solver.games.capsa.kernels.table import _scoop_bound, _scoop_odds, _table_ev

MAX_MISSING = 9  # a 13-card hand holds at least 4 ranks


@njit(inline="always")
def _cheap(r, s, ks, an, nk, gsep, slab, m, out, i):
    """Store row ``r``'s bounds at strength ``s`` in ``out[i]``: (separable value at most,
    win chance at most, loss chance at least; a distribution: the loss at most 1 - win)."""
    g = 0.0
    for j in range(nk):
        g += an[j] * gsep[r, s, ks[j]]
    w = slab[m, r, s, 1]
    out[i, 0] = slab[m, r, s, 0] + g
    out[i, 1] = w
    out[i, 2] = max(0.0, min(slab[m, r, s, 2], 1.0 - w))


@njit(inline="always")
def _exact(r, s, hid, xseen, xslot, xv, xn, ks, an, nk, pw, pt, lr, coef, roy, net):
    """Compute row ``r``'s exact terms at strength ``s`` into the next slot of ``xv[r]`` and
    mark them as hand ``hid``'s; returns the slot. (The callers check ``xseen`` first: a
    function with one exit keeps numba from counting references to its arrays.)"""
    i = xn[r]
    xn[r] = i + 1
    xseen[r, s] = hid
    xslot[r, s] = i
    _row_value(r, s, ks, an, nk, pw, pt, lr, coef, roy, net, xv[r], i)
    return i


@njit
def _lazy_top(hands, card_word, rank5, flush5, rank3, comb5, comb3, back_splits, front_floor,
              lut, alpha, pw, pt, lr, coef, gsep, slab, ubany, roy, scoring,
              bonus, net, single, joint, k, slot, seen, xslot, xseen, epoch, out_split,
              out_ev, out_rows, out_n, out_odds):
    """:func:`solver.games.capsa.kernels.removal.removal_top`'s outputs (the same values,
    order and ties) with the exact row terms computed lazily.

    Scratch kept by the caller between calls (one set per thread), so a call clears nothing:
    hand ``h`` is number ``epoch[0] + h``; ``seen``/``slot`` (S,) place a strength's cheap
    bounds, ``xseen``/``xslot`` (3, S) its exact terms per row."""
    n5 = comb5.shape[0]
    n3 = comb3.shape[0]
    size = pw.shape[1]
    nb = (size >> BLOCK_BITS) + 1
    v5, v3, rcw, scw, bev, bp, brow, cand, cub = _search_buffers(n5, n3, k)
    evs = np.empty(56)
    kcap = np.empty(n5, dtype=np.int64)    # middle cap of each candidate back
    kfs = np.empty(n5, dtype=np.int64)     # front cap
    ccap = np.empty(n5, dtype=np.int64)    # the same, in visiting order
    cfs = np.empty(n5, dtype=np.int64)
    order = np.empty(0, dtype=np.int64)
    ks = np.empty(17, dtype=np.int64)
    an = np.empty(17)
    cf = np.empty((n3, 3))                 # cheap bounds of the hand's fronts, per slot
    cm = np.empty((n5, 3))                 # ... of its middles
    cb = np.empty((n5, 3))                 # ... of its backs
    s3 = np.empty(n3, dtype=np.int64)      # slot of each 3-card subset
    s5 = np.empty(n5, dtype=np.int64)      # slot of each 5-card subset
    dist5 = np.empty(n5, dtype=np.int64)   # strength of each 5-card slot
    head = np.empty(n5, dtype=np.int64)    # first 5-card subset of each slot
    nxt = np.empty(n5, dtype=np.int64)     # the next subset of the same slot
    xv = np.empty((3, n5, 6))              # exact terms, per row and slot
    xn = np.zeros(3, dtype=np.int64)
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
        m = 0
        for j in range(nk):
            if an[j] < 0.0:
                m += 1
        m = min(m, MAX_MISSING)
        xn[0] = 0
        xn[1] = 0
        xn[2] = 0
        _clear_blocks(pre)
        nf = 0
        for i in range(n3):
            s = v3[i]
            if seen[s] != hid:
                seen[s] = hid
                slot[s] = nf
                _cheap(0, s, ks, an, nk, gsep, slab, m, cf, nf)
                _into_block(pre, 0, s, cf[nf, 0], cf[nf, 1], cf[nf, 2])
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
                head[nd] = -1
                _cheap(1, s, ks, an, nk, gsep, slab, m, cm, nd)
                _into_block(pre, 3, s, cm[nd, 0], cm[nd, 1], cm[nd, 2])
                nd += 1
            s5[i] = slot[s]
            nxt[i] = head[s5[i]]  # the 5-card subsets of each strength, as a linked list
            head[s5[i]] = i
        _running_blocks(pre)
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
            ib = xslot[2, va]
            if xseen[2, va] != hid:  # first use in the hand
                ib = _exact(2, va, hid, xseen, xslot, xv, xn, ks, an, nk, pw, pt, lr, coef, roy,
                            net)
            wb = xv[2, ib, 0]
            tb = xv[2, ib, 1]
            xb = xv[2, ib, 2]
            rb = xv[2, ib, 3]
            lb = xv[2, ib, 4]
            sb = xv[2, ib, 5]
            # the non-separable part of every split of this back is at most its value at the
            # best win and least loss chances of the middles and fronts under its caps
            bm = ccap[pos - 1] >> BLOCK_BITS if pos > 0 else nb - 1
            bf = cfs[pos - 1] >> BLOCK_BITS if pos > 0 else nb - 1
            ns_back = _nonseparable(pre[1, bf], 1.0 - pre[1, bf] - pre[2, bf], pre[4, bm],
                                    1.0 - pre[4, bm] - pre[5, bm], wb, tb, scoring, bonus,
                                    joint)
            # branch-free: each split's separable bound from the cheap terms (-inf when the
            # rows are out of order), then the few that can still reach thr
            for j in range(56):
                q = back_splits[a, j]
                b = choice_middle(q)
                f = choice_front(q)
                vb = v5[b]
                vf = v3[f]
                sep = cf[s3[f], 0] + cm[s5[b], 0] + sb + 1e-9
                evs[j] = sep if (vb <= va) & (vf <= vb) else -np.inf
            for j in range(56):
                if evs[j] + ns_back < thr:
                    continue
                q = back_splits[a, j]
                b = choice_middle(q)
                f = choice_front(q)
                vb = v5[b]
                vf = v3[f]
                if thr > -1e300:  # the split's own bound of the non-separable part
                    mb = s5[b]
                    ff = s3[f]
                    wf = cf[ff, 1]
                    xf = cf[ff, 2]
                    wm = cm[mb, 1]
                    xm = cm[mb, 2]
                    if evs[j] + _nonseparable(wf, 1.0 - wf - xf, wm, 1.0 - wm - xm, wb, tb,
                                              scoring, bonus, joint) < thr:
                        continue
                im = xslot[1, vb]
                if xseen[1, vb] != hid:  # first use in the hand
                    im = _exact(1, vb, hid, xseen, xslot, xv, xn, ks, an, nk, pw, pt, lr, coef,
                                roy, net)
                i0 = xslot[0, vf]
                if xseen[0, vf] != hid:  # first use in the hand
                    i0 = _exact(0, vf, hid, xseen, xslot, xv, xn, ks, an, nk, pw, pt, lr, coef,
                                roy, net)
                if simple:
                    ev = xv[0, i0, 5] + xv[1, im, 5] + sb
                    if exact_after and (ev + bonus * _scoop_bound(joint, xv[0, i0, 0],
                                                                  xv[1, im, 0], wb,
                                                                  xv[0, i0, 2], xv[1, im, 2],
                                                                  xb)
                                        < thr):
                        continue
                    if use_bonus:
                        ev += bonus * _scoop_odds(joint, xv[0, i0, 0], xv[1, im, 0], wb,
                                                  xv[0, i0, 2], xv[1, im, 2], xb)
                else:
                    ev = _table_ev(xv[0, i0, 0], xv[0, i0, 1], xv[1, im, 0], xv[1, im, 1], wb,
                                   tb, xv[0, i0, 3], xv[1, im, 3], rb, xv[0, i0, 4],
                                   xv[1, im, 4], lb, scoring, bonus, net, single, joint, True)
                if ev >= thr:
                    n, thr = _offer_k(ev, pack_split(a, b, f), vf, vb, va, k, n, bev, bp, brow,
                                      thr)
            if pos == 0:
                # no back below s_min can reach thr, whatever hand misses m ranks
                s_min = np.searchsorted(ubany[m], thr)
                for sa in range(nd):  # strength by strength, then the backs of each
                    va = dist5[sa]
                    if va < s_min:
                        continue
                    _cheap(2, va, ks, an, nk, gsep, slab, m, cb, sa)
                    fs = front_floor[va]
                    if fs < 0 or (_block_bound(cb[sa, 0], cb[sa, 1], cb[sa, 2], fs, va, pre,
                                               scoring, bonus, joint) + 1e-9 < thr):
                        continue
                    ub_plain = np.nan  # backs of one strength leave the same ranks: the same
                    cap_plain = -1     # caps and bound, unless a flush is left
                    fs_plain = -1
                    a = head[sa]
                    while a >= 0:
                        cx, sx = _left_counters(a, comb5, rcw, scw, hand_rc, hand_sc)
                        plain = not _flush_left(sx)
                        if plain and ub_plain == ub_plain:
                            ub = ub_plain
                            cap = cap_plain
                            fs = fs_plain
                        else:
                            cap, fs = _back_caps(cx, sx, va, lut)
                            ub = (-np.inf if fs < 0 else
                                  _block_bound(cb[sa, 0], cb[sa, 1], cb[sa, 2], fs, cap, pre,
                                               scoring, bonus, joint) + 1e-9)
                            if plain:
                                ub_plain = ub
                                cap_plain = cap
                                fs_plain = fs
                        if ub >= thr and a != top:
                            cand[nc] = a
                            cub[nc] = ub
                            kcap[nc] = cap
                            kfs[nc] = fs
                            nc += 1
                        a = nxt[a]
                order = np.argsort(-cub[:nc])
                for i in range(nc):  # the caps in visiting order
                    ccap[i] = kcap[order[i]]
                    cfs[i] = kfs[order[i]]
        _write_top(h, n, bev, bp, brow, out_split, out_ev, out_rows, out_n)
        for i in range(n):  # the odds of what it found, from its exact terms
            f = xslot[0, brow[i, 0]]
            mm = xslot[1, brow[i, 1]]
            b = xslot[2, brow[i, 2]]
            _write_odds(h, i, xv[0, f, 0], xv[1, mm, 0], xv[2, b, 0], xv[0, f, 1],
                        xv[1, mm, 1], xv[2, b, 1], joint, out_odds)


@njit
def lazy_top(hands, lk, model, sc, k, scratch, out):
    """:func:`_lazy_top` with the search kernels' groups (see
    :func:`solver.games.capsa.kernels.search.table_top`), ``model`` a
    :class:`~solver.games.capsa.prepared.LazyModel`."""
    card_word, rank5, flush5, rank3, comb5, comb3, back_splits, front_floor, lut = lk
    rm, gsep, slab, ubany = model
    alpha, pw, pt, lr, coef, roy = rm
    scoring, bonus, net, single, joint = sc
    slot, seen, _, _, xslot, xseen, epoch = scratch
    out_split, out_ev, out_rows, out_n, out_odds = out
    _lazy_top(hands, card_word, rank5, flush5, rank3, comb5, comb3, back_splits, front_floor,
              lut, alpha, pw, pt, lr, coef, gsep, slab, ubany, roy, scoring, bonus, net, single,
              joint, k, slot, seen, xslot, xseen, epoch, out_split, out_ev, out_rows, out_n,
              out_odds)
