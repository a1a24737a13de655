"""Da Bai Fen ("beat a hundred points"): the public API.

The game lives in small modules: ``cards`` (card order, points, trump), ``moves`` (legal
plays, trick winners), ``engine`` (the hand, the level table), ``bots`` (bots, the whole game,
self-play) and ``game`` (the registry entry).

>>> from solver.games import get_game
>>> info = get_game("da-bai-fen")
>>> result = moves(["2h", "5c"], "2", "s", [["Kh"]])
>>> result
{'plays': [{'cards': ['2h']}, {'cards': ['5c']}]}
>>> print(info.format_moves(result))
2h
5c
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from solver.cards import format_cards
from solver.games.da_bai_fen.bots import (
    GreedyBot,
    Match,
    play_game,
    play_hand,
    random_bot,
)
from solver.games.da_bai_fen.cards import (
    HAND_SIZE,
    KITTY_SIZE,
    TOTAL_POINTS,
    Trump,
    card_points,
    parse_rank,
    parse_suit,
    points_of,
)
from solver.games.da_bai_fen.engine import (
    TOP_LEVEL,
    Action,
    DaBaiFenRules,
    DaBaiFenState,
    HandResult,
    Move,
    Outcome,
    Phase,
    Trick,
    level_outcome,
    new_hand,
)
from solver.games.da_bai_fen.moves import (
    Verdict,
    count_plays,
    is_legal,
    legal_plays,
    trick_points,
    trick_winner,
)

__all__ = [
    "HAND_SIZE", "KITTY_SIZE", "TOP_LEVEL", "TOTAL_POINTS", "Action", "DaBaiFenRules",
    "DaBaiFenState", "GreedyBot", "HandResult", "Match", "Move", "Outcome", "Phase", "Trick",
    "Trump", "Verdict", "card_points", "count_plays", "is_legal", "legal_plays",
    "level_outcome", "moves", "new_hand", "parse_rank", "parse_suit", "play_game", "play_hand",
    "points_of", "random_bot", "split_trick", "trick_points", "trick_winner",
]


def split_trick(text: str | None) -> list[str]:
    """``"Ah Kh;2h 3h"`` -> one card string per play (blank text: no trick)."""
    if text is None or not text.strip():
        return []
    return [part.strip() for part in text.split(";")]


def moves(hand: Iterable[object], trump_rank: object, trump_suit: object,
          trick: Sequence[Iterable[object]] | None = None,
          max_plays: int | None = None) -> dict:
    """The JSON-ready legal plays: ``{"plays": [{"cards": [...]}, ...]}``."""
    trump = Trump.parse(trump_rank, trump_suit)
    plays = legal_plays(hand, trick, trump, max_plays=max_plays)
    return {"plays": [{"cards": format_cards(p)} for p in plays]}
