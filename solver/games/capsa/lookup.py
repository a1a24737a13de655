"""Lookup tables for the Capsa Susun kernels, built once at import with numpy (about 20 ms).

Every row (a 5-card hand or a 3-card front) gets a **strength**: a dense ordinal on one integer
scale shared by fronts and 5-card rows, so ``>=`` between a middle and a front *is* the foul
rule. The scale is built from a sort key per hand class:
``(category, rank groups by size then rank, ...)`` padded with -1, so a front's missing kickers
count lower than any card.

Card words (``CARD_WORD[card]``, 64-bit) let a kernel evaluate 5 cards with 4 additions:
bits 0-31 the rank key (sums of :data:`RANK_KEYS` identify a rank multiset), bits 32-47 one
4-bit counter per suit (offset by 3, so a flush sets bit 3 of its counter), bits 48-63 the rank
bits (their sum is the rank mask when the ranks differ, as they do in a flush).
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

import numpy as np

from solver.games.capsa.encoding import (
    pack_choice,
    pack_split,
    rank_of,
    split_back,
    split_front,
    split_middle,
    suit_of,
)

# Made by scripts/gen_rank_keys.py: every multiset of at most 5 ranks has its own key sum.
RANK_KEYS = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
KEY_SPACE = 4 * RANK_KEYS[12] + RANK_KEYS[11] + 1

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
ROYAL_FLUSH = 9  # a kind (for names and royalties), not a category of the ordering
KIND_NAMES = ("high_card", "pair", "two_pair", "trips", "straight", "flush", "full_house",
              "quads", "straight_flush", "royal_flush")
WHEEL_MODES = ("lowest", "second")

# A card's word: its rank key in bits 0-31, a per-suit counter (4 bits each) from bit 32, and
# its rank bit from bit 48. Adding 3 to each suit counter (``SUIT_OFFSET``) carries into the
# counter's top bit (``FLUSH_BITS``) only for five of a suit. The kernels use these constants.
SUIT_OFFSET = np.uint64(0x3333) << np.uint64(32)
FLUSH_BITS = np.uint64(0x8888) << np.uint64(32)
KEY_MASK = np.uint64(0xFFFFFFFF)
SHIFT_RANKS = np.uint64(48)


def _card_words() -> np.ndarray:
    words = np.zeros(52, dtype=np.uint64)
    for card in range(52):
        rank, suit = rank_of(card), suit_of(card)
        words[card] = (np.uint64(RANK_KEYS[rank]) | (np.uint64(1) << np.uint64(32 + 4 * suit))
                       | (np.uint64(1) << np.uint64(48 + rank)))
    return words


CARD_WORD = _card_words()


def _straight_top(ranks: set[int], wheel: str) -> float | None:
    """Top of a 5-rank straight on the doubled scale, or None. Wheel: 'lowest' or 'second'."""
    if len(ranks) != 5:
        return None
    lo, hi = min(ranks), max(ranks)
    if hi - lo == 4:
        return 2.0 * hi
    if ranks == {12, 0, 1, 2, 3}:
        return 2.0 * 3 if wheel == "lowest" else 2.0 * 11 + 1  # just below T-J-Q-K-A
    return None


def _groups(ranks: tuple[int, ...]) -> list[tuple[int, int]]:
    """(count, rank) groups, biggest group first, then higher rank."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    return sorted(((c, r) for r, c in counts.items()), reverse=True)


def _pad(key: tuple) -> tuple:
    return key + (-1,) * (7 - len(key))


def key5(ranks: tuple[int, ...], flush: bool, wheel: str) -> tuple:
    """Sort key of a 5-card hand from its ranks and whether it is a flush."""
    groups = _groups(ranks)
    shape = tuple(c for c, _ in groups)
    order = tuple(r for _, r in groups)
    top = _straight_top(set(ranks), wheel)
    if top is not None:
        return _pad((STRAIGHT_FLUSH if flush else STRAIGHT, top))
    if flush:
        return _pad((FLUSH,) + order)
    category = {(4, 1): QUADS, (3, 2): FULL_HOUSE, (3, 1, 1): TRIPS, (2, 2, 1): TWO_PAIR,
                (2, 1, 1, 1): PAIR, (1, 1, 1, 1, 1): HIGH_CARD}[shape]
    return _pad((category,) + order)


def key3(ranks: tuple[int, ...]) -> tuple:
    """Sort key of a 3-card front: high card < pair < trips, missing kickers lowest."""
    groups = _groups(ranks)
    shape = tuple(c for c, _ in groups)
    category = {(3,): TRIPS, (2, 1): PAIR, (1, 1, 1): HIGH_CARD}[shape]
    return _pad((category,) + tuple(r for _, r in groups))


def _rank_multisets(size: int) -> list[tuple[int, ...]]:
    return [m for m in combinations_with_replacement(range(13), size)
            if all(m.count(r) <= 4 for r in set(m))]


class StrengthTables:
    """Every table of one wheel mode: key-sum and flush lookups into the strength scale."""

    def __init__(self, wheel: str):
        self.wheel = wheel
        plain5 = _rank_multisets(5)
        flush5 = list(combinations(range(13), 5))
        fronts = _rank_multisets(3)
        keyed = ([(key5(m, False, wheel), 0, m) for m in plain5]
                 + [(key5(m, True, wheel), 1, m) for m in flush5]
                 + [(key3(m), 2, m) for m in fronts])
        distinct = sorted({k for k, _, _ in keyed})
        ordinal = {k: i for i, k in enumerate(distinct)}
        self.size = len(distinct)
        self.rank5 = np.full(KEY_SPACE, -1, dtype=np.int32)
        self.rank3 = np.full(KEY_SPACE, -1, dtype=np.int32)
        self.flush5 = np.full(1 << 13, -1, dtype=np.int32)
        self.kind = np.zeros(self.size, dtype=np.int8)  # KIND_NAMES index per strength
        self.is_front = np.zeros(self.size, dtype=np.bool_)
        self.sort_key = distinct
        for k, source, m in keyed:
            s = ordinal[k]
            kind = k[0]
            if kind == STRAIGHT_FLUSH and set(m) == {8, 9, 10, 11, 12}:
                kind = ROYAL_FLUSH
            self.kind[s] = kind
            keysum = sum(RANK_KEYS[r] for r in m)
            if source == 0:
                self.rank5[keysum] = s
            elif source == 1:
                self.flush5[sum(1 << r for r in m)] = s
            else:
                self.rank3[keysum] = s
                self.is_front[s] = True
        # for every strength, the strongest front strength at or below it (-1 if none)
        floor = np.where(self.is_front, np.arange(self.size), -1)
        self.front_floor = np.maximum.accumulate(floor).astype(np.int32)
        # for every strength, how many front strengths are at or below it: no 5-card row has a
        # front's strength, so a row is weaker than a front exactly when its count is smaller
        # (the foul count groups 5-card sets by these 456 values, not by 7,917 strengths)
        self.front_count = np.cumsum(self.is_front).astype(np.uint16)
        # strongest 5-card strength of each hand class by leading rank (-1: none): caps on
        # what a set of cards can make, for the search's bounds
        self.class_cap = np.full((QUADS + 1, 13), -1, dtype=np.int32)
        for s, k in enumerate(distinct):
            if not self.is_front[s] and k[0] in (TWO_PAIR, FULL_HOUSE, QUADS):
                self.class_cap[k[0], int(k[1])] = s
        # what the search's back caps read, in one array (rank5, rank3, class_cap, front_floor):
        # a kernel helper that takes one array costs one reference count, not four
        self.caps_lut = np.concatenate([self.rank5, self.rank3, self.class_cap.ravel(),
                                        self.front_floor]).astype(np.int32)


TABLES = {wheel: StrengthTables(wheel) for wheel in WHEEL_MODES}


def _combos(n: int, k: int) -> np.ndarray:
    return np.array(list(combinations(range(n), k)), dtype=np.int8)


COMB5 = _combos(13, 5)  # (1287, 5) positions in a 13-card hand
COMB3 = _combos(13, 3)  # (286, 3)


def _split_pairs() -> np.ndarray:
    """The 36,036 unordered pairs of disjoint 5-card subsets, with the front they leave.

    Packed per pair as a split (:func:`~solver.games.capsa.encoding.pack_split`), ``a`` in
    the back's field and ``b`` in the middle's, ``a < b`` indices into COMB5 and ``front`` an
    index into COMB3. An ordered split (back, middle) is a pair in one order or
    the other: 2 x 36,036 = 72,072 = C(13,5) x C(8,5).
    """
    weights = 1 << np.arange(13, dtype=np.int64)
    mask5 = (weights[COMB5]).sum(axis=1)
    mask3 = (weights[COMB3]).sum(axis=1)
    index5 = np.full(1 << 13, -1, dtype=np.int64)
    index5[mask5] = np.arange(len(mask5))
    index3 = np.full(1 << 13, -1, dtype=np.int64)
    index3[mask3] = np.arange(len(mask3))
    full = (1 << 13) - 1
    rest = full ^ mask5  # (1287,) 8-card complements
    bits = ((rest[:, None] >> np.arange(13)) & 1).astype(bool)
    positions = np.array([np.flatnonzero(row) for row in bits])  # (1287, 8)
    c85 = _combos(8, 5)
    mid_masks = (weights[positions[:, c85]]).sum(axis=2)  # (1287, 56)
    a = np.repeat(np.arange(len(mask5)), 56)
    b = index5[mid_masks.ravel()]
    front = index3[(full ^ mask5[a]) ^ mid_masks.ravel()]
    keep = a < b
    return pack_split(a[keep], b[keep], front[keep]).astype(np.int32)


SPLIT_PAIRS = _split_pairs()
N_ORDERED_SPLITS = 2 * len(SPLIT_PAIRS)


def _back_splits() -> np.ndarray:
    """For each back (index into COMB5), its 56 (middle, front) choices, packed by
    :func:`~solver.games.capsa.encoding.pack_choice`."""
    a, b, f = split_back(SPLIT_PAIRS), split_middle(SPLIT_PAIRS), split_front(SPLIT_PAIRS)
    backs = np.concatenate([a, b])
    packed = np.concatenate([pack_choice(b, f), pack_choice(a, f)])
    order = np.argsort(backs, kind="stable")
    return packed[order].reshape(len(COMB5), 56).astype(np.int32)


BACK_SPLITS = _back_splits()


def _front_pairs() -> np.ndarray:
    """For each front (index into COMB3), the 126 unordered pairs of 5-card sets it leaves:
    ``a | b << 16`` (indices into COMB5), for the foul filter's count."""
    a, b, f = split_back(SPLIT_PAIRS), split_middle(SPLIT_PAIRS), split_front(SPLIT_PAIRS)
    order = np.argsort(f, kind="stable")
    return (a[order] | (b[order] << 16)).reshape(len(COMB3), 126).astype(np.int32)


FRONT_PAIRS = _front_pairs()


def _masks() -> tuple[np.ndarray, np.ndarray]:
    """Each 5-card subset's positions as a 13-bit mask, and the COMB3 index of each 3-bit mask."""
    weights = 1 << np.arange(13)
    mask5 = (weights[COMB5]).sum(axis=1).astype(np.uint16)
    index3 = np.zeros(1 << 13, dtype=np.uint16)
    index3[(weights[COMB3]).sum(axis=1)] = np.arange(len(COMB3))
    return mask5, index3


MASK5, INDEX3 = _masks()
SUBSET_WORDS = (len(COMB5) + 63) // 64  # 21 words of 64 bits, one bit per 5-card subset


def _front_segments() -> np.ndarray:
    """The foul count's pair layout: every front's 126 pairs as runs of bits in two bitsets
    over the 5-card subsets (see ``kernels.splits.count_unfouled_pairs``).

    Of a front's two complementary 5-card sets, ``a`` (the one with the lower COMB5 index, so
    the one holding the lowest card left) has bit ``a`` in the first bitset, its partner ``b``
    bit ``1286 - b`` in the second (COMB5 reversed). COMB5 is lexicographic and taking the
    complement within 10 cards reverses that order, so as ``a`` grows the partner's reversed
    bit grows too: the j-th selected bit of one bitset pairs with the j-th of the other. A
    segment is a run of a front's pairs whose bits lie in one word of each bitset:
    ``(mask in the word of a, mask in the word of b, word of a | word of b << 8, front)``, word
    indices into the two bitsets laid end to end (21 + 21 words)."""
    a = FRONT_PAIRS & 0xFFFF
    b = FRONT_PAIRS >> 16
    order = np.argsort(a, axis=1, kind="stable")
    a = np.take_along_axis(a, order, axis=1).astype(np.int64)
    r = (len(COMB5) - 1) - np.take_along_axis(b, order, axis=1).astype(np.int64)
    assert np.all(np.diff(r, axis=1) > 0), "complements do not reverse the COMB5 order"
    wa, wb = a >> 6, r >> 6
    new = np.ones(a.shape, dtype=bool)
    new[:, 1:] = (wa[:, 1:] != wa[:, :-1]) | (wb[:, 1:] != wb[:, :-1])
    first = np.flatnonzero(new.ravel())
    one = np.uint64(1)
    front = np.repeat(np.arange(len(COMB3)), a.shape[1])[first]
    seg = np.empty((len(first), 4), dtype=np.uint64)
    seg[:, 0] = np.bitwise_or.reduceat(one << (a.ravel() & 63).astype(np.uint64), first)
    seg[:, 1] = np.bitwise_or.reduceat(one << (r.ravel() & 63).astype(np.uint64), first)
    seg[:, 2] = wa.ravel()[first] | (SUBSET_WORDS + wb.ravel()[first]) << 8
    seg[:, 3] = front
    return seg


FRONT_SEGMENTS = _front_segments()  # about 3,700 segments (13 a front), 117 KB
