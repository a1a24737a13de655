"""The Da San value network: its file format, features from what a seat sees only, the
self-play training's determinism and resume, and the bots built on it playing legally."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_value_nets import GAMES

from solver.games.da_san.advise import SearchBot
from solver.games.da_san.engine import new_game
from solver.games.da_san.net import (
    MOVE_FEATURES,
    STATE_FEATURES,
    DaSanNet,
    default_net,
    legal_q,
    seen_from_state,
    seen_from_view,
    state_features,
)
from solver.games.da_san.train import play_training_hand
from solver.games.da_san.view import View, sample_world


def played_state(seed: int, steps: int, rules=None):
    return GAMES["da-san"].played(seed, steps, rules)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 60), st.sampled_from([2, 3, 4]))
def test_features_come_from_the_observation_alone(seed, steps, min_run):
    """The engine-side features equal the ones built from the seat's observation, and do not
    change when the hidden cards (other hands, a closed kitty) are dealt differently."""
    state = played_state(seed, steps, {"min_run": min_run})
    if state.is_terminal():
        return
    view = View(state.observation(state.current_player))
    from_obs = state_features(seen_from_view(view))
    assert np.array_equal(state_features(seen_from_state(state)), from_obs)
    other = sample_world(view, random.Random(seed))
    assert np.array_equal(state_features(seen_from_state(other)), from_obs)


def test_q_covers_every_legal_move_bids_included():
    state = new_game(seed=4)
    legal = state.legal_moves()  # the auction
    q = legal_q(default_net(), seen_from_state(state), legal)
    assert q.shape == (len(legal),) and np.isfinite(q).all()


def test_training_records_target_the_seats_final_points():
    net = DaSanNet.initial(seed=1, hidden=(8,))
    s, m, y = play_training_hand(net, 7, 0.5)
    assert s.shape[0] == m.shape[0] == y.shape[0] > 0
    assert s.shape[1] == STATE_FEATURES and m.shape[1] == MOVE_FEATURES
    # the bidder wins or loses twice the bid, each other seat once: targets of both sizes
    assert len({abs(round(float(v), 6)) for v in y}) == 2


@pytest.mark.parametrize("seed", [11, 12])
def test_search_bot_plays_whole_hands_legally(seed):
    bot = SearchBot(iterations=2)
    state = new_game(seed=seed)
    rng = random.Random(0)
    while not state.is_terminal():
        p = state.current_player
        state.apply(bot(state.observation(p), state.legal_moves(), rng))
    assert sum(state.returns()) == 0
