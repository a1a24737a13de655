"""Compile (or load from cache) every game's numba kernels once, before serving anyone."""

from __future__ import annotations

import time

from solver.games import all_games


def warm_up() -> float:
    """Run each registered game's kernels on a small input; returns the seconds it took."""
    start = time.perf_counter()
    for info in all_games():
        if info.warm_up is not None:
            info.warm_up()
    return time.perf_counter() - start
