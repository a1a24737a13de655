"""Batch solving on a Dask distributed cluster.

Each chunk of hands is one task. Tasks are pure (a chunk in, its results out, nothing written
anywhere), so when a worker dies the scheduler can run the chunks it held again elsewhere and
retries are safe. The numba kernels are compiled (or loaded from the cache) once per worker
by a :class:`WarmUp` worker plugin, which also runs on workers that join or restart later.

Dask is an optional dependency (the ``batch`` extra) and is imported only here, lazily.

>>> from distributed import Client, LocalCluster          # doctest: +SKIP
>>> client = Client(LocalCluster(n_workers=2, threads_per_worker=1))  # doctest: +SKIP
>>> solver.games.capsa.solve.arrange_many(hands, client=client)      # doctest: +SKIP
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from solver.errors import InputError
from solver.warmup import warm_up

PLUGIN_NAME = "capsa-warm-up"
# A task that raised is run again this many times (tasks are pure, so it is safe); a worker
# dying mid-task is handled by the scheduler itself ("allowed-failures", 3 by default).
TASK_RETRIES = 2


def require_distributed() -> Any:
    """The ``distributed`` module, or an :class:`InputError` saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise InputError("Dask is not installed: pip install 'capsa[batch]' "
                         "(dask[distributed]) to use a cluster") from None
    return distributed


def _plugin_class() -> type:
    base: Any = require_distributed().WorkerPlugin  # the class is known only at run time

    class WarmUp(base):
        """Compile the solver kernels once when a worker starts, not in every task."""

        name = PLUGIN_NAME

        def setup(self, worker: Any) -> None:
            worker.capsa_warm_up_seconds = warm_up()

    return WarmUp


def warm_up_workers(client: Any) -> None:
    """Register the warm-up plugin (idempotent: registering again replaces it by name)."""
    plugin = _plugin_class()()
    register = getattr(client, "register_plugin", None) or client.register_worker_plugin
    register(plugin, name=PLUGIN_NAME)


def connect(scheduler: str | None = None, local_workers: int = 2) -> tuple[Any, Any]:
    """(client, cluster): a client of a running scheduler at ``scheduler`` (cluster None),
    or of a fresh local cluster of ``local_workers`` single-threaded processes."""
    distributed = require_distributed()
    if scheduler is not None:
        try:
            return distributed.Client(scheduler, timeout="15s"), None
        except (OSError, TimeoutError, ValueError) as exc:
            raise InputError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    warm_up()  # compile and write the numba cache before the workers load it
    # ":0", not None: None still binds the scheduler's HTTP routes to the fixed port 8787,
    # which clashes with any other cluster on the machine
    cluster = distributed.LocalCluster(n_workers=local_workers, threads_per_worker=1,
                                       processes=True, dashboard_address=":0",
                                       silence_logs=logging.ERROR)
    return distributed.Client(cluster), cluster


class DaskExecutor:
    """Runs ``fn(item, args)`` for submitted items on a cluster; hands back results as
    they finish. Keys are derived from the item and the arguments (a resubmitted chunk
    is the same task) plus its index (two equal chunks stay two tasks)."""

    def __init__(self, client: Any, fn: Callable[[Any, tuple], Any], args: tuple):
        distributed = require_distributed()
        from dask.base import tokenize

        self._client = client
        self._fn = fn
        self._args = args
        self._token = tokenize(fn.__module__, fn.__qualname__, args)
        self._tokenize = tokenize
        self._futures: dict[Any, int] = {}
        self._done = distributed.as_completed()
        warm_up_workers(client)

    @property
    def workers(self) -> int:
        """Threads across the cluster now (at least 1)."""
        return max(1, sum(self._client.nthreads().values()))

    def submit(self, index: int, item: Any) -> None:
        key = f"capsa-chunk-{self._token}-{index}-{self._tokenize(item)}"
        fut = self._client.submit(self._fn, item, self._args, key=key, pure=True,
                                  retries=TASK_RETRIES)
        self._futures[fut] = index
        self._done.add(fut)

    def next_done(self) -> tuple[int, Any]:
        """(index, result) of a finished task; blocks. Raises the task's error if it failed
        for good (e.g. it killed workers more often than the scheduler allows)."""
        fut = next(self._done)
        index = self._futures.pop(fut)
        return index, fut.result()

    def close(self) -> None:
        """Cancel what is still pending."""
        if self._futures:
            self._client.cancel(list(self._futures))
        self._futures.clear()
        self._done.clear()


def stream(executor: DaskExecutor | Any, items: Sequence[Any], window: int | None = None
           ) -> Iterator[tuple[int, Any]]:
    """(index, result) for each item as its task finishes, at most ``window`` in flight."""
    window = window or len(items) or 1
    pending = 0
    nxt = 0
    try:
        while nxt < len(items) or pending:
            while nxt < len(items) and pending < window:
                executor.submit(nxt, items[nxt])
                nxt += 1
                pending += 1
            index, result = executor.next_done()
            pending -= 1
            yield index, result
    finally:
        executor.close()


def map_chunks(client: Any, fn: Callable[[Any, tuple], Any], chunks: Sequence[np.ndarray],
               args: tuple) -> list[Any]:
    """``fn(chunk, args)`` for each chunk on the cluster, in chunk order.

    Chunks travel as one byte per card (``fn`` gets them as uint8); a chunk lost with a dying
    worker is solved again.
    """
    executor = DaskExecutor(client, fn, tuple(args))
    small = [np.asarray(c).astype(np.uint8) for c in chunks]
    out: list[Any] = [None] * len(small)
    for index, result in stream(executor, small, window=max(4, 4 * executor.workers)):
        out[index] = result
    return out
