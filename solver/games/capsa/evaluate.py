"""Row strengths: one integer scale for 5-card rows and 3-card fronts.

>>> s_front = row_strength("Qc Qd 5h")
>>> s_middle = row_strength("Qs Qh 5d 4c 3c")
>>> s_front <= s_middle           # the front is lower: a valid arrangement
True
>>> hand_kind(row_strength("Ts Js Qs Ks As")).label
'royal_flush'
>>> row_strength("As 2d 3c 4h 5s") < row_strength("2s 3d 4c 5h 6s")  # wheel lowest
True
>>> row_strength("As 2d 3c 4h 5s", wheel="second") > row_strength("9s Td Jc Qh Ks", wheel="second")
True
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

import numpy as np

from solver.cards import parse_cards
from solver.errors import InputError, RulesError
from solver.games.capsa import kernels as K
from solver.games.capsa.lookup import (
    CARD_WORD,
    COMB3,
    COMB5,
    FRONT_PAIRS,
    FRONT_SEGMENTS,
    INDEX3,
    KIND_NAMES,
    MASK5,
    TABLES,
    WHEEL_MODES,
    StrengthTables,
)


class HandKind(IntEnum):
    """What a row makes. A royal flush is the top straight flush, named for royalties."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def label(self) -> str:
        return KIND_NAMES[self]

    @classmethod
    def from_label(cls, label: str) -> HandKind:
        try:
            return cls(KIND_NAMES.index(label))
        except ValueError:
            raise InputError(f"unknown hand kind {label!r}; known: {', '.join(KIND_NAMES)}") from None


class Row(IntEnum):
    """The three rows of an arrangement, in the order the rules list them."""

    FRONT = 0
    MIDDLE = 1
    BACK = 2

    @property
    def label(self) -> str:
        return ("front", "middle", "back")[self]


def tables(wheel: str = "lowest") -> StrengthTables:
    try:
        return TABLES[wheel]
    except KeyError:
        raise RulesError(f"wheel must be one of {', '.join(WHEEL_MODES)}, got {wheel!r}") from None


def _ids(cards: str | Iterable[object]) -> np.ndarray:
    return np.asarray(parse_cards(cards), dtype=np.int64)


def row_strength(cards: str | Iterable[object], wheel: str = "lowest") -> int:
    """Strength of a 3-card front or a 5-card row on the shared scale (higher is better)."""
    ids = _ids(cards)
    t = tables(wheel)
    if len(ids) == 5:
        return int(K.strength5(ids, CARD_WORD, t.rank5, t.flush5))
    if len(ids) == 3:
        return int(K.strength3(ids, CARD_WORD, t.rank3))
    raise InputError(f"a row has 3 or 5 cards, got {len(ids)}")


def hand_kind(strength: int, wheel: str = "lowest") -> HandKind:
    """The kind of hand a strength stands for."""
    return HandKind(int(tables(wheel).kind[strength]))


def subset_strengths(hand: np.ndarray, wheel: str = "lowest") -> tuple[np.ndarray, np.ndarray]:
    """Strengths of the 1,287 five-card and 286 three-card subsets (COMB5/COMB3 order)."""
    t = tables(wheel)
    v5 = np.empty(len(COMB5), dtype=np.int32)
    v3 = np.empty(len(COMB3), dtype=np.int32)
    K.subset_strengths(np.asarray(hand, dtype=np.int64), CARD_WORD, t.rank5, t.flush5, t.rank3,
                       v5, v3)
    return v5, v3


def strengths5(cards_n5: np.ndarray, wheel: str = "lowest") -> np.ndarray:
    """Strengths of an (N, 5) array of card ids."""
    t = tables(wheel)
    out = np.empty(len(cards_n5), dtype=np.int32)
    K.strengths5_all(np.asarray(cards_n5, dtype=np.int64), CARD_WORD, t.rank5, t.flush5, out)
    return out


def warm_up() -> None:
    """Compile (or load) the evaluation kernels."""
    hand = np.arange(13, dtype=np.int64) * 4
    for wheel in WHEEL_MODES:
        v5, v3 = subset_strengths(hand, wheel)
        K.count_valid(v5, v3, FRONT_PAIRS)
        t = tables(wheel)
        K.count_valid_hand(hand, CARD_WORD, t.rank5, t.flush5, t.rank3, t.front_count,
                           FRONT_SEGMENTS, MASK5, INDEX3, FRONT_PAIRS)
        row_strength([0, 4, 8, 12, 16], wheel)
        row_strength([0, 4, 8], wheel)
        strengths5(np.array([[0, 4, 8, 12, 16]]), wheel)
