"""Every front/middle/back split of 13 cards, and the foul rule.

>>> valid_arrangements("2c 3d 4h 5s 7c 8d 9h Jc Qd Kh As 6c Td")
17541
>>> is_foul(Arrangement.parse("8c 8d 8h", "7s 7c 7d As Kd", "2c 2d 3h 3s 3c"))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter

import numpy as np

from solver.cards import format_cards, parse_cards
from solver.errors import CardError
from solver.games.capsa import kernels as K
from solver.games.capsa.encoding import split_back, split_front, split_middle
from solver.games.capsa.evaluate import subset_strengths, tables
from solver.games.capsa.lookup import (
    CARD_WORD,
    COMB3,
    COMB5,
    FRONT_PAIRS,
    FRONT_SEGMENTS,
    INDEX3,
    MASK5,
    SPLIT_PAIRS,
)
from solver.games.capsa.rules import Rules, RulesSpec, resolve_rules

HAND_SIZE = 13


@dataclass(frozen=True)
class Arrangement:
    """A set hand: front (3 cards), middle (5), back (5), as card ids."""

    front: tuple[int, ...]
    middle: tuple[int, ...]
    back: tuple[int, ...]

    @classmethod
    def parse(cls, front: object, middle: object, back: object) -> Arrangement:
        """From card strings or lists; checks the row sizes and that no card repeats."""
        rows = []
        for name, cards, size in (("front", front, 3), ("middle", middle, 5), ("back", back, 5)):
            if not isinstance(cards, (str, Iterable)):  # what parse_cards says of these
                raise CardError([f"{name}: cards must be a string or a list, got "
                                 f"{type(cards).__name__}"])
            try:
                rows.append(tuple(parse_cards(cards, count=size)))
            except CardError as exc:
                raise CardError([f"{name}: {p}" for p in exc.problems]) from None
        all_cards = rows[0] + rows[1] + rows[2]
        if len(set(all_cards)) != HAND_SIZE:
            dup = sorted({c for c in all_cards if all_cards.count(c) > 1})
            raise CardError([f"duplicate card {c!r}" for c in format_cards(dup)])
        return cls(*rows)

    @classmethod
    def from_dict(cls, d: Mapping[str, object]) -> Arrangement:
        return cls.parse(d["front"], d["middle"], d["back"])

    @property
    def cards(self) -> tuple[int, ...]:
        return self.front + self.middle + self.back

    def rows(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        return self.front, self.middle, self.back

    def to_dict(self) -> dict[str, list[str]]:
        return {"front": format_cards(self.front), "middle": format_cards(self.middle),
                "back": format_cards(self.back)}


def _spellings() -> dict[str, int]:
    """Every plain spelling of each card (``As``, ``as``, ``AS``, ``10s`` ...) to its id,
    each checked against :func:`parse_cards`, for the fast path of :func:`parse_hand`."""
    out: dict[str, int] = {}
    for card, name in enumerate(format_cards(range(52))):
        rank, suit = name[:-1], name[-1]
        for r in {rank, rank.lower(), "10" if rank == "T" else rank}:
            for u in {suit, suit.upper()}:
                if parse_cards(r + u) == [card]:
                    out[r + u] = card
    return out


_SPELLINGS = _spellings()


def parse_hand(hand: str | Iterable[object]) -> np.ndarray:
    """13 distinct cards as an int64 array (sorted by id)."""
    if isinstance(hand, np.ndarray) and hand.dtype.kind in "iu" and hand.shape == (HAND_SIZE,):
        ids = sorted(hand.tolist())
        if ids[0] >= 0 and ids[-1] < 52 and len(set(ids)) == HAND_SIZE:
            return np.array(ids, dtype=np.int64)  # already valid: skip the per-card parse
    tokens = hand.replace(",", " ").split() if isinstance(hand, str) else hand
    if isinstance(tokens, (list, tuple)) and len(tokens) == HAND_SIZE:
        get = _SPELLINGS.get
        fast = [get(t) if isinstance(t, str) else None for t in tokens]
        if None not in fast and len(set(fast)) == HAND_SIZE:
            fast.sort()  # 13 plain, distinct cards: no need for the full parser
            return np.array(fast, dtype=np.int64)
    return np.sort(np.asarray(parse_cards(hand, count=HAND_SIZE), dtype=np.int64))


def row_strengths(arr: Arrangement, rules: Rules | None = None) -> tuple[int, int, int]:
    """(front, middle, back) strengths on the shared scale."""
    t = tables((rules or resolve_rules()).wheel)
    f = int(K.strength3(np.asarray(arr.front, dtype=np.int64), CARD_WORD, t.rank3))
    m = int(K.strength5(np.asarray(arr.middle, dtype=np.int64), CARD_WORD, t.rank5, t.flush5))
    b = int(K.strength5(np.asarray(arr.back, dtype=np.int64), CARD_WORD, t.rank5, t.flush5))
    return f, m, b


def is_foul(arr: Arrangement, rules: Rules | None = None) -> bool:
    """True unless back >= middle >= front."""
    f, m, b = row_strengths(arr, rules)
    return not (b >= m >= f)


def valid_arrangements(hand: str | Iterable[object], rules: RulesSpec = None) -> int:
    """How many of the 72,072 ordered splits are not fouls.

    One kernel call from the cards to the count; an int array of 13 ids goes in as it is (the
    kernel checks the ids and the parser only runs to explain bad ones)."""
    t = tables(resolve_rules(rules).wheel)
    if isinstance(hand, np.ndarray) and hand.dtype.kind in "iu" and hand.shape == (HAND_SIZE,):
        ids = np.ascontiguousarray(hand, dtype=np.int64)
    else:
        ids = parse_hand(hand)
    n = K.count_valid_hand(ids, CARD_WORD, t.rank5, t.flush5, t.rank3, t.front_count,
                           FRONT_SEGMENTS, MASK5, INDEX3, FRONT_PAIRS)
    if n < 0:  # not 13 distinct cards
        parse_hand(hand)  # raises CardError, naming the bad ids
        raise CardError(["expected 13 distinct cards"])
    return int(n)


def valid_arrangements_many(hands: np.ndarray, rules: RulesSpec = None) -> np.ndarray:
    """``valid_arrangements`` for an (N, 13) array of card ids, in one kernel call."""
    r = resolve_rules(rules)
    t = tables(r.wheel)
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    out = np.empty(len(hands), dtype=np.int64)
    K.count_valid_many(hands, CARD_WORD, t.rank5, t.flush5, t.rank3, t.front_count,
                       FRONT_SEGMENTS, MASK5, INDEX3, FRONT_PAIRS, out)
    return out


_GET5 = tuple(itemgetter(*(int(i) for i in c)) for c in COMB5)
_GET3 = tuple(itemgetter(*(int(i) for i in c)) for c in COMB3)


def unpack_split(hand: np.ndarray | Sequence[int], packed: int) -> Arrangement:
    """The arrangement of a packed split (:mod:`solver.games.capsa.encoding`; one
    precomputed getter per subset: this runs once per listed arrangement)."""
    cards = hand.tolist() if isinstance(hand, np.ndarray) else hand
    return Arrangement(_GET3[split_front(packed)](cards), _GET5[split_middle(packed)](cards),
                       _GET5[split_back(packed)](cards))


def all_valid_splits(hand: np.ndarray, rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Packed valid splits of a parsed hand, with the subset strengths (v5, v3)."""
    v5, v3 = subset_strengths(hand, rules.wheel)
    out = np.empty(2 * len(SPLIT_PAIRS), dtype=np.int32)
    n = K.valid_splits(v5, v3, SPLIT_PAIRS, out)
    return out[:n], v5, v3
