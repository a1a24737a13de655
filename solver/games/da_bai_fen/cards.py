"""Da Bai Fen card order: which cards are trumps, how they rank, what they are worth.

The order depends on the hand's trump rank and trump suit, so it lives in a small frozen
:class:`Trump` value whose tables are built once per (rank, suit) and cached.

>>> t = Trump.parse("2", "h")
>>> from solver.cards import parse_cards, format_cards
>>> format_cards(t.sort(parse_cards("2c 2h BJ SJ Ah Ks 3h", allow_jokers=True)))
['BJ', 'SJ', '2h', '2c', 'Ah', '3h', 'Ks']
>>> t.suit_name(t.effective_suit(parse_cards("2c")[0]))
'trumps'
>>> sum(card_points(c) for c in range(54))
100
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from solver.cards import (
    BIG_JOKER,
    RANK_CHARS,
    RANK_PATTERN,
    SMALL_JOKER,
    SUIT_CHARS,
    SUIT_PATTERN,
    SUIT_SYMBOLS,
    Rank,
    either_case,
    is_joker,
    rank_of,
    suit_of,
)
from solver.errors import InputError

DECK_SIZE = 54
HAND_SIZE = 12
KITTY_SIZE = 6
NUM_PLAYERS = 4
TOTAL_POINTS = 100
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
# What parse_rank / parse_suit read, as regular expressions (no anchors) for a schema
TRUMP_RANK_PATTERN = RANK_PATTERN
TRUMP_SUIT_PATTERN = "(?:" + "|".join(
    [SUIT_PATTERN] + [either_case(name[:-1]) + "[Ss]?" for name in SUIT_NAMES]) + ")"

# Strength scale (higher wins): off-suit cards 0..12 by rank, the rest of the trump suit
# 20..32, other trump-rank cards 37 (all equal), trump-rank card of the trump suit 38,
# small joker 39, big joker 40. Every trump is above every off-suit card.
_TRUMP_BASE = 20
_OFF_RANK_TRUMP = 37
_TRUMP_RANK_TRUMP = 38
_STRENGTH_SJ = 39
_STRENGTH_BJ = 40

_POINTS = tuple(
    0 if is_joker(c) else 10 if rank_of(c) in (Rank.TEN, Rank.KING)
    else 5 if rank_of(c) == Rank.FIVE else 0
    for c in range(DECK_SIZE)
)


def card_points(card: int) -> int:
    """K and 10 are worth 10, 5 is worth 5, every other card (jokers too) 0."""
    return _POINTS[card]


def points_of(cards: Iterable[int]) -> int:
    """Sum of :func:`card_points`."""
    return sum(_POINTS[c] for c in cards)


def parse_rank(text: object) -> int:
    """A trump rank (``2``..``9``, ``T``/``10``, ``J``, ``Q``, ``K``, ``A``) to its index 0..12."""
    if isinstance(text, int) and not isinstance(text, bool) and 0 <= text <= 12:
        return int(text)
    if isinstance(text, str):
        t = text.strip().upper()
        t = "T" if t == "10" else t
        if len(t) == 1 and t in RANK_CHARS:
            return RANK_CHARS.index(t)
    raise InputError(f"unknown trump rank {text!r}; use one of 2 3 4 5 6 7 8 9 T J Q K A")


def parse_suit(text: object) -> int:
    """A trump suit (``c d h s``, a symbol, or the English name) to its index 0..3."""
    if isinstance(text, int) and not isinstance(text, bool) and 0 <= text <= 3:
        return int(text)
    if isinstance(text, str):
        t = text.strip()
        t = SUIT_SYMBOLS.get(t, t).lower()
        if len(t) == 1 and t in SUIT_CHARS:
            return SUIT_CHARS.index(t)
        if t in SUIT_NAMES or t.rstrip("s") + "s" in SUIT_NAMES:
            return SUIT_NAMES.index(t if t in SUIT_NAMES else t.rstrip("s") + "s")
    raise InputError(f"unknown trump suit {text!r}; use one of c d h s")


@dataclass(frozen=True)
class Trump:
    """The hand's trump rank (0..12 for 2..A) and trump suit (0..3 for c d h s).

    ``strength[c]`` orders cards (higher wins, equal for the off-suit trump-rank cards) and
    ``eff[c]`` is the suit a card follows as: the trump suit for jokers and trump-rank cards.
    """

    rank: int
    suit: int
    strength: tuple[int, ...] = field(init=False, repr=False, compare=False)
    eff: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not (isinstance(self.rank, int) and 0 <= self.rank <= 12):
            raise InputError(f"trump rank must be 0..12, got {self.rank!r}")
        if not (isinstance(self.suit, int) and 0 <= self.suit <= 3):
            raise InputError(f"trump suit must be 0..3, got {self.suit!r}")
        strength, eff = _tables(self.rank, self.suit)
        object.__setattr__(self, "strength", strength)
        object.__setattr__(self, "eff", eff)

    @classmethod
    def parse(cls, rank: object, suit: object) -> Trump:
        """From text such as ``("T", "h")``; errors name the bad value."""
        problems = []
        r = s = 0
        try:
            r = parse_rank(rank)
        except InputError as exc:
            problems += exc.problems
        try:
            s = parse_suit(suit)
        except InputError as exc:
            problems += exc.problems
        if problems:
            raise InputError(problems)
        return cls(r, s)

    def is_trump(self, card: int) -> bool:
        return self.eff[card] == self.suit

    def effective_suit(self, card: int) -> int:
        return self.eff[card]

    def suit_name(self, eff_suit: int) -> str:
        """``trumps`` for the trump suit, else the suit's English name."""
        return "trumps" if eff_suit == self.suit else SUIT_NAMES[eff_suit]

    def sort(self, cards: Iterable[int]) -> list[int]:
        """Cards high to low (trumps first, then the other suits c d h s ... by suit)."""
        s, e = self.strength, self.eff
        return sorted(cards, key=lambda c: (e[c] == self.suit, -e[c], s[c], c), reverse=True)

    def trumps(self) -> list[int]:
        """The 18 trumps, high to low."""
        return self.sort(c for c in range(DECK_SIZE) if self.is_trump(c))

    def label(self) -> str:
        return f"{RANK_CHARS[self.rank]}{SUIT_CHARS[self.suit]}"


@lru_cache(maxsize=64)
def _tables(rank: int, suit: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    strength: list[int] = []
    eff: list[int] = []
    for c in range(DECK_SIZE):
        if c == BIG_JOKER:
            strength.append(_STRENGTH_BJ)
            eff.append(suit)
        elif c == SMALL_JOKER:
            strength.append(_STRENGTH_SJ)
            eff.append(suit)
        elif rank_of(c) == rank:
            strength.append(_TRUMP_RANK_TRUMP if suit_of(c) == suit else _OFF_RANK_TRUMP)
            eff.append(suit)
        elif suit_of(c) == suit:
            strength.append(_TRUMP_BASE + rank_of(c))
            eff.append(suit)
        else:
            strength.append(rank_of(c))
            eff.append(suit_of(c))
    return tuple(strength), tuple(eff)
