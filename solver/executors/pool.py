"""Local process pools whose workers load the numba kernels once (from the cache) at start,
and an executor that survives a worker dying."""

from __future__ import annotations

import atexit
import multiprocessing as mp
import signal
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import forkserver
from typing import Any

from solver.warmup import warm_up

_POOLS: dict[int, ProcessPoolExecutor] = {}
# a chunk whose solving broke the local pool this many times fails the run
MAX_POOL_RESTARTS = 4


def _init_worker() -> None:
    # Ctrl-C belongs to the parent, which cancels the work and shuts the pool down; a worker
    # that died of it would break the pool and lose the chunk it was solving.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warm_up()


def _start_forkserver() -> None:
    """Start the fork server with Ctrl-C ignored, so that it and every worker forked from it
    ignore it from their first instruction (a worker killed by Ctrl-C while it starts would
    break the pool, and the parent could then hang at exit)."""
    if threading.current_thread() is not threading.main_thread():
        forkserver.ensure_running()
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


def local_pool(workers: int) -> ProcessPoolExecutor:
    """A shared pool of ``workers`` processes (forkserver: safe after threads; warmed once)."""
    pool = _POOLS.get(workers)
    if pool is None:
        warm_up()  # compile and write the cache before the workers load it
        ctx = mp.get_context("forkserver") if "forkserver" in mp.get_all_start_methods() \
            else mp.get_context("spawn")
        if ctx.get_start_method() == "forkserver":
            _start_forkserver()
        pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker)
        _POOLS[workers] = pool
    return pool


def discard_pool(workers: int) -> None:
    """Forget (and shut down) the pool of ``workers`` processes, e.g. after a worker died and
    broke it; the next :func:`local_pool` call starts a fresh one."""
    pool = _POOLS.pop(workers, None)
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


class PoolExecutor:
    """The local process pool; a worker that dies breaks the pool, which is then replaced
    and the chunks that were in flight submitted again (chunks are pure)."""

    def __init__(self, fn: Callable[[Any, tuple], Any], args: tuple, workers: int):
        self.workers = workers
        self._fn, self._args = fn, args
        self._pool = local_pool(workers)
        self._futures: dict[Future, tuple[int, Any, int]] = {}
        self.restarts = 0

    def submit(self, index: int, item: Any, attempts: int = 0) -> None:
        try:
            fut = self._pool.submit(self._fn, item, self._args)
        except BrokenProcessPool:  # a worker died since the last submit
            self._restart()
            fut = self._pool.submit(self._fn, item, self._args)
        self._futures[fut] = (index, item, attempts)

    def next_done(self) -> tuple[int, Any]:
        while True:
            done, _ = wait(list(self._futures), return_when=FIRST_COMPLETED)
            fut = next(iter(done))
            try:
                result = fut.result()
            except BrokenProcessPool:
                self._restart()
                continue
            index, _, _ = self._futures.pop(fut)
            return index, result

    def _restart(self) -> None:
        self.restarts += 1
        discard_pool(self.workers)
        self._pool = local_pool(self.workers)
        again = list(self._futures.values())
        self._futures.clear()
        for index, item, attempts in again:
            if attempts + 1 >= MAX_POOL_RESTARTS:
                raise RuntimeError(f"chunk {index} was lost with a dying worker "
                                   f"{MAX_POOL_RESTARTS} times; giving up")
            fut = self._pool.submit(self._fn, item, self._args)
            self._futures[fut] = (index, item, attempts + 1)

    def close(self) -> None:
        for fut in self._futures:
            fut.cancel()
        self._futures.clear()


@atexit.register
def _shutdown() -> None:
    for pool in _POOLS.values():
        pool.shutdown(cancel_futures=True)
    _POOLS.clear()
