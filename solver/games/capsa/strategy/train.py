"""Self-play training of the ``table`` strategy's row tables.

Round 0 deals hands and sets them with the naive strategy (strongest back, then middle); every
next round sets fresh hands with the table strategy built from the previous round's row
histograms, until the tables settle. The result is what ``solver/games/capsa/data/tables.npz`` ships:

    python -m solver.games.capsa.strategy.train --hands 200000 --rounds 6 --seed 2026 -o solver/games/capsa/data/tables.npz

Deterministic for a given seed, whatever the number of worker processes (hands are dealt in
fixed chunks, each from its own seed, and the histograms are integer sums).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from solver.games.capsa.lookup import TABLES
from solver.games.capsa.rules import resolve_rules
from solver.games.capsa.strategy.play import deal, naive_play, natural_codes, table_play
from solver.games.capsa.strategy.tables import TRAINED_PRESETS, derive, write_arrays

CHUNK = 5000


def _round_chunk(args: tuple) -> tuple[np.ndarray, np.ndarray]:
    preset, seed, n, hist, naturals = args
    rules = resolve_rules(preset)
    hands = deal(np.random.default_rng(seed), n)[:, 0, :]
    codes = natural_codes(hands) if rules.naturals_on else np.zeros(n, dtype=np.int64)
    plays_rows = codes == 0
    if hist is None:
        _, rows = naive_play(hands[plays_rows], rules)
    else:
        tables = derive(hist, naturals, rules, preset)
        _, _, rows = table_play(hands[plays_rows], rules, tables)
    size = TABLES[rules.wheel].size
    out = np.zeros((3, size), dtype=np.int64)
    for r in range(3):
        out[r] = np.bincount(rows[:, r], minlength=size)
    return out, np.bincount(codes, minlength=5).astype(np.int64)


def total(parts: list[np.ndarray]) -> np.ndarray:
    """The element-wise sum of the chunks' count arrays, added in order (as ``sum`` would)."""
    out = parts[0]
    for part in parts[1:]:
        out = out + part
    return out


def train_preset(preset: str, hands: int, rounds: int, seed: int, workers: int,
                 log=print) -> tuple[np.ndarray, np.ndarray, list[float]]:
    """Histograms after ``rounds`` rounds of self-play, and the change of the win tables per round.

    Fictitious play: each round answers the average of the table-strategy rounds so far (round
    1 answers the naive round 0), which damps the oscillation of pure best responses."""
    hist: np.ndarray | None = None
    naturals: np.ndarray | None = None
    total_hist = total_nat = np.zeros(0, dtype=np.int64)  # set by round 0
    prev_pw = None
    deltas: list[float] = []
    seeds = np.random.SeedSequence([seed, TRAINED_PRESETS.index(preset)])
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        for rnd in range(rounds):
            round_seeds = seeds.spawn(1)[0]
            sizes = [min(CHUNK, hands - i) for i in range(0, hands, CHUNK)]
            chunk_seeds = [int(s.generate_state(1)[0]) for s in round_seeds.spawn(len(sizes))]
            jobs = [(preset, s, n, hist, naturals) for s, n in zip(chunk_seeds, sizes)]
            results = list(pool.map(_round_chunk, jobs)) if pool else [_round_chunk(j) for j in jobs]
            round_hist = total([r[0] for r in results])
            round_nat = total([r[1] for r in results])
            if rnd <= 1:
                total_hist, total_nat = round_hist, round_nat
            else:
                total_hist, total_nat = total_hist + round_hist, total_nat + round_nat
            hist = total_hist.astype(np.float64)
            naturals = total_nat.astype(np.float64)
            pw = derive(hist, naturals, resolve_rules(preset), preset).pw
            # change of the win tables, weighted by how often each row strength is played
            weight = hist / hist.sum(axis=1, keepdims=True)
            delta = (float((np.abs(pw - prev_pw) * weight).sum(axis=1).max())
                     if prev_pw is not None else float("nan"))
            deltas.append(delta)
            prev_pw = pw
            log(f"  {preset}: round {rnd} ({'naive' if rnd == 0 else 'table'} opponents), "
                f"mean change of a win probability {delta:.4f}")
    finally:
        if pool:
            pool.shutdown()
    assert hist is not None and naturals is not None
    return hist.astype(np.int64), naturals.astype(np.int64), deltas


def write_tables(path: Path, results: dict, meta: dict) -> None:
    """Write the histograms of each preset (``results``: preset -> (hist, naturals, ...))."""
    arrays = {}
    for preset, (hist, naturals, _) in results.items():
        arrays[f"{preset}/hist"] = hist
        arrays[f"{preset}/naturals"] = naturals
    write_arrays(path, arrays, meta)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m solver.games.capsa.strategy.train", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=200_000, help="hands dealt per round and preset")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--presets", nargs="+", default=list(TRAINED_PRESETS), choices=TRAINED_PRESETS)
    ap.add_argument("-o", "--output", type=Path, required=True)
    args = ap.parse_args(argv)
    if args.hands < 1 or args.rounds < 1:
        ap.error("--hands and --rounds must be positive")
    start = time.time()
    results = {p: train_preset(p, args.hands, args.rounds, args.seed, args.workers)
               for p in args.presets}
    meta = {
        "command": (f"python -m solver.games.capsa.strategy.train --hands {args.hands} --rounds {args.rounds} "
                    f"--seed {args.seed} --presets {' '.join(args.presets)} -o {args.output.name}"),
        "seed": args.seed, "hands_per_round": args.hands, "rounds": args.rounds,
        "presets": args.presets, "format": 1,
        "last_change": {p: r[2][-1] for p, r in results.items()},
    }
    write_tables(args.output, results, meta)
    print(f"wrote {args.output} in {time.time() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
