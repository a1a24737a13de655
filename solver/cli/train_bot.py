"""``capsa train-bot GAME -o NET.npz``: a game's value network (Big Two, Da San, Da Bai Fen),
trained by self-play."""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

from solver.cli.common import check_writable, float_arg, int_arg
from solver.errors import InputError

GAMES = ("big-two", "da-san", "da-bai-fen")
_NOT_RECORDED = ("--workers", "--checkpoint", "--checkpoint-every", "--no-progress")


def run(args: argparse.Namespace) -> int:
    from solver.games import dmc
    from solver.games.dmc import TrainConfig

    if args.population is not None and args.game != "big-two":
        raise InputError("--population is for big-two")
    if args.population is not None:
        from solver.games.big_two.population import parse_population, population_self_play
        SELF_PLAY = population_self_play(*parse_population(args.population), args.self_share)
    elif args.game == "big-two":
        from solver.games.big_two.train import SELF_PLAY
    elif args.game == "da-san":
        from solver.games.da_san.train import SELF_PLAY
    else:
        from solver.games.da_bai_fen.train import SELF_PLAY
    if args.init is not None and not Path(args.init).is_file():
        raise InputError(f"--init {args.init}: no such network file")
    cfg = TrainConfig(games=args.games, seed=args.seed, epsilon=args.epsilon, lr=args.lr,
                      init=args.init or "")
    output = Path(args.output)
    checkpoint = Path(args.checkpoint) if args.checkpoint else \
        output.with_name(output.stem + "-train.npz")
    # the command as recorded in the file: without the options that do not change the result
    # (workers, checkpoint, progress) and with the output's file name only
    argv, skip = [], False
    for a in args.argv:
        if skip:
            skip = False
            continue
        name = a.split("=", 1)[0]
        if name in _NOT_RECORDED:
            skip = "=" not in a and name != "--no-progress"
            continue
        argv.append(a)
    for i, a in enumerate(argv):
        if a in ("-o", "--output") and i + 1 < len(argv):
            argv[i + 1] = output.name
        elif a.startswith("--output="):
            argv[i] = f"--output={output.name}"
    command = "capsa " + " ".join(shlex.quote(a) for a in argv)
    for path in (output, checkpoint):
        check_writable(path)
    bar = None
    if args.progress:
        from tqdm import tqdm
        bar = tqdm(total=cfg.games, unit="hand", file=sys.stderr, desc="capsa train-bot",
                   dynamic_ncols=True, disable=None, smoothing=0.05)
    last = [0]

    def progress(done: int, total: int, loss: float, seconds: float) -> None:
        if bar is not None:
            bar.update(done - last[0])
            bar.set_postfix(loss=f"{loss:.4f}", refresh=False)
        last[0] = done

    start = time.time()
    try:
        net = dmc.train(SELF_PLAY, output, cfg, checkpoint, args.checkpoint_every, command,
                        progress, args.workers)
    finally:
        if bar is not None:
            bar.close()
    print(f"wrote {output} ({output.stat().st_size / 1e6:.1f} MB) in {time.time() - start:.0f} s:"
          f" {net.meta['games']:,} self-play hands, final loss {net.meta['final_loss']:.4f}",
          file=sys.stderr)
    return 0


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "train-bot", help="train a game's value network by self-play (Big Two, Da San, Da Bai Fen)",
        description="Deep Monte Carlo self-play: every decision's features regress on the "
                    "seat's final points. Resumable: the checkpoint (default NET-train.npz "
                    "beside the output) is rewritten as it goes; run the same command again "
                    "after a stop. Deterministic for a seed.")
    p.add_argument("game", choices=GAMES)
    p.add_argument("-o", "--output", metavar="NET.npz", required=True)
    p.add_argument("--games", type=int_arg("--games", 1), default=200_000,
                   help="self-play hands in all (default 200,000)")
    p.add_argument("--seed", type=int_arg("--seed", 0), default=2026)
    p.add_argument("--epsilon", type=float_arg("--epsilon", 0.0, 1.0, high_open=True), default=0.03,
                   help="share of decisions explored at random (default 0.03)")
    p.add_argument("--lr", type=float_arg("--lr", 1e-6, 1.0, high_open=True), default=3e-4,
                   help="Adam step size (default 0.0003)")
    p.add_argument("--init", metavar="NET.npz", default=None,
                   help="start from this network instead of random weights (fine-tuning)")
    p.add_argument("--population", metavar="SPEC", default=None,
                   help="big-two: train against a population instead of copies of itself, "
                        "e.g. 'baseline:2,net,shed-most,high,passive,net:old.npz@1' (members: "
                        "baseline, random, net, shed-most, high, passive, net:FILE; weight "
                        "after ':' or '@' for files)")
    p.add_argument("--self-share", type=float_arg("--self-share", 0.05, 1.0),
                   default=0.25, help="with --population: the chance each seat is the learner "
                                      "itself (default 0.25; at least one seat is)")
    p.add_argument("--checkpoint", metavar="FILE", default=None)
    p.add_argument("--checkpoint-every", type=int_arg("--checkpoint-every", 1), default=4_000,
                   help="hands between checkpoints (default 4,000)")
    p.add_argument("--workers", type=int_arg("--workers", 1, 64), default=1,
                   help="processes playing the self-play hands (default 1; the result does "
                        "not depend on it)")
    p.add_argument("--no-progress", dest="progress", action="store_false")
    p.set_defaults(func=run)
