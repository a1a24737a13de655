"""``known``: the exact best response to given opponents, their arrangements or their 13
cards (set by the ``table`` strategy); equal to what the referee scores."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

import numpy as np

from solver.cards import format_cards
from solver.errors import CardError, InputError
from solver.games.capsa.methods.exact import OpponentRows
from solver.games.capsa.referee import make_seat, royalty_units
from solver.games.capsa.rules import Rules
from solver.games.capsa.splits import parse_hand
from solver.games.capsa.strategy.play import natural_codes, table_play
from solver.games.capsa.strategy.tables import NATURAL_BY_CODE, StrategyTables

MAX_KNOWN_OPPONENTS = 3

Hand = str | Iterable[object]


class _Given(NamedTuple):
    """One given opponent: its cards and what exact scoring reads of it."""

    cards: np.ndarray
    rows: tuple[int, int, int]
    royalties: tuple[int, int, int]
    foul: bool
    natural: int


def _from_hand(o: int, item: Hand, rules: Rules, st: StrategyTables | None) -> _Given:
    """An opponent given by its 13 cards: a natural it holds, else set by the table strategy."""
    try:
        cards = parse_hand(item)
    except CardError as exc:
        raise CardError([f"opponent {o}: {p}" for p in exc.problems]) from None
    code = int(natural_codes(cards[None, :])[0]) if rules.naturals_on else 0
    natural = rules.natural_units(NATURAL_BY_CODE[code]) if code else 0
    _, _, r = table_play(cards[None, :], rules, st)
    f, m, b = (int(x) for x in r[0])
    return _Given(cards, (f, m, b), royalty_units((f, m, b), rules), False, natural)


def _from_arrangement(o: int, item: object, rules: Rules) -> _Given:
    """An opponent given by its arrangement, scored as the referee seats it."""
    if not isinstance(item, Mapping):
        raise InputError(f"opponent {o}: an arrangement is an object with front, "
                         "middle and back")
    seat = make_seat(item, rules, o)
    if seat.arrangement is None:
        raise InputError(f"opponent {o}: give front, middle and back")
    return _Given(np.array(seat.cards), seat.strengths, seat.royalties, seat.foul, 0)


def known_opponents(hand: np.ndarray, rules: Rules, opponent_hands: Sequence[Hand] | None,
                    opponent_arrangements: Sequence[Mapping[str, object]] | None,
                    st: StrategyTables | None = None) -> OpponentRows:
    """The given opponents as one deal of exact-scoring rows; :class:`CardError` when a card
    is in two hands, :class:`InputError` for anything else wrong with them."""
    if (opponent_hands is None) == (opponent_arrangements is None):
        raise InputError("method 'known' needs exactly one of opponent_hands or "
                         "opponent_arrangements")
    count = len(opponent_hands if opponent_hands is not None
                else opponent_arrangements or ())
    if not 1 <= count <= MAX_KNOWN_OPPONENTS:
        raise InputError(f"give 1 to {MAX_KNOWN_OPPONENTS} opponents, got {count}")
    if opponent_hands is not None:
        given = [_from_hand(o, h, rules, st) for o, h in enumerate(opponent_hands)]
    else:
        given = [_from_arrangement(o, a, rules) for o, a in enumerate(opponent_arrangements or ())]
    rows = np.zeros((1, count, 3), dtype=np.int64)
    roy = np.zeros((1, count, 3), dtype=np.int64)
    foul = np.zeros((1, count), dtype=np.bool_)
    nat = np.zeros((1, count), dtype=np.int64)
    used = {int(c): "your hand" for c in hand}
    problems = []
    for o, g in enumerate(given):
        rows[0, o], roy[0, o], foul[0, o], nat[0, o] = g.rows, g.royalties, g.foul, g.natural
        for c in g.cards:
            if int(c) in used:
                problems.append(f"card {format_cards([int(c)])[0]!r} of opponent {o} is also in "
                                f"{used[int(c)]}")
            used.setdefault(int(c), f"opponent {o}'s hand")
    if problems:
        raise CardError(problems)
    return rows, roy, foul, nat
