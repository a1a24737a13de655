"""Da San (Big Three): ``moves`` (combinations and legal moves), ``engine`` (the hand: dealer
draw, auction, kitty, play, settlement), ``bots`` (baseline players, self-play) and ``game``
(the registry entry); this module is the public API.

>>> [str(m) for m in legal_moves("4c 4d 5h", current="3s")]
['pass']
>>> moves_result("Jc Qc Kc Ks", current="9d Td Jd")["moves"]
[{'cards': ['Jc', 'Qc', 'Kc'], 'kind': 'run'}]
"""

from __future__ import annotations

from typing import Any

from solver.cards import format_cards
from solver.games.da_san.bots import greedy_bot, play_hand, random_bot, self_play
from solver.games.da_san.engine import DaSanState, Phase, new_game
from solver.games.da_san.moves import (
    PASS,
    DaSanRules,
    Kind,
    Move,
    bid,
    card_ids,
    classify,
    classify_ids,
    current_move,
    legal_moves,
    make_rules,
    sort_cards,
)


def moves_result(hand: Any, current: Any = None, all_suits: bool = False,
                 rules: DaSanRules | dict | None = None) -> dict:
    """The JSON-ready answer of ``capsa moves da-san`` and ``POST /v1/da-san/moves``."""
    moves = legal_moves(hand, current, rules, all_suits)
    plays = [{"cards": m.labels, "kind": m.kind.value} for m in moves if m.cards]
    return {"moves": plays, "can_pass": any(m.is_pass for m in moves)}


def classify_result(cards: Any, rules: DaSanRules | dict | None = None) -> dict:
    """The JSON-ready answer of ``POST /v1/da-san/classify`` (``kind`` null: no combination)."""
    ids = card_ids(cards, "cards")
    move = classify_ids(ids, make_rules(rules))
    if move is None:
        return {"cards": format_cards(sort_cards(ids)), "kind": None, "strength": None, "top": None}
    return {"cards": move.labels, "kind": move.kind.value,
            "strength": move.strength if move.cards else None, "top": move.top}


__all__ = ["PASS", "DaSanRules", "DaSanState", "Kind", "Move", "Phase", "bid", "classify",
           "classify_result", "current_move", "greedy_bot", "legal_moves", "moves_result",
           "new_game", "play_hand", "random_bot", "self_play"]
