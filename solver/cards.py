"""Cards: ids, parsing and formatting shared by every game.

A card id is ``rank << RANK_SHIFT | suit`` (``rank * 4 + suit``) with ranks ``2..A`` as
``0..12`` and suits ``c d h s`` as ``0..3`` (the Capsa Susun order; games with another suit
order map it themselves). Da Bai Fen adds two jokers with ids 52 (small, ``SJ``) and 53 (big,
``BJ``). Python code reads ids with :func:`rank_of`, :func:`suit_of`, :func:`card_id` and
:func:`is_joker`; numba kernels use the module constants ``RANK_SHIFT`` and ``SUIT_MASK``
(numba freezes module integers into the compiled code, so they cost nothing in a loop).

>>> parse_cards("As 10h ♦7, kc")
[51, 34, 21, 44]
>>> format_cards([51, 34, 21, 44])
['As', 'Th', '7d', 'Kc']
>>> parse_cards("As As")
Traceback (most recent call last):
...
solver.errors.CardError: duplicate card 'As'
>>> try:
...     parse_cards("As Zz 1h", count=13)
... except CardError as e:
...     print(e.problems)
["unknown card 'Zz'", "unknown card '1h'"]
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import IntEnum

from solver.errors import CardError

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
NUM_RANKS = 13
NUM_SUITS = 4
#: cards of the deck without jokers; ids ``0..NUM_CARDS - 1``
NUM_CARDS = NUM_RANKS * NUM_SUITS
#: ``card >> RANK_SHIFT`` is the rank, ``card & SUIT_MASK`` the suit
RANK_SHIFT = 2
SUIT_MASK = (1 << RANK_SHIFT) - 1
SMALL_JOKER = NUM_CARDS
BIG_JOKER = NUM_CARDS + 1
JOKER_NAMES = {"SJ": SMALL_JOKER, "BJ": BIG_JOKER}

_SEPARATORS = re.compile(r"[\s,;]+")


def rank_of(card: int) -> int:
    """The rank index (``0`` for a 2 .. ``12`` for an ace) of a card id, or of any index laid
    out ``rank * 4 + suit`` (Big Two's own order too). Not for jokers.

    >>> rank_of(51), rank_of(0)
    (12, 0)
    """
    return card >> RANK_SHIFT


def suit_of(card: int) -> int:
    """The suit index (``c d h s`` as ``0..3``) of a card id; not for jokers.

    >>> suit_of(51), suit_of(34)
    (3, 2)
    """
    return card & SUIT_MASK


def card_id(rank: int, suit: int) -> int:
    """The id of the card of ``rank`` and ``suit`` (the inverse of :func:`rank_of` and
    :func:`suit_of`).

    >>> card_id(12, 3), card_id(rank_of(34), suit_of(34))
    (51, 34)
    """
    return rank << RANK_SHIFT | suit


def is_joker(card: int) -> bool:
    """True for the two jokers (Da Bai Fen's ids 52 and 53), which have no rank or suit.

    >>> is_joker(51), is_joker(52), is_joker(53)
    (False, True, True)
    """
    return card >= SMALL_JOKER


def either_case(text: str) -> str:
    """A regular expression matching ``text`` in any letter case, without flags."""
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else re.escape(c) for c in text)


RANK_PATTERN = "(?:10|[" + RANK_CHARS + "".join(c.lower() for c in RANK_CHARS if c.isalpha()) + "])"
SUIT_PATTERN = "[" + SUIT_CHARS + SUIT_CHARS.upper() + "".join(SUIT_SYMBOLS) + "]"


def card_pattern(allow_jokers: bool = False) -> str:
    """A regular expression (no anchors, no flags: JSON Schema and Python agree on it) for one
    card token that :func:`parse_card` accepts: rank then suit in either case, ``10`` for
    ``T``, a suit symbol before or after the rank, and ``SJ``/``BJ`` when jokers are allowed.

    >>> bool(re.fullmatch(card_pattern(), "10h")), bool(re.fullmatch(card_pattern(), "♦7"))
    (True, True)
    >>> bool(re.fullmatch(card_pattern(), "BJ")), bool(re.fullmatch(card_pattern(True), "bj"))
    (False, True)
    """
    forms = [RANK_PATTERN + SUIT_PATTERN, "[" + "".join(SUIT_SYMBOLS) + "]" + RANK_PATTERN]
    if allow_jokers:
        forms += [either_case(name) for name in JOKER_NAMES]
    return "(?:" + "|".join(forms) + ")"


class Rank(IntEnum):
    """Card ranks, ace high."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        return RANK_CHARS[self]


class Suit(IntEnum):
    """Suits in Capsa Susun order (they never break ties there)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        return SUIT_CHARS[self]


@dataclass(frozen=True, order=True)
class Card:
    """One card of the 52-card deck.

    >>> Card.parse("10h")
    Card('Th')
    >>> Card.parse("Th").id, Card(Rank.TEN, Suit.HEARTS).rank.char
    (34, 'T')
    """

    rank: Rank
    suit: Suit

    @property
    def id(self) -> int:
        return card_id(int(self.rank), int(self.suit))

    @classmethod
    def from_id(cls, card: int) -> Card:
        if not 0 <= card < NUM_CARDS:
            raise CardError([f"card id {card} is not between 0 and {NUM_CARDS - 1}"])
        return cls(Rank(rank_of(card)), Suit(suit_of(card)))

    @classmethod
    def parse(cls, token: str) -> Card:
        return cls.from_id(parse_card(token))

    def __str__(self) -> str:
        return RANK_CHARS[self.rank] + SUIT_CHARS[self.suit]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


def _parse_token(token: str, allow_jokers: bool) -> int | None:
    t = token.strip()
    if allow_jokers and t.upper() in JOKER_NAMES:
        return JOKER_NAMES[t.upper()]
    if len(t) < 2:
        return None
    if t[0] in SUIT_SYMBOLS:  # a symbol may stand before the rank: ♦7
        t = t[1:] + t[0]
    rank_part, suit_part = t[:-1], t[-1]
    suit_part = SUIT_SYMBOLS.get(suit_part, suit_part).lower()
    rank_part = rank_part.upper()
    if rank_part == "10":
        rank_part = "T"
    if len(rank_part) != 1 or rank_part not in RANK_CHARS or suit_part not in SUIT_CHARS:
        return None
    return card_id(RANK_CHARS.index(rank_part), SUIT_CHARS.index(suit_part))


def parse_card(token: str, allow_jokers: bool = False) -> int:
    """One card token to its id; raises :class:`CardError` naming the token."""
    if not isinstance(token, str):
        raise CardError([f"card must be a string, got {type(token).__name__}"])
    card = _parse_token(token, allow_jokers)
    if card is None:
        raise CardError([f"unknown card {token!r}"])
    return card


def _tokens(cards: str | Iterable[object]) -> list[object]:
    if isinstance(cards, str):
        return [t for t in _SEPARATORS.split(cards.strip()) if t]
    if isinstance(cards, Card):
        return [cards]
    try:
        return list(cards)
    except TypeError:
        raise CardError([f"cards must be a string or a list, got {type(cards).__name__}"]) from None


def times(n: int) -> str:
    """How often, for a message: ``""`` once, ``" (twice)"``, ``" (3 times)"``...

    >>> times(1), times(2), times(13)
    ('', ' (twice)', ' (13 times)')
    """
    return "" if n == 1 else " (twice)" if n == 2 else f" ({n} times)"


def parse_cards(
    cards: str | Iterable[object],
    count: int | None = None,
    allow_jokers: bool = False,
    allow_duplicates: bool = False,
) -> list[int]:
    """Parse a string (spaces or commas between cards) or a list of cards to card ids.

    Items of a list may be strings, :class:`Card` objects or ids. Every problem is reported
    at once, each distinct one once, in the order it is first met, with its count: an
    unknown token (``unknown card 'Zz' (twice)``), a card given more than once
    (``duplicate card 'Tc'`` when twice, ``duplicate card 'Tc' (13 times)``), and a wrong
    count (only when there is no other problem).

    >>> parse_cards(["Tc"] * 13 + ["Zz", "Zz"])
    Traceback (most recent call last):
    ...
    solver.errors.CardError: duplicate card 'Tc' (13 times); unknown card 'Zz' (twice)
    """
    # (what, which) -> how many times, in first-seen order: one message per distinct problem
    found: dict[tuple[str, str], int] = {}
    ids: list[int] = []
    seen: set[int] = set()
    top = BIG_JOKER + 1 if allow_jokers else NUM_CARDS
    for token in _tokens(cards):
        if isinstance(token, Card):
            card: int | None = token.id
            name = str(token)
        elif isinstance(token, numbers.Integral) and not isinstance(token, bool):
            value = int(token)
            card = value if 0 <= value < top else None
            name = str(token)
        elif isinstance(token, str):
            card = _parse_token(token, allow_jokers)
            name = token
        else:
            key = ("type", type(token).__name__)
            found[key] = found.get(key, 0) + 1
            continue
        if card is None:
            key = ("unknown", name)
            found[key] = found.get(key, 0) + 1
            continue
        if card in seen and not allow_duplicates:
            key = ("duplicate", format_card(card))
            found[key] = found.get(key, 1) + 1  # the first copy counts too
            continue
        seen.add(card)
        ids.append(card)
    problems = [_card_problem(what, which, n) for (what, which), n in found.items()]
    if count is not None and not problems and len(ids) != count:
        problems.append(f"expected {count} cards, got {len(ids)}")
    if problems:
        raise CardError(problems)
    return ids


def _card_problem(what: str, which: str, n: int) -> str:
    if what == "type":
        return f"card must be a string, got {which}{times(n)}"
    if what == "unknown":
        return f"unknown card {which!r}{times(n)}"
    # "duplicate" already says twice; a count is added from three copies on
    return f"duplicate card {which!r}" + (times(n) if n > 2 else "")


# every card id's text, for the formatting fast path (ints and NumPy integers hash alike)
_NAME_OF = {**{c: RANK_CHARS[rank_of(c)] + SUIT_CHARS[suit_of(c)] for c in range(NUM_CARDS)},
            SMALL_JOKER: "SJ", BIG_JOKER: "BJ"}


def format_card(card: int) -> str:
    """Canonical text of a card id: ``As``, ``Td``, ``BJ``.

    >>> format_card(51), format_card(0), format_card(53)
    ('As', '2c', 'BJ')
    """
    name = _NAME_OF.get(card)
    if name is not None:
        return name
    card = int(card)
    if not 0 <= card <= BIG_JOKER:
        raise CardError([f"card id {card} is not between 0 and 53"])
    return _NAME_OF[card]


def format_cards(cards: Iterable[int]) -> list[str]:
    """Canonical strings for card ids, in the given order (one dictionary lookup per card:
    this runs for every card of every listed arrangement). A bad id raises, named by
    :func:`format_card`, even when ``cards`` is an iterator.

    >>> format_cards(c for c in (51, 53))
    ['As', 'BJ']
    """
    get = _NAME_OF.get
    return [get(c) or format_card(c) for c in cards]


def cards_twice(groups: Iterable[Iterable[int]], verb: str = "dealt", name: str = "hand",
                labels: Sequence[str] = ()) -> list[str]:
    """One problem per card that appears more than once across ``groups`` (hands, plays),
    with how many times and where (each place once): what every game says of a deal or a
    table that repeats a card. ``labels`` names groups one by one instead
    (``["hand 0", ..., "the kitty"]``).

    >>> cards_twice([[0, 5], [5, 9], [9]], name="player")
    ["card '3d' is dealt twice (players 0 and 1)", "card '4d' is dealt twice (players 1 and 2)"]
    >>> cards_twice([[0], [0]], labels=["hand 0", "the kitty"])
    ["card '2c' is dealt twice (hand 0 and the kitty)"]
    >>> cards_twice([[7, 7], [7], [7]])
    ["card '3s' is dealt 4 times (hands 0, 1 and 2)"]
    """
    where: dict[int, list[int]] = {}
    for i, group in enumerate(groups):
        for c in group:
            where.setdefault(c, []).append(i)
    out = []
    for c in sorted(where):
        held = where[c]
        if len(held) > 1:
            places_of = list(dict.fromkeys(held))  # each group once, in order
            if labels:
                names = [labels[i] for i in places_of]
                places = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 \
                    else names[0]
            elif len(places_of) > 1:
                places = (f"{name}s " + ", ".join(map(str, places_of[:-1]))
                          + f" and {places_of[-1]}")
            else:
                places = f"{name} {places_of[0]}"
            how = "twice" if len(held) == 2 else f"{len(held)} times"
            out.append(f"card {format_card(c)!r} is {verb} {how} ({places})")
    return out


def cards_named(doc: object) -> set[int]:
    """Every card id named anywhere in a JSON document (jokers included): a string that is a
    list of cards (``"As"``, ``"Ah Kh"``, ``"BJ"``) names them; other strings name none. What a
    check that no hidden card leaves the server reads a response with.

    >>> sorted(cards_named({"hand": ["As", "Kd"], "table": "2c 3c", "phase": "play", "n": 3}))
    [0, 4, 45, 51]
    """
    found: set[int] = set()
    for text in json_strings(doc):
        try:
            found.update(parse_cards(text, allow_jokers=True, allow_duplicates=True))
        except CardError:
            pass
    return found


def json_strings(doc: object) -> Iterator[str]:
    """Every string of a JSON document, keys included, in no particular order.

    >>> sorted(json_strings({"a": ["x", 1, {"b": "y"}]}))
    ['a', 'b', 'x', 'y']
    """
    stack = [doc]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            stack.extend(x.values())
            stack.extend(k for k in x if isinstance(k, str))
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, str):
            yield x
