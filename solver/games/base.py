"""The small API every sibling game exposes (in the spirit of OpenSpiel and RLCard).

A game state is mutable and moves are immutable values::

    state = get_game("big-two").new_game(seed=7)
    while not state.is_terminal():
        move = state.legal_moves()[0]
        state.apply(move)
    print(state.returns())

``legal_moves()`` lists what the player to act may do (a pass is a move whose ``cards`` is
empty, listed only when passing is allowed). ``returns()`` gives each player's points for the
hand once it is terminal (all zeros before).
"""

from __future__ import annotations

import argparse
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


class GameState(ABC):
    """One hand of a game, from the deal to the end."""

    num_players: int

    @property
    @abstractmethod
    def current_player(self) -> int:
        """Seat of the player to act (-1 once the hand is over)."""

    @abstractmethod
    def legal_moves(self) -> list[Any]:
        """Every legal move of the player to act."""

    @abstractmethod
    def apply(self, move: Any) -> None:
        """Play ``move`` for the player to act; raises ``IllegalMoveError`` if it is not legal."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the hand is over."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Points per seat for the finished hand (zeros while it is running)."""

    @abstractmethod
    def clone(self) -> GameState:
        """An independent copy."""


@dataclass(frozen=True)
class GameInfo:
    """A registry entry: how to start a game and how the CLI lists its moves.

    ``new_game(seed=None, hands=None, rules=None)`` deals a new hand (from a seed, or the
    given hands). ``add_moves_arguments(parser)`` adds the game's flags to
    ``capsa moves GAME``; ``moves_from_args(args)`` returns the JSON-ready result that the
    CLI prints and the HTTP endpoint returns.
    """

    name: str
    title: str
    new_game: Callable[..., GameState]
    add_moves_arguments: Callable[[argparse.ArgumentParser], None] | None = None
    moves_from_args: Callable[[argparse.Namespace], dict] | None = None
    format_moves: Callable[[dict], str] | None = None
    aliases: Sequence[str] = field(default_factory=tuple)
