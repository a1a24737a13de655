"""``capsa review FILE``: review hands played elsewhere, and where points went.

A line is plain text rows, ``front | middle | back`` (an id field before them if you like;
``natural | HAND`` for a declared natural), or a JSON object (see
:mod:`solver.games.capsa.coach`).

A line that cannot be read (bad JSON, wrong cards, bytes that are not UTF-8, a lone surrogate,
NaN, nesting too deep, over 64 KiB: see :mod:`solver.games.capsa.coach`) is listed as not
reviewed with its number and a one-line reason, and the rest are reviewed. ``--errors FILE``
also writes those lines as JSON lines ``{"line": N, "error": ...}``, the shape of ``capsa
batch``'s errors file. Standard output or that file failing to be written (a full disk) is one
line on standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from solver.batch.lines import error_record
from solver.batch.output import write_stdout, write_whole
from solver.cli.common import int_arg, rules_argument
from solver.errors import InputError
from solver.games.capsa.coach import METHODS, file_lines
from solver.games.capsa.profile import review


def format_review(rep: dict[str, Any]) -> str:
    s = rep["summary"]
    lo, hi = s["mean_ev_lost_ci95"]
    lines = [f"hands reviewed: {s['hands']:,}   lines not reviewed: {s['errors']:,}   "
             f"method: {rep['method']}"]
    if s["hands"]:
        lines += [f"played exactly right: {s['exact_share']:.1%}",
                  f"EV lost: {s['ev_lost']:.3f} in all, {s['mean_ev_lost']:.4f} a hand "
                  f"(95% interval: between {lo:.4f} and {hi:.4f})",
                  "EV lost per mistake (each hand in its first class):"]
        for name, c in sorted(s["by_mistake"].items(), key=lambda kv: -kv[1]["ev_lost"]):
            lines.append(f"  {name:<26} {c['hands']:>6,} hands  {c['ev_lost']:>10.3f}  "
                         f"({c['share_of_lost']:.1%})  {c['mean_ev_lost']:.3f} a hand")
        if s["worst"]:
            lines.append("costliest hands:")
            for w in s["worst"]:
                named = f"  ({w['id']})" if isinstance(w.get("id"), str) else ""
                lines.append(f"  line {w['line']:>6}  {w['ev_lost']:8.3f}  {w['mistake']:<26} "
                             f"{' '.join(w['hand'])}{named}")
        if "known" in s:
            k = s["known"]
            lines.append(f"against the opponents' actual rows ({k['hands']:,} hands): scored "
                         f"{k['actual_points']:+.0f}, the best response {k['best_response_points']:+.0f}")
        if "naturals" in s:
            n = s["naturals"]
            lines.append(f"hands holding a natural: {n['hands']:,} ({n['declared']:,} declared): "
                         f"declaring worth {n['natural_ev']:+.3f}, the best rows "
                         f"{n['rows_ev']:+.3f}, EV lost {n['ev_lost']:.3f}")
    for e in rep["errors"][:20]:
        lines.append(f"line {e['line']}: {e['error']}")
    if len(rep["errors"]) > 20:
        lines.append(f"... and {len(rep['errors']) - 20:,} more lines not reviewed (--json lists all)")
    return "\n".join(lines)


def check_errors_path(path: str, source: str) -> None:
    """Refuse an ``--errors`` file that could not be written, before the review's work."""
    parent = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise InputError(f"the errors file {path} is a directory")
    if not os.path.isdir(parent):
        raise InputError(f"cannot write {path}: no directory {parent}")
    if source != "-" and os.path.abspath(path) == os.path.abspath(source):
        raise InputError("the errors file is the input file")


def run(args: argparse.Namespace) -> int:
    if args.errors is not None:
        check_errors_path(args.errors, args.file)
    lines = file_lines(args.file)
    bar = None
    if args.progress and len(lines) > 1:
        from tqdm import tqdm

        bar = tqdm(total=len(lines), unit="hand", file=sys.stderr, desc="capsa review",
                   dynamic_ncols=True, leave=False, disable=None)  # None: only on a terminal
    try:
        rep = review(lines, args.rules, args.opponents, args.method, args.samples, args.seed,
                     card_removal=not args.no_card_removal,
                     progress=bar.update if bar is not None else None,
                     opponent_profiles=args.profile or None)
    finally:
        if bar is not None:
            bar.close()
    out = rep.to_dict()
    if args.errors is not None:
        write_whole(args.errors, "".join(error_record(e["line"], e["error"]) + "\n"
                                         for e in out["errors"]).encode())
    write_stdout(json.dumps(out, ensure_ascii=False, allow_nan=False) if args.json
                 else format_review(out))
    return 0


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("review", help="review hands played elsewhere (rows as text, or JSON "
                                      "lines): EV lost, mistakes, the costliest hands")
    p.add_argument("file", metavar="FILE",
                   help="one hand a line, or - for standard input: 'front | middle | back' "
                        "(an id field first if you like; 'natural | HAND' for a declared "
                        "natural) or a JSON object")
    p.add_argument("--rules", type=rules_argument, default="standard",
                   help="preset name (standard, basic, two-four, indonesia) or JSON object")
    p.add_argument("--opponents", type=int_arg("--opponents", 1, 3), default=3,
                   help="1 to 3 (default 3; a line with the opponents' rows uses their number)")
    p.add_argument("--method", choices=METHODS, default="table",
                   help="table (default; one search a hand) or montecarlo")
    p.add_argument("--samples", type=int_arg("--samples", 1), default=1000,
                   help="Monte Carlo deals a hand (default 1000)")
    p.add_argument("--seed", type=int_arg("--seed", 0), default=0, help="Monte Carlo seed (default 0)")
    p.add_argument("--no-card-removal", action="store_true",
                   help="play the tables without card removal (faster, more exploitable)")
    p.add_argument("--profile", action="append", metavar="FILE",
                   help="an opponent profile (from capsa profile; method montecarlo; repeat "
                        "once per opponent): review against players who set hands that way")
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="no progress bar on standard error")
    p.add_argument("--json", action="store_true",
                   help="one JSON object: summary, every hand, the lines not reviewed")
    p.add_argument("--errors", metavar="FILE", default=None,
                   help="also write the lines not reviewed to FILE, as JSON lines "
                        '{"line": N, "error": ...} (written whole; empty when every line '
                        "was reviewed)")
    p.set_defaults(func=run)
