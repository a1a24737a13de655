"""``capsa moves GAME ...``: the legal moves of a position, for every game with a moves query.

The sub-commands and their flags are built from the registry (``GameInfo.moves_args``), the
arguments ``POST /v1/GAME/moves`` builds its fields from (``api/moves.py``). Every value is
given as text and the game's ``moves`` parses it; an integer is checked against its bounds
here.
"""

from __future__ import annotations

import argparse

from solver.cli.common import Parser, int_arg, print_json
from solver.errors import InputError
from solver.games import all_games
from solver.games.base import GameInfo, MoveArg


def run(args: argparse.Namespace) -> int:
    info: GameInfo = args.game_info
    if info.moves is None:  # the parser offers only games with a moves query
        raise InputError(f"{info.name} has no moves query")
    kwargs = {a.name: getattr(args, a.name) for a in info.moves_args}
    result = info.moves(**kwargs)
    if args.json or info.format_moves is None:
        print_json(result)
    else:
        print(info.format_moves(result))
    return 0


def _help(a: MoveArg) -> str:
    """The help of a flag: the argument's, and how to write cards on a command line."""
    if a.cards is None:
        return a.help
    if a.plays is not None:
        return f'{a.help}; plays separated by \';\', e.g. "Kh Qh;3c 4c"'
    example = "BJ SJ As 10h" if a.jokers else "As Kd 10h"
    return f'{a.help}, e.g. "{example}"'


def _add_argument(gp: argparse.ArgumentParser, a: MoveArg) -> None:
    """The flag (or positional argument) of one moves argument."""
    if a.positional:
        gp.add_argument(a.name, metavar=a.name.upper(), help=_help(a))
    elif a.flag and a.negate:
        gp.add_argument(f"--{a.negate}", dest=a.name, action="store_false",
                        help=f"turn off (on by default): {a.help}")
    elif a.flag:
        gp.add_argument(f"--{a.name.replace('_', '-')}", dest=a.name, action="store_true",
                        help=a.help)
    else:
        flag = f"--{a.name.replace('_', '-')}"
        kind = int_arg(flag, a.minimum, a.maximum) if a.type is int else a.type
        gp.add_argument(flag, dest=a.name, help=_help(a), choices=a.choices, default=a.default,
                        required=a.required, type=kind or str)


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("moves", help="legal moves of a position in one of the games")
    games = p.add_subparsers(dest="game", metavar="GAME", parser_class=Parser)
    games.required = True
    for info in all_games():
        if info.moves is None:
            continue
        gp = games.add_parser(info.name, help=info.title, aliases=list(info.aliases))
        gp.add_argument("--json", action="store_true", help="machine-readable output")
        for a in info.moves_args:
            _add_argument(gp, a)
        gp.set_defaults(func=run, game_info=info)
