"""The 72,072 ordered splits: counting, listing, and picking by row strengths."""

from __future__ import annotations

import numpy as np

from solver._jit import njit
from solver.games.capsa.kernels.bits import FAST_PEXT, pext, popcount
from solver.games.capsa.kernels.encoding import (
    pack_split,
    rank_of,
    split_back,
    split_front,
    split_middle,
)
from solver.games.capsa.kernels.evaluate import subset_strengths

N_SUBSETS5 = 1287
N_FRONTS = 286
N_PAIRS = 36036  # unordered (back, middle) pairs: 126 for each front
WORDS = 21  # 64-bit words of a bitset over the 5-card subsets


@njit
def count_valid(v5, v3, front_pairs):
    """Number of ordered splits with back >= middle >= front. ``front_pairs`` (286, 126) lists,
    for each front, the unordered pairs of 5-card sets it leaves (``a | b << 16``): the
    front's strength is read once, and each pair counts once, twice when the two are equal.
    Reads every pair (two gathers each): the method where ``pext`` is slow."""
    n = 0
    for f in range(front_pairs.shape[0]):
        vf = v3[f]
        m = 0
        for q in front_pairs[f]:
            va = v5[q & 0xFFFF]
            vb = v5[q >> 16]
            m += (va >= vf) & (vb >= vf)
            m += (va == vb) & (va >= vf)
        n += m
    return n


@njit
def count_unfouled_pairs(v5, v3, front_count, segments):
    """Number of unordered (back, middle) pairs with both rows at least their front, the 36,036
    pairs counted 64 bits at a time instead of one by one (ties are left to
    :func:`count_tied_pairs`).

    A 5-card set is weaker than a front when its ``front_count`` code is smaller. The 5-card
    sets take few distinct codes (about 60 in a random hand), so one bitset row per code, ORed
    into its successors, gives for every front the bitset of the sets weaker than it: by
    COMB5 index in words 0-20, by reversed index in words 21-41. A front's pairs are its
    ``segments`` (``lookup.FRONT_SEGMENTS``): in each, ``pext`` packs the bits of the pairs'
    first sets and of their partners into the same order, so an OR and a popcount count the
    pairs that hold a weaker set."""
    code3 = np.empty(N_FRONTS, dtype=np.uint16)
    for f in range(N_FRONTS):
        code3[f] = front_count[v3[f]]
    below = np.zeros(np.int64(front_count[front_count.shape[0] - 1]) + 2, dtype=np.uint16)
    code5 = np.empty(N_SUBSETS5, dtype=np.uint16)
    for i in range(N_SUBSETS5):
        c = front_count[v5[i]]
        code5[i] = c
        below[c + np.uint16(1)] = 1
    n_codes = np.uint16(0)
    for c in range(below.shape[0]):  # then: how many distinct 5-set codes are below c
        n_codes += below[c]
        below[c] = n_codes
    # row r (0..n_codes): the sets whose code has fewer than r distinct codes below it
    rows = np.zeros((np.int64(n_codes) + 1, 2 * WORDS), dtype=np.uint64)
    one = np.uint64(1)
    low = np.uint64(63)
    for i in range(N_SUBSETS5):
        row = np.int64(below[code5[i]]) + 1
        rows[row, i >> 6] |= one << (np.uint64(i) & low)
        r = N_SUBSETS5 - 1 - i
        rows[row, WORDS + (r >> 6)] |= one << (np.uint64(r) & low)
    for level in range(1, rows.shape[0]):
        for w in range(2 * WORDS):
            rows[level, w] |= rows[level - 1, w]
    flat = rows.ravel()
    base = np.empty(N_FRONTS, dtype=np.uint64)  # a front's row: the sets weaker than it
    for f in range(N_FRONTS):
        base[f] = np.uint64(below[code3[f]]) * np.uint64(2 * WORDS)
    byte = np.uint64(255)
    n_bad = np.uint64(0)
    for j in range(segments.shape[0]):
        b = base[segments[j, 3]]
        words = segments[j, 2]
        # numba intrinsics: mypy reads their typing signature, not the call's
        n_bad += popcount(pext(flat[b + (words & byte)], segments[j, 0])  # type: ignore[call-arg]
                          | pext(flat[b + (words >> np.uint64(8))], segments[j, 1]))  # type: ignore[call-arg]
    return N_PAIRS - np.int64(n_bad)


ALL_CARDS = (1 << 13) - 1  # every position of a hand, as a 13-bit mask


@njit
def lone_cards(hand):
    """Positions (a 13-bit mask) no tied pair can use: two disjoint 5-card sets of equal
    strength have the same ranks, so neither holds a card whose rank no other card of the hand
    has, and the two need a rank twice five times over. ``ALL_CARDS`` when the hand has fewer
    than five such pairs (then nothing ties)."""
    counts = np.zeros(13, dtype=np.int64)
    for i in range(hand.shape[0]):
        counts[rank_of(hand[i])] += 1
    pairs = 0
    for r in range(13):
        pairs += counts[r] >> 1
    if pairs < 5:
        return np.uint16(ALL_CARDS)
    lone = np.uint16(0)
    for i in range(hand.shape[0]):
        if counts[rank_of(hand[i])] == 1:
            lone |= np.uint16(1 << i)
    return lone


@njit
def count_tied_pairs(v5, v3, mask5, index3, lone):
    """Number of unordered pairs of disjoint, equally strong 5-card sets at least as strong as
    the front they leave: each is valid in both orders, one more split than
    :func:`count_unfouled_pairs` counts. Sets holding a card of ``lone`` are left out; the
    others are chained by strength, so only equal ones meet."""
    head = np.full(1 << 13, -1, dtype=np.int16)  # strengths are below 8,192
    chain = np.empty(N_SUBSETS5, dtype=np.int16)
    full = np.uint16(ALL_CARDS)
    n = 0
    for i in range(N_SUBSETS5):
        m = mask5[i]
        if m & lone:
            continue
        v = v5[i]
        j = head[v]
        while j >= 0:
            other = mask5[j]
            n += ((m & other) == 0) & (v >= v3[index3[full ^ m ^ other]])
            j = chain[j]
        chain[i] = head[v]
        head[v] = i
    return n


@njit
def _count_hand(hand, card_word, rank5, flush5, rank3, front_count, segments, mask5, index3,
                front_pairs, v5, v3):
    subset_strengths(hand, card_word, rank5, flush5, rank3, v5, v3)
    if not FAST_PEXT:
        return count_valid(v5, v3, front_pairs)
    n = count_unfouled_pairs(v5, v3, front_count, segments)
    lone = lone_cards(hand)
    if lone != ALL_CARDS:  # about one random hand in eleven
        n += count_tied_pairs(v5, v3, mask5, index3, lone)
    return n


@njit
def count_valid_hand(hand, card_word, rank5, flush5, rank3, front_count, segments, mask5,
                     index3, front_pairs):
    """Valid ordered splits of one hand of 13 card ids, from the cards in one call (no Python
    between evaluating and counting); -1 when the ids are not 13 distinct cards."""
    if hand.shape[0] != 13:
        return -1
    seen = np.uint64(0)
    for i in range(13):
        c = hand[i]
        if c < 0 or c >= 52:
            return -1
        bit = np.uint64(1) << np.uint64(c)
        if seen & bit:
            return -1
        seen |= bit
    v5 = np.empty(N_SUBSETS5, dtype=np.int32)
    v3 = np.empty(N_FRONTS, dtype=np.int32)
    return _count_hand(hand, card_word, rank5, flush5, rank3, front_count, segments, mask5,
                       index3, front_pairs, v5, v3)


@njit
def count_valid_many(hands, card_word, rank5, flush5, rank3, front_count, segments, mask5,
                     index3, front_pairs, out):
    """:func:`count_valid_hand` for each row of an (N, 13) array of valid hands."""
    v5 = np.empty(N_SUBSETS5, dtype=np.int32)
    v3 = np.empty(N_FRONTS, dtype=np.int32)
    for h in range(hands.shape[0]):
        out[h] = _count_hand(hands[h], card_word, rank5, flush5, rank3, front_count, segments,
                             mask5, index3, front_pairs, v5, v3)


@njit
def valid_splits(v5, v3, pairs, out):
    """Write every valid ordered split, packed (:mod:`solver.games.capsa.encoding`); returns
    the count."""
    n = 0
    for p in pairs:
        a = split_back(p)
        b = split_middle(p)
        f = split_front(p)
        va = v5[a]
        vb = v5[b]
        vf = v3[f]
        if va >= vb:
            if vb >= vf:
                out[n] = pack_split(a, b, f)
                n += 1
        if vb >= va:
            if va >= vf:
                out[n] = pack_split(b, a, f)
                n += 1
    return n


@njit
def best_natural_split(v5, v3, ok5, ok3, pairs, valid_only=False):
    """The split whose front satisfies ``ok3`` and both 5-card rows ``ok5`` (and, with
    ``valid_only``, that is not a foul), maximising (back, middle, front) strengths; packed as
    in ``valid_splits``, or -1 when none. The first found wins ties."""
    best = -1
    bb = -1
    bm = -1
    bf = -1
    for p in pairs:
        a = split_back(p)
        b = split_middle(p)
        f = split_front(p)
        if ok3[f] and ok5[a] and ok5[b]:
            va = v5[a]
            vb = v5[b]
            if va < vb:
                a, b = b, a
                va, vb = vb, va
            vf = v3[f]
            if valid_only and vb < vf:
                continue
            if (va > bb or (va == bb and (vb > bm or (vb == bm and vf > bf)))):
                bb, bm, bf = va, vb, vf
                best = pack_split(a, b, f)
    return best


INDEX_BITS = 17  # room for every one of the 72,072 ordered splits
STRENGTH_BITS = 13  # strengths are below 8,192


@njit
def pareto_front(keys):
    """Indices of the splits no other split weakly dominates in all three row strengths, from
    ``keys`` sorted ascending: per split ``(top - back, top - middle, top - front, index)`` in
    bit fields (see :func:`solver.games.capsa.methods.exact.candidates`), i.e. strongest back
    first, then middle, then front, then the earlier split. Of equal triples the earliest stays.

    Every split seen before has a back at least as strong, so a split is dominated when one
    seen before has middle and front at least as strong: a Fenwick tree over the middle's
    strength keeps the strongest front seen at or above each middle."""
    keep = np.empty(keys.shape[0], dtype=np.int64)
    top = (1 << STRENGTH_BITS) - 1
    tree = np.full(top + 2, -1, dtype=np.int64)  # prefix maxima over top - middle
    k = 0
    prev = -1
    for key in keys:
        triple = key >> INDEX_BITS
        if triple == prev:
            continue  # same rows as the split just seen: dominated by it
        prev = triple
        f = top - (triple & top)
        m_pos = ((triple >> STRENGTH_BITS) & top) + 1
        best = -1
        i = m_pos
        while i > 0:
            best = max(best, tree[i])
            i -= i & -i
        if best >= f:
            continue
        keep[k] = key & ((1 << INDEX_BITS) - 1)
        k += 1
        i = m_pos
        while i <= top + 1:
            if tree[i] < f:
                tree[i] = f
            i += i & -i
    return keep[:k]


@njit
def naive_best_many(hands, card_word, rank5, flush5, rank3, comb5, comb3, pairs, out_split, out_rows):
    """The naive strategy: the valid split with the strongest back, then the strongest middle."""
    v5 = np.empty(comb5.shape[0], dtype=np.int32)
    v3 = np.empty(comb3.shape[0], dtype=np.int32)
    ok5 = np.ones(comb5.shape[0], dtype=np.bool_)
    ok3 = np.ones(comb3.shape[0], dtype=np.bool_)
    for h in range(hands.shape[0]):
        subset_strengths(hands[h], card_word, rank5, flush5, rank3, v5, v3)
        best_p = best_natural_split(v5, v3, ok5, ok3, pairs, True)
        out_split[h] = best_p
        out_rows[h, 0] = v3[split_front(best_p)]
        out_rows[h, 1] = v5[split_middle(best_p)]
        out_rows[h, 2] = v5[split_back(best_p)]


@njit
def top_indices(values, keys, n, m):
    """Indices of the ``m`` largest of ``values[:n]`` (ties: smaller ``keys`` first), best first;
    one pass with a small sorted buffer instead of a full sort."""
    m = min(m, n)
    idx = np.empty(m, dtype=np.int64)
    k = 0
    for i in range(n):
        v = values[i]
        if k == m:
            last = idx[k - 1]
            if v < values[last] or (v == values[last] and keys[i] >= keys[last]):
                continue
            k -= 1
        j = k
        while j > 0:
            q = idx[j - 1]
            if values[q] > v or (values[q] == v and keys[q] < keys[i]):
                break
            idx[j] = q
            j -= 1
        idx[j] = i
        k += 1
    return idx[:k]


@njit
def naive_rows_many(hands, card_word, rank5, flush5, rank3, mask5, index3, out_rows):
    """The naive strategy's row strengths (front, middle, back) of each hand, greedily: of the
    strongest backs, the valid split with the strongest middle, then front (what
    :func:`naive_best_many` finds over every pair, in a few thousand steps instead of 36,036);
    a hand none of whose strongest backs leaves a valid split gets -1 rows (the caller asks
    :func:`naive_best_many`)."""
    v5 = np.empty(mask5.shape[0], dtype=np.int32)
    v3 = np.empty(286, dtype=np.int32)
    full = (1 << 13) - 1
    for h in range(hands.shape[0]):
        subset_strengths(hands[h], card_word, rank5, flush5, rank3, v5, v3)
        top = -1
        for a in range(v5.shape[0]):
            if v5[a] > top:
                top = v5[a]
        bm = -1
        bf = -1
        for a in range(v5.shape[0]):
            if v5[a] != top:
                continue
            ma = mask5[a]
            for b in range(v5.shape[0]):
                mb = mask5[b]
                if ma & mb:
                    continue
                vb = v5[b]
                if vb < bm:
                    continue
                vf = v3[index3[full ^ (ma | mb)]]
                if vb < vf:
                    continue
                if vb > bm or vf > bf:
                    bm = vb
                    bf = vf
        out_rows[h, 0] = bf
        out_rows[h, 1] = bm
        out_rows[h, 2] = top if bm >= 0 else -1
