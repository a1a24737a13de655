"""Capsa Susun solver speed: ``table``, ``montecarlo`` and ``known`` per hand, and batch throughput.

    python benchmarks/bench_capsa_solver.py [--rules standard] [--hands 5000]

Single-core figures are measured with this process pinned to one core; the batch throughput is
then measured on one process and on every core. Each figure stands beside a plain-Python
reference doing the same work: every one of the 72,072 ordered splits evaluated with the plain
evaluator of tests/capsa_reference.py, each valid split scored with the same strategy tables
and the same expected-value formula as the kernels; Monte Carlo in plain Python runs a few
samples and is extrapolated to 1,000 (labelled so). The plain references are also checked to
agree with the fast code on the same hands.
"""

from __future__ import annotations

import argparse
import os
import time
from itertools import combinations_with_replacement

import capsa_reference as ref
import numpy as np
from _common import best_of, pin_one_core, random_hands, row

from solver.games.capsa.evaluate import subset_strengths
from solver.games.capsa.lookup import COMB3, COMB5
from solver.games.capsa.rules import Rules, resolve_rules
from solver.games.capsa.solve import arrange, arrange_many
from solver.games.capsa.splits import unpack_split
from solver.games.capsa.strategy.play import deal, natural_codes, table_play
from solver.games.capsa.strategy.tables import tables_for
from solver.warmup import warm_up


# ---------------------------------------------------------------- plain-Python reference
def plain_strength_index(wheel: str) -> dict[tuple, int]:
    """Dense ordinal of every row class on the shared scale, from the plain evaluator's keys
    (one representative hand per class: a rank multiset, suited or not)."""
    keys = set()
    for ranks in combinations_with_replacement(range(13), 5):
        if len(set(ranks)) == 1:
            continue  # five of a kind does not exist
        if len(set(ranks)) == 5:
            keys.add(ref.row_key([r * 4 + i % 2 for i, r in enumerate(ranks)], wheel))
            keys.add(ref.row_key([r * 4 for r in ranks], wheel))  # suited
        else:
            keys.add(ref.row_key([r * 4 + ranks[:i].count(r) for i, r in enumerate(ranks)], wheel))
    for ranks in combinations_with_replacement(range(13), 3):
        keys.add(ref.row_key([r * 4 + ranks[:i].count(r) for i, r in enumerate(ranks)], wheel))
    return {k: i for i, k in enumerate(sorted(keys))}


def plain_ev(wf, tf, wm, tm, wb, tb, rf, rm, rb, lf, lm, lb, rules: Rules) -> float:
    """The expected-value formula of the table strategy, written out again in plain Python."""
    xf, xm, xb = 1 - wf - tf, 1 - wm - tm, 1 - wb - tb
    ev = (wf - xf) + (wm - xm) + (wb - xb)
    if rules.scoring == "two-four":
        a2, a1 = wf * wm, tf * wm + wf * tm
        a0 = wf * xm + tf * tm + xf * wm
        b1, b2 = tf * xm + xf * tm, xf * xm
        ev += (a2 + a1 * (wb + tb) + a0 * wb) - (b2 + b1 * (xb + tb) + a0 * xb)
    elif rules.scoring != "basic":
        ev += rules.scoop_bonus * (wf * wm * wb - xf * xm * xb)
    if rules.single_royalty:
        keep = 2 if rb >= rm and rb >= rf else 1 if rm >= rf else 0
        rf, rm, rb = [u if i == keep else 0.0 for i, u in enumerate((rf, rm, rb))]
    if rules.royalty_mode == "net":
        return ev + rf + rm + rb
    return ev + rf * wf + rm * wm + rb * wb - lf - lm - lb


def plain_valid_splits(hand, wheel: str) -> list[tuple]:
    """(front, middle, back, kf, km, kb) of every valid ordered split, by enumeration."""
    hand = [int(c) for c in hand]
    keys: dict[tuple, tuple] = {}

    def key(cards):
        k = tuple(sorted(cards))
        if k not in keys:
            keys[k] = ref.row_key(k, wheel)
        return keys[k]

    out = []
    for f, m, b in ref.all_splits(hand):
        kf, km, kb = key(f), key(m), key(b)
        if kb >= km >= kf:
            out.append((f, m, b, kf, km, kb))
    return out


def plain_table(hand, rules: Rules, index: dict) -> tuple[float, tuple]:
    """Best (value, (front, middle, back)) under the table strategy, in plain Python."""
    st = tables_for(rules)
    pw, pt, lr, roy = st.pw.tolist(), st.pt.tolist(), st.lr.tolist(), st.roy.tolist()
    best = (-float("inf"), ())
    for f, m, b, kf, km, kb in plain_valid_splits(hand, rules.wheel):
        s = (index[kf], index[km], index[kb])
        ev = plain_ev(pw[0][s[0]], pt[0][s[0]], pw[1][s[1]], pt[1][s[1]], pw[2][s[2]],
                      pt[2][s[2]], roy[0][s[0]], roy[1][s[1]], roy[2][s[2]], lr[0][s[0]],
                      lr[1][s[1]], lr[2][s[2]], rules)
        if ev > best[0]:
            best = (ev, (f, m, b))
    return best


def plain_rows(split, rules: Rules, keys: tuple | None = None) -> tuple[tuple, tuple]:
    """Row keys and royalty units (standard table or none) of a valid (front, middle, back)."""
    keys = keys or tuple(ref.row_key(r, rules.wheel) for r in split)
    roy = [ref.royalty(n, r, rules.wheel) if rules.royalties else 0
           for n, r in zip(("front", "middle", "back"), split)]
    if rules.single_royalty and any(roy):
        keep = max(i for i in range(3) if roy[i] == max(roy))
        roy = [u if i == keep else 0 for i, u in enumerate(roy)]
    return keys, tuple(roy)


def plain_points(a: tuple, b: tuple, rules: Rules) -> int:
    """Points of valid rows ``a`` against valid rows ``b`` ((keys, royalties) each), as the
    rules file settles them (same logic as capsa_reference.settle, on precomputed keys)."""
    (ka, ra), (kb, rb) = a, b
    rows = [(x > y) - (x < y) for x, y in zip(ka, kb)]
    won, lost = rows.count(1), rows.count(-1)
    pts = sum(rows)
    if rules.scoring == "two-four":
        pts += (won > lost) - (lost > won)
    elif rules.scoring != "basic":
        pts += rules.scoop_bonus * ((won == 3) - (lost == 3))
    if rules.royalty_mode == "net":
        return pts + sum(ra) - sum(rb)
    return pts + sum(ra[i] if rows[i] > 0 else -rb[i] if rows[i] < 0 else 0 for i in range(3))


def plain_known(hand, opponents: list[tuple], rules: Rules) -> float:
    """Best total points against known opponent arrangements: every valid split settled."""
    opp = [plain_rows(o, rules) for o in opponents]
    best = -float("inf")
    for f, m, b, *keys in plain_valid_splits(hand, rules.wheel):
        mine = plain_rows((f, m, b), rules, tuple(keys))
        best = max(best, sum(plain_points(mine, o, rules) for o in opp))
    return best


def plain_montecarlo(hand, rules: Rules, opponents: int, samples: int, seed: int,
                     index: dict) -> float:
    """Plain Monte Carlo: the same deals as ``arrange``; opponents set with the plain table
    search; every valid split of ours settled against them. Best mean points per deal.
    (Opponents' naturals are left out: a constant for every split.)"""
    unseen = np.setdiff1d(np.arange(52), hand)
    deals = deal(np.random.default_rng(seed), samples, opponents, unseen)
    opp = [plain_rows(plain_table(h.tolist(), rules, index)[1], rules)
           for d in deals for h in d]
    best = -float("inf")
    for f, m, b, *keys in plain_valid_splits(hand, rules.wheel):
        mine = plain_rows((f, m, b), rules, tuple(keys))
        best = max(best, sum(plain_points(mine, o, rules) for o in opp))
    return best / samples


# ---------------------------------------------------------------- benchmark
def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--hands", type=int, default=5000, help="hands for the table kernels")
    ap.add_argument("--mc-hands", type=int, default=12, help="hands for Monte Carlo timings")
    args = ap.parse_args()
    rules = resolve_rules(args.rules)
    all_cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    pin_one_core()
    warm_up()
    hands = random_hands(args.hands, seed=3)
    print(f"Capsa solver, rules {args.rules!r}, one core unless said otherwise")

    # plain references first: their agreement with the kernels is checked before any figure
    index = plain_strength_index(rules.wheel)
    for h in hands[:3]:
        v5, v3 = subset_strengths(h, rules.wheel)
        assert [index[ref.row_key(h[c].tolist(), rules.wheel)] for c in COMB5] == v5.tolist()
        assert [index[ref.row_key(h[c].tolist(), rules.wheel)] for c in COMB3] == v3.tolist()

    pairs = deal(np.random.default_rng(4), 100, 2)
    for d in pairs:  # the plain settlement on keys agrees with capsa_reference.settle
        x, y = (unpack_split(h, int(p)) for h, p in zip(d, table_play(d, rules)[0]))
        x, y = (x.front, x.middle, x.back), (y.front, y.middle, y.back)
        assert plain_points(plain_rows(x, rules), plain_rows(y, rules), rules) == ref.settle(
            x, y, rules.scoring, bool(rules.royalties), rules.royalty_mode,
            rules.single_royalty, rules.wheel)

    # ---- table
    n = len(hands)
    t_prune = best_of(lambda: table_play(hands, rules), 3) / n
    few = hands[: max(n // 5, 1)]
    t_full = best_of(lambda: table_play(few, rules, prune=False), 2) / len(few)
    inter = hands[:300]
    t_arr = best_of(lambda: [arrange(h, rules, 3, "table", top=5) for h in inter], 2) / len(inter)
    plain_hands = hands[:2]
    t0 = time.perf_counter()
    plain = [plain_table(h.tolist(), rules, index) for h in plain_hands]
    t_plain_table = (time.perf_counter() - t0) / len(plain_hands)
    _, fast_val, _ = table_play(plain_hands, rules)
    assert np.allclose([p[0] for p in plain], fast_val, atol=1e-9), "table disagrees with plain"
    _, pv, _ = table_play(hands[:500], rules)
    _, fv, _ = table_play(hands[:500], rules, prune=False)
    assert np.allclose(pv, fv, atol=1e-12), "pruned search disagrees with the full search"

    print("table strategy (target <= 150 us/hand)")
    row("table_play, batch kernel with branch and bound", t_prune * 1e6, "us/hand")
    row("table_play(prune=False), full search", t_full * 1e6, "us/hand")
    row('arrange(hand, method="table", top=5)', t_arr * 1e6, "us/hand")
    row(f"plain Python, all 72,072 splits scored ({len(plain_hands)} hands)",
        t_plain_table * 1e6, "us/hand")
    row("ratio plain / batch kernel", t_plain_table / t_prune, "x")
    row("ratio plain / arrange(table)", t_plain_table / t_arr, "x")

    # ---- montecarlo
    print("montecarlo, 1,000 samples (target <= 150 ms heads-up, <= 400 ms with 3 opponents)")
    mc_hands = hands[: args.mc_hands]
    plain_samples = 2
    for opp, target in ((1, 150), (3, 400)):
        hs = mc_hands if opp == 1 else mc_hands[: max(len(mc_hands) // 2, 1)]
        t_mc = timed(lambda: [arrange(h, rules, opp, "montecarlo", 1000, seed=i, top=1)
                              for i, h in enumerate(hs)]) / len(hs)
        h = hands[(100 + opp) % n]
        t0 = time.perf_counter()
        plain_val = plain_montecarlo(h, rules, opp, plain_samples, 9, index)
        t_pl = time.perf_counter() - t0
        fast = arrange(h, rules, opp, "montecarlo", plain_samples, seed=9, top=1).best.ev
        unseen = np.setdiff1d(np.arange(52), h)
        opp_nat = natural_codes(deal(np.random.default_rng(9), plain_samples, opp,
                                     unseen).reshape(-1, 13)).any()
        checked = not (rules.naturals_on and opp_nat)  # the plain version leaves naturals out
        if checked:
            assert abs(plain_val - fast) < 1e-9, ("montecarlo disagrees with plain", plain_val, fast)
        per_1000 = t_pl / plain_samples * 1000
        row(f"arrange montecarlo, {opp} opponent(s)", t_mc * 1e3, "ms/hand",
            "ok" if t_mc * 1e3 <= target else "OVER TARGET")
        row(f"plain Python, {plain_samples} samples extrapolated to 1,000", per_1000 * 1e3,
            "ms/hand", "(extrapolated; same best ev: " + ("checked)" if checked else
                                                         "not checked, an opponent natural)"))
        row("ratio plain / fast", per_1000 / t_mc, "x")

    # ---- known
    print("known opponents (exact best response)")
    for opp in (1, 3):
        ds = deal(np.random.default_rng(5), 200, opp + 1)
        opp_sets = []
        for d in ds:
            sp, _, _ = table_play(d[1:], rules)
            opp_sets.append([unpack_split(x, int(p)) for x, p in zip(d[1:], sp)])
        opp_dicts = [[a.to_dict() for a in o] for o in opp_sets]
        t_known = timed(lambda: [arrange(d[0], rules, method="known", top=1,
                                         opponent_arrangements=o)
                                 for d, o in zip(ds, opp_dicts)]) / len(ds)
        plain_opp = [(a.front, a.middle, a.back) for a in opp_sets[0]]
        t0 = time.perf_counter()
        plain_val = plain_known(ds[0, 0].tolist(), plain_opp, rules)
        t_pk = time.perf_counter() - t0
        fast = arrange(ds[0, 0], rules, method="known", top=1,
                       opponent_arrangements=opp_dicts[0]).best.ev
        assert abs(plain_val - fast) < 1e-9, ("known disagrees with plain", plain_val, fast)
        row(f"arrange known, {opp} opponent(s) given set", t_known * 1e3, "ms/hand")
        row("plain Python, every valid split settled (1 hand)", t_pk * 1e3, "ms/hand")
        row("ratio plain / fast", t_pk / t_known, "x")

    # ---- batch throughput
    print("batch throughput, arrange_many")
    batch = random_hands(20000, seed=8)
    t_one = timed(lambda: arrange_many(batch, rules, 3, "table", processes=1))
    mc_batch = random_hands(16, seed=9)
    t_mc_one = timed(lambda: arrange_many(mc_batch, rules, 1, "montecarlo", 1000, seed=1,
                                          processes=1, chunk_size=4))
    if all_cores is not None:
        os.sched_setaffinity(0, all_cores)  # the pool's workers inherit this
    cores = len(all_cores) if all_cores else (os.cpu_count() or 1)
    arrange_many(batch[:4000], rules, 3, "table", processes=cores)  # start the pool
    t_all = timed(lambda: arrange_many(batch, rules, 3, "table", processes=cores))
    t_mc_all = timed(lambda: arrange_many(mc_batch, rules, 1, "montecarlo", 1000, seed=1,
                                          processes=cores, chunk_size=4))
    row("table, one process", len(batch) / t_one, "hands/s")
    row(f"table, {cores} processes", len(batch) / t_all, "hands/s")
    row(f"ratio {cores} processes / one", t_one / t_all, "x")
    row("plain Python table search, one process", 1 / t_plain_table, "hands/s")
    row("ratio one process / plain", t_plain_table * len(batch) / t_one, "x")
    row("montecarlo 1,000 samples heads-up, one process", len(mc_batch) / t_mc_one, "hands/s")
    row(f"montecarlo 1,000 samples heads-up, {cores} processes", len(mc_batch) / t_mc_all,
        "hands/s")
    row(f"ratio {cores} processes / one", t_mc_one / t_mc_all, "x")


if __name__ == "__main__":
    main()
