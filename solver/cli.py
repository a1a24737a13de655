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


# ---------------------------------------------------------------- capsa susun
def _read_json(path: str) -> object:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    try:
        return json.loads(text)
    except ValueError as exc:
        raise InputError(f"{'standard input' if path == '-' else path} is not valid JSON: {exc}") from None


def _cmd_valid(args: argparse.Namespace) -> int:
    from solver.splits import valid_arrangements

    n = valid_arrangements(args.hand, args.rules)
    if args.json:
        _print_json({"valid_arrangements": n})
    else:
        print(n)
    return 0


def _format_score(result: dict) -> str:
    lines = []
    for i, p in enumerate(result["players"]):
        tag = " (foul)" if p["foul"] else f" ({p['natural']})" if p["natural"] else ""
        lines.append(f"player {i}: {p['points']:+d}{tag}")
        for v in p["vs"]:
            rows = " ".join(f"{r:+d}" for r in v["rows"])
            lines.append(f"  vs {v['opponent']}: {v['points']:+d}  rows {rows}  scoop {v['scoop']:+d}"
                         f"  royalties {v['royalties']:+d}  natural {v['natural']:+d}")
    return "\n".join(lines)


def table_from_json(data: object) -> tuple[list, object]:
    """(players, rules) from the table JSON shared by the CLI and the HTTP service."""
    if not isinstance(data, dict):
        raise InputError("the table must be a JSON object with players (and optional rules)")
    unknown = sorted(set(data) - {"players", "rules"})
    if unknown:
        raise InputError(f"unknown field{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}")
    if "players" not in data:
        raise InputError("the table has no players")
    return data["players"], data.get("rules")


def _cmd_score(args: argparse.Namespace) -> int:
    from solver.referee import score

    players, rules = table_from_json(_read_json(args.file))
    result = score(players, rules).to_dict()
    print(json.dumps(result, ensure_ascii=False) if args.json else _format_score(result))
    return 0


def rules_argument(text: str) -> object:
    """``--rules``: a preset name, or a JSON object of preset plus overrides."""
    text = text.strip()
    if text.startswith("{"):
        try:
            return json.loads(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"--rules is not valid JSON: {exc}") from None
    return text


def _format_arrange(res: dict) -> str:
    lines = [f"hand: {' '.join(res['hand'])}",
             f"valid arrangements: {res['valid_arrangements']:,}   method: {res['method']}, "
             f"{res['opponents']} opponent{'s' if res['opponents'] > 1 else ''}"]
    if res["natural"]:
        lines.append(f"natural: {res['natural']['kind']} ({res['natural']['units']} units)")
    for i, a in enumerate(res["arrangements"], 1):
        lines.append(f"#{i}  ev {a['ev']:+.3f}   scoop {a['scoop']:.1%}   royalties {a['royalties']}")
        for row in a["rows"]:
            cards = " ".join(a[row["row"]])
            lines.append(f"    {row['row']:<6} {cards:<15} {row['kind']:<15} "
                         f"win {row['win']:6.1%}  tie {row['tie']:5.1%}")
    return "\n".join(lines)


def _cmd_arrange(args: argparse.Namespace) -> int:
    from solver.arrange import arrange

    opp_hands = [h for h in args.opponent_hand] if args.opponent_hand else None
    res = arrange(args.hand, args.rules, args.opponents, args.method, args.samples, args.seed,
                  args.top, opponent_hands=opp_hands).to_dict()
    print(json.dumps(res, ensure_ascii=False) if args.json else _format_arrange(res))
    return 0


def _add_capsa(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("arrange", help="rank the arrangements of 13 cards by expected points")
    p.add_argument("hand", help='13 cards, e.g. "As Kd Qh ..."')
    p.add_argument("--rules", type=rules_argument, default="standard",
                   help="preset name (standard, basic, two-four, indonesia) or JSON object")
    p.add_argument("--opponents", type=int, default=3, help="1 to 3 (default 3)")
    p.add_argument("--method", default="table", help="table (default), montecarlo or known")
    p.add_argument("--samples", type=int, default=1000, help="Monte Carlo deals (default 1000)")
    p.add_argument("--seed", type=int, default=None, help="Monte Carlo seed")
    p.add_argument("--top", type=int, default=5, help="arrangements to show (default 5)")
    p.add_argument("--opponent-hand", action="append", metavar="CARDS",
                   help="an opponent's 13 cards (method known; repeat per opponent)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_cmd_arrange)

    p = sub.add_parser("valid", help="count the valid (non-foul) splits of 13 cards")
    p.add_argument("hand", help='13 cards, e.g. "As Kd Qh ..."')
    p.add_argument("--rules", type=rules_argument, default="standard",
                   help="preset name or JSON object of preset and options")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_cmd_valid)

    p = sub.add_parser("score", help="settle a table (JSON from FILE, or - for standard input)")
    p.add_argument("file", metavar="FILE", help="table JSON, or - for standard input")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_cmd_score)


def _add_serve(sub: argparse._SubParsersAction) -> None:
    from solver.serve import add_serve_command

    add_serve_command(sub)


def _add_batch(sub: argparse._SubParsersAction) -> None:
    from solver.batch import add_batch_command

    add_batch_command(sub)


# Each entry adds sub-commands.
SUBCOMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [
    _add_capsa, _add_batch, _add_moves, _add_serve]


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
