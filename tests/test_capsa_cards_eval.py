"""Cards and the evaluator: parsing errors, the shared strength scale, all 2,598,960 hands."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from capsa_reference import row_key
from hypothesis import given
from hypothesis import strategies as st

from solver.cards import Card, CardError, format_cards, parse_cards
from solver.games.capsa.evaluate import (
    HandKind,
    hand_kind,
    row_strength,
    strengths5,
    subset_strengths,
)
from solver.games.capsa.lookup import COMB3, COMB5, RANK_KEYS, TABLES

# phevaluator's ranks (1 = royal flush .. 7462 = 7-5-4-3-2) of the 5-high straight flush and
# of the 5-high straight, and of the A-high ones: the wheel's place is the one rule that moves
PH_WHEEL_STRAIGHT_FLUSH, PH_ROYAL_FLUSH = 10, 1
PH_WHEEL_STRAIGHT, PH_ACE_HIGH_STRAIGHT = 1609, 1600


@pytest.mark.parametrize("text, ids", [
    ("As Kd", [51, 45]),
    ("AS,kd", [51, 45]),
    ("10h Th", None),  # duplicate
    ("♠A ♥10", [51, 34]),
    ("A♠ 10♥", [51, 34]),
    (["2c", "3d"], [0, 5]),
])
def test_parse_forms(text, ids):
    if ids is None:
        with pytest.raises(CardError, match="duplicate card 'Th'"):
            parse_cards(text)
    else:
        assert parse_cards(text) == ids


def test_errors_name_each_token():
    with pytest.raises(CardError) as exc:
        parse_cards("As Xx 11h As Kd", count=13)
    assert exc.value.problems == ["unknown card 'Xx'", "unknown card '11h'", "duplicate card 'As'"]
    with pytest.raises(CardError, match="expected 13 cards, got 2"):
        parse_cards("As Kd", count=13)
    with pytest.raises(CardError, match="unknown card 'BJ'"):
        parse_cards("BJ")
    assert parse_cards("BJ sj", allow_jokers=True) == [53, 52]
    assert isinstance(CardError("x"), ValueError)


@given(st.lists(st.integers(0, 51), unique=True, max_size=13))
def test_format_parse_round_trip(ids):
    assert parse_cards(format_cards(ids)) == ids
    assert [Card.from_id(i).id for i in ids] == ids


def test_rank_keys_identify_every_multiset():
    from scripts.gen_rank_keys import (
        find_keys,  # the generator reproduces the shipped keys
    )

    assert tuple(find_keys()) == RANK_KEYS


@pytest.mark.parametrize("front, middle, foul", [
    ("8c 8d 8h", "7s 7c 7d As Kd", True),
    ("Kc Kd Ac", "Ks Kh Qd Jc Tc", True),
    ("Ac Kd Qh", "As Ks Qc Jh 9d", False),
    ("Qc Qd 5h", "Qs Qh 5d 4c 3c", False),
])
def test_rules_file_foul_examples(front, middle, foul):
    assert (row_strength(front) > row_strength(middle)) is foul


def test_equal_front_and_middle_is_not_a_foul():
    # front Q-Q-5 vs middle Q-Q-5 with kickers: the front's missing kickers count lowest
    assert row_strength("Qc Qd 5h") < row_strength("Qs Qh 5d 2c 3c")
    assert row_strength("Ac Kd Qh") < row_strength("As Ks Qc 2h 3d")


@pytest.mark.parametrize("cards, kind", [
    ("2c 5d 9h Js Kc", HandKind.HIGH_CARD), ("2c 2d 9h Js Kc", HandKind.PAIR),
    ("2c 2d 9h 9s Kc", HandKind.TWO_PAIR), ("2c 2d 2h Js Kc", HandKind.TRIPS),
    ("As 2d 3h 4s 5c", HandKind.STRAIGHT), ("2c 5c 9c Jc Kc", HandKind.FLUSH),
    ("2c 2d 2h Ks Kc", HandKind.FULL_HOUSE), ("2c 2d 2h 2s Kc", HandKind.QUADS),
    ("9h Th Jh Qh Kh", HandKind.STRAIGHT_FLUSH), ("Th Jh Qh Kh Ah", HandKind.ROYAL_FLUSH),
    ("2c 2d 2h", HandKind.TRIPS), ("2c 2d Ah", HandKind.PAIR), ("2c 3c 4c", HandKind.HIGH_CARD),
])
def test_kinds(cards, kind):
    assert hand_kind(row_strength(cards)) == kind


def test_front_has_no_straight_or_flush():
    assert row_strength("2c 3c 4c") < row_strength("2d 2h 3s")


def test_wheel_option():
    wheel, six_high = "As 2d 3h 4s 5c", "2c 3d 4h 5s 6c"
    k_high, a_high = "9c Td Jh Qs Kc", "Tc Jd Qh Ks Ac"
    assert row_strength(wheel) < row_strength(six_high)
    second = [row_strength(c, wheel="second") for c in (six_high, k_high, wheel, a_high)]
    assert second == sorted(second) and len(set(second)) == 4
    # straight flushes follow the same window order
    assert (row_strength("Ah 2h 3h 4h 5h", wheel="second")
            > row_strength("9h Th Jh Qh Kh", wheel="second"))


@given(st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True))
def test_subset_strengths_match_reference_order(hand):
    hand = np.array(hand)
    v5, v3 = subset_strengths(hand)
    keys5 = [row_key(tuple(hand[c])) for c in COMB5]
    keys3 = [row_key(tuple(hand[c])) for c in COMB3]
    values = np.concatenate([v5, v3])
    keys = keys5 + keys3
    order = sorted(range(len(keys)), key=lambda i: keys[i])
    for i, j in zip(order, order[1:]):
        assert (values[i] < values[j]) == (keys[i] < keys[j])
        assert (values[i] == values[j]) == (keys[i] == keys[j])


@pytest.fixture(scope="module")
def all_five_card_hands() -> np.ndarray:
    return np.array(list(combinations(range(52), 5)), dtype=np.int8)


@pytest.fixture(scope="module")
def phevaluator_ranks(all_five_card_hands) -> np.ndarray:
    """Every hand's rank by phevaluator (PokerHandEvaluator, an independent evaluator; same
    card ids: rank * 4 + suit). A hand's rank depends only on its ranks and whether it is a
    flush, so phevaluator rates one hand of each such shape (7,462 of them) and the rest take
    its answer; a sample of hands rated one by one checks that shortcut."""
    from phevaluator import evaluate_cards

    hands = all_five_card_hands.astype(np.int64)
    ranks = np.sort(hands // 4, axis=1)
    flush = np.all(hands % 4 == hands[:, :1] % 4, axis=1)
    shape = (ranks @ 13 ** np.arange(5)) * 2 + flush
    _, first, back = np.unique(shape, return_index=True, return_inverse=True)
    rated = np.array([evaluate_cards(*map(int, hands[i])) for i in first], dtype=np.int64)
    out = rated[back.ravel()]
    sample = np.random.default_rng(5).choice(len(hands), 20_000, replace=False)
    assert [evaluate_cards(*map(int, hands[i])) for i in sample] == out[sample].tolist()
    return out


def reference_strength(ph: np.ndarray, wheel: str) -> np.ndarray:
    """phevaluator's order as "larger is stronger"; with ``wheel="second"`` the rules file puts
    A-2-3-4-5 just below T-J-Q-K-A (straights and straight flushes alike), i.e. between the
    A-high and the K-high rank, at half steps."""
    key = -2 * ph
    if wheel == "second":
        key = np.where(ph == PH_WHEEL_STRAIGHT, -2 * PH_ACE_HIGH_STRAIGHT - 1, key)
        key = np.where(ph == PH_WHEEL_STRAIGHT_FLUSH, -2 * PH_ROYAL_FLUSH - 1, key)
    return key


@pytest.mark.parametrize("wheel", ["lowest", "second"])
def test_every_hand_is_ordered_as_an_independent_evaluator_orders_it(
        all_five_card_hands, phevaluator_ranks, wheel):
    """All 2,598,960 hands: our strengths and the reference's sort them the same way, ties
    included (rank-order agreement: the distinct (ours, theirs) pairs, sorted by ours, are
    strictly increasing in theirs and one per distinct value of each)."""
    ours = strengths5(all_five_card_hands, wheel).astype(np.int64)
    theirs = reference_strength(phevaluator_ranks, wheel)
    pairs = np.unique(np.stack([ours, theirs], axis=1), axis=0)  # sorted by ours
    assert len(pairs) == 7462 == len(np.unique(ours)) == len(np.unique(theirs))
    assert np.all(np.diff(pairs[:, 0]) > 0) and np.all(np.diff(pairs[:, 1]) > 0)
    # the class counts every poker reference gives
    kinds = TABLES[wheel].kind[ours]
    counts = np.bincount(kinds, minlength=10)
    assert counts.tolist() == [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 36, 4]
