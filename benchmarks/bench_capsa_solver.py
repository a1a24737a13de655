"""Capsa Susun solver speed: every figure of the speed issue as it ships beside today's path
(the same code with the eager card-removal search the redesign replaces, kept as
``search_top(kernel="eager")``), measured in the same run on the same hands, with the ratio and
the issue's goal for it, and the same code with the tables without card removal; then the
plain-Python references.

    python benchmarks/bench_capsa_solver.py [--rules two-four] [--hands 3000] [--no-plain]
        [--agreement-hands 2000] [--tables-before OLD.npz]

``--tables-before``: first, the search on the shipped tables beside another tables file (the
one before a model change), on the same hands, alternated.

Everything runs pinned to one core. The benchmark first checks that both searches give the
same answers (and, without card removal, that the code path before the first speed work,
``tests/capsa_legacy.py``, does too). Timings are CPU time (``time.process_time``), the best
of a few alternating runs, so other work on the machine hits every side alike and waiting for
the core is not counted. The public solvers' figures are fixed lines, measured elsewhere on
this machine (not by this script).

Then, as before: each figure beside a plain-Python reference doing the same work (every one
of the 72,072 ordered splits evaluated with the plain evaluator of tests/capsa_reference.py);
Monte Carlo in plain Python runs a few samples and is extrapolated to 1,000 (labelled so).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from contextlib import contextmanager
from itertools import combinations_with_replacement
from pathlib import Path

import numpy as np

# isort: off
from _common import best_of, pin_one_core, random_hands, row  # puts tests/ on the path
import capsa_legacy as legacy
import capsa_reference as ref
# isort: on

import solver.games.capsa.search as search_mod
from solver.batch.many import arrange_many, arrange_many_columns
from solver.games.capsa.arrange import arrange
from solver.games.capsa.evaluate import subset_strengths
from solver.games.capsa.lookup import COMB3, COMB5
from solver.games.capsa.prepared import prepare
from solver.games.capsa.rules import Rules, resolve_rules
from solver.games.capsa.search import search_best
from solver.games.capsa.splits import unpack_split, valid_arrangements
from solver.games.capsa.strategy.play import deal, natural_codes, table_play
from solver.games.capsa.strategy.tables import DATA_FILE, tables_file, tables_for, without_removal
from solver.warmup import warm_up

# the shipped tables without their card-removal shifts (the rows' joint model kept)
_TMP = Path(tempfile.mkdtemp(prefix="capsa-bench-"))
PLAIN = without_removal(DATA_FILE, _TMP / "plain.npz")

PEERS = (
    ("public C++ solver (pattern-built candidates only), per hand", 19.2, "us/hand"),
    ("public Go solver (trained row tables), per table decision", 2.67, "ms/hand"),
    ("public Go solver, 1,000-sample Monte Carlo decision", 2700.0, "ms/hand"),
)


def cpu_time(fn) -> float:
    """CPU seconds this process spends in ``fn`` (pinned to one core, so time spent waiting
    for the core while other work runs on the machine is not counted)."""
    t = time.process_time()
    fn()
    return time.process_time() - t


@contextmanager
def todays_path():
    """Today's path: the same code with the card-removal search the speed redesign replaces
    (every row term of every strength a hand holds computed first), kept as the ``eager``
    kernel."""
    before = search_mod.DEFAULT_KERNEL
    search_mod.DEFAULT_KERNEL = "eager"
    try:
        yield
    finally:
        search_mod.DEFAULT_KERNEL = before


def measure(fn, repeat: int = 3, today=None) -> tuple[float, float, float]:
    """Best-of CPU times (s) of ``fn`` as it ships, on today's path (``today``, default
    ``fn``, under the eager search), and with the tables without card removal, alternated so
    background load hits each alike."""
    today = today or fn
    tn = tt = tp = float("inf")
    for _ in range(repeat):
        tn = min(tn, cpu_time(fn))
        with todays_path():
            tt = min(tt, cpu_time(today))
        with tables_file(PLAIN):
            tp = min(tp, cpu_time(fn))
    return tn, tt, tp


def versus(label: str, times: tuple[float, float, float], count: int, unit: str, scale: float,
           goal: float | None = None) -> None:
    """One line: the new figure, today's, the ratio (with the issue's goal for it), and the
    same code without card removal."""
    new, today, plain = (x / count * scale for x in times)
    ratio = today / new
    verdict = "" if goal is None else (f"goal x{goal:g}: " + ("met" if ratio >= goal else "missed"))
    print(f"  {label:<44} {new:>10,.2f} {unit:<8} today {today:>10,.2f}  x{ratio:>5.2f} "
          f"{verdict:<16} no card removal {plain:>9,.2f}")


def speed_section(rules: Rules, n_hands: int, mc_hands: int) -> None:
    """The speed issue's figures: each as it ships, on today's path (the eager card-removal
    search) and the ratio, measured in the same run on the same hands; and the same code with
    the tables without card removal."""
    hands = random_hands(n_hands, seed=3)
    print(f"Capsa solver speed, rules {rules_label(rules)}, one core; new path, today's path "
          "(eager card-removal search) and their ratio, in the same run")
    for label, value, unit in PEERS:
        print(f"  {label:<60} {value:>10,.2f} {unit}  (measured elsewhere, fixed)")

    # same answers first: both card-removal searches, and the previous path without card
    # removal (with the tables it shipped with)
    with todays_path():
        eager = search_best(hands[:300], prepare(rules), k=3)
    for a, b in zip(search_best(hands[:300], prepare(rules), k=3), eager):
        assert np.array_equal(a, b), "the two card-removal searches disagree"
    with tables_file(PLAIN):
        assert np.array_equal(table_play(hands[:300], rules)[2],
                              legacy.table_play(hands[:300], rules)[2])
        for h in hands[:20]:
            now = arrange(h, rules, 3, top=5).to_dict()
            now.pop("tables")  # the previous path did not say which tables it played
            assert now == legacy.arrange_table(h, rules, 3, 5).to_dict()

    print("batch, method table, one process (goal: x4 today's path)")
    n = len(hands)
    versus("search kernel alone (best split)", measure(lambda: search_best(hands, prepare(rules))), n,
           "us/hand", 1e6)
    versus("arrange_many(processes=1), 1 opponent, dicts",
           measure(lambda: arrange_many(hands, rules, 1, processes=1, chunk_size=n)), n,
           "us/hand", 1e6, 4)
    versus("arrange_many_columns(processes=1), arrays",
           measure(lambda: arrange_many_columns(hands, rules, 1, processes=1, chunk_size=n)),
           n, "us/hand", 1e6, 4)
    single = resolve_rules({"preset": rules_label(rules), "single_royalty": True}) \
        if isinstance(rules_label(rules), str) else rules
    few = hands[:500]
    versus("search kernel, single-royalty rule", measure(lambda: table_play(few, single), 2),
           len(few), "us/hand", 1e6)

    print("interactive (goal: arrange top 5 x3 today's path)")
    inter = hands[:400]
    m = len(inter)
    versus('arrange(hand, method="table", top=5)',
           measure(lambda: [arrange(h, rules, 1, "table", top=5) for h in inter]), m,
           "us/hand", 1e6, 3)
    versus("  the same and .to_dict() (counts valid splits)",
           measure(lambda: [arrange(h, rules, 1, "table", top=5).to_dict() for h in inter]),
           m, "us/hand", 1e6)
    versus('arrange(hand, method="table", top=1)',
           measure(lambda: [arrange(h, rules, 1, "table", top=1) for h in inter]), m,
           "us/hand", 1e6)
    tn = min(cpu_time(lambda: [valid_arrangements(h, rules) for h in inter]) for _ in range(3))
    print(f"  {'valid_arrangements (every split + foul filter)':<44} {tn / m * 1e6:>10,.2f} "
          "us/hand  (no card removal involved)")

    print("montecarlo, 1,000 samples, opponents set by table (goal: x5 today's path, which "
          "draws every sample; the new path stops once the best is settled)")
    for opp in (1, 3):
        hs = hands[: mc_hands if opp == 1 else max(mc_hands // 2, 1)]
        for i, h in enumerate(hs[:2]):
            a = arrange(h, rules, opp, "montecarlo", 1000, seed=i, top=1, adaptive=False)
            with todays_path():
                assert a == arrange(h, rules, opp, "montecarlo", 1000, seed=i, top=1,
                                    adaptive=False)
        versus(f"arrange montecarlo, {opp} opponent(s)",
               measure(lambda: [arrange(h, rules, opp, "montecarlo", 1000, seed=i, top=1)
                                for i, h in enumerate(hs)], 2,
                       lambda: [arrange(h, rules, opp, "montecarlo", 1000, seed=i, top=1,
                                        adaptive=False) for i, h in enumerate(hs)]),
               len(hs), "ms/hand", 1e3, 5)
    if hasattr(os, "getloadavg"):
        print(f"  (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores during the run)")


def agreement_section(rules: Rules, n_hands: int) -> None:
    """Issue item 4's check of the adaptive Monte Carlo: on ``n_hands`` random hands (seed i
    for hand i), the share where it picks the split of the full 1,000-sample run, the EV the
    other picks cost by the full run's own count, and the share of the samples it drew."""
    hands = random_hands(n_hands, seed=5)
    print(f"adaptive Monte Carlo against the full 1,000-sample run, {n_hands:,} hands "
          "(goal: the same split on >= 98%)")
    for opp in (1, 3):
        same = used = 0
        lost = 0.0
        for i, h in enumerate(hands):
            full = arrange(h, rules, opp, "montecarlo", 1000, seed=i, top=100, adaptive=False)
            fast = arrange(h, rules, opp, "montecarlo", 1000, seed=i, top=1)
            same += fast.best.split == full.best.split
            used += fast.samples_used
            evs = {a.split: a.ev for a in full.arrangements}
            lost += full.best.ev - evs.get(fast.best.split, full.arrangements[-1].ev)
        print(f"  {opp} opponent(s): the same split on {same / n_hands:.1%}, samples drawn "
              f"{used / n_hands / 1000:.1%} of 1,000, EV given up (by the full run's count) "
              f"{lost / n_hands:.5f} a hand")


def rules_label(rules: Rules) -> str | Rules:
    from solver.games.capsa.rules import PRESETS

    return next((name for name, r in PRESETS.items() if r == rules), rules)


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


def tables_section(rules: Rules, n_hands: int, before: str) -> None:
    """The shipped tables beside another tables file (the one before a model change), on the
    same hands, alternated: what a stronger model costs the search."""
    hands = random_hands(n_hands, seed=3)
    inter = hands[:400]
    print(f"tables: shipped beside {Path(before).name} (rules {rules_label(rules)})")
    for label, fn, count in (
            ("search kernel alone (best split)", lambda: search_best(hands, prepare(rules)), len(hands)),
            ("search kernel, best 5", lambda: search_best(hands, prepare(rules), k=5), len(hands)),
            ('arrange(hand, method="table", top=5)',
             lambda: [arrange(h, rules, 1, "table", top=5) for h in inter], len(inter))):
        shipped = other = float("inf")
        for _ in range(3):
            shipped = min(shipped, cpu_time(fn))
            with tables_file(before):
                other = min(other, cpu_time(fn))
        print(f"  {label:<44} shipped {shipped / count * 1e6:>9,.2f} us  {Path(before).name} "
              f"{other / count * 1e6:>9,.2f} us  shipped / before x{shipped / other:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="two-four")
    ap.add_argument("--hands", type=int, default=3000, help="hands for the table kernels")
    ap.add_argument("--mc-hands", type=int, default=8, help="hands for Monte Carlo timings")
    ap.add_argument("--no-plain", action="store_true", help="skip the plain-Python references")
    ap.add_argument("--agreement-hands", type=int, default=0,
                    help="hands for the adaptive Monte Carlo's agreement with the full run "
                         "(0: skip; the issue asks 2,000)")
    ap.add_argument("--tables-before", metavar="FILE", default=None,
                    help="also time the search on this tables file beside the shipped one")
    args = ap.parse_args()
    rules = resolve_rules(args.rules)
    all_cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    pin_one_core()
    warm_up()
    if args.tables_before:
        tables_section(rules, args.hands, args.tables_before)
    speed_section(rules, args.hands, args.mc_hands)
    if args.agreement_hands:
        agreement_section(rules, args.agreement_hands)
    if args.no_plain:
        return
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
        fast = arrange(h, rules, opp, "montecarlo", plain_samples, seed=9, top=1,
                       adaptive=False).best.ev
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
