"""``montecarlo``: up to ``samples`` random deals of the unseen cards; each opponent sets its
hand with the ``table`` strategy, and the candidate splits are scored exactly as the referee
would on the same deals (common random numbers); see :mod:`.exact` for the candidates.

Sampling stops early once the best split is settled (``adaptive``, the default): the deals
are drawn as for a full run, and after each block of ``block_size(samples)`` of them (from the
second block on) the candidates' points per block are compared. The run stops when the best
candidate is ahead of every other by more than :data:`STOP_Z` standard errors of their paired
difference (the blocks' spread); a tie so far never stops it. The answer, however many
arrangements it lists, is then the full run's scoring of the deals drawn so far: the same
deals as a full run's first ones, the same seed, the same result on every call, and the same
deals whatever ``top`` (so ``top=1`` and ``top=5`` agree on every EV they both list; the
arrangements after the best are ranked on those deals, as any Monte Carlo ranks them on its
own). Setting sampled opponents costs about 95% of a decision, so stopping early is where the
time goes: on 2,000 random hands at 1,000 samples it drew 74.5% of the deals heads-up
(two-four) and 62.3% against three, and picked the full run's best split on 99.9% and 99.7%
(``benchmarks/bench_capsa_solver.py --agreement-hands 2000``).

The answer keeps ``table``'s own split first (:func:`advised`) unless the best on the deals
beats it by more than :data:`ANCHOR_Z` standard errors of their paired difference, measured
on the same blocks (:func:`keeps_table`; a run of every sample is scored in blocks too); its
EV is the one measured on the deals and the others keep their order, so every EV listed is
unchanged and only the first place moves (``kept_table`` in the answer). A split picked
because it looks best on a few hundred deals is often only lucky on them: against ``table``
itself, Monte Carlo at 500 samples set 30% of hands otherwise than ``table`` and lost 0.0030
points a hand doing so; keeping its split, it sets 3% of hands otherwise and gains +0.0007 ±
0.0007 (``benchmarks/bench_capsa_exploit.py --styles table --eval-samples 2000``; the gains
against players with habits hold: ``docs/capsa-profiles.md``). A run of fewer than two blocks
(under 100 samples) has no spread to judge by and keeps nothing. When an adaptive run stops
early its best is already more than :data:`STOP_Z` standard errors ahead of every split, so
the rule never undoes an early stop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from solver.games.capsa.columns import BatchColumns
from solver.games.capsa.limits import MAX_SAMPLES_PER_DECISION, MAX_SEED
from solver.games.capsa.methods.exact import (
    OpponentRows,
    Scores,
    Setter,
    Splits,
    candidates,
    opponent_rows,
    ranked,
    score_splits,
    valid_splits,
)
from solver.games.capsa.prepared import Prepared, prepare
from solver.games.capsa.results import RankedArrangement
from solver.games.capsa.rules import Rules
from solver.games.capsa.search import search_best
from solver.games.capsa.strategy.play import deal
from solver.games.capsa.strategy.tables import StrategyTables, tables_for
from solver.games.capsa.work import check_work
from solver.validation import check_int


def hand_seed(seed: int, hand: np.ndarray) -> int:
    """The Monte Carlo seed of one hand of many: fixed by the run's seed and the cards, so a
    hand gets the same answer whatever chunk, order or worker solves it.

    >>> hand_seed(0, np.arange(13)) == hand_seed(0, np.arange(13)[::-1])
    True
    """
    return int(np.random.SeedSequence([seed, *sorted(int(c) for c in hand)]).generate_state(
        2, np.uint64)[0] >> np.uint64(1))


STOP_Z = 3.0  # how many standard errors ahead of every other the best must be to stop early
# How many standard errors ahead of table's split the best must be to replace it. One-sided,
# 1.5 lets a split no better than table's through about 7% of the times it is compared (more
# for the best of many: the winner's curse), and keeps most real edges, which are many
# standard errors wide. Chosen on heads-up hands at 500 samples, each pick scored against
# table's split on 2,000 fresh deals (gain a hand; no rule / 1 / 1.5 / 2 / 3): against table
# -0.0027 / -0.0005 / -0.0003 / 0.0000 / 0.0000 (1,000 hands; the goal: no worse than
# -0.002); against a naive player's profile +0.293 / +0.290 / +0.286 / +0.281 / +0.275 (600
# hands); back-first +0.172 / +0.170 / +0.168 / +0.162 / +0.153 and pairs-in-front +0.102 /
# +0.099 / +0.097 / +0.090 / +0.077 (400 hands, 300 fresh deals each). 1.5 removes the loss
# against table and keeps 95-98% of the gains (2.0: 89-96%): benchmarks/bench_capsa_anchor.py.
ANCHOR_Z = 1.5


def block_size(samples: int) -> int:
    """Deals between two checks of an adaptive run: at least 50, a twentieth of the run (so
    no run stops before 100 deals, nor before a tenth of ``samples``)."""
    return max(50, samples // 20)


def settled(blocks: np.ndarray, packed: np.ndarray, z: float = STOP_Z) -> bool:
    """Whether the candidates' points per block (B, C) settle the best one (by total points,
    ties to the smaller packed split, as the answer orders them): ahead of every other by more
    than ``z`` standard errors of the paired difference's block mean.

    >>> settled(np.array([[3.0, 1.0], [3.0, 0.0]]), np.array([7, 5]))
    True
    >>> settled(np.array([[3.0, 3.0], [3.0, 3.0]]), np.array([7, 5]))  # tied so far
    False
    """
    m = len(blocks)
    best = np.lexsort((packed, -blocks.sum(axis=0)))[0]
    diff = np.delete(blocks[:, best, None] - blocks, best, axis=1)
    return bool(np.all(diff.mean(axis=0) > z * diff.std(axis=0, ddof=1) / np.sqrt(m)))


def sampled_deals(hand: np.ndarray, opponents: int, samples: int, seed: int) -> np.ndarray:
    """The ``samples`` deals (S, opponents, 13) of the cards ``hand`` does not hold that a run
    with ``seed`` draws (an adaptive run scores the first ones)."""
    unseen = np.setdiff1d(np.arange(52), hand)
    return deal(np.random.default_rng(seed), samples, opponents, unseen)


# sets the sampled opponents of a block of deals (S, O, 13) that starts at deal ``start``
OpponentSetter = Callable[[np.ndarray, int], OpponentRows]


class Sampled(NamedTuple):
    """The candidates' scores on the deals scored (``used`` of them), and their points in
    each block of deals (``blocks``: (B, C); ``sizes``: the deals of each block, (B,)): the
    blocks' spread is what :func:`settled` and :func:`keeps_table` compare splits by."""

    scores: Scores
    used: int
    blocks: np.ndarray
    sizes: np.ndarray


def block_step(samples: int, n_cand: int) -> int:
    """The deals of a block of a run of ``samples``: :func:`block_size`, or all of them in one
    block when there is no second block of that size to compare (under 100 samples) or only
    one candidate."""
    step = block_size(samples)
    return samples if n_cand < 2 or samples < 2 * step else step


def table_setter(prep: Prepared) -> Setter:
    """What sets opponents with ``table`` under ``prep``'s rules and tables, the tables built
    once for every block (:func:`~solver.games.capsa.strategy.play.table_play`'s search)."""
    def setter(flat: np.ndarray, rules: Rules, tables: StrategyTables | None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        split, value, rows, _ = search_best(flat, prep, 1)
        return split[:, 0], value[:, 0], rows[:, 0]
    return setter


def sampled_scores(sp: Splits, rules: Rules, opponents: int, samples: int, seed: int,
                   st: StrategyTables, cand: np.ndarray, adaptive: bool = True,
                   setter: OpponentSetter | None = None, prep: Prepared | None = None
                   ) -> Sampled:
    """The candidates' scores on the deals drawn from ``seed``: all ``samples`` of them, or
    with ``adaptive`` the first ones up to where the best candidate settles (see the module's
    docstring), block by block (:func:`block_step`; a run of every sample is scored in the
    same blocks, for :func:`keeps_table`). Each block is scored once; its sums add up to the
    answer. ``setter`` sets the sampled opponents (default: ``table`` with ``st``, or
    ``prep`` when given: its tables; an opponent profile's,
    :func:`solver.games.capsa.profile.profile_setter`)."""
    deals = sampled_deals(sp.hand, opponents, samples, seed)
    step = block_step(samples, len(cand))
    if setter is None:
        play = table_setter(prep if prep is not None else prepare(rules, st))

        def setter(block: np.ndarray, start: int) -> OpponentRows:
            return opponent_rows(block, rules, st, play)

    total: Scores | None = None
    blocks: list[np.ndarray] = []
    for start in range(0, samples, step):
        block = deals[start:start + step]
        part = score_splits(sp, rules, setter(block, start), cand)
        total = part if total is None else total + part
        blocks.append(part.points)
        if adaptive and len(blocks) >= 2 and start + step < samples and \
                settled(np.array(blocks), sp.packed[cand]):
            break
    assert total is not None
    used = min(start + step, samples)
    sizes = np.minimum(step, used - np.arange(0, used, step))
    return Sampled(total, used, np.array(blocks), sizes)


def scored_on(sp: Splits, rules: Rules, opp: OpponentRows, cand: np.ndarray) -> Sampled:
    """The candidates scored against given opponents' rows of every deal (S, O, ...), in the
    blocks a run of every sample scores them in (the review's: the deals of a Monte Carlo
    answer of ``adaptive=False``, set once)."""
    rows, roy, foul, nat = opp
    samples = rows.shape[0]
    step = block_step(samples, len(cand))
    parts = [score_splits(sp, rules, (rows[b:b + step], roy[b:b + step], foul[b:b + step],
                                      nat[b:b + step]), cand)
             for b in range(0, samples, step)]
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    sizes = np.minimum(step, samples - np.arange(0, samples, step))
    return Sampled(total, samples, np.array([p.points for p in parts]), sizes)


def keeps_table(blocks: np.ndarray, sizes: np.ndarray, best: int, anchor: int,
                z: float = ANCHOR_Z) -> bool:
    """Whether the answer keeps table's split (candidate ``anchor``) first instead of the
    best on these deals (candidate ``best``): unless the best is ahead of it by more than
    ``z`` standard errors of their paired difference. The standard error comes from the
    blocks' spread: ``blocks`` (B, C) the points per block, ``sizes`` (B,) the deals of each
    (the last block of a run may be shorter; with equal blocks this is :func:`settled`'s
    test). Fewer than two blocks give no spread: then nothing is kept.

    >>> blocks = np.array([[60.0, 50.0], [40.0, 52.0], [55.0, 49.0]])
    >>> keeps_table(blocks, np.array([50, 50, 50]), 0, 1)  # ahead by 4 points in 150 deals
    True
    >>> keeps_table(blocks + [[0.0, -30.0]], np.array([50, 50, 50]), 0, 1)  # by 94: clearly
    False
    """
    if best == anchor or len(blocks) < 2:
        return False
    d = blocks[:, best] - blocks[:, anchor]
    n = sizes.astype(np.float64)
    mean = d.sum() / n.sum()
    # each block's mean difference varies as 1/n of one deal's: the per-deal variance
    var = float((n * (d / n - mean) ** 2).sum() / (len(d) - 1))
    return not mean > z * np.sqrt(var / n.sum())


def table_candidate(sp: Splits, prep: Prepared, cand: np.ndarray, order: np.ndarray
                    ) -> int | None:
    """The position among the candidates ``cand`` of the split ``table`` plays for the hand
    under ``prep``, matched by its three row strengths (of splits with the same rows, which
    score alike on every deal, the first in ``order``), None when it is not a candidate."""
    rows = search_best(sp.hand[None, :], prep, 1)[2][0, 0]
    hit = (sp.rows[cand[order]] == rows).all(axis=1)
    return int(order[int(np.argmax(hit))]) if hit.any() else None


def advised(sp: Splits, rules: Rules, prep: Prepared, cand: np.ndarray, run: Sampled,
            top: int) -> tuple[list[RankedArrangement], bool]:
    """The ``top`` best candidates of a run, table's split first when :func:`keeps_table`
    keeps it (its EV on the same deals; the others in their order), and whether it did."""
    order = np.lexsort((sp.packed[cand], -run.scores.points))
    anchor = table_candidate(sp, prep, cand, order)
    kept = anchor is not None and keeps_table(run.blocks, run.sizes, int(order[0]), anchor)
    return ranked(sp, rules, run.scores, run.used, top, cand, anchor if kept else None), kept


def montecarlo_arrangements(sp: Splits, rules: Rules, opponents: int, samples: int, seed: int,
                            top: int, st: StrategyTables, max_work: int | None = None,
                            adaptive: bool = True, setter: OpponentSetter | None = None,
                            prep: Prepared | None = None
                            ) -> tuple[list[RankedArrangement], int, int, bool]:
    """The ``top`` best splits on up to ``samples`` deals drawn from ``seed`` (``adaptive``:
    stopping once the best is settled), table's split first unless another is significantly
    better (:func:`advised`), how many candidates were scored, on how many deals, and whether
    table's split was kept first in place of the best on the deals;
    :class:`WorkLimitError` first when the work of all ``samples`` is over ``max_work``.
    ``setter``: how the sampled opponents set their hands (see :func:`sampled_scores`);
    ``prep``: the rules and tables prepared (default: of ``rules`` and ``st``)."""
    cand = candidates(sp, rules)
    check_work(samples, opponents, len(cand), max_work)
    prep = prep if prep is not None else prepare(rules, st)
    run = sampled_scores(sp, rules, opponents, samples, seed, st, cand, adaptive, setter, prep)
    arrangements, kept = advised(sp, rules, prep, cand, run, top)
    return arrangements, len(cand), run.used, kept


def montecarlo_best_columns(hands: np.ndarray, rules: Rules, opponents: int, samples: int,
                            seeds: list[int], card_removal: bool = True,
                            tables: str | None = None, adaptive: bool = True) -> BatchColumns:
    """The best split and its expected points of each sorted hand of an (N, 13) array, hand
    ``i`` on the deals of ``seeds[i]`` (the first of ``arrange(method="montecarlo")``'s
    answer: table's split unless another is significantly better); ``tables``: a tables file
    (default: the one in use)."""
    samples = check_int("samples", samples, 1, MAX_SAMPLES_PER_DECISION)
    st = tables_for(rules, tables, card_removal=card_removal)
    prep = prepare(rules, st)
    ev = np.empty(len(hands))
    rows = np.empty((len(hands), 13), dtype=np.int64)
    for i, (h, seed) in enumerate(zip(hands, seeds)):
        best = montecarlo_arrangements(valid_splits(h, rules), rules, opponents, samples,
                                       check_int("seed", seed, 0, MAX_SEED), 1, st,
                                       adaptive=adaptive, prep=prep)[0][0]
        arr = best.arrangement
        rows[i] = arr.front + arr.middle + arr.back
        ev[i] = best.ev
    return BatchColumns(hands, rows[:, :3], rows[:, 3:8], rows[:, 8:], ev)
