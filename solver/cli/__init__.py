"""The ``capsa`` command: one module per sub-command, the only package that knows argparse.

Errors in the input print one line (``capsa: error: ...``) and exit with status 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from solver.cli import (
    advise,
    arrange,
    batch,
    moves,
    profile,
    review,
    score,
    serve,
    train,
    train_belief,
    train_bot,
    valid,
)
from solver.cli.common import EXIT_INPUT_ERROR, Parser
from solver.errors import InputError

__all__ = ["EXIT_INPUT_ERROR", "build_parser", "main"]

COMMANDS = (arrange, valid, score, batch, review, profile, train, train_bot, train_belief, moves,
            advise, serve)


def build_parser() -> Parser:
    parser = Parser(prog="capsa", description="Capsa Susun solver and sibling game engines")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for command in COMMANDS:
        command.add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        argv = list(sys.argv[1:] if argv is None else argv)
        args = build_parser().parse_args(argv)
        args.argv = argv  # the command as given (recorded by files it writes)
        return int(args.func(args) or 0)
    except InputError as exc:
        print(f"capsa: error: {exc}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    except KeyboardInterrupt:
        print("capsa: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
