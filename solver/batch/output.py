"""Durable output of ``capsa batch``: which lines are done, and appending whole chunks.

A result line starts ``{"line": N``; a run appends whole chunks with one ``write`` and an
``fsync`` each, so after any crash the file holds whole chunks plus at most one torn tail,
which :func:`scan_lines` finds and the next run cuts off.

A write that fails (a full disk, a read-only folder, an I/O error) is an :class:`OutputError`
naming the file and the reason, which the CLI prints on one line; what the failed append had
written is cut off at once, so the file keeps whole chunks only and a rerun completes it.
"""

from __future__ import annotations

import errno
import json
import os
import re
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from solver.errors import InputError

RESULT_LINE = re.compile(rb'\{"line": (\d+)[,}]')


class OutputError(InputError):
    """A file that cannot be written (a full disk, a read-only folder, ...). An
    :class:`InputError`, so the CLI reports it as it reports a bad argument: one line on
    standard error, exit status 2, no traceback."""

    code = "cannot_write"


def cannot_write(path: str, exc: OSError) -> OutputError:
    """``cannot write PATH: <the system's reason>``."""
    return OutputError(f"cannot write {path}: {exc.strerror or exc}")


def write_stdout(text: str) -> None:
    """Print ``text`` and a newline now; a write that fails (a full disk under a redirect) is
    an :class:`OutputError`. A closed pipe stays a ``BrokenPipeError``, which the CLI treats
    as the reader having had enough. Text the stream's encoding cannot carry goes out as
    UTF-8 (the encoding of JSON) rather than failing."""
    try:
        try:
            sys.stdout.write(text + "\n")
        except UnicodeEncodeError:
            sys.stdout.flush()
            sys.stdout.buffer.write((text + "\n").encode("utf-8", "backslashreplace"))
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise cannot_write("standard output", exc) from None


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
    try:
        with open(path, "rb") as f:
            for k, raw in enumerate(f, 1):
                m = RESULT_LINE.match(raw) if raw.endswith(b"}\n") else None
                if m is not None and torn_at is None:
                    done.add(int(m.group(1)))
                    records += 1
                    good = offset + len(raw)
                elif m is not None:
                    raise InputError(f"{path} line {torn_at} is not a batch record, but later "
                                     "lines are: the file is damaged or not from capsa batch")
                elif torn_at is None:
                    torn_at = k
                offset += len(raw)
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    return records, good


class Appender:
    """A file opened for appending whole records: one ``write`` + ``fsync`` per call, under an
    exclusive lock (two runs must not write the same file). A failing call leaves the file
    as it was before it (see the module doc)."""

    def __init__(self, path: str, keep: int | None = None):
        self.path = path
        existed = os.path.exists(path)
        try:
            self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        except OSError as exc:
            raise cannot_write(path, exc) from None
        _lock(self.fd, path)
        self.dropped = 0
        try:
            self.size = os.fstat(self.fd).st_size  # where the last whole record ends
            if keep is not None and self.size > keep:
                os.ftruncate(self.fd, keep)
                os.fsync(self.fd)
                self.dropped = self.size - keep
                self.size = keep
        except OSError as exc:
            os.close(self.fd)
            raise cannot_write(path, exc) from None
        if not existed:
            fsync_dir(path)

    def append(self, data: bytes) -> None:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self.fd, view):]
            os.fsync(self.fd)
        except OSError as exc:
            self._cut()
            raise cannot_write(self.path, exc) from None
        self.size += len(data)

    def _cut(self) -> None:
        """Cut off what a failed append wrote. Should that fail too, the torn tail stays for
        the next run to cut (:func:`scan_lines`)."""
        try:
            os.ftruncate(self.fd, self.size)
            os.fsync(self.fd)
        except OSError:
            pass

    def close(self) -> None:
        os.close(self.fd)


def _lock(fd: int, path: str) -> None:
    """Take an exclusive lock on ``fd`` (two runs must not write one output), or close it
    and say who holds it."""
    try:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except ImportError:  # pragma: no cover - not POSIX
        pass
    except OSError as exc:
        os.close(fd)
        if exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES):
            raise InputError(f"{path} is being written by another capsa batch") from None
        raise OutputError(f"cannot lock {path}: {exc.strerror or exc}") from None


def record_path(output: str, parquet: bool) -> str:
    """Where a run's record (:func:`write_record`) lives: inside a Parquet output directory
    (a name Parquet readers skip), or beside a JSON lines output."""
    return os.path.join(output, "_run.json") if parquet else output + ".run.json"


def read_record(path: str) -> dict | None:
    """The run record at ``path``, or None when there is none; :class:`InputError` when it
    cannot be read as one."""
    try:
        with open(path, "rb") as f:
            record = json.loads(f.read())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise InputError(f"{path} is not a capsa batch run record: {exc}") from None
    if not isinstance(record, dict):
        raise InputError(f"{path} is not a capsa batch run record")
    return record


def write_record(path: str, record: dict) -> None:
    """Write a run record whole: a temporary file, fsynced, renamed into place;
    :class:`OutputError` when it cannot be written."""
    write_whole(path, (json.dumps(record, sort_keys=True) + "\n").encode(), "the run record ")


def write_whole(path: str, data: bytes, what: str = "") -> None:
    """Put ``data`` at ``path`` whole or not at all: a temporary name beside it, fsynced,
    renamed into place, and the directory fsynced. :class:`OutputError` when it cannot be
    written (``what`` goes before the path in its message); the temporary file is then
    removed (or cut by the next run)."""
    tmp = path + ".tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    except OSError as exc:
        raise cannot_write(what + path, exc) from None
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise cannot_write(what + path, exc) from None
    fsync_dir(path)


def fsync_dir(path: str) -> None:
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
def sigint_deferred() -> Iterator[None]:
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


# ---------------------------------------------------------------- Parquet: one part per chunk
PART_GLOB = re.compile(r"part-(\d{8})\.parquet")


def scan_parts(path: str, done: LineSet) -> int:
    """Add the line numbers of every part of a Parquet output directory to ``done``; returns
    the number of records. Parts are renamed into place whole, so each one is complete; one
    that cannot be read means the directory is damaged or not ours: :class:`InputError`."""
    import pyarrow.parquet as pq

    records = 0
    for name in sorted(os.listdir(path)):
        if not PART_GLOB.fullmatch(name):
            continue
        try:
            lines = pq.read_table(os.path.join(path, name), columns=["line"]).column("line")
        except Exception as exc:  # pyarrow raises several types for a bad file
            raise InputError(f"{os.path.join(path, name)} is not a readable Parquet part of "
                             f"capsa batch: {exc}") from None
        for n in lines.to_pylist():
            done.add(int(n))
            records += 1
    return records


class PartWriter:
    """A Parquet output directory written one whole part per chunk: each part goes to a
    temporary name, is fsynced, then renamed into place (and the directory fsynced), so a part
    is there whole or not at all. Leftover temporary files of an interrupted run are removed
    (counted in ``dropped``). Same interface as :class:`Appender`; one run at a time (lock)."""

    def __init__(self, path: str):
        self.path = path
        try:
            os.makedirs(path, exist_ok=True)
            self.fd = os.open(os.path.join(path, ".lock"), os.O_WRONLY | os.O_CREAT, 0o644)
        except OSError as exc:
            raise cannot_write(path, exc) from None
        _lock(self.fd, path)
        self.dropped = 0
        seq = 0
        try:
            for name in os.listdir(path):
                if name.endswith(".tmp"):
                    full = os.path.join(path, name)
                    self.dropped += os.path.getsize(full)
                    os.unlink(full)
                m = PART_GLOB.fullmatch(name)
                if m:
                    seq = max(seq, int(m.group(1)) + 1)
        except OSError as exc:
            os.close(self.fd)
            raise cannot_write(path, exc) from None
        self.next = seq
        fsync_dir(os.path.join(path, "x"))

    def append(self, data: bytes) -> None:
        write_whole(os.path.join(self.path, f"part-{self.next:08d}.parquet"), data)
        self.next += 1

    def close(self) -> None:
        os.close(self.fd)
