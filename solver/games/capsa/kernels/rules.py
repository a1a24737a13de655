"""Scoring codes and the single-royalty rule, shared by every kernel that settles rows.

The codes are what ``strategy.play.SCORING_CODE`` hands to the kernels; numba reads these module
constants as compile-time integers.
"""

from __future__ import annotations

from solver._jit import njit

ONE_SIX, TWO_FOUR, SCOOP_ONE, BASIC = 0, 1, 2, 3


@njit(inline="always")
def keep_largest_royalty(rf, rm, rb):
    """Single royalty: only the largest of (front, middle, back) counts; on equal units the row
    nearer the back."""
    if rb >= rm and rb >= rf:
        return rf * 0, rm * 0, rb
    if rm >= rf:
        return rf * 0, rm, rb * 0
    return rf, rm * 0, rb * 0
