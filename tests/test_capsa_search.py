"""The branch-and-bound table search equals the full search and the previous paths."""

from __future__ import annotations

import json

import capsa_legacy as legacy
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import arrange, arrange_many, arrange_many_columns
from solver.cards import format_cards
from solver.cli import main as capsa_main
from solver.errors import InputError
from solver.games.capsa.prepared import prepare
from solver.games.capsa.rules import resolve_rules
from solver.games.capsa.search import search_best
from solver.games.capsa.splits import Arrangement, row_strengths, unpack_split
from solver.games.capsa.strategy.play import deal, table_play
from solver.games.capsa.strategy.tables import tables_for

RULE_SETS = [
    "standard", "two-four", "basic", "indonesia",
    {"preset": "standard", "single_royalty": True},
    {"preset": "standard", "single_royalty": True, "royalty_mode": "net"},
    {"preset": "two-four", "royalties": "standard", "single_royalty": True},
    # royalty-heavy: royalties on common rows, large units
    {"preset": "standard", "royalties": {
        "front": {"pair": 2, "trips": 30},
        "middle": {"two_pair": 1, "trips": 4, "straight": 6, "flush": 8, "full_house": 12,
                   "quads": 40, "straight_flush": 60, "royal_flush": 100},
        "back": {"trips": 1, "straight": 2, "flush": 3, "full_house": 5, "quads": 20,
                 "straight_flush": 30, "royal_flush": 50}}},
    # royalties that do not grow with strength (a weak row pays more than a stronger one)
    {"preset": "standard", "royalties": {"front": {"high_card": 3, "trips": 2},
                                         "middle": {"pair": 5, "flush": 1},
                                         "back": {"high_card": 2, "quads": 1}},
     "single_royalty": True},
    {"preset": "standard", "royalty_mode": "net",
     "royalties": {"middle": {"two_pair": 7}, "back": {"pair": 4, "full_house": 9}}},
]

hands13 = st.permutations(list(range(52))).map(lambda p: np.sort(np.array(p[:13], dtype=np.int64)))


def _full(hands, rules):
    return table_play(hands, rules, prune=False)


@pytest.mark.parametrize("spec", RULE_SETS, ids=str)
def test_best_equals_full_search_on_random_hands(spec):
    rules = resolve_rules(spec)
    rng = np.random.default_rng(11)
    hands = deal(rng, 40).reshape(-1, 13)
    split, ev, rows, found = search_best(hands, prepare(rules))
    _, full_ev, full_rows = _full(hands, rules)
    assert (found == 1).all()
    np.testing.assert_array_equal(ev[:, 0], full_ev)
    np.testing.assert_array_equal(rows[:, 0], full_rows)


@pytest.mark.parametrize("spec", RULE_SETS, ids=str)
def test_best_equals_full_search_on_special_hands(spec):
    """Hands full of pairs, trips, flushes and straights, where the bounds are tightest."""
    rules = resolve_rules(spec)
    rng = np.random.default_rng(5)
    special = []
    for _ in range(12):
        ranks = rng.choice(13, size=5, replace=False)  # pairs, trips and quads of few ranks
        cards = np.concatenate([r * 4 + np.arange(4) for r in ranks])[:13]
        special.append(np.sort(cards))
    suited = np.arange(0, 52, 4)  # one suit: straight flushes and a dragon
    special += [suited, np.sort(np.r_[np.arange(0, 40, 4), [1, 5, 9]]),
                np.sort(np.r_[np.arange(0, 28, 4), np.arange(1, 25, 4)])]
    hands = np.array(special, dtype=np.int64)
    _, ev, rows, _ = search_best(hands, prepare(rules))
    _, full_ev, full_rows = _full(hands, rules)
    np.testing.assert_array_equal(ev[:, 0], full_ev)
    np.testing.assert_array_equal(rows[:, 0], full_rows)


def test_bound_kept_per_strength_serves_one_hand_only():
    """A back's bound is kept per strength for the rest of its hand (backs of one strength
    leave the same ranks); the next hand, in the same call or the next, must not read it. The
    same hands in one call, one by one, and one by one between other rules' calls (which
    share the scratch) give the full search's answers."""
    rules, other = resolve_rules("standard"), resolve_rules("two-four")
    rng = np.random.default_rng(8)
    hands = deal(rng, 30).reshape(-1, 13)
    hands = np.concatenate([hands, hands[::-1]])  # the same hands again, after others
    tables = tables_for(rules, card_removal=False)  # the plain search keeps the bounds
    _, full_ev, full_rows = table_play(hands, rules, tables, prune=False)
    _, ev, rows, _ = search_best(hands, prepare(rules, tables))
    np.testing.assert_array_equal(ev[:, 0], full_ev)
    np.testing.assert_array_equal(rows[:, 0], full_rows)
    for i, hand in enumerate(hands):
        search_best(hands[(i + 7) % len(hands)][None], prepare(other, tables_for(other, card_removal=False)))
        _, ev1, rows1, _ = search_best(hand[None], prepare(rules, tables))
        assert ev1[0, 0] == full_ev[i] and (rows1[0, 0] == full_rows[i]).all()


@pytest.mark.parametrize("spec", RULE_SETS, ids=str)
def test_best_equals_full_search_on_hands_of_few_ranks_and_suits(spec):
    """Hands dealt from a few ranks and suits: many pairs, trips, straights and flushes left
    beside each back, the cases the bounds reason about."""
    rules = resolve_rules(spec)
    rng = np.random.default_rng(21)
    hands = []
    for _ in range(60):
        ranks = rng.choice(13, size=rng.integers(5, 9), replace=False)
        suits = rng.choice(4, size=rng.integers(2, 5), replace=False)
        deck = sorted({int(r) * 4 + int(s) for r in ranks for s in suits}
                      | ({int(c) for c in rng.choice(52, 13, replace=False)}
                         if len(ranks) * len(suits) < 13 else set()))
        hands.append(np.sort(rng.choice(deck, 13, replace=False)))
    hands = np.array(hands, dtype=np.int64)
    _, ev, rows, _ = search_best(hands, prepare(rules))
    _, full_ev, full_rows = _full(hands, rules)
    np.testing.assert_array_equal(ev[:, 0], full_ev)
    np.testing.assert_array_equal(rows[:, 0], full_rows)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=hands13, spec=st.sampled_from(RULE_SETS), top=st.integers(1, 12))
def test_top_k_equals_previous_arrange(hand, spec, top):
    """The best k distinct row-strength triples, values and representative splits equal the
    previous path's (every valid split scored, then a top-k pass)."""
    rules = resolve_rules(spec)
    n_valid, previous = legacy.table_top(hand, rules, top)
    split, ev, rows, found = search_best(hand[None, :], prepare(rules), top)
    got = [(int(split[0, i]), float(ev[0, i]), tuple(int(x) for x in rows[0, i]))
           for i in range(int(found[0]))]
    assert got == previous
    res = arrange(hand, rules, 2, top=top)
    assert res.valid_arrangements == n_valid == res.candidates
    assert [a.ev for a in res.arrangements] == sorted((a.ev for a in res.arrangements),
                                                      reverse=True)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), spec=st.sampled_from(RULE_SETS))
def test_batch_equals_previous_batch(seed, spec):
    rules = resolve_rules(spec)
    hands = deal(np.random.default_rng(seed), 6).reshape(-1, 13)
    _, ev, rows = table_play(hands, rules)
    _, old_ev, old_rows = legacy.table_play(hands, rules)
    # the old two-four loop summed the same terms in another order: equal to the last bits
    np.testing.assert_allclose(ev, old_ev, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(rows, old_rows)


def _as_advised(got: dict, want: dict, rules, hand: np.ndarray, top: int) -> dict:
    """``want``, the previous path's answer listing every candidate, in the order the advice
    gives (``got["kept_table"]``, popped: table's split moved first) and cut to ``top``."""
    kept = got.pop("kept_table")
    assert want.pop("kept_table") is None  # the previous path did not say
    arrs = want["arrangements"]
    if kept:
        rows = tuple(int(x) for x in table_play(hand[None, :], rules, tables_for(rules))[2][0])
        at = [i for i, x in enumerate(arrs)
              if row_strengths(Arrangement.from_dict(x), rules) == rows]
        assert at and at[0] > 0  # a candidate, and not the best on the deals
        arrs = [arrs[at[0]], *arrs[:at[0]], *arrs[at[0] + 1:]]
    want["arrangements"] = arrs[:top]
    return want


@pytest.mark.parametrize("spec", ["standard", "two-four",
                                  {"preset": "standard", "single_royalty": True}], ids=str)
@pytest.mark.parametrize("opponents", [1, 3])
def test_montecarlo_deterministic_and_equal_to_previous(spec, opponents):
    """Same seed, same answer; and the whole answer (arrangements, ev, row odds) equals the
    previous code path's on the same deals."""
    rules = resolve_rules(spec)
    for seed, hand in enumerate(deal(np.random.default_rng(8), 3).reshape(-1, 13)):
        a = arrange(hand, rules, opponents, "montecarlo", 150, seed=seed, top=3,
                    adaptive=False).to_dict()
        assert a == arrange(hand, rules, opponents, "montecarlo", 150, seed=seed, top=3,
                            adaptive=False).to_dict()
        assert a.pop("tables")["file"] == "tables.npz"  # the previous path did not say
        assert a.pop("samples_used") == 150  # nor how many deals it drew: all of them
        want = legacy.arrange_montecarlo(hand, rules, opponents, 150, seed, 100).to_dict()
        assert want.pop("samples_used") is None
        assert a == _as_advised(a, want, rules, hand, 3)


@pytest.mark.parametrize("spec", ["standard", "two-four", "basic",
                                  {"preset": "standard", "single_royalty": True}], ids=str)
@pytest.mark.parametrize("opponents,top", [(1, 1), (3, 1), (1, 3)])
def test_adaptive_montecarlo_is_the_full_scoring_of_the_deals_it_drew(spec, opponents, top):
    """An adaptive answer is exactly the full run's answer on the deals it drew (the first
    ``samples_used`` of the full run's; the previous path's on the first hand), deterministic for a seed, the same deals
    whatever ``top``; and it stops only on a block boundary, after two blocks at least."""
    rules = resolve_rules(spec)
    stopped = 0
    for seed, hand in enumerate(deal(np.random.default_rng(9), 6).reshape(-1, 13)):
        a = arrange(hand, rules, opponents, "montecarlo", 400, seed=seed, top=top).to_dict()
        if seed == 0:  # once is enough: the other tests check determinism at length
            assert a == arrange(hand, rules, opponents, "montecarlo", 400, seed=seed,
                                top=top).to_dict()
        used = a.pop("samples_used")
        if top > 1:  # the same deals whatever top
            one = arrange(hand, rules, opponents, "montecarlo", 400, seed=seed, top=1)
            assert one.samples_used == used
            assert one.to_dict()["arrangements"][0] == a["arrangements"][0]
        assert a.pop("tables")["file"] == "tables.npz"
        assert used in (100, 150, 200, 250, 300, 350, 400)  # blocks of 50, at least two
        stopped += used < 400
        if seed == 0:  # the previous path (slow: its search is the old one) once
            want = legacy.arrange_montecarlo(hand, rules, opponents, used, seed, 100).to_dict()
            want = _as_advised(a, want, rules, hand, top)
        else:  # else today's full run on those deals (the same blocks, so the same first),
            # itself equal to the previous path's
            want = arrange(hand, rules, opponents, "montecarlo", used, seed=seed, top=top,
                           adaptive=False).to_dict()
            assert want.pop("tables")["file"] == "tables.npz"
        want["samples"] = 400  # the most it may draw
        want.pop("samples_used")
        assert a == want
    if opponents == 3:
        assert stopped > 0  # against three opponents most hands settle early


@settings(max_examples=30, deadline=None)
@given(hand=hands13, spec=st.sampled_from(RULE_SETS), opponents=st.integers(1, 3))
def test_arrange_table_equals_previous(hand, spec, opponents):
    rules = resolve_rules(spec)
    got = arrange(hand, rules, opponents, top=5).to_dict()
    assert got.pop("tables")["file"] == "tables.npz"  # the previous path did not say
    if got["natural"] is not None:  # the natural's value is new: the rest as before
        ev, declare = got["natural"].pop("ev"), got["natural"].pop("declare")
        assert declare is (ev > got["arrangements"][0]["ev"])
    assert got == legacy.arrange_table(hand, rules, opponents, 5).to_dict()


@pytest.mark.parametrize("spec", ["standard", {"preset": "standard", "single_royalty": True}],
                         ids=str)
def test_columns_equal_dicts(spec):
    rules = resolve_rules(spec)
    hands = np.sort(deal(np.random.default_rng(3), 30).reshape(-1, 13), axis=1)
    dicts = arrange_many(hands, spec, 2, processes=1)
    # the dicts as the previous code built them, one per hand
    split, ev, _ = legacy.table_play(hands, rules)
    st_ = tables_for(rules)
    net = rules.royalty_mode == "net"
    old = []
    for h, p, v in zip(hands, split, ev):
        per_opp = ((1 - st_.p_natural) * (v - (st_.opp_royalty if net else 0.0))
                   - st_.p_natural * st_.natural_units)
        d = {"hand": format_cards(h)}
        d.update(unpack_split(h, int(p)).to_dict())
        d["ev"] = round(float(2 * per_opp), 6)
        old.append(d)
    # the same value and row strengths; of splits with equal rows the search keeps the
    # smallest packed one where the old search kept the first it met
    assert [(d["hand"], d["ev"]) for d in dicts] == [(d["hand"], d["ev"]) for d in old]
    assert [row_strengths(Arrangement.from_dict(d), rules) for d in dicts] == \
        [row_strengths(Arrangement.from_dict(d), rules) for d in old]
    cols = arrange_many_columns(hands, spec, 2, processes=1, chunk_size=7)
    assert cols.to_dicts() == dicts
    assert len(cols) == len(dicts)
    table = cols.to_arrow(lines=list(range(1, 31)), ids=[None] * 29 + [5])
    assert table.num_rows == len(dicts)
    assert [round(e, 6) for e in table.column("ev").to_pylist()] == [d["ev"] for d in dicts]
    for row in ("hand", "front", "middle", "back"):
        assert table.column(row).to_pylist() == [d[row] for d in dicts]
    assert table.column("id").to_pylist() == [None] * 29 + ["5"]
    lines = cols.json_lines(range(1, 31), [None] * 29 + [5]).splitlines()
    assert [json.loads(x) for x in lines] == [{"line": i + 1, **({"id": 5} if i == 29 else {}),
                                               **d} for i, d in enumerate(dicts)]


def test_ranked_arrangements_are_values_equal_to_the_previous_path():
    hand = "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h"
    res = arrange(hand, "standard", 3, top=4)
    previous = legacy.arrange_table(hand, resolve_rules("standard"), 3, 4)
    assert res.arrangements == previous.arrangements
    assert [a.rows for a in res.arrangements] == [a.rows for a in previous.arrangements]
    assert res.best.arrangement == previous.best.arrangement
    assert [hash(a) for a in res.arrangements] == [hash(a) for a in previous.arrangements]
    assert res == previous and hash(res) == hash(previous)
    assert res == arrange(hand, "standard", 3, top=4)
    assert res != arrange(hand, "standard", 2, top=4)
    with pytest.raises(AttributeError, match="cannot assign"):
        setattr(res.best, "ev", 0.0)
    with pytest.raises(AttributeError, match="cannot assign"):
        setattr(res, "method", "known")
    assert not hasattr(res.best, "__dict__")  # slotted


def test_the_adaptive_switch_in_python_http_and_cli(client, capsys):
    """``adaptive=False`` / ``"adaptive": false`` / ``--all-samples`` draw every sample; the
    default may stop early, and then answers on fewer deals; bad values are refused."""
    hand = "As Ad Ah Kd Kc Qs Js Ts 9h 7c 6d 5s 3c"  # trips and a straight: settles early
    full = arrange(hand, "standard", 3, "montecarlo", 1000, seed=2, top=1, adaptive=False)
    fast = arrange(hand, "standard", 3, "montecarlo", 1000, seed=2, top=1)
    assert full.samples_used == 1000 and fast.samples_used < 1000
    assert fast.best.split == full.best.split
    with pytest.raises(InputError, match="adaptive"):
        arrange(hand, "standard", 3, "montecarlo", 100, seed=2, adaptive="no")
    body = {"hand": hand, "method": "montecarlo", "samples": 1000, "seed": 2, "top": 1}
    got = client.post("/v1/capsa/arrange", json=body).get_json()
    assert got["samples_used"] == fast.samples_used and got["samples"] == 1000
    got = client.post("/v1/capsa/arrange", json={**body, "adaptive": False}).get_json()
    assert got["samples_used"] == 1000
    r = client.post("/v1/capsa/arrange", json={**body, "adaptive": "no"})
    assert r.status_code == 400 and "adaptive" in r.get_data(as_text=True)
    assert capsa_main(["arrange", hand, "--method", "montecarlo", "--seed", "2", "--top", "1",
                       "--all-samples", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["samples_used"] == 1000
