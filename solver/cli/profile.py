"""``capsa profile FILE -o PROFILE.json``: learn how one player sets hands from the hands they
showed (JSON lines, as ``capsa review`` reads them), say it in words, and write the profile
that ``capsa arrange --method montecarlo --profile PROFILE.json`` plays against.

A line that cannot be read is listed with its number and a one-line reason, and the rest are
fitted (see :mod:`solver.games.capsa.profile`).
"""

from __future__ import annotations

import argparse
import json
import os

from solver.batch.output import write_stdout, write_whole
from solver.cli.common import rules_argument
from solver.errors import InputError
from solver.games.capsa.coach import file_lines
from solver.games.capsa.profile import profile


def run(args: argparse.Namespace) -> int:
    if args.output is not None:
        if os.path.isdir(args.output):
            raise InputError(f"the profile file {args.output} is a directory")
        parent = os.path.dirname(os.path.abspath(args.output))
        if not os.path.isdir(parent):
            raise InputError(f"cannot write {args.output}: no directory {parent}")
    prof = profile(file_lines(args.file), args.rules)
    out = prof.to_dict()
    if args.output is not None:
        write_whole(args.output, (json.dumps(out, ensure_ascii=False, allow_nan=False, indent=1)
                                  + "\n").encode(), "the profile ")
    if args.json:
        write_stdout(json.dumps(out, ensure_ascii=False, allow_nan=False))
        return 0
    lines = list(out["words"])
    for e in out["errors"][:20]:
        lines.append(f"line {e['line']}: {e['error']}")
    if len(out["errors"]) > 20:
        lines.append(f"... and {len(out['errors']) - 20:,} more lines not read (--json lists all)")
    if args.output is not None:
        lines.append(f"profile written to {args.output}")
    write_stdout("\n".join(lines))
    return 0


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("profile", help="learn how one player sets hands from the hands they "
                                       "showed (JSON lines), for Monte Carlo advice against them")
    p.add_argument("file", metavar="FILE", help="JSON lines, one shown hand a line, or - for "
                                                "standard input")
    p.add_argument("-o", "--output", metavar="PROFILE", default=None,
                   help="write the profile (JSON) here")
    p.add_argument("--rules", type=rules_argument, default="standard",
                   help="preset name (standard, basic, two-four, indonesia) or JSON object: "
                        "the rules the hands were played under")
    p.add_argument("--json", action="store_true", help="the profile as one JSON object")
    p.set_defaults(func=run)
