"""The lazy card-removal search (exact terms only where its bounds cannot decide) equals the
full scoring of every valid split under the hand's own tables, and the eager search it
replaces, answer for answer."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_capsa_search import RULE_SETS, hands13

import solver.games.capsa.search as search_mod
from solver import arrange
from solver.games.capsa import kernels as K
from solver.games.capsa.encoding import split_back, split_front, split_middle
from solver.games.capsa.kernel_args import kernel_params
from solver.games.capsa.lookup import CARD_WORD, COMB3, COMB5, SPLIT_PAIRS, TABLES
from solver.games.capsa.prepared import prepare
from solver.games.capsa.rules import resolve_rules
from solver.games.capsa.search import hand_tables, search_top
from solver.games.capsa.strategy.play import deal
from solver.games.capsa.strategy.tables import tables_for


def _full_top(hand, rules, st, k):
    """Every valid split scored with the hand's own tables; the best ``k`` distinct
    row-strength triples as (-value, smallest packed split, rows)."""
    t = TABLES[rules.wheel]
    scoring, bonus, net, single = kernel_params(rules)
    v5 = np.empty(len(COMB5), dtype=np.int32)
    v3 = np.empty(len(COMB3), dtype=np.int32)
    packed = np.empty(2 * len(SPLIT_PAIRS), dtype=np.int64)
    values = np.empty(2 * len(SPLIT_PAIRS))
    ht = hand_tables(prepare(rules, st), hand)
    K.subset_strengths(hand, CARD_WORD, t.rank5, t.flush5, t.rank3, v5, v3)
    n = K.table_valid_evs(v5, v3, SPLIT_PAIRS, ht.pw, ht.pt, ht.lr, ht.roy, scoring, bonus,
                          net, single, ht.joint_grid, packed, values)
    best: dict[tuple, tuple] = {}
    for p, v in zip(packed[:n].tolist(), values[:n].tolist()):
        key = (int(v3[split_front(p)]), int(v5[split_middle(p)]), int(v5[split_back(p)]))
        best[key] = min(best.get(key, (-v, p)), (-v, p))
    return sorted((nv, p, key) for key, (nv, p) in best.items())[:k]


def _got(top, i):
    return [(-float(top.ev[i, j]), int(top.split[i, j]), tuple(int(x) for x in top.rows[i, j]))
            for j in range(int(top.found[i]))]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=hands13, spec=st.sampled_from(RULE_SETS), k=st.integers(1, 9))
def test_lazy_top_k_is_the_full_search(hand, spec, k):
    rules = resolve_rules(spec)
    st_ = tables_for(rules)
    assert st_.removal is not None
    top = search_top(hand[None, :], prepare(rules, st_), k, kernel="lazy")
    assert _got(top, 0) == _full_top(hand, rules, st_, k)


@pytest.mark.parametrize("spec", RULE_SETS, ids=str)
@pytest.mark.parametrize("k", [1, 4])
def test_lazy_equals_eager_on_many_hands(spec, k):
    """Splits, values, rows, counts and odds equal the eager search's, bit for bit, on hands
    dealt at random and hands of few ranks (many pairs and trips: the clamp and the caps at
    work)."""
    rules = resolve_rules(spec)
    st_ = tables_for(rules)
    rng = np.random.default_rng(31)
    hands = deal(rng, 300).reshape(-1, 13)
    few = [np.sort(rng.choice(np.concatenate([r * 4 + np.arange(4)
                                              for r in rng.choice(13, 5, replace=False)]),
                              13, replace=False)) for _ in range(60)]
    hands = np.concatenate([hands, np.array(few, dtype=np.int64)])
    lazy = search_top(hands, prepare(rules, st_), k, kernel="lazy")
    eager = search_top(hands, prepare(rules, st_), k, kernel="eager")
    for name, a, b in zip(lazy._fields, lazy, eager):
        np.testing.assert_array_equal(a, b, err_msg=name)


def test_cheap_bounds_hold_for_every_strength_a_hand_holds():
    """The bounds the lazy search starts from are bounds: for hands missing every possible
    number of ranks, each row's cheap separable value and win chance are at least, and its
    loss chance at most, the exact terms of the hand's tables."""
    rng = np.random.default_rng(3)
    for spec in ["two-four", "standard", {"preset": "standard", "royalty_mode": "net"},
                 RULE_SETS[7]]:
        rules = resolve_rules(spec)
        st_ = tables_for(rules)
        _, gsep, slab, _ = prepare(rules, st_).lazy_model
        t = TABLES[rules.wheel]
        net = rules.royalty_mode == "net"
        hands = [np.sort(rng.choice(52, 13, replace=False)) for _ in range(20)]
        hands += [np.sort(rng.choice(np.concatenate([r * 4 + np.arange(4) for r in ranks]), 13,
                                     replace=False))
                  for ranks in (rng.choice(13, n, replace=False) for n in [4, 5, 6, 7] * 3)]
        for hand in hands:
            ht = hand_tables(prepare(rules, st_), hand)
            counts = np.bincount(hand // 4, minlength=13)
            m = int((counts == 0).sum())
            a = st_.alpha * (counts - 1.0)
            if st_.suit is not None:  # each suit's count adds its term once
                a = np.concatenate([a, np.bincount(np.bincount(hand % 4, minlength=4),
                                                   minlength=14)])
            for r in range(3):
                allowed = t.is_front if r == 0 else ~t.is_front
                w, tie = ht.pw[r], ht.pt[r]
                x = 1.0 - w - tie
                sep = (2 * w + tie - 1 + st_.roy[r] if net
                       else w - x + st_.roy[r] * w - ht.lr[r])
                cheap = slab[m, r, :, 0] + gsep[r, :, :len(a)].astype(np.float64) @ a
                w_hi = slab[m, r, :, 1].astype(np.float64)
                x_lo = np.maximum(0.0, np.minimum(slab[m, r, :, 2], 1.0 - w_hi))
                assert (cheap[allowed] >= sep[allowed]).all()
                assert (w_hi[allowed] >= w[allowed]).all()
                assert (x_lo[allowed] <= x[allowed]).all()


def test_scratch_serves_one_hand_only():
    """The lazy search keeps each hand's exact terms and back caps in scratch shared by every
    call on the thread; the same hands one by one, between other rules' calls, give the
    answers of one batch call."""
    rules, other = resolve_rules("standard"), resolve_rules("two-four")
    hands = deal(np.random.default_rng(12), 25).reshape(-1, 13)
    batch = search_top(hands, prepare(rules), k=3)
    for i, hand in enumerate(hands):
        search_top(hands[(i + 5) % len(hands)][None], prepare(other), k=2)
        one = search_top(hand[None], prepare(rules), k=3)
        for a, b in zip(one, batch):
            np.testing.assert_array_equal(a[0], b[i])


@pytest.mark.parametrize("method", ["table", "montecarlo", "known"])
def test_every_method_answers_the_same_with_either_kernel(method, monkeypatch):
    """``arrange`` with each method (the table search itself; Monte Carlo, whose sampled
    opponents the search sets; known opponents) gives the same answer whichever card-removal
    kernel runs."""
    rules = resolve_rules("standard")
    hands = deal(np.random.default_rng(6), 4, 4)
    answers = {}
    for kernel in search_mod.REMOVAL_KERNELS:
        monkeypatch.setattr(search_mod, "DEFAULT_KERNEL", kernel)
        out = []
        for seats in hands:
            if method == "known":  # the opponents' hands are set by the table strategy
                res = arrange(seats[0], rules, method="known", top=3,
                              opponent_hands=[list(map(int, o)) for o in seats[1:]])
            elif method == "montecarlo":
                res = arrange(seats[0], rules, 3, "montecarlo", 120, seed=1, top=3)
            else:
                res = arrange(seats[0], rules, 2, top=3)
            out.append(res.to_dict())
        answers[kernel] = out
    assert answers["lazy"] == answers["eager"]


def test_unknown_kernel_is_refused():
    with pytest.raises(ValueError, match="kernel must be one of"):
        search_top(deal(np.random.default_rng(1), 1).reshape(-1, 13),
                   prepare(resolve_rules("standard")), kernel="fast")
