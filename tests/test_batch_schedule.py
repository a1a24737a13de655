"""The one windowed scheduler and the executors it runs on: results in input order when asked,
never more than the window in flight, pending calls cancelled when the iteration stops, and
the game layer free of this machinery."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from solver.batch.schedule import map_in_order, windowed
from solver.executors.inline import InlineExecutor
from solver.executors.pool import PoolExecutor, local_pool
from solver.warmup import warm_up


def _slow_square(x: int, args: float) -> int:
    time.sleep(args * (5 - x % 5))
    return x * x


def _fail_on_three(x: int, args: None) -> int:
    if x == 3:
        raise ValueError("three")
    return x


def test_ordered_and_unordered_give_every_result_once():
    with ThreadPoolExecutor(4) as ex:
        unordered = list(windowed(ex, _slow_square, range(12), 0.01, window=4))
        ordered = list(windowed(ex, _slow_square, range(12), 0.01, window=4, ordered=True))
    assert sorted(unordered) == [(i, i * i) for i in range(12)]
    assert ordered == [(i, i * i) for i in range(12)]


def test_the_window_bounds_what_is_read_and_in_flight():
    running = 0
    most = 0
    lock = threading.Lock()

    def task(x: int, args: None) -> int:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.01)
        with lock:
            running -= 1
        return x

    read: list[int] = []

    def items():
        for i in range(30):
            read.append(i)
            yield i

    with ThreadPoolExecutor(8) as ex:
        gen = windowed(ex, task, items(), None, window=3)
        first = next(gen)
        assert len(read) <= 4  # the window, plus the one read to refill it
        rest = list(gen)
    assert most <= 3 and len(rest) + 1 == 30 and first[1] in range(30)


def test_an_error_stops_the_run_and_cancels_what_is_pending():
    with pytest.raises(ValueError, match="three"):
        list(windowed(InlineExecutor(), _fail_on_three, range(10), None, window=2))
    gate = threading.Event()

    class Recording(ThreadPoolExecutor):
        def __init__(self) -> None:
            super().__init__(1)
            self.futures: list = []

        def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]
            fut = super().submit(fn, *args, **kwargs)
            self.futures.append(fut)
            return fut

    def task(x: int, args: None) -> int:
        if x:
            gate.wait(10)  # the single thread is held here by call 1
        return x

    with Recording() as ex:
        gen = windowed(ex, task, range(6), None, window=4)
        assert next(gen) == (0, 0)
        gen.close()  # the caller stops: calls 2 and 3, still queued, are cancelled
        gate.set()
    assert len(ex.futures) == 4
    assert [f.cancelled() for f in ex.futures[2:]] == [True, True]


def test_map_in_order_on_the_local_pool_matches_one_process():
    from solver.batch.many import best_chunk, best_many, chunk_spec

    hands = np.sort(np.random.default_rng(3).permuted(np.tile(np.arange(52), (60, 1)),
                                                        axis=1)[:, :13], axis=1)
    chunks = [hands[i:i + 15].astype(np.uint8) for i in range(0, 60, 15)]
    pool = PoolExecutor(2, warm=warm_up)
    try:
        parts = map_in_order(pool, best_chunk, chunks, chunk_spec("standard", 2, "table"), 4)
    finally:
        pool.shutdown()
    assert [d for p in parts for d in p] == best_many(hands, "standard", 2)
    assert pool.restarts == 0


def _pid_after(x: int, args: float) -> int:
    time.sleep(args)
    return os.getpid()


def test_the_pool_redoes_calls_lost_with_a_dying_worker():
    pool = PoolExecutor(2, warm=warm_up)
    try:
        pool.submit(_pid_after, 0, 0.0).result(timeout=120)  # the workers are up
        futures = [pool.submit(_pid_after, i, 0.3) for i in range(6)]
        time.sleep(0.1)
        victim = local_pool(2).worker_pids()[0]
        os.kill(victim, 9)
        pids = [f.result(timeout=120) for f in futures]
    finally:
        pool.shutdown()
    assert victim not in pids and pool.restarts >= 1


def test_the_game_layer_loads_no_batch_executor_or_http_code():
    code = ("import sys, pkgutil, importlib, solver.games.capsa as c\n"
            "for m in pkgutil.walk_packages(c.__path__, 'solver.games.capsa.'):\n"
            "    importlib.import_module(m.name)\n"
            "print(sorted(m for m in sys.modules if m.startswith(('solver.batch', "
            "'solver.executors', 'api')) or m == 'flask'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_the_public_names_are_where_they_live():
    import solver
    import solver.games.capsa.arrange as one
    from solver.batch import many

    assert solver.arrange is one.arrange
    assert solver.arrange_many is many.arrange_many
    assert solver.arrange_many_columns is many.arrange_many_columns
    assert {"arrange", "arrange_many", "arrange_many_columns"} <= set(dir(solver))
    with pytest.raises(AttributeError):
        solver.no_such_name  # noqa: B018
