"""Da San speed: lead enumeration and self-play, beside plain references on the same inputs.

Run: ``.venv/bin/python benchmarks/bench_da_san.py [--quick]``

* lead enumeration (``legal_moves(hand)``, one move per rank pattern) on random 16- and
  20-card hands, against (a) a rank-count reference that tries every (kind, length, top) and
  (b) a brute force over every subset of the hand (a few hands only: 2^20 subsets each);
  target: at most 40 us per call.
* self-play hands per second with the greedy bots on one core, against the same games played
  with the rank-count reference as the move generator (the games must come out identical);
  target: at least 300 hands/s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.games.da_san import engine as da_san_engine  # noqa: E402
from solver.games.da_san.bots import self_play  # noqa: E402
from solver.games.da_san.moves import (  # noqa: E402
    DS_RANK,
    KIND_ORDER,
    PASS,
    RUN_KINDS,
    SET_KINDS,
    Move,
    legal_moves,
)

TARGET_US = 40.0
TARGET_HANDS = 300.0


def reference_moves(groups, current=None, rules=None, all_suits=False):
    """Every (kind, length, top) tried against the rank counts; same moves, same order."""
    counts = [len(g) for g in groups]
    out = []
    for w in range(1, 5):
        for d in range(13):
            if counts[d] >= w:
                out.append(Move(tuple(groups[d][:w]), SET_KINDS[w], d))
        for n in range(3, 11):
            for top in range(n - 1, 10):
                ranks = range(top - n + 1, top + 1)
                if all(counts[r] >= w for r in ranks):
                    out.append(Move(tuple(c for r in ranks for c in groups[r][:w]), RUN_KINDS[w], top))
    out = [m for m in out if m.beats(current)]
    out.sort(key=lambda m: (KIND_ORDER[m.kind], len(m.cards), m.strength))
    if current is not None and current.cards:
        out.append(PASS)
    return out


def reference_legal_moves(hand):
    groups = [[] for _ in range(13)]
    for c in sorted(hand):
        groups[DS_RANK[c]].append(c)
    return reference_moves(groups)


def brute_force_patterns(hand):
    """Distinct rank patterns among all subsets that form a combination (rules text)."""
    found = set()
    hand = sorted(hand)
    for k in range(1, len(hand) + 1):
        for subset in combinations(hand, k):
            counter = Counter(DS_RANK[c] for c in subset)
            widths = set(counter.values())
            if len(widths) != 1:
                continue
            ranks = sorted(counter)
            if len(ranks) == 1 or (len(ranks) >= 3 and ranks[-1] - ranks[0] == len(ranks) - 1
                                   and ranks[-1] <= 9):
                found.add(tuple(sorted(DS_RANK[c] for c in subset)))
    return found


def per_call_us(fn, hands, repeat=5):
    """Best of ``repeat`` passes, in CPU time of this process (other jobs on the machine
    would otherwise count against us)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for h in hands:
            fn(h)
        best = min(best, time.process_time() - start)
    return best / len(hands) * 1e6


def bench_leads(quick: bool) -> None:
    rng = random.Random(2024)
    print("lead enumeration, legal_moves(hand): CPU microseconds per call (best of 5)")
    print(f"{'cards':>5} {'hands':>6} {'moves':>6} {'fast':>8} {'rank-ref':>9} {'ratio':>6}"
          f" {'subsets':>12} {'ratio':>8}  target <= {TARGET_US:.0f} us")
    for size in (16, 20):
        hands = [rng.sample(range(52), size) for _ in range(2000)]
        for h in hands[:200]:  # same moves as the reference
            assert legal_moves(h) == reference_legal_moves(h)
        fast = per_call_us(legal_moves, hands)
        ref = per_call_us(reference_legal_moves, hands)
        n_brute = 1 if quick else (4 if size == 16 else 1)
        brute_hands = hands[:n_brute]
        start = time.process_time()
        for h in brute_hands:
            assert brute_force_patterns(h) == {tuple(sorted(DS_RANK[c] for c in m.cards))
                                               for m in legal_moves(h)}
        brute = (time.process_time() - start) / n_brute * 1e6
        fast_same = per_call_us(legal_moves, brute_hands, repeat=50)
        moves = sum(len(legal_moves(h)) for h in hands) / len(hands)
        verdict = "ok" if fast <= TARGET_US else "MISSED"
        print(f"{size:>5} {len(hands):>6} {moves:>6.1f} {fast:>8.1f} {ref:>9.1f} {ref / fast:>5.1f}x"
              f" {brute:>12.0f} {brute / fast_same:>7.0f}x  {verdict}"
              f"  (subsets: {n_brute} hand{'s' if n_brute > 1 else ''})")


def bench_self_play(quick: bool) -> None:
    n = 300 if quick else 1500
    start = time.process_time()
    fast = self_play(n, seed=99)
    fast_rate = n / (time.process_time() - start)
    original = da_san_engine.moves_from_groups
    da_san_engine.moves_from_groups = reference_moves
    try:
        start = time.process_time()
        ref = self_play(n, seed=99)
        ref_rate = n / (time.process_time() - start)
    finally:
        da_san_engine.moves_from_groups = original
    assert (fast.scores, fast.moves) == (ref.scores, ref.moves), "reference games differ"
    verdict = "ok" if fast_rate >= TARGET_HANDS else "MISSED"
    print(f"\nself-play, greedy bots, one core (CPU time): {n} hands, "
          f"{fast.moves / n:.1f} moves per hand")
    print(f"  fast {fast_rate:8.0f} hands/s   reference generator {ref_rate:8.0f} hands/s"
          f"   ratio {fast_rate / ref_rate:.1f}x   target >= {TARGET_HANDS:.0f}: {verdict}")
    print(f"  bidder won {fast.bidder_wins / n:.0%} of hands; scores {fast.scores}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands (a smoke run)")
    args = parser.parse_args()
    bench_leads(args.quick)
    bench_self_play(args.quick)


if __name__ == "__main__":
    main()
