"""``capsa train-belief -o BELIEF.npz``: Big Two's belief network (where the unseen cards are),
fitted to hands a population of players played, labelled with the true hands."""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

from solver.cli.common import check_writable, float_arg, int_arg
from solver.errors import InputError


def run(args: argparse.Namespace) -> int:
    from solver.games.big_two import belief

    output = Path(args.output)
    data = Path(args.data) if args.data else output.with_name(output.stem + "-data")
    check_writable(output)
    if data.exists() and not data.is_dir():
        raise InputError(f"--data {data}: not a directory")
    data.mkdir(parents=True, exist_ok=True)
    start = time.time()
    shards = belief.generate(data, args.hands, seed=args.seed, workers=args.workers)
    print(f"{len(shards)} shards of recorded hands in {data} ({time.time() - start:.0f} s)",
          file=sys.stderr)
    command = ("capsa train-belief -o " + shlex.quote(output.name) + f" --hands {args.hands}"
               f" --seed {args.seed} --epochs {args.epochs} --lr {args.lr}")

    def log(line: str) -> None:
        if args.progress:
            print(line, file=sys.stderr)
    figures = belief.train(data, output, epochs=args.epochs, lr=args.lr, seed=args.seed,
                           hands=args.hands, command=command, log=log)
    print(f"wrote {output} in {time.time() - start:.0f} s: held-out cross-entropy "
          f"{figures['cross_entropy']:.4f} a card, true class {figures['true_mass']:.3f} of the "
          f"odds (a uniform deal: {figures['uniform_mass']:.3f})", file=sys.stderr)
    return 0


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "train-belief", help="train Big Two's belief network (where the unseen cards are)",
        description="Records hands played by a population of players (the shipped network, "
                    "the baseline, hand-made styles, a share of random moves), then fits the "
                    "network that tells the search where each unseen card is likely to be. "
                    "Resumable: recorded shards are kept in --data and an interrupted fit "
                    "resumes from its checkpoint at the last finished epoch; deterministic "
                    "for a seed whatever the number of workers.")
    p.add_argument("-o", "--output", metavar="BELIEF.npz", required=True)
    p.add_argument("--hands", type=int_arg("--hands", 1), default=300_000,
                   help="hands to record (default 300,000)")
    p.add_argument("--data", metavar="DIR", default=None,
                   help="where the recorded hands go (default: BELIEF-data beside the output)")
    p.add_argument("--seed", type=int_arg("--seed", 0), default=1)
    p.add_argument("--epochs", type=int_arg("--epochs", 1, 100), default=3)
    p.add_argument("--lr", type=float_arg("--lr", 1e-6, 1.0, high_open=True), default=1e-3,
                   help="Adam step size (default 0.001; x0.3 after each epoch)")
    p.add_argument("--workers", type=int_arg("--workers", 1, 64), default=1,
                   help="processes recording hands (default 1; the data do not depend on it)")
    p.add_argument("--no-progress", dest="progress", action="store_false")
    p.set_defaults(func=run)
