"""Every split: the kernel's count against plain-Python enumeration."""

from __future__ import annotations

import numpy as np
import pytest
from capsa_reference import count_valid, is_valid
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import parse_cards
from solver.errors import CardError, RulesError
from solver.games.capsa.lookup import N_ORDERED_SPLITS, SPLIT_PAIRS
from solver.games.capsa.rules import resolve_rules
from solver.games.capsa.splits import (
    Arrangement,
    all_valid_splits,
    is_foul,
    parse_hand,
    unpack_split,
    valid_arrangements,
    valid_arrangements_many,
)

hands = st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True)


def test_split_table_covers_every_ordered_split_once():
    assert N_ORDERED_SPLITS == 72072 and len(SPLIT_PAIRS) == 36036
    a, b, f = SPLIT_PAIRS & 2047, (SPLIT_PAIRS >> 11) & 2047, SPLIT_PAIRS >> 22
    assert np.all(a < b) and f.max() == 285 and b.max() == 1286
    assert len(set(zip(a.tolist(), b.tolist()))) == 36036


@settings(max_examples=12)
@given(hands, st.sampled_from(["lowest", "second"]))
def test_count_matches_brute_force(hand, wheel):
    assert valid_arrangements(hand, {"wheel": wheel}) == count_valid(hand, wheel)


CRAFTED = {
    "wheel and straights": "As 2d 3h 4s 5c 6c 7d 8h 9s Tc Jd Qh Ks",
    "quads": "As Ad Ah Ac Kd Kh 2s 3c 5d 7h 9s Jc Qd",
    "two flushes": "2h 5h 7h 9h Jh 3s 6s 8s Ts Qs Ac Kd 4c",
    "13-card flush": "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As",
    "foul example trips front": "8c 8d 8h 7s 7c 7d As Kd 2c 3d 4h 5s 9c",
    "foul example pair front": "Kc Kd Ac Ks Kh Qd Jc Tc 2s 3d 4h 5s 7c",
    "valid example high front": "Ac Kd Qh As Ks Qc Jh 9d 2s 3d 4h 5c 7s",
    "valid example pair front": "Qc Qd 5h Qs Qh 5d 4c 3c 2s 7d 8h 9s Js",
    "three pairs of trips": "2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 5h 6s",
}


@pytest.mark.parametrize("name", sorted(CRAFTED))
@pytest.mark.parametrize("wheel", ["lowest", "second"])
def test_crafted_hands(name, wheel):
    hand = parse_cards(CRAFTED[name])
    assert valid_arrangements(hand, {"wheel": wheel}) == count_valid(hand, wheel)


def test_rules_file_foul_examples_as_arrangements():
    assert is_foul(Arrangement.parse("8c 8d 8h", "7s 7c 7d As Kd", "Qs Qh Qd 2c 2d"))
    assert is_foul(Arrangement.parse("Kc Kd Ac", "Ks Kh Qd Jc Tc", "As Ad Ah 2c 2d"))
    assert not is_foul(Arrangement.parse("Ac Kd Qh", "As Ks Qc Jh 9d", "2s 2d 2h 3c 3d"))
    assert not is_foul(Arrangement.parse("Qc Qd 5h", "Qs Qh 5d 4c 3c", "2s 2d 2h 3h 3d"))


@settings(max_examples=8)
@given(hands)
def test_listed_splits_are_exactly_the_valid_ones(hand):
    h = parse_hand(hand)
    packed, _, _ = all_valid_splits(h, resolve_rules())
    arrs = {unpack_split(h, int(p)) for p in packed}
    assert len(arrs) == len(packed) == valid_arrangements(hand)
    for arr in list(arrs)[:300]:
        assert is_valid(arr.front, arr.middle, arr.back)


def test_batch_count_equals_single():
    rng = np.random.default_rng(5)
    many = np.array([rng.permutation(52)[:13] for _ in range(50)])
    assert valid_arrangements_many(many).tolist() == [valid_arrangements(h.tolist()) for h in many]


def test_never_zero_and_bad_input():
    rng = np.random.default_rng(9)
    counts = valid_arrangements_many(np.array([rng.permutation(52)[:13] for _ in range(2000)]))
    assert counts.min() > 0
    with pytest.raises(CardError, match="expected 13 cards, got 12"):
        valid_arrangements("As Kd Qh Jc Tc 9s 8s 7h 6d 5c 4c 3d")
    with pytest.raises(RulesError, match="unknown rules preset 'nope'"):
        valid_arrangements(CRAFTED["quads"], "nope")
