"""``capsa batch``: the best arrangement of every hand of a file, durable and resumable.

Input, one hand per line (line numbers count every physical line, from 1):

- plain text: ``As Kd 10h 9c ...`` (13 cards);
- or JSON: a string of cards, a list of cards, or ``{"hand": ..., "id": ...}`` (``id`` a
  string or integer, copied to the output);
- blank lines and lines starting with ``#`` are skipped.

Output, JSON lines appended to OUT in whole chunks as they finish (one ``write`` and an
``fsync`` per chunk): ``{"line": N, "id"?: ..., "hand": [...], "front": [...], "middle": [...],
"back": [...], "ev": x}``. A bad line goes to the errors file as ``{"line": N, "error": ...}``
and the run goes on. A line is done once it is in OUT or in the errors file: a rerun skips
it, so every input line lands exactly once whatever interrupted the run before. A torn tail
(a crash mid-write) is cut off on rerun. Delete the errors file to try its lines again.

>>> parse_line('{"hand": "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s", "id": 7}')[1]
7
>>> out = solve_lines([(3, "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s"), (4, "As As")],
...                   ("standard", 1, "table", 100, 0))
>>> (out.solved, out.failed, out.errors.decode())
(1, 1, '{"line": 4, "error": "duplicate card \\'As\\'"}\\n')
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any, BinaryIO, Protocol

import numpy as np

from solver.errors import InputError
from solver.parallel import PoolExecutor

DEFAULT_CHUNK = 2000
MAX_CHUNK = 1_000_000
MAX_ERROR_CHARS = 300
_RESULT_LINE = re.compile(rb'\{"line": (\d+)[,}]')


# ---------------------------------------------------------------- one line, one chunk
def parse_line(text: str) -> tuple[np.ndarray, object]:
    """(sorted card ids, id or None) of one input line; :class:`InputError` if it is bad."""
    from solver.splits import parse_hand

    text = text.strip()
    ident: object = None
    if text[:1] in ('"', "[", "{"):
        try:
            value = json.loads(text)
        except ValueError as exc:
            raise InputError(f"bad JSON: {exc}") from None
        if isinstance(value, dict):
            unknown = sorted(set(value) - {"hand", "id"})
            if unknown:
                raise InputError(f"unknown field{'s' if len(unknown) > 1 else ''} "
                                 f"{', '.join(map(repr, unknown))}; fields are hand and id")
            if "hand" not in value:
                raise InputError('the object has no "hand"')
            ident = value.get("id")
            if ident is not None and (isinstance(ident, bool) or not isinstance(ident, (str, int))):
                raise InputError("id must be a string or an integer")
            value = value["hand"]
        if not isinstance(value, (str, list)):
            raise InputError("a hand is a string of cards or a list of cards")
        return parse_hand(value), ident
    return parse_hand(text), ident


@dataclass(frozen=True)
class ChunkOutput:
    """A solved chunk, already serialised: the main process only appends bytes."""

    results: bytes
    errors: bytes
    solved: int
    failed: int


def _short(message: str) -> str:
    return message if len(message) <= MAX_ERROR_CHARS else message[:MAX_ERROR_CHARS] + "..."


def solve_lines(items: Sequence[tuple[int, str]], args: tuple) -> ChunkOutput:
    """Parse and solve ``(line number, text)`` items; ``args`` = (rules, opponents, method,
    samples, seed) as :func:`solver.arrange.best_many` takes them. Pure: safe to retry."""
    from solver.arrange import best_many

    hands: list[np.ndarray] = []
    meta: list[tuple[int, object]] = []
    errors: list[str] = []
    for line, text in items:
        try:
            hand, ident = parse_line(text)
        except InputError as exc:
            errors.append(json.dumps({"line": line, "error": _short(str(exc))}, ensure_ascii=False))
            continue
        hands.append(hand)
        meta.append((line, ident))
    results = best_many(np.array(hands, dtype=np.int64).reshape(-1, 13), *args) if hands else []
    lines = []
    for (line, ident), res in zip(meta, results):
        d: dict[str, Any] = {"line": line}
        if ident is not None:
            d["id"] = ident
        d.update(res)
        lines.append(json.dumps(d, ensure_ascii=False))
    return ChunkOutput("".join(s + "\n" for s in lines).encode(),
                       "".join(s + "\n" for s in errors).encode(), len(lines), len(errors))


# ---------------------------------------------------------------- durable output
class LineSet:
    """A set of line numbers as a byte per line (100 million lines: 100 MB, not gigabytes).

    >>> s = LineSet(); s.add(5), s.add(5), (5 in s, 4 in s, 10**9 in s)
    (True, False, (True, False, False))
    """

    def __init__(self) -> None:
        self._bits = bytearray()

    def add(self, n: int) -> bool:
        """Add ``n``; False if it was there already."""
        if n >= len(self._bits):
            self._bits.extend(bytes(max(n + 1 - len(self._bits), len(self._bits))))
        was = self._bits[n]
        self._bits[n] = 1
        return not was

    def __contains__(self, n: int) -> bool:
        return n < len(self._bits) and self._bits[n] == 1


def scan_lines(path: str, done: LineSet) -> tuple[int, int]:
    """Add the line numbers recorded in a result or errors file to ``done``.

    Returns (records, good_size): the byte size up to the last whole record. What follows it
    is a torn tail (an interrupted write) to cut off. A bad record followed by good ones means
    the file is not ours, or was damaged: :class:`InputError`.
    """
    records = 0
    good = 0
    offset = 0
    torn_at: int | None = None
    with open(path, "rb") as f:
        for k, raw in enumerate(f, 1):
            m = _RESULT_LINE.match(raw)
            whole = m is not None and raw.endswith(b"}\n")
            if whole and torn_at is None:
                done.add(int(m.group(1)))  # type: ignore[union-attr]
                records += 1
                good = offset + len(raw)
            elif whole:
                raise InputError(f"{path} line {torn_at} is not a batch record, but later "
                                 "lines are: the file is damaged or not from capsa batch")
            elif torn_at is None:
                torn_at = k
            offset += len(raw)
    return records, good


class Appender:
    """A file opened for appending whole records: one ``write`` + ``fsync`` per call, under an
    exclusive lock (two runs must not write the same file)."""

    def __init__(self, path: str, keep: int | None = None):
        self.path = path
        existed = os.path.exists(path)
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            import fcntl

            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except ImportError:  # pragma: no cover - not POSIX
            pass
        except OSError:
            os.close(self.fd)
            raise InputError(f"{path} is being written by another capsa batch") from None
        self.dropped = 0
        if keep is not None:
            size = os.fstat(self.fd).st_size
            if size > keep:
                os.ftruncate(self.fd, keep)
                os.fsync(self.fd)
                self.dropped = size - keep
        if not existed:
            _fsync_dir(path)

    def append(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = os.write(self.fd, view)
            view = view[n:]
        os.fsync(self.fd)

    def close(self) -> None:
        os.close(self.fd)


def _fsync_dir(path: str) -> None:
    try:
        fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    except OSError:  # pragma: no cover
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some file systems refuse
        pass
    finally:
        os.close(fd)


@contextmanager
def _sigint_deferred() -> Iterator[None]:
    """Hold a Ctrl-C that arrives inside the block until the block is over."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda sig, frame: caught.append(sig))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


# ---------------------------------------------------------------- input
@dataclass
class InputCounts:
    lines: int = 0
    blank: int = 0
    skipped: int = 0


def _input_lines(stream: BinaryIO, done: LineSet, counts: InputCounts
                 ) -> Iterator[tuple[int, str]]:
    """(line number, text) of the lines still to do. Lines end at ``\\n`` only."""
    for n, raw in enumerate(stream, 1):
        counts.lines = n
        text = raw.decode("utf-8", "replace").strip()
        if n == 1:
            text = text.lstrip("\ufeff").strip()
        if not text or text.startswith("#"):
            counts.blank += 1
            continue
        if n in done:
            counts.skipped += 1
            continue
        yield n, text


def _count_todo(path: str, done: LineSet) -> int:
    todo = 0
    with open(path, "rb") as f:
        for n, raw in enumerate(f, 1):
            text = raw.strip()
            if n == 1:
                text = text.lstrip(b"\xef\xbb\xbf").strip()
            if text and not text.startswith(b"#") and n not in done:
                todo += 1
    return todo


def _chunks(items: Iterable[tuple[int, str]], size: int) -> Iterator[tuple[tuple[int, str], ...]]:
    buf: list[tuple[int, str]] = []
    for item in items:
        buf.append(item)
        if len(buf) == size:
            yield tuple(buf)
            buf = []
    if buf:
        yield tuple(buf)


# ---------------------------------------------------------------- executors
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
    rules: object = "standard"
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
    # called after each chunk is written (tests use it to interrupt a run at a known point)
    on_chunk: Callable[[int], None] | None = field(default=None, repr=False)

    @property
    def args(self) -> tuple:
        return (self.rules, self.opponents, self.method, self.samples, self.seed)


def check_config(cfg: BatchConfig) -> None:
    """Every command-line problem, before any output file is touched."""
    from solver.arrange import MAX_SAMPLES
    from solver.rules import resolve_rules

    resolve_rules(cfg.rules)  # type: ignore[arg-type]
    if cfg.method not in ("table", "montecarlo"):
        raise InputError(f"--method must be table or montecarlo, got {cfg.method!r}")
    for name, value, low, high in (("--opponents", cfg.opponents, 1, 3),
                                   ("--samples", cfg.samples, 1, MAX_SAMPLES),
                                   ("--seed", cfg.seed, 0, 2**63 - 1),
                                   ("--chunk-size", cfg.chunk_size, 1, MAX_CHUNK),
                                   ("--workers", 1 if cfg.workers is None else cfg.workers, 1, 1024)):
        if not low <= value <= high:
            raise InputError(f"{name} must be between {low} and {high}, got {value}")
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
        if os.path.isdir(path):
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
        from solver.distributed import require_distributed

        require_distributed()


def _errors_path(cfg: BatchConfig) -> str:
    return cfg.errors_file or cfg.output + ".errors.jsonl"


def _make_executor(cfg: BatchConfig) -> tuple[Any, str, Callable[[], None]]:
    """(executor, backend name, cleanup)."""
    if cfg.scheduler or cfg.cluster:
        from solver.distributed import DaskExecutor, connect

        client, cluster = connect(cfg.scheduler, cfg.workers or 2)

        def cleanup() -> None:
            client.close()
            if cluster is not None:
                cluster.close()

        try:
            ex = DaskExecutor(client, solve_lines, cfg.args)
            name = f"dask {cfg.scheduler}" if cfg.scheduler else "dask local cluster"
        except BaseException:
            cleanup()
            raise
        return ex, name, cleanup
    workers = cfg.workers or os.cpu_count() or 1
    if workers == 1:
        from solver.warmup import warm_up

        warm_up()
        return InlineExecutor(solve_lines, cfg.args), "in process", lambda: None
    return PoolExecutor(solve_lines, cfg.args, workers), "local processes", lambda: None


def run_batch(cfg: BatchConfig) -> Summary:
    """Solve every line of ``cfg.input`` not yet in the output; see the module docstring."""
    start = time.perf_counter()
    check_config(cfg)
    err_path = _errors_path(cfg)
    done = LineSet()
    keep_out = keep_err = None
    if os.path.exists(cfg.output):
        _, keep_out = scan_lines(cfg.output, done)
    if os.path.exists(err_path):
        _, keep_err = scan_lines(err_path, done)
    total = None
    if cfg.progress and cfg.input != "-":
        total = _count_todo(cfg.input, done)

    executor, backend, cleanup = _make_executor(cfg)
    summary = Summary(output=cfg.output, errors_file=err_path, backend=backend,
                      workers=getattr(executor, "workers", 1))
    counts = InputCounts()
    out = errs = None
    bar = None
    solve_start = time.perf_counter()
    try:
        out = Appender(cfg.output, keep_out)
        summary.torn_bytes_dropped += out.dropped
        if keep_err is not None:  # only ever created when there is an error to write
            errs = Appender(err_path, keep_err)
            summary.torn_bytes_dropped += errs.dropped
        if cfg.progress:
            from tqdm import tqdm

            bar = tqdm(total=total, unit="hand", unit_scale=True, file=sys.stderr,
                       smoothing=0.05, dynamic_ncols=True, desc="capsa batch")
        stream = open(cfg.input, "rb") if cfg.input != "-" else sys.stdin.buffer
        try:
            chunks = _chunks(_input_lines(stream, done, counts), cfg.chunk_size)
            window = max(2, 3 * summary.workers) if not cfg.ordered else 4 * summary.workers + 2
            pending: set[int] = set()
            buffered: dict[int, ChunkOutput] = {}
            next_index = 0  # next chunk to submit
            next_write = 0  # next chunk to write, in --ordered mode
            exhausted = False
            written = 0
            while True:
                while not exhausted and len(pending) + len(buffered) < window:
                    chunk = next(chunks, None)
                    if chunk is None:
                        exhausted = True
                        break
                    executor.submit(next_index, chunk)
                    pending.add(next_index)
                    next_index += 1
                if not pending:
                    break
                index, result = executor.next_done()
                pending.discard(index)
                ready: list[ChunkOutput] = []
                if cfg.ordered:
                    buffered[index] = result
                    while next_write in buffered:
                        ready.append(buffered.pop(next_write))
                        next_write += 1
                else:
                    ready.append(result)
                for res in ready:
                    with _sigint_deferred():  # a chunk is written and counted, or not at all
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
        executor.close()
        if bar is not None:
            bar.close()
        for f in (out, errs):
            if f is not None:
                f.close()
        cleanup()
    summary.pool_restarts = getattr(executor, "restarts", 0)
    summary.skipped = counts.skipped
    summary.blank_or_comment = counts.blank
    summary.input_lines = counts.lines
    now = time.perf_counter()
    summary.elapsed_seconds = round(now - start, 3)
    summary.hands_per_second = round(summary.solved / max(now - solve_start, 1e-9), 1)
    return summary


# ---------------------------------------------------------------- command line
def _int_arg(name: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer, got {text!r}") from None

    parse.__name__ = name
    return parse


def add_batch_command(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``capsa batch`` to the sub-commands."""
    from solver.cli import rules_argument

    p = sub.add_parser(
        "batch", help="best arrangement of every hand of a file (JSON lines out, resumable)",
        description="Solve one hand per line of IN (plain text or JSON; blank lines and lines "
                    "starting with # are skipped) and append JSON lines to OUT. Rerunning the "
                    "same command resumes: lines already in OUT or in the errors file are "
                    "skipped.")
    p.add_argument("input", metavar="IN", help="hands, one per line; - for standard input")
    p.add_argument("-o", "--output", metavar="OUT", required=True, help="JSON lines output file")
    p.add_argument("--rules", type=rules_argument, default="standard",
                   help="preset name or JSON object of preset and options")
    p.add_argument("--opponents", type=_int_arg("--opponents"), default=3)
    p.add_argument("--method", choices=("table", "montecarlo"), default="table")
    p.add_argument("--samples", type=_int_arg("--samples"), default=1000,
                   help="Monte Carlo deals per hand")
    p.add_argument("--seed", type=_int_arg("--seed"), default=0,
                   help="Monte Carlo seed (each hand's own seed comes from it and its cards)")
    p.add_argument("--workers", type=_int_arg("--workers"), default=None,
                   help="local processes (default: every core), or the --cluster local size "
                        "(default 2)")
    p.add_argument("--chunk-size", type=_int_arg("--chunk-size"), default=DEFAULT_CHUNK,
                   help=f"hands per task and per write (default {DEFAULT_CHUNK})")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="a running Dask scheduler, e.g. tcp://host:8786")
    where.add_argument("--cluster", choices=("local",),
                       help="start a Dask LocalCluster for this run")
    p.add_argument("--ordered", action="store_true", help="write results in input order")
    p.add_argument("--errors", metavar="FILE", default=None,
                   help="bad lines go here (default OUT.errors.jsonl)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--json-summary", action="store_true",
                   help="also print the summary as JSON on standard output")
    p.set_defaults(func=cmd_batch)
    return p


def config_from_args(args: argparse.Namespace) -> BatchConfig:
    return BatchConfig(input=args.input, output=args.output, errors_file=args.errors,
                       rules=args.rules, opponents=args.opponents, method=args.method,
                       samples=args.samples, seed=args.seed, workers=args.workers,
                       chunk_size=args.chunk_size, scheduler=args.scheduler,
                       cluster=args.cluster, ordered=args.ordered,
                       progress=not args.no_progress)


def cmd_batch(args: argparse.Namespace) -> int:
    summary = run_batch(config_from_args(args))
    print(summary.text(), file=sys.stderr)
    if args.json_summary:
        print(json.dumps(asdict(summary)))
        sys.stdout.flush()
    return 130 if summary.interrupted else 0


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise InputError(message)


def main(argv: Sequence[str] | None = None) -> int:
    """``capsa batch`` on its own (``python -m solver.batch IN -o OUT ...``)."""
    parser = _Parser(prog="capsa")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    add_batch_command(sub)
    try:
        args = parser.parse_args(["batch", *(sys.argv[1:] if argv is None else argv)])
        return cmd_batch(args)
    except InputError as exc:
        print(f"capsa: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # before the run started (reading OUT, starting a cluster)
        print("capsa: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
