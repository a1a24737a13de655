"""The duplicate-match harness: deterministic, fair (self-play is exactly even), settled as the
referee settles, and able to tell a better strategy from a worse one."""

from __future__ import annotations

import capsa_reference as ref
import numpy as np
import pytest

from solver.errors import InputError
from solver.games.capsa.referee import score
from solver.games.capsa.rules import resolve_rules
from solver.games.capsa.strategy.match import (
    Strategy,
    deal_margins,
    duplicate_match,
    match_deals,
)


def test_deterministic_for_a_seed_whatever_the_chunks_and_workers():
    a = duplicate_match("table", "naive", 60, 2, "standard", seed=11, workers=1)
    b = duplicate_match("table", "naive", 60, 2, "standard", seed=11, workers=1, chunk=7)
    c = duplicate_match("table", "naive", 60, 2, "standard", seed=11, workers=2, chunk=9)
    assert np.array_equal(a.margins, b.margins) and np.array_equal(a.margins, c.margins)
    assert a == b == c
    other = duplicate_match("table", "naive", 60, 2, "standard", seed=12, workers=1)
    assert not np.array_equal(a.margins, other.margins)


def test_montecarlo_deterministic_across_chunks():
    mc = Strategy("montecarlo", samples=20)
    a = duplicate_match(mc, "table", 6, 2, "standard", seed=3, workers=1)
    b = duplicate_match(mc, "table", 6, 2, "standard", seed=3, workers=1, chunk=1)
    assert np.array_equal(a.margins, b.margins)


@pytest.mark.parametrize("rules", ["standard", "two-four"])
@pytest.mark.parametrize("strategy", [Strategy("naive"), Strategy("table"),
                                      Strategy("montecarlo", 10)])
def test_self_play_is_exactly_even_per_deal(strategy, rules):
    deals = 40 if strategy.name != "montecarlo" else 6
    res = duplicate_match(strategy, strategy, deals, 2, rules, seed=5, workers=1)
    assert np.all(res.margins == 0.0)
    assert res.mean == 0.0 and res.se == 0.0


def _arr_dict(seat):
    if seat.natural is not None:
        return {"hand": list(seat.cards)}
    a = seat.arrangement
    return {"front": list(a.front), "middle": list(a.middle), "back": list(a.back)}


@pytest.mark.parametrize("rules", ["standard", "two-four"])
def test_margins_match_the_referee_and_the_plain_reference(rules):
    """Recompute every game with ``referee.score`` on plain dicts, and (hands without naturals)
    with the plain-Python settlement of tests/capsa_reference.py."""
    r = resolve_rules(rules)
    a, b = Strategy("table"), Strategy("naive")
    for players in (2, 4):
        deals = match_deals(100, players, seed=21 + players)
        margins = deal_margins(a, b, deals, r, 0)
        sa = a.seats(deals.reshape(-1, 13), r, players - 1, 0)
        sb = b.seats(deals.reshape(-1, 13), r, players - 1, 0)
        checked_plain = 0
        for d in range(len(deals)):
            A = sa[d * players:(d + 1) * players]
            B = sb[d * players:(d + 1) * players]
            if players == 2:
                g1 = score([_arr_dict(A[0]), _arr_dict(B[1])], r).players[0].points
                g2 = score([_arr_dict(B[0]), _arr_dict(A[1])], r).players[1].points
                expected = (g1 + g2) / 2
                plain_seats = [(A[0], B[1], 1), (A[1], B[0], 1)]
            else:
                g1 = score([_arr_dict(A[0])] + [_arr_dict(s) for s in B[1:]], r).players[0].points
                g2 = score([_arr_dict(s) for s in B], r).players[0].points
                expected = g1 - g2
                plain_seats = [(A[0], o, 1) for o in B[1:]] + [(B[0], o, -1) for o in B[1:]]
            assert margins[d] == expected
            if all(s.natural is None for s in A + B):
                total = 0
                for x, y, sign in plain_seats:
                    xa, ya = x.arrangement, y.arrangement
                    total += sign * ref.settle((xa.front, xa.middle, xa.back),
                                               (ya.front, ya.middle, ya.back),
                                               scoring=r.scoring, royalties=bool(r.royalties))
                assert (total / 2 if players == 2 else total) == margins[d]
                checked_plain += 1
        assert checked_plain > 70


def test_naturals_are_declared():
    r = resolve_rules("standard")
    dragon = np.arange(0, 52, 4)  # 2c 3c ... Ac: 13 ranks, also a suited dragon
    seat = Strategy("naive").seats(dragon[None, :], r, 1, 0)[0]
    assert seat.natural is not None and seat.natural.kind == "dragon"
    plain = Strategy("naive").seats(dragon[None, :], resolve_rules("two-four"), 1, 0)[0]
    assert plain.natural is None and plain.arrangement is not None


@pytest.mark.parametrize("rules", ["two-four", "standard"])
def test_table_beats_naive_heads_up(rules):
    res = duplicate_match("table", "naive", 600, 2, rules, seed=7, workers=1)
    assert res.ci_low > 0, res
    assert res.ci_low == pytest.approx(res.mean - 1.96 * res.se)
    assert res.se == pytest.approx(res.margins.std(ddof=1) / np.sqrt(600))


def test_four_players_self_play_and_sign():
    res = duplicate_match("naive", "naive", 30, 4, "standard", seed=2, workers=1)
    assert np.all(res.margins == 0.0)
    worse = duplicate_match("naive", "table", 300, 4, "two-four", seed=2, workers=1)
    assert worse.ci_high < 0


def test_bad_input():
    with pytest.raises(InputError, match="strategy"):
        duplicate_match("random", "table", 10)
    with pytest.raises(InputError, match="players"):
        duplicate_match("table", "naive", 10, players=3)
    with pytest.raises(InputError, match="deals"):
        duplicate_match("table", "naive", 0)
    with pytest.raises(InputError, match="samples"):
        Strategy("montecarlo", samples=0)
