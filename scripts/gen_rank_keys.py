"""Find the rank keys of the 5-card evaluator: 13 integers whose sums over any multiset of at
most 5 ranks (each rank at most 4 times) are all different, so a sum identifies the ranks.

Greedy: each key is the smallest integer above the previous one that keeps every sum unique.
A new key ``k`` taken ``j2`` times collides with ``j1 < j2`` copies exactly when
``k = (S_a - S_b) / (j2 - j1)`` for old sums ``S_a``, ``S_b`` of fitting sizes, so the forbidden
values are computed directly. Deterministic; prints the keys pasted into
``solver/games/capsa/lookup.py`` (the tests re-check uniqueness).

    python scripts/gen_rank_keys.py
"""

from __future__ import annotations

import numpy as np


def find_keys(max_cards: int = 5) -> list[int]:
    keys = [0]
    # sums[s] = sums of the multisets of exactly s cards over the ranks keyed so far
    # (rank 0 has key 0: s copies of it sum to 0, for s up to 4)
    sums = [np.array([0], dtype=np.int64) if s <= 4 else np.zeros(0, dtype=np.int64)
            for s in range(max_cards + 1)]
    for _rank in range(1, 13):
        upto = [np.concatenate(sums[: max_cards + 1 - j]) for j in range(max_cards + 1)]
        forbidden: set[int] = set()
        for j1 in range(0, 5):
            for j2 in range(j1 + 1, 5):
                if j2 > max_cards:
                    continue
                x, y = upto[j1], upto[j2]
                d = (x[:, None] - y[None, :]).ravel()
                step = j2 - j1
                d = d[(d > 0) & (d % step == 0)] // step
                forbidden.update(np.unique(d).tolist())
        k = keys[-1] + 1
        while k in forbidden:
            k += 1
        keys.append(k)
        new = [np.zeros(0, dtype=np.int64)] * (max_cards + 1)
        for s in range(max_cards + 1):
            parts = [sums[s - j] + j * k for j in range(0, min(4, s) + 1)]
            new[s] = np.unique(np.concatenate(parts))
        sums = new
    return keys


if __name__ == "__main__":
    print(find_keys())
