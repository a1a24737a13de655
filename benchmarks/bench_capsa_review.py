"""Speed of the coach's review (``capsa review``, ``solver.review``), beside solving the same
hands with ``arrange_many`` in the same run (what a review adds to finding the best split).

The played file: random hands, each set as one of the solver's top 8 arrangements picked at
random (a player who is close, not exact), every 50th hand fouled.

    python benchmarks/bench_capsa_review.py [--hands 10000] [--mc-hands 20] [--rules standard]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from _common import ROOT, random_hands, row

import solver


def played_lines(n: int, rules: str, seed: int = 5) -> list[str]:
    rng = np.random.default_rng(seed)
    out = []
    for i, h in enumerate(random_hands(n, seed=seed)):
        res = solver.arrange(h, rules, 3, top=8)
        rows = res.arrangements[int(rng.integers(len(res.arrangements)))].arrangement.to_dict()
        if i % 50 == 49:  # a foul: middle and back swapped where that breaks the order
            rows["middle"], rows["back"] = rows["back"], rows["middle"]
        out.append(json.dumps(rows))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--mc-hands", type=int, default=20, help="hands for the Monte Carlo cost")
    ap.add_argument("--rules", default="standard")
    args = ap.parse_args()
    lines = played_lines(args.hands, args.rules)
    print(f"Capsa review, rules {args.rules}, 3 opponents, {args.hands:,} played hands")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "played.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        capsa = [sys.executable, "-m", "solver.cli", "review", path, "--rules", args.rules,
                 "--json", "--no-progress"]
        t = time.perf_counter()
        done = subprocess.run(capsa, cwd=ROOT, capture_output=True, text=True, check=True)
        wall = time.perf_counter() - t
        summary = json.loads(done.stdout)["summary"]
        row("capsa review FILE --json, end to end from a cold start", wall, "s",
            f"goal <= 10 s for 10,000 hands ({'met' if wall <= 10 else 'missed'} here)")
    t = time.process_time()
    rep = solver.review(lines, args.rules, 3)
    review_cpu = time.process_time() - t
    hands = random_hands(args.hands, seed=5)
    t = time.process_time()
    solver.arrange_many(hands, args.rules, 3, processes=1)
    solve_cpu = time.process_time() - t
    row("solver.review, table, per hand (CPU, one core)", review_cpu / args.hands * 1e6, "us/hand")
    row("arrange_many(processes=1), the same hands, per hand", solve_cpu / args.hands * 1e6,
        "us/hand", f"review / solve x{review_cpu / solve_cpu:.2f}")
    mc = lines[: args.mc_hands]
    for opp in (1, 3):
        t = time.process_time()
        solver.review(mc, args.rules, opp, "montecarlo", 1000, 0)
        row(f"solver.review, montecarlo 1,000 samples, {opp} opponent(s), per hand",
            (time.process_time() - t) / len(mc) * 1e3, "ms/hand")
    s = rep.summary
    print(f"  (the file: {s['exact_share']:.1%} played exactly right, mean EV lost "
          f"{s['mean_ev_lost']:.3f}, {summary['by_mistake'].get('foul', {}).get('hands', 0)} fouls; "
          f"load average {os.getloadavg()[0]:.1f})")
    print("  hands per mistake class (first class), and without front_too_weak:")
    print("    " + ", ".join(f"{k} {v}" for k, v in class_counts(rep.hands).items()))
    print("    " + ", ".join(f"{k} {v}" for k, v in
                            class_counts(rep.hands, without="front_too_weak").items()))
    return 0


def class_counts(hands, without: str | None = None) -> dict[str, int]:
    """Hands per first mistake class, over the hands that lost EV; ``without``: as if that
    class did not exist (a hand then counts in its next class, or ``other``)."""
    out: dict[str, int] = {}
    for h in hands:
        if h.exact:
            continue
        rest = [m for m in h.mistakes if m != without]
        first = rest[0] if rest else "other"
        out[first] = out.get(first, 0) + 1
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


if __name__ == "__main__":
    sys.exit(main())
