"""Da San (Big Three): the registry entry ("da-san", alias "big-three") and the public API.

The pieces live in ``da_san_moves`` (combinations and legal moves), ``da_san_engine`` (the
hand as a :class:`~solver.games.base.GameState`) and ``da_san_bots`` (baseline players and
self-play); this module re-exports them and wires ``capsa moves da-san``.

>>> [str(m) for m in legal_moves("4c 4d 5h", current="3s")]
['pass']
>>> moves_result("Jc Qc Kc Ks", current="9d Td Jd")["moves"]
[{'cards': ['Jc', 'Qc', 'Kc'], 'kind': 'run'}]
"""

from __future__ import annotations

import argparse
from typing import Any

from solver.cards import format_cards
from solver.games import register
from solver.games.base import GameInfo
from solver.games.da_san_bots import greedy_bot, play_hand, random_bot, self_play
from solver.games.da_san_engine import DaSanState, Phase, new_game
from solver.games.da_san_moves import (
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


def _add_moves_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hand", help='the hand, e.g. "4c 4d 5h 6s 7c"')
    parser.add_argument("--current", default=None, metavar="CARDS",
                        help="the play to beat (omit to lead)")
    parser.add_argument("--all-suits", action="store_true",
                        help="list every concrete card choice, not one per rank pattern")


def _moves_from_args(args: argparse.Namespace) -> dict:
    current = args.current if args.current is None or args.current.strip() else None
    return moves_result(args.hand, current, args.all_suits)


def _format_moves(result: dict) -> str:
    lines = [f"{m['kind']:<9} {' '.join(m['cards'])}" for m in result["moves"]]
    if result["can_pass"]:
        lines.append("pass")
    return "\n".join(lines) if lines else "(no legal move)"


INFO = register(GameInfo(
    name="da-san",
    title="Da San (Big Three)",
    new_game=new_game,
    add_moves_arguments=_add_moves_arguments,
    moves_from_args=_moves_from_args,
    format_moves=_format_moves,
    aliases=("big-three",),
))

__all__ = ["INFO", "PASS", "DaSanRules", "DaSanState", "Kind", "Move", "Phase", "bid", "classify",
           "classify_result", "current_move", "greedy_bot", "legal_moves", "moves_result",
           "new_game", "play_hand", "random_bot", "self_play"]
