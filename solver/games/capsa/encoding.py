"""How Capsa Susun packs a split and a card into integers, named once for every module.

**Packed split** (one ``int32``): the back's, middle's and front's subset indices (into
``lookup.COMB5``, ``COMB5`` and ``COMB3``: positions in the sorted 13-card hand) in 11-bit
fields, ``back | middle << 11 | front << 22``. ``lookup.SPLIT_PAIRS`` uses the same layout for
an unordered pair of 5-card sets ``(a, b)``, ``a`` in the back's field. Of splits of equal
value the smallest packed one is reported, so the layout is part of the answers.

**Back's choice** (``lookup.BACK_SPLITS``): a back's (middle, front) pair as
``middle | front << 11``.

**Card id**: ``rank * 4 + suit``, the layout :mod:`solver.cards` defines (``RANK_SHIFT``,
``SUIT_MASK``, its ``rank_of``/``suit_of``); :func:`rank_of` and :func:`suit_of` here read it
from whole arrays too. Every function takes a Python int or a NumPy integer array; the numba
kernels compile these same functions inline (:mod:`solver.games.capsa.kernels.encoding`).

>>> p = pack_split(1286, 3, 285)
>>> (split_back(p), split_middle(p), split_front(p)) == (1286, 3, 285)
True
>>> rank_of(51), suit_of(51)   # As: rank 12 (ace), suit 3 (spades)
(12, 3)
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np

from solver.cards import RANK_SHIFT, SUIT_MASK

__all__ = ["CHOICE_FRONT_SHIFT", "FRONT_SHIFT", "MIDDLE_SHIFT", "SUBSET_BITS", "SUBSET_MASK",
           "choice_front", "choice_middle", "pack_choice", "pack_split", "rank_of",
           "split_back", "split_front", "split_middle", "suit_of"]

SUBSET_BITS = 11  # room for 1,287 five-card subsets
SUBSET_MASK = (1 << SUBSET_BITS) - 1  # 2047
MIDDLE_SHIFT = SUBSET_BITS
FRONT_SHIFT = 2 * SUBSET_BITS
CHOICE_FRONT_SHIFT = SUBSET_BITS

Int = TypeVar("Int", int, np.integer, np.ndarray)


def pack_split(back: Int, middle: Int, front: Int) -> Int:
    """The packed split of three subset indices."""
    return back | (middle << MIDDLE_SHIFT) | (front << FRONT_SHIFT)


def split_back(packed: Int) -> Int:
    """The back's index into ``COMB5`` (for a split pair: the first set)."""
    return packed & SUBSET_MASK


def split_middle(packed: Int) -> Int:
    """The middle's index into ``COMB5`` (for a split pair: the second set)."""
    return (packed >> MIDDLE_SHIFT) & SUBSET_MASK


def split_front(packed: Int) -> Int:
    """The front's index into ``COMB3``."""
    return packed >> FRONT_SHIFT


def pack_choice(middle: Int, front: Int) -> Int:
    """A back's (middle, front) choice, as ``BACK_SPLITS`` holds it."""
    return middle | (front << CHOICE_FRONT_SHIFT)


def choice_middle(choice: Int) -> Int:
    return choice & SUBSET_MASK


def choice_front(choice: Int) -> Int:
    return choice >> CHOICE_FRONT_SHIFT


def rank_of(card: Int) -> Int:
    """The rank of a card id (or of each in an array), 0 (two) to 12 (ace)."""
    return card >> RANK_SHIFT


def suit_of(card: Int) -> Int:
    """The suit of a card id (or of each in an array), 0 to 3 (clubs, diamonds, hearts,
    spades)."""
    return card & SUIT_MASK
