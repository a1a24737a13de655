"""Naturals (special 13-card hands settled before rows): dragon, six pairs, three straights,
three flushes.

>>> detect_natural("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad").kind
'dragon'
>>> n = detect_natural("2c 3c 4c 3d 4d 5d 6d 7h 8h 9h Th Jh Qs")
>>> n.kind, n.split.to_dict()
('three_straights', {'front': ['2c', '3d', '4d'], 'middle': ['3c', '4c', '5d', '6d', '7h'], 'back': ['8h', '9h', 'Th', 'Jh', 'Qs']})
>>> detect_natural("2c 2d 3h 3s 4c 4d 5h 5s 6c 6d 7h 7s 9c").kind
'six_pairs'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

import numpy as np

from solver.games.capsa import kernels as K
from solver.games.capsa.encoding import rank_of, split_back, split_front, split_middle, suit_of
from solver.games.capsa.evaluate import HandKind, subset_strengths, tables
from solver.games.capsa.lookup import COMB3, SPLIT_PAIRS
from solver.games.capsa.rules import NATURAL_STRENGTH, Rules, RulesSpec, resolve_rules
from solver.games.capsa.splits import Arrangement, parse_hand, unpack_split

_STRAIGHT_KINDS = (HandKind.STRAIGHT, HandKind.STRAIGHT_FLUSH, HandKind.ROYAL_FLUSH)
_FLUSH_KINDS = (HandKind.FLUSH, HandKind.STRAIGHT_FLUSH, HandKind.ROYAL_FLUSH)


@dataclass(frozen=True)
class Natural:
    """A natural the hand holds: its kind, units under the rules, and what breaks ties.

    ``split`` is the arrangement that shows three straights / three flushes (the best such
    split: strongest back, then middle, then front); ``tiebreak`` compares two naturals of the
    same kind (six pairs: the top pair's rank; three straights / flushes: the split's row
    strengths, back first; dragon: nothing).

    In a solver's answer (:func:`~solver.games.capsa.arrange.arrange`), ``ev`` is what
    declaring it is expected to score against the same opponent model as the arrangements'
    EVs, and ``declare`` whether that beats the best arrangement's EV (strictly: on a tie
    the rows are advised); both are None elsewhere.
    """

    kind: str
    units: int
    tiebreak: tuple[int, ...]
    split: Arrangement | None = None
    ev: float | None = None
    declare: bool | None = None

    @property
    def strength(self) -> int:
        return NATURAL_STRENGTH[self.kind]

    def to_dict(self) -> dict:
        d: dict = {"kind": self.kind, "units": self.units}
        if self.split is not None:
            d["split"] = self.split.to_dict()
        if self.ev is not None:
            d.update(ev=round(self.ev, 6), declare=bool(self.declare))
        return d

    def valued(self, ev: float, rows_ev: float | None) -> Natural:
        """This natural with what declaring it is worth, ``ev``, beside the best rows'
        ``rows_ev`` (None: no rows to compare; then declaring is advised)."""
        return replace(self, ev=float(ev), declare=rows_ev is None or ev > rows_ev)


def compare_naturals(a: Natural, b: Natural) -> int:
    """+1 if ``a`` beats ``b``, -1 if it loses, 0 on a tie."""
    ka, kb = (a.strength, a.tiebreak), (b.strength, b.tiebreak)
    return (ka > kb) - (ka < kb)


def _front_ok(hand: np.ndarray, kind: str) -> np.ndarray:
    cards = hand[COMB3]
    if kind == "three_flushes":
        suits = suit_of(cards)
        return (suits[:, 0] == suits[:, 1]) & (suits[:, 1] == suits[:, 2])
    ranks = np.sort(rank_of(cards), axis=1)
    distinct = (ranks[:, 0] != ranks[:, 1]) & (ranks[:, 1] != ranks[:, 2])
    run = ranks[:, 2] - ranks[:, 0] == 2
    ace_low = (ranks[:, 0] == 0) & (ranks[:, 1] == 1) & (ranks[:, 2] == 12)  # A-2-3
    return distinct & (run | ace_low)


def _best_split(hand: np.ndarray, rules: Rules, kind: str,
                v5: np.ndarray, v3: np.ndarray) -> tuple[Arrangement, tuple[int, ...]] | None:
    kinds = tables(rules.wheel).kind
    wanted = _FLUSH_KINDS if kind == "three_flushes" else _STRAIGHT_KINDS
    ok5 = np.isin(kinds[v5], np.array(wanted, dtype=np.int8))
    ok3 = _front_ok(hand, kind)
    packed = int(K.best_natural_split(v5, v3, ok5, ok3, SPLIT_PAIRS))
    if packed < 0:
        return None
    arr = unpack_split(hand, packed)
    b, m, f = (int(v5[split_back(packed)]), int(v5[split_middle(packed)]),
               int(v3[split_front(packed)]))
    return arr, (b, m, f)


def _flush_possible(hand: np.ndarray) -> bool:
    """Suit counts can be cut into 3 + 5 + 5 (cheap test before the kernel)."""
    counts = sorted(Counter(suit_of(hand).tolist()).values())
    return tuple(counts) in {(13,), (3, 10), (5, 8), (3, 5, 5)}


def all_naturals(hand: str | Iterable[object] | np.ndarray, rules: RulesSpec = None,
                 strengths: tuple[np.ndarray, np.ndarray] | None = None) -> list[Natural]:
    """Every natural the 13 cards hold (whatever the rules' units), strongest first."""
    r = resolve_rules(rules)
    h = hand if isinstance(hand, np.ndarray) else parse_hand(hand)
    ranks = Counter(rank_of(h).tolist())
    found: list[Natural] = []
    if len(ranks) == 13:
        found.append(Natural("dragon", r.natural_units("dragon"), ()))
    if sum(c // 2 for c in ranks.values()) >= 6:
        top_pair = max(rank for rank, c in ranks.items() if c >= 2)
        found.append(Natural("six_pairs", r.natural_units("six_pairs"), (top_pair,)))
    v5, v3 = strengths if strengths is not None else subset_strengths(h, r.wheel)
    for kind in ("three_straights", "three_flushes"):
        if kind == "three_flushes" and not _flush_possible(h):
            continue
        best = _best_split(h, r, kind, v5, v3)
        if best is not None:
            found.append(Natural(kind, r.natural_units(kind), best[1], best[0]))
    return sorted(found, key=lambda n: n.strength, reverse=True)


def detect_natural(hand: str | Iterable[object] | np.ndarray, rules: RulesSpec = None,
                   strengths: tuple[np.ndarray, np.ndarray] | None = None) -> Natural | None:
    """The strongest natural the hand holds, or None (also None when the rules turn naturals off)."""
    r = resolve_rules(rules)
    if not r.naturals_on:
        return None
    h = hand if isinstance(hand, np.ndarray) else parse_hand(hand)
    if K.natural_kind(np.asarray(h, dtype=np.int64)) == 0:  # counts rule every natural out
        return None
    found = all_naturals(h, r, strengths)
    return found[0] if found else None
