"""Self-play training of the ``table`` strategy's row tables.

Round 0 deals hands and sets them with the naive strategy (strongest back, then middle); every
next round sets fresh hands with the table strategy built from the previous round's row
histograms, until the tables settle. The result is what ``solver/games/capsa/data/tables.npz`` ships:

    python -m solver.games.capsa.strategy.train --hands 200000 --rounds 6 --seed 2026 -o solver/games/capsa/data/tables.npz

Deterministic for a given seed, whatever the number of worker processes (hands are dealt in
fixed chunks, each from its own seed, and the histograms are integer sums).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from solver.games.capsa.lookup import TABLES
from solver.games.capsa.rules import RulesSpec, resolve_rules
from solver.games.capsa.strategy.play import deal, naive_play, natural_codes, table_play
from solver.games.capsa.strategy.tables import (
    TRAINED_PRESETS,
    derive,
    training_preset,
    write_arrays,
)

CHUNK = 5000


def deal_hands(rng: np.random.Generator, n: int, players: int = 1) -> np.ndarray:
    """``n`` hands (n, 13): independent hands (``players=1``), or the seats of deals of
    ``players`` hands from one deck, seat by seat (the last deal cut to make ``n``)."""
    if players == 1:
        return deal(rng, n)[:, 0, :]
    return deal(rng, -(-n // players), players).reshape(-1, 13)[:n]


def _round_chunk(args: tuple) -> tuple[np.ndarray, np.ndarray]:
    spec, seed, n, players, hist, naturals = args
    rules = resolve_rules(spec)
    hands = deal_hands(np.random.default_rng(seed), n, players)
    codes = natural_codes(hands) if rules.naturals_on else np.zeros(n, dtype=np.int64)
    plays_rows = codes == 0
    if hist is None:
        _, rows = naive_play(hands[plays_rows], rules)
    else:
        tables = derive(hist, naturals, rules, training_preset(rules))
        _, _, rows = table_play(hands[plays_rows], rules, tables)
    size = TABLES[rules.wheel].size
    out = np.zeros((3, size), dtype=np.int64)
    for r in range(3):
        out[r] = np.bincount(rows[:, r], minlength=size)
    return out, np.bincount(codes, minlength=5).astype(np.int64)


def total(parts: list[np.ndarray]) -> np.ndarray:
    """The element-wise sum of the chunks' count arrays, added in order (as ``sum`` would)."""
    out = parts[0]
    for part in parts[1:]:
        out = out + part
    return out


def chunk_sizes(hands: int) -> list[int]:
    """How a round's ``hands`` are cut into chunks, each dealt from its own seed."""
    return [min(CHUNK, hands - i) for i in range(0, hands, CHUNK)]


@dataclass
class TrainState:
    """Where self-play stands after ``rounds_done`` rounds: what a checkpoint holds."""

    rounds_done: int = 0
    total_hist: np.ndarray | None = None
    total_nat: np.ndarray | None = None
    prev_pw: np.ndarray | None = None
    deltas: list[float] = field(default_factory=list)


def train_preset(preset: str, hands: int, rounds: int, seed: int, workers: int,
                 log=print) -> tuple[np.ndarray, np.ndarray, list[float]]:
    """Histograms of a trained preset after ``rounds`` rounds (see :func:`train_rules`)."""
    return train_rules(preset, hands, rounds, seed, workers, log)


def train_rules(spec: RulesSpec, hands: int, rounds: int, seed: int, workers: int,
                log: Callable[[str], object] = print, players: int = 1,
                state: TrainState | None = None,
                on_round: Callable[[TrainState], None] | None = None,
                on_chunk: Callable[[], None] | None = None
                ) -> tuple[np.ndarray, np.ndarray, list[float]]:
    """Histograms after ``rounds`` rounds of self-play under the rules ``spec`` (a preset or
    any rule set), and the change of the win tables per round.

    Fictitious play: each round answers the average of the table-strategy rounds so far (round
    1 answers the naive round 0), which damps the oscillation of pure best responses.
    ``players`` > 1 deals the hands as the seats of deals of that many (see
    :func:`deal_hands`). ``state`` resumes after its rounds (``on_round`` gets the state after
    each round, to checkpoint it); ``on_chunk`` is called after each chunk (a progress bar)."""
    from solver.executors.pool import local_executor  # here: a game loads no executor
    rules = resolve_rules(spec)
    key = training_preset(rules)
    st = state or TrainState()
    hist = None if st.rounds_done == 0 else np.asarray(st.total_hist, dtype=np.float64)
    naturals = None if st.rounds_done == 0 else np.asarray(st.total_nat, dtype=np.float64)
    seeds = np.random.SeedSequence([seed, TRAINED_PRESETS.index(key)])
    seeds.spawn(st.rounds_done)  # the rounds already played drew these
    with local_executor(workers) as pool:
        for rnd in range(st.rounds_done, rounds):
            round_seeds = seeds.spawn(1)[0]
            sizes = chunk_sizes(hands)
            chunk_seeds = [int(s.generate_state(1)[0]) for s in round_seeds.spawn(len(sizes))]
            jobs = [(spec, s, n, players, hist, naturals) for s, n in zip(chunk_seeds, sizes)]
            results = []
            for res in pool.map(_round_chunk, jobs):  # in chunk order
                results.append(res)
                if on_chunk is not None:
                    on_chunk()
            round_hist = total([r[0] for r in results])
            round_nat = total([r[1] for r in results])
            if rnd <= 1:
                st.total_hist, st.total_nat = round_hist, round_nat
            else:
                st.total_hist, st.total_nat = st.total_hist + round_hist, st.total_nat + round_nat
            hist = st.total_hist.astype(np.float64)
            naturals = st.total_nat.astype(np.float64)
            pw = derive(hist, naturals, rules, key).pw
            # change of the win tables, weighted by how often each row strength is played
            weight = hist / hist.sum(axis=1, keepdims=True)
            delta = (float((np.abs(pw - st.prev_pw) * weight).sum(axis=1).max())
                     if st.prev_pw is not None else float("nan"))
            st.deltas.append(delta)
            st.prev_pw = pw
            st.rounds_done = rnd + 1
            log(f"  {key}: round {rnd} ({'naive' if rnd == 0 else 'table'} opponents), "
                f"mean change of a win probability {delta:.4f}")
            if on_round is not None:
                on_round(st)
    assert hist is not None and naturals is not None
    return hist.astype(np.int64), naturals.astype(np.int64), list(st.deltas)


def write_tables(path: Path, results: dict, meta: dict) -> None:
    """Write the histograms of each preset (``results``: preset -> (hist, naturals, ...))."""
    arrays = {}
    for preset, (hist, naturals, _) in results.items():
        arrays[f"{preset}/hist"] = hist
        arrays[f"{preset}/naturals"] = naturals
    write_arrays(path, arrays, meta)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m solver.games.capsa.strategy.train", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=200_000, help="hands dealt per round and preset")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--presets", nargs="+", default=list(TRAINED_PRESETS), choices=TRAINED_PRESETS)
    ap.add_argument("-o", "--output", type=Path, required=True)
    args = ap.parse_args(argv)
    if args.hands < 1 or args.rounds < 1:
        ap.error("--hands and --rounds must be positive")
    start = time.time()
    results = {p: train_preset(p, args.hands, args.rounds, args.seed, args.workers)
               for p in args.presets}
    meta = {
        "command": (f"python -m solver.games.capsa.strategy.train --hands {args.hands} --rounds {args.rounds} "
                    f"--seed {args.seed} --presets {' '.join(args.presets)} -o {args.output.name}"),
        "seed": args.seed, "hands_per_round": args.hands, "rounds": args.rounds,
        "presets": args.presets, "format": 1,
        "last_change": {p: r[2][-1] for p, r in results.items()},
    }
    write_tables(args.output, results, meta)
    print(f"wrote {args.output} in {time.time() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
