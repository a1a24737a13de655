"""Da Bai Fen's registry entry: metadata, options, bots and the ``moves`` query."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import fields
from typing import Any

from solver.cards import format_cards
from solver.games.base import GameInfo, MoveArg, Option, from_json_via
from solver.games.da_bai_fen.advise import SearchBot, advise
from solver.games.da_bai_fen.bots import GreedyBot, random_bot
from solver.games.da_bai_fen.cards import Trump
from solver.games.da_bai_fen.engine import GAME_NAME, new_hand
from solver.games.da_bai_fen.moves import legal_plays
from solver.games.da_bai_fen.rules import KITTY_MULTIPLIER_RANGE, DaBaiFenRules


def split_trick(text: str | None) -> list[str]:
    """``"Ah Kh;2h 3h"`` -> one card string per play (blank text: no trick)."""
    if text is None or not text.strip():
        return []
    return [part.strip() for part in text.split(";")]


def moves(hand: Iterable[object], trump_rank: object, trump_suit: object,
          trick: Sequence[Iterable[object]] | str | None = None,
          max_plays: int | None = None) -> dict[str, Any]:
    """The JSON-ready legal plays: ``{"plays": [{"cards": [...]}, ...]}`` (``trick`` may be
    the CLI's text, plays separated by ``;``)."""
    if isinstance(trick, str):
        trick = split_trick(trick)
    trump = Trump.parse(trump_rank, trump_suit)
    plays = legal_plays(hand, trick, trump, max_plays=max_plays)
    return {"plays": [{"cards": format_cards(p)} for p in plays]}


def format_moves(result: dict[str, Any]) -> str:
    return "\n".join(" ".join(p["cards"]) for p in result["plays"])


_DEFAULTS = DaBaiFenRules()
_HELP = {"kitty_multiplier": "times the buried kitty's points count for the defenders when "
                             "they win the last trick"}
OPTIONS = tuple(
    Option(f.name, getattr(_DEFAULTS, f.name), _HELP[f.name],
           minimum=KITTY_MULTIPLIER_RANGE[0], maximum=KITTY_MULTIPLIER_RANGE[1])
    for f in fields(DaBaiFenRules))

GAME = GameInfo(
    name=GAME_NAME,
    title="Da Bai Fen (trick-taking, beat a hundred points)",
    new_game=new_hand,
    from_json=from_json_via(new_hand, GAME_NAME),
    players=(4, 4),
    zero_sum=True,
    simultaneous=False,
    options=OPTIONS,
    aliases=("dabaifen",),
    bots={"search": SearchBot, "greedy": GreedyBot, "random": lambda: random_bot},
    moves=moves,
    moves_args=(
        MoveArg("hand", "the hand, e.g. 'BJ 2h As 10d' (SJ, BJ: jokers)", positional=True),
        MoveArg("trump_rank", "trump rank: 2..9, T (or 10), J, Q, K, A", required=True),
        MoveArg("trump_suit", "trump suit: c, d, h or s", required=True),
        MoveArg("trick", "plays so far in the trick, the lead first, separated by ';'"),
        MoveArg("max_plays", "fail instead of listing more plays than this", type=int),
    ),
    format_moves=format_moves,
    advise=advise,
)
