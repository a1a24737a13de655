"""``capsa moves GAME ...``: the legal moves of a position, for every game with a moves query.

The sub-commands and their flags are built from the registry (``GameInfo.moves_args``).
"""

from __future__ import annotations

import argparse

from solver.cli.common import Parser, print_json
from solver.errors import InputError
from solver.games import all_games
from solver.games.base import GameInfo


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
            if a.positional:
                gp.add_argument(a.name, metavar=a.name.upper(), help=a.help)
            elif a.flag and a.negate:
                gp.add_argument(f"--{a.negate}", dest=a.name, action="store_false", help=a.help)
            elif a.flag:
                gp.add_argument(f"--{a.name.replace('_', '-')}", dest=a.name, action="store_true",
                                help=a.help)
            else:
                gp.add_argument(f"--{a.name.replace('_', '-')}", dest=a.name, help=a.help,
                                choices=a.choices, default=a.default, required=a.required,
                                type=a.type)
        gp.set_defaults(func=run, game_info=info)
