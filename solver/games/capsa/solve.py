"""The names the solver was first imported by, kept for their importers; new code imports
them from where they live:

- :mod:`solver.games.capsa.arrange`: :func:`arrange`, ``METHODS``, :func:`warm_up`;
- :mod:`solver.games.capsa.results`: the answers (``ArrangeResult``, ``RankedArrangement``,
  ``RowInfo``);
- :mod:`solver.games.capsa.methods`: ``table``, ``montecarlo``, ``known`` and the exact
  scoring they share (``exact``);
- :mod:`solver.games.capsa.work`: Monte Carlo work limits;
- :mod:`solver.batch.many`: many hands (``arrange_many``, ``best_many``, ...), looked up
  only when asked for: the game layer does not load the batch machinery itself.

>>> from solver.games.capsa.solve import arrange
>>> arrange("As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h", opponents=1, top=1).valid_arrangements
18835
"""

from __future__ import annotations

import importlib
from typing import Any

from solver.games.capsa.arrange import METHODS, arrange, warm_up
from solver.games.capsa.limits import MAX_SAMPLES, MAX_TOP
from solver.games.capsa.methods.exact import Splits as _Splits
from solver.games.capsa.methods.exact import candidates as _candidates
from solver.games.capsa.methods.exact import exact_result as _exact_result
from solver.games.capsa.methods.exact import kind_names as _kinds
from solver.games.capsa.methods.exact import opponent_rows as _opponent_rows
from solver.games.capsa.methods.exact import valid_splits as _valid_splits
from solver.games.capsa.methods.known import known_opponents as _known_opponents
from solver.games.capsa.methods.montecarlo import hand_seed
from solver.games.capsa.methods.table import table_arrangements as _table_result
from solver.games.capsa.results import ROW_NAMES, ArrangeResult, RankedArrangement, RowInfo
from solver.games.capsa.work import (
    OPPONENT_SET_COST,
    batch_work,
    montecarlo_work,
)
from solver.games.capsa.work import check_work as _check_work

__all__ = ["MAX_SAMPLES", "MAX_TOP", "METHODS", "OPPONENT_SET_COST", "ROW_NAMES",
           "ArrangeResult", "RankedArrangement", "RowInfo", "_Splits", "_candidates",
           "_check_work", "_exact_result", "_kinds", "_known_opponents", "_opponent_rows",
           "_table_result", "_valid_splits", "arrange", "batch_work", "hand_seed",
           "montecarlo_work", "warm_up"]

# names now in solver.batch.many, resolved on first use
_BATCH_NAMES = {"arrange_many": "arrange_many", "arrange_many_columns": "arrange_many_columns",
                "best_many": "best_many", "best_many_columns": "best_many_columns",
                "best_chunk": "best_chunk", "best_chunk_columns": "best_chunk_columns",
                "_parse_many": "parse_many", "_map_chunks": "map_chunks",
                "_batch_args": "_batch_args"}


def __getattr__(name: str) -> Any:
    target = _BATCH_NAMES.get(name)
    if target is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module("solver.batch.many"), target)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_BATCH_NAMES))
