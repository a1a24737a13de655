"""The in-process executor: each call runs when it is submitted, so a run without worker
processes goes through the same scheduler as one with them.

>>> with InlineExecutor() as ex:
...     ex.submit(pow, 2, 10).result(), list(ex.map(pow, [2, 3], [3, 2]))
(1024, [8, 9])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

T = TypeVar("T")


class InlineExecutor(Executor):
    """Runs each submitted call at once, in this process; its future is done on return. A
    call's exception is kept in its future; Ctrl-C (not an ``Exception``) goes up at once."""

    workers = 1

    def __init__(self) -> None:
        self._shutdown = False

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        if self._shutdown:
            raise RuntimeError("cannot schedule new futures after shutdown")
        fut: Future[T] = Future()
        fut.set_running_or_notify_cancel()
        try:
            fut.set_result(fn(*args, **kwargs))
        except Exception as exc:
            fut.set_exception(exc)
        return fut

    def map(self, fn: Callable[..., T], *iterables: Iterable[Any], timeout: float | None = None,
            chunksize: int = 1) -> Iterator[T]:
        """``fn`` over the items as they are asked for (the builtin ``map``), not all of them
        at once as :meth:`Executor.map` would: a caller's progress after each result is
        reported as it happens, and a call's exception is raised when its result is reached."""
        if self._shutdown:
            raise RuntimeError("cannot schedule new futures after shutdown")
        return map(fn, *iterables)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._shutdown = True
