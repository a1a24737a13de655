"""A small numpy MLP that values a candidate move from what a seat sees: ``Q(s, a)``.

Shared by the games whose bots are guided by a self-play network (Big Two, Da San). A game
subclasses :class:`ValueNet` with its feature layout (``STATE_LAYOUT``, ``MOVE_LAYOUT``), its
file format name and its point scale; the input is ``[state, move]``, ReLU hidden layers and
one linear output in units of ``POINT_SCALE`` points. The first layer is split into its state
and move columns, so the state's share is computed once per decision for all candidates.

The file (``.npz``) holds the layer weights and a JSON ``meta`` record: the format, the
feature layout, and what made it (command, seed, hands). :meth:`ValueNet.load` checks the
format, the layout and the shapes, so a file built for another game or other features is
refused with an :class:`~solver.errors.InputError` that names it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import numpy as np
from threadpoolctl import ThreadpoolController

from solver.errors import InputError
from solver.npzfile import BAD_FILE_ERRORS, write_arrays

__all__ = ["ValueNet", "he_layers", "offsets", "one_blas_thread_for_good", "read_layers"]

N = TypeVar("N", bound="ValueNet")
Layout = tuple[tuple[str, int], ...]


ONE_BLAS_THREAD_FROM = 32  # candidate rows from which a network call keeps BLAS on one thread
_BLAS: list[ThreadpoolController] = []


def _one_blas_thread() -> Any:
    """A context that holds this process's BLAS to one thread (the thread pools are found
    once, on first use)."""
    if not _BLAS:
        _BLAS.append(ThreadpoolController())
    return _BLAS[0].limit(limits=1, user_api="blas")


def one_blas_thread_for_good() -> None:
    """Hold this process's BLAS to one thread from now on (and the processes it forks). For a
    server: its parallelism is processes and threads of its own; BLAS threads on products
    this small only wait on each other, and a fixed-worlds search then runs several times
    slower on a busy machine."""
    if not _BLAS:
        _BLAS.append(ThreadpoolController())
    _BLAS[0].limit(limits=1, user_api="blas")


def offsets(layout: Layout) -> dict[str, int]:
    """Where each named block of a feature layout starts."""
    out, at = {}, 0
    for name, width in layout:
        out[name] = at
        at += width
    return out


def he_layers(sizes: Sequence[int], seed: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """He-initialised float32 weights (and zero biases) of an MLP with these layer sizes."""
    rng = np.random.default_rng(seed)
    ws = [(rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
          for a, b in zip(sizes[:-1], sizes[1:])]
    return ws, [np.zeros(b, np.float32) for b in sizes[1:]]


def read_layers(path: str | Path, what: str, fmt: str
                ) -> tuple[dict[str, Any], list[np.ndarray], list[np.ndarray]]:
    """The meta record and float32 layers of a network file of format ``fmt``
    (``InputError`` naming the file if it is not a ``what`` file or its layers do not
    chain)."""
    name = Path(path).name
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            layers = sum(1 for k in z.files if k.startswith("w"))
            ws = [z[f"w{i}"].astype(np.float32) for i in range(layers)]
            bs = [z[f"b{i}"].astype(np.float32) for i in range(layers)]
    except BAD_FILE_ERRORS as exc:
        raise InputError(f"{name}: not a {what} file ({exc})") from None
    if not isinstance(meta, dict):
        raise InputError(f"{name}: not a {what} file (no meta record)")
    if meta.get("format") != fmt:
        raise InputError(f"{name}: format {meta.get('format')!r}, expected {fmt!r}")
    if not ws or any(a.shape[1] != b.shape[0] for a, b in zip(ws[:-1], ws[1:])) or any(
            b.shape != (w.shape[1],) for w, b in zip(ws, bs)):
        raise InputError(f"{name}: layer shapes do not chain")
    return meta, ws, bs


@dataclass
class ValueNet:
    """An MLP on ``[state, move]``; subclasses set the class constants below."""

    weights: list[np.ndarray]
    biases: list[np.ndarray]
    meta: dict[str, Any] = field(default_factory=dict)

    GAME: ClassVar[str] = ""                          # for messages: "Big Two"
    FORMAT: ClassVar[str] = ""                        # the file format name
    STATE_LAYOUT: ClassVar[Layout] = ()
    MOVE_LAYOUT: ClassVar[Layout] = ()
    POINT_SCALE: ClassVar[float] = 1.0                # points per output unit
    HIDDEN: ClassVar[tuple[int, ...]] = (256, 256, 128)
    STATE_WIDTH: ClassVar[int] = 0                    # set from the layouts per subclass
    MOVE_WIDTH: ClassVar[int] = 0

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.STATE_WIDTH = sum(w for _, w in cls.STATE_LAYOUT)
        cls.MOVE_WIDTH = sum(w for _, w in cls.MOVE_LAYOUT)

    @classmethod
    def state_width(cls) -> int:
        return cls.STATE_WIDTH

    @classmethod
    def move_width(cls) -> int:
        return cls.MOVE_WIDTH

    @classmethod
    def layout_digest(cls) -> str:
        """The feature layout in one string (a file must match it)."""
        return ";".join(f"{n}:{w}" for n, w in cls.STATE_LAYOUT + cls.MOVE_LAYOUT)

    @classmethod
    def initial(cls: type[N], seed: int = 0, hidden: tuple[int, ...] | list[int] | None = None
                ) -> N:
        """He-initialised weights from ``seed`` (the start of training)."""
        hidden = tuple(cls.HIDDEN if hidden is None else hidden)
        ws, bs = he_layers([cls.state_width() + cls.move_width(), *hidden, 1], seed)
        return cls(ws, bs, {"format": cls.FORMAT, "hidden": list(hidden)})

    def q(self, state: np.ndarray, moves: np.ndarray) -> np.ndarray:
        """``Q`` (in points) of each move row for one state row. From
        :data:`ONE_BLAS_THREAD_FROM` rows on, BLAS runs on one thread for the call: its
        threads only cost on products this small (measured 2-3 times slower with 64 or more
        rows on a busy 2-core machine), and below it they do not start."""
        if len(moves) < ONE_BLAS_THREAD_FROM:
            return self._q(state, moves)
        with _one_blas_thread():
            return self._q(state, moves)

    def _q(self, state: np.ndarray, moves: np.ndarray) -> np.ndarray:
        w0 = self.weights[0]
        split = self.STATE_WIDTH
        h = state @ w0[:split] + moves @ w0[split:] + self.biases[0]
        np.maximum(h, 0.0, out=h)
        for w, b in zip(self.weights[1:-1], self.biases[1:-1]):
            h = h @ w + b
            np.maximum(h, 0.0, out=h)
        return (h @ self.weights[-1] + self.biases[-1])[:, 0] * self.POINT_SCALE

    def save(self, path: str | Path) -> None:
        """Write the file atomically (a partial file never replaces a good one)."""
        arrays = {f"w{i}": w for i, w in enumerate(self.weights)}
        arrays.update({f"b{i}": b for i, b in enumerate(self.biases)})
        write_arrays(Path(path), arrays, {**self.meta, "format": self.FORMAT,
                                          "layout": self.layout_digest()})

    @classmethod
    def load(cls: type[N], path: str | Path) -> N:
        """A network file (``InputError`` naming the problem if it is not one for this
        layout)."""
        name = Path(path).name
        meta, ws, bs = read_layers(path, f"{cls.GAME} network", cls.FORMAT)
        if meta.get("layout") != cls.layout_digest():
            raise InputError(f"{name}: built for another feature layout")
        if ws[0].shape[0] != cls.state_width() + cls.move_width() or ws[-1].shape[1] != 1:
            raise InputError(f"{name}: layer shapes do not chain")
        return cls(ws, bs, meta)
