"""Run costly solver calls in the compute pool, under the per-request deadline.

A route translates its request into a solver function's plain arguments and calls
``run(fn, *args, costly=..., **kwargs)``: when ``costly`` holds and the app has a pool
(``COMPUTE_SOCKET``), a pool process (see :mod:`solver.executors.pool`) runs ``fn`` (a
module-level function of ``solver``, found by its module and name) on those arguments and
sends its value back; otherwise it runs here. The route turns the value into its answer. A
job past its deadline is stopped and answered 503 ``deadline_exceeded``; the job's
:class:`~solver.errors.InputError` is raised here, as if it had run here.

Each web worker lets at most ``COMPUTE_QUEUE`` such calls wait on the pool at once; one
more is answered 503 ``compute_busy`` at once. Under overload that keeps the pool's queue
short, so the jobs it takes have time to finish instead of being stopped half done (work
wasted), and the refused ones cost nothing.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from flask import current_app

from api.endpoint import ApiError
from api.metrics import count_refusal, metrics
from solver.executors.pool import ComputeUnavailable, DeadlineExceeded, call

DEFAULT_DEADLINE_S = 5.0
DEFAULT_QUEUE = 2
RETRY_AFTER_S = 1  # what a 503 compute_busy tells the client to wait
R = TypeVar("R")
_SLOTS: dict[tuple[int, int], threading.BoundedSemaphore] = {}
_SLOTS_LOCK = threading.Lock()


def _slots(size: int) -> threading.BoundedSemaphore:
    """This process's semaphore (a forked worker gets its own, never a copy's state)."""
    key = (os.getpid(), size)
    with _SLOTS_LOCK:
        if key not in _SLOTS:
            _SLOTS[key] = threading.BoundedSemaphore(size)
        return _SLOTS[key]


def run(fn: Callable[..., R], *args: Any, costly: bool = True, **kwargs: Any) -> R:
    """``fn(*args, **kwargs)``: in the compute pool when ``costly`` and the app has one, else
    in this thread. ``fn`` is solver code (a module-level function of ``solver``) and its
    arguments and value plain data, so the pool imports no route."""
    if not fn.__module__.startswith("solver.") or "<" in fn.__qualname__:
        raise TypeError(f"the compute pool runs module-level solver functions, not "
                        f"{fn.__module__}.{fn.__qualname__}")
    path = current_app.config.get("COMPUTE_SOCKET")
    if not costly or not path:
        return fn(*args, **kwargs)
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
        return call(path, time.time() + seconds, fn.__module__, fn.__qualname__, *args,
                    **kwargs)
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
