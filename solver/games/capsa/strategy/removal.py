"""Card removal for the ``table`` strategy: how my cards shift the opponent's rows.

The row tables say how often an opponent puts each strength in each row, over all hands it can
hold. But it holds 13 of the 39 cards I do not: with three aces in my hand its ace pairs are
rare. A best response that deals the opponent from the unseen cards gains most of its edge over
``table`` from this alone (measured: the same tables with this correction take ~90% of that edge
under two-four heads-up). This module measures, from a pool of hands set by the strategy,

    delta[k, row, s] = P(row = s | a given card of rank k is not in the hand) - P(row = s)

averaged over the four suits (suits are symmetric), and writes it beside the histograms of a
tables file. The strategy then plays, for a hand holding ``n_k`` cards of rank ``k``, the row
distribution ``p + ALPHA * sum_k n_k * delta[k]``, its win/tie/royalty tables clamped into a
distribution (see :mod:`solver.games.capsa.kernels.removal`). ``ALPHA`` scales one card's effect to thirteen: one
card removed moves every other card's chance to be in the opponent's hand from 13/52 to 13/51,
thirteen move it to 13/39, which is ``ALPHA`` times thirteen single moves. The first-order
model is not exact, so ``--alpha-scale PRESET=X`` writes ``X * ALPHA`` for a preset: an
empirical strength, chosen by measuring exploitability (see the README), recorded in the file.

Suits are averaged out of ``delta``, but they matter to the opponent's flushes: holding six
hearts makes its heart flush rare whatever their ranks. ``suit[c, row, s]`` is how the
probability that the opponent's ``row`` has strength ``s`` moves when it holds none of ``c``
given cards of one suit, less its mean over the suit counts a 13-card hand has (so a hand of
average suits is the ranks' model alone). A hand adds ``suit_scale * suit[c_x]`` for each of
its four suit counts ``c_x`` (``--suit-scale PRESET=X``; without it a preset has no suit
terms).

    python -m solver.games.capsa.strategy.removal --tables IN.npz --hands 1000000 -o OUT.npz

The pool is set by the strategy of ``IN`` (with its own card removal, if it has some), and its
histograms replace those of ``IN``, so the tables and their shifts describe one and the same
opponent. The same pool gives the copula of the opponent's rows, ``joint``, which values the
scoop (:mod:`solver.games.capsa.strategy.joint`). Deterministic for a seed whatever the number
of workers.

One pool describes the strategy that set it, but the strategy that plays the file is another
one: it answers those tables with card removal. ``--rounds R`` goes on by fictitious play with
the whole model in the loop: round ``r`` sets fresh hands with the ``table`` strategy of the
tables measured on the pools of rounds 0 to ``r - 1`` together (card removal, suit terms and
copula included), and the file holds the tables of all ``R`` pools together, so what they
describe is the average of the strategies played, as self-play training averages its rounds.
Each round is checkpointed beside the output (``OUT.PRESET.checkpoint.npz``); the same command
run again resumes after the last round done.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from solver.games.capsa.lookup import TABLES
from solver.games.capsa.rules import RulesSpec, resolve_rules
from solver.games.capsa.strategy.joint import copula_grids
from solver.games.capsa.strategy.play import natural_codes, table_play
from solver.games.capsa.strategy.tables import (
    DATA_FILE,
    TRAINED_PRESETS,
    load_raw,
    tables_digest,
    tables_for,
    training_preset,
    write_arrays,
)
from solver.games.capsa.strategy.train import chunk_sizes, deal_hands, total
from solver.npzfile import BAD_FILE_ERRORS

ALPHA = (13 / 39 - 13 / 52) / (13 * (13 / 51 - 13 / 52))


def pool_counts(hands: np.ndarray, rows: np.ndarray, size: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For hands that set rows (N, 13) and their rows (N, 3): the row histogram (3, S), per card
    the histogram of the hands holding it (52, 3, S), how many hands hold each card (52,), and
    per count ``j`` the histogram of the (hand, suit) pairs with ``j`` cards of the suit
    (14, 3, S)."""
    hist = np.stack([np.bincount(rows[:, r], minlength=size) for r in range(3)]).astype(np.int64)
    held = np.bincount(hands.ravel(), minlength=52).astype(np.int64)
    with_card = np.empty((52, 3, size), dtype=np.int64)
    cards = hands.ravel()
    for r in range(3):
        idx = cards * size + np.repeat(rows[:, r], 13)
        with_card[:, r] = np.bincount(idx, minlength=52 * size).reshape(52, size)
    in_suit = np.stack([(hands & 3) == x for x in range(4)], axis=1).sum(axis=2)  # (N, 4)
    by_suit = np.empty((14, 3, size), dtype=np.int64)
    for r in range(3):
        idx = in_suit * size + rows[:, r, None]
        by_suit[:, r] = np.bincount(idx.ravel(), minlength=14 * size).reshape(14, size)
    return hist, with_card, held, by_suit


SUIT_COUNT_CHANCE = np.array([comb(13, c) * comb(39, 13 - c) / comb(52, 13) for c in range(14)])


def suit_conditionals(by_suit: np.ndarray) -> np.ndarray:
    """(14, 3, S) from :func:`pool_counts`' per-suit-count histograms: for each ``c``, the row
    distribution of the hands holding none of ``c`` given cards of a suit (a hand with ``j``
    cards of it holds none of them with chance C(13 - c, j) / C(13, j)), less the
    unconditional one."""
    n_j = by_suit[:, 0].sum(axis=1).astype(np.float64)        # (hand, suit) pairs per count
    base = by_suit.sum(axis=0) / n_j.sum()
    out = np.empty(by_suit.shape)
    for c in range(14):
        w = np.array([comb(13 - c, j) / comb(13, j) for j in range(14)])
        out[c] = np.tensordot(w, by_suit, axes=1) / (w @ n_j) - base
    return out


def suit_shifts(by_suit: np.ndarray) -> np.ndarray:
    """``suit[c, row, s]`` (14, 3, S): :func:`suit_conditionals` less their mean over the
    count of a suit a 13-card hand holds (:data:`SUIT_COUNT_CHANCE`), so a hand of average
    suits moves nothing beyond its ranks."""
    out = suit_conditionals(by_suit)
    return out - np.tensordot(SUIT_COUNT_CHANCE, out, axes=1)[None]


def deltas(hist: np.ndarray, with_card: np.ndarray, held: np.ndarray) -> np.ndarray:
    """``delta[k, row, s]`` (13, 3, S) from :func:`pool_counts` sums."""
    n = hist[0].sum()
    base = hist / n
    without = (hist[None] - with_card) / (n - held)[:, None, None]
    return (without - base[None]).reshape(13, 4, *hist.shape).mean(axis=1)


def _chunk(args: tuple) -> tuple[np.ndarray, ...]:
    spec, path, seed, n = args
    rules = resolve_rules(spec)
    hands = deal_hands(np.random.default_rng(seed), n)
    codes = natural_codes(hands) if rules.naturals_on else np.zeros(n, dtype=np.int64)
    plays = hands[codes == 0]
    _, _, rows = table_play(plays, rules, tables_for(rules, path))
    size = TABLES[rules.wheel].size
    return (*pool_counts(plays, rows.astype(np.int64), size),
            np.bincount(codes, minlength=5).astype(np.int64), rows.astype(np.int16))


POOL_FIELDS = ("hist", "with_card", "held", "by_suit", "naturals", "rows")


@dataclass
class Pool:
    """What a pool of hands set by a strategy leaves: :func:`pool_counts`' sums, the
    naturals' counts and every hand's rows (for the copula). Pools of several rounds add up."""

    hist: np.ndarray
    with_card: np.ndarray
    held: np.ndarray
    by_suit: np.ndarray
    naturals: np.ndarray
    rows: np.ndarray

    def __add__(self, other: Pool) -> Pool:
        hist, with_card, held, by_suit, naturals = (
            a + b for a, b in zip(self.counts(), other.counts()))
        return Pool(hist, with_card, held, by_suit, naturals,
                    np.concatenate([self.rows, other.rows]))

    def counts(self) -> tuple[np.ndarray, ...]:
        return self.hist, self.with_card, self.held, self.by_suit, self.naturals

    def arrays(self) -> dict[str, np.ndarray]:
        values: tuple[np.ndarray, ...] = (*self.counts(), self.rows)
        return dict(zip(POOL_FIELDS, values))


def _pool(spec: RulesSpec, path: str, seeds: np.random.SeedSequence, hands: int,
          workers: int, on_chunk: Callable[[], None] | None) -> Pool:
    """The pool of ``hands`` hands set by the strategy of the tables file ``path``."""
    from solver.executors.pool import local_executor  # here: a game loads no executor
    sizes = chunk_sizes(hands)
    chunk_seeds = [int(s.generate_state(1)[0]) for s in seeds.spawn(len(sizes))]
    jobs = [(spec, path, s, n) for s, n in zip(chunk_seeds, sizes)]
    parts = []
    with local_executor(workers) as pool:
        for part in pool.map(_chunk, jobs):  # in chunk order
            parts.append(part)
            if on_chunk is not None:
                on_chunk()
    hist, with_card, held, by_suit, naturals = (total([p[i] for p in parts]) for i in range(5))
    return Pool(hist, with_card, held, by_suit, naturals, np.concatenate([p[5] for p in parts]))


def model(pool: Pool, key: str, seed: int
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Histogram, naturals, card-removal shifts, the rows' copula and the suits' shifts of a
    pool (the copula's ties spread by a generator seeded from ``seed`` and the preset)."""
    joint = copula_grids(pool.rows, pool.hist, np.random.default_rng(
        np.random.SeedSequence([seed, TRAINED_PRESETS.index(key), 0x10E7])))
    return (pool.hist, pool.naturals, deltas(pool.hist, pool.with_card, pool.held), joint,
            suit_shifts(pool.by_suit))


def file_arrays(key: str, measured: tuple[np.ndarray, ...], alpha: float,
                suit_scale: float) -> dict[str, np.ndarray]:
    """What :func:`model` (or :func:`measure`) gives, as a tables file holds it under ``key``
    (suit terms when ``suit_scale`` > 0)."""
    hist, naturals, delta, joint, suit = measured
    arrays: dict[str, np.ndarray] = {
        f"{key}/hist": np.asarray(hist, dtype=np.int64),
        f"{key}/naturals": np.asarray(naturals, dtype=np.int64),
        f"{key}/removal": delta.astype(np.float32), f"{key}/alpha": np.array(alpha),
        f"{key}/joint": joint.astype(np.float32)}
    if suit_scale > 0:
        arrays[f"{key}/suit"] = suit.astype(np.float32)
        arrays[f"{key}/suit_scale"] = np.array(suit_scale)
    return arrays


def measure(spec: RulesSpec, path: str, hands: int, seed: int, workers: int,
            on_chunk: Callable[[], None] | None = None, rounds: int = 1,
            alpha: float = ALPHA, suit_scale: float = 0.0, checkpoint: Path | None = None,
            checkpoint_key: dict[str, str] | None = None,
            on_round: Callable[[int], object] | None = None
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Histogram, naturals, card-removal shifts, the rows' copula and the suits' shifts
    (:func:`suit_shifts`) of a pool of ``hands`` hands set by the strategy of the tables file
    ``path`` under the rules ``spec`` (a preset or any rule set; the file's tables of the
    preset it trains with).

    ``rounds`` > 1 goes on by fictitious play with card removal in the loop: round ``r`` sets
    ``hands`` fresh hands with the whole ``table`` strategy (card removal of strength
    ``alpha``, suit terms of ``suit_scale``, the copula) built from the pools of rounds 0 to
    ``r - 1`` together, and the result is the tables of all the rounds' pools together.
    With ``checkpoint``, the pools are written there after each round but the last, under
    ``checkpoint_key``, and a checkpoint of the same key resumes after its rounds (their
    chunks count as done for ``on_chunk``); the caller deletes it once its output is written.
    ``on_round(r)`` is told of each round done."""
    key = training_preset(resolve_rules(spec))
    keyed = checkpoint_key or {}
    done, acc = (resume_pools(checkpoint, keyed) if checkpoint is not None and rounds > 1
                 else (0, None))
    if on_chunk is not None:
        for _ in range(done * len(chunk_sizes(hands))):
            on_chunk()
    with tempfile.TemporaryDirectory(prefix="capsa-removal-") as tmp:
        for r in range(done, rounds):
            words = [seed, TRAINED_PRESETS.index(key), 0xCA2D] + ([r] if r else [])
            if r == 0:
                played = path
            else:
                assert acc is not None
                played = os.path.join(tmp, f"round{r}.npz")
                write_arrays(Path(played),
                             file_arrays(key, model(acc, key, seed), alpha, suit_scale),
                             {"note": f"fictitious play, the tables after {r} rounds"})
            fresh = _pool(spec, played, np.random.SeedSequence(words), hands, workers,
                          on_chunk)
            acc = fresh if acc is None else acc + fresh
            if checkpoint is not None and rounds > 1 and r + 1 < rounds:
                write_arrays(checkpoint, acc.arrays(), {**keyed, "rounds_done": r + 1})
            if on_round is not None:
                on_round(r + 1)
    assert acc is not None
    return model(acc, key, seed)


def _alpha_scales(ap: argparse.ArgumentParser, items: list[str],
                  option: str = "--alpha-scale") -> dict[str, float]:
    """``PRESET=X`` items as {preset: X}, or the parser's one-line error naming the item."""
    out: dict[str, float] = {}
    for item in items:
        preset, _, value = item.partition("=")
        try:
            x = float(value)
        except ValueError:
            x = float("nan")
        if preset not in TRAINED_PRESETS or not 0.0 <= x <= 4.0:
            ap.error(f"{option}: {item!r} is not PRESET=X with PRESET one of "
                     f"{', '.join(TRAINED_PRESETS)} and X between 0 and 4")
        out[preset] = x
    return out


def resume_pools(path: Path, key: dict[str, str]) -> tuple[int, Pool | None]:
    """Rounds done and their pools from a checkpoint of the same run (none: start over)."""
    if not path.exists():
        return 0, None
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            hist, with_card, held, by_suit, naturals, rows = (data[n] for n in POOL_FIELDS)
            pool = Pool(hist, with_card, held, by_suit, naturals, rows)
    except BAD_FILE_ERRORS:
        print(f"  {path.name} is not a readable checkpoint: starting over", file=sys.stderr)
        return 0, None
    if {k: meta.get(k) for k in key} != key:
        print(f"  {path.name} is the checkpoint of another run: starting over",
              file=sys.stderr)
        return 0, None
    print(f"  resuming after {meta['rounds_done']} rounds from {path.name}", file=sys.stderr)
    return int(meta["rounds_done"]), pool


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m solver.games.capsa.strategy.removal",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=Path, default=DATA_FILE, help="tables file to start from")
    ap.add_argument("--hands", type=int, default=1_000_000, help="pool size per preset")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--presets", nargs="+", default=None, choices=TRAINED_PRESETS,
                    help="presets to measure (default: every preset of the file)")
    ap.add_argument("--alpha-scale", nargs="+", default=[], metavar="PRESET=X",
                    help="scale a measured preset's card-removal strength: its alpha is "
                         "X times the first-principles ALPHA (default 1 for every preset)")
    ap.add_argument("--suit-scale", nargs="+", default=[], metavar="PRESET=X",
                    help="give a measured preset suit terms of this strength (default: none)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="rounds of fictitious play with card removal in the loop (default 1: "
                         "one pool, set by the strategy of --tables); each round checkpoints")
    ap.add_argument("-o", "--output", type=Path, required=True)
    args = ap.parse_args(argv)
    if args.hands < 1000:
        ap.error("--hands must be at least 1000")
    if not 1 <= args.rounds <= 100:
        ap.error("--rounds must be from 1 to 100")
    scale = _alpha_scales(ap, args.alpha_scale)
    suit_scale = {p: x for p, x in _alpha_scales(ap, args.suit_scale, "--suit-scale").items()
                  if x > 0}
    if not args.tables.is_file():
        ap.error(f"--tables: no file {str(args.tables)!r}")
    raw = load_raw(str(args.tables))
    presets = args.presets or [p for p in TRAINED_PRESETS if p in raw]
    for option, given in (("--alpha-scale", scale), ("--suit-scale", suit_scale)):
        if set(given) - set(presets):
            ap.error(f"{option}: {', '.join(sorted(set(given) - set(presets)))} is not "
                     f"measured in this run (measured: {', '.join(presets)})")
    command = (f"python -m solver.games.capsa.strategy.removal --tables {args.tables.name} "
               f"--hands {args.hands} --seed {args.seed} --presets {' '.join(presets)} "
               + (f"--alpha-scale {' '.join(args.alpha_scale)} " if scale else "")
               + (f"--suit-scale {' '.join(args.suit_scale)} " if suit_scale else "")
               + (f"--rounds {args.rounds} " if args.rounds > 1 else "")
               + f"-o {args.output.name}")
    start = time.time()
    arrays: dict[str, np.ndarray] = {}
    checkpoints = []
    for preset in (p for p in TRAINED_PRESETS if p in raw):
        if preset in presets:
            ckpt = args.output.with_name(f"{args.output.name}.{preset}.checkpoint.npz")
            checkpoints.append(ckpt)
            alpha, suits = ALPHA * scale.get(preset, 1.0), suit_scale.get(preset, 0.0)
            measured = measure(
                preset, str(args.tables), args.hands, args.seed, args.workers,
                rounds=args.rounds, alpha=alpha, suit_scale=suits, checkpoint=ckpt,
                # keyed by the command and the starting file's contents
                checkpoint_key={"command": command, "preset": preset,
                                "tables": tables_digest(args.tables)},
                on_round=lambda r: print(
                    f"  {preset}: round {r - 1} done, {time.time() - start:.0f} s",
                    file=sys.stderr))  # called before the loop moves on: no late binding
            arrays.update(file_arrays(preset, measured, alpha, suits))
            print(f"  {preset}: {args.hands} hands, {time.time() - start:.0f} s", file=sys.stderr)
        else:
            hist, naturals = raw[preset]["hist"], raw[preset]["naturals"]
            if "removal" in raw[preset]:
                arrays[f"{preset}/removal"] = raw[preset]["removal"].astype(np.float32)
                arrays[f"{preset}/alpha"] = np.array(raw[preset]["alpha"])
            if "joint" in raw[preset]:
                arrays[f"{preset}/joint"] = raw[preset]["joint"].astype(np.float32)
            if "suit" in raw[preset]:
                arrays[f"{preset}/suit"] = raw[preset]["suit"].astype(np.float32)
                arrays[f"{preset}/suit_scale"] = np.array(raw[preset]["suit_scale"])
            arrays[f"{preset}/hist"] = np.asarray(hist, dtype=np.int64)
            arrays[f"{preset}/naturals"] = np.asarray(naturals, dtype=np.int64)
    meta: dict[str, Any] = dict(raw["meta"])
    meta["removal"] = {
        "command": command,
        "hands": args.hands, "seed": args.seed, "presets": presets, "alpha_scale": scale,
        "suit_scale": suit_scale, **({"rounds": args.rounds} if args.rounds > 1 else {}),
        "previous": raw["meta"].get("removal")}
    write_arrays(args.output, arrays, meta)
    for ckpt in checkpoints:
        ckpt.unlink(missing_ok=True)
    print(f"wrote {args.output} in {time.time() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
