"""``capsa valid HAND``: how many of the 72,072 ordered splits are not fouls."""

from __future__ import annotations

import argparse

from solver.cli.common import print_json, rules_argument
from solver.games.capsa.splits import valid_arrangements


def run(args: argparse.Namespace) -> int:
    n = valid_arrangements(args.hand, args.rules)
    if args.json:
        print_json({"valid_arrangements": n})
    else:
        print(n)
    return 0


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("valid", help="count the valid (non-foul) splits of 13 cards")
    p.add_argument("hand", help='13 cards, e.g. "As Kd Qh ..."')
    p.add_argument("--rules", type=rules_argument, default="standard",
                   help="preset name or JSON object of preset and options")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)
