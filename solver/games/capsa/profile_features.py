"""What an opponent profile sees of a hand: the splits a sound player weighs, their features,
the naive rule's split, and random valid or fouled splits, for whole batches of hands.

The splits weighed are the ``table`` strategy's best :data:`TOP_K` distinct row-strength
triples (one best-k search for the whole batch, the hand's own card removal included) and two
a player with a habit may set: table's best of the splits that keep the strongest back, and of
those with a pair or better in front (:func:`structured`; a few dozen triples a hand, valued
as the search values them), so a profile costs about what setting the hand with ``table``
costs. Their features
(:data:`FEATURES`) are read from the rows and the tables' values; none needs the 72,072
splits listed.

>>> import numpy as np
>>> from solver.games.capsa.rules import resolve_rules
>>> from solver.games.capsa.strategy.play import deal
>>> r = resolve_rules("standard")
>>> c = considered(deal(np.random.default_rng(1), 4, 1)[:, 0], r)
>>> c.features.shape, bool(c.features[:, 0, FEATURES.index("top1")].all())
((4, 8, 5), True)
>>> rows, foul, _ = random_splits(deal(np.random.default_rng(2), 3, 1)[:, 0], r,
...                            np.random.default_rng(3), fouled=False)
>>> bool(((rows[:, 2] >= rows[:, 1]) & (rows[:, 1] >= rows[:, 0])).all()), foul.any()
(True, np.False_)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.games.capsa import kernels as K
from solver.games.capsa.kernels import profile as KP
from solver.games.capsa.kernels import search as KS
from solver.games.capsa.kernels import table as KT
from solver.games.capsa.lookup import (
    CARD_WORD,
    COMB3,
    FLUSH_BITS,
    FRONT_PAIRS,
    INDEX3,
    KEY_MASK,
    MASK5,
    SHIFT_RANKS,
    SUIT_OFFSET,
    TABLES,
)
from solver.games.capsa.prepared import prepare
from solver.games.capsa.rules import Rules
from solver.games.capsa.search import search_top
from solver.games.capsa.splits import unpack_split
from solver.games.capsa.strategy.play import naive_play
from solver.games.capsa.strategy.tables import StrategyTables, tables_for

TOP_K = 6  # the table's best distinct row-strength triples a profile weighs
ALL_SPLITS = 72_072  # ordered front/middle/back splits of 13 cards
FEATURES = ("gap", "top1", "front_pair", "back_top", "royalties")
FEATURE_WORDS = {
    "gap": "points per opponent given up against table's best split, by table's own values",
    "top1": "table's own best split",
    "front_pair": "a pair or better in front",
    "back_top": "the strongest back of the splits weighed",
    "royalties": "royalty units of the split",
}
_PAIR = 1  # HandKind.PAIR


@dataclass(frozen=True)
class Considered:
    """The splits weighed for N hands: ``rows`` (N, K, 3) strengths, ``packed`` (N, K) splits
    (-1 where a hand has fewer than K distinct triples; ``ok`` is False there), ``values``
    (N, K) table values against one opponent, ``features`` (N, K, F)."""

    rows: np.ndarray
    packed: np.ndarray
    ok: np.ndarray
    values: np.ndarray
    features: np.ndarray


def considered(hands: np.ndarray, rules: Rules, st: StrategyTables | None = None,
               k: int = TOP_K) -> Considered:
    """The splits weighed of each hand (N, 13) and their :data:`FEATURES`: table's best
    ``k`` distinct row-strength triples (best first), then the two structured ones
    (:func:`structured`), each where it is not one of those already."""
    st = st if st is not None else tables_for(rules)
    hands = np.ascontiguousarray(hands, dtype=np.int64).reshape(-1, 13)
    n = len(hands)
    top = search_top(hands, prepare(rules, st), k)
    rows = np.zeros((n, k + 2, 3), dtype=np.int64)
    rows[:, :k] = top.rows
    ok = np.zeros((n, k + 2), dtype=np.bool_)
    ok[:, :k] = np.arange(k)[None, :] < top.found[:, None]
    values = np.zeros((n, k + 2))
    values[:, :k] = np.where(ok[:, :k], top.ev, 0.0)
    packed = np.full((n, k + 2), -1, dtype=np.int64)
    packed[:, :k] = np.where(ok[:, :k], top.split, -1)
    extra, extra_values = structured(hands, rules, st)
    for j in range(2):
        rows[:, k + j] = extra[:, j]
        values[:, k + j] = extra_values[:, j]
        same = ((rows[:, :k + j] == extra[:, None, j]).all(axis=2) & ok[:, :k + j]).any(axis=1)
        ok[:, k + j] = (extra[:, j, 2] >= 0) & ~same
    kind = TABLES[rules.wheel].kind
    roy = sum(rules.royalty_array[r][rows[..., r]] for r in range(3))
    back = np.where(ok, rows[..., 2], -1)
    feats = np.zeros(rows.shape[:2] + (len(FEATURES),))
    feats[..., 0] = values - values[:, :1]
    feats[:, 0, 1] = 1.0
    feats[..., 2] = kind[rows[..., 0]] >= _PAIR
    feats[..., 3] = back == back.max(axis=1, keepdims=True)
    feats[..., 4] = roy
    feats[~ok] = 0.0
    return Considered(rows, packed, ok, np.where(ok, values, 0.0), feats)


_FULL = (1 << 13) - 1
_MASK5 = MASK5.astype(np.int64)
_MASK3 = (1 << COMB3.astype(np.int64)).sum(axis=1)
_INDEX5 = np.zeros(1 << 13, dtype=np.int64)
_INDEX5[_MASK5] = np.arange(len(_MASK5))
_KIND = {w: TABLES[w].kind.astype(np.int64) for w in TABLES}


SHORTLIST = 6  # structured splits of each kind valued exactly, best by separable value


def structured(hands: np.ndarray, rules: Rules, st: StrategyTables
               ) -> tuple[np.ndarray, np.ndarray]:
    """Two splits of each hand (N, 13) a player with a habit may set: table's best of those
    that keep the strongest back, and table's best of those with a pair or better in front,
    valued as the search values them: rows (N, 2, 3) (-1: none) and values (N, 2). Each kind's
    :data:`SHORTLIST` best by the rows' separable values (without card removal) are valued
    exactly (with it), so the best found is now and then not table's exact best."""
    t = TABLES[rules.wheel]
    n = len(hands)
    rows = np.empty((n, KP.SLOTS, 3), dtype=np.int64)
    proxy = np.empty((n, KP.SLOTS))
    sep = np.ascontiguousarray(prepare(rules, st).plain_model.terms[KS.S0:KS.S0 + 3])
    K.structured_rows(hands, CARD_WORD, t.rank5, t.flush5, t.rank3, _MASK5, _MASK3, _INDEX5,
                      _KIND[rules.wheel], FRONT_PAIRS, sep, rows, proxy)
    idx = np.arange(n)[:, None]
    short = np.concatenate([
        lo + np.argsort(-proxy[:, lo:hi], axis=1, kind="stable")[:, :SHORTLIST]
        for lo, hi in ((0, KP.BACK_SLOTS), (KP.BACK_SLOTS, KP.SLOTS))], axis=1)
    cand = rows[idx, short]
    values = split_values_many(hands, np.maximum(cand, 0), rules, st)
    values[cand[..., 2] < 0] = -np.inf
    out = np.full((n, 2, 3), -1, dtype=np.int64)
    best = np.zeros((n, 2))
    for j in range(2):
        part = values[:, j * SHORTLIST:(j + 1) * SHORTLIST]
        pick = j * SHORTLIST + part.argmax(axis=1)
        out[:, j] = cand[np.arange(n), pick]
        best[:, j] = values[np.arange(n), pick]
    best[~np.isfinite(best)] = 0.0
    return out, best


def split_values_many(hands: np.ndarray, rows: np.ndarray, rules: Rules,
                      st: StrategyTables) -> np.ndarray:
    """:func:`~solver.games.capsa.search.split_values` of each hand's rows (N, M, 3) at once:
    (N, M), to the last bit what the search gives the same split."""
    n, m = rows.shape[:2]
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    prep = prepare(rules, st)
    if st.removal is None:
        idx = np.arange(3)
        w, tie, lr = st.pw[idx, rows], st.pt[idx, rows], st.lr[idx, rows]
    else:
        w, tie, lr = (np.empty(rows.shape) for _ in range(3))
        K.removal_row_terms_many(hands, prep.kernel_group("removal_model"), rows, w, tie, lr)
    out = np.empty(n * m)
    KT.split_values(rows.reshape(-1, 3), np.ascontiguousarray(w.reshape(-1, 3)),
                    np.ascontiguousarray(tie.reshape(-1, 3)), np.ascontiguousarray(lr.reshape(-1, 3)),
                    st.roy, prep.kernel_group("scoring"), out)
    return out.reshape(n, m)


def naive_rows(hands: np.ndarray, rules: Rules) -> np.ndarray:
    """Row strengths (N, 3) of the naive rule's split (strongest back, then middle), from
    the greedy kernel (the full one for a hand it leaves: none seen in random deals)."""
    hands = np.ascontiguousarray(hands, dtype=np.int64).reshape(-1, 13)
    out = np.empty((len(hands), 3), dtype=np.int64)
    if len(hands) == 0:
        return out
    t = TABLES[rules.wheel]
    K.naive_rows_many(hands, CARD_WORD, t.rank5, t.flush5, t.rank3, MASK5, INDEX3, out)
    left = out[:, 2] < 0
    if left.any():
        out[left] = naive_play(np.ascontiguousarray(hands[left]), rules)[1]
    return out


def strengths(cards: np.ndarray, rules: Rules) -> np.ndarray:
    """Strength of each row of cards (..., 3) or (..., 5), from the same lookups as the
    kernels, in NumPy (a whole batch at once)."""
    t = TABLES[rules.wheel]
    s = CARD_WORD[cards].sum(axis=-1, dtype=np.uint64)
    if cards.shape[-1] == 3:
        return t.rank3[s & KEY_MASK].astype(np.int64)
    flush = ((s + SUIT_OFFSET) & FLUSH_BITS) != 0
    out = t.rank5[s & KEY_MASK].astype(np.int64)
    if flush.any():
        out[flush] = t.flush5[s[flush] >> SHIFT_RANKS]
    return out


TRIES = 32  # random splits drawn a hand before falling back (a foul is ~70% of splits)


def random_splits(hands: np.ndarray, rules: Rules, rng: np.random.Generator,
                  fouled: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A split of each hand (N, 13) drawn uniformly from its valid splits (``fouled``: from
    its fouled ones), by rejection: row strengths (N, 3), whether it fouls (N,) and its cards
    (N, 13: front, middle, back). Hands
    whose :data:`TRIES` draws all miss (about one in 100,000 for valid splits) get the naive
    split instead (a fouled draw that misses keeps its last, valid, split)."""
    n = len(hands)
    if n == 0:
        return (np.zeros((0, 3), dtype=np.int64), np.zeros(0, dtype=np.bool_),
                np.zeros((0, 13), dtype=np.int64))
    order = np.argsort(rng.random((n, TRIES, 13)), axis=2)
    cards = np.take_along_axis(np.asarray(hands, dtype=np.int64)[:, None, :], order, axis=2)
    f = strengths(cards[..., :3], rules)
    m = strengths(cards[..., 3:8], rules)
    b = strengths(cards[..., 8:], rules)
    bad = ~((b >= m) & (m >= f))
    hit = bad if fouled else ~bad
    first = hit.argmax(axis=1)
    idx = np.arange(n)
    rows = np.stack([f[idx, first], m[idx, first], b[idx, first]], axis=1)
    chosen = cards[idx, first]
    miss = ~hit[idx, first]
    foul = bad[idx, first].copy()
    if miss.any() and not fouled:  # a foul missed stays whatever split was drawn last
        h = np.ascontiguousarray(np.asarray(hands, dtype=np.int64)[miss])
        packed, naive = naive_play(h, rules)
        rows[miss] = naive
        foul[miss] = False
        chosen[miss] = [unpack_split(x, int(p)).cards for x, p in zip(h, packed)]
    return rows, foul, chosen
