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


# ---------------------------------------------------------------- naturals, by enumeration
def _is_straight3(cards):
    ranks = sorted(c // 4 for c in cards)
    return len(set(ranks)) == 3 and (ranks[2] - ranks[0] == 2 or ranks == [0, 1, 12])


def _same_suit(cards):
    return len({c % 4 for c in cards}) == 1


def best_natural_split(hand, kind, wheel="lowest"):
    """Best (back, middle, front) keys over every split showing three straights / flushes."""
    best = None
    for f, m, b in all_splits(hand):
        if kind == "three_straights":
            ok = _is_straight3(f) and straight_top(m, wheel) is not None and straight_top(b, wheel) is not None
        else:
            ok = _same_suit(f) and _same_suit(m) and _same_suit(b)
        if ok:
            kb, km = row_key(b, wheel), row_key(m, wheel)
            key = (max(kb, km), min(kb, km), row_key(f, wheel))
            best = key if best is None or key > best else best
    return best


# ---------------------------------------------------------------- pairwise settlement
STANDARD_ROYALTY = {("front", 3): 3, ("middle", 6): 2, ("middle", 7): 8, ("back", 7): 4}


def royalty(row, cards, wheel="lowest"):
    """Standard royalty table, read straight from the rules file."""
    k = row_key(cards, wheel)
    if k[0] == 8:
        royal = sorted(c // 4 for c in cards) == [8, 9, 10, 11, 12]
        return {"middle": 14 if royal else 10, "back": 7 if royal else 5}.get(row, 0)
    return STANDARD_ROYALTY.get((row, k[0]), 0)


def settle(a, b, scoring="one-six", royalties=True, mode="winner", single=False, wheel="lowest"):
    """Points of arrangement ``a`` (front, middle, back) against ``b``."""
    names = ("front", "middle", "back")

    def fouled(x):
        return not is_valid(x[0], x[1], x[2], wheel)

    def roy(x):
        if fouled(x) or not royalties:
            return [0, 0, 0]
        u = [royalty(n, r, wheel) for n, r in zip(names, x)]
        if single and any(u):
            top = max(u)
            keep = max(i for i in range(3) if u[i] == top)
            u = [u[i] if i == keep else 0 for i in range(3)]
        return u

    fa, fb = fouled(a), fouled(b)
    if fa and fb:
        return 0
    if fa:
        rows = [-1, -1, -1]
    elif fb:
        rows = [1, 1, 1]
    else:
        rows = []
        for x, y in zip(a, b):
            kx, ky = row_key(x, wheel), row_key(y, wheel)
            rows.append(1 if kx > ky else -1 if kx < ky else 0)
    won, lost = rows.count(1), rows.count(-1)
    pts = sum(rows)
    if scoring == "one-six":
        pts += 3 if won == 3 else -3 if lost == 3 else 0
    elif scoring == "scoop-one":
        pts += 1 if won == 3 else -1 if lost == 3 else 0
    elif scoring == "two-four":
        pts += 1 if won > lost else -1 if lost > won else 0
    ra, rb = roy(a), roy(b)
    if mode == "net":
        pts += sum(ra) - sum(rb)
    else:
        pts += sum(ra[i] if rows[i] > 0 else -rb[i] if rows[i] < 0 else 0 for i in range(3))
    return pts
