"""Naturals (dragon, six pairs, three straights, three flushes) from card counts."""

from __future__ import annotations

import numpy as np

from solver._jit import njit


@njit
def natural_kind(hand):
    """Strongest natural by counts alone: 4 dragon, 3 six pairs, 2 three straights,
    1 three flushes, 0 none. (Which split shows it does not matter to the opponents' side.)"""
    rc = np.zeros(13, dtype=np.int64)
    sc = np.zeros(4, dtype=np.int64)
    for i in range(hand.shape[0]):
        rc[hand[i] >> 2] += 1
        sc[hand[i] & 3] += 1
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
        ok1 = True
        for i in range(5):
            r = 12 if s1 + i < 0 else s1 + i
            rc[r] -= 1
            if rc[r] < 0:
                ok1 = False
        if ok1:
            for s2 in range(s1, 9):
                ok2 = True
                for i in range(5):
                    r = 12 if s2 + i < 0 else s2 + i
                    rc[r] -= 1
                    if rc[r] < 0:
                        ok2 = False
                if ok2:
                    for s3 in range(-1, 11):
                        ok3 = True
                        for i in range(3):
                            r = 12 if s3 + i < 0 else s3 + i
                            if rc[r] < 1:
                                ok3 = False
                        if ok3:
                            # the 3 remaining cards are exactly this window
                            left = 0
                            for r in range(13):
                                left += rc[r]
                            if left == 3:
                                for i in range(5):
                                    r = 12 if s2 + i < 0 else s2 + i
                                    rc[r] += 1
                                for i in range(5):
                                    r = 12 if s1 + i < 0 else s1 + i
                                    rc[r] += 1
                                return 2
                for i in range(5):
                    r = 12 if s2 + i < 0 else s2 + i
                    rc[r] += 1
        for i in range(5):
            r = 12 if s1 + i < 0 else s1 + i
            rc[r] += 1
    srt = np.sort(sc)
    if ((srt[0] == 0 and srt[1] == 0 and srt[2] == 0) or (srt[0] == 0 and srt[1] == 0 and srt[2] == 3)
            or (srt[0] == 0 and srt[1] == 0 and srt[2] == 5) or (srt[0] == 0 and srt[1] == 3 and srt[2] == 5)):
        return 1
    return 0


@njit
def natural_kinds(hands, out):
    for h in range(hands.shape[0]):
        out[h] = natural_kind(hands[h])
