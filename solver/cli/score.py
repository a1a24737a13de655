"""``capsa score FILE``: the referee settles a table given as JSON."""

from __future__ import annotations

import argparse
import json

from solver.cli.common import read_json
from solver.games.capsa.referee import score, table_from_json


def format_score(result: dict) -> str:
    lines = []
    for i, p in enumerate(result["players"]):
        tag = " (foul)" if p["foul"] else f" ({p['natural']})" if p["natural"] else ""
        lines.append(f"player {i}: {p['points']:+d}{tag}")
        for v in p["vs"]:
            rows = " ".join(f"{r:+d}" for r in v["rows"])
            lines.append(f"  vs {v['opponent']}: {v['points']:+d}  rows {rows}  scoop {v['scoop']:+d}"
                         f"  royalties {v['royalties']:+d}  natural {v['natural']:+d}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    players, rules = table_from_json(read_json(args.file))
    result = score(players, rules).to_dict()
    print(json.dumps(result, ensure_ascii=False) if args.json else format_score(result))
    return 0


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="settle a table (JSON from FILE, or - for standard input)")
    p.add_argument("file", metavar="FILE", help="table JSON, or - for standard input")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)
