"""A plain, obviously-correct Capsa Susun reference, written from the rules file alone.

Slow on purpose: rows are compared as Python tuples, splits enumerated with itertools.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

RANKS = "23456789TJQKA"


def _ranks(cards):
    return [c // 4 for c in cards]


def _groups(cards):
    """Ranks ordered by (count, rank), biggest group first."""
    counts = Counter(_ranks(cards))
    return sorted(counts, key=lambda r: (counts[r], r), reverse=True), sorted(counts.values(), reverse=True)


def straight_top(cards, wheel="lowest"):
    ranks = set(_ranks(cards))
    if len(ranks) != 5:
        return None
    if max(ranks) - min(ranks) == 4:
        return max(ranks) * 2
    if ranks == {12, 0, 1, 2, 3}:
        return 3 * 2 if wheel == "lowest" else 11 * 2 + 1
    return None


def key5(cards, wheel="lowest"):
    """(category, tie-breakers...) of a 5-card hand; categories 0 high card .. 8 straight flush."""
    order, shape = _groups(cards)
    flush = len({c % 4 for c in cards}) == 1
    top = straight_top(cards, wheel)
    if top is not None and flush:
        return (8, top)
    if shape == [4, 1]:
        return (7, *order)
    if shape == [3, 2]:
        return (6, *order)
    if flush:
        return (5, *order)
    if top is not None:
        return (4, top)
    if shape == [3, 1, 1]:
        return (3, *order)
    if shape == [2, 2, 1]:
        return (2, *order)
    if shape == [2, 1, 1, 1]:
        return (1, *order)
    return (0, *order)


def key3(cards):
    order, shape = _groups(cards)
    category = {(3,): 3, (2, 1): 1, (1, 1, 1): 0}[tuple(shape)]
    return (category, *order)


def row_key(cards, wheel="lowest"):
    """Comparable key on the shared scale; a front's missing kickers count below any card."""
    k = key5(cards, wheel) if len(cards) == 5 else key3(cards)
    return k + (-1,) * (7 - len(k))


def is_valid(front, middle, back, wheel="lowest"):
    return row_key(back, wheel) >= row_key(middle, wheel) >= row_key(front, wheel)


def all_splits(hand):
    """Every ordered (front, middle, back): back first, then middle, the rest is the front."""
    hand = list(hand)
    for back in combinations(hand, 5):
        rest = [c for c in hand if c not in back]
        for middle in combinations(rest, 5):
            front = tuple(c for c in rest if c not in middle)
            yield front, middle, back


def count_valid(hand, wheel="lowest"):
    keys = {}

    def key(cards):
        k = tuple(sorted(cards))
        if k not in keys:
            keys[k] = row_key(k, wheel)
        return keys[k]

    return sum(1 for f, m, b in all_splits(hand) if key(b) >= key(m) >= key(f))
