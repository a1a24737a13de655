"""What an opponent profile sees of a hand: the splits a sound player weighs, their features,
the naive rule's split, and random valid or fouled splits, for whole batches of hands.

The splits weighed are the ``table`` strategy's best :data:`TOP_K` distinct row-strength
triples (one best-k search for the whole batch, the hand's own card removal included), so a
profile costs about what setting the hand with ``table`` costs. Their features
(:data:`FEATURES`) are read from the rows and the tables' values; none needs the 72,072
splits listed.

>>> import numpy as np
>>> from solver.games.capsa.rules import resolve_rules
>>> from solver.games.capsa.strategy.play import deal
>>> r = resolve_rules("standard")
>>> c = considered(deal(np.random.default_rng(1), 4, 1)[:, 0], r)
>>> c.features.shape, bool(c.features[:, 0, FEATURES.index("top1")].all())
((4, 6, 5), True)
>>> rows, foul, _ = random_splits(deal(np.random.default_rng(2), 3, 1)[:, 0], r,
...                            np.random.default_rng(3), fouled=False)
>>> bool(((rows[:, 2] >= rows[:, 1]) & (rows[:, 1] >= rows[:, 0])).all()), foul.any()
(True, np.False_)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.games.capsa import kernels as K
from solver.games.capsa.lookup import (
    CARD_WORD,
    FLUSH_BITS,
    INDEX3,
    KEY_MASK,
    MASK5,
    SHIFT_RANKS,
    SUIT_OFFSET,
    TABLES,
)
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
    """The splits weighed of each hand (N, 13) and their :data:`FEATURES`."""
    st = st if st is not None else tables_for(rules)
    hands = np.ascontiguousarray(hands, dtype=np.int64).reshape(-1, 13)
    top = search_top(hands, rules, st, k)
    rows = top.rows.astype(np.int64)
    ok = np.arange(k)[None, :] < top.found[:, None]
    values = np.where(ok, top.ev, 0.0)
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
    return Considered(rows, np.where(ok, top.split, -1), ok, values, feats)


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
