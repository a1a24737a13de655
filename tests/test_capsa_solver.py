"""The solver: valid proposals, exact `known` play, reproducible Monte Carlo, table values."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from capsa_reference import is_valid
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import arrange, arrange_many
from solver.batch.many import best_many
from solver.cards import format_cards
from solver.errors import CardError, InputError
from solver.games.capsa import kernels as K
from solver.games.capsa.encoding import rank_of, split_back, split_front, split_middle
from solver.games.capsa.kernels import table as KT
from solver.games.capsa.lookup import SPLIT_PAIRS
from solver.games.capsa.methods.exact import candidates, exact_result, opponent_rows, valid_splits
from solver.games.capsa.prepared import prepare
from solver.games.capsa.referee import make_seat, score, settle
from solver.games.capsa.rules import resolve_rules
from solver.games.capsa.search import hand_tables
from solver.games.capsa.splits import all_valid_splits, parse_hand, unpack_split
from solver.games.capsa.strategy.play import deal, kernel_params, table_play
from solver.games.capsa.strategy.tables import load_raw, tables_for

hands = st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True)
RULES = ["standard", "two-four", "basic", "indonesia",
         {"preset": "standard", "royalty_mode": "net"},
         {"preset": "standard", "single_royalty": True},
         {"preset": "two-four", "scoring": "scoop-one", "royalties": "standard"}]


@settings(max_examples=25)
@given(hands, st.sampled_from(["table", "montecarlo"]), st.sampled_from(RULES), st.integers(1, 3))
def test_proposals_are_valid_and_use_the_hand(hand, method, rules, opponents):
    res = arrange(hand, rules, opponents, method, samples=20, seed=1, top=3)
    assert 1 <= len(res.arrangements) <= 3
    evs = [a.ev for a in res.arrangements]
    assert evs == sorted(evs, reverse=True)
    for a in res.arrangements:
        arr = a.arrangement
        assert sorted(arr.cards) == sorted(hand)
        assert is_valid(arr.front, arr.middle, arr.back, resolve_rules(rules).wheel)
        assert all(0 <= r.win <= 1 and 0 <= r.tie <= 1 for r in a.rows)


def _py_grid(grid, u, v, w):
    """Multilinear interpolation of a (n + 1)^3 grid on the points i / n, from its definition:
    the weighted sum over the 8 corners of the cell holding (u, v, w)."""
    n = grid.shape[0] - 1
    cell, frac = [], []
    for x in (u, v, w):
        i = min(int(x * n), n - 1)
        cell.append(i)
        frac.append(x * n - i)
    total = 0.0
    for corner in itertools.product((0, 1), repeat=3):
        weight = np.prod([f if c else 1 - f for c, f in zip(corner, frac)])
        total += weight * grid[tuple(i + c for i, c in zip(cell, corner))]
    return total


def _py_majority_from_cells(grid, w, t):
    """Two-four's unit, P(more rows won than lost) - P(fewer), under the joint model read as
    what it is: a distribution of the opponent's three uniforms that is uniform within each
    grid cell (its multilinear interpolation), each cell's mass from the grid by
    differences; within a cell the three rows are independent, so the 27 outcomes of a cell
    are products. A different computation from the kernel's sum over 14 points."""
    n = grid.shape[0] - 1
    mass = np.diff(np.diff(np.diff(grid, axis=0), axis=1), axis=2)
    lo, hi = np.arange(n) / n, np.arange(1, n + 1) / n
    parts = []
    for wr, tr in zip(w, t):
        won = np.clip((np.minimum(wr, hi) - lo) * n, 0, 1)
        upto = np.clip((np.minimum(min(wr + tr, 1.0), hi) - lo) * n, 0, 1)
        parts.append((won, upto - won, 1 - upto))  # I win, tie, lose, given the cell
    total = 0.0
    for outcome in itertools.product(range(3), repeat=3):
        won, lost = outcome.count(0), outcome.count(2)
        if won != lost:
            p = np.einsum("ijk,i,j,k->", mass, parts[0][outcome[0]], parts[1][outcome[1]],
                          parts[2][outcome[2]])
            total += p * (1 if won > lost else -1)
    return total


def _py_table_value(rows, st_, rules):
    """The table value of a split from the rules' text: 27 outcomes of independent rows, the
    scoop's chance (and being scooped's), or two-four's unit for winning more rows, then
    replaced by the tables' joint model of the opponent's rows when they have one."""
    probs = []
    for r, s in enumerate(rows):
        w, t = st_.pw[r, s], st_.pt[r, s]
        probs.append(((1, w), (0, t), (-1, 1 - w - t)))
    roy = [int(st_.roy[r, s]) for r, s in enumerate(rows)]
    if rules.single_royalty and any(roy):
        keep = max(range(3), key=lambda i: (roy[i], i))
        roy = [u if i == keep else 0 for i, u in enumerate(roy)]
    value = 0.0
    for outcome in itertools.product(*probs):
        p = np.prod([q for _, q in outcome])
        d = [x for x, _ in outcome]
        pts = sum(d)
        won, lost = d.count(1), d.count(-1)
        if rules.scoring == "two-four":
            pts += (won > lost) - (won < lost)
        elif won == 3:
            pts += rules.scoop_bonus
        elif lost == 3:
            pts -= rules.scoop_bonus
        if rules.royalty_mode == "winner":
            pts += sum(roy[i] for i in range(3) if d[i] == 1)
        else:
            pts += sum(roy)
        value += p * pts
    if rules.royalty_mode == "winner":
        value -= sum(st_.lr[r, s] for r, s in enumerate(rows))
    if st_.joint is not None and rules.scoring == "two-four":
        w = [st_.pw[r, s] for r, s in enumerate(rows)]
        t = [st_.pt[r, s] for r, s in enumerate(rows)]
        indep = 0.0
        for outcome in itertools.product(range(3), repeat=3):
            won, lost = outcome.count(0), outcome.count(2)
            p = np.prod([(w[r], t[r], 1 - w[r] - t[r])[o] for r, o in enumerate(outcome)])
            indep += p * ((won > lost) - (won < lost))
        value += _py_majority_from_cells(st_.joint[0], w, t) - indep
    if st_.joint is not None and rules.scoring not in ("two-four", "basic"):
        w = [st_.pw[r, s] for r, s in enumerate(rows)]
        x = [1 - st_.pw[r, s] - st_.pt[r, s] for r, s in enumerate(rows)]
        value += rules.scoop_bonus * (_py_grid(st_.joint[0], *w) - np.prod(w)
                                      - _py_grid(st_.joint[1], *x) + np.prod(x))
    return value


@settings(max_examples=10)
@given(hands, st.sampled_from(RULES))
def test_table_values_match_the_plain_formula(hand, rules):
    r = resolve_rules(rules)
    h = parse_hand(hand)
    st_ = hand_tables(prepare(r), h)  # the hand's own tables (card removal)
    _, v5, v3 = all_valid_splits(h, r)
    n_max = 2 * len(SPLIT_PAIRS)
    packed, values = np.empty(n_max, np.int64), np.empty(n_max)
    n = K.table_valid_evs(v5, v3, SPLIT_PAIRS, st_.pw, st_.pt, st_.lr, st_.roy,
                          *kernel_params(r), st_.joint_grid, packed, values)
    packed, values = packed[:n], values[:n]
    for i in np.random.default_rng(0).choice(len(packed), 25):
        p = int(packed[i])
        rows = (int(v3[split_front(p)]), int(v5[split_middle(p)]), int(v5[split_back(p)]))
        assert values[i] == pytest.approx(_py_table_value(rows, st_, r), abs=1e-9)
    # the batch kernels (branch and bound, and full) find the same best value
    for prune in (True, False):
        _, best, _ = table_play(h[None, :], r, prune=prune)
        assert best[0] == pytest.approx(values.max(), abs=1e-12)


@pytest.mark.parametrize("seed", [3, 4])
def test_two_four_unit_reads_the_rows_joint_model(seed):
    """Two-four's unit for winning more rows comes from the shipped joint model of the
    opponent's rows (not their product): every valid split's value against the cell-by-cell
    reference, and the searches' best against the best of them."""
    r = resolve_rules("two-four")
    h = np.sort(np.random.default_rng(seed).permutation(52)[:13]).astype(np.int64)
    st_ = hand_tables(prepare(r), h)
    assert st_.joint is not None
    _, v5, v3 = all_valid_splits(h, r)
    n_max = 2 * len(SPLIT_PAIRS)
    packed, values = np.empty(n_max, np.int64), np.empty(n_max)
    n = K.table_valid_evs(v5, v3, SPLIT_PAIRS, st_.pw, st_.pt, st_.lr, st_.roy,
                          *kernel_params(r), st_.joint_grid, packed, values)
    gaps = []
    for i in np.random.default_rng(seed).choice(n, 12, replace=False):
        p = int(packed[i])
        rows = (int(v3[split_front(p)]), int(v5[split_middle(p)]), int(v5[split_back(p)]))
        assert values[i] == pytest.approx(_py_table_value(rows, st_, r), abs=1e-9)
        w = np.array([st_.pw[k, s] for k, s in enumerate(rows)])
        t = np.array([st_.pt[k, s] for k, s in enumerate(rows)])
        indep = np.empty(1)
        KT.majority_odds_many(KT.NO_JOINT, *(np.array([x]) for x in
                                             (w[0], t[0], w[1], t[1], w[2], t[2])), indep)
        gaps.append(abs(_py_majority_from_cells(st_.joint[0], w, t) - indep[0]))
    assert max(gaps) > 1e-3  # the joint model is not the product on these tables
    for prune in (True, False):
        _, best, _ = table_play(h[None, :], r, prune=prune)
        assert best[0] == pytest.approx(values[:n].max(), abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=6, max_size=6))
def test_two_four_unit_bound_is_above_the_model(u):
    """The searches' bound of two-four's unit (the joint model at grid points) is never below
    its value, and both grow with each row's win chance and tie chance."""
    grid = tables_for(resolve_rules("two-four")).joint
    w = [u[0], u[2], u[4]]
    t = [u[1] * (1 - u[0]), u[3] * (1 - u[2]), u[5] * (1 - u[4])]
    def unit(kernel, w, t):
        out = np.empty(1)
        kernel(grid, *[np.array([x]) for pair in zip(w, t) for x in pair], out)
        return out[0]
    exact = unit(KT.majority_odds_many, w, t)
    assert exact == pytest.approx(_py_majority_from_cells(grid[0], w, t), abs=1e-9)
    assert unit(KT.majority_bound_many, w, t) >= exact - 1e-12
    step = 0.05 * (1 - w[0] - t[0])
    assert unit(KT.majority_odds_many, [w[0] + step] + w[1:], t) >= exact - 1e-12  # loss -> win
    assert unit(KT.majority_odds_many, w, [t[0] + step] + t[1:]) >= exact - 1e-12  # loss -> tie


def _random_table(seed, players, foul_some=True):
    rng = np.random.default_rng(seed)
    cards = rng.permutation(52)
    hand = cards[:13]
    opps = []
    for o in range(players - 1):
        c = sorted(cards[13 * (o + 1):13 * (o + 2)].tolist(), key=rank_of)
        if foul_some and o == 1:
            c = c[::-1]  # strongest cards in front: usually a foul
        opps.append({"front": format_cards(c[:3]), "middle": format_cards(c[3:8]),
                     "back": format_cards(c[8:])})
    return hand, opps


@pytest.mark.parametrize("seed, players, rules", [
    (1, 2, "standard"), (2, 3, "two-four"), (3, 4, {"preset": "standard", "single_royalty": True}),
    (4, 4, {"preset": "standard", "royalty_mode": "net"}), (5, 3, "indonesia")])
def test_known_is_the_exact_best_response(seed, players, rules):
    hand, opps = _random_table(seed, players)
    r = resolve_rules(rules)
    res = arrange(hand, rules, method="known", opponent_arrangements=opps, top=3)
    seats = [make_seat(o, r, i + 1) for i, o in enumerate(opps)]
    h = parse_hand(hand)
    packed, _, _ = all_valid_splits(h, r)
    brute = max(sum(settle(make_seat(unpack_split(h, int(p)), r), s, r).points for s in seats)
                for p in packed)
    assert res.best.ev == brute
    for a in res.arrangements:  # each ev is what the referee scores
        table = [a.arrangement.to_dict()] + opps
        assert score(table, rules).to_dict()["players"][0]["points"] == a.ev


def test_known_with_opponent_hands_and_naturals():
    hand = "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h"
    three_straights = "2s 2d 3h 3s 4c 4d 5h 6s 7h 8c 9c Tc Jc"
    res = arrange(hand, method="known", opponent_hands=[three_straights])
    assert res.best.ev == -3 and res.opponents == 1
    # naturals off: the opponent's 13 cards are set by the table strategy and rows are played
    res = arrange(hand, "two-four", method="known", opponent_hands=[three_straights])
    opp = parse_hand(three_straights)
    split, _, _ = table_play(opp[None, :], resolve_rules("two-four"))
    opp_arr = unpack_split(opp, int(split[0])).to_dict()
    table = [res.best.arrangement.to_dict(), opp_arr]
    assert score(table, "two-four").to_dict()["players"][0]["points"] == res.best.ev


def test_montecarlo_is_reproducible():
    hand = "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h"
    a = arrange(hand, method="montecarlo", samples=200, seed=42, opponents=2).to_dict()
    b = arrange(hand, method="montecarlo", samples=200, seed=42, opponents=2).to_dict()
    c = arrange(hand, method="montecarlo", samples=200, seed=43, opponents=2).to_dict()
    assert a == b and a["seed"] == 42
    assert a["arrangements"][0]["ev"] != c["arrangements"][0]["ev"]


def test_montecarlo_candidates_keep_the_best():
    """Scoring every valid split on the same deals finds nothing better than the candidates."""
    r = resolve_rules("standard")
    h = parse_hand("As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h")
    sp = valid_splits(h, r)
    unseen = np.setdiff1d(np.arange(52), h)
    opp = opponent_rows(deal(np.random.default_rng(3), 100, 2, unseen), r)
    cand = candidates(sp, r)
    assert len(cand) < len(sp.packed)
    best_cand = exact_result(sp, r, opp, 1, cand)[0].ev
    best_all = exact_result(sp, r, opp, 1, np.arange(len(sp.packed)))[0].ev
    assert best_cand == best_all


def test_natural_is_reported():
    res = arrange("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad")
    nat = res.to_dict()["natural"]
    assert {k: nat[k] for k in ("kind", "units")} == {"kind": "dragon", "units": 13}
    assert nat["declare"] is True and nat["ev"] > res.best.ev  # what declaring is worth
    assert arrange("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad", "two-four").natural is None


def test_batch_matches_single_and_interactive():
    hs = deal(np.random.default_rng(11), 300)[:, 0, :]
    one = best_many(hs, "standard", 3)
    assert arrange_many(hs, "standard", 3, processes=2, chunk_size=100) == one
    for d, h in list(zip(one, hs))[:20]:
        assert d["ev"] == pytest.approx(arrange(h, top=1).best.ev, abs=1e-6)
    mc = arrange_many(hs[:4], method="montecarlo", samples=30, seed=5, processes=1)
    assert mc == arrange_many(hs[:4][::-1], method="montecarlo", samples=30, seed=5,
                              processes=1)[::-1]


@pytest.mark.parametrize("kwargs, error, message", [
    ({"method": "guess"}, InputError, "method must be one of"),
    ({"opponents": 4}, InputError, "opponents must be between 1 and 3"),
    ({"method": "montecarlo", "samples": 0}, InputError, "samples must be between"),
    ({"top": 0}, InputError, "top must be between"),
    ({"opponent_hands": ["2s 2d 3h 3s 4c 4d 5h 6s 7h 8c 9c Tc Jc"]}, InputError,
     "go with method 'known'"),
    ({"method": "known"}, InputError, "needs exactly one of"),
    ({"method": "known", "opponent_hands": ["As 2d 3h 3s 4c 4d 5h 6s 7h 8c 9c Tc Jc"]},
     CardError, "'As' of opponent 0 is also in your hand"),
    ({"rules": "house"}, InputError, "unknown rules preset"),
])
def test_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        arrange("As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h", **kwargs)


def test_training_is_deterministic_and_writes_the_shipped_format(tmp_path):
    from solver.games.capsa.strategy.train import main as train

    out = []
    for workers, name in ((1, "a.npz"), (2, "b.npz")):
        path = tmp_path / name
        assert train(["--hands", "600", "--rounds", "2", "--seed", "7", "--presets", "standard",
                      "two-four", "--workers", str(workers), "-o", str(path)]) == 0
        load_raw.cache_clear()
        out.append(load_raw(str(path)))
    load_raw.cache_clear()
    a, b = out
    shipped = load_raw()
    assert a["meta"]["seed"] == 7 and "--seed 7" in a["meta"]["command"]
    for preset in ("standard", "two-four"):
        assert np.array_equal(a[preset]["hist"], b[preset]["hist"])
        assert a[preset]["hist"].shape == shipped[preset]["hist"].shape
        assert a[preset]["hist"][0].sum() == a[preset]["hist"][2].sum() <= 600
    assert "--seed" in shipped["meta"]["command"] and shipped["meta"]["hands_per_round"] >= 100_000
