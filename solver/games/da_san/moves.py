"""Da San (Big Three) combinations: what a set of cards is, and every legal play of a hand.

Ranks run ``4 5 6 7 8 9 T J Q K A 2 3`` (low to high) and suits never matter, so everything
here works on rank counts: a combination is ``width`` cards (1-4) of each of ``length``
consecutive ranks. ``length`` 1 is a single/pair/trio/quad; ``length`` 3 or more is a run,
which only uses ranks ``4`` to ``K``. A play beats another of the same kind and the same number
of cards with a higher top rank (its ``strength``, 0 for ``4`` up to 12 for ``3``).

>>> classify("7h 8c 9d Ts").kind, classify("7h 8c 9d Ts").top
(<Kind.RUN: 'run'>, 'T')
>>> classify("Qh Kc Ad") is None   # A never appears in a run
True
>>> [" ".join(m.labels) for m in legal_moves("6c 7c 8c 9c Tc Jd", current="6d 7d 8d 9d")]
['7c 8c 9c Tc', '8c 9c Tc Jd', '']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from itertools import combinations, product
from typing import Any

from solver.cards import NUM_CARDS, NUM_RANKS, card_id, format_cards, parse_cards, rank_of, suit_of
from solver.errors import CardError, IllegalMoveError
from solver.games.base import label
from solver.games.da_san.rules import DEFAULT_RULES, RUN_TOP, DaSanRules

RANK_ORDER = "456789TJQKA23"  # Da San rank index 0..12, low to high
MAX_BID = 3
MAX_HAND = 20  # the bidder's 16 cards plus the 4-card kitty

# Da San rank of each card id (4 -> 0, ..., A -> 10, 2 -> 11, 3 -> 12) and a sort key.
DS_RANK: tuple[int, ...] = tuple((rank_of(c) + 11) % NUM_RANKS for c in range(NUM_CARDS))
DS_KEY: tuple[int, ...] = tuple(card_id(DS_RANK[c], suit_of(c)) for c in range(NUM_CARDS))


class Kind(str, Enum):
    """What a move is; plays of a kind beat only plays of the same kind and size."""

    SINGLE = "single"
    PAIR = "pair"
    TRIO = "trio"
    QUAD = "quad"
    RUN = "run"
    PAIR_RUN = "pair_run"
    TRIO_RUN = "trio_run"
    QUAD_RUN = "quad_run"
    PASS = "pass"
    BID = "bid"

    def __str__(self) -> str:
        return self.value

    @property
    def label(self) -> str:
        """The snake_case label (the one style of every game's output)."""
        return self.value

    @classmethod
    def parse(cls, text: Any) -> Kind:
        """The kind a label names, in any style (``pair-run``, ``Pair Run``, ``pair_run``)."""
        if isinstance(text, Kind):
            return text
        kind = _KIND_BY_LABEL.get(label(text)) if isinstance(text, str) else None
        if kind is None:
            raise IllegalMoveError(f"unknown Da San move kind {text!r}; one of "
                                   f"{', '.join(k.label for k in cls)}")
        return kind


_KIND_BY_LABEL = {k.value: k for k in Kind}
PLAY_KINDS = tuple(k for k in Kind if k not in (Kind.PASS, Kind.BID))
# the kind of ``width`` cards of one rank, and of a run ``width`` cards wide (width 1..4)
SET_KINDS: dict[int, Kind] = {1: Kind.SINGLE, 2: Kind.PAIR, 3: Kind.TRIO, 4: Kind.QUAD}
RUN_KINDS: dict[int, Kind] = {1: Kind.RUN, 2: Kind.PAIR_RUN, 3: Kind.TRIO_RUN, 4: Kind.QUAD_RUN}
KIND_ORDER = {k: i for i, k in enumerate(Kind)}
WIDTH = {k: w for w in range(1, 5) for k in (SET_KINDS[w], RUN_KINDS[w])}


@dataclass(frozen=True, slots=True)
class Move:
    """An immutable move: the cards played (sorted low to high), their kind and strength.

    ``strength`` is the Da San rank (0 = ``4`` .. 12 = ``3``) of the top rank for plays, the
    amount for a bid, 0 for a pass. A pass has no cards; so does a bid.
    """

    cards: tuple[int, ...]
    kind: Kind
    strength: int

    @property
    def is_pass(self) -> bool:
        return self.kind is Kind.PASS

    @property
    def length(self) -> int:
        """Number of distinct ranks (1 for sets, 3+ for runs)."""
        w = WIDTH.get(self.kind)
        return len(self.cards) // w if w else 0

    @property
    def top(self) -> str | None:
        """Character of the top rank (``None`` for passes and bids)."""
        return RANK_ORDER[self.strength] if self.cards else None

    @property
    def labels(self) -> list[str]:
        return format_cards(self.cards)

    @property
    def amount(self) -> int | None:
        """The amount of a bid (``None`` for other moves)."""
        return self.strength if self.kind is Kind.BID else None

    def to_json(self) -> dict[str, Any]:
        """``{"cards": [...], "kind": ...}``, plus ``amount`` for a bid."""
        if self.kind is Kind.BID:
            return {"cards": [], "kind": "bid", "amount": self.strength}
        return {"cards": format_cards(self.cards), "kind": self.kind.value}

    def beats(self, other: Move | None) -> bool:
        """True if this play may follow ``other`` (``None`` or a pass: any play leads)."""
        if not self.cards:
            return False
        if other is None or not other.cards:
            return True
        return (self.kind is other.kind and len(self.cards) == len(other.cards)
                and self.strength > other.strength)

    def __str__(self) -> str:
        if self.kind is Kind.BID:
            return f"bid {self.strength}"
        return " ".join(self.labels) if self.cards else "pass"


PASS = Move((), Kind.PASS, 0)

# Building a frozen dataclass through its __init__ costs ~0.4 us; legal_moves builds dozens per
# call, so it fills the slots directly (same object, same equality and hash).
_new_object = object.__new__
# (the slots' descriptors, read from the class dictionary: ``Move.cards`` reads the same)
_set_cards = Move.__dict__["cards"].__set__
_set_kind = Move.__dict__["kind"].__set__
_set_strength = Move.__dict__["strength"].__set__


def _move(cards: tuple[int, ...], kind: Kind, strength: int) -> Move:
    m = _new_object(Move)
    _set_cards(m, cards)
    _set_kind(m, kind)
    _set_strength(m, strength)
    return m


def bid(amount: int) -> Move:
    """The auction move bidding ``amount`` (1-3)."""
    return Move((), Kind.BID, amount)


def parse_move(doc: Any, rules: DaSanRules = DEFAULT_RULES) -> Move:
    """The move a document stands for: ``move.to_json()`` output (a kind in any label style),
    or a text form: ``"pass"``, ``"bid 2"``, cards (``"4c 4d"``, a list of card strings or
    ids). A play's cards must be a combination, of the kind given if one is."""
    if isinstance(doc, Move):
        return doc
    if isinstance(doc, str):
        words = doc.strip().lower().split()
        if words in (["pass"], []):
            return PASS
        if words[0] == "bid":
            if len(words) != 2 or not words[1].isdigit():
                raise IllegalMoveError(f"a bid is written 'bid N' with N from 1 to {MAX_BID}, "
                                       f"got {doc!r}")
            return _bid_move(int(words[1]))
        return _play(card_ids(doc, "move"), None, rules)
    if isinstance(doc, (list, tuple)):
        return _play(card_ids(doc, "move"), None, rules) if doc else PASS
    if not isinstance(doc, Mapping):
        raise IllegalMoveError("a Da San move is {cards, kind} (and amount for a bid), 'pass', "
                               f"'bid N' or cards; got {type(doc).__name__}")
    unknown = sorted(str(k) for k in doc if k not in ("cards", "kind", "amount"))
    if unknown:
        raise IllegalMoveError(f"unknown field(s) of a Da San move: {', '.join(unknown)}; "
                               f"the fields are cards, kind, amount")
    kind = Kind.parse(doc["kind"]) if doc.get("kind") is not None else None
    cards = doc.get("cards") or ()
    if kind is Kind.BID or (kind is None and "amount" in doc):
        if cards:
            raise IllegalMoveError("a bid has no cards")
        return _bid_move(doc.get("amount"))
    if kind is Kind.PASS:
        if cards:
            raise IllegalMoveError("a pass has no cards")
        return PASS
    if not cards:
        if kind is None:
            return PASS
        raise IllegalMoveError(f"a {kind.label} needs cards")
    return _play(card_ids(cards, "move"), kind, rules)


def _bid_move(amount: Any) -> Move:
    if type(amount) is not int or not 1 <= amount <= MAX_BID:
        raise IllegalMoveError(f"a bid amount is 1 to {MAX_BID}, got {amount!r}")
    return bid(amount)


def _play(ids: tuple[int, ...], kind: Kind | None, rules: DaSanRules) -> Move:
    move = classify_ids(ids, rules)
    if move is None:
        raise IllegalMoveError(f"{' '.join(format_cards(sort_cards(ids)))} is not a Da San "
                               f"combination")
    if kind is not None and move.kind is not kind:
        raise IllegalMoveError(f"{' '.join(move.labels)} is a {move.kind.label}, not a {kind.label}")
    return move


def sort_cards(cards: Iterable[int]) -> tuple[int, ...]:
    """Cards in Da San order, low to high (suits c d h s within a rank)."""
    return tuple(sorted(cards, key=DS_KEY.__getitem__))


_DECK = frozenset(range(NUM_CARDS))
_INT = {int}


def card_ids(cards: Any, what: str = "cards") -> tuple[int, ...]:
    """Validated card ids from a string, a list of strings/ids, or a :class:`Move`."""
    if isinstance(cards, Move):
        return cards.cards
    if isinstance(cards, (tuple, list)) and cards:
        distinct = set(cards)
        if len(distinct) == len(cards) and distinct <= _DECK and set(map(type, cards)) == _INT:
            return tuple(cards)
    try:
        return tuple(parse_cards(cards))
    except CardError as exc:
        raise CardError([f"{what}: {p}" for p in exc.problems]) from None


def classify_ids(cards: tuple[int, ...], rules: DaSanRules = DEFAULT_RULES) -> Move | None:
    """The move that distinct card ids make, or ``None`` if they are no combination."""
    if not cards:
        return PASS
    counts = [0] * 13
    for c in cards:
        counts[DS_RANK[c]] += 1
    ranks = [d for d in range(13) if counts[d]]
    width = counts[ranks[0]]
    if any(counts[d] != width for d in ranks):
        return None
    lo, hi = ranks[0], ranks[-1]
    n = len(ranks)
    if n == 1:
        return Move(sort_cards(cards), SET_KINDS[width], hi)
    if n >= rules.min_run and hi - lo == n - 1 and hi <= RUN_TOP:
        return Move(sort_cards(cards), RUN_KINDS[width], hi)
    return None


def classify(cards: Any, rules: DaSanRules | Mapping[str, Any] | None = None) -> Move | None:
    """The move ``cards`` make (a pass if empty), or ``None`` when they are no combination."""
    return classify_ids(card_ids(cards, "cards"), DaSanRules.from_options(rules))


def group_by_rank(hand: Iterable[int]) -> list[tuple[int, ...]]:
    """The hand's cards by Da San rank (13 tuples, each sorted by suit)."""
    groups: list[list[int]] = [[] for _ in range(13)]
    for c in sorted(hand):
        groups[DS_RANK[c]].append(c)
    return [tuple(g) for g in groups]


def _run_slab(
    groups: list[tuple[int, ...]], width: int
) -> tuple[tuple[int, ...], list[int], list[tuple[int, int]]]:
    """Cards of every rank 4..K holding ``width`` cards, flattened, with each rank's offset
    and the maximal segments ``(lo, hi)`` of such ranks.

    A run of ``width`` over ranks ``lo..hi`` of one segment is then one slice of the slab.
    """
    flat: list[int] = []
    pos = [-1] * (RUN_TOP + 1)
    segments: list[tuple[int, int]] = []
    lo = -1
    for d in range(RUN_TOP + 1):
        g = groups[d]
        if len(g) >= width:
            pos[d] = len(flat)
            flat.extend(g[:width])
            if lo < 0:
                lo = d
        elif lo >= 0:
            segments.append((lo, d - 1))
            lo = -1
    if lo >= 0:
        segments.append((lo, RUN_TOP))
    return tuple(flat), pos, segments


def _expand(cards: tuple[int, ...], width: int, groups: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Every concrete card choice with the same rank pattern as ``cards``."""
    ranks = sorted({DS_RANK[c] for c in cards})
    choices = [list(combinations(groups[d], width)) for d in ranks]
    return [tuple(c for part in combo for c in part) for combo in product(*choices)]


def moves_from_groups(
    groups: list[tuple[int, ...]],
    current: Move | None = None,
    rules: DaSanRules = DEFAULT_RULES,
    all_suits: bool = False,
) -> list[Move]:
    """Legal moves of a hand given as :func:`group_by_rank` output (the engine's fast path).

    Leading: every combination, ordered by kind, number of cards, then strength. Following:
    the higher plays of ``current``'s kind and size, then the pass.
    """
    leading = current is None or not current.cards
    min_run = rules.min_run
    out: list[Move] = []
    if current is None or not current.cards:
        by_width: list[list[Move]] = [[], [], [], [], []]
        for d in range(13):
            g = groups[d]
            for w in range(1, len(g) + 1):
                by_width[w].append(_move(g[:w], SET_KINDS[w], d))
        out = by_width[1] + by_width[2] + by_width[3] + by_width[4]
        for width in range(1, 5):
            flat, pos, segments = _run_slab(groups, width)
            longest = max([hi - lo + 1 for lo, hi in segments], default=0)
            if longest < min_run:
                break  # a rank holding width+1 cards also holds width
            kind = RUN_KINDS[width]
            for n in range(min_run, longest + 1):
                size = n * width
                for lo, hi in segments:
                    for top in range(lo + n - 1, hi + 1):
                        p = pos[top - n + 1]
                        out.append(_move(flat[p:p + size], kind, top))
    else:
        width = WIDTH[current.kind]
        kind = current.kind
        if kind is SET_KINDS[width]:
            for d in range(current.strength + 1, 13):
                g = groups[d]
                if len(g) >= width:
                    out.append(_move(g[:width], kind, d))
        else:
            flat, pos, segments = _run_slab(groups, width)
            n = current.length
            size = n * width
            for lo, hi in segments:
                for top in range(max(lo + n - 1, current.strength + 1), hi + 1):
                    p = pos[top - n + 1]
                    out.append(_move(flat[p:p + size], kind, top))
    if all_suits:
        out = [_move(cards, m.kind, m.strength)
               for m in out for cards in _expand(m.cards, WIDTH[m.kind], groups)]
    if not leading:
        out.append(PASS)
    return out


def legal_moves(
    hand: Any,
    current: Any = None,
    rules: DaSanRules | Mapping[str, Any] | None = None,
    all_suits: bool = False,
) -> list[Move]:
    """Every legal move of ``hand`` on ``current`` (``None``: leading; the pass is last).

    By default one move per distinct rank pattern (the lowest suits of each rank); with
    ``all_suits`` every concrete choice of cards. ``current`` may be a :class:`Move` or cards;
    cards that are no combination raise :class:`IllegalMoveError`.
    """
    rules = DaSanRules.from_options(rules)
    ids = card_ids(hand, "hand")
    if not ids:
        raise CardError("hand: no cards")
    if len(ids) > MAX_HAND:
        raise CardError(f"hand: a Da San hand holds at most {MAX_HAND} cards, got {len(ids)}")
    cur = current_move(current, rules)
    if cur is not None and cur.cards and not set(cur.cards).isdisjoint(ids):
        shared = sort_cards(set(cur.cards) & set(ids))
        raise CardError(f"current: cards also in the hand: {' '.join(format_cards(shared))}")
    return moves_from_groups(group_by_rank(ids), cur, rules, all_suits)


def current_move(current: Any, rules: DaSanRules = DEFAULT_RULES) -> Move | None:
    """``current`` as a :class:`Move` (``None`` stays ``None``); no combination -> error."""
    if current is None:
        return None
    ids = card_ids(current, "current")
    move = classify_ids(ids, rules)
    if isinstance(current, Move) and move is not None \
            and (move.kind, move.strength) != (current.kind, current.strength):
        raise IllegalMoveError(f"current: {current} is a {move.kind}, not a {current.kind} "
                               f"of strength {current.strength}")
    if move is None:
        raise IllegalMoveError(
            f"current: {' '.join(format_cards(sort_cards(ids)))} is not a Da San combination")
    return move


def moves_result(hand: Any, current: Any = None, all_suits: bool = False,
                 rules: DaSanRules | Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The JSON-ready answer of ``capsa moves da-san`` and ``POST /v1/da-san/moves``."""
    moves = legal_moves(hand, current, rules, all_suits)
    return {"moves": [m.to_json() for m in moves if m.cards],
            "can_pass": any(m.is_pass for m in moves)}


def classify_result(cards: Any, rules: DaSanRules | Mapping[str, Any] | None = None
                    ) -> dict[str, Any]:
    """The JSON-ready answer of ``POST /v1/da-san/classify`` (``kind`` null: no combination)."""
    ids = card_ids(cards, "cards")
    move = classify_ids(ids, DaSanRules.from_options(rules))
    if move is None:
        return {"cards": format_cards(sort_cards(ids)), "kind": None, "strength": None, "top": None}
    return {"cards": move.labels, "kind": move.kind.label,
            "strength": move.strength if move.cards else None, "top": move.top}
