"""The joint model of the opponent's rows (the scoop's copula), each part against a plain
reference: counting the pool directly, and the product for independent rows."""

from __future__ import annotations

import capsa_legacy as legacy
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.games.capsa.kernels.table import NO_JOINT, scoop_chance, scoop_odds_many
from solver.games.capsa.prepared import prepare
from solver.games.capsa.rules import resolve_rules
from solver.games.capsa.search import search_best
from solver.games.capsa.strategy.joint import copula_grids, orthant_grid, uniforms
from solver.games.capsa.strategy.play import deal
from solver.games.capsa.strategy.tables import DATA_FILE, load_raw, tables_for, without_removal


def _pool(rng: np.random.Generator, n: int, size: int = 60) -> tuple[np.ndarray, np.ndarray]:
    """A pool of dependent rows: the back high when the front is, the middle low when the
    back is high (as a strong back takes the middle's cards), with many ties."""
    base = rng.integers(0, size, n)
    front = np.clip(base + rng.integers(-8, 9, n), 0, size - 1)
    back = np.clip(base + rng.integers(-20, 21, n), 0, size - 1)
    middle = np.clip(size - 1 - back + rng.integers(-25, 26, n), 0, size - 1)
    rows = np.stack([front, middle, back], axis=1)
    hist = np.stack([np.bincount(rows[:, r], minlength=size) for r in range(3)])
    return rows, hist


def test_uniforms_put_each_row_below_mine_exactly_when_below_my_win_chance():
    rng = np.random.default_rng(1)
    rows, hist = _pool(rng, 5000)
    u = uniforms(rows, hist, rng)
    p = hist / hist.sum(axis=1, keepdims=True)
    below = np.cumsum(p, axis=1) - p
    for r in range(3):
        for s in (0, 7, 30, 59):
            np.testing.assert_array_equal(u[:, r] < below[r, s], rows[:, r] < s)
            np.testing.assert_array_equal(u[:, r] >= below[r, s] + p[r, s], rows[:, r] > s)


def test_orthant_grid_counts_the_samples_at_grid_points():
    rng = np.random.default_rng(2)
    u = rng.random((3000, 3)) ** 2
    g = orthant_grid(u, 8)
    for i, j, k in [(0, 3, 3), (8, 8, 8), (2, 5, 7), (8, 1, 4)]:
        want = np.mean((u[:, 0] < i / 8) & (u[:, 1] < j / 8) & (u[:, 2] < k / 8))
        assert g[i, j, k] == pytest.approx(want, abs=1e-12)


def test_scoop_from_the_grids_matches_counting_the_pool():
    """On a pool with strongly dependent rows the interpolated grids give the chance that all
    three rows are below (above) mine as counted directly, where the product does not."""
    rng = np.random.default_rng(3)
    rows, hist = _pool(rng, 200_000)
    joint = copula_grids(rows, hist, rng)
    p = hist / hist.sum(axis=1, keepdims=True)
    below = np.cumsum(p, axis=1) - p
    mine = rng.integers(0, 60, (300, 3))
    idx = np.arange(3)[None, :]
    w = below[idx, mine]
    x = 1.0 - w - p[idx, mine]
    got = np.empty(len(mine))
    scoop_odds_many(joint, *(np.ascontiguousarray(a) for a in (*w.T, *x.T)), got)
    want = np.array([np.mean((rows < m).all(axis=1)) - np.mean((rows > m).all(axis=1))
                     for m in mine])
    product = w.prod(axis=1) - x.prod(axis=1)
    assert np.abs(got - want).max() < 0.01
    assert np.abs(product - want).max() > 0.05  # the rows are far from independent here


def test_the_grids_of_independent_rows_give_the_product():
    rng = np.random.default_rng(4)
    rows = rng.integers(0, 50, (400_000, 3))
    hist = np.stack([np.bincount(rows[:, r], minlength=50) for r in range(3)])
    joint = copula_grids(rows, hist, rng)
    for w in rng.random((50, 3)):
        assert scoop_chance(joint, *w) == pytest.approx(np.prod(w), abs=0.004)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=6, max_size=6))
def test_no_joint_is_the_product_of_independent_rows(v):
    out = np.empty(1)
    scoop_odds_many(NO_JOINT, *(np.array([a]) for a in v), out)
    assert out[0] == v[0] * v[1] * v[2] - v[3] * v[4] * v[5]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=3, max_size=3), st.integers(0, 2),
       st.floats(0, 0.5))
def test_shipped_grids_grow_with_each_win_chance(w, row, step):
    """The search bounds a split by its rows' best win and least loss chances: the scoop
    chance must grow with each win chance, as the shipped grids make it."""
    raw = load_raw()
    for preset in raw:
        if preset == "meta" or "joint" not in raw[preset]:
            continue
        joint = raw[preset]["joint"]
        up = list(w)
        up[row] = min(1.0, up[row] + step)
        assert scoop_chance(joint, *up) >= scoop_chance(joint, *w) - 1e-12


def test_tables_carry_the_files_joint_model():
    for preset in ("standard", "two-four", "basic", "indonesia"):
        raw = load_raw()[preset]
        assert raw["joint"].shape == (2, 33, 33, 33)  # the shipped file has one per preset
        np.testing.assert_array_equal(tables_for(resolve_rules(preset)).joint_grid,
                                      raw["joint"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-1e-12, 1 + 1e-12), min_size=6, max_size=6))
def test_scoop_bound_is_above_the_value_on_the_shipped_grids(v):
    """What the search skips a split on (and bounds a back with) is never below its value."""
    from solver.games.capsa.kernels.table import _scoop_bound, _scoop_odds
    for preset in ("standard", "indonesia"):
        joint = load_raw()[preset]["joint"]
        assert _scoop_bound.py_func(joint, *v) >= _scoop_odds.py_func(joint, *v) - 1e-12


def _full_top(hand: np.ndarray, rules, tables, k: int) -> list[tuple[int, float]]:
    """Every valid split scored under ``tables``, then the best ``k`` distinct row triples."""
    _, chosen = legacy._old_top(*legacy._old_subsets(hand, rules.wheel), rules, k, tables)
    return [(p, v) for p, v, _ in chosen]


PLAIN_RULES = ["standard", {"preset": "standard", "single_royalty": True},
               {"preset": "standard", "royalty_mode": "net"},
               {"preset": "standard", "scoring": "scoop-one"}, "indonesia"]


@pytest.fixture(scope="module")
def plain_file(tmp_path_factory):
    """The shipped tables without card removal: the plain search with the joint model."""
    return without_removal(DATA_FILE, tmp_path_factory.mktemp("plain") / "plain.npz")


@pytest.mark.parametrize("spec", PLAIN_RULES, ids=str)
def test_plain_search_with_the_joint_model_is_the_full_search(plain_file, spec):
    rules = resolve_rules(spec)
    tables = tables_for(rules, plain_file)
    assert tables.removal is None and tables.joint is not None
    hands = deal(np.random.default_rng(11), 40)[:, 0]
    split, ev, rows, found = search_best(hands, prepare(rules, tables), 4)
    for i, h in enumerate(hands):
        want = _full_top(h, rules, tables, 4)
        got = [(int(split[i, j]), float(ev[i, j])) for j in range(int(found[i]))]
        assert got == want
