"""Da Bai Fen ("beat a hundred points"): the public API.

The game lives in small modules: ``cards`` (card order, points, trump), ``rules`` (rule
options, the level table), ``moves`` (legal plays, trick winners), ``engine`` (the hand behind
the game contract), ``bots`` (bots, the whole game, self-play), ``advise`` (the search
advisor) and ``game`` (the registry entry).

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

from solver.games.da_bai_fen.bots import (
    GreedyBot,
    Match,
    RandomBot,
    play_game,
    policy_of,
    random_bot,
    self_play_hand,
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
    DaBaiFenState,
    HandResult,
    Kind,
    Move,
    Phase,
    Trick,
    new_hand,
)
from solver.games.da_bai_fen.game import moves, split_trick
from solver.games.da_bai_fen.moves import (
    Verdict,
    count_plays,
    is_legal,
    legal_plays,
    trick_points,
    trick_winner,
)
from solver.games.da_bai_fen.rules import TOP_LEVEL, DaBaiFenRules, Outcome, level_outcome

__all__ = [
    "HAND_SIZE", "KITTY_SIZE", "TOP_LEVEL", "TOTAL_POINTS", "DaBaiFenRules", "DaBaiFenState",
    "GreedyBot", "HandResult", "Kind", "Match", "Move", "Outcome", "Phase", "RandomBot", "Trick",
    "Trump", "Verdict", "card_points", "count_plays", "is_legal", "legal_plays",
    "level_outcome", "moves", "new_hand", "parse_rank", "parse_suit", "play_game", "points_of",
    "policy_of", "random_bot", "self_play_hand", "split_trick", "trick_points", "trick_winner",
]
