"""Da Bai Fen ("beat a hundred points"): the registry entry, the CLI hooks and the public API.

The game lives in four small modules: ``da_bai_fen_cards`` (card order, points),
``da_bai_fen_play`` (legal plays, trick winners), ``da_bai_fen_engine`` (the hand, the
level table) and ``da_bai_fen_selfplay`` (bots, the whole game, self-play).

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

import argparse
from collections.abc import Iterable, Sequence

from solver.games import GameInfo, register
from solver.games.da_bai_fen_cards import (
    HAND_SIZE, KITTY_SIZE, TOTAL_POINTS, Trump, card_points, parse_rank, parse_suit, points_of,
)
from solver.games.da_bai_fen_engine import (
    TOP_LEVEL, Action, DaBaiFenRules, DaBaiFenState, HandResult, Move, Outcome, Phase, Trick,
    level_outcome, new_hand,
)
from solver.games.da_bai_fen_play import (
    Verdict, count_plays, is_legal, legal_plays, trick_points, trick_winner,
)
from solver.games.da_bai_fen_selfplay import GreedyBot, Match, play_game, play_hand, random_bot
from solver.cards import format_cards

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


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hand", metavar="HAND",
                        help="the hand, e.g. 'BJ 2h As 10d' (SJ, BJ: jokers)")
    parser.add_argument("--trump-rank", required=True,
                        help="trump rank: 2..9, T (or 10), J, Q, K, A")
    parser.add_argument("--trump-suit", required=True, help="trump suit: c, d, h or s")
    parser.add_argument("--trick", default=None,
                        help="plays so far in the trick, the lead first, separated by ';'")
    parser.add_argument("--max-plays", type=int, default=None,
                        help="fail instead of listing more plays than this")


def _from_args(args: argparse.Namespace) -> dict:
    return moves(args.hand, args.trump_rank, args.trump_suit, split_trick(args.trick),
                 args.max_plays)


def _format(result: dict) -> str:
    return "\n".join(" ".join(p["cards"]) for p in result["plays"])


INFO = register(GameInfo(
    name="da-bai-fen",
    title="Da Bai Fen (trick-taking, beat a hundred points)",
    new_game=new_hand,
    add_moves_arguments=_add_arguments,
    moves_from_args=_from_args,
    format_moves=_format,
    aliases=("dabaifen",),
))
