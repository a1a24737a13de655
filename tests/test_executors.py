"""The one way to run work in processes, ``solver.executors.pool.local_executor``: this process
for one worker (lazily, in order), else the shared pool (results in input order, the pool kept
for the next user); how the pool's supervisor starts is chosen, never multiprocessing's
default; and every caller's answers are the same whatever the workers even when the pool's
processes inherit nothing from the caller (started through the fork server)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from solver.executors.inline import InlineExecutor
from solver.executors.pool import (
    PoolExecutor,
    local_executor,
    local_pool,
    start_method,
)


def _after(seconds: float, value: int) -> int:
    time.sleep(seconds)
    return value


def test_one_worker_runs_here_as_results_are_asked_for():
    seen: list[int] = []

    def double(x: int) -> int:
        seen.append(x)
        return 2 * x

    with local_executor(1) as ex:
        assert isinstance(ex, InlineExecutor)
        results = ex.map(double, [1, 2, 3])
        assert seen == []  # nothing runs before its result is asked for
        assert next(results) == 2 and seen == [1]
        assert list(results) == [4, 6]
    with local_executor(0) as ex:  # "no workers" is this process too
        assert isinstance(ex, InlineExecutor)


def test_the_pool_gives_results_in_input_order_and_stays():
    with local_executor(2) as ex:
        assert isinstance(ex, PoolExecutor)
        # the first call ends last
        assert list(ex.map(_after, [0.4, 0.0, 0.1], [1, 2, 3])) == [1, 2, 3]
        pool = local_pool(2)
    assert pool.alive and local_pool(2) is pool  # kept for the next user
    with local_executor(2) as ex:
        assert list(ex.map(_after, [0.0], [7])) == [7]
    assert local_pool(2) is pool


def test_a_block_that_raises_cancels_the_calls_not_started():
    with pytest.raises(KeyError):
        with local_executor(2) as ex:
            futures = [ex.submit(_after, 0.3, k) for k in range(8)]
            raise KeyError("the caller stops")
    time.sleep(0.5)
    assert any(f.cancelled() for f in futures)


def test_the_start_method_is_chosen_here():
    assert start_method("spawn") == "spawn"
    with pytest.raises(ValueError, match="start must be one of"):
        start_method("thread")
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    try:
        # a fork would copy this process with another thread's locks held
        assert start_method() in ("forkserver", "spawn")
        with pytest.raises(ValueError, match="no other thread"):
            start_method("fork")
    finally:
        stop.set()
        thread.join()


SCRIPT = textwrap.dedent("""
    import hashlib, json, sys, threading, time
    import numpy as np

    # another thread: the pool's supervisor is started through the fork server, so its
    # processes inherit nothing from this one
    threading.Thread(target=time.sleep, args=(120,), daemon=True).start()

    from solver.executors.pool import local_pool
    from solver.games.big_two.train import TrainConfig, train
    from solver.games.capsa.strategy import removal
    from solver.games.capsa.strategy.match import duplicate_match
    from solver.games.capsa.strategy.tables import DATA_FILE
    from solver.games.capsa.strategy.train import train_rules

    def digest(*arrays):
        h = hashlib.sha256()
        for a in arrays:
            h.update(np.ascontiguousarray(a).tobytes())
        return h.hexdigest()

    tiny = TrainConfig(games=16, block_games=8, batch=64, hidden=(16, 8))
    out = {}
    for workers in (1, 2):
        hist, naturals, _ = train_rules("two-four", 11000, 2, 3, workers, log=lambda s: None)
        pool = removal._pool("two-four", str(DATA_FILE), np.random.SeedSequence(4), 6000,
                             workers, None)
        match = duplicate_match("table", "naive", 30, 2, "two-four", seed=5, workers=workers,
                                chunk=7)
        net = train(sys.argv[1] + f"/net{workers}.npz", tiny, workers=workers)
        out[workers] = {"train": digest(hist, naturals), "removal": digest(*pool.arrays().values()),
                        "match": digest(match.margins), "net": digest(*net.weights, *net.biases)}
    print(json.dumps({"start": local_pool(2).start, "one": out[1], "two": out[2]}))
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork server")
def test_answers_do_not_depend_on_what_the_workers_inherit(tmp_path):
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True,
                         text=True, timeout=600, check=True).stdout
    got = json.loads(out.strip().splitlines()[-1])
    assert got["start"] in ("forkserver", "spawn")
    assert got["one"] == got["two"]
