"""The previous ``table`` batch search (one loose bound per back), kept callable so the
benchmark can print it beside the current search and the tests can check they agree."""

from __future__ import annotations

import numpy as np

from solver._jit import njit
from solver.games.capsa.kernels.encoding import (
    choice_front,
    choice_middle,
    pack_split,
    split_back,
    split_front,
    split_middle,
)
from solver.games.capsa.kernels.rules import BASIC, TWO_FOUR
from solver.games.capsa.kernels.table import NO_JOINT, _row_terms, _table_ev, _term_buffers
from solver.games.capsa.lookup import FLUSH_BITS as _FLUSH_BITS
from solver.games.capsa.lookup import KEY_MASK as _KEY_MASK
from solver.games.capsa.lookup import SHIFT_RANKS as _SHIFT_RANKS
from solver.games.capsa.lookup import SUIT_OFFSET as _SUIT_OFFSET


@njit
def subset_strengths(hand, card_word, rank5, flush5, rank3, comb5, comb3, v5, v3):
    """The previous subset evaluation: five (three) lookups and additions per subset."""
    w = np.empty(13, dtype=np.uint64)
    for i in range(13):
        w[i] = card_word[hand[i]]
    for i in range(comb5.shape[0]):
        s = w[comb5[i, 0]] + w[comb5[i, 1]] + w[comb5[i, 2]] + w[comb5[i, 3]] + w[comb5[i, 4]]
        if (s + _SUIT_OFFSET) & _FLUSH_BITS:
            v5[i] = flush5[s >> _SHIFT_RANKS]
        else:
            v5[i] = rank5[s & _KEY_MASK]
    for i in range(comb3.shape[0]):
        s = w[comb3[i, 0]] + w[comb3[i, 1]] + w[comb3[i, 2]]
        v3[i] = rank3[s & _KEY_MASK]


@njit
def count_valid(v5, v3, pairs):
    """The previous foul filter: every one of the 36,036 pairs, branch-free."""
    n = 0
    for p in pairs:
        va = v5[split_back(p)]
        vb = v5[split_middle(p)]
        vf = v3[split_front(p)]
        lo = min(va, vb)
        n += (lo >= vf) * (1 + (va == vb))
    return n


@njit
def table_best_many(hands, card_word, rank5, flush5, rank3, comb5, comb3, back_splits,
                    front_floor, pw, pt, lr, roy, scoring, bonus, net,
                    out_split, out_ev, out_rows):
    """Best split of each hand under the table strategy, with branch and bound over backs.

    The value grows with each row's strength (win chance, royalty), so a back ``a`` can at most
    reach the value of (front = the strongest front class <= v(a), middle = v(a), back = a);
    backs whose bound is below the best value found are skipped. Needs royalties that grow with
    strength and no single-royalty rule (callers check); same values as the full search."""
    n5 = comb5.shape[0]
    n3 = comb3.shape[0]
    v5 = np.empty(n5, dtype=np.int32)
    v3 = np.empty(n3, dtype=np.int32)
    (wm, tm, xm, rm, lm, sm, wb, tb, xb, rb, lb, sb,
     wf, tf, xf, rf, lf, sf) = _term_buffers(n5, n3)
    ub = np.empty(n5)
    for h in range(hands.shape[0]):
        subset_strengths(hands[h], card_word, rank5, flush5, rank3, comb5, comb3, v5, v3)
        _row_terms(v5, 1, pw, pt, lr, roy, net, wm, tm, xm, rm, lm, sm)
        _row_terms(v5, 2, pw, pt, lr, roy, net, wb, tb, xb, rb, lb, sb)
        _row_terms(v3, 0, pw, pt, lr, roy, net, wf, tf, xf, rf, lf, sf)
        top = 0
        for a in range(n5):
            s = v5[a]
            fs = front_floor[s]
            u = _table_ev(pw[0, fs], pt[0, fs], pw[1, s], pt[1, s], wb[a], tb[a],
                          roy[0, fs], roy[1, s], rb[a], lr[0, fs], lr[1, s], lb[a],
                          scoring, bonus, net, False, NO_JOINT, True)
            ub[a] = u
            if u > ub[top]:
                top = a
        best = -1e300
        best_p = -1
        for step in range(n5 + 1):
            a = top if step == 0 else step - 1
            if (step > 0 and a == top) or ub[a] <= best:
                continue
            va = v5[a]
            for j in range(56):
                q = back_splits[a, j]
                b = choice_middle(q)
                f = choice_front(q)
                vb = v5[b]
                if vb > va or v3[f] > vb:
                    continue
                if scoring == TWO_FOUR:
                    w1 = wf[f]
                    t1 = tf[f]
                    x1 = xf[f]
                    w2 = wm[b]
                    t2 = tm[b]
                    x2 = xm[b]
                    a0 = w1 * x2 + t1 * t2 + x1 * w2
                    ev = (sf[f] + sm[b] + sb[a] + w1 * w2 - x1 * x2
                          + (t1 * w2 + w1 * t2) * (wb[a] + tb[a])
                          - (t1 * x2 + x1 * t2) * (xb[a] + tb[a]) + a0 * (wb[a] - xb[a]))
                else:
                    ev = sf[f] + sm[b] + sb[a]
                    if scoring != BASIC:
                        ev += bonus * (wf[f] * wm[b] * wb[a] - xf[f] * xm[b] * xb[a])
                if ev > best:
                    best = ev
                    best_p = pack_split(a, b, f)
        out_split[h] = best_p
        out_ev[h] = best
        out_rows[h, 0] = v3[split_front(best_p)]
        out_rows[h, 1] = v5[split_middle(best_p)]
        out_rows[h, 2] = v5[split_back(best_p)]
