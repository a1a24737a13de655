"""Capsa Banting (Big Two): ``rules`` (the options), ``moves`` (combinations, the legal-move
kernel), ``engine`` (a hand: deal, dragon, turns, penalties, observations), ``bots`` (baseline
and random bots, fast self-play), ``advise`` (determinized Monte Carlo advice and the search
bot), ``game`` (the registry entry).

>>> [str(m) for m in legal_moves("3d 3s 4c")]
['3d', '3s', '4c', '3d 3s']
>>> legal_moves("3d 3s 4c", current="2s").can_pass
True
>>> [m.to_json()["kind"] for m in legal_moves("9d 9c 9h 9s 3d")][-1]
'four_of_a_kind'
"""

from solver.games.big_two.bots import BaselineBot, HandResult, RandomBot, self_play
from solver.games.big_two.engine import BigTwoState, new_game, penalty
from solver.games.big_two.moves import (
    PASS,
    Kind,
    LegalMoves,
    Move,
    beats,
    classify,
    describe,
    legal_moves,
    parse_play,
)
from solver.games.big_two.rules import BigTwoRules

#: Self-play of one hand from a seed (``play_hand(seed=1) -> HandResult``), the name the
#: README documents; the same as :func:`~solver.games.big_two.bots.self_play`.
play_hand = self_play

__all__ = ["BaselineBot", "BigTwoRules", "BigTwoState", "HandResult", "Kind", "LegalMoves", "Move",
           "PASS", "RandomBot", "beats", "classify", "describe", "legal_moves", "moves_result",
           "new_game", "parse_play", "penalty", "play_hand", "self_play"]


def moves_result(hand, current=None, first_trick: bool = False, rules=None, required=None) -> dict:
    """The JSON of ``capsa moves big-two`` and ``POST /v1/big-two/moves``."""
    return legal_moves(hand, current, first_trick, rules, required).to_json()
