"""Exact scoring of candidate splits against opponents' rows, as the referee scores them:
what ``montecarlo`` (on sampled deals) and ``known`` (on the given opponents) share.

Candidates are the splits no other split beats or ties in all three rows (a split weakly
worse in every row can never score more on any deal when royalties grow with the row's
strength); with ``single_royalty`` in ``winner`` mode, or a royalty table that does not grow
with strength, every valid split is a candidate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from solver.games.capsa import kernels as K
from solver.games.capsa.encoding import split_back, split_front, split_middle
from solver.games.capsa.kernels.splits import INDEX_BITS, STRENGTH_BITS
from solver.games.capsa.lookup import KIND_NAMES, TABLES
from solver.games.capsa.referee import royalty_units
from solver.games.capsa.results import RankedArrangement
from solver.games.capsa.rules import Rules
from solver.games.capsa.splits import all_valid_splits
from solver.games.capsa.strategy.play import (
    kernel_params,
    natural_codes,
    royalties_grow,
    table_play,
)
from solver.games.capsa.strategy.tables import NATURAL_BY_CODE, StrategyTables

# Opponents' rows for exact scoring: rows (S, O, 3), royalties (S, O, 3), fouls (S, O) and
# natural units (S, O) over S deals of O opponents.
OpponentRows = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
Setter = Callable[[np.ndarray, Rules, StrategyTables | None],
                  tuple[np.ndarray, np.ndarray, np.ndarray]]


@dataclass
class Splits:
    """The valid splits of a hand with their row strengths and royalties."""

    hand: np.ndarray
    packed: np.ndarray
    rows: np.ndarray  # (N, 3) front, middle, back strengths
    royalties: np.ndarray  # (N, 3)
    v5: np.ndarray = field(repr=False)
    v3: np.ndarray = field(repr=False)


def valid_splits(hand: np.ndarray, rules: Rules) -> Splits:
    """Every valid split of a parsed hand, with its rows' strengths and royalties."""
    packed, v5, v3 = all_valid_splits(hand, rules)
    rows = np.stack([v3[split_front(packed)], v5[split_middle(packed)], v5[split_back(packed)]],
                    axis=1)
    roy = np.stack([rules.royalty_array[r][rows[:, r]] for r in range(3)], axis=1)
    return Splits(hand, packed, rows.astype(np.int64), roy.astype(np.int64), v5, v3)


def kind_names(rows: np.ndarray, rules: Rules) -> list[str]:
    """The hand kind of each row strength."""
    kinds = TABLES[rules.wheel].kind
    return [KIND_NAMES[kinds[s]] for s in rows]


def candidates(sp: Splits, rules: Rules) -> np.ndarray:
    """Indices of the splits worth scoring exactly (see the module docstring)."""
    if (rules.single_royalty and rules.royalty_mode == "winner") or not royalties_grow(rules):
        return np.arange(len(sp.packed))
    top = (1 << STRENGTH_BITS) - 1
    rows = sp.rows
    # one integer per split sorts by back, middle, front (strongest first), then position
    keys = ((((top - rows[:, 2]) << STRENGTH_BITS | (top - rows[:, 1])) << STRENGTH_BITS
             | (top - rows[:, 0])) << INDEX_BITS) | np.arange(len(rows))
    keys.sort()
    return K.pareto_front(keys)


def opponent_rows(hands: np.ndarray, rules: Rules, tables: StrategyTables | None = None,
                  setter: Setter | None = None) -> OpponentRows:
    """Opponents' hands (S, O, 13) set with the table strategy (``tables``: default the
    shipped ones; ``setter``: default :func:`table_play`, all in one kernel call): rows,
    royalties, fouls, naturals."""
    s, o = hands.shape[:2]
    flat = hands.reshape(s * o, 13)
    _, _, rows = (setter or table_play)(flat, rules, tables)
    roy = np.stack([rules.royalty_array[r][rows[:, r]] for r in range(3)], axis=1)
    nat = np.zeros(s * o, dtype=np.int64)
    if rules.naturals_on:
        codes = natural_codes(flat)
        for code, kind in NATURAL_BY_CODE.items():
            nat[codes == code] = rules.natural_units(kind)
    return (rows.reshape(s, o, 3).astype(np.int64), roy.reshape(s, o, 3).astype(np.int64),
            np.zeros((s, o), dtype=np.bool_), nat.reshape(s, o))


class Scores(NamedTuple):
    """Sums per candidate over some deals, as the referee settles them: points, row wins and
    ties (C, 3), scoops, and the (deal, opponent) pairs played on rows. Sums over disjoint
    deals add up (``+``)."""

    points: np.ndarray
    win: np.ndarray
    tie: np.ndarray
    scoop: np.ndarray
    played: np.ndarray

    def __add__(self, other: object) -> Scores:
        assert isinstance(other, Scores)
        return Scores(*(a + b for a, b in zip(self, other)))


def score_splits(sp: Splits, rules: Rules, opp: OpponentRows, cand: np.ndarray) -> Scores:
    """The candidate splits ``cand`` scored against every opponent of every deal of ``opp``."""
    rows, roy, foul, nat = opp
    n = len(cand)
    out = Scores(np.empty(n), np.empty((n, 3), dtype=np.int64), np.empty((n, 3), dtype=np.int64),
                 np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64))
    scoring, bonus, net, single = kernel_params(rules)
    K.score_candidates(np.ascontiguousarray(sp.rows[cand]), np.ascontiguousarray(sp.royalties[cand]),
                       rows, roy, foul, nat, scoring, int(bonus), net, single, *out)
    return out


def exact_result(sp: Splits, rules: Rules, opp: OpponentRows, top: int,
                 cand: np.ndarray) -> list[RankedArrangement]:
    """The ``top`` best of the candidate splits ``cand`` scored exactly against ``opp``
    (mean points over its deals, summed over its opponents); ties: the smaller packed split."""
    return ranked(sp, rules, score_splits(sp, rules, opp, cand), opp[0].shape[0], top, cand)


def ranked(sp: Splits, rules: Rules, scores: Scores, deals: int, top: int,
           cand: np.ndarray, first: int | None = None) -> list[RankedArrangement]:
    """The ``top`` best of the candidates ``cand`` by their ``scores`` over ``deals`` deals
    (ties: the smaller packed split); ``first``: a candidate (its position in ``cand``) put
    first whatever its EV, the others after it in their order."""
    points, win, tie, scoop, played = scores
    ev = points / deals
    order = np.lexsort((sp.packed[cand], -ev))
    if first is not None:
        order = np.concatenate(([first], order[order != first]))
    order = order[:top]
    cards = tuple(sp.hand.tolist())
    out = []
    for j in order:
        i = cand[j]
        denom = max(int(played[j]), 1)
        k = kind_names(sp.rows[i], rules)
        w = [float(win[j, r] / denom) for r in range(3)]
        t = [float(tie[j, r] / denom) for r in range(3)]
        f, m, b = (int(x) for x in sp.rows[i])
        out.append(RankedArrangement(cards, int(sp.packed[i]), float(ev[j]), (k[0], k[1], k[2]),
                                     (w[0], w[1], w[2], t[0], t[1], t[2]),
                                     sum(royalty_units((f, m, b), rules)),
                                     float(scoop[j] / denom)))
    return out
