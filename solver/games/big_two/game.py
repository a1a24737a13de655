"""Big Two's registry entry: metadata, options, bots and the ``moves`` query."""

from __future__ import annotations

from typing import Any

from solver.games.base import GameInfo, MoveArg, Option, from_json_via
from solver.games.big_two import moves_result
from solver.games.big_two.advise import SearchBot, advise
from solver.games.big_two.bots import BaselineBot, RandomBot
from solver.games.big_two.engine import new_game
from solver.games.big_two.moves import warm_up
from solver.games.big_two.rules import (
    DEFAULT_RULES,
    FLUSH_ORDERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    STRAIGHTS,
    BigTwoRules,
)


def moves(hand: Any, current: Any = None, first_trick: bool = False, required: Any = None,
          straights: str = DEFAULT_RULES.straights, flush_order: str = DEFAULT_RULES.flush_order,
          bomb_on_two: bool = DEFAULT_RULES.bomb_on_two) -> dict[str, Any]:
    rules = BigTwoRules.from_options({"straights": straights, "flush_order": flush_order,
                                      "bomb_on_two": bomb_on_two})
    return moves_result(hand, current or None, first_trick, rules, required)


def format_moves(result: dict[str, Any]) -> str:
    lines = [f"{m['kind']:<15} {' '.join(m['cards'])}" for m in result["moves"]]
    lines.append("pass allowed" if result["can_pass"] else "leading: no pass")
    return "\n".join(lines)


GAME = GameInfo(
    name="big-two",
    title="Capsa Banting (Big Two)",
    new_game=new_game,
    from_json=from_json_via(new_game, "big-two"),
    players=(MIN_PLAYERS, MAX_PLAYERS),
    zero_sum=False,
    simultaneous=False,
    options=(
        Option("straights", DEFAULT_RULES.straights,
               "poker adds A-2-3-4-5 and 2-3-4-5-6 as the top straights", STRAIGHTS),
        Option("flush_order", DEFAULT_RULES.flush_order,
               "flushes compare by ranks then suit, or by suit first", FLUSH_ORDERS),
        Option("bomb_on_two", DEFAULT_RULES.bomb_on_two,
               "four of a kind + 1 or a straight flush may beat a single 2"),
        Option("zero_sum", DEFAULT_RULES.zero_sum, "the winner collects the losers' penalties"),
        Option("players", DEFAULT_RULES.players, "seats at the table",
               minimum=MIN_PLAYERS, maximum=MAX_PLAYERS),
    ),
    aliases=("capsa-banting", "big2"),
    bots={"search": SearchBot, "baseline": BaselineBot, "random": RandomBot},
    moves=moves,
    moves_args=(
        MoveArg("hand", 'the hand, e.g. "3d 4c 7s 7h 2s"', positional=True),
        MoveArg("current", "the play to beat (omit to lead)"),
        MoveArg("first_trick", "opening lead: every play must hold 3d (or --required)", flag=True),
        MoveArg("required", "card every play must hold (the lowest card dealt with 2-3 players)"),
        MoveArg("straights", "straight order", choices=STRAIGHTS, default=DEFAULT_RULES.straights),
        MoveArg("flush_order", "flush comparison", choices=FLUSH_ORDERS,
                default=DEFAULT_RULES.flush_order),
        MoveArg("bomb_on_two", "four of a kind / straight flush may not beat a single 2",
                flag=True, negate="no-bomb-on-two", default=DEFAULT_RULES.bomb_on_two),
    ),
    format_moves=format_moves,
    warm_up=warm_up,
    advise=advise,
)
