"""Registry of the sibling games: ``list_games()`` and ``get_game(name)``.

>>> "big-two" in list_games()
True
"""

from __future__ import annotations

import importlib
import importlib.util

from solver.errors import InputError
from solver.games.base import GameInfo, GameState

__all__ = ["GameInfo", "GameState", "get_game", "list_games", "register"]

_REGISTRY: dict[str, GameInfo] = {}
_MODULES = ("big_two", "da_san", "da_bai_fen")
_loaded = False


def register(info: GameInfo) -> GameInfo:
    """Add a game to the registry (each game module calls this once at import)."""
    _REGISTRY[info.name] = info
    return info


def _load() -> None:
    global _loaded
    if _loaded:
        return
    for module in _MODULES:
        if importlib.util.find_spec(f"solver.games.{module}") is not None:
            importlib.import_module(f"solver.games.{module}")
    _loaded = True


def list_games() -> list[str]:
    """Names of the registered games."""
    _load()
    return sorted(_REGISTRY)


def get_game(name: str) -> GameInfo:
    """The registry entry for ``name`` (or one of its aliases)."""
    _load()
    key = name.strip().lower().replace("_", "-")
    for info in _REGISTRY.values():
        if key == info.name or key in info.aliases:
            return info
    raise InputError(f"unknown game {name!r}; known games: {', '.join(sorted(_REGISTRY))}")
