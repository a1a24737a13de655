"""How close the card-removal model's opponent tables come to the exact ones.

The ``table`` strategy values a hand against opponent tables shifted for the cards the hand
holds (:mod:`solver.games.capsa.strategy.removal`). The exact tables given my 13 cards are
those of the opponent hands that share no card with mine. This benchmark deals a pool of
hands set by the strategy itself, then for each of ``--hands`` random hands of mine keeps the
pool hands disjoint from it (about 1.3% of the pool), counts their rows, and compares the win
chance at every strength the hand's own rows can take (its 3-card and 5-card subsets' distinct
strengths) with what the model gives:

- ``none``: the tables without card removal;
- ``ranks``: the ranks' terms alone (the tables less any suit terms);
- ``ranks + suits``: the tables as shipped (the suits' terms where the preset has them).

Figures are mean squared errors of the win chance per row, less the pool's own sampling
variance (so 0 would be a perfect model), over the strengths of all the hands.

    python benchmarks/bench_capsa_removal_fidelity.py [--rules two-four] [--pool 3000000]
        [--hands 300] [--seed 77] [--tables FILE]

About 2 minutes on one core for the defaults (the pool is most of it).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.games.capsa.kernels import subset_strengths  # noqa: E402
from solver.games.capsa.lookup import CARD_WORD, TABLES  # noqa: E402
from solver.games.capsa.prepared import prepare  # noqa: E402
from solver.games.capsa.rules import resolve_rules  # noqa: E402
from solver.games.capsa.search import hand_tables  # noqa: E402
from solver.games.capsa.strategy.play import natural_codes, table_play  # noqa: E402
from solver.games.capsa.strategy.tables import StrategyTables, plain_tables, tables_for  # noqa: E402
from solver.games.capsa.strategy.train import deal_hands  # noqa: E402

CHUNK = 100_000


def pool(rules, st: StrategyTables, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` dealt hands (those without a natural) and the rows the strategy sets them."""
    rng = np.random.default_rng(seed)
    hands, rows = [], []
    for start in range(0, n, CHUNK):
        h = deal_hands(rng, min(CHUNK, n - start))
        if rules.naturals_on:
            h = h[natural_codes(h) == 0]
        hands.append(h)
        rows.append(table_play(h, rules, st)[2].astype(np.int64))
    return np.concatenate(hands), np.concatenate(rows)


def disjoint_from(hands: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """For pool hands (N, 13): a function from a hand of mine (13,) to the mask (N,) of the
    pool hands that share no card with it (the exact opponent of that hand)."""
    masks = np.zeros(len(hands), dtype=np.uint64)
    for j in range(13):
        masks |= np.left_shift(np.uint64(1), hands[:, j].astype(np.uint64))
    return lambda mine: (masks & np.uint64(sum(1 << int(c) for c in mine))) == 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default="two-four")
    ap.add_argument("--pool", type=int, default=3_000_000)
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--tables", default=None, help="tables file (default: the shipped one)")
    args = ap.parse_args(argv)
    rules = resolve_rules(args.rules)
    st = tables_for(rules, args.tables)
    if st.removal is None:
        ap.error("these tables have no card-removal terms")
    models = {"none": plain_tables(st), "ranks": replace(st, suit=None), "ranks + suits": st}
    start = time.perf_counter()
    hands, rows = pool(rules, st, args.pool, args.seed)
    disjoint = disjoint_from(hands)
    t = TABLES[rules.wheel]
    v5 = np.empty(1287, dtype=np.int32)
    v3 = np.empty(286, dtype=np.int32)
    err = {name: np.zeros(3) for name in models}
    noise = np.zeros(3)
    points = np.zeros(3)
    rng = np.random.default_rng(args.seed + 1)
    for _ in range(args.hands):
        mine = np.sort(rng.permutation(52)[:13]).astype(np.int64)
        keep = disjoint(mine)
        subset_strengths(mine, CARD_WORD, t.rank5, t.flush5, t.rank3, v5, v3)
        tabs = {name: hand_tables(prepare(rules, m), mine) for name, m in models.items()}
        for r in range(3):
            ss = np.unique(v3 if r == 0 else v5)
            p = np.bincount(rows[keep, r], minlength=t.size) / keep.sum()
            exact = (np.cumsum(p) - p)[ss]
            for name, tab in tabs.items():
                err[name][r] += ((tab.pw[r, ss] - exact) ** 2).sum()
            noise[r] += (exact * (1 - exact) / keep.sum()).sum()
            points[r] += len(ss)
    print(f"Card-removal fidelity, {args.rules}: "
          f"pool of {len(hands):,} hands set by the strategy, {args.hands} hands of mine, "
          f"{points.sum():,.0f} strengths; mean squared error of the win chance less the "
          f"pool's sampling variance ({noise.sum() / points.sum():.1e}), "
          f"{time.perf_counter() - start:.0f} s")
    print(f"  {'model':<14} {'all rows':>9} {'front':>9} {'middle':>9} {'back':>9}")
    for name in models:
        if name == "ranks + suits" and st.suit is None:
            continue
        per_row = (err[name] - noise) / points
        total = (err[name].sum() - noise.sum()) / points.sum()
        print(f"  {name:<14} {total:>9.2e} " + " ".join(f"{x:>9.2e}" for x in per_row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
