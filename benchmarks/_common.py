"""Helpers shared by the benchmark scripts: timing, random hands, a uniform report."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the plain references live beside the tests
sys.path.insert(0, str(ROOT))


def pin_one_core() -> None:
    """Measure on one core (the machine has two and may be shared)."""
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        except OSError:
            pass


def random_hands(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.sort(np.argsort(rng.random((n, 52)), axis=1)[:, :13], axis=1).astype(np.int64)


def best_of(fn: Callable[[], object], repeat: int = 5) -> float:
    """Smallest wall time of ``repeat`` runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def row(label: str, value: float, unit: str, note: str = "") -> None:
    print(f"  {label:<58} {value:>12,.2f} {unit:<10} {note}")


def append_records(record: str | None, argv: dict, records: list[dict]) -> None:
    """Append each result as a JSON line with the arguments that made it to ``record`` (a path
    from the project root, or absolute; nothing when None)."""
    if not record:
        return
    path = ROOT / record if not record.startswith("/") else Path(record)
    with open(path, "a") as f:
        for rec in records:
            f.write(json.dumps({"argv": argv, **rec}) + "\n")
