"""Splits an opponent profile weighs beside the table's best: the strongest back with each
way of setting the other 8 cards, and each front holding a pair or better with the best
(middle, back) of the other 10, each with a cheap value to rank them by (a few hundred steps a
hand instead of 72,072 splits); and the card-removal row terms of many hands' triples in one
call."""

from __future__ import annotations

import numpy as np

from solver._jit import njit
from solver.games.capsa.kernels.evaluate import subset_strengths
from solver.games.capsa.kernels.removal import removal_row_terms

BACK_SLOTS = 56  # ways to split 8 cards into a front of 3 and a middle of 5
PAIR_SLOTS = 48  # fronts holding a pair or better (past 48 in a hand, the first 48)
SLOTS = BACK_SLOTS + PAIR_SLOTS


@njit
def structured_rows(hands, card_word, rank5, flush5, rank3, mask5, mask3, index5, kind,
                    front_pairs, sep, out_rows, out_value):
    """Row strengths (N, SLOTS, 3) of each hand's structured splits and their separable value
    under ``sep`` (3, S) (-1 rows and -inf where none: a slot past the hand's fronts, or a
    foul): first the strongest back (the first of equal ones) with each front of the other 8
    cards, then each front of a pair or better with the valid (middle, back) of the other 10
    cards of the largest separable value (``front_pairs``: each front's 126 pairs)."""
    v5 = np.empty(mask5.shape[0], dtype=np.int32)
    v3 = np.empty(mask3.shape[0], dtype=np.int32)
    full = (1 << 13) - 1
    for h in range(hands.shape[0]):
        subset_strengths(hands[h], card_word, rank5, flush5, rank3, v5, v3)
        for k in range(out_rows.shape[1]):
            out_rows[h, k, 0] = -1
            out_rows[h, k, 1] = -1
            out_rows[h, k, 2] = -1
            out_value[h, k] = -np.inf
        top = 0
        for a in range(v5.shape[0]):
            if v5[a] > v5[top]:
                top = a
        rest = full ^ mask5[top]
        vb = v5[top]
        k = 0
        for f in range(mask3.shape[0]):
            if mask3[f] & ~rest:
                continue
            vm = v5[index5[rest ^ mask3[f]]]
            vf = v3[f]
            if vb >= vm and vm >= vf:
                out_rows[h, k, 0] = vf
                out_rows[h, k, 1] = vm
                out_rows[h, k, 2] = vb
                out_value[h, k] = sep[0, vf] + sep[1, vm] + sep[2, vb]
            k += 1
        k = BACK_SLOTS
        for f in range(mask3.shape[0]):
            if k >= out_rows.shape[1]:
                break
            vf = v3[f]
            if kind[vf] < 1:
                continue
            bv = -np.inf
            bb = -1
            bm = -1
            for j in range(front_pairs.shape[1]):
                p = front_pairs[f, j]
                a = v5[p & 0xFFFF]
                b = v5[p >> 16]
                if a < b:
                    a, b = b, a
                if b < vf:
                    continue
                val = sep[1, b] + sep[2, a]
                if val > bv:
                    bv = val
                    bb = a
                    bm = b
            if bb >= 0:
                out_rows[h, k, 0] = vf
                out_rows[h, k, 1] = bm
                out_rows[h, k, 2] = bb
                out_value[h, k] = sep[0, vf] + bv
            k += 1


@njit
def removal_row_terms_many(hands, rm, rows, out_w, out_t, out_l):
    """:func:`removal_row_terms` of each hand's rows (N, M, 3) into (N, M, 3) outputs (``rm``:
    the prepared removal model, :meth:`~solver.games.capsa.prepared.Prepared.kernel_group`)."""
    for h in range(hands.shape[0]):
        removal_row_terms(hands[h], rm, rows[h], out_w[h], out_t[h], out_l[h])
