"""The registry of games: ``list_games()``, ``get_game(name)`` and ``all_games()``.

Each game is a package ``solver.games.<module>`` whose ``game`` module defines ``GAME``, a
:class:`~solver.games.base.GameInfo` (how to start it, its players, options and bots). The
table below is the one list of games; the CLI, the HTTP service, the OpenAPI document and the
warm-up are built from it. A game module that is missing or broken raises at once.

>>> list_games()
['big-two', 'capsa', 'da-bai-fen', 'da-san']
>>> get_game("big2").name
'big-two'
"""

from __future__ import annotations

import importlib

from solver.errors import InputError
from solver.games.base import GameInfo, GameState, Option, play_hand
from solver.games.bot_levels import level_of as bot_level  # the registry's bots, by difficulty

__all__ = ["DEFAULT_GAME", "GameInfo", "GameState", "Option", "all_games", "bot_level",
           "drill_games", "get_game", "list_games", "play_hand"]

# name -> (package under solver.games, aliases). Importing a package is deferred to first use,
# so ``import solver.games`` stays light (Capsa's kernels load numba).
GAMES: dict[str, tuple[str, tuple[str, ...]]] = {
    "big-two": ("big_two", ("capsa-banting", "big2")),
    "capsa": ("capsa", ("capsa-susun",)),
    "da-bai-fen": ("da_bai_fen", ("dabaifen",)),
    "da-san": ("da_san", ("big-three",)),
}

# The game pages offer first (the solver's own game).
DEFAULT_GAME = "capsa"

_LOADED: dict[str, GameInfo] = {}


def list_games() -> list[str]:
    """Names of the registered games (no game module is imported)."""
    return sorted(GAMES)


def canonical_name(name: str) -> str:
    """The registered name for ``name`` or one of its aliases; ``InputError`` if unknown."""
    key = name.strip().lower().replace("_", "-") if isinstance(name, str) else name
    for game, (_, aliases) in GAMES.items():
        if key == game or key in aliases:
            return game
    raise InputError(f"unknown game {name!r}; one of {', '.join(sorted(GAMES))}")


def module_name(name: str) -> str:
    """Package name of a game under ``solver.games`` (and of its routes under ``api.routes``)."""
    return GAMES[canonical_name(name)][0]


def get_game(name: str) -> GameInfo:
    """The registry entry for ``name`` (or one of its aliases)."""
    game = canonical_name(name)
    info = _LOADED.get(game)
    if info is None:
        package, aliases = GAMES[game]
        module = importlib.import_module(f"solver.games.{package}.game")
        info = getattr(module, "GAME", None)
        if not isinstance(info, GameInfo) or info.name != game or tuple(info.aliases) != aliases:
            raise RuntimeError(f"solver.games.{package}.game must define GAME, the GameInfo of "
                               f"{game!r} with aliases {aliases}")
        _LOADED[game] = info
    return info


def all_games() -> list[GameInfo]:
    """Every registry entry (imports every game: errors surface here, at start-up)."""
    return [get_game(name) for name in list_games()]


def drill_games() -> list[str]:
    """Names of the games with a solo drill (``GameInfo.drill``; imports every game)."""
    return [info.name for info in all_games() if info.drill is not None]
