"""Capsa Banting (Big Two): ``rules`` and ``moves`` (combinations, the legal-move kernel),
``engine`` (a hand: deal, dragon, turns, penalties), ``bots``, ``game`` (the registry entry).

>>> [str(m) for m in legal_moves("3d 3s 4c")]
['3d', '3s', '4c', '3d 3s']
"""

from solver.games.big_two.engine import (
    BaselineBot,
    BigTwoState,
    HandResult,
    RandomBot,
    new_game,
    penalty,
    play_hand,
)
from solver.games.big_two.moves import (
    PASS,
    BigTwoRules,
    Kind,
    LegalMoves,
    Move,
    beats,
    classify,
    describe,
    legal_moves,
)

__all__ = ["BaselineBot", "BigTwoRules", "BigTwoState", "HandResult", "Kind", "LegalMoves", "Move",
           "PASS", "RandomBot", "beats", "classify", "describe", "legal_moves", "moves_result",
           "new_game", "penalty", "play_hand"]


def moves_result(hand, current=None, first_trick: bool = False, rules=None, required=None) -> dict:
    """The JSON of ``capsa moves big-two`` and ``POST /v1/big-two/moves``."""
    return legal_moves(hand, current, first_trick, rules, required).to_json()
