"""Many hands at once: the best arrangement and its ev of each, in chunks on local
processes or a Dask cluster. The public ``solver.arrange_many`` and
``solver.arrange_many_columns`` live here, with the per-chunk tasks executors run.

What every chunk of a run is solved with is one :class:`ChunkSpec`, checked and built once
per run (the rules resolved, the tables file checked), and sent with each chunk.

Monte Carlo seeds are per hand (:func:`~solver.games.capsa.methods.montecarlo.hand_seed`,
from the batch seed and the cards), so results do not depend on workers, chunking or order.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from solver.batch.schedule import map_in_order
from solver.errors import CardError
from solver.executors.dask import cluster_threads, dask_executor
from solver.executors.pool import PoolExecutor
from solver.games.capsa.columns import BatchColumns
from solver.games.capsa.limits import MAX_OPPONENTS, MAX_SAMPLES_PER_DECISION
from solver.games.capsa.methods.montecarlo import hand_seed, montecarlo_best_columns
from solver.games.capsa.methods.table import table_best_columns
from solver.games.capsa.rules import Rules, RulesSpec, resolve_rules
from solver.games.capsa.splits import parse_hand
from solver.games.capsa.strategy.tables import checked_tables_file
from solver.games.capsa.work import check_batch_work
from solver.validation import check_bool, check_choice, check_int
from solver.warmup import warm_up

BATCH_METHODS = ("table", "montecarlo")
DEFAULT_CHUNK = 2000
MAX_CHUNK = 1_000_000
R = TypeVar("R")


@dataclass(frozen=True)
class ChunkSpec:
    """What a worker needs to solve a chunk of hands, the same for every chunk of a run: the
    rules (resolved), the number of opponents, the method (``table`` or ``montecarlo``),
    Monte Carlo's samples and batch seed, the card-removal switch, the tables file (its
    checked absolute path; None: the file in use where the chunk is solved) and, for
    ``capsa batch``, the output format of a chunk's answers (``jsonl`` or ``parquet``; see
    :func:`solver.batch.run.solve_lines`). Build it with :func:`chunk_spec`, which checks
    every field once; it pickles, so it travels with each chunk."""

    rules: Rules
    opponents: int
    method: str
    samples: int
    seed: int
    card_removal: bool = True
    tables: str | None = None
    format: str = "jsonl"


def chunk_spec(rules: RulesSpec = "standard", opponents: int = 3, method: str = "table",
               samples: int = 1000, seed: int = 0, card_removal: object = True,
               tables: str | os.PathLike[str] | None = None,
               format: str = "jsonl") -> ChunkSpec:
    """The checked :class:`ChunkSpec` of a run: the rules resolved, then the method,
    ``card_removal``, the tables file and ``opponents`` checked, in that order (Monte Carlo's
    ``samples`` and ``seed`` are checked where a chunk is solved: they matter to
    ``montecarlo`` only)."""
    r = resolve_rules(rules)
    check_choice("batch method", method, BATCH_METHODS)
    removal = check_bool("card_removal", card_removal)
    path = None if tables is None else checked_tables_file(tables)
    opponents = check_int("opponents", opponents, 1, MAX_OPPONENTS)
    return ChunkSpec(r, opponents, method, samples, seed, removal, path, format)


def solve_chunk(hands: np.ndarray, spec: ChunkSpec) -> BatchColumns:
    """The best arrangement and its ev for each hand of an (N, 13) array under ``spec``, in
    this process, as columns (no check of ``spec``: :func:`chunk_spec` made it). ``table``
    sets the whole array in one kernel call; ``montecarlo`` solves hand by hand, each on the
    deals of its own seed."""
    hands = np.sort(np.asarray(hands, dtype=np.int64).reshape(-1, 13), axis=1)
    if spec.method == "table":
        return table_best_columns(hands, spec.rules, spec.opponents, spec.card_removal,
                                  spec.tables)
    return montecarlo_best_columns(hands, spec.rules, spec.opponents, spec.samples,
                                   [hand_seed(spec.seed, h) for h in hands], spec.card_removal,
                                   spec.tables)


def best_many_columns(hands: np.ndarray, rules: RulesSpec = "standard", opponents: int = 3,
                      method: str = "table", samples: int = 1000, seed: int = 0,
                      card_removal: bool = True,
                      tables: str | os.PathLike[str] | None = None) -> BatchColumns:
    """The best arrangement and its ev for each hand of an (N, 13) array, in one process, as
    columns (:func:`solve_chunk`). ``card_removal`` and ``tables`` (a tables file) as in
    ``arrange``."""
    return solve_chunk(hands, chunk_spec(rules, opponents, method, samples, seed,
                                         card_removal, tables))


def best_many(hands: np.ndarray, rules: RulesSpec = "standard", opponents: int = 3,
              method: str = "table", samples: int = 1000, seed: int = 0,
              card_removal: bool = True,
              tables: str | os.PathLike[str] | None = None) -> list[dict]:
    """:func:`best_many_columns` as one dict per hand."""
    return best_many_columns(hands, rules, opponents, method, samples, seed,
                             card_removal, tables).to_dicts()


def best_chunk(chunk: np.ndarray, spec: ChunkSpec) -> list[dict]:
    """One dict per hand of a chunk (:func:`solve_chunk`): the task an executor runs for one
    chunk."""
    return solve_chunk(chunk, spec).to_dicts()


def best_chunk_columns(chunk: np.ndarray, spec: ChunkSpec) -> BatchColumns:
    """:func:`solve_chunk`: the columnar task of one chunk."""
    return solve_chunk(chunk, spec)


def parse_many(hands: Iterable[object] | np.ndarray) -> np.ndarray:
    """Hands as an (N, 13) array of sorted card ids; :class:`CardError` naming each bad one."""
    if isinstance(hands, np.ndarray) and hands.ndim == 2 and hands.shape[1] == 13:
        arr = np.sort(hands.astype(np.int64), axis=1)
        if arr.min(initial=0) >= 0 and arr.max(initial=0) < 52 and np.all(np.diff(arr, axis=1) > 0):
            return arr
        raise CardError("hands must hold 13 distinct card ids from 0 to 51 per row")
    out = []
    for i, h in enumerate(hands):
        if not isinstance(h, (str, Iterable)):
            raise CardError([f"hand {i}: cards must be a string or a list, got "
                             f"{type(h).__name__}"])
        try:
            out.append(parse_hand(h))
        except CardError as exc:
            raise CardError([f"hand {i}: {p}" for p in exc.problems]) from None
    return np.array(out, dtype=np.int64).reshape(-1, 13)


def map_chunks(arr: np.ndarray, task: Callable[[np.ndarray, ChunkSpec], R], spec: ChunkSpec,
               processes: int | None, chunk_size: int, client: Any) -> list[R]:
    """``task(chunk, spec)`` of every chunk, in input order: here, on the local pool or on
    the cluster of ``client``. Chunks travel as one byte per card."""
    chunk_size = check_int("chunk_size", chunk_size, 1, MAX_CHUNK)
    chunks = [arr[i:i + chunk_size].astype(np.uint8) for i in range(0, len(arr), chunk_size)]
    executor: Executor
    if client is not None:
        executor = dask_executor(client, warm=warm_up)
        window = max(4, 4 * cluster_threads(client))
    else:
        workers = processes or os.cpu_count() or 1
        if workers == 1 or len(chunks) <= 1:
            return [task(c, spec) for c in chunks]
        executor = PoolExecutor(workers, warm=warm_up)
        window = len(chunks)
    try:
        return map_in_order(executor, task, chunks, spec, window)
    finally:
        executor.shutdown(wait=False)


def _batch_spec(hands: Iterable[object] | np.ndarray, rules: RulesSpec, opponents: int,
                method: str, samples: int, seed: int, card_removal: object,
                tables: str | os.PathLike[str] | None) -> tuple[np.ndarray, ChunkSpec]:
    """The parsed hands and the run's :class:`ChunkSpec`: every problem before any work."""
    return parse_many(hands), chunk_spec(rules, opponents, method, samples, seed, card_removal,
                                         tables)


def arrange_many(hands: Iterable[object] | np.ndarray, rules: RulesSpec = "standard",
                 opponents: int = 3, method: str = "table", samples: int = 1000,
                 seed: int = 0, processes: int | None = None, chunk_size: int = DEFAULT_CHUNK,
                 client: Any = None, max_work: int | None = None,
                 card_removal: bool = True,
                 tables: str | os.PathLike[str] | None = None) -> list[dict]:
    """Best arrangement and ev for many hands (a list of hands, or an (N, 13) array of ids).

    Uses every local core by default (processes, not numba threads; a dying worker's chunks
    are redone); ``processes=1`` stays in this process; ``client`` (a
    ``dask.distributed.Client``) sends the chunks to a cluster. Results come back in input
    order. :func:`arrange_many_columns` gives the same as arrays. ``max_work`` bounds a Monte
    Carlo batch's work (a :class:`WorkLimitError` before any sampling, see
    :func:`solver.games.capsa.work.batch_work`). ``card_removal`` as in ``arrange``;
    ``tables``: a tables file every decision plays (default: the one in use; with ``client``
    it must be readable at the same path on the cluster's workers).
    """
    arr, spec = _batch_spec(hands, rules, opponents, method, samples, seed, card_removal,
                            tables)
    if method == "montecarlo" and max_work is not None:
        samples = check_int("samples", samples, 1, MAX_SAMPLES_PER_DECISION)
        check_batch_work(arr, spec.rules, spec.opponents, samples, max_work)
    parts = map_chunks(arr, best_chunk, spec, processes, chunk_size, client)
    return [d for part in parts for d in part]


def arrange_many_columns(hands: Iterable[object] | np.ndarray, rules: RulesSpec = "standard",
                         opponents: int = 3, method: str = "table", samples: int = 1000,
                         seed: int = 0, processes: int | None = None,
                         chunk_size: int = DEFAULT_CHUNK, client: Any = None,
                         card_removal: bool = True,
                         tables: str | os.PathLike[str] | None = None) -> BatchColumns:
    """:func:`arrange_many` as columns (:class:`BatchColumns`: NumPy arrays, ``to_arrow()``
    for an Arrow table, ``to_dicts()`` for the dicts), without a dict per hand."""
    arr, spec = _batch_spec(hands, rules, opponents, method, samples, seed, card_removal,
                            tables)
    parts = map_chunks(arr, best_chunk_columns, spec, processes, chunk_size, client)
    return BatchColumns.concat(parts)
