"""Da San's registry entry: metadata, options, bots and the ``moves`` query."""

from __future__ import annotations

from typing import Any

from solver.games.base import GameInfo, MoveArg, Option, from_json_via
from solver.games.da_san.advise import SearchBot, advise
from solver.games.da_san.bots import greedy_bot, random_bot
from solver.games.da_san.engine import new_game
from solver.games.da_san.moves import moves_result
from solver.games.da_san.rules import DEFAULT_RULES, MIN_RUN_HIGH, MIN_RUN_LOW


def moves(hand: Any, current: Any = None, all_suits: bool = False) -> dict[str, Any]:
    current = current if current is None or str(current).strip() else None
    return moves_result(hand, current, all_suits)


def format_moves(result: dict[str, Any]) -> str:
    lines = [f"{m['kind']:<9} {' '.join(m['cards'])}" for m in result["moves"]]
    if result["can_pass"]:
        lines.append("pass")
    return "\n".join(lines) if lines else "(no legal move)"


GAME = GameInfo(
    name="da-san",
    title="Da San (Big Three)",
    new_game=new_game,
    from_json=from_json_via(new_game, "da-san"),
    players=(3, 3),
    zero_sum=True,
    simultaneous=False,
    options=(
        Option("min_run", DEFAULT_RULES.min_run, "fewest ranks in a run",
               minimum=MIN_RUN_LOW, maximum=MIN_RUN_HIGH),
    ),
    aliases=("big-three",),
    bots={"search": SearchBot, "greedy": lambda: greedy_bot, "random": lambda: random_bot},
    moves=moves,
    moves_args=(
        MoveArg("hand", 'the hand, e.g. "4c 4d 5h 6s 7c"', positional=True),
        MoveArg("current", "the play to beat (omit to lead)"),
        MoveArg("all_suits", "list every concrete card choice, not one per rank pattern", flag=True),
    ),
    format_moves=format_moves,
    advise=advise,
)
