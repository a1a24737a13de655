"""Route expensive requests to the compute pool, under the per-request deadline.

``@offload(lambda body: body.method == "montecarlo")`` under ``@json_endpoint`` makes the view
run in a pool process (see :mod:`solver.executors.pool`) when the predicate holds and the app has a pool
(``COMPUTE_SOCKET``); otherwise, and inside a pool process, it runs in place. A job past its
deadline is stopped and answered 503 ``deadline_exceeded``.

Each web worker lets at most ``COMPUTE_QUEUE`` such requests wait on the pool at once; one
more is answered 503 ``compute_busy`` at once. Under overload that keeps the pool's queue
short, so the jobs it takes have time to finish instead of being stopped half done (work
wasted), and the refused ones cost nothing.
"""

from __future__ import annotations

import functools
import importlib
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import current_app

from api.endpoint import ApiError
from api.metrics import count_refusal, metrics
from solver.executors.pool import ComputeUnavailable, DeadlineExceeded, call, in_worker

DEFAULT_DEADLINE_S = 5.0
DEFAULT_QUEUE = 2
RETRY_AFTER_S = 1  # what a 503 compute_busy tells the client to wait
_TASKS: dict[str, Callable[[Any], Any]] = {}
_SLOTS: dict[tuple[int, int], threading.BoundedSemaphore] = {}
_SLOTS_LOCK = threading.Lock()


def _slots(size: int) -> threading.BoundedSemaphore:
    """This process's semaphore (a forked worker gets its own, never a copy's state)."""
    key = (os.getpid(), size)
    with _SLOTS_LOCK:
        if key not in _SLOTS:
            _SLOTS[key] = threading.BoundedSemaphore(size)
        return _SLOTS[key]


def run_task(key: str, body: Any) -> Any:
    """What a pool process runs: the undecorated view registered under ``key``
    (``module:qualname``), whatever other decorators wrap it in its module."""
    if key not in _TASKS:
        importlib.import_module(key.split(":", 1)[0])  # registers its views
    return _TASKS[key](body)


def offload(expensive: Callable[[Any], bool] | None = None) -> Callable[[Callable], Callable]:
    """Decorate ``fn(body) -> dict``; ``expensive(body)`` says which requests go to the pool
    (all of them when it is None)."""

    def decorate(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
        key = f"{fn.__module__}:{fn.__qualname__}"
        _TASKS[key] = fn

        @functools.wraps(fn)
        def wrapper(body: Any) -> Any:
            if in_worker() or (expensive is not None and not expensive(body)):
                return fn(body)
            path = current_app.config.get("COMPUTE_SOCKET")
            if not path:
                return fn(body)
            seconds = float(current_app.config.get("REQUEST_DEADLINE_S") or DEFAULT_DEADLINE_S)
            queue = int(current_app.config.get("COMPUTE_QUEUE") or DEFAULT_QUEUE)
            slots = _slots(queue)
            if not slots.acquire(blocking=False):
                count_refusal("busy")
                raise ApiError(503, "compute_busy",
                               f"{queue} costly requests are already running or waiting in this "
                               f"worker; retry in {RETRY_AFTER_S} s",
                               headers=[("Retry-After", str(RETRY_AFTER_S))])
            jobs = metrics().compute_jobs
            jobs.inc()
            try:
                return call(path, time.time() + seconds, __name__, "run_task", key, body)
            except DeadlineExceeded:
                count_refusal("deadline")
                raise ApiError(503, "deadline_exceeded",
                               f"the request did not finish within its {seconds:g} s deadline "
                               "and was stopped; ask for less work (fewer samples or hands)"
                               ) from None
            except ComputeUnavailable as exc:
                count_refusal("unavailable")
                raise ApiError(503, "compute_unavailable", str(exc)) from None
            finally:
                jobs.dec()
                slots.release()

        return wrapper

    return decorate
