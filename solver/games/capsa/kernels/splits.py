"""The 72,072 ordered splits: counting, listing, and picking by row strengths."""

from __future__ import annotations

import numpy as np

from solver._jit import njit
from solver.games.capsa.kernels.evaluate import subset_strengths


@njit
def count_valid(v5, v3, front_pairs):
    """Number of ordered splits with back >= middle >= front. ``front_pairs`` (286, 126) lists,
    for each front, the unordered pairs of 5-card sets it leaves (``a | b << 16``): the
    front's strength is read once, and each pair counts once, twice when the two are equal."""
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
def count_valid_many(hands, card_word, rank5, flush5, rank3, comb5, comb3, front_pairs, out):
    """``count_valid`` for each row of an (N, 13) array of hands."""
    v5 = np.empty(comb5.shape[0], dtype=np.int32)
    v3 = np.empty(comb3.shape[0], dtype=np.int32)
    for h in range(hands.shape[0]):
        subset_strengths(hands[h], card_word, rank5, flush5, rank3, v5, v3)
        out[h] = count_valid(v5, v3, front_pairs)


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
def best_natural_split(v5, v3, ok5, ok3, pairs, valid_only=False):
    """The split whose front satisfies ``ok3`` and both 5-card rows ``ok5`` (and, with
    ``valid_only``, that is not a foul), maximising (back, middle, front) strengths; packed as
    in ``valid_splits``, or -1 when none. The first found wins ties."""
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
            if valid_only and vb < vf:
                continue
            if (va > bb or (va == bb and (vb > bm or (vb == bm and vf > bf)))):
                bb, bm, bf = va, vb, vf
                best = a | (b << 11) | (f << 22)
    return best


INDEX_BITS = 17  # room for every one of the 72,072 ordered splits
STRENGTH_BITS = 13  # strengths are below 8,192


@njit
def pareto_front(keys):
    """Indices of the splits no other split weakly dominates in all three row strengths, from
    ``keys`` sorted ascending: per split ``(top - back, top - middle, top - front, index)`` in
    bit fields (see :func:`solver.games.capsa.solve._candidates`), i.e. strongest back first,
    then middle, then front, then the earlier split. Of equal triples the earliest stays.

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
        out_rows[h, 0] = v3[best_p >> 22]
        out_rows[h, 1] = v5[(best_p >> 11) & 2047]
        out_rows[h, 2] = v5[best_p & 2047]


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
