r"""One line of a file from outside (``capsa batch`` and ``capsa review``), read so that no line
can stop a run: every way a line can be bad is an :class:`InputError` with a one-line reason,
and whatever a line gives back can be written out again as strict UTF-8 JSON.

What makes a line bad (over 64 KiB, not UTF-8, a lone surrogate, NaN, Infinity, 1e400, an
integer of more than 4,300 digits, nesting more than 64 deep) is checked in
:mod:`solver.games.capsa.coach`, since the game layer reviews lines too and may not import
this package; those checks are gathered here with the batch reader of a whole file
(:func:`read_lines`) and its errors-file record (:func:`error_record`).

>>> loads_line('{"id": "a\\u00e9", "hand": ["As"]}')
{'id': 'aé', 'hand': ['As']}
>>> loads_line('{"id": NaN}')
Traceback (most recent call last):
...
solver.errors.InputError: bad JSON: NaN is not a JSON number
>>> print(error_record(4, "unknown card '\ud800'\nand more"))
{"line": 4, "error": "unknown card '\\ud800'\\nand more"}
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from solver.games.capsa.coach import (
    MAX_DEPTH,
    MAX_ERROR_CHARS,
    MAX_INT_DIGITS,
    MAX_LINE_BYTES,
    check_text,
    decode_line,
    json_problem,
    loads_line,
    not_utf8,
    one_line,
    split_text,
    too_long,
)


@dataclass(frozen=True)
class BadLine:
    """A line refused before it was parsed (too long, or not UTF-8), and why: it travels with
    the good lines of its chunk so that its error is written with them."""

    reason: str


def error_record(line: int, message: str) -> str:
    """The JSON of an errors-file record, ``{"line": N, "error": "<one-line reason>"}``."""
    return json.dumps({"line": int(line), "error": one_line(message)}, ensure_ascii=False)


def read_lines(stream: BinaryIO, limit: int = MAX_LINE_BYTES
               ) -> Iterator[tuple[int, str | BadLine | None]]:
    """``(line number from 1, what the line holds)`` for each line of ``stream`` (lines end at
    ``\\n`` only): None for a blank line or a comment (``#`` first; a UTF-8 byte-order mark
    opening line 1 is dropped), the stripped text, or a :class:`BadLine` (too long, not UTF-8).
    A line over ``limit`` is never held whole: memory stays bounded by ``limit``."""
    n = 0
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        n += 1
        if len(raw) > limit and not raw.endswith(b"\n"):
            yield n, _long_line(stream, raw, n, limit)
            continue
        raw = raw.rstrip(b"\n")
        if n == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        try:
            text = raw.decode("utf-8").strip()
        except UnicodeDecodeError as exc:
            stripped = raw.strip()
            yield n, (None if not stripped or stripped.startswith(b"#")
                      else BadLine(not_utf8(raw, exc)))
            continue
        yield n, (None if not text or text.startswith("#") else text)


def _long_line(stream: BinaryIO, head: bytes, n: int, limit: int) -> BadLine | None:
    """Skip the rest of a line longer than ``limit`` (``head`` is its start): None when it is
    a comment or only white space, else the :class:`BadLine` that says so."""
    if n == 1 and head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    start = head.lstrip()
    size = len(head)
    blank = not start
    while True:
        piece = stream.readline(1 << 16)
        if not piece:
            break
        body = piece.rstrip(b"\n")
        size += len(body)
        blank = blank and not body.strip()
        if piece.endswith(b"\n"):
            break
    if blank or start.startswith(b"#"):
        return None
    return BadLine(too_long(size, limit))


__all__ = ["MAX_DEPTH", "MAX_ERROR_CHARS", "MAX_INT_DIGITS", "MAX_LINE_BYTES", "BadLine",
           "check_text", "decode_line", "error_record", "json_problem", "loads_line",
           "not_utf8", "one_line", "read_lines", "split_text", "too_long"]
