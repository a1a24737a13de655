"""``table``: every valid split valued with the self-play row tables (per-row win/tie chances
against one opponent, royalties, scoop, the opponents' naturals), from one best-k search."""

from __future__ import annotations

from typing import TypeVar

import numpy as np

from solver.games.capsa.columns import BatchColumns
from solver.games.capsa.lookup import KIND_NAMES
from solver.games.capsa.prepared import Prepared
from solver.games.capsa.referee import royalty_units
from solver.games.capsa.results import RankedArrangement
from solver.games.capsa.rules import Rules
from solver.games.capsa.search import row_lists, search_top
from solver.games.capsa.strategy.play import table_play
from solver.games.capsa.strategy.tables import StrategyTables, tables_for

Value = TypeVar("Value", float, np.ndarray)


def expected_points(value: Value, opponents: int, st: StrategyTables, rules: Rules) -> Value:
    """Expected points summed over ``opponents`` of a split whose table value against one
    opponent is ``value`` (a float, or an array of them): each opponent holds a natural with
    chance ``p_natural`` (then it costs ``natural_units``), else the rows are played; under
    net royalties the opponent's expected royalties count against the value."""
    own = st.opp_royalty if rules.royalty_mode == "net" else 0.0
    return opponents * ((1 - st.p_natural) * (value - own) - st.p_natural * st.natural_units)


def table_arrangements(hand: np.ndarray, prep: Prepared, opponents: int,
                       top: int) -> list[RankedArrangement]:
    """The ``top`` best distinct row-strength triples of a parsed hand under the prepared
    rules and tables, with their odds, from one best-k kernel call."""
    rules, st = prep.rules, prep.tables
    best = search_top(hand[None, :], prep, top)
    k = int(best.found[0])
    kinds, roy = row_lists(rules)
    cards = tuple(hand.tolist())
    out = []
    for p, v, fmb, odds in zip(best.split[0, :k].tolist(), best.ev[0, :k].tolist(),
                               best.rows[0, :k].tolist(), best.odds[0, :k].tolist()):
        f, m, b = fmb
        units = (sum(royalty_units((f, m, b), rules)) if rules.single_royalty
                 else roy[0][f] + roy[1][m] + roy[2][b])
        out.append(RankedArrangement(
            cards, p, float(expected_points(v, opponents, st, rules)),
            (KIND_NAMES[kinds[f]], KIND_NAMES[kinds[m]], KIND_NAMES[kinds[b]]),
            (odds[0], odds[1], odds[2], odds[3], odds[4], odds[5]), units, odds[6]))
    return out


def table_best_columns(hands: np.ndarray, rules: Rules, opponents: int,
                       card_removal: bool = True, tables: str | None = None) -> BatchColumns:
    """The best split and its expected points of each sorted hand of an (N, 13) array, the
    whole array in one kernel call; ``tables``: a tables file (default: the one in use)."""
    st = tables_for(rules, tables, card_removal=card_removal)
    split, value, _ = table_play(hands, rules, st)
    return BatchColumns.from_splits(hands, split, expected_points(value, opponents, st, rules))
