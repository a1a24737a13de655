"""Da San (Big Three): ``rules`` (the options), ``moves`` (combinations, legal moves, move
documents), ``engine`` (the hand: dealer draw, auction, kitty, play, settlement, observations),
``bots`` (baseline players, self-play), ``advise`` (the search advisor and its bot) and
``game`` (the registry entry); this module is the public API.

>>> [str(m) for m in legal_moves("4c 4d 5h", current="3s")]
['pass']
>>> moves_result("Jc Qc Kc Ks", current="9d Td Jd")["moves"]
[{'cards': ['Jc', 'Qc', 'Kc'], 'kind': 'run'}]
"""

from __future__ import annotations

from solver.games.base import play_hand
from solver.games.da_san.bots import greedy_bot, random_bot, self_play
from solver.games.da_san.engine import DaSanState, Phase, new_game
from solver.games.da_san.moves import (
    PASS,
    Kind,
    Move,
    bid,
    classify,
    classify_result,
    current_move,
    legal_moves,
    moves_result,
    parse_move,
)
from solver.games.da_san.rules import DaSanRules

__all__ = ["PASS", "DaSanRules", "DaSanState", "Kind", "Move", "Phase", "bid", "classify",
           "classify_result", "current_move", "greedy_bot", "legal_moves", "moves_result",
           "new_game", "parse_move", "play_hand", "random_bot", "self_play"]
