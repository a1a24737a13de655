"""Naturals (dragon, six pairs, three straights, three flushes) from card counts."""

from __future__ import annotations

import numpy as np

from solver._jit import njit
from solver.games.capsa.kernels.encoding import rank_of, suit_of


@njit
def _shift_window(rc, start, size, delta):
    """Add ``delta`` to the counts of ``size`` consecutive ranks from ``start`` (-1: the ace
    below the two); True when each of them is then still at least 0 (at least 1 if
    ``delta`` is 0)."""
    ok = True
    for i in range(size):
        r = 12 if start + i < 0 else start + i
        rc[r] += delta
        if rc[r] < (1 if delta == 0 else 0):
            ok = False
    return ok


@njit
def natural_kind(hand):
    """Strongest natural by counts alone: 4 dragon, 3 six pairs, 2 three straights,
    1 three flushes, 0 none. (Which split shows it does not matter to the opponents' side.)"""
    rc = np.zeros(13, dtype=np.int64)
    sc = np.zeros(4, dtype=np.int64)
    for i in range(hand.shape[0]):
        rc[rank_of(hand[i])] += 1
        sc[suit_of(hand[i])] += 1
    distinct = 0
    pairs = 0
    for r in range(13):
        distinct += rc[r] > 0
        pairs += rc[r] // 2
    if distinct == 13:
        return 4
    if pairs >= 6:
        return 3
    # three straights: two 5-windows (start -1 is the wheel A-2-3-4-5) and a 3-window
    for s1 in range(-1, 9):
        if _shift_window(rc, s1, 5, -1):
            for s2 in range(s1, 9):
                if _shift_window(rc, s2, 5, -1):
                    for s3 in range(-1, 11):
                        # the 3 remaining cards are exactly this window
                        if _shift_window(rc, s3, 3, 0) and rc.sum() == 3:
                            _shift_window(rc, s2, 5, 1)
                            _shift_window(rc, s1, 5, 1)
                            return 2
                _shift_window(rc, s2, 5, 1)
        _shift_window(rc, s1, 5, 1)
    srt = np.sort(sc)
    if ((srt[0] == 0 and srt[1] == 0 and srt[2] == 0) or (srt[0] == 0 and srt[1] == 0 and srt[2] == 3)
            or (srt[0] == 0 and srt[1] == 0 and srt[2] == 5) or (srt[0] == 0 and srt[1] == 3 and srt[2] == 5)):
        return 1
    return 0


@njit
def natural_kinds(hands, out):
    for h in range(hands.shape[0]):
        out[h] = natural_kind(hands[h])
