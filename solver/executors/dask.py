"""Batch solving on a Dask distributed cluster.

Each chunk of hands is one task, submitted through the client's ``concurrent.futures``
executor (:func:`dask_executor`). Tasks are pure (a chunk in, its results out, nothing written
anywhere), so when a worker dies the scheduler can run the chunks it held again elsewhere and
retries are safe. The numba kernels are compiled (or loaded from the cache) once per worker
by a :class:`WarmUp` worker plugin, which also runs on workers that join or restart later;
what warms a worker is the caller's ``warm`` callable (for the solver,
:func:`solver.warmup.warm_up`), a module-level function so that it pickles by reference.

Dask is an optional dependency (the ``batch`` extra) and is imported only here, lazily.

Usage (run for real by ``tests/test_batch_cluster.py``)::

    from distributed import Client, LocalCluster
    client = Client(LocalCluster(n_workers=2, threads_per_worker=1))
    solver.arrange_many(hands, client=client)
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from solver.errors import InputError

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
        """Run ``warm`` (compile the kernels) once when a worker starts, not in every task;
        the worker's ``capsa_warm_up_seconds`` says how long it took."""

        name = PLUGIN_NAME

        def __init__(self, warm: Callable[[], object]) -> None:
            self.warm = warm

        def setup(self, worker: Any) -> None:
            start = time.perf_counter()
            self.warm()
            worker.capsa_warm_up_seconds = time.perf_counter() - start

    return WarmUp


def warm_up_workers(client: Any, warm: Callable[[], object]) -> None:
    """Register the plugin that runs ``warm`` on every worker, those that join later
    included (idempotent: registering again replaces it by name)."""
    plugin = _plugin_class()(warm)
    register = getattr(client, "register_plugin", None) or client.register_worker_plugin
    register(plugin, name=PLUGIN_NAME)


def connect(scheduler: str | None = None, local_workers: int = 2, *,
            warm: Callable[[], object] | None) -> tuple[Any, Any]:
    """(client, cluster): a client of a running scheduler at ``scheduler`` (cluster None),
    or of a fresh local cluster of ``local_workers`` single-threaded processes, started after
    ``warm`` ran here (it compiles and writes the numba cache once, which the workers then
    load: several first-time writers of the same cache at once are what to avoid)."""
    distributed = require_distributed()
    if scheduler is not None:
        try:
            return distributed.Client(scheduler, timeout="15s"), None
        except (OSError, TimeoutError, ValueError) as exc:
            raise InputError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    if warm is not None:
        warm()  # compile and write the numba cache before the workers load it
    # ":0", not None: None still binds the scheduler's HTTP routes to the fixed port 8787,
    # which clashes with any other cluster on the machine
    cluster = distributed.LocalCluster(n_workers=local_workers, threads_per_worker=1,
                                       processes=True, dashboard_address=":0",
                                       silence_logs=logging.ERROR)
    return distributed.Client(cluster), cluster


def dask_executor(client: Any, *, warm: Callable[[], object]) -> Executor:
    """The cluster of ``client`` as a :class:`concurrent.futures.Executor`
    (``Client.get_executor``), its workers warmed by ``warm`` (:func:`warm_up_workers`).
    Calls are pure (an equal call is one task: the same chunk resubmitted is not solved
    twice) and retried :data:`TASK_RETRIES` times when they raise. ``shutdown(wait=False)``
    cancels what it still holds."""
    warm_up_workers(client, warm)
    executor: Executor = client.get_executor(pure=True, retries=TASK_RETRIES)
    return executor


def cluster_threads(client: Any) -> int:
    """Threads across the cluster now (at least 1): how much it runs at once."""
    return max(1, sum(client.nthreads().values()))
