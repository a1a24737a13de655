"""``capsa batch``: the best arrangement of every hand of a file, durable and resumable.

Input, one hand per line (line numbers count every physical line, from 1):

- plain text: ``As Kd 10h 9c ...`` (13 cards);
- or JSON: a string of cards, a list of cards, or ``{"hand": ..., "id": ...}`` (``id`` a
  string or integer, copied to the output);
- blank lines and lines starting with ``#`` are skipped.

Hostile lines are bad lines like any other (:mod:`solver.batch.lines`): a line over 64 KiB,
bytes that are not UTF-8 (an encoded surrogate such as ``ED A0 80`` included), a lone
surrogate (``"\\ud800"``), ``NaN``, ``Infinity``, ``1e400``, an integer of more than 4,300
digits, or nesting more than 64 deep. An id is echoed exactly as given or the line is refused
with the reason, never rewritten: every id in OUT reads back, with a strict JSON parser, as
the value of the input line.

Output, JSON lines appended to OUT in whole chunks as they finish (one ``write`` and an
``fsync`` per chunk): ``{"line": N, "id"?: ..., "hand": [...], "front": [...], "middle": [...],
"back": [...], "ev": x}``. With ``format="parquet"`` OUT is a directory of Parquet parts, one
per chunk (written to a temporary name, fsynced, renamed into place): columns ``line``, ``id``
(text, null when absent), ``hand``/``front``/``middle``/``back`` (lists of card strings) and
``ev`` (full precision); read it as one table with ``pyarrow.parquet.read_table(OUT)``.
A bad line goes to the errors file as ``{"line": N, "error": ...}`` (a one-line reason, its
control characters escaped) and the run goes on with the other lines of its chunk. A
line is done once it is in OUT or in the errors file: a rerun skips it, so every input line
lands exactly once whatever interrupted the run before. A torn tail (a crash mid-write; in
Parquet, a part left under its temporary name) is cut off on rerun. Delete the errors file to
try its lines again. A file that cannot be written (a full disk, a read-only folder) stops the
run with an :class:`~solver.batch.output.OutputError` naming it (the CLI: one line, exit
status 2); a failed append is cut off at once, so a rerun completes the output.

What decides the answers (:func:`run_record`: rules, opponents, method, card removal, the
strategy tables' hash, and Monte Carlo's samples and seed) is recorded with the output
(``OUT.run.json``, or ``_run.json`` inside a Parquet directory) before its first chunk. A
rerun that differs in any of them is refused, the differences named, before anything is
written, so one output never mixes two kinds of answers. An output that holds no answers yet
takes the new run's record; one written before records existed adopts the rerun's.

>>> parse_line('{"hand": "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", "id": 7}')[1]
7
>>> out = solve_lines([(3, "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s"), (4, "As As")],
...                   ChunkSpec(resolve_rules("standard"), 1, "table", 100, 0))
>>> (out.solved, out.failed, out.errors.decode())
(1, 1, '{"line": 4, "error": "duplicate card \\'As\\'"}\\n')
"""

from __future__ import annotations

import json
import os
import reprlib
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import numpy as np

from solver.batch.lines import BadLine, check_text, error_record, loads_line, read_lines
from solver.batch.many import (
    BATCH_METHODS,
    DEFAULT_CHUNK,
    MAX_CHUNK,
    ChunkSpec,
    solve_chunk,
)
from solver.batch.output import (
    Appender,
    LineSet,
    PartWriter,
    read_record,
    record_path,
    scan_lines,
    scan_parts,
    sigint_deferred,
    write_record,
)
from solver.batch.schedule import windowed
from solver.errors import InputError
from solver.executors.dask import cluster_threads, connect, dask_executor, require_distributed
from solver.executors.inline import InlineExecutor
from solver.executors.pool import PoolExecutor
from solver.games.capsa.limits import MAX_OPPONENTS, MAX_SAMPLES_PER_DECISION, MAX_SEED
from solver.games.capsa.methods.montecarlo import ANCHOR_Z
from solver.games.capsa.rules import RulesSpec, resolve_rules
from solver.games.capsa.splits import parse_hand
from solver.games.capsa.strategy.tables import checked_tables_file, tables_digest
from solver.validation import check_bool, check_choice, check_int
from solver.warmup import warm_up

MAX_WORKERS = 1024
FORMATS = ("jsonl", "parquet")


# ---------------------------------------------------------------- one line, one chunk
def parse_line(text: str) -> tuple[np.ndarray, object]:
    """(sorted card ids, id or None) of one input line; :class:`InputError` if it is bad,
    whatever the line holds (see the module doc): the id given back can always be echoed."""

    text = text.strip()
    ident: object = None
    if text[:1] in ('"', "[", "{"):
        value = loads_line(text, "bad JSON")
        if isinstance(value, dict):
            unknown = sorted(set(value) - {"hand", "id"})
            if unknown:
                raise InputError(f"unknown field{'s' if len(unknown) > 1 else ''} "
                                 f"{', '.join(map(repr, unknown))}; fields are hand and id")
            if "hand" not in value:
                raise InputError('the object has no "hand"')
            ident = value.get("id")
            if ident is not None and (isinstance(ident, bool) or not isinstance(ident, (str, int))):
                raise InputError("id must be a string or an integer, got "
                                 f"{reprlib.repr(ident)}")
            value = value["hand"]
        if not isinstance(value, (str, list)):
            raise InputError("a hand is a string of cards or a list of cards, got "
                             f"{type(value).__name__}")
        return parse_hand(value), ident
    return parse_hand(check_text(text)), ident


@dataclass(frozen=True)
class ChunkOutput:
    """A solved chunk, already serialised: the main process only appends bytes."""

    results: bytes
    errors: bytes
    solved: int
    failed: int


def solve_lines(items: Sequence[tuple[int, str | BadLine]], spec: ChunkSpec) -> ChunkOutput:
    """Parse and solve ``(line number, text)`` items (a :class:`BadLine` for a line refused
    as it was read: it goes to the errors with the chunk's other bad lines) as ``spec`` says
    (:class:`~solver.batch.many.ChunkSpec`; its ``format``: ``jsonl``, or ``parquet``: then
    ``results`` is one whole Parquet file). Pure: safe to retry."""

    hands: list[np.ndarray] = []
    lines: list[int] = []
    ids: list[object] = []
    errors: list[str] = []
    for line, text in items:
        try:
            if isinstance(text, BadLine):
                raise InputError(text.reason)
            hand, ident = parse_line(text)
        except InputError as exc:
            errors.append(error_record(line, str(exc)))
            continue
        hands.append(hand)
        lines.append(line)
        ids.append(ident)
    results = b""
    if hands:
        cols = solve_chunk(np.array(hands, dtype=np.int64), spec)
        if spec.format == "parquet":
            results = _parquet_bytes(cols.to_arrow(lines, ids))
        else:
            results = cols.json_lines(lines, ids).encode()
    return ChunkOutput(results, "".join(s + "\n" for s in errors).encode(), len(lines),
                       len(errors))


def _parquet_bytes(table: Any) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue().to_pybytes()


# ---------------------------------------------------------------- input
@dataclass
class InputCounts:
    lines: int = 0
    blank: int = 0
    skipped: int = 0


def _input_lines(stream: BinaryIO, name: str, done: LineSet, counts: InputCounts
                 ) -> Iterator[tuple[int, str | BadLine]]:
    """(line number, text or :class:`BadLine`) of the lines still to do
    (:func:`~solver.batch.lines.read_lines`); a read that fails is an :class:`InputError`
    naming ``name``."""
    try:
        for n, item in read_lines(stream):
            counts.lines = n
            if item is None:
                counts.blank += 1
            elif n in done:
                counts.skipped += 1
            else:
                yield n, item
    except OSError as exc:
        raise InputError(f"cannot read {name}: {exc.strerror or exc}") from None


def _count_todo(path: str, done: LineSet) -> int:
    """How many lines :func:`_input_lines` will yield (for the progress bar)."""
    try:
        with open(path, "rb") as f:
            return sum(1 for _ in _input_lines(f, path, done, InputCounts()))
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None


def _chunks(items: Iterable[tuple[int, str | BadLine]], size: int
            ) -> Iterator[tuple[tuple[int, str | BadLine], ...]]:
    buf: list[tuple[int, str | BadLine]] = []
    for item in items:
        buf.append(item)
        if len(buf) == size:
            yield tuple(buf)
            buf = []
    if buf:
        yield tuple(buf)


# ---------------------------------------------------------------- the run
@dataclass
class Summary:
    solved: int = 0
    skipped: int = 0
    errors: int = 0
    blank_or_comment: int = 0
    input_lines: int = 0
    torn_bytes_dropped: int = 0
    elapsed_seconds: float = 0.0
    hands_per_second: float = 0.0
    interrupted: bool = False
    output: str = ""
    errors_file: str = ""
    backend: str = ""
    workers: int = 0
    pool_restarts: int = 0

    def text(self) -> str:
        state = "interrupted" if self.interrupted else "done"
        s = (f"capsa batch {state}: {self.solved:,} hands solved, {self.skipped:,} skipped as "
             f"already done, {self.errors:,} errors, {self.elapsed_seconds:.1f} s, "
             f"{self.hands_per_second:,.0f} hands/s ({self.backend}, {self.workers} "
             f"worker{'s' if self.workers != 1 else ''})")
        if self.torn_bytes_dropped:
            s += f"; dropped a torn tail of {self.torn_bytes_dropped} bytes"
        if self.errors:
            s += f"; errors in {self.errors_file}"
        return s


@dataclass
class BatchConfig:
    input: str
    output: str
    errors_file: str | None = None
    rules: RulesSpec = "standard"
    opponents: int = 3
    method: str = "table"
    samples: int = 1000
    seed: int = 0
    workers: int | None = None
    chunk_size: int = DEFAULT_CHUNK
    scheduler: str | None = None
    cluster: str | None = None
    ordered: bool = False
    progress: bool = True
    format: str = "jsonl"
    card_removal: bool = True
    tables: str | None = None  # a tables file (default: the one in use)
    # called after each chunk is written (tests use it to interrupt a run at a known point)
    on_chunk: Callable[[int], None] | None = field(default=None, repr=False)


# (option, BatchConfig field, low, high) of every whole-number option with fixed bounds
BATCH_LIMITS = (("--opponents", "opponents", 1, MAX_OPPONENTS),
                ("--samples", "samples", 1, MAX_SAMPLES_PER_DECISION),
                ("--seed", "seed", 0, MAX_SEED),
                ("--chunk-size", "chunk_size", 1, MAX_CHUNK))


def check_config(cfg: BatchConfig) -> ChunkSpec:
    """Every command-line problem, before any output file is touched; the run's
    :class:`~solver.batch.many.ChunkSpec` (the rules resolved and the tables file checked
    here, once) when there is none."""

    rules = resolve_rules(cfg.rules)
    check_choice("--method", cfg.method, BATCH_METHODS)
    tables = None if cfg.tables is None else checked_tables_file(cfg.tables)
    whole = {value: check_int(name, getattr(cfg, value), low, high)
             for name, value, low, high in BATCH_LIMITS}
    card_removal = check_bool("card_removal", cfg.card_removal)
    if cfg.workers is not None:
        check_int("--workers", cfg.workers, 1, MAX_WORKERS)
    check_choice("--format", cfg.format, FORMATS)
    if cfg.format == "parquet":
        try:
            import pyarrow.parquet  # noqa: F401
        except ImportError:  # pragma: no cover - a dependency of the package
            raise InputError("--format parquet needs pyarrow (pip install pyarrow)") from None
    if cfg.scheduler and cfg.cluster:
        raise InputError("give --scheduler or --cluster, not both")
    if cfg.cluster not in (None, "local"):
        raise InputError(f"--cluster must be 'local', got {cfg.cluster!r}")
    if cfg.input != "-":
        if not os.path.exists(cfg.input):
            raise InputError(f"cannot read {cfg.input}: no such file")
        if os.path.isdir(cfg.input) or not os.access(cfg.input, os.R_OK):
            raise InputError(f"cannot read {cfg.input}: not a readable file")
    for what, path in (("output", cfg.output), ("errors file", _errors_path(cfg))):
        if path == "-":
            raise InputError(f"the {what} must be a file (it is appended to and resumed)")
        folder = what == "output" and cfg.format == "parquet"
        if folder and os.path.exists(path) and not os.path.isdir(path):
            raise InputError(f"the Parquet output {path} is a file; it must be a directory "
                             "(one part per chunk)")
        if os.path.isdir(path) and not folder:
            raise InputError(f"the {what} {path} is a directory")
        parent = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(parent):
            raise InputError(f"cannot write {path}: no directory {parent}")
        if os.path.exists(path) and not os.access(path, os.W_OK) \
                or not os.path.exists(path) and not os.access(parent, os.W_OK):
            raise InputError(f"cannot write {path}: permission denied")
    if cfg.input != "-" and os.path.abspath(cfg.input) == os.path.abspath(cfg.output):
        raise InputError("the output file is the input file")
    if cfg.scheduler or cfg.cluster:
        require_distributed()
    return ChunkSpec(rules, whole["opponents"], cfg.method, whole["samples"], whole["seed"],
                     card_removal, tables, cfg.format)


def run_record(cfg: BatchConfig | ChunkSpec) -> dict:
    """What decides a run's answers (of its :class:`~solver.batch.many.ChunkSpec`, or of the
    one a config makes): the rules (every option), the opponents, the method, the
    card-removal switch, the strategy tables (their content hash) and, for ``montecarlo``,
    the samples and the seed. Recorded with the output, so that a rerun with other options
    cannot add answers of another kind to it."""
    spec = cfg if isinstance(cfg, ChunkSpec) else ChunkSpec(
        resolve_rules(cfg.rules), cfg.opponents, cfg.method, cfg.samples, cfg.seed,
        cfg.card_removal, None if cfg.tables is None else checked_tables_file(cfg.tables))
    record = {"rules": spec.rules.to_dict(),
              "opponents": spec.opponents, "method": spec.method,
              "card_removal": spec.card_removal, "tables": tables_digest(spec.tables)}
    if spec.method == "montecarlo":  # and the rule keeping table's split (answers before it
        # have none: a run resumed from them would mix two kinds of answers)
        record.update(samples=spec.samples, seed=spec.seed, keep_table_z=ANCHOR_Z)
    return record


def check_record(previous: dict, record: dict, output: str) -> None:
    """:class:`InputError` naming every option in which this run differs from the one that
    wrote ``output``."""
    diff = [f"{key} {json.dumps(previous.get(key))} (this run: {json.dumps(record.get(key))})"
            for key in sorted(set(previous) | set(record)) if previous.get(key) != record.get(key)]
    if diff:
        raise InputError(f"{output} holds answers of a run with other options: "
                         f"{'; '.join(diff)}. Rerun with that run's options, or write to "
                         "another output")


def _errors_path(cfg: BatchConfig) -> str:
    return cfg.errors_file or cfg.output + ".errors.jsonl"


@dataclass
class _Backend:
    """Where a run's chunks go: the executor, its name for the summary, how many chunks it
    runs at once, and how to let it go."""

    executor: Executor
    name: str
    workers: int
    close: Callable[[], None]


def _make_executor(cfg: BatchConfig) -> _Backend:
    if cfg.scheduler or cfg.cluster:
        client, cluster = connect(cfg.scheduler, cfg.workers or 2, warm=warm_up)

        def cleanup() -> None:
            client.close()
            if cluster is not None:
                cluster.close()

        try:
            dask = dask_executor(client, warm=warm_up)
            name = f"dask {cfg.scheduler}" if cfg.scheduler else "dask local cluster"
            workers = cluster_threads(client)
        except BaseException:
            cleanup()
            raise

        def close() -> None:
            dask.shutdown(wait=False)  # cancels what is still pending
            cleanup()

        return _Backend(dask, name, workers, close)
    workers = cfg.workers or os.cpu_count() or 1
    if workers == 1:
        warm_up()
        inline = InlineExecutor()
        return _Backend(inline, "in process", 1, inline.shutdown)
    pool = PoolExecutor(workers, warm=warm_up)
    return _Backend(pool, "local processes", workers,
                    lambda: pool.shutdown(wait=False, cancel_futures=True))


def run_batch(cfg: BatchConfig) -> Summary:
    """Solve every line of ``cfg.input`` not yet in the output; see the module docstring."""
    start = time.perf_counter()
    spec = check_config(cfg)  # what every chunk of this run is solved with, built once
    err_path = _errors_path(cfg)
    done = LineSet()
    keep_out = keep_err = None
    parquet = cfg.format == "parquet"
    answers = 0
    if parquet and os.path.isdir(cfg.output):
        answers = scan_parts(cfg.output, done)
    elif not parquet and os.path.exists(cfg.output):
        answers, keep_out = scan_lines(cfg.output, done)
    rec_path = record_path(cfg.output, parquet)
    record = run_record(spec)
    previous = read_record(rec_path)
    if previous is not None and answers:
        check_record(previous, record, cfg.output)
    if os.path.exists(err_path):
        _, keep_err = scan_lines(err_path, done)
    total = None
    if cfg.progress and cfg.input != "-":
        total = _count_todo(cfg.input, done)

    backend = _make_executor(cfg)
    summary = Summary(output=cfg.output, errors_file=err_path, backend=backend.name,
                      workers=backend.workers)
    counts = InputCounts()
    out: Appender | PartWriter | None = None
    errs: Appender | None = None
    bar = None
    solve_start = time.perf_counter()
    try:
        out = PartWriter(cfg.output) if parquet else Appender(cfg.output, keep_out)
        summary.torn_bytes_dropped += out.dropped
        if previous != record:  # a new output, or one left without answers
            write_record(rec_path, record)
        if keep_err is not None:  # only ever created when there is an error to write
            errs = Appender(err_path, keep_err)
            summary.torn_bytes_dropped += errs.dropped
        if cfg.progress:
            from tqdm import tqdm

            bar = tqdm(total=total, unit="hand", unit_scale=True, file=sys.stderr,
                       smoothing=0.05, dynamic_ncols=True, desc="capsa batch")
        try:
            stream = open(cfg.input, "rb") if cfg.input != "-" else sys.stdin.buffer
        except OSError as exc:
            raise InputError(f"cannot read {cfg.input}: {exc.strerror or exc}") from None
        try:
            name = "standard input" if cfg.input == "-" else cfg.input
            chunks = _chunks(_input_lines(stream, name, done, counts), cfg.chunk_size)
            window = (4 * summary.workers + 2 if cfg.ordered else max(2, 3 * summary.workers))
            written = 0
            for _, res in windowed(backend.executor, solve_lines, chunks, spec, window,
                                   cfg.ordered):
                with sigint_deferred():  # a chunk is written and counted, or not at all
                    if res.errors:
                        if errs is None:
                            errs = Appender(err_path)
                        errs.append(res.errors)
                    if res.results:
                        out.append(res.results)
                    summary.solved += res.solved
                    summary.errors += res.failed
                written += 1
                if bar is not None:
                    bar.update(res.solved + res.failed)
                if cfg.on_chunk is not None:
                    cfg.on_chunk(written)
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        backend.close()
        if bar is not None:
            bar.close()
        for f in (out, errs):
            if f is not None:
                f.close()
    summary.pool_restarts = getattr(backend.executor, "restarts", 0)
    summary.skipped = counts.skipped
    summary.blank_or_comment = counts.blank
    summary.input_lines = counts.lines
    now = time.perf_counter()
    summary.elapsed_seconds = round(now - start, 3)
    summary.hands_per_second = round(summary.solved / max(now - solve_start, 1e-9), 1)
    return summary
