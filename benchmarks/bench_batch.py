"""Batch throughput (method table): one process, every local core, a Dask LocalCluster, and
the whole ``capsa batch`` command (parse, solve, JSON, fsync per chunk), on the same hands.

    python benchmarks/bench_batch.py [--hands 100000] [--chunk-size 2000] [--cold-hands 200000]

Prints hands per second for each, the scaling ratio against one process, and an estimate of
the time and workers needed for 100 million hands. Then ``capsa batch`` as a user pays it:
a fresh ``python -m solver.cli batch`` process per run (interpreter start, imports, pool
start and warm-up included, on a warm numba cache), for JSON lines and for Parquet, with the
bytes each output takes per hand.
"""

from __future__ import annotations

import argparse
import logging
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, random_hands, row

from solver.batch import BatchConfig, run_batch
from solver.batch.many import arrange_many, best_many
from solver.cards import format_cards
from solver.warmup import warm_up

TARGET = 100_000_000


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def _load(when: str) -> None:
    """Other work on the machine skews the scaling ratios: show how busy it was."""
    if hasattr(os, "getloadavg"):
        print(f"  (load average {when}: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--chunk-size", type=int, default=2000)
    ap.add_argument("--no-cluster", action="store_true", help="skip the Dask LocalCluster")
    ap.add_argument("--cold-hands", type=int, default=200_000,
                    help="hands for the cold-start command runs")
    ap.add_argument("--cold-only", action="store_true", help="only the cold-start command runs")
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    n, cs = args.hands, args.chunk_size
    hands = random_hands(n, seed=21)
    if args.cold_only:
        cold_start(args.cold_hands, cs, cores)
        return
    warm_up()
    print(f"capsa batch, {n:,} random hands, method table, chunks of {cs:,}, {cores} cores")
    _load("at start")

    t1 = timed(lambda: [best_many(hands[i:i + cs]) for i in range(0, n, cs)])
    r1 = n / t1
    row("1 process (best_many, chunk by chunk)", r1, "hands/s")

    arrange_many(hands[: cs * cores], processes=cores, chunk_size=cs)  # start and warm the pool
    tl = timed(lambda: arrange_many(hands, processes=cores, chunk_size=cs))
    rl = n / tl
    row(f"all local cores ({cores} processes, arrange_many)", rl, "hands/s",
        f"x{rl / r1:.2f} vs 1 process")

    rc = None
    if not args.no_cluster:
        from distributed import Client, LocalCluster

        t = time.perf_counter()
        cluster = LocalCluster(n_workers=cores, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=logging.ERROR)
        client = Client(cluster)
        arrange_many(hands[: cs * cores], chunk_size=cs, client=client)  # warm the workers
        start_up = time.perf_counter() - t
        tc = timed(lambda: arrange_many(hands, chunk_size=cs, client=client))
        rc = n / tc
        row(f"Dask LocalCluster ({cores} workers x 1 thread)", rc, "hands/s",
            f"x{rc / r1:.2f} vs 1 process")
        row("  its start-up and warm-up", start_up, "s")
        client.close()
        cluster.close()

    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "in.txt"
        src.write_text("".join(" ".join(format_cards(h)) + "\n" for h in hands))
        cfg = BatchConfig(input=str(src), output=str(Path(tmp) / "out.jsonl"), workers=cores,
                          chunk_size=cs, progress=False)
        summary = run_batch(cfg)
        re_ = summary.solved / summary.elapsed_seconds
        row(f"capsa batch end to end ({cores} processes, text in, JSON out)", re_, "hands/s",
            f"x{re_ / r1:.2f} vs 1 process")
        per_line = (Path(tmp) / "out.jsonl").stat().st_size / n

    _load("at end")
    per_worker = re_ / cores
    print(f"\nEstimate for {TARGET:,} hands (end to end, {per_worker:,.0f} hands/s per worker "
          f"measured here, scaling taken as linear: chunks are independent):")
    for workers in (1, cores, 16, 64, 256):
        secs = TARGET / (per_worker * workers)
        print(f"  {workers:>4} workers: {secs / 3600:8.2f} h")
    need = TARGET / (per_worker * 3600)
    print(f"  one hour needs about {need:,.0f} single-threaded workers; the output is about "
          f"{per_line * TARGET / 1e9:,.0f} GB of JSON lines ({per_line:.0f} bytes a hand).")
    print("  The writer only appends bytes the workers already serialised, so one client keeps "
          f"up with far more workers than that (measured here: {re_:,.0f} hands/s with the "
          "writer sharing the machine).")
    cold_start(args.cold_hands, cs, cores)


def _size(path: Path) -> int:
    if path.is_dir():
        return sum(p.stat().st_size for p in path.iterdir() if p.name.endswith(".parquet"))
    return path.stat().st_size


def cold_start(n: int, cs: int, cores: int) -> None:
    """``capsa batch`` from a cold start, JSON lines and Parquet, one and every core."""
    hands = random_hands(n, seed=22)
    print(f"\ncapsa batch from a cold start (fresh process each run), {n:,} hands, "
          f"chunks of {cs:,}")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "in.txt"
        src.write_text("".join(" ".join(format_cards(h)) + "\n" for h in hands))
        for workers in sorted({1, cores}):
            for fmt, name in (("jsonl", "out.jsonl"), ("parquet", "out.parquet")):
                out = Path(tmp) / f"{workers}-{name}"
                cmd = [sys.executable, "-m", "solver.cli", "batch", str(src), "-o", str(out),
                       "--format", fmt, "--workers", str(workers), "--chunk-size", str(cs),
                       "--no-progress"]
                t = time.perf_counter()
                subprocess.run(cmd, check=True, env=env, stderr=subprocess.DEVNULL)
                wall = time.perf_counter() - t
                row(f"{fmt:<7}, {workers} process{'es' if workers > 1 else ''}, wall clock",
                    wall, "s", f"{n / wall:,.0f} hands/s, {wall / n * 1e6:.1f} us/hand, "
                    f"{_size(out) / n:.1f} bytes/hand")
    _load("after the cold runs")


if __name__ == "__main__":
    main()
