"""``capsa arrange HAND``: the best arrangements of 13 cards, ranked by expected points."""

from __future__ import annotations

import argparse
import json

from solver.cli.common import rules_argument
from solver.games.capsa.arrange import arrange
from solver.games.capsa.methods.montecarlo import ANCHOR_Z


def format_arrange(res: dict, show_tables: bool = False) -> str:
    lines = [f"hand: {' '.join(res['hand'])}",
             f"valid arrangements: {res['valid_arrangements']:,}   method: {res['method']}, "
             f"{res['opponents']} opponent{'s' if res['opponents'] > 1 else ''}"
             + ("" if res["card_removal"] else ", no card removal")
             + (f"   tables: {res['tables']['file']} ({res['tables']['digest']})"
                if show_tables and "tables" in res else "")]
    nat = res["natural"]
    if nat:
        line = f"natural: {nat['kind']} ({nat['units']} units)"
        if nat.get("ev") is not None:
            rows = res["arrangements"][0]["ev"] if res["arrangements"] else None
            line += f"   ev {nat['ev']:+.3f}   " + (
                "advice: declare it" if nat["declare"] else "advice: set the rows") + (
                "" if rows is None else f" (the best rows: ev {rows:+.3f})")
        lines.append(line)
    if res.get("kept_table"):
        lines.append("kept table's split first: the best on these deals does not beat it "
                     f"significantly (by more than {ANCHOR_Z:g} standard errors)")
    for i, a in enumerate(res["arrangements"], 1):
        lines.append(f"#{i}  ev {a['ev']:+.3f}   scoop {a['scoop']:.1%}   royalties {a['royalties']}")
        for row in a["rows"]:
            cards = " ".join(a[row["row"]])
            lines.append(f"    {row['row']:<6} {cards:<15} {row['kind']:<15} "
                         f"win {row['win']:6.1%}  tie {row['tie']:5.1%}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    res = arrange(args.hand, args.rules, args.opponents, args.method, args.samples, args.seed,
                  args.top, opponent_hands=args.opponent_hand or None,
                  card_removal=not args.no_card_removal, tables=args.tables,
                  adaptive=not args.all_samples,
                  opponent_profiles=args.profile or None).to_dict()
    print(json.dumps(res, ensure_ascii=False) if args.json
          else format_arrange(res, show_tables=args.tables is not None))
    return 0


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("arrange", help="rank the arrangements of 13 cards by expected points")
    p.add_argument("hand", help='13 cards, e.g. "As Kd Qh ..."')
    p.add_argument("--rules", type=rules_argument, default="standard",
                   help="preset name (standard, basic, two-four, indonesia) or JSON object")
    p.add_argument("--opponents", type=int, default=3, help="1 to 3 (default 3)")
    p.add_argument("--method", default="table", help="table (default), montecarlo or known")
    p.add_argument("--samples", type=int, default=1000, help="Monte Carlo deals (default 1000)")
    p.add_argument("--seed", type=int, default=None, help="Monte Carlo seed")
    p.add_argument("--top", type=int, default=5, help="arrangements to show (default 5)")
    p.add_argument("--all-samples", action="store_true",
                   help="Monte Carlo: draw every sample (default: stop once the order is settled)")
    p.add_argument("--opponent-hand", action="append", metavar="CARDS",
                   help="an opponent's 13 cards (method known; repeat per opponent)")
    p.add_argument("--no-card-removal", action="store_true",
                   help="play the tables without card removal (faster, more exploitable)")
    p.add_argument("--profile", action="append", metavar="FILE",
                   help="an opponent profile (from capsa profile; method montecarlo; repeat "
                        "once per opponent)")
    p.add_argument("--tables", metavar="FILE", default=None,
                   help="a tables file to play (from capsa train; default: the shipped one)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)
