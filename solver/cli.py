"""The ``capsa`` command.

Errors in the input print one line (``capsa: error: ...``) and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from solver.errors import InputError

EXIT_INPUT_ERROR = 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors on one line with exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise InputError(message)


def _print_json(obj: object) -> None:
    print(json.dumps(obj, ensure_ascii=False))


# ---------------------------------------------------------------- moves (sibling games)
def _cmd_moves(args: argparse.Namespace) -> int:
    info = args.game_info
    result = info.moves_from_args(args)
    if args.json or info.format_moves is None:
        _print_json(result)
    else:
        print(info.format_moves(result))
    return 0


def _add_moves(sub: argparse._SubParsersAction) -> None:
    from solver.games import get_game, list_games

    p = sub.add_parser("moves", help="legal moves of a sibling game")
    games = p.add_subparsers(dest="game", metavar="GAME", parser_class=_Parser)
    games.required = True
    for name in list_games():
        info = get_game(name)
        if info.moves_from_args is None:
            continue
        gp = games.add_parser(name, help=info.title, aliases=list(info.aliases))
        gp.add_argument("--json", action="store_true", help="machine-readable output")
        if info.add_moves_arguments is not None:
            info.add_moves_arguments(gp)
        gp.set_defaults(func=_cmd_moves, game_info=info)


# Each entry adds one sub-command; capsa-specific commands live in their own modules.
SUBCOMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [_add_moves]


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="capsa", description="Capsa Susun solver and sibling game engines")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for add in SUBCOMMANDS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return int(args.func(args) or 0)
    except InputError as exc:
        print(f"capsa: error: {exc}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    except KeyboardInterrupt:
        print("capsa: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
