"""Da Bai Fen's registry entry: metadata, options, bots and the ``moves`` query."""

from __future__ import annotations

from typing import Any

from solver.games.base import GameInfo, MoveArg, from_json_via
from solver.games.da_bai_fen import moves as plays_result
from solver.games.da_bai_fen import split_trick
from solver.games.da_bai_fen.bots import GreedyBot, random_bot
from solver.games.da_bai_fen.engine import new_hand


def moves(hand: Any, trump_rank: Any, trump_suit: Any, trick: Any = None,
          max_plays: int | None = None) -> dict[str, Any]:
    if isinstance(trick, str):
        trick = split_trick(trick)
    return plays_result(hand, trump_rank, trump_suit, trick, max_plays)


def format_moves(result: dict[str, Any]) -> str:
    return "\n".join(" ".join(p["cards"]) for p in result["plays"])


GAME = GameInfo(
    name="da-bai-fen",
    title="Da Bai Fen (trick-taking, beat a hundred points)",
    new_game=new_hand,
    from_json=from_json_via(new_hand, "da-bai-fen"),
    players=(4, 4),
    zero_sum=True,
    simultaneous=False,
    aliases=("dabaifen",),
    bots={"greedy": lambda: GreedyBot(), "random": lambda: random_bot},
    moves=moves,
    moves_args=(
        MoveArg("hand", "the hand, e.g. 'BJ 2h As 10d' (SJ, BJ: jokers)", positional=True),
        MoveArg("trump_rank", "trump rank: 2..9, T (or 10), J, Q, K, A", required=True),
        MoveArg("trump_suit", "trump suit: c, d, h or s", required=True),
        MoveArg("trick", "plays so far in the trick, the lead first, separated by ';'"),
        MoveArg("max_plays", "fail instead of listing more plays than this", type=int),
    ),
    format_moves=format_moves,
)
