"""Capsa Susun solver and sibling game engines.

>>> import solver
>>> solver.valid_arrangements("As Kd Qh Jc Tc 9s 8s 7h 6d 5c 4c 3d 2h")
17541
"""

from solver.arrange import ArrangeResult, arrange, arrange_many
from solver.cards import Card, format_cards, parse_cards
from solver.errors import CardError, IllegalMoveError, InputError, RulesError
from solver.naturals import detect_natural
from solver.referee import score
from solver.rules import Rules, resolve_rules
from solver.splits import Arrangement, valid_arrangements

__all__ = ["ArrangeResult", "Arrangement", "Card", "CardError", "IllegalMoveError", "InputError",
           "Rules", "RulesError", "arrange", "arrange_many", "detect_natural", "format_cards",
           "parse_cards", "resolve_rules", "score", "valid_arrangements"]
