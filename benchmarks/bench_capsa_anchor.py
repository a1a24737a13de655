"""Monte Carlo keeps table's split unless another beats it by ``ANCHOR_Z`` standard errors:
what each choice of Z wins and loses, heads-up at the advice's samples.

For each style of ``bench_capsa_exploit.py`` (``table``: plain Monte Carlo, its opponents set
by ``table``; any other: a profile fitted on 500 of the style's own hands), random hands are
scored by Monte Carlo (``--samples``, adaptive, as the advice does); where the best on those
deals is not table's split, each Z either keeps table's split or plays the best. Each pick is
then scored against table's split on fresh deals of the unseen cards set by the style itself
(``eval`` of them): the gain a hand over table's split, with its 95% CI, for every Z on the
same hands (so the Z differ by the hands they let go, not by luck). The goal for ``table``:
a loss of at most 0.002 a hand; against the others, as much of the gain as can be kept.

Run it (quick default; the recorded run's flags are in the record)::

    .venv/bin/python benchmarks/bench_capsa_anchor.py
    .venv/bin/python benchmarks/bench_capsa_anchor.py \\
        --runs table:1000:2000,naive:600:2000,back-first:400:300,pairs-in-front:400:300 \\
        --record benchmarks/data/records/capsa-anchor-z.jsonl
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # _common, also when loaded by a test

import numpy as np  # noqa: E402
from _common import append_records, pin_one_core  # noqa: E402
from bench_capsa_exploit import STYLES, shown_hands  # noqa: E402

from solver.games.capsa.methods import montecarlo as mc
from solver.games.capsa.methods.exact import (
    candidates,
    opponent_rows,
    score_splits,
    valid_splits,
)
from solver.games.capsa.prepared import prepare
from solver.games.capsa.profile import profile_setter
from solver.games.capsa.referee import row_strengths
from solver.games.capsa.rules import Rules, resolve_rules
from solver.games.capsa.strategy.play import deal
from solver.games.capsa.strategy.tables import tables_for

ZS = (0.0, 1.0, 1.5, 2.0, 2.5, 3.0)


def sweep(style: str, hands: int, eval_samples: int, samples: int, seed: int, r: Rules,
          zs: tuple[float, ...] = ZS) -> dict:
    """The gain a hand over table's split of each Z's pick (0 where it keeps table's)."""
    st = tables_for(r)
    prep = prepare(r, st)
    prof = None if style == "table" else shown_hands(STYLES[style], 500, r, seed + 1500)
    rng = np.random.default_rng(seed + 9)

    def style_rows(flat: np.ndarray, rules: Rules, _: object
                   ) -> tuple[None, None, np.ndarray]:
        arrs = STYLES[style](flat, rules, rng)
        return None, None, np.array([row_strengths(a, rules) for a in arrs], dtype=np.int64)

    test = np.sort(deal(np.random.default_rng(seed + 5), hands, 1)[:, 0], axis=1)
    gains = np.zeros((hands, len(zs)))
    t = time.perf_counter()
    for i, h in enumerate(test):
        sp = valid_splits(h, r)
        cand = candidates(sp, r)
        hseed = seed + 1000 + i
        setter = None if prof is None else profile_setter([prof], r, st, hseed, samples)
        run = mc.sampled_scores(sp, r, 1, samples, hseed, st, cand, True, setter, prep)
        order = np.lexsort((sp.packed[cand], -run.scores.points))
        anchor, best = mc.table_candidate(sp, prep, cand, order), int(order[0])
        if anchor is None or anchor == best:
            continue
        fresh = deal(np.random.default_rng(hseed + 10**6), eval_samples, 1,
                     np.setdiff1d(np.arange(52), h))
        rows, roy, foul, nat = opponent_rows(np.sort(fresh, axis=2), r, None, style_rows)
        foul = ~((rows[..., 2] >= rows[..., 1]) & (rows[..., 1] >= rows[..., 0]))
        roy[foul] = 0
        sc = score_splits(sp, r, (rows, roy, foul, nat), cand[[best, anchor]])
        diff = float(sc.points[0] - sc.points[1]) / eval_samples
        for k, z in enumerate(zs):
            if not mc.keeps_table(run.blocks, run.sizes, best, anchor, z):
                gains[i, k] = diff
    out = {"style": style, "hands": hands, "eval_samples": eval_samples, "samples": samples,
           "seed": seed, "seconds": round(time.perf_counter() - t, 1), "by_z": []}
    for k, z in enumerate(zs):
        g = gains[:, k]
        out["by_z"].append({"z": z, "gain": round(float(g.mean()), 4),
                            "gain_ci95": round(1.96 * float(g.std(ddof=1)) / math.sqrt(hands), 4),
                            "hands_set_otherwise": int((g != 0).sum())})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", default="table:100:500,naive:60:500",
                    help="style:hands:eval-deals, comma-separated")
    ap.add_argument("--samples", type=int, default=500, help="Monte Carlo samples a decision")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--record", default=None, help="append each result as a JSON line here")
    args = ap.parse_args()
    pin_one_core()
    r = resolve_rules("standard")
    records = []
    print(f"heads-up, standard rules, {args.samples} samples; gain a hand over table's split "
          f"by Z ({', '.join(f'{z:g}' for z in ZS)}; 0: no split kept)")
    for spec in args.runs.split(","):
        style, hands, ev = spec.split(":")
        rec = sweep(style, int(hands), int(ev), args.samples, args.seed, r)
        records.append(rec)
        print(f"{style:<16}{hands:>5} hands  " + "  ".join(
            f"{b['gain']:+.4f} +- {b['gain_ci95']:.4f} ({b['hands_set_otherwise']})"
            for b in rec["by_z"]), flush=True)
    append_records(args.record, vars(args), records)


if __name__ == "__main__":
    main()
