"""Card removal in the ``table`` strategy: the shifts measured from a pool, the per-hand tables
they give, and the strategy that plays them, each against a plain reference."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import solver.games.capsa.arrange as arrange_mod
from solver import arrange
from solver.games.capsa import kernels as K
from solver.games.capsa.encoding import rank_of, split_back, split_front, split_middle
from solver.games.capsa.kernel_args import kernel_params
from solver.games.capsa.kernels.table import scoop_chance
from solver.games.capsa.lookup import CARD_WORD, COMB3, COMB5, SPLIT_PAIRS, TABLES
from solver.games.capsa.prepared import prepare
from solver.games.capsa.rules import resolve_rules
from solver.games.capsa.search import hand_odds, hand_tables, search_best, search_top
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
    got = removal.deltas(*removal.pool_counts(hands, rows, size)[:3])
    base = np.stack([np.bincount(rows[:, r], minlength=size) for r in range(3)]) / len(hands)
    for k in (0, 5, 12):
        want = np.zeros((3, size))
        for c in range(4 * k, 4 * k + 4):
            keep = ~(hands == c).any(axis=1)
            cond = np.stack([np.bincount(rows[keep, r], minlength=size) for r in range(3)])
            want += (cond / keep.sum() - base) / 4
        np.testing.assert_allclose(got[k], want, atol=1e-12)


def test_suit_shifts_match_filtering_the_pool():
    """suit[c] before centring is P(row = s | none of c given cards of one suit) - P(row = s),
    averaged over every choice of the c cards in every suit: recomputed here by filtering the
    pool; centred, its mean over a hand's suit counts is zero."""
    rng = np.random.default_rng(4)
    size = 30
    hands = np.sort(deal(rng, 500, 1)[:, 0], axis=1)
    rows = rng.integers(0, size, (500, 3))
    by_suit = removal.pool_counts(hands, rows, size)[3]
    got = removal.suit_conditionals(by_suit)
    base = np.stack([np.bincount(rows[:, r], minlength=size) for r in range(3)]) / len(hands)
    for c in (0, 1, 2):
        num = np.zeros((3, size))
        den = 0
        for suit in range(4):
            cards = np.arange(13) * 4 + suit
            for chosen in itertools.combinations(cards, c):
                keep = ~np.isin(hands, chosen).any(axis=1)
                num += np.stack([np.bincount(rows[keep, r], minlength=size) for r in range(3)])
                den += keep.sum()
        np.testing.assert_allclose(got[c], num / den - base, atol=1e-12)
    centred = removal.suit_shifts(by_suit)
    np.testing.assert_allclose(np.tensordot(removal.SUIT_COUNT_CHANCE, centred, axes=1), 0,
                               atol=1e-12)
    assert removal.SUIT_COUNT_CHANCE.sum() == pytest.approx(1.0)


def test_alpha_scales_one_card_to_thirteen():
    one = 13 / 51 - 13 / 52
    assert removal.ALPHA * 13 * one == pytest.approx(13 / 39 - 13 / 52)


@pytest.fixture(scope="module")
def removal_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("tables") / "removal.npz"
    assert removal.main(["--hands", "5000", "--presets", "two-four", "standard",
                         "--suit-scale", "two-four=1.5", "--workers", "1", "-o", str(path)]) == 0
    return str(path)


def test_file_keeps_other_presets_and_adds_shifts(removal_file):
    raw = load_raw(removal_file)
    assert "removal" in raw["two-four"] and raw["two-four"]["removal"].shape[:2] == (13, 3)
    for name, value in load_raw()["basic"].items():  # a preset not measured is copied
        np.testing.assert_array_equal(raw["basic"][name], value)
    assert raw["meta"]["removal"]["hands"] == 5000


def test_file_adds_the_rows_joint_model(removal_file):
    """The pool's copula grids: a distribution function on the grid (0 on the lower faces, 1
    at the top corner, growing along every axis), as the search's bounds need."""
    for preset in ("two-four", "standard"):
        joint = load_raw(removal_file)[preset]["joint"]
        assert joint.shape == (2, 33, 33, 33)
        for g in joint:
            assert g[0].max() == g[:, 0].max() == g[:, :, 0].max() == 0.0
            assert g[-1, -1, -1] == pytest.approx(1.0)
            for axis in range(3):
                assert (np.diff(g, axis=axis) >= 0).all()


def test_suit_terms_only_where_asked(removal_file):
    raw = load_raw(removal_file)
    assert raw["two-four"]["suit"].shape == (14, 3, TABLES["lowest"].size)
    assert raw["two-four"]["suit_scale"] == 1.5
    assert "suit" not in raw["standard"]
    assert "--suit-scale two-four=1.5" in raw["meta"]["removal"]["command"]
    st = tables_for(resolve_rules("two-four"), removal_file)
    np.testing.assert_allclose(st.suit, 1.5 * raw["two-four"]["suit"])
    assert tables_for(resolve_rules("standard"), removal_file).suit is None


@pytest.mark.parametrize("preset", ["standard", "two-four"])
def test_hand_tables_are_the_clamped_linear_shift(removal_file, preset):
    """A hand's tables: the row distribution moved by alpha * n_k * delta[k] for every rank
    (and, with suit terms, by suit[c] for the count c of each suit), its win / tie / royalty
    tables derived as without card removal, then clamped into a distribution (recomputed
    here from the histogram in NumPy)."""
    rules = resolve_rules(preset)
    st = tables_for(rules, removal_file)
    raw = load_raw(removal_file)[preset]
    assert (st.suit is not None) == (preset == "two-four")
    for seed in range(4):
        hand = np.sort(deal(np.random.default_rng(seed), 1, 1)[0, 0])
        counts = np.bincount(rank_of(hand), minlength=13)
        p = raw["hist"] / raw["hist"][0].sum() + st.alpha * np.tensordot(counts, raw["removal"],
                                                                          axes=1)
        if st.suit is not None:
            p = p + sum(st.suit[c] for c in np.bincount(hand % 4, minlength=4))
        pr = p * st.roy
        win = np.clip(np.cumsum(p, axis=1) - p, 0, 1)
        tie = np.clip(p, 0, 1 - win)
        lose_roy = np.clip(np.cumsum(pr[:, ::-1], axis=1)[:, ::-1] - pr, 0, None)
        got = hand_tables(prepare(rules, st), hand)
        for name, want in (("pw", win), ("pt", tie), ("lr", lose_roy)):
            np.testing.assert_allclose(getattr(got, name), want, atol=1e-12, err_msg=name)
        rows = np.array([[5, 900, 4000], [300, 2000, 7000]])
        w, t = hand_odds(prepare(rules, st), hand, rows)
        np.testing.assert_array_equal(w, got.pw[np.arange(3), rows])
        np.testing.assert_array_equal(t, got.pt[np.arange(3), rows])


@pytest.mark.parametrize("spec", ["two-four", "standard",
                                  {"preset": "standard", "single_royalty": True},
                                  {"preset": "standard", "royalty_mode": "net"},
                                  {"preset": "two-four", "royalties": "standard",
                                   "single_royalty": True},
                                  {"preset": "standard", "scoring": "basic"}], ids=str)
def test_top_k_is_the_full_search_under_the_hands_tables(removal_file, spec):
    """The best k distinct row-strength triples of the card-removal search: exactly the
    values, rows and representative splits of every valid split scored with the hand's own
    tables."""
    rules = resolve_rules(spec)
    st = tables_for(rules, removal_file)
    t = TABLES[rules.wheel]
    scoring, bonus, net, single = kernel_params(rules)
    hands = deal(np.random.default_rng(9), 12, 1)[:, 0]
    split, ev, rows, found = search_best(hands, prepare(rules, st), 7)
    v5 = np.empty(len(COMB5), dtype=np.int32)
    v3 = np.empty(len(COMB3), dtype=np.int32)
    packed = np.empty(2 * len(SPLIT_PAIRS), dtype=np.int64)
    values = np.empty(2 * len(SPLIT_PAIRS))
    for i, h in enumerate(hands):
        ht = hand_tables(prepare(rules, st), h)
        K.subset_strengths(h, CARD_WORD, t.rank5, t.flush5, t.rank3, v5, v3)
        n = K.table_valid_evs(v5, v3, SPLIT_PAIRS, ht.pw, ht.pt, ht.lr, ht.roy, scoring,
                              bonus, net, single, ht.joint_grid, packed, values)
        best: dict[tuple, tuple] = {}
        for p, v in zip(packed[:n].tolist(), values[:n].tolist()):
            key = (int(v3[split_front(p)]), int(v5[split_middle(p)]), int(v5[split_back(p)]))
            best[key] = min(best.get(key, (-v, p)), (-v, p))
        want = sorted((nv, p, key) for key, (nv, p) in best.items())[:7]
        got = [(-float(ev[i, j]), int(split[i, j]), tuple(int(x) for x in rows[i, j]))
               for j in range(int(found[i]))]
        assert got == want


@pytest.mark.parametrize("shifts", [True, False], ids=["card removal", "no removal"])
def test_search_odds_are_the_hands_own(removal_file, shifts):
    """The odds the search returns with what it found (what ``arrange`` lists) are
    :func:`hand_odds` of those rows and the joint model's chance of all three rows, with
    card removal or without."""
    rules = resolve_rules("standard")
    st = tables_for(rules, removal_file)
    if not shifts:
        st = type(st)(**{**st.__dict__, "removal": None})
    hands = deal(np.random.default_rng(11), 10, 1)[:, 0]
    top = search_top(hands, prepare(rules, st), 6)
    for i, h in enumerate(hands):
        n = int(top.found[i])
        w, t = hand_odds(prepare(rules, st), h, top.rows[i, :n])
        np.testing.assert_array_equal(top.odds[i, :n, :3], w)
        np.testing.assert_array_equal(top.odds[i, :n, 3:6], t)
        np.testing.assert_array_equal(top.odds[i, :n, 6],
                                      [scoop_chance(st.joint_grid, *row) for row in w])
        np.testing.assert_array_equal(top.odds[i, n:], 0.0)


def test_no_shift_plays_as_plain_table(removal_file):
    rules = resolve_rules("two-four")
    st = tables_for(rules, removal_file)
    flat = type(st)(**{**st.__dict__, "removal": np.zeros_like(st.removal), "suit": None})
    raw = load_raw(removal_file)["two-four"]
    plain = derive(raw["hist"], raw["naturals"], rules, "two-four", joint=raw.get("joint"))
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
    monkeypatch.setattr(arrange_mod, "tables_for", lambda r, path=None: tables_for(r, removal_file))
    for h, want in zip(hands[:10], rows):
        best = arrange(h, rules, 1, top=1).best.arrangement
        assert sorted(best.cards) == sorted(int(c) for c in h)
        assert row_strengths(best, rules) == tuple(int(x) for x in want)


def test_shifts_are_deterministic_whatever_the_workers(removal_file, tmp_path):
    """The same seed gives the same file with one worker or two (fixed chunks, integer sums)."""
    two = tmp_path / "two.npz"
    assert removal.main(["--hands", "5000", "--presets", "two-four", "standard",
                         "--workers", "2", "-o", str(two)]) == 0
    a, b = load_raw(removal_file), load_raw(str(two))
    for preset in ("two-four", "standard"):
        for name in ("hist", "naturals", "removal", "joint"):
            np.testing.assert_array_equal(a[preset][name], b[preset][name])


def test_alpha_scale_is_written_and_recorded(tmp_path, capsys):
    out = tmp_path / "scaled.npz"
    assert removal.main(["--hands", "1000", "--presets", "two-four", "--workers", "1",
                         "--alpha-scale", "two-four=0.5", "-o", str(out)]) == 0
    raw = load_raw(str(out))
    assert raw["two-four"]["alpha"] == pytest.approx(removal.ALPHA * 0.5, abs=0)
    assert raw["meta"]["removal"]["alpha_scale"] == {"two-four": 0.5}
    assert "--alpha-scale two-four=0.5" in raw["meta"]["removal"]["command"]
    for bad in (["--alpha-scale", "two-four=x"], ["--alpha-scale", "nine=1"],
                ["--alpha-scale", "standard=0.5"]):
        with pytest.raises(SystemExit) as exc:
            removal.main(["--hands", "1000", "--presets", "two-four", *bad, "-o", str(out)])
        assert exc.value.code == 2
        assert "--alpha-scale" in capsys.readouterr().err


def test_fictitious_rounds_add_pools_set_by_the_tables_so_far(tmp_path):
    """Round 1 of fictitious play sets fresh hands with the whole strategy (card removal,
    suit terms, copula) built from round 0's pool, and the tables are those of both pools
    together: written out here step by step from the module's parts."""
    seed, hands, alpha = 7, 3000, removal.ALPHA * 0.75
    start = str(tmp_path / "start.npz")
    assert removal.main(["--hands", "3000", "--presets", "two-four", "--workers", "1",
                         "--seed", "5", "-o", start]) == 0
    got = removal.measure("two-four", start, hands, seed, 1, rounds=2, alpha=alpha,
                          suit_scale=1.36)
    index = removal.TRAINED_PRESETS.index("two-four")
    pool0 = removal._pool("two-four", start, np.random.SeedSequence([seed, index, 0xCA2D]),
                          hands, 1, None)
    after0 = tmp_path / "after0.npz"
    removal.write_arrays(after0, removal.file_arrays(
        "two-four", removal.model(pool0, "two-four", seed), alpha, 1.36), {})
    st = tables_for(resolve_rules("two-four"), str(after0))
    assert st.removal is not None and st.suit is not None and st.alpha == alpha
    pool1 = removal._pool("two-four", str(after0),
                          np.random.SeedSequence([seed, index, 0xCA2D, 1]), hands, 1, None)
    want = removal.model(pool0 + pool1, "two-four", seed)
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b)
    assert got[0][0].sum() == 2 * hands  # no naturals under two-four: every hand sets rows
    # the second pool is not the first one's strategy again: card removal moved some rows
    plain = removal._pool("two-four", start, np.random.SeedSequence([seed, index, 0xCA2D, 1]),
                          hands, 1, None)
    assert (plain.rows != pool1.rows).any()


def test_fictitious_play_resumes_from_its_checkpoint(tmp_path, monkeypatch):
    """Stopped after two of three rounds and run again, the command writes the same file as
    a run that never stopped, and leaves no checkpoint behind."""
    args = ["--hands", "2000", "--presets", "two-four", "--workers", "1", "--rounds", "3",
            "--alpha-scale", "two-four=0.75"]
    whole = tmp_path / "whole.npz"
    assert removal.main([*args, "-o", str(whole)]) == 0
    out = tmp_path / "stopped.npz"
    real_pool, calls = removal._pool, []

    def stop_at_third(*a, **k):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_pool(*a, **k)

    monkeypatch.setattr(removal, "_pool", stop_at_third)
    with pytest.raises(KeyboardInterrupt):
        removal.main([*args, "-o", str(out)])
    ckpt = tmp_path / "stopped.npz.two-four.checkpoint.npz"
    assert ckpt.exists() and not out.exists()
    calls.clear()
    monkeypatch.setattr(removal, "_pool", lambda *a, **k: (calls.append(1), real_pool(*a, **k))[1])
    assert removal.main([*args, "-o", str(out)]) == 0
    assert len(calls) == 1  # only the third round was played again
    a, b = load_raw(str(whole)), load_raw(str(out))
    for name in ("hist", "naturals", "removal", "joint"):
        np.testing.assert_array_equal(a["two-four"][name], b["two-four"][name])
    assert b["meta"]["removal"]["rounds"] == 3 and "--rounds 3" in b["meta"]["removal"]["command"]
    assert not ckpt.exists()
    monkeypatch.setattr(removal, "_pool", real_pool)
    two = tmp_path / "two.npz"  # and whatever the number of workers
    assert removal.main([*args[:5], "2", *args[6:], "-o", str(two)]) == 0
    c = load_raw(str(two))
    for name in ("hist", "naturals", "removal", "joint"):
        np.testing.assert_array_equal(a["two-four"][name], c["two-four"][name])
    with pytest.raises(SystemExit):
        removal.main([*args[:-4], "--rounds", "0", "-o", str(out)])
