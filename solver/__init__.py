"""Capsa Susun solver and sibling game engines.

The public API is imported on first use, so ``import solver`` (or a pure-Python game such as
``solver.games.da_san``) does not load numba; ``solver.arrange`` and friends load the Capsa
kernels when first touched.

>>> import solver
>>> solver.valid_arrangements("As Kd Qh Jc Tc 9s 8s 7h 6d 5c 4c 3d 2h")
17541
"""

from __future__ import annotations

import importlib
from typing import Any

# public name -> module that defines it
_EXPORTS = {
    "ArrangeResult": "solver.games.capsa.results",
    "arrange": "solver.games.capsa.arrange",
    "arrange_many": "solver.batch.many",
    "arrange_many_columns": "solver.batch.many",
    "Arrangement": "solver.games.capsa.splits",
    "valid_arrangements": "solver.games.capsa.splits",
    "review": "solver.games.capsa.profile",
    "profile": "solver.games.capsa.profile",
    "Profile": "solver.games.capsa.profile",
    "score": "solver.games.capsa.referee",
    "detect_natural": "solver.games.capsa.naturals",
    "Rules": "solver.games.capsa.rules",
    "resolve_rules": "solver.games.capsa.rules",
    "Card": "solver.cards",
    "format_cards": "solver.cards",
    "parse_cards": "solver.cards",
    "CardError": "solver.errors",
    "IllegalMoveError": "solver.errors",
    "InputError": "solver.errors",
    "RulesError": "solver.errors",
    "WorkLimitError": "solver.errors",
    "get_game": "solver.games",
    "list_games": "solver.games",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
