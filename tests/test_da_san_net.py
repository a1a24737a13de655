"""The Da San value network: its file format, features from what a seat sees only, the
self-play training's determinism and resume, and the bots built on it playing legally."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cli import main
from solver.errors import InputError
from solver.games import dmc, get_game
from solver.games.big_two.net import QNet
from solver.games.da_san.advise import SearchBot, advise
from solver.games.da_san.engine import new_game
from solver.games.da_san.net import (
    DEFAULT_NET,
    FORMAT,
    MOVE_FEATURES,
    STATE_FEATURES,
    DaSanNet,
    NetBot,
    default_net,
    legal_q,
    load,
    seen_from_state,
    seen_from_view,
    state_features,
)
from solver.games.da_san.train import SELF_PLAY, TrainConfig, play_training_hand
from solver.games.da_san.view import View, sample_world

TINY = TrainConfig(games=24, block_games=8, batch=64, hidden=(16, 8))


def train(out, cfg, **kw):
    return dmc.train(SELF_PLAY, out, cfg, **kw)


def played_state(seed: int, steps: int, rules=None):
    state = new_game(seed=seed, rules=rules)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


def test_save_load_round_trip_and_foreign_files(tmp_path):
    net = DaSanNet.initial(seed=3, hidden=(8, 4))
    net.meta["command"] = "test"
    net.save(tmp_path / "n.npz")
    back = load(tmp_path / "n.npz")
    assert back.meta["format"] == FORMAT and back.meta["command"] == "test"
    s = np.zeros(STATE_FEATURES, np.float32)
    m = np.eye(3, MOVE_FEATURES, dtype=np.float32)
    assert np.array_equal(net.q(s, m), back.q(s, m))
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(InputError, match="junk.npz: not a Da San network file"):
        load(tmp_path / "junk.npz")
    QNet.initial(seed=0, hidden=(4,)).save(tmp_path / "big-two.npz")
    with pytest.raises(InputError, match="big-two.npz: format 'capsa-big-two-qnet/1'"):
        load(tmp_path / "big-two.npz")


def test_shipped_network_records_how_it_was_made():
    net = load(DEFAULT_NET)
    assert net.meta["command"].startswith("capsa train-bot da-san")
    assert net.meta["games"] >= 1 and "seed" in net.meta["config"]
    assert DEFAULT_NET.stat().st_size < 2_000_000


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


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 60))
def test_net_bot_moves_are_legal_and_agree_on_both_paths(seed, steps):
    state = played_state(seed, steps)
    if state.is_terminal():
        return
    bot = NetBot(default_net())
    fast = bot.choose_play(state)
    legal = state.legal_moves()
    assert fast in legal
    assert bot(state.observation(state.current_player), legal, random.Random(0)) == fast


def test_q_covers_every_legal_move_bids_included():
    state = new_game(seed=4)
    legal = state.legal_moves()  # the auction
    q = legal_q(default_net(), seen_from_state(state), legal)
    assert q.shape == (len(legal),) and np.isfinite(q).all()


def test_training_is_deterministic_and_resumes_to_the_same_file(tmp_path):
    a = train(tmp_path / "a.npz", TINY)
    half = TrainConfig(**{**TINY.__dict__, "games": 16})
    train(tmp_path / "c.npz", half, checkpoint=tmp_path / "ck.npz", checkpoint_every=8)
    c = train(tmp_path / "c.npz", TINY, checkpoint=tmp_path / "ck.npz", checkpoint_every=8)
    assert c.meta["games"] == 24
    for x, y in zip(a.weights + a.biases, c.weights + c.biases):
        assert np.array_equal(x, y)
    two = train(tmp_path / "w.npz", TINY, workers=2)
    for x, y in zip(a.weights + a.biases, two.weights + two.biases):
        assert np.array_equal(x, y)
    with pytest.raises(InputError, match="other settings"):
        train(tmp_path / "d.npz", TrainConfig(**{**TINY.__dict__, "lr": 1e-3}),
              checkpoint=tmp_path / "ck.npz")


def test_training_records_target_the_seats_final_points():
    net = DaSanNet.initial(seed=1, hidden=(8,))
    s, m, y = play_training_hand(net, 7, 0.5)
    assert s.shape[0] == m.shape[0] == y.shape[0] > 0
    assert s.shape[1] == STATE_FEATURES and m.shape[1] == MOVE_FEATURES
    # the bidder wins or loses twice the bid, each other seat once: targets of both sizes
    assert len({abs(round(float(v), 6)) for v in y}) == 2


def test_cli_trains_a_tiny_file_and_refuses_the_other_games_checkpoint(tmp_path, capsys):
    out = tmp_path / "net.npz"
    assert main(["train-bot", "da-san", "-o", str(out), "--games", "16", "--no-progress"]) == 0
    net = load(out)
    assert net.meta["games"] == 16
    # recorded without what does not change the result, and with the output's name only
    assert net.meta["command"] == "capsa train-bot da-san -o net.npz --games 16"
    main(["train-bot", "da-san", "--output", str(tmp_path / "b.npz"), "--games=16",
          "--checkpoint", str(tmp_path / "ck.npz"), "--workers=1", "--no-progress"])
    assert load(tmp_path / "b.npz").meta["command"] == \
        "capsa train-bot da-san --output b.npz --games=16"
    assert main(["train-bot", "big-two", "-o", str(out), "--games", "16", "--no-progress"]) == 2
    assert "net-train.npz: not a Big Two training checkpoint" in capsys.readouterr().err


@pytest.mark.parametrize("seed", [11, 12])
def test_search_bot_plays_whole_hands_legally(seed):
    bot = SearchBot(iterations=2)
    state = new_game(seed=seed)
    rng = random.Random(0)
    while not state.is_terminal():
        p = state.current_player
        state.apply(bot(state.observation(p), state.legal_moves(), rng))
    assert sum(state.returns()) == 0


def test_advice_is_deterministic_and_reports_q():
    state = played_state(9, 3)
    obs = state.observation(state.current_player)
    a, b = advise(obs, iterations=3, seed=3), advise(obs, iterations=3, seed=3)
    a.pop("elapsed_ms"), b.pop("elapsed_ms")
    assert a == b
    assert len(a["q"]) == len(a["moves"]) and "network" in a["method"]
    from solver.games.da_san.advise import rank
    with pytest.raises(InputError, match="width must be"):
        rank(obs, iterations=2, seed=1, width=0)


def test_registry_offers_the_net_bots():
    assert {"search", "net", "search-rollout", "greedy"} <= set(get_game("da-san").bots)
