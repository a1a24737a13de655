"""The Da Bai Fen value network: its file format, features from what a seat sees only, the
self-play training's determinism and resume, and the bots built on it playing legally."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import InputError
from solver.games.da_bai_fen.advise import RolloutSearchBot, SearchBot, advise, rank
from solver.games.da_bai_fen.engine import Kind, Phase, new_hand
from solver.games.da_bai_fen.net import (
    MOVE_FEATURES,
    STATE_FEATURES,
    DaBaiFenNet,
    NetBot,
    decision_features,
    default_net,
    legal_q,
    net_moves,
    seen_from_state,
    seen_from_view,
    slots,
)
from solver.games.da_bai_fen.train import play_training_hand
from solver.games.da_bai_fen.view import View, legal_count, sample_world


def played_state(seed: int, steps: int):
    """A hand some random moves in: a first hand (odd seeds) or a later one."""
    if seed % 2:
        state = new_hand(seed=seed)
    else:
        rng = random.Random(seed)
        leader = rng.randrange(4)
        state = new_hand(seed=seed, dealer=leader, leader=leader,
                         levels=(rng.randrange(13), rng.randrange(13)))
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


def _same(a, b):
    return a.kind is b.kind and sorted(a.cards) == sorted(b.cards)


def test_cards_take_one_slot_each_whatever_the_trump():
    for trump_rank in (0, 7, 12):
        for suit in (None, 0, 3):
            assert sorted(slots(trump_rank, suit)) == list(range(54))
    # the trump-rank card of the trump suit and the jokers sit at the top
    assert [slots(0, 2)[c] for c in (2, 52, 53)] == [51, 52, 53]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 90))
def test_features_come_from_the_observation_alone(seed, steps):
    """The engine-side features equal the ones built from the seat's observation, and do not
    change when the hidden cards (other hands, the undrawn deck, the buried kitty) are dealt
    differently."""
    state = played_state(seed, steps)
    if state.is_terminal():
        return
    view = View(state.observation(state.current_player))
    seen = seen_from_state(state)
    moves = net_moves(seen)
    s, m = decision_features(seen, moves)
    s2, m2 = decision_features(seen_from_view(view), net_moves(seen_from_view(view)))
    assert np.array_equal(s, s2) and np.array_equal(m, m2)
    for k in range(2):
        other = seen_from_state(sample_world(view, random.Random(seed + k)))
        s3, m3 = decision_features(other, net_moves(other))
        assert np.array_equal(s, s3) and np.array_equal(m, m3)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 90))
def test_net_moves_are_legal_and_the_bot_agrees_on_both_paths(seed, steps):
    state = played_state(seed, steps)
    if state.is_terminal():
        return
    legal = state.legal_moves()
    seen = seen_from_state(state)
    assert all(any(_same(m, x) for x in legal) for m in net_moves(seen))
    view = View(state.observation(state.current_player))
    assert legal_count(view) == len(legal)
    bot = NetBot(DaBaiFenNet.initial(seed=seed, hidden=(8,)))
    fast = bot.choose_play(state)
    assert any(_same(fast, x) for x in legal)
    assert _same(bot(state.observation(state.current_player), legal, random.Random(0)), fast)


def test_q_covers_every_decision_kind():
    net = default_net()
    state = played_state(1, 0)  # the draw of a first hand
    kinds = set()
    while not state.is_terminal():
        seen = seen_from_state(state)
        moves = net_moves(seen)
        q = legal_q(net, seen, moves)
        assert q.shape == (len(moves),) and np.isfinite(q).all()
        kinds.update(m.kind for m in moves)
        state.apply(moves[int(np.argmax(q))])
    assert kinds == {Kind.SHOW, Kind.NO_SHOW, Kind.BURY, Kind.PLAY}


def test_training_records_target_the_seats_final_value():
    net = DaBaiFenNet.initial(seed=1, hidden=(8,))
    s, m, y = play_training_hand(net, 7, 0.5)
    assert s.shape[0] == m.shape[0] == y.shape[0] > 0
    assert s.shape[1] == STATE_FEATURES and m.shape[1] == MOVE_FEATURES
    # the two teams' values are opposite: each decision's target is one of two numbers
    assert len({round(abs(float(v)), 6) for v in y}) == 1


@pytest.mark.parametrize("seed", [11, 12])
def test_search_bots_play_whole_hands_legally(seed):
    bots = [SearchBot(iterations=1), RolloutSearchBot(iterations=1),
            SearchBot(iterations=2, depth=1), NetBot()]
    state = played_state(seed, 0)
    rng = random.Random(0)
    phases = set()
    while not state.is_terminal():
        p = state.current_player
        phases.add(state.phase)
        legal = state.legal_moves()
        move = bots[p](state.observation(p), legal, rng)
        assert move in legal
        state.apply(move)
    assert Phase.PLAY in phases and sum(state.returns()) == 0


def test_advice_is_deterministic_and_reports_q():
    state = played_state(9, 20)
    obs = state.observation(state.current_player)
    a, b = advise(obs, iterations=2, seed=3), advise(obs, iterations=2, seed=3)
    a.pop("elapsed_ms"), b.pop("elapsed_ms")
    assert a == b
    assert len(a["q"]) == len(a["moves"]) and "network" in a["method"]
    with pytest.raises(InputError, match="width must be"):
        rank(obs, iterations=2, seed=1, width=0)
    with pytest.raises(InputError, match="depth must be"):
        rank(obs, iterations=2, seed=1, depth=0)


def test_da_bai_fen_vs_match_plays_both_seatings_and_reports(match_bench):
    bench = match_bench
    rec = bench.da_bai_fen_vs_deal(2, 12, ("net", "greedy", "default"))
    assert [r["team"] for r in rec["rows"]] == [0, 1]
    assert sum(r["declarers"] for r in rec["rows"]) == 1  # a later hand: the leader is fixed
    assert all(len(r["times"]) == r["calls"] for r in rec["rows"])
    text = bench.report("da-bai-fen-vs", [rec | {"wall": 0.0}],
                        {"iterations": 12, "hero": "net (vs a greedy team)"})
    assert "levels per hand" in text and "ms per decision: median" in text


def test_oracle_bound_plays_the_true_deal_in_both_seatings(match_bench):
    """The benchmark's oracle (a bound that reads the true deal) must be bound to each hand
    and play legal moves; the engine rejects any other."""
    bench = match_bench
    rec = bench.da_bai_fen_vs_deal(3, 12, ("oracle:2", "greedy", "default"))
    assert [r["team"] for r in rec["rows"]] == [0, 1]
    assert all(r["calls"] > 0 for r in rec["rows"])
    unbound = bench.make_da_bai_fen_bot("oracle", 12)
    assert unbound.width == 6 and unbound.state is None
