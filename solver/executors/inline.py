"""The executor protocol of batch runs, and the in-process executor."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol


class Executor(Protocol):
    workers: int

    def submit(self, index: int, item: Any) -> None: ...
    def next_done(self) -> tuple[int, Any]: ...
    def close(self) -> None: ...


class InlineExecutor:
    """Solves in this process, one chunk at a time."""

    workers = 1

    def __init__(self, fn: Callable[[Any, tuple], Any], args: tuple):
        self._fn, self._args = fn, args
        self._queue: list[tuple[int, Any]] = []

    def submit(self, index: int, item: Any) -> None:
        self._queue.append((index, item))

    def next_done(self) -> tuple[int, Any]:
        index, item = self._queue.pop(0)
        return index, self._fn(item, self._args)

    def close(self) -> None:
        self._queue.clear()
