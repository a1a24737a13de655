"""``capsa advise GAME FILE``: the legal moves of a seat ranked by the game's advisor.

FILE (or ``-``) holds what the seat sees: an observation document (``observation(seat)`` of
the game contract), or a whole hand document (``to_json()``) with ``--seat`` naming the seat,
whose observation is then taken. The advisor reads only the observation.
"""

from __future__ import annotations

import argparse
import json

from solver.cli.common import int_arg, read_json
from solver.errors import InputError
from solver.games import all_games, get_game


def format_advice(result: dict) -> str:
    lines = []
    for i, m in enumerate(result["moves"], 1):
        move = m["move"]
        cards = " ".join(move.get("cards", [])) or "-"
        extra = f" {move['amount']}" if "amount" in move else ""
        lines.append(f"#{i:<3} {m['value']:+8.3f} +-{m.get('stderr', 0.0):.3f}  "
                     f"{move.get('kind', '')}{extra}  {cards}")
    return "\n".join(lines) if lines else "(no move to advise: the seat may not act)"


def run(args: argparse.Namespace) -> int:
    info = get_game(args.game)
    if info.advise is None:  # the parser offers only games with an advisor
        raise InputError(f"{info.name} has no advisor")
    doc = read_json(args.file)
    if args.seat is not None:
        if not isinstance(doc, dict):
            raise InputError("the hand document must be a JSON object")
        state = info.from_json(doc)
        if not 0 <= args.seat < state.num_players:
            raise InputError(f"--seat must be 0 to {state.num_players - 1}, got {args.seat}")
        doc = state.observation(args.seat)
    if not isinstance(doc, dict):
        raise InputError("the observation must be a JSON object")
    result = info.advise(doc, budget_ms=args.budget_ms, iterations=args.iterations,
                         seed=args.seed)
    print(json.dumps(result, ensure_ascii=False) if args.json else format_advice(result))
    return 0


def add(sub: argparse._SubParsersAction) -> None:
    games = [g.name for g in all_games() if g.advise is not None]
    p = sub.add_parser("advise", help="rank the legal moves of a seat (" + ", ".join(games) + ")",
                       description=__doc__.split("\n\n")[1] if __doc__ else None)
    p.add_argument("game", metavar="GAME", choices=games, help=", ".join(games))
    p.add_argument("file", metavar="FILE", help="observation JSON (or a hand with --seat); - for stdin")
    p.add_argument("--seat", type=int_arg("--seat", 0, 3), default=None,
                   help="FILE is a hand document (to_json); advise this seat")
    p.add_argument("--budget-ms", type=int_arg("--budget-ms", 1, 60_000), default=None,
                   help="search time per decision (default: the advisor's)")
    p.add_argument("--iterations", type=int_arg("--iterations", 1, 1_000_000), default=None,
                   help="search iterations instead of a time budget (deterministic)")
    p.add_argument("--seed", type=int_arg("--seed"), default=0, help="search seed (default 0)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)
