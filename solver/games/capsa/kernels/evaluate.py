"""Strengths of 5-card rows and 3-card fronts from the rank-key lookup tables."""

from __future__ import annotations

import numpy as np

from solver._jit import njit
from solver.games.capsa.lookup import FLUSH_BITS as _FLUSH_BITS
from solver.games.capsa.lookup import KEY_MASK as _KEY_MASK
from solver.games.capsa.lookup import SHIFT_RANKS as _SHIFT_RANKS
from solver.games.capsa.lookup import SUIT_OFFSET as _SUIT_OFFSET


@njit
def subset_strengths(hand, card_word, rank5, flush5, rank3, v5, v3):
    """Strength of each of the 1,287 five-card and 286 three-card subsets of a 13-card hand,
    in ``COMB5`` / ``COMB3`` order (lexicographic): nested loops that reuse the partial sums
    of the first cards, so each subset costs one addition and one lookup."""
    w = np.empty(13, dtype=np.uint64)
    for i in range(13):
        w[i] = card_word[hand[i]]
    k = 0
    for i0 in range(9):
        s0 = w[i0]
        for i1 in range(i0 + 1, 10):
            s1 = s0 + w[i1]
            for i2 in range(i1 + 1, 11):
                s2 = s1 + w[i2]
                for i3 in range(i2 + 1, 12):
                    s3 = s2 + w[i3]
                    for i4 in range(i3 + 1, 13):
                        s = s3 + w[i4]
                        if (s + _SUIT_OFFSET) & _FLUSH_BITS:
                            v5[k] = flush5[s >> _SHIFT_RANKS]
                        else:
                            v5[k] = rank5[s & _KEY_MASK]
                        k += 1
    k = 0
    for i0 in range(11):
        for i1 in range(i0 + 1, 12):
            s1 = w[i0] + w[i1]
            for i2 in range(i1 + 1, 13):
                v3[k] = rank3[(s1 + w[i2]) & _KEY_MASK]
                k += 1


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
