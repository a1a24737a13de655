"""Big Two inference (worlds weighed by the others' plays): the public facts it reads at each
past decision are the engine's, a world's likelihood is that of the network's policy, and the
search with it stays legal and deterministic."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from bench_support import load_benchmark
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.games.big_two.advise import SearchBot, rank
from solver.games.big_two.engine import new_game
from solver.games.big_two.infer import log_likelihood, past_decisions, resampler
from solver.games.big_two.moves import generate
from solver.games.big_two.net import NetBot, Seen, default_net, legal_q
from solver.games.big_two.view import View, sample_world

RULES = {"scoring": "cards-left", "bomb_on_two": False}


def _played(seed: int, steps: int, players: int = 4):
    """A hand played ``steps`` moves by the network, with the engine's facts before each."""
    state = new_game(seed=seed, rules={**RULES, "players": players})
    bot, before = NetBot(), []
    for _ in range(steps):
        if state.winner >= 0:
            break
        p = state.current_player
        before.append((p, state.hand_mask(p), tuple(state.cards_left()), state.current_play,
                       state.last_player, state.passes))
        state._apply_trusted(bot.choose_play(state))
    return state, before


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(1, 10_000), steps=st.integers(2, 40), players=st.sampled_from([2, 3, 4]))
def test_past_decisions_carry_the_engines_public_facts(seed, steps, players):
    state, before = _played(seed, steps, players)
    if state.winner >= 0:
        return
    view = View(state.observation(state.current_player))
    decisions = past_decisions(view, 1_000)
    expect = [i for i, (p, *_rest) in enumerate(before) if p != view.seat and i > 0]
    assert [d.index for d in decisions] == expect
    for d in decisions:
        p, hand, counts, current, last_player, passes = before[d.index]
        assert d.seat == p and d.counts == counts and d.passes == passes
        assert d.last_player == last_player
        assert (d.current.mask if d.current else None) == (current.mask if current else None)
        assert state.hand_mask(p) | d.later == hand  # the hand then, rebuilt from the world
    assert past_decisions(view, 3) == decisions[-3:] and past_decisions(view, 0) == []


def test_likelihood_is_the_networks_softmax_policy():
    state, _ = _played(11, 24)
    view = View(state.observation(state.current_player))
    net = default_net()
    decisions = past_decisions(view, 6)
    hands = [state.hand_mask(p) for p in range(4)]
    expect = 0.0
    for d in decisions:  # the reference: one decision at a time, written out
        hand = hands[d.seat] | d.later
        seen = Seen(d.seat, 4, hand, d.counts, view.history[:d.index], d.current,
                    d.last_player, d.passes, view.rules, False)
        lm = generate(hand, d.current, -1, view.rules)
        q = legal_q(net, seen, lm) / 2.0
        options = [int(m) for m in lm.masks] + ([0] if lm.can_pass else [])
        if len(options) == 1:
            continue
        p = np.exp(q - q.max()) / np.exp(q - q.max()).sum()
        expect += math.log(p[options.index(d.move.mask)])
    got = log_likelihood(net, view, decisions, hands, 2.0)
    assert got == pytest.approx(expect, rel=1e-5, abs=1e-6)
    assert math.isfinite(got) and got < 0


def test_a_history_that_does_not_start_at_the_deal_is_not_read():
    state, _ = _played(9, 20)
    obs = state.observation(state.current_player)
    assert past_decisions(View(obs), 8)
    cut = {**obs, "history": obs["history"][1:]}  # the table no longer replays from it
    assert past_decisions(View(cut), 8) == []


def test_resampling_keeps_the_likeliest_world_at_a_low_temperature():
    """With k scripted worlds and a tiny tau, the world drawn is one the others' moves make
    likeliest (the true deal among random ones, in the position below)."""
    state, _ = _played(7, 24)
    view = View(state.observation(state.current_player))
    net = default_net()
    rng = random.Random(2)
    worlds = [sample_world(view, rng) for _ in range(5)] + [state.clone()]
    decisions = past_decisions(view, 8)
    logs = [log_likelihood(net, view, decisions, [w.hand_mask(p) for p in range(4)], 0.05)
            for w in worlds]
    assert max(logs) - min(logs) > 50  # the scripted worlds are far apart in likelihood
    for seed in range(5):
        feed = iter(worlds)
        draw = resampler(net, view, lambda _v, _r: next(feed), len(worlds), 0.05, 8)
        drawn = worlds.index(draw(view, random.Random(seed)))
        assert logs[drawn] > max(logs) - 1.0  # one of the likeliest (two nearly tie here)


def test_resampled_worlds_agree_with_the_observation_and_search_stays_legal():
    state, _ = _played(5, 18)
    obs = state.observation(state.current_player)
    view = View(obs)
    draw = resampler(default_net(), view, sample_world, 4, 1.0, 8)
    assert draw is not sample_world
    world = draw(view, random.Random(1))
    assert world.hand_mask(view.seat) == view.mine
    assert world.cards_left() == view.counts
    a = rank(obs, iterations=6, seed=9, infer=(4, 1.0, 8))
    b = rank(obs, iterations=6, seed=9, infer=(4, 1.0, 8))
    assert [m.mask for m, _ in a.moves] == [m.mask for m, _ in b.moves]
    legal = {int(m) for m in state.legal().masks} | ({0} if state.legal().can_pass else set())
    assert {m.mask for m, _ in a.moves} <= legal
    played = SearchBot(iterations=3, infer=(3, 1.0, 8))(obs, list(state.legal_moves()),
                                                        random.Random(1))
    assert played.mask in legal


@pytest.mark.parametrize("infer", [(0, 1.0, 8), (4, 0.0, 8), (4, float("nan"), 8), (4, 1.0, -1)])
def test_bad_inference_settings_are_input_errors(infer):
    from solver.errors import InputError
    state, _ = _played(5, 10)
    with pytest.raises(InputError):
        rank(state.observation(state.current_player), iterations=2, seed=1, infer=infer)


def test_inference_benchmark_runs_and_reports_each_setting(capsys):
    bench = load_benchmark("bench_big_two_inference")
    assert bench.main(["--positions", "2", "--draws", "2", "--settings", "1:1:8", "3:1:8"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "ms a world" in line]
    assert len(lines) == 2
    share = [float(line.split()[6]) for line in lines]
    assert all(0.0 <= x <= 1.0 for x in share)
