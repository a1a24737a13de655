"""A process pool whose workers load the numba kernels once (from the cache) at start."""

from __future__ import annotations

import atexit
import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor

_POOLS: dict[int, ProcessPoolExecutor] = {}


def _init_worker() -> None:
    import signal

    from solver.warmup import warm_up

    # Ctrl-C belongs to the parent, which cancels the work and shuts the pool down; a worker
    # that died of it would break the pool and lose the chunk it was solving.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warm_up()


def _start_forkserver() -> None:
    """Start the fork server with Ctrl-C ignored, so that it and every worker forked from it
    ignore it from their first instruction (a worker killed by Ctrl-C while it starts would
    break the pool, and the parent could then hang at exit)."""
    import signal
    import threading
    from multiprocessing import forkserver

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
        from solver.warmup import warm_up

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


@atexit.register
def _shutdown() -> None:
    for pool in _POOLS.values():
        pool.shutdown(cancel_futures=True)
    _POOLS.clear()
