"""``capsa batch IN -o OUT``: the best arrangement of every hand of a file, resumable.

Bad lines, hostile ones included, go to the errors file and the run goes on; an output that
cannot be written (a full disk, a read-only folder) is one line on standard error, exit
status 2, and a rerun completes it (see :mod:`solver.batch.run`)."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from solver.batch import DEFAULT_CHUNK, BatchConfig, run_batch
from solver.batch.output import write_stdout
from solver.cli.common import int_arg, rules_argument


def add(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "batch", help="best arrangement of every hand of a file (JSON lines out, resumable)",
        description="Solve one hand per line of IN (plain text or JSON; blank lines and lines "
                    "starting with # are skipped) and append JSON lines to OUT. Rerunning the "
                    "same command resumes: lines already in OUT or in the errors file are "
                    "skipped.")
    p.add_argument("input", metavar="IN", help="hands, one per line; - for standard input")
    p.add_argument("-o", "--output", metavar="OUT", required=True, help="JSON lines output file")
    p.add_argument("--rules", type=rules_argument, default="standard",
                   help="preset name or JSON object of preset and options")
    p.add_argument("--opponents", type=int_arg("--opponents"), default=3)
    p.add_argument("--method", choices=("table", "montecarlo"), default="table")
    p.add_argument("--samples", type=int_arg("--samples"), default=1000,
                   help="Monte Carlo deals per hand")
    p.add_argument("--seed", type=int_arg("--seed"), default=0,
                   help="Monte Carlo seed (each hand's own seed comes from it and its cards)")
    p.add_argument("--no-card-removal", action="store_true",
                   help="play the tables without card removal (about 2.5x faster a hand, "
                        "more exploitable)")
    p.add_argument("--tables", metavar="FILE", default=None,
                   help="a tables file to play (from capsa train; default: the shipped one)")
    p.add_argument("--workers", type=int_arg("--workers"), default=None,
                   help="local processes (default: every core), or the --cluster local size "
                        "(default 2)")
    p.add_argument("--chunk-size", type=int_arg("--chunk-size"), default=DEFAULT_CHUNK,
                   help=f"hands per task and per write (default {DEFAULT_CHUNK})")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="a running Dask scheduler, e.g. tcp://host:8786")
    where.add_argument("--cluster", choices=("local",),
                       help="start a Dask LocalCluster for this run")
    p.add_argument("--ordered", action="store_true", help="write results in input order")
    p.add_argument("--format", choices=("jsonl", "parquet"), default="jsonl",
                   help="jsonl (default): JSON lines appended to OUT; parquet: OUT is a "
                        "directory of Parquet parts, one per chunk, read as one table")
    p.add_argument("--errors", metavar="FILE", default=None,
                   help="bad lines go here (default OUT.errors.jsonl)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--json-summary", action="store_true",
                   help="also print the summary as JSON on standard output")
    p.set_defaults(func=run)
    return p


def config_from_args(args: argparse.Namespace) -> BatchConfig:
    return BatchConfig(input=args.input, output=args.output, errors_file=args.errors,
                       rules=args.rules, opponents=args.opponents, method=args.method,
                       samples=args.samples, seed=args.seed, workers=args.workers,
                       chunk_size=args.chunk_size, scheduler=args.scheduler,
                       cluster=args.cluster, ordered=args.ordered, format=args.format,
                       progress=not args.no_progress, card_removal=not args.no_card_removal,
                       tables=args.tables)


def run(args: argparse.Namespace) -> int:
    summary = run_batch(config_from_args(args))
    print(summary.text(), file=sys.stderr)
    if args.json_summary:
        write_stdout(json.dumps(asdict(summary)))
    return 130 if summary.interrupted else 0
