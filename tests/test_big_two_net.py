"""The Big Two value network: its file format, features from what a seat sees only, the
self-play training's determinism and resume, and the bots built on it playing legally."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_value_nets import GAMES

from solver.errors import InputError
from solver.games.big_two.advise import SearchBot
from solver.games.big_two.engine import new_game
from solver.games.big_two.net import (
    MOVE_FEATURES,
    STATE_FEATURES,
    QNet,
    Seen,
    default_net,
    legal_q,
    load,
    seen_from_state,
    state_features,
)
from solver.games.big_two.train import play_training_hand
from solver.games.big_two.view import View, sample_world


def played_state(seed: int, steps: int, rules=None):
    return GAMES["big-two"].played(seed, steps, rules)


def test_a_file_of_another_feature_layout_is_refused(tmp_path):
    net = QNet.initial(seed=0, hidden=(4,))
    net.save(tmp_path / "n.npz")
    with np.load(tmp_path / "n.npz") as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays["meta"]))
    meta["layout"] = "hand:52"
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(tmp_path / "other.npz", **arrays)
    with pytest.raises(InputError, match="another feature layout"):
        load(tmp_path / "other.npz")


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 60), st.sampled_from([2, 3, 4]))
def test_features_come_from_the_observation_alone(seed, steps, players):
    """The engine-side features equal the ones built from the seat's observation, and do not
    change when the hidden cards of the other seats are dealt differently."""
    state = played_state(seed, steps, {"players": players})
    if state.is_terminal():
        return
    view = View(state.observation(state.current_player))
    from_obs = Seen(view.seat, view.n, view.mine, view.counts, view.history, view.current,
                    view.last_player, view.passes, view.rules, not view.history)
    assert np.array_equal(state_features(seen_from_state(state)), state_features(from_obs))
    other = sample_world(view, random.Random(seed))
    assert np.array_equal(state_features(seen_from_state(other)), state_features(from_obs))


def test_q_covers_every_option_the_pass_last():
    state = played_state(4, 3)
    lm = state.legal()
    q = legal_q(default_net(), seen_from_state(state), lm)
    assert q.shape == (len(lm) + (1 if lm.can_pass else 0),) and np.isfinite(q).all()


def test_training_records_target_the_seats_final_points():
    net = QNet.initial(seed=1, hidden=(8,))
    s, m, y = play_training_hand(net, 7, 0.5)
    assert s.shape[0] == m.shape[0] == y.shape[0] > 0
    assert s.shape[1] == STATE_FEATURES and m.shape[1] == MOVE_FEATURES
    assert len(set(np.round(y, 6))) >= 2  # the winner's and the losers' points differ


@pytest.mark.parametrize("rules", [None, {"scoring": "cards-left", "bomb_on_two": False},
                                   {"players": 3}, {"players": 2, "straights": "poker"}])
def test_search_bot_plays_whole_hands_legally(rules):
    bot = SearchBot(iterations=3)
    state = new_game(seed=11, rules=rules)
    rng = random.Random(0)
    while not state.is_terminal():
        p = state.current_player
        state.apply(bot(state.observation(p), state.legal_moves(), rng))
    assert state.is_terminal()


def test_search_options_are_checked_and_taken_by_keyword():
    from solver.games.big_two.advise import rank
    obs = played_state(9, 2).observation(played_state(9, 2).current_player)
    with pytest.raises(InputError, match="width must be"):
        rank(obs, iterations=2, seed=1, width=0)
    assert rank(obs, iterations=2, seed=1, depth=1).moves  # options by keyword


def test_many_candidates_are_valued_alike_on_one_blas_thread():
    """From ONE_BLAS_THREAD_FROM rows on, a call holds BLAS to one thread: the values are
    those of the rows valued a few at a time, and the thread setting is restored after."""
    from threadpoolctl import threadpool_info

    from solver.games import valuenet

    net = default_net()
    rng = np.random.default_rng(5)
    state = rng.random((1, net.STATE_WIDTH))
    moves = rng.random((valuenet.ONE_BLAS_THREAD_FROM + 9, net.MOVE_WIDTH))
    before = [p["num_threads"] for p in threadpool_info()]
    many = net.q(state, moves)
    assert [p["num_threads"] for p in threadpool_info()] == before
    few = np.concatenate([net.q(state, moves[i:i + 4]) for i in range(0, len(moves), 4)])
    np.testing.assert_allclose(many, few, rtol=1e-9, atol=1e-9)


def test_match_oracle_reads_the_true_deal_and_plays_legally(match_bench):
    """The match benchmark's Big Two oracle (a bound, not a bot) is given each hand's true
    state, in the hero's seat and in the all-field reference game, and plays legal moves (the
    engine rejects any other); unbound, it refuses to guess."""
    rules = json.dumps({"scoring": "cards-left", "bomb_on_two": False})
    rec = match_bench.big_two_vs_deal(5, 12, ("oracle:2", "net", rules))
    assert [r["seat"] for r in rec["rows"]] == [0, 1, 2, 3]
    assert all(r["calls"] > 0 for r in rec["rows"])
    rec = match_bench.big_two_vs_deal(5, 12, ("net", "oracle", rules))  # field and reference
    assert [r["calls"] > 0 for r in rec["rows"]] == [True] * 4
    bot = match_bench.make_big_two_bot("oracle:4", 12)
    assert (bot.width, bot.game, bot.state) == (4, "big-two", None)
    state = new_game(seed=1)
    with pytest.raises(RuntimeError, match="bind"):
        bot(state.observation(state.current_player), state.legal_moves(), random.Random(1))
    other = new_game(seed=1)  # bound to a hand other than the one it is asked to play
    other._apply_trusted(other.legal()[0])
    bot.bind(other)
    with pytest.raises(RuntimeError, match="another hand"):
        bot(state.observation(state.current_player), state.legal_moves(), random.Random(1))
