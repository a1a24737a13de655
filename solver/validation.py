"""Range and type checks of user-given values, one wording everywhere: the Python API, the
``capsa`` command, batch runs (and the HTTP layer) say the same thing about the same mistake.

Each check returns the value in its plain Python type or raises :class:`InputError` (or the
``error`` class given, e.g. :class:`~solver.errors.RulesError`) naming the value. No Flask,
no numba: any layer may import it.

>>> check_int("opponents", 2, 1, 3)
2
>>> check_int("opponents", 4, 1, 3)
Traceback (most recent call last):
...
solver.errors.InputError: opponents must be between 1 and 3, got 4
>>> check_int("top", True, 1, 5)
Traceback (most recent call last):
...
solver.errors.InputError: top must be a whole number, got True
>>> parse_int("--seed", "x7")
Traceback (most recent call last):
...
solver.errors.InputError: --seed must be an integer, got 'x7'
>>> check_choice("method", "table", ("table", "montecarlo"))
'table'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from solver.errors import InputError


def _range_problem(name: str, value: int, low: int | None, high: int | None) -> str | None:
    """The out-of-range message for ``value``, or None when it is inside the bounds."""
    if (low is None or value >= low) and (high is None or value <= high):
        return None
    if low is None:
        return f"{name} must be at most {high}, got {value}"
    if high is None:
        return f"{name} must be at least {low}, got {value}"
    return f"{name} must be between {low} and {high}, got {value}"


def check_int(name: str, value: Any, low: int | None, high: int | None,
              error: type[InputError] = InputError) -> int:
    """``value`` as an ``int`` when it is a whole number (Python or NumPy integer, never a
    bool) from ``low`` to ``high`` (None: unbounded on that side)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise error(f"{name} must be a whole number, got {value!r}")
    problem = _range_problem(name, int(value), low, high)
    if problem is not None:
        raise error(problem)
    return int(value)


def check_whole(name: str, value: Any, low: int | None, high: int | None,
                error: type[InputError] = InputError) -> int:
    """:func:`check_int` that also takes a float with a whole value (``3.0``), as JSON
    numbers may come."""
    if isinstance(value, float) and not isinstance(value, bool) and value.is_integer():
        value = int(value)
    return check_int(name, value, low, high, error)


def parse_int(name: str, text: str, low: int | None = None, high: int | None = None,
              error: type[InputError] = InputError) -> int:
    """An integer written as text (a command-line argument), from ``low`` to ``high``."""
    try:
        value = int(text)
    except ValueError:
        raise error(f"{name} must be an integer, got {text!r}") from None
    return check_int(name, value, low, high, error)


def check_bool(name: str, value: Any, error: type[InputError] = InputError) -> bool:
    """``value`` as a ``bool`` when it is one (Python or NumPy), never a number or a string."""
    if not isinstance(value, (bool, np.bool_)):
        raise error(f"{name} must be true or false, got {value!r}")
    return bool(value)


def check_choice(name: str, value: Any, choices: Sequence[str],
                 error: type[InputError] = InputError) -> str:
    """``value`` when it is one of ``choices`` (strings)."""
    if not isinstance(value, str) or value not in choices:
        raise error(f"{name} must be one of {', '.join(choices)}, got {value!r}")
    return value
