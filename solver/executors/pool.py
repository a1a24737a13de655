"""Local process pools whose workers load the numba kernels once (from the cache) at start,
and an executor on them that survives a worker dying."""

from __future__ import annotations

import atexit
import multiprocessing as mp
import signal
import threading
from collections.abc import Callable
from concurrent import futures
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import forkserver
from typing import Any, TypeVar

from solver.warmup import warm_up

_POOLS: dict[int, ProcessPoolExecutor] = {}
# a call whose running broke the local pool this many times fails
MAX_POOL_RESTARTS = 4
T = TypeVar("T")


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


@dataclass(eq=False)
class _Job:
    """One submitted call: the future handed out, and what it takes to run it again."""

    future: Future
    fn: Callable[..., Any]
    args: tuple
    kwargs: dict[str, Any]
    attempts: int = 0
    inner: Future | None = field(default=None, repr=False)


class RestartingPool(Executor):
    """The shared local pool of ``workers`` processes (:func:`local_pool`) as an executor
    whose calls survive a worker dying: that breaks the pool, which is then replaced, and the
    calls that were in flight are submitted again (the calls must be pure, as batch chunks
    are). A call lost this way :data:`MAX_POOL_RESTARTS` times fails with ``RuntimeError``.

    The futures it hands out are its own; the pool's are behind them. Shutting it down
    cancels (with ``cancel_futures``) or waits for its own calls only: the pool stays, for
    the next user. ``restarts`` counts the pools replaced."""

    def __init__(self, workers: int):
        self.workers = workers
        self.restarts = 0
        self._lock = threading.Lock()
        self._pool = local_pool(workers)
        self._generation = 0  # which pool the current one is; a broken one is replaced once
        self._jobs: set[_Job] = set()
        self._shutdown = False

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        if self._shutdown:
            raise RuntimeError("cannot schedule new futures after shutdown")
        job = _Job(Future(), fn, args, kwargs)
        with self._lock:
            self._jobs.add(job)
        job.future.add_done_callback(lambda _: self._forget(job))
        self._launch(job)
        return job.future

    def _launch(self, job: _Job) -> None:
        with self._lock:
            try:
                inner = self._pool.submit(job.fn, *job.args, **job.kwargs)
            except BrokenProcessPool:  # a worker died since the last submit
                self._replace(self._generation)
                inner = self._pool.submit(job.fn, *job.args, **job.kwargs)
            generation = self._generation
            job.inner = inner
        inner.add_done_callback(lambda f: self._finished(job, generation, f))

    def _finished(self, job: _Job, generation: int, inner: Future) -> None:
        """Runs in the pool's own thread: hand the outcome on, or have the call redone."""
        if job.future.done():
            return
        if inner.cancelled():
            job.future.cancel()
            return
        exc = inner.exception()
        if isinstance(exc, BrokenProcessPool):
            # replacing the pool from its own thread could deadlock on its locks
            threading.Thread(target=self._redo, args=(job, generation), daemon=True).start()
        elif exc is not None:
            _settle(job.future, exc=exc)
        else:
            _settle(job.future, result=inner.result())

    def _redo(self, job: _Job, generation: int) -> None:
        with self._lock:
            self._replace(generation)
        job.attempts += 1
        if job.attempts >= MAX_POOL_RESTARTS:
            _settle(job.future, exc=RuntimeError(
                f"a task was lost with a dying worker {MAX_POOL_RESTARTS} times; giving up"))
        elif not job.future.done():
            try:
                self._launch(job)
            except Exception as exc:  # e.g. a pool that cannot start
                _settle(job.future, exc=exc)

    def _replace(self, generation: int) -> None:
        """Replace the pool of ``generation`` if it is still the current one (lock held)."""
        if generation == self._generation:
            self.restarts += 1
            discard_pool(self.workers)
            self._pool = local_pool(self.workers)
            self._generation += 1

    def _forget(self, job: _Job) -> None:
        with self._lock:
            self._jobs.discard(job)
        if job.future.cancelled() and job.inner is not None:
            job.inner.cancel()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._shutdown = True
        with self._lock:
            jobs = list(self._jobs)
        if cancel_futures:
            for job in jobs:
                job.future.cancel()
        if wait:
            futures.wait([job.future for job in jobs])


def _settle(fut: Future, result: Any = None, exc: BaseException | None = None) -> None:
    """Set a future's outcome unless it was cancelled meanwhile."""
    try:
        if exc is not None:
            fut.set_exception(exc)
        else:
            fut.set_result(result)
    except futures.InvalidStateError:
        pass


@atexit.register
def _shutdown() -> None:
    for pool in _POOLS.values():
        pool.shutdown(cancel_futures=True)
    _POOLS.clear()
