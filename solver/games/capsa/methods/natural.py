"""What declaring a natural is worth, on the same basis as the rows' EV of each method.

A declared natural is settled before rows (see the rules): each opponent pays its units,
unless that opponent holds a natural too (the opponents declare theirs, as every method's
opponents do); then the stronger natural collects its own units, and two naturals of the same
kind are compared by their tiebreak (six pairs: the top pair; three straights / flushes: the
best split's back, middle, front; two dragons tie).

- ``known``: exactly against the given opponents (:func:`known_natural_ev`), as the referee
  settles the table.
- ``montecarlo``: on the deals the rows were scored on (:func:`natural_ev_on_deals`), each
  opponent's natural read from its 13 cards.
- ``table``: under the tables' opponent model (:func:`table_natural_ev`): an opponent holds a
  natural with the tables' chance ``p_natural`` (what the rows' EV charges), split by kind as
  naturals come in random deals; one of the same kind counts as even (0: the tables do not
  model the tiebreak; both holding one is about one deal in a thousand).

>>> from solver.games.capsa.naturals import detect_natural
>>> six = detect_natural("2c 2d 3h 3s 4c 4d 5h 5s 6c 6d 7h 7s 9c")
>>> natural_points(six, None), natural_points(six, detect_natural("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad"))
(3, -13)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import numpy as np

from solver.games.capsa.naturals import Natural, compare_naturals, detect_natural
from solver.games.capsa.rules import Rules
from solver.games.capsa.strategy.play import natural_codes
from solver.games.capsa.strategy.tables import DATA_FILE, NATURAL_BY_CODE, StrategyTables, load_raw


def natural_points(mine: Natural, theirs: Natural | None) -> int:
    """What declaring ``mine`` scores against one opponent holding ``theirs`` (None: the
    opponent plays rows), as the referee settles it."""
    if theirs is None:
        return mine.units
    c = compare_naturals(mine, theirs)
    return c * (mine.units if c > 0 else theirs.units)


def known_natural_ev(natural: Natural, opponents: Iterable[Natural | None]) -> float:
    """Declaring ``natural`` against given opponents (each its natural, or None): exact."""
    return float(sum(natural_points(natural, o) for o in opponents))


def natural_ev_on_deals(natural: Natural, rules: Rules, deals: np.ndarray) -> float:
    """Mean points of declaring ``natural`` over deals (S, O, 13) of the opponents' cards,
    summed over the opponents."""
    s, o = deals.shape[:2]
    if s == 0:
        return 0.0
    flat = deals.reshape(s * o, 13)
    codes = natural_codes(flat)
    mine = natural.strength
    units = np.array([0] + [rules.natural_units(NATURAL_BY_CODE[c]) for c in sorted(NATURAL_BY_CODE)],
                     dtype=np.int64)
    points = np.where(codes < mine, natural.units, -units[codes])
    for i in np.flatnonzero(codes == mine):  # the same kind: the tiebreak decides (rare)
        points[i] = natural_points(natural, detect_natural(flat[i], rules))
    return float(points.sum() / s)


@lru_cache(maxsize=1)
def _kind_shares() -> dict[int, float]:
    """How the naturals of random deals split by kind (natural code -> share), as counted
    in the shipped tables' self-play deals (the deal decides a natural, not the strategy)."""
    raw = load_raw(str(DATA_FILE))
    counts = raw["standard"]["naturals"][1:]
    total = float(counts.sum())
    return {code: float(counts[code - 1]) / total for code in NATURAL_BY_CODE}


def table_natural_ev(natural: Natural, rules: Rules, st: StrategyTables, opponents: int) -> float:
    """Declaring ``natural`` against ``opponents`` under the tables' model (see the module
    doc): each opponent pays its units unless it holds a natural (chance ``p_natural``)."""
    p = st.p_natural
    against = 0.0
    if p > 0:
        mine = natural.strength
        for code, share in _kind_shares().items():
            if code < mine:
                against += share * natural.units
            elif code > mine:
                against -= share * rules.natural_units(NATURAL_BY_CODE[code])
    return float(opponents * ((1.0 - p) * natural.units + p * against))
