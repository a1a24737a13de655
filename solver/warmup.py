"""Compile (or load from cache) every numba kernel once, before serving anyone."""

from __future__ import annotations

import importlib
import time

# Modules whose import compiles kernels, and which expose ``warm_up()`` to run them once.
_WARM_MODULES = ("solver.evaluate", "solver.arrange", "solver.games.big_two_core")


def warm_up() -> float:
    """Run each kernel on a small input; returns the seconds it took."""
    start = time.perf_counter()
    for name in _WARM_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        fn = getattr(module, "warm_up", None)
        if fn is not None:
            fn()
    return time.perf_counter() - start
