"""Card removal in the ``table`` strategy: the shifts measured from a pool, the per-hand tables
they give, and the strategy that plays them, each against a plain reference."""

from __future__ import annotations

import numpy as np
import pytest

import solver.games.capsa.solve as solve_mod
from solver.games.capsa.rules import resolve_rules
from solver.games.capsa.solve import arrange
from solver.games.capsa.splits import row_strengths
from solver.games.capsa.strategy import removal
from solver.games.capsa.strategy.play import deal, table_play
from solver.games.capsa.strategy.tables import derive, load_raw, tables_for


def test_deltas_match_filtering_the_pool():
    """delta[k, row, s] is P(row = s | card of rank k absent) - P(row = s), suit-averaged:
    recomputed here by filtering the pool card by card."""
    rng = np.random.default_rng(3)
    size = 40
    hands = np.sort(deal(rng, 600, 1)[:, 0], axis=1)
    rows = rng.integers(0, size, (600, 3))
    got = removal.deltas(*removal.pool_counts(hands, rows, size))
    base = np.stack([np.bincount(rows[:, r], minlength=size) for r in range(3)]) / len(hands)
    for k in (0, 5, 12):
        want = np.zeros((3, size))
        for c in range(4 * k, 4 * k + 4):
            keep = ~(hands == c).any(axis=1)
            cond = np.stack([np.bincount(rows[keep, r], minlength=size) for r in range(3)])
            want += (cond / keep.sum() - base) / 4
        np.testing.assert_allclose(got[k], want, atol=1e-12)


def test_alpha_scales_one_card_to_thirteen():
    one = 13 / 51 - 13 / 52
    assert removal.ALPHA * 13 * one == pytest.approx(13 / 39 - 13 / 52)


@pytest.fixture(scope="module")
def removal_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("tables") / "removal.npz"
    assert removal.main(["--hands", "5000", "--presets", "two-four", "--workers", "1",
                         "-o", str(path)]) == 0
    return str(path)


def test_file_keeps_other_presets_and_adds_shifts(removal_file):
    raw = load_raw(removal_file)
    assert "removal" in raw["two-four"] and raw["two-four"]["removal"].shape[:2] == (13, 3)
    assert "removal" not in raw["standard"]
    np.testing.assert_array_equal(raw["standard"]["hist"], load_raw()["standard"]["hist"])
    assert raw["meta"]["removal"]["hands"] == 5000


def test_hand_tables_are_derive_of_the_shifted_histogram(removal_file):
    rules = resolve_rules("two-four")
    st = tables_for(rules, removal_file)
    raw = load_raw(removal_file)["two-four"]
    hand = np.sort(deal(np.random.default_rng(8), 1, 1)[0, 0])
    counts = np.bincount(hand >> 2, minlength=13)
    p = raw["hist"] / raw["hist"][0].sum()
    shifted = np.clip(p + st.alpha * np.tensordot(counts, raw["removal"], axes=1), 0, None)
    shifted /= shifted.sum(axis=1, keepdims=True)
    want = derive(shifted * 1e9, raw["naturals"], rules, "two-four")
    got = st.for_hand(hand)
    for name in ("pw", "pt", "lr"):
        np.testing.assert_allclose(getattr(got, name), getattr(want, name), atol=1e-9)


def test_no_shift_plays_as_plain_table(removal_file):
    rules = resolve_rules("two-four")
    st = tables_for(rules, removal_file)
    flat = type(st)(**{**st.__dict__, "removal": np.zeros_like(st.removal)})
    plain = derive(load_raw(removal_file)["two-four"]["hist"],
                   load_raw(removal_file)["two-four"]["naturals"], rules, "two-four")
    hands = deal(np.random.default_rng(2), 60, 1)[:, 0]
    np.testing.assert_allclose(table_play(hands, rules, flat)[1],
                               table_play(hands, rules, plain)[1], atol=1e-12)


def test_best_split_is_the_full_search_and_arrange_agrees(removal_file, monkeypatch):
    rules = resolve_rules("two-four")
    st = tables_for(rules, removal_file)
    hands = deal(np.random.default_rng(4), 40, 1)[:, 0]
    split, ev, rows = table_play(hands, rules, st)
    _, ev_full, rows_full = table_play(hands, rules, st, prune=False)
    np.testing.assert_allclose(ev, ev_full, atol=1e-9)
    # the interactive path (arrange) plays the same per-hand tables
    monkeypatch.setattr(solve_mod, "tables_for", lambda r, path=None: tables_for(r, removal_file))
    for h, want in zip(hands[:10], rows):
        best = arrange(h, rules, 1, top=1).best.arrangement
        assert sorted(best.cards) == sorted(int(c) for c in h)
        assert row_strengths(best, rules) == tuple(int(x) for x in want)
