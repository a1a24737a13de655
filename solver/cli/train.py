"""``capsa train --rules RULES -o TABLES.npz``: strategy tables trained for any rule set."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from solver.cli.common import float_arg, int_arg, rules_argument
from solver.games.capsa.strategy.build import (
    DEFAULT_HANDS,
    DEFAULT_REMOVAL_HANDS,
    DEFAULT_ROUNDS,
    MAX_HANDS,
    MAX_ROUNDS,
    MIN_HANDS,
    make_plan,
    rounds_done,
    train_file,
)


def run(args: argparse.Namespace) -> int:
    plan = make_plan(args.rules, args.players, args.hands, args.rounds, args.removal_hands,
                     args.seed, args.alpha_scale, args.suit_scale, args.removal_rounds)
    output = Path(args.output)
    bar = None
    if args.progress:
        from tqdm import tqdm

        done = rounds_done(plan, output)
        bar = tqdm(total=plan.chunks(done), unit="chunk", file=sys.stderr, desc="capsa train",
                   dynamic_ncols=True, disable=None)  # None: only on a terminal
        if done:
            print(f"resuming after round {done} of {plan.rounds}", file=sys.stderr)
    start = time.time()
    try:
        meta = train_file(plan, output, args.workers, bar.update if bar is not None else None,
                          log=(lambda s: None) if bar is not None else
                          (lambda s: print(s, file=sys.stderr)))
    finally:
        if bar is not None:
            bar.close()
    print(f"wrote {output} ({output.stat().st_size / 1e6:.1f} MB) in {time.time() - start:.0f} s:"
          f" tables for {meta['trained_for']!r} slot trained under the rules given; "
          f"last change of a win probability {meta['last_change']:.4f}", file=sys.stderr)
    return 0


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "train", help="train strategy tables for a rule set (house rules) into a tables file",
        description="Self-play under the rules given, then the card-removal pass: a complete "
                    "tables file (rows, card removal, joint rows) for --tables in arrange, "
                    "batch and serve. Resumable: run the same command again after a stop.")
    p.add_argument("--rules", type=rules_argument, required=True,
                   help="preset name, JSON object, or a .json file of preset and options")
    p.add_argument("-o", "--output", metavar="TABLES.npz", required=True)
    p.add_argument("--players", type=int_arg("--players", 2, 4), default=2,
                   help="seats a self-play deal holds (2 to 4, default 2)")
    p.add_argument("--hands", type=int_arg("--hands", MIN_HANDS, MAX_HANDS),
                   default=DEFAULT_HANDS, help=f"hands a round (default {DEFAULT_HANDS:,})")
    p.add_argument("--rounds", type=int_arg("--rounds", 2, MAX_ROUNDS), default=DEFAULT_ROUNDS,
                   help=f"self-play rounds (default {DEFAULT_ROUNDS})")
    p.add_argument("--removal-hands", type=int_arg("--removal-hands", MIN_HANDS, MAX_HANDS),
                   default=DEFAULT_REMOVAL_HANDS,
                   help=f"hands of the card-removal pass (default {DEFAULT_REMOVAL_HANDS:,})")
    p.add_argument("--removal-rounds", type=int_arg("--removal-rounds", 1, MAX_ROUNDS),
                   default=None,
                   help="rounds of fictitious play with card removal in the loop after "
                        "self-play (default: what the shipped file uses for the preset the "
                        "rules train with, 16 for two-four, else 1)")
    p.add_argument("--seed", type=int_arg("--seed", 0), default=2026)
    p.add_argument("--alpha-scale", type=float_arg("--alpha-scale", 0.0, 4.0), default=None,
                   help="card-removal strength, times the first-principles one (default: what "
                        "the shipped file uses for the preset the rules train with)")
    p.add_argument("--suit-scale", type=float_arg("--suit-scale", 0.0, 4.0), default=None,
                   help="strength of the card removal's suit terms (0: none; default: what the "
                        "shipped file uses for that preset, 1.36 for two-four, else none)")
    p.add_argument("--workers", type=int_arg("--workers", 1, 64), default=os.cpu_count() or 1,
                   help="processes (default: every core; the result does not depend on it)")
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="no progress bar (round by round lines instead)")
    p.set_defaults(func=run)
