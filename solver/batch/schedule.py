"""The one windowed scheduler of batch work: ``fn(item, args)`` for every item on any
:class:`concurrent.futures.Executor`, with at most ``window`` items in flight, so a run over
a file of any size holds a bounded number of chunks.

>>> from solver.executors.inline import InlineExecutor
>>> list(windowed(InlineExecutor(), divmod, [7, 9, 11], 4, window=2))
[(0, (1, 3)), (1, (2, 1)), (2, (2, 3))]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def windowed(executor: Executor, fn: Callable[[T, Any], R], items: Iterable[T], args: Any,
             window: int, ordered: bool = False) -> Iterator[tuple[int, R]]:
    """``(index, fn(item, args))`` for each item (index from 0, in input order), as the calls
    finish; of calls found finished together, the earlier item first. With ``ordered``,
    results come in input order, and those held back for it count in the window.

    Items are read only as the window has room. A call that raised raises here. When the
    iteration ends early (an error, Ctrl-C, the caller stops), the calls still pending are
    cancelled; the executor itself is the caller's to shut down."""
    window = max(1, window)
    source = iter(items)
    pending: dict[Future[R], int] = {}
    held: dict[int, R] = {}
    submitted = 0
    next_out = 0
    exhausted = False
    try:
        while True:
            while not exhausted and len(pending) + len(held) < window:
                try:
                    item = next(source)
                except StopIteration:
                    exhausted = True
                    break
                pending[executor.submit(fn, item, args)] = submitted
                submitted += 1
            if not pending:
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in sorted(done, key=pending.__getitem__):
                index = pending.pop(fut)
                result = fut.result()
                if not ordered:
                    yield index, result
                    continue
                held[index] = result
                while next_out in held:
                    yield next_out, held.pop(next_out)
                    next_out += 1
    finally:
        for fut in pending:
            fut.cancel()


def map_in_order(executor: Executor, fn: Callable[[T, Any], R], items: list[T], args: Any,
                 window: int) -> list[R]:
    """``[fn(item, args) for item in items]`` on ``executor``, ``window`` calls at a time."""
    out: list[Any] = [None] * len(items)
    for index, result in windowed(executor, fn, items, args, window):
        out[index] = result
    return out
