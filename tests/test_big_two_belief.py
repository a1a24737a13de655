"""Big Two beliefs (where the unseen cards are): the features read only public facts and put
each pass and play under the right seat and kind, the labels are the true hands, a world dealt
from the odds keeps every count and follows the odds, the data and the fit are deterministic
and resume to the same bytes, and the search with beliefs stays legal and seeded. No
strength is asserted."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import NUM_CARDS
from solver.cli import main
from solver.errors import InputError
from solver.games.big_two import belief as B
from solver.games.big_two.advise import SearchBot, rank
from solver.games.big_two.engine import BigTwoState, new_game
from solver.games.big_two.moves import PASS
from solver.games.big_two.net import NetBot, seen_from_state
from solver.games.big_two.view import View

RULES = {"scoring": "cards-left", "bomb_on_two": False}


def _played(seed: int, steps: int, players: int = 4) -> BigTwoState:
    state = new_game(seed=seed, rules={**RULES, "players": players})
    bot = NetBot()
    for _ in range(steps):
        if state.winner >= 0:
            break
        state._apply_trusted(bot.choose_play(state))
    return state


@pytest.fixture(scope="module")
def small_net() -> B.BeliefNet:
    return B.BeliefNet.initial(seed=3, hidden=(16,))


def _group_block(r: int, kind_group: int, played: bool) -> slice:
    start = B.STATE_FEATURES + ((r * 2 + played) * B.GROUPS + kind_group) * NUM_CARDS
    return slice(start, start + NUM_CARDS)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(1, 10_000), steps=st.integers(1, 45), players=st.sampled_from([2, 3, 4]))
def test_history_features_put_each_pass_and_play_under_its_seat_and_kind(seed, steps, players):
    state = _played(seed, steps, players)
    if state.winner >= 0:
        return
    seen = seen_from_state(state)
    x = B.belief_features(seen)
    assert x.shape == (B.FEATURES,) and set(np.unique(x)) <= {0.0, 1.0}
    # the same facts counted the slow way, move by move
    n, seat = state.num_players, state.current_player
    passed: Counter = Counter()
    played: Counter = Counter()
    current, passes = None, 0
    for p, m in state.history:
        r = (p - seat) % n - 1
        if m.is_pass:
            if current is not None and r >= 0:
                for b in range(NUM_CARDS):
                    if (current.mask >> b) & 1:
                        passed[(r, min(int(current.kind), 4) - 1, b)] = 1
            passes += 1
            if passes >= n - 1:
                current, passes = None, 0
        else:
            if r >= 0:
                for b in range(NUM_CARDS):
                    if (m.mask >> b) & 1:
                        played[(r, min(int(m.kind), 4) - 1, b)] = 1
            current, passes = m, 0
    for r in range(3):
        for g in range(B.GROUPS):
            got_passed = x[_group_block(r, g, False)]
            got_played = x[_group_block(r, g, True)]
            assert [b for b in range(NUM_CARDS) if got_passed[b]] == \
                   sorted(b for (rr, gg, b) in passed if (rr, gg) == (r, g))
            assert [b for b in range(NUM_CARDS) if got_played[b]] == \
                   sorted(b for (rr, gg, b) in played if (rr, gg) == (r, g))
    # nothing of the hidden hands: the features of two deals with the same public facts agree
    assert np.array_equal(x, B.belief_features(seen_from_state(state)))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(1, 10_000), steps=st.integers(0, 45), players=st.sampled_from([2, 3, 4]))
def test_labels_are_the_true_hands_and_the_counts_the_public_ones(seed, steps, players):
    state = _played(seed, steps, players)
    if state.winner >= 0:
        return
    seat = state.current_player
    y = B.labels(state, seat)
    n = state.num_players
    for r in range(1, n):
        hand = state.hand_mask((seat + r) % n)
        assert {b for b in range(NUM_CARDS) if y[b] == r - 1} == \
               {b for b in range(NUM_CARDS) if (hand >> b) & 1}
    counts = B.class_counts(seen_from_state(state))
    assert [int((y == c).sum()) for c in range(B.CLASSES)] == counts
    assert (y == B.ASIDE).sum() == (52 - 13 * n if n < 4 else 0)


@settings(max_examples=40, deadline=None)
@given(data=st.data(), proposals=st.sampled_from([1, 4, 16]))
def test_a_deal_from_odds_keeps_every_count(data, proposals):
    counts = data.draw(st.lists(st.integers(0, 13), min_size=4, max_size=4).filter(
        lambda c: 0 < sum(c) <= 39))
    cards = data.draw(st.permutations(range(NUM_CARDS)))[:sum(counts)]
    raw = np.array(data.draw(st.lists(st.floats(0, 1), min_size=NUM_CARDS * 4,
                                      max_size=NUM_CARDS * 4))).reshape(NUM_CARDS, 4)
    odds = raw * (np.array(counts) > 0)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32)))
    deals = B.deal_from_odds(odds, cards, counts, rng, proposals,
                             data.draw(st.sampled_from([0.5, 1.0, 2.0])), worlds=3)
    assert deals.shape == (3, len(cards))
    for cls in deals:
        assert [int((cls == c).sum()) for c in range(4)] == counts


def test_a_deal_from_odds_follows_them_within_the_counts():
    # two cards, two seats of one card each: card 0 with seat 0 at odds 0.9 / 0.1, card 1 at
    # 0.5 / 0.5; restricted to one card a seat, card 0 sits with seat 0 in 90% of the deals
    odds = np.zeros((NUM_CARDS, 4))
    odds[0, :2] = (0.9, 0.1)
    odds[1, :2] = (0.5, 0.5)
    rng = np.random.default_rng(7)
    many = B.deal_from_odds(odds, [0, 1], [1, 1, 0, 0], rng, 64, worlds=3000)[:, 0]
    assert abs(np.mean(many == 0) - 0.9) < 0.025
    # one proposal is the card-by-card draw itself, which does not correct for the counts
    one = B.deal_from_odds(odds, [0, 1], [1, 1, 0, 0], rng, 1, worlds=3000)[:, 0]
    assert abs(np.mean(one == 0) - 0.7) < 0.03  # (0.9 + 0.5) / 2
    # a card certain to be somewhere is dealt there
    odds[0] = (0.0, 1.0, 0.0, 0.0)
    assert (B.deal_from_odds(odds, [0, 1], [1, 1, 0, 0], rng, 4, worlds=50)[:, 0] == 1).all()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_worlds_from_beliefs_are_consistent_with_the_observation(small_net, players):
    for seed in range(4):
        state = _played(seed + 40, 9 + seed, players)
        if state.winner >= 0:
            continue
        view = View(state.observation(state.current_player))
        sample = B.belief_sampler(small_net, view, proposals=8)
        odds = B.card_odds(small_net, seen_from_state(state))
        assert np.allclose(odds[view.unseen].sum(axis=1), 1.0)
        known = [b for b in range(NUM_CARDS) if b not in view.unseen]
        assert not odds[known].any()
        for k in range(3):
            world = sample(view, random.Random(k))
            assert world.hand_mask(view.seat) == view.mine
            assert world.cards_left() == state.cards_left()
            dealt = 0
            for p in range(players):
                assert not world.hand_mask(p) & dealt
                dealt |= world.hand_mask(p)
            assert all((dealt >> b) & 1 == 0 or b in view.unseen or (view.mine >> b) & 1
                       for b in range(NUM_CARDS))
            assert world.current_player == view.seat and world.history == state.history


def test_the_search_with_beliefs_plays_legal_seeded_moves(small_net):
    state = _played(11, 14)
    obs = state.observation(state.current_player)
    beliefs = B.Beliefs(small_net, proposals=4)
    a = rank(obs, iterations=3, seed=5, belief=beliefs)
    b = rank(obs, iterations=3, seed=5, belief=beliefs)
    assert [m.mask for m, _ in a.moves] == [m.mask for m, _ in b.moves]
    assert a.info["belief"] == {"proposals": 4, "power": 1.0}
    legal = {m.mask for m in state.legal_moves()}
    assert {m.mask for m, _ in a.moves} <= legal | {PASS.mask}
    bot = SearchBot(iterations=2, belief=beliefs)
    assert bot(obs, state.legal_moves(), random.Random(1)) in state.legal_moves()
    with pytest.raises(InputError, match="not both"):
        rank(obs, iterations=2, seed=1, belief=beliefs, infer=(2, 1.0, 4))


def test_the_shipped_beliefs_load_and_say_how_they_were_made():
    net = B.default_belief()
    assert net.meta["command"].startswith("capsa train-belief")
    assert net.meta["seed"] == 1 and net.meta["hands"] >= 100_000
    figures = net.meta["held_out"]
    assert figures["true_mass"] > figures["uniform_mass"]  # recorded, not asserted as a goal


def test_bad_belief_files_are_refused_with_their_name(tmp_path, small_net):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(InputError, match="bad.npz: not a Big Two belief file"):
        B.BeliefNet.load(bad)
    other = tmp_path / "qnet.npz"
    from solver.games.big_two.net import QNet
    QNet.initial(seed=0, hidden=(4,)).save(other)
    with pytest.raises(InputError, match="qnet.npz: format 'capsa-big-two-qnet/1', expected"):
        B.BeliefNet.load(other)
    good = tmp_path / "good.npz"
    small_net.save(good)
    assert B.BeliefNet.load(good).weights[0].shape == (B.FEATURES, 16)
    from solver.npzfile import write_arrays
    write_arrays(tmp_path / "old.npz", {"w0": np.zeros((3, 208), np.float32),
                                        "b0": np.zeros(208, np.float32)},
                 {"format": B.BELIEF_FORMAT, "features": 3})
    with pytest.raises(InputError, match="old.npz: built for another feature layout"):
        B.BeliefNet.load(tmp_path / "old.npz")


def test_data_do_not_depend_on_the_workers_and_resume_to_the_same_bytes(tmp_path):
    one = B.generate(tmp_path / "one", 7, shard=3, seed=2, workers=1)
    two = B.generate(tmp_path / "two", 7, shard=3, seed=2, workers=2)
    assert [p.name for p in one] == ["shard-00000.npz", "shard-00001.npz", "shard-00002.npz"]
    assert [p.read_bytes() for p in one] == [p.read_bytes() for p in two]
    one[1].unlink()
    again = B.generate(tmp_path / "one", 7, shard=3, seed=2)
    assert [p.read_bytes() for p in again] == [p.read_bytes() for p in two]
    x, y = B.load_data(tmp_path / "one")
    assert x.shape[1] == (B.FEATURES + 7) // 8 and len(x) == len(y) > 0
    # data of another run are never mixed in
    with pytest.raises(InputError, match="shard-00000.npz: recorded by another run"):
        B.generate(tmp_path / "one", 7, shard=3, seed=3)
    with pytest.raises(InputError, match="shard-00000.npz: recorded by another run"):
        B.generate(tmp_path / "one", 7, shard=2, seed=2)
    with pytest.raises(InputError, match="more data"):
        B.generate(tmp_path / "one", 3, shard=3, seed=2)


def test_a_fit_resumes_from_its_checkpoint_to_the_same_file(tmp_path, monkeypatch):
    data = tmp_path / "data"
    B.generate(data, 6, shard=3, seed=4)
    kw = {"epochs": 2, "batch": 16, "seed": 4, "held_out": 0.2}
    whole = B.train(data, tmp_path / "whole.npz", **kw)
    real = B.loss_and_gradients
    calls = {"n": 0}
    steps = int(len(B.load_data(data)[1]) * 0.8) // 16  # steps an epoch

    def stop_in_the_second_epoch(*args):
        calls["n"] += 1
        if calls["n"] > steps + 1:
            raise KeyboardInterrupt
        return real(*args)
    monkeypatch.setattr(B, "loss_and_gradients", stop_in_the_second_epoch)
    with pytest.raises(KeyboardInterrupt):
        B.train(data, tmp_path / "broken.npz", **kw)
    assert not (tmp_path / "broken.npz").exists()
    monkeypatch.setattr(B, "loss_and_gradients", real)
    resumed = B.train(data, tmp_path / "broken.npz", **kw)
    assert resumed == whole
    assert (tmp_path / "broken.npz").read_bytes() == (tmp_path / "whole.npz").read_bytes()
    with pytest.raises(InputError, match="another run"):
        B.train(data, tmp_path / "broken.npz", **{**kw, "lr": 0.5})


def test_the_command_trains_a_loadable_file_and_names_bad_arguments(tmp_path, capsys):
    out = tmp_path / "b.npz"
    assert main(["train-belief", "-o", str(out), "--hands", "4", "--epochs", "1",
                 "--no-progress"]) == 0
    net = B.BeliefNet.load(out)
    assert net.meta["command"] == "capsa train-belief -o b.npz --hands 4 --seed 1 --epochs 1 --lr 0.001"
    assert "held-out cross-entropy" in capsys.readouterr().err
    (tmp_path / "f").write_text("x")
    assert main(["train-belief", "-o", str(out), "--data", str(tmp_path / "f")]) == 2
    assert "not a directory" in capsys.readouterr().err
    assert main(["train-belief", "-o", str(tmp_path / "no" / "b.npz")]) == 2
