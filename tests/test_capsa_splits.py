"""Every split: the kernel's count against plain-Python enumeration."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from capsa_reference import count_valid, is_valid
from hypothesis import given, settings
from hypothesis import strategies as st

from solver._jit import njit
from solver.cards import parse_cards
from solver.errors import CardError, RulesError
from solver.games.capsa import kernels as K
from solver.games.capsa.encoding import (
    pack_choice,
    pack_split,
    rank_of,
    split_back,
    split_front,
    split_middle,
    suit_of,
)
from solver.games.capsa.evaluate import subset_strengths, tables
from solver.games.capsa.kernels.bits import pext, pext_loop
from solver.games.capsa.kernels.splits import ALL_CARDS, lone_cards
from solver.games.capsa.lookup import (
    COMB5,
    FRONT_PAIRS,
    FRONT_SEGMENTS,
    INDEX3,
    MASK5,
    N_ORDERED_SPLITS,
    SPLIT_PAIRS,
    TABLES,
)
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
    a, b, f = split_back(SPLIT_PAIRS), split_middle(SPLIT_PAIRS), split_front(SPLIT_PAIRS)
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
    "three quads": "As Ad Ah Ac Ks Kd Kh Kc Qs Qd Qh Qc 2c",
    "six pairs": "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d As",
    "six pairs in two suits": "2h 2s 5h 5s 7h 7s 9h 9s Jh Js Kh Ks Ac",
    "five pairs, wheel ranks": "Ac Ad 2c 2d 3c 3d 4h 4s 5h 5s 9c Td Jh",
    "two suits": "2h 3h 4h 5h 6h 7h 8s 9s Ts Js Qs Ks As",
    "two suits, paired": "2h 2s 3h 3s 4h 4s 5h 5s 6h 6s 7h 7s 8h",
    "quads and a flush": "9c 9d 9h 9s 2h 4h 6h 8h Th Qh Ah 3c 5d",
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
    hands = np.array([rng.permutation(52)[:13] for _ in range(2000)])
    counts = valid_arrangements_many(hands)
    assert counts.min() > 0
    # the hands with the fewest and the most valid splits are counted right: brute force
    for i in (int(counts.argmin()), int(counts.argmax())):
        assert counts[i] == count_valid([int(c) for c in hands[i]]), hands[i]
    with pytest.raises(CardError, match="expected 13 cards, got 12"):
        valid_arrangements("As Kd Qh Jc Tc 9s 8s 7h 6d 5c 4c 3d")
    with pytest.raises(RulesError, match="unknown rules preset 'nope'"):
        valid_arrangements(CRAFTED["quads"], "nope")


# ---------------------------------------------------------------- the bitset count
def _fast_count(hand: list[int], wheel: str) -> int:
    """The count through the bitset kernels (whatever ``valid_arrangements`` picks on this
    CPU): pairs with both rows at least the front, then the tied pairs' second order."""
    ids = np.array(hand, dtype=np.int64)
    v5, v3 = subset_strengths(ids, wheel)
    n = K.count_unfouled_pairs(v5, v3, tables(wheel).front_count, FRONT_SEGMENTS)
    lone = lone_cards(ids)
    return int(n) + (0 if lone == ALL_CARDS else int(K.count_tied_pairs(v5, v3, MASK5, INDEX3,
                                                                         lone)))


def _every_pair_count(hand: list[int], wheel: str) -> int:
    v5, v3 = subset_strengths(np.array(hand, dtype=np.int64), wheel)
    return int(K.count_valid(v5, v3, FRONT_PAIRS))


# hands that tie and flush far more often than random ones: few ranks, or few suits
few_ranks = st.lists(st.integers(0, 12), min_size=4, max_size=7, unique=True).flatmap(
    lambda ranks: st.lists(st.sampled_from([r * 4 + u for r in ranks for u in range(4)]),
                           min_size=13, max_size=13, unique=True))
few_suits = st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True).flatmap(
    lambda suits: st.lists(st.sampled_from([r * 4 + u for r in range(13) for u in suits]),
                           min_size=13, max_size=13, unique=True))
wheels = st.sampled_from(["lowest", "second"])


@settings(max_examples=30)
@given(st.one_of(hands, few_ranks, few_suits), wheels)
def test_bitset_count_matches_brute_force(hand, wheel):
    """The bitset count (pairs 64 at a time, ties apart) and the kernel that reads every pair
    against plain enumeration."""
    expected = count_valid(hand, wheel)
    assert _fast_count(hand, wheel) == expected
    assert _every_pair_count(hand, wheel) == expected
    assert valid_arrangements(np.array(hand), {"wheel": wheel}) == expected


def _random_hands(rng: np.random.Generator, n: int, ranks: int = 13, suits: int = 4) -> np.ndarray:
    """``n`` hands of 13 distinct cards drawn from ``ranks`` random ranks and ``suits`` suits."""
    out = np.empty((n, 13), dtype=np.int64)
    for i in range(n):
        rs = rng.choice(13, ranks, replace=False)
        us = rng.choice(4, suits, replace=False)
        pool = (rs[:, None] * 4 + us[None, :]).ravel()
        out[i] = rng.choice(pool, 13, replace=False)
    return out


@pytest.mark.parametrize("wheel", ["lowest", "second"])
def test_bitset_count_matches_every_pair_count_on_many_hands(wheel):
    """Thousands of hands, tie- and flush-heavy ones among them, against the kernel that reads
    every pair (itself checked against plain enumeration above)."""
    rng = np.random.default_rng(17)
    many = np.concatenate([_random_hands(rng, 3000), _random_hands(rng, 600, ranks=4),
                           _random_hands(rng, 600, ranks=5), _random_hands(rng, 600, ranks=7),
                           _random_hands(rng, 400, suits=1), _random_hands(rng, 600, suits=2),
                           _random_hands(rng, 300, ranks=7, suits=2)])
    expected = [_every_pair_count(h.tolist(), wheel) for h in many]
    assert valid_arrangements_many(many, {"wheel": wheel}).tolist() == expected
    assert [valid_arrangements(h, {"wheel": wheel}) for h in many[::7]] == expected[::7]
    assert [_fast_count(h.tolist(), wheel) for h in many[::13]] == expected[::13]


@njit
def _pext_both(xs, ms, out):
    for i in range(xs.shape[0]):
        out[i, 0] = pext(xs[i], ms[i])
        out[i, 1] = pext_loop(xs[i], ms[i])


def test_pext_packs_the_selected_bits_in_order():
    """The instruction (where ``FAST_PEXT``) and the loop against the definition."""
    rng = np.random.default_rng(3)
    xs = rng.integers(0, 2**64, 500, dtype=np.uint64, endpoint=False)
    ms = rng.integers(0, 2**64, 500, dtype=np.uint64, endpoint=False)
    ms &= rng.integers(0, 2**64, 500, dtype=np.uint64, endpoint=False)  # sparser masks too
    ms[:3] = [0, 2**64 - 1, 1 << 63]
    out = np.empty((500, 2), dtype=np.uint64)
    _pext_both(xs, ms, out)
    for x, m, (hw, loop) in zip(xs.tolist(), ms.tolist(), out.tolist()):
        bits = [(x >> b) & 1 for b in range(64) if (m >> b) & 1]
        assert hw == loop == sum(bit << k for k, bit in enumerate(bits))


def test_front_segments_hold_each_front_pair_once():
    """Decoding the segments (j-th bit of one word with the j-th of the other) gives back every
    front's 126 pairs, each once."""
    seen = []
    for ma, mb, words, f in FRONT_SEGMENTS.tolist():
        wa, wb = words & 255, (words >> 8) - 21
        a = [64 * wa + b for b in range(64) if (ma >> b) & 1]
        r = [64 * wb + b for b in range(64) if (mb >> b) & 1]
        assert len(a) == len(r) and 0 <= wa < 21 and 0 <= wb < 21
        seen += [(f, x, len(COMB5) - 1 - y) for x, y in zip(a, r)]
    expected = [(f, q & 0xFFFF, q >> 16) for f, row in enumerate(FRONT_PAIRS.tolist()) for q in row]
    assert sorted(seen) == sorted(expected) and len(set(seen)) == 36036


@pytest.mark.parametrize("wheel", ["lowest", "second"])
def test_front_count_compares_rows_with_fronts_like_strengths(wheel):
    """No 5-card row has a front's strength, so the count of front strengths at or below a
    strength orders rows against fronts as the strengths do."""
    t = TABLES[wheel]
    fives = np.unique(np.concatenate([t.rank5[t.rank5 >= 0], t.flush5[t.flush5 >= 0]]))
    fronts = np.unique(t.rank3[t.rank3 >= 0])
    assert not np.intersect1d(fives, fronts).size
    assert len(fronts) == int(t.front_count[-1]) == 455
    c = t.front_count.astype(np.int64)
    assert np.array_equal(fives[:, None] < fronts[None, :],
                          c[fives][:, None] < c[fronts][None, :])


def test_lone_cards():
    lone = lone_cards(np.array(parse_cards(CRAFTED["six pairs"]), dtype=np.int64))
    assert lone == 1 << 12  # As, the 13th card
    assert lone_cards(np.array(parse_cards(CRAFTED["three pairs of trips"]), dtype=np.int64)) \
        == ALL_CARDS  # four pairs only: nothing ties
    assert lone_cards(np.arange(0, 52, 4, dtype=np.int64)) == ALL_CARDS


def test_int_arrays_are_checked():
    good = np.array(parse_cards(CRAFTED["quads"]))
    assert valid_arrangements(good.astype(np.int32)) == valid_arrangements(CRAFTED["quads"])
    assert valid_arrangements(good[::-1]) == valid_arrangements(good)
    with pytest.raises(CardError, match="duplicate"):
        valid_arrangements(np.array([0] * 2 + list(range(2, 13))))
    with pytest.raises(CardError):
        valid_arrangements(np.array(list(range(12)) + [52]))
    with pytest.raises(CardError):
        valid_arrangements(np.array(list(range(12)) + [-1]))


def test_cpu_without_pext_counts_the_same(tmp_path):
    """Compiled for a CPU without BMI2 (``NUMBA_CPU_NAME=generic``), ``valid_arrangements``
    reads every pair instead, with the same answers."""
    rng = np.random.default_rng(23)
    many = np.concatenate([_random_hands(rng, 40), _random_hands(rng, 20, ranks=5),
                           _random_hands(rng, 20, suits=2)])
    code = ("import json, sys; import numpy as np; "
            "from solver.games.capsa.kernels.bits import FAST_PEXT; "
            "from solver.games.capsa.splits import valid_arrangements, valid_arrangements_many; "
            "h = np.array(json.load(sys.stdin)); "
            "print(json.dumps([FAST_PEXT, [valid_arrangements(x, {'wheel': w}) for x in h "
            "for w in ('lowest', 'second')], valid_arrangements_many(h).tolist()]))")
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(NUMBA_CPU_NAME="generic", NUMBA_CACHE_DIR=str(tmp_path))
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run([sys.executable, "-c", code], input=json.dumps(many.tolist()),
                          capture_output=True, text=True, env=env, cwd=root, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    fast_pext, singles, batch = json.loads(proc.stdout)
    assert fast_pext is False
    assert singles == [valid_arrangements(x, {"wheel": w}) for x in many
                       for w in ("lowest", "second")]
    assert batch == valid_arrangements_many(many).tolist()


def test_packed_split_layout_is_the_documented_one():
    """The helpers against the layout written as arithmetic (11-bit fields: back, middle,
    front), and the subsets they name against the hand."""
    assert pack_split(5, 7, 9) == 5 + 7 * 2048 + 9 * 2048 ** 2
    assert pack_choice(7, 9) == 7 + 9 * 2048
    p = np.array([pack_split(1286, 0, 285), pack_split(0, 1286, 0)])
    assert split_back(p).tolist() == [1286, 0] and split_middle(p).tolist() == [0, 1286]
    assert split_front(p).tolist() == [285, 0]
    hand = np.arange(13) * 4  # 2c 3c ... Ac
    arr = unpack_split(hand, pack_split(1286, 0, 285))
    assert arr.back == (32, 36, 40, 44, 48)  # the last five positions: the last 5-subset
    assert arr.middle == (0, 4, 8, 12, 16) and arr.front == (40, 44, 48)
    # a card id is rank * 4 + suit (As is 51: ace, spades), on ints and arrays alike
    assert (rank_of(51), suit_of(51), rank_of(0), suit_of(6)) == (12, 3, 0, 2)
    assert rank_of(np.array([51, 4])).tolist() == [12, 1]
