"""Capsa Susun core: evaluating and enumerating every split of random hands.

    python benchmarks/bench_capsa_core.py [--hands 20000]

Prints microseconds per hand for the numba kernels (all 1,287 + 286 subsets evaluated and
all 72,072 ordered splits checked for fouls) beside the plain-Python brute force on the same
hands, the ratio, and the start-up time of a fresh process with a warm numba cache.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

import capsa_reference as ref
from _common import ROOT, best_of, pin_one_core, random_hands, row

from solver.games.capsa.evaluate import strengths5, subset_strengths, warm_up
from solver.games.capsa.splits import valid_arrangements, valid_arrangements_many


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--brute", type=int, default=3, help="hands for the plain-Python brute force")
    args = ap.parse_args()
    pin_one_core()
    warm_up()
    hands = random_hands(args.hands, seed=1)
    print(f"Capsa core, {args.hands:,} random hands, one core")

    t_eval = best_of(lambda: [subset_strengths(h) for h in hands[:2000]], 3) / 2000
    t_batch = best_of(lambda: valid_arrangements_many(hands), 3) / len(hands)
    t_single = best_of(lambda: [valid_arrangements(h) for h in hands[:2000]], 3) / 2000
    five = hands[:, :5].copy()
    t_five = best_of(lambda: strengths5(five), 5) / len(five)

    brute = hands[: args.brute]
    t0 = time.perf_counter()
    expected = [ref.count_valid(h.tolist()) for h in brute]
    t_brute = (time.perf_counter() - t0) / len(brute)
    assert expected == valid_arrangements_many(brute).tolist(), "kernel disagrees with brute force"

    row("5-card evaluation (batch kernel)", t_five * 1e9, "ns/hand")
    row("evaluate all 1,287 + 286 subsets of a hand", t_eval * 1e6, "us/hand")
    row("all 72,072 splits + foul filter, batch kernel", t_batch * 1e6, "us/hand")
    row("all 72,072 splits + foul filter, one Python call a hand", t_single * 1e6, "us/hand")
    row(f"plain-Python brute force ({len(brute)} hands)", t_brute * 1e6, "us/hand")
    row("ratio brute force / batch kernel", t_brute / t_batch, "x")

    code = ("import time; t=time.perf_counter(); import solver.games.capsa.splits as s; "
            "s.valid_arrangements('As Kd Qh Jc Tc 9s 8s 7h 6d 5c 4c 3d 2h'); "
            "print(time.perf_counter()-t)")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True)
    runs = [float(subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True,
                                 capture_output=True, text=True).stdout) for _ in range(3)]
    row("fresh process: import + first hand (warm cache)", min(runs) * 1e3, "ms")


if __name__ == "__main__":
    main()
