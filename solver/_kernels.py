"""Every numba kernel of the Capsa Susun solver: arrays in, arrays out, no Python objects.

Tables come in as arguments (see ``solver._tables``); hot loops stay flat (no helper calls
taking arrays inside them: numba adds reference counting there).
"""

from __future__ import annotations

import numpy as np

from solver._jit import njit

_SUIT_OFFSET = np.uint64(0x3333) << np.uint64(32)
_FLUSH_BITS = np.uint64(0x8888) << np.uint64(32)
_KEY_MASK = np.uint64(0xFFFFFFFF)
_SHIFT_RANKS = np.uint64(48)


@njit
def subset_strengths(hand, card_word, rank5, flush5, rank3, comb5, comb3, v5, v3):
    """Strength of each of the 1,287 five-card and 286 three-card subsets of a 13-card hand."""
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
def strength5(cards, card_word, rank5, flush5):
    """Strength of one 5-card row."""
    s = (card_word[cards[0]] + card_word[cards[1]] + card_word[cards[2]] + card_word[cards[3]]
         + card_word[cards[4]])
    if (s + _SUIT_OFFSET) & _FLUSH_BITS:
        return flush5[s >> _SHIFT_RANKS]
    return rank5[s & _KEY_MASK]


@njit
def strength3(cards, card_word, rank3):
    """Strength of one 3-card front."""
    return rank3[(card_word[cards[0]] + card_word[cards[1]] + card_word[cards[2]]) & _KEY_MASK]


@njit
def strengths5_all(cards_n5, card_word, rank5, flush5, out):
    """Strengths of many 5-card rows, ``cards_n5`` of shape (N, 5)."""
    for i in range(cards_n5.shape[0]):
        s = (card_word[cards_n5[i, 0]] + card_word[cards_n5[i, 1]] + card_word[cards_n5[i, 2]]
             + card_word[cards_n5[i, 3]] + card_word[cards_n5[i, 4]])
        if (s + _SUIT_OFFSET) & _FLUSH_BITS:
            out[i] = flush5[s >> _SHIFT_RANKS]
        else:
            out[i] = rank5[s & _KEY_MASK]


@njit
def count_valid(v5, v3, pairs):
    """Number of ordered splits with back >= middle >= front (branch-free over the pairs)."""
    n = 0
    for p in pairs:
        va = v5[p & 2047]
        vb = v5[(p >> 11) & 2047]
        vf = v3[p >> 22]
        lo = min(va, vb)
        n += (lo >= vf) * (1 + (va == vb))
    return n


@njit
def count_valid_many(hands, card_word, rank5, flush5, rank3, comb5, comb3, pairs, out):
    """``count_valid`` for each row of an (N, 13) array of hands."""
    v5 = np.empty(comb5.shape[0], dtype=np.int32)
    v3 = np.empty(comb3.shape[0], dtype=np.int32)
    for h in range(hands.shape[0]):
        subset_strengths(hands[h], card_word, rank5, flush5, rank3, comb5, comb3, v5, v3)
        n = 0
        for p in pairs:
            va = v5[p & 2047]
            vb = v5[(p >> 11) & 2047]
            vf = v3[p >> 22]
            lo = min(va, vb)
            n += (lo >= vf) * (1 + (va == vb))
        out[h] = n


@njit
def valid_splits(v5, v3, pairs, out):
    """Write every valid ordered split as ``back | middle << 11 | front << 22``; returns count."""
    n = 0
    for p in pairs:
        a = p & 2047
        b = (p >> 11) & 2047
        f = p >> 22
        va = v5[a]
        vb = v5[b]
        vf = v3[f]
        if va >= vb:
            if vb >= vf:
                out[n] = a | (b << 11) | (f << 22)
                n += 1
        if vb >= va:
            if va >= vf:
                out[n] = b | (a << 11) | (f << 22)
                n += 1
    return n


@njit
def best_natural_split(v5, v3, ok5, ok3, pairs):
    """The split whose front satisfies ``ok3`` and both 5-card rows ``ok5``, maximising
    (back, middle, front) strengths; packed as in ``valid_splits``, or -1 when none."""
    best = -1
    bb = -1
    bm = -1
    bf = -1
    for p in pairs:
        a = p & 2047
        b = (p >> 11) & 2047
        f = p >> 22
        if ok3[f] and ok5[a] and ok5[b]:
            va = v5[a]
            vb = v5[b]
            if va < vb:
                a, b = b, a
                va, vb = vb, va
            vf = v3[f]
            if (va > bb or (va == bb and (vb > bm or (vb == bm and vf > bf)))):
                bb, bm, bf = va, vb, vf
                best = a | (b << 11) | (f << 22)
    return best
