"""Big Two combinations: rules, classification, comparison and legal-move generation.

Cards keep the shared ids of :mod:`solver.cards` at the edges; inside, a card is its Big Two
index ``rank * 4 + suit`` with ranks ``3..2`` as ``0..12`` and suits ``d c h s`` as ``0..3``
(the layout of shared ids, so :func:`~solver.cards.rank_of` and ``RANK_SHIFT`` read it too),
so a larger index is a stronger single and a hand is a 52-bit mask. Every play has a
``strength``: ``kind << KIND_SHIFT | value``; among plays with the same number of cards, the larger
strength beats (the bomb on a single 2 is the one exception, see :func:`beats`).

>>> rules = BigTwoRules()
>>> classify("7s 7h", rules).kind
<Kind.PAIR: 2>
>>> beats("7s", "7h", rules), beats("7d", "6s", rules)
(True, True)

(:func:`legal_moves` examples live in :mod:`solver.games.big_two`, so that importing this
module under another name, as ``--doctest-modules`` may, never compiles the kernels.)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, overload

import numpy as np

from solver._jit import njit
from solver.cards import (
    NUM_CARDS,
    NUM_RANKS,
    NUM_SUITS,
    RANK_CHARS,
    RANK_SHIFT,
    card_id,
    format_card,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from solver.errors import CardError, IllegalMoveError, InputError
from solver.games.base import label
from solver.games.big_two.rules import DEFAULT_RULES, BigTwoRules

HAND_SIZE = 13
_SUIT_TO_BT = (1, 0, 2, 3)  # shared suits c d h s -> Big Two order d < c < h < s
#: Big Two index -> shared card id, and back.
BT_TO_ID: tuple[int, ...] = tuple(
    card_id((rank_of(bt) + 1) % NUM_RANKS, _SUIT_TO_BT.index(suit_of(bt)))
    for bt in range(NUM_CARDS)
)
ID_TO_BT: tuple[int, ...] = tuple(BT_TO_ID.index(c) for c in range(NUM_CARDS))
TWO_RANK = 12  # rank index of the 2, the top rank
KIND_SHIFT = 24  # a strength is kind << KIND_SHIFT | value
_VALUE_MASK = (1 << KIND_SHIFT) - 1
_RANK_SUITS = (1 << NUM_SUITS) - 1  # the 4 bits of one rank in a Big Two mask


class Kind(IntEnum):
    """Kinds of play; five-card kinds are listed low to high."""

    PASS = 0
    SINGLE = 1
    PAIR = 2
    TRIPLE = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """The snake_case label (``four_of_a_kind``), the one spelling of output."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: Any) -> Kind:
        """The kind a label names, in any style (``four-of-a-kind``, ``Four Of A Kind``)."""
        if isinstance(text, Kind):
            return text
        key = label(text) if isinstance(text, str) else None
        for k in cls:
            if k.label == key:
                return k
        raise InputError(f"unknown kind {text!r}; one of {', '.join(k.label for k in cls)}")

    @property
    def size(self) -> int:
        return (0, 1, 2, 3)[self] if self <= 3 else 5


# Straight windows: five ranks, the last one is the window's top card (it breaks ties by suit).
_RANK_ORDER_WINDOWS = tuple(tuple(range(w, w + 5)) for w in range(9))  # 3-7 .. J-2
_POKER_WINDOWS = ((11, 12, 0, 1, 2), (12, 0, 1, 2, 3))  # A-2-3-4-5, 2-3-4-5-6
_WINDOWS = np.array(_RANK_ORDER_WINDOWS + _POKER_WINDOWS, dtype=np.int64)


# ------------------------------------------------------------------------------ moves
def mask_to_ids(mask: int) -> tuple[int, ...]:
    """Shared card ids of a Big Two mask, weakest card first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(BT_TO_ID[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def ids_to_mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << ID_TO_BT[c]
    return m


@dataclass(frozen=True, slots=True)
class Move:
    """A play (or a pass, with no cards): its cards weakest first, kind and strength.

    ``mask`` is the Big Two bit mask of the cards (bit ``rank * 4 + suit``, 3d = bit 0).
    """

    mask: int
    kind: Kind
    strength: int

    @property
    def cards(self) -> tuple[int, ...]:
        return mask_to_ids(self.mask)

    @property
    def size(self) -> int:
        return self.mask.bit_count()

    @property
    def is_pass(self) -> bool:
        return self.mask == 0

    def card_strings(self) -> list[str]:
        return [format_card(c) for c in self.cards]

    def to_json(self) -> dict[str, Any]:
        return {"cards": self.card_strings(), "kind": self.kind.label}

    def __str__(self) -> str:
        return " ".join(self.card_strings()) if self.mask else "pass"


PASS = Move(0, Kind.PASS, 0)


def bt_index(card: int | str) -> int:
    """Big Two index of a card given as a shared id or a string."""
    cid = parse_card(card) if isinstance(card, str) else int(card)
    if not 0 <= cid < NUM_CARDS:
        raise CardError(f"card id {cid} is not between 0 and {NUM_CARDS - 1}")
    return ID_TO_BT[cid]


def _straight_window(ranks: Sequence[int], poker: bool) -> int:
    rs = sorted(ranks)
    if len(set(rs)) != 5:
        return -1
    if rs[4] - rs[0] == 4:
        return rs[0]
    if poker:
        if rs == [0, 1, 2, 11, 12]:
            return 9
        if rs == [0, 1, 2, 3, 12]:
            return 10
    return -1


def classify_mask(mask: int, rules: BigTwoRules = DEFAULT_RULES) -> Move | None:
    """The combination formed by a Big Two mask, or None when it is not one."""
    idx = []
    m = mask
    while m:
        low = m & -m
        idx.append(low.bit_length() - 1)
        m ^= low
    n = len(idx)
    ranks = [rank_of(i) for i in idx]
    top = idx[-1] if idx else 0
    if n == 1:
        return Move(mask, Kind.SINGLE, Kind.SINGLE << KIND_SHIFT | top)
    if n in (2, 3):
        if ranks[0] != ranks[-1]:
            return None
        kind = Kind.PAIR if n == 2 else Kind.TRIPLE
        return Move(mask, kind, kind << KIND_SHIFT | top)
    if n != 5:
        return None
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    if counts[0] == 4:
        quad = max(set(ranks), key=ranks.count)
        return Move(mask, Kind.FOUR_OF_A_KIND, Kind.FOUR_OF_A_KIND << KIND_SHIFT | quad)
    if counts == [3, 2]:
        trip = max(set(ranks), key=ranks.count)
        return Move(mask, Kind.FULL_HOUSE, Kind.FULL_HOUSE << KIND_SHIFT | trip)
    flush = len({suit_of(i) for i in idx}) == 1
    w = _straight_window(ranks, rules.straights == "poker")
    if w >= 0:
        top_rank = int(_WINDOWS[w, 4])
        suit = next(suit_of(i) for i in idx if rank_of(i) == top_rank)
        kind = Kind.STRAIGHT_FLUSH if flush else Kind.STRAIGHT
        return Move(mask, kind, kind << KIND_SHIFT | card_id(w, suit))  # window, then top suit
    if flush:
        return Move(mask, Kind.FLUSH, Kind.FLUSH << KIND_SHIFT
                    | _flush_value(sorted(ranks, reverse=True), suit_of(idx[0]),
                                   rules.flush_order == "suit"))
    return None


def _flush_value(ranks_desc: Sequence[int], suit: int, suit_first: bool) -> int:
    v = 0
    for r in ranks_desc:
        v = v * 13 + r
    return suit * NUM_RANKS**5 + v if suit_first else v * NUM_SUITS + suit


def _parse_play(cards: str | Iterable[Any] | Move) -> int:
    if isinstance(cards, Move):
        return cards.mask
    return ids_to_mask(parse_cards(cards))


def classify(cards: str | Iterable[Any] | Move, rules: BigTwoRules | Mapping | None = None) -> Move:
    """The combination the cards form; raises :class:`IllegalMoveError` if they form none.

    >>> m = classify("8s 9s Ts Js Qs", BigTwoRules())
    >>> m.kind.label, m.strength > classify("3h 4h 5h 6h 7h").strength
    ('straight_flush', True)
    >>> classify("7s 7h 7d 7c")
    Traceback (most recent call last):
    ...
    solver.errors.IllegalMoveError: 7d 7c 7h 7s is not a combination
    """
    rules = BigTwoRules.from_options(rules)
    mask = _parse_play(cards)
    move = classify_mask(mask, rules) if mask else None
    if move is None:
        shown = " ".join(format_card(c) for c in mask_to_ids(mask)) or "no cards"
        raise IllegalMoveError(f"{shown} is not a combination")
    return move


def parse_play(doc: Any, rules: BigTwoRules = DEFAULT_RULES) -> Move:
    """The play a document stands for: a :class:`Move`, ``move.to_json()`` output
    (``{"cards": [...], "kind": ...}``, any label style), a card string or list, or ``"pass"``.

    The cards are classified under ``rules``; a ``kind`` that disagrees is an error. Whether
    the play is legal where it is made is the engine's question.

    >>> parse_play({"cards": ["7h", "7s"], "kind": "pair"}).kind.label, str(parse_play("pass"))
    ('pair', 'pass')
    """
    if isinstance(doc, Move):
        return doc
    kind = None
    if isinstance(doc, Mapping):
        unknown = sorted(set(doc) - {"cards", "kind"})
        if unknown:
            raise InputError(f"unknown move field {unknown[0]!r}; a move has cards and kind")
        if "cards" not in doc:
            raise InputError("a move needs cards (an empty list for a pass)")
        if doc.get("kind") is not None:
            kind = Kind.parse(doc["kind"])
        cards: Any = doc["cards"]
    elif isinstance(doc, str) and label(doc) == "pass":
        return PASS
    elif isinstance(doc, (str, list, tuple)):
        cards = doc
    else:
        raise InputError(f"a move is an object {{cards, kind}}, a card string or 'pass'; "
                         f"got {type(doc).__name__}")
    if isinstance(cards, str) and label(cards) == "pass":
        cards = []
    mask = ids_to_mask(parse_cards(cards))
    if mask == 0:
        if kind not in (None, Kind.PASS):
            raise IllegalMoveError(f"a {kind.label} needs cards; a move without cards is a pass")
        return PASS
    play = classify(mask_to_ids(mask), rules)
    if kind is not None and kind != play.kind:
        raise IllegalMoveError(f"{play} is a {play.kind.label}, not a {kind.label}")
    return play


def _is_single_two(move: Move) -> bool:
    return move.kind == Kind.SINGLE and rank_of(move.strength & _VALUE_MASK) == TWO_RANK


def beats_move(a: Move, b: Move, rules: BigTwoRules) -> bool:
    """Compare two classified plays (both classified under ``rules``)."""
    if rules.bomb_on_two and _is_single_two(b) and a.kind in (Kind.FOUR_OF_A_KIND,
                                                               Kind.STRAIGHT_FLUSH):
        return True
    return a.size == b.size and a.strength > b.strength


def beats(a: Any, b: Any, rules: BigTwoRules | Mapping | None = None) -> bool:
    """True when play ``a`` may be played on play ``b`` under ``rules``.

    >>> beats("As Ks Qs Js Ts", "2d"), beats("As Ks Qs Js Ts", "2d", {"bomb_on_two": False})
    (True, False)
    """
    rules = BigTwoRules.from_options(rules)
    return beats_move(classify(a, rules), classify(b, rules), rules)


# ------------------------------------------------------------------------------ kernel
MAX_MOVES = 13 + 78 + 286 + 1287  # every 1-, 2-, 3- and 5-card subset of 13 cards
_SKIP = np.int64(1) << np.int64(62)
_RANKS_POW5 = NUM_RANKS**5  # a suit-first flush value: suit * 13**5 + the five ranks


@njit
def _thresholds(cur_key: np.int64, cur_size: np.int64, bomb: bool) -> np.ndarray:
    """Per kind, the strength a play must exceed (-1: anything, _SKIP: none allowed)."""
    thr = np.full(9, _SKIP, np.int64)
    if cur_size == 0:
        thr[:] = -1
        return thr
    cur_kind = cur_key >> KIND_SHIFT
    if cur_size == 5:
        for k in range(4, 9):
            if k >= cur_kind:
                thr[k] = cur_key
    else:
        thr[cur_size] = cur_key
        if bomb and cur_size == 1 and ((cur_key & _VALUE_MASK) >> RANK_SHIFT) == TWO_RANK:
            thr[7] = -1
            thr[8] = -1
    return thr


@njit
def _generate(hand, cur_key, cur_size, required, poker, flush_suit, bomb):
    """Every play from ``hand`` (a Big Two mask) beating the current play and holding
    ``required`` (a Big Two index, -1 for none), in ascending (kind, strength) order.

    Returns (masks, strengths) as int64 arrays. Patterns come from the per-rank suit sets;
    no subset of the hand is ever tried blindly.
    """
    masks = np.empty(MAX_MOVES, np.int64)
    keys = np.empty(MAX_MOVES, np.int64)
    n = 0
    req = np.int64(0) if required < 0 else np.int64(1) << required
    thr = _thresholds(cur_key, cur_size, bomb)
    sm = np.zeros(13, np.int64)
    cnt = np.zeros(13, np.int64)
    for r in range(13):
        s = (hand >> (r << RANK_SHIFT)) & _RANK_SUITS
        sm[r] = s
        cnt[r] = (s & 1) + ((s >> 1) & 1) + ((s >> 2) & 1) + (s >> 3)
    # singles
    if thr[1] != _SKIP:
        for i in range(NUM_CARDS):
            if (hand >> i) & 1:
                key = (np.int64(1) << KIND_SHIFT) | i
                m = np.int64(1) << i
                if key > thr[1] and (m & req) == req:
                    masks[n] = m
                    keys[n] = key
                    n += 1
    # pairs and triples: a sub-mask b of the rank's suits; ascending b = ascending top suit
    for k in (2, 3):
        if thr[k] == _SKIP:
            continue
        for r in range(13):
            if cnt[r] < k:
                continue
            for b in range(16):
                if (b & sm[r]) != b or _popcount4(b) != k:
                    continue
                key = (np.int64(k) << KIND_SHIFT) | ((r << RANK_SHIFT) | _top_bit4(b))
                m = np.int64(b) << (r << RANK_SHIFT)
                if key > thr[k] and (m & req) == req:
                    masks[n] = m
                    keys[n] = key
                    n += 1
    nwin = 11 if poker else 9
    # straights (not flush): outer loop on the top card's suit keeps strengths ascending
    if thr[4] != _SKIP:
        for w in range(nwin):
            r0, r1, r2, r3, r4 = _WINDOWS[w, 0], _WINDOWS[w, 1], _WINDOWS[w, 2], _WINDOWS[w, 3], _WINDOWS[w, 4]
            if cnt[r0] == 0 or cnt[r1] == 0 or cnt[r2] == 0 or cnt[r3] == 0 or cnt[r4] == 0:
                continue
            for s4 in range(4):
                if not (sm[r4] >> s4) & 1:
                    continue
                key = (np.int64(4) << KIND_SHIFT) | ((w << RANK_SHIFT) | s4)
                if key <= thr[4]:
                    continue
                for s0 in range(4):
                    if not (sm[r0] >> s0) & 1:
                        continue
                    for s1 in range(4):
                        if not (sm[r1] >> s1) & 1:
                            continue
                        for s2 in range(4):
                            if not (sm[r2] >> s2) & 1:
                                continue
                            for s3 in range(4):
                                if not (sm[r3] >> s3) & 1:
                                    continue
                                if s0 == s4 and s1 == s4 and s2 == s4 and s3 == s4:
                                    continue
                                m = ((np.int64(1) << ((r0 << RANK_SHIFT) | s0))
                                     | (np.int64(1) << ((r1 << RANK_SHIFT) | s1))
                                     | (np.int64(1) << ((r2 << RANK_SHIFT) | s2))
                                     | (np.int64(1) << ((r3 << RANK_SHIFT) | s3))
                                     | (np.int64(1) << ((r4 << RANK_SHIFT) | s4)))
                                if (m & req) == req:
                                    masks[n] = m
                                    keys[n] = key
                                    n += 1
    # flushes (not straight flushes), sorted by strength afterwards
    if thr[5] != _SKIP:
        start = n
        rl = np.empty(13, np.int64)
        for s in range(4):
            c = 0
            for r in range(13):
                if (sm[r] >> s) & 1:
                    rl[c] = r
                    c += 1
            if c < 5:
                continue
            for a in range(c):
                for b in range(a + 1, c):
                    for d in range(b + 1, c):
                        for e in range(d + 1, c):
                            for f in range(e + 1, c):
                                lo, hi = rl[a], rl[f]
                                if hi - lo == 4:
                                    continue
                                if poker and lo == 0 and rl[b] == 1 and rl[d] == 2 and (
                                        (rl[e] == 11 and hi == 12) or (rl[e] == 3 and hi == 12)):
                                    continue
                                v = (((rl[f] * 13 + rl[e]) * 13 + rl[d]) * 13 + rl[b]) * 13 + rl[a]
                                if flush_suit:
                                    v = s * _RANKS_POW5 + v
                                else:
                                    v = v * NUM_SUITS + s
                                key = (np.int64(5) << KIND_SHIFT) | v
                                m = ((np.int64(1) << ((rl[a] << RANK_SHIFT) | s))
                                     | (np.int64(1) << ((rl[b] << RANK_SHIFT) | s))
                                     | (np.int64(1) << ((rl[d] << RANK_SHIFT) | s))
                                     | (np.int64(1) << ((rl[e] << RANK_SHIFT) | s))
                                     | (np.int64(1) << ((rl[f] << RANK_SHIFT) | s)))
                                if key > thr[5] and (m & req) == req:
                                    masks[n] = m
                                    keys[n] = key
                                    n += 1
        if n - start > 1:
            order = np.argsort(keys[start:n])
            masks[start:n] = masks[start:n][order]
            keys[start:n] = keys[start:n][order]
    # full houses: by the triple's rank
    if thr[6] != _SKIP:
        for t in range(13):
            if cnt[t] < 3:
                continue
            key = (np.int64(6) << KIND_SHIFT) | t
            if key <= thr[6]:
                continue
            for tb in range(16):
                if (tb & sm[t]) != tb or _popcount4(tb) != 3:
                    continue
                tm = np.int64(tb) << (t << RANK_SHIFT)
                for p in range(13):
                    if p == t or cnt[p] < 2:
                        continue
                    for pb in range(16):
                        if (pb & sm[p]) != pb or _popcount4(pb) != 2:
                            continue
                        m = tm | (np.int64(pb) << (p << RANK_SHIFT))
                        if (m & req) == req:
                            masks[n] = m
                            keys[n] = key
                            n += 1
    # four of a kind plus any fifth card
    if thr[7] != _SKIP:
        for q in range(13):
            if cnt[q] != 4:
                continue
            key = (np.int64(7) << KIND_SHIFT) | q
            if key <= thr[7]:
                continue
            qm = np.int64(_RANK_SUITS) << (q << RANK_SHIFT)
            for i in range(NUM_CARDS):
                if (i >> RANK_SHIFT) != q and (hand >> i) & 1:
                    m = qm | (np.int64(1) << i)
                    if (m & req) == req:
                        masks[n] = m
                        keys[n] = key
                        n += 1
    # straight flushes
    if thr[8] != _SKIP:
        for w in range(nwin):
            for s in range(4):
                m = np.int64(0)
                ok = True
                for j in range(5):
                    r = _WINDOWS[w, j]
                    if not (sm[r] >> s) & 1:
                        ok = False
                        break
                    m |= np.int64(1) << ((r << RANK_SHIFT) | s)
                if not ok:
                    continue
                key = (np.int64(8) << KIND_SHIFT) | ((w << RANK_SHIFT) | s)
                if key > thr[8] and (m & req) == req:
                    masks[n] = m
                    keys[n] = key
                    n += 1
    return masks[:n].copy(), keys[:n].copy()


@njit
def _popcount4(b):
    return (b & 1) + ((b >> 1) & 1) + ((b >> 2) & 1) + ((b >> 3) & 1)


@njit
def _top_bit4(b):
    if b & 8:
        return 3
    if b & 4:
        return 2
    if b & 2:
        return 1
    return 0


@njit
def _baseline_pick(hand, cur_key, cur_size, required, poker, flush_suit, bomb):
    """The baseline bot's play as (mask, strength); mask 0 means pass.

    Leading: among plays holding the hand's lowest card, prefer those without a 2, then the
    most cards, then the lowest strength. Responding: the weakest play that beats, without
    a 2 when possible; with only 2-plays left it passes (keeps its 2s).
    """
    masks, keys = _generate(hand, cur_key, cur_size, required, poker, flush_suit, bomb)
    twos = np.int64(_RANK_SUITS) << (TWO_RANK << RANK_SHIFT)
    best = -1
    if cur_size == 0:
        low = hand & -hand
        best_score = np.int64(1) << 62
        for i in range(masks.shape[0]):
            m = masks[i]
            if (m & low) == 0:
                continue
            has_two = 1 if (m & twos) != 0 and (low & twos) == 0 else 0
            size = 0
            mm = m
            while mm:
                mm &= mm - 1
                size += 1
            score = (np.int64(has_two) << 40) | (np.int64(5 - size) << 32) | (keys[i] & 0xFFFFFFFF)
            if score < best_score:
                best_score = score
                best = i
        if best < 0:  # cannot happen for a non-empty hand: the lowest single is always legal
            return masks[0], keys[0]
        return masks[best], keys[best]
    for i in range(masks.shape[0]):  # ascending strength: the first without a 2
        if (masks[i] & twos) == 0:
            return masks[i], keys[i]
    return np.int64(0), np.int64(0)


def warm_up() -> None:
    """Compile (or load) the kernels."""
    _generate(np.int64(0b111), np.int64(0), np.int64(0), np.int64(0), False, False, True)
    _baseline_pick(np.int64(0b111), np.int64(0), np.int64(0), np.int64(-1), False, False, True)


# ------------------------------------------------------------------------------ legal moves
class LegalMoves(Sequence[Move]):
    """Plays from the kernel's arrays; :class:`Move` objects are built only when read.

    ``masks`` and ``strengths`` are the raw int64 arrays (ascending kind, then strength);
    ``can_pass`` says whether passing is also allowed.
    """

    __slots__ = ("masks", "strengths", "can_pass")

    def __init__(self, masks: np.ndarray, strengths: np.ndarray, can_pass: bool):
        self.masks, self.strengths, self.can_pass = masks, strengths, can_pass

    def __len__(self) -> int:
        return int(self.masks.shape[0])

    @overload
    def __getitem__(self, i: int) -> Move: ...
    @overload
    def __getitem__(self, i: slice) -> list[Move]: ...

    def __getitem__(self, i: int | slice) -> Move | list[Move]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        key = int(self.strengths[i])
        return Move(int(self.masks[i]), Kind(key >> KIND_SHIFT), key)

    def __iter__(self) -> Iterator[Move]:
        for m, k in zip(self.masks.tolist(), self.strengths.tolist()):
            yield Move(m, Kind(k >> KIND_SHIFT), k)

    def to_json(self) -> dict[str, Any]:
        return {"moves": [m.to_json() for m in self], "can_pass": self.can_pass}

    def __repr__(self) -> str:
        return f"LegalMoves({len(self)} plays, can_pass={self.can_pass})"


def generate(hand_mask: int, current: Move | None, required: int, rules: BigTwoRules) -> LegalMoves:
    """Kernel entry on masks: no validation (callers check their input)."""
    poker, fsuit, bomb = rules.flags
    if current is None:
        masks, keys = _generate(hand_mask, 0, 0, required, poker, fsuit, bomb)
        return LegalMoves(masks, keys, False)
    masks, keys = _generate(hand_mask, current.strength, current.size, required, poker, fsuit, bomb)
    return LegalMoves(masks, keys, True)


def legal_moves(
    hand: str | Iterable[Any],
    current: str | Iterable[Any] | Move | None = None,
    first_trick: bool = False,
    rules: BigTwoRules | Mapping | None = None,
    required: int | str | None = None,
) -> LegalMoves:
    """Every legal play from ``hand`` (each card choice once) and whether passing is allowed.

    ``current`` is the play to beat (None: the player leads and may not pass). On the first
    trick every play must hold ``required`` (default ``3d``; with 2 or 3 players, the lowest
    card dealt); ``required`` may also be given alone.
    """
    rules = BigTwoRules.from_options(rules)
    ids = parse_cards(hand)
    if not ids:
        raise CardError("the hand holds no cards")
    if len(ids) > HAND_SIZE:
        raise CardError(f"a hand holds at most {HAND_SIZE} cards, got {len(ids)}")
    hand_mask = ids_to_mask(ids)
    cur = None
    if current is not None:
        cur = classify(current, rules)
        if cur.mask & hand_mask:
            shared = " ".join(format_card(c) for c in mask_to_ids(cur.mask & hand_mask))
            raise IllegalMoveError(f"the current play and the hand share {shared}")
    req = -1
    if required is not None or first_trick:
        req = bt_index(required if required is not None else "3d")
        if not (hand_mask >> req) & 1:
            raise IllegalMoveError(
                f"the hand does not hold {format_card(BT_TO_ID[req])}, which the play must contain")
    return generate(hand_mask, cur, req, rules)


def describe(move: Move) -> dict[str, Any]:
    """JSON-ready description of a classified play (what the classify endpoint returns)."""
    value = move.strength & _VALUE_MASK
    out: dict[str, Any] = {"cards": move.card_strings(), "kind": move.kind.label,
                           "size": move.size, "strength": move.strength}
    if move.kind in (Kind.SINGLE, Kind.PAIR, Kind.TRIPLE):
        out["rank"] = RANK_CHARS[rank_of(BT_TO_ID[value])]
    elif move.kind in (Kind.FULL_HOUSE, Kind.FOUR_OF_A_KIND):
        out["rank"] = RANK_CHARS[rank_of(BT_TO_ID[card_id(value, 0)])]
    return out
