"""What every ``capsa`` command shares: the one-line-error parser and argument types."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from solver.errors import InputError
from solver.validation import parse_int

EXIT_INPUT_ERROR = 2


class Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as :class:`InputError` (one line, exit status 2)."""

    def error(self, message: str) -> NoReturn:
        raise InputError(message)


def print_json(obj: object) -> None:
    print(json.dumps(obj, ensure_ascii=False))


def read_text(path: str) -> str:
    """A UTF-8 text file, or standard input for ``-``; :class:`InputError` names a file that
    cannot be read."""
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{path} is not UTF-8 text: {exc.reason}") from None


def read_json(path: str) -> object:
    """JSON from a file, or from standard input for ``-``."""
    text = read_text(path)
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        where = "standard input" if path == "-" else path
        raise InputError(f"{where} is not valid JSON: {exc}") from None


def rules_argument(text: str) -> object:
    """``--rules``: a preset name, a JSON object of preset plus overrides, or a file holding
    that object (a name ending in ``.json``, or any existing file)."""
    text = text.strip()
    if text.startswith("{"):
        try:
            return json.loads(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"--rules is not valid JSON: {exc}") from None
    if text.endswith(".json") or os.path.isfile(text):
        try:
            return read_json(text)
        except InputError as exc:
            raise argparse.ArgumentTypeError(f"--rules: {exc}") from None
    return text


def int_arg(name: str, low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An integer argument named ``name`` (for its error message), optionally bounded: the
    check of :func:`solver.validation.parse_int`, reported as argparse reports a bad type."""

    def parse(text: str) -> int:
        try:
            return parse_int(name, text, low, high)
        except InputError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = name
    return parse


def float_arg(name: str, low: float, high: float, high_open: bool = False
              ) -> Callable[[str], float]:
    """A number argument named ``name`` from ``low`` to ``high`` (``high`` itself excluded
    with ``high_open``), reported as argparse reports a bad type."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = float("nan")  # fails the range check below
        if not (low <= value < high if high_open else low <= value <= high):
            raise argparse.ArgumentTypeError(
                f"{name} must be a number from {low:g} to {'below ' if high_open else ''}"
                f"{high:g}, got {text!r}")
        return value

    parse.__name__ = name
    return parse


def check_writable(path: Path) -> None:
    """Raise :class:`InputError` naming why a file cannot be written at ``path`` (no such
    folder, a folder in its place, no permission), before hours of work are spent on it."""
    if not path.parent.is_dir():
        raise InputError(f"cannot write {path}: {path.parent} is not a directory")
    if path.is_dir():
        raise InputError(f"cannot write {path}: it is a directory")
    if not os.access(path if path.exists() else path.parent, os.W_OK):
        raise InputError(f"cannot write {path}: permission denied")
