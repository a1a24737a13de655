"""Where ``table``'s exploitability comes from: the regret of its choice against the exact
opponent, and how much of it each part of the value model causes.

The exact opponent of a hand of mine is a pool of hands set by the strategy, kept to those that
share no card with mine (about 1.3% of the pool). For each of ``--hands`` random hands the
``table`` search's best ``--top`` splits are valued against half A of those pool hands (the
judge); the regret of a way of choosing among them is the judge's best value less the judge's
value of the split it chooses. Ways of choosing:

- ``table``: the model as it plays (its first split);
- ``table's rows, joint model``: the model's own row win/tie chances (the hand's tables), the
  non-separable part from the joint model (what ``table`` plays but for two-four's unit);
- ``exact rows, joint model``: the exact row win/tie chances (measured on half B of the pool
  hands), the non-separable part (scoop, two-four's unit) from the tables' joint model;
- ``exact rows, independent rows``: the same with the opponent's rows taken as independent;
- ``exact (half B)``: the exact values on half B, the floor the pool's own noise sets.

Figures are points a hand against one opponent (two-four: the rows, plus one to whoever wins
more rows; other scorings: rows and scoop; rule sets with royalties or naturals are refused),
with 95% CIs over hands. A
regret is not the exploitability (a best response chooses among every split, against its own
samples), but it says which part of the model costs the most.

    python benchmarks/bench_capsa_regret.py [--rules two-four] [--pool 6000000] [--hands 400]
        [--top 12] [--tables FILE]

About 5 minutes on one core for the defaults (the pool is most of it).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_capsa_removal_fidelity import disjoint_from, pool  # noqa: E402

from solver.games.capsa.kernel_args import kernel_params  # noqa: E402
from solver.games.capsa.kernels import table as KT  # noqa: E402
from solver.games.capsa.kernels.table import NO_JOINT  # noqa: E402
from solver.games.capsa.prepared import prepare  # noqa: E402
from solver.games.capsa.rules import Rules, resolve_rules  # noqa: E402
from solver.games.capsa.search import hand_tables, search_best  # noqa: E402
from solver.games.capsa.strategy.tables import tables_for  # noqa: E402


def exact_values(opp: np.ndarray, mine: np.ndarray, two_four: bool, bonus: float
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Values of my splits' rows (k, 3) against pool hands' rows (M, 3), and the row win and
    tie chances (k, 3)."""
    wins = opp[None] < mine[:, None]
    loss = opp[None] > mine[:, None]
    nw, nl = wins.sum(2), loss.sum(2)
    if two_four:
        extra = np.sign(nw - nl).mean(1)
    else:
        extra = bonus * ((nw == 3).mean(1) - (nl == 3).mean(1))
    w, x = wins.mean(1), loss.mean(1)
    return (nw - nl).mean(1) + extra, w, 1.0 - w - x


def majority_from_copula(w: np.ndarray, t: np.ndarray, joint: np.ndarray) -> np.ndarray:
    """Two-four's unit, P(more rows won than lost) - P(fewer), from row win/tie chances
    (k, 3) and the rows' copula (row ``r`` won when the opponent's uniform is below ``a = w``,
    tied up to ``b = w + t``; summing by parts over the 27 outcomes leaves 14 points of the
    copula, each read as the kernels read it)."""
    out = np.empty(len(w))
    for i, ((af, am, ab), (bf, bm, bb)) in enumerate(zip(w, w + t)):
        def c(u: float, v: float, z: float) -> float:
            return KT._grid_at(joint, 0, u, v, z)
        out[i] = (c(af, am, ab) - c(af, am, bb) - c(af, bm, ab) - c(af, bm, bb)
                  + c(af, bm, 1.0) + c(af, 1.0, bb) - c(bf, am, ab) - c(bf, am, bb)
                  + c(bf, am, 1.0) - c(bf, bm, ab) + c(bf, bm, bb) + c(bf, 1.0, ab)
                  + c(1.0, am, bb) + c(1.0, bm, ab) - 1.0)
    return out


def modelled(rules: Rules, splits: np.ndarray, w: np.ndarray, t: np.ndarray,
             joint: np.ndarray | None) -> np.ndarray:
    """Values of ``splits`` (k, 3 row strengths) from their row win/tie chances (k, 3), the
    non-separable part from ``joint`` (None: the rows independent): the kernels' own split
    values, but for two-four's unit from the copula, which no kernel plays."""
    w, t = np.ascontiguousarray(w), np.ascontiguousarray(t)
    if joint is not None and rules.scoring == "two-four":
        return (2 * w + t - 1).sum(1) + majority_from_copula(w, t, joint)
    out = np.empty(len(splits))
    KT.split_values(splits, w, t, np.zeros_like(w), rules.royalty_array,
                    (*kernel_params(rules), NO_JOINT if joint is None else joint), out)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default="two-four")
    ap.add_argument("--pool", type=int, default=6_000_000)
    ap.add_argument("--hands", type=int, default=400)
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--seed", type=int, default=93)
    ap.add_argument("--tables", default=None, help="tables file (default: the shipped one)")
    args = ap.parse_args(argv)
    rules = resolve_rules(args.rules)
    st = tables_for(rules, args.tables)
    prep = prepare(rules, st)
    if st.joint is None:
        ap.error("these tables have no joint model of the rows")
    if rules.royalty_array.any() or rules.naturals_on:
        ap.error(f"{args.rules}: royalties and naturals are not valued here (two-four, basic)")
    two_four = rules.scoring == "two-four"
    bonus = float(rules.scoop_bonus) if rules.scoring not in ("two-four", "basic") else 0.0
    start = time.perf_counter()
    hands, rows = pool(rules, st, args.pool, args.seed)
    disjoint = disjoint_from(hands)
    half_a = np.arange(len(hands)) % 2 == 0
    rng = np.random.default_rng(args.seed + 1)
    mine = np.array([np.sort(rng.permutation(52)[:13]) for _ in range(args.hands)],
                    dtype=np.int64)
    _, ev, top_rows, _ = search_best(mine, prep, args.top)
    names = ("table", "table's rows, joint model", "exact rows, joint model",
             "exact rows, independent rows", "exact (half B)")
    regret: dict[str, list[float]] = {name: [] for name in names}
    for h in range(args.hands):
        keep = disjoint(mine[h])
        splits = top_rows[h][ev[h] > -1e300].astype(np.int64)
        judge, _, _ = exact_values(rows[keep & half_a].astype(np.int64), splits, two_four, bonus)
        other, w, t = exact_values(rows[keep & ~half_a].astype(np.int64), splits, two_four,
                                   bonus)
        best = judge.max()
        own = hand_tables(prep, mine[h])
        w_own = np.stack([own.pw[r, splits[:, r]] for r in range(3)], axis=1)
        t_own = np.stack([own.pt[r, splits[:, r]] for r in range(3)], axis=1)
        picks = (0, int(np.argmax(modelled(rules, splits, w_own, t_own, st.joint))),
                 int(np.argmax(modelled(rules, splits, w, t, st.joint))),
                 int(np.argmax(modelled(rules, splits, w, t, None))),
                 int(np.argmax(other)))
        for name, pick in zip(names, picks):
            regret[name].append(best - judge[pick])
    print(f"Regret of table's choice among its best {args.top} splits, {args.rules}: pool of "
          f"{len(hands):,} hands set by the strategy, {args.hands} hands of mine, judged on "
          f"half the pool hands disjoint from each; points a hand per opponent, 95% CI; "
          f"{time.perf_counter() - start:.0f} s")
    for name in names:
        x = np.asarray(regret[name])
        print(f"  {name:<30} {x.mean():+.4f} +- {1.96 * x.std(ddof=1) / np.sqrt(len(x)):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
