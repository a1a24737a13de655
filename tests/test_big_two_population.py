"""Big Two training against a population: seating, styles, the trainer and the CLI."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

from solver.errors import InputError
from solver.games import dmc
from solver.games.big_two.engine import BigTwoState, deal
from solver.games.big_two.net import POINT_SCALE
from solver.games.big_two.population import (
    STYLES,
    PopulationHand,
    member_policy,
    parse_population,
    population_self_play,
)
from solver.games.big_two.rules import BigTwoRules
from solver.games.big_two.train import random_rules
from solver.games.dmc import TrainConfig

TINY = dict(block_games=8, batch=64, hidden=(16, 8))


@pytest.mark.parametrize("style", sorted(STYLES))
def test_each_style_plays_legal_moves_to_the_end_under_random_rules(style: str) -> None:
    policy = member_policy(style)
    for seed in range(30):
        rng = random.Random(seed)
        rules = random_rules(rng)
        state = BigTwoState(deal(seed, rules.players), rules)
        for _ in range(400):
            if state.winner >= 0:
                break
            move = policy(state, rng)
            assert move.mask in {m.mask for m in state.legal_moves()}
            state.apply(move)
        assert state.winner >= 0


def test_styles_differ_where_they_should() -> None:
    rules = BigTwoRules()
    state = BigTwoState(deal(3, 4), rules)
    lead = {name: member_policy(name)(state, random.Random(0)) for name in STYLES}
    # the opening lead: shed-most plays the most cards, high the strongest kind
    assert lead["shed-most"].size == max(m.size for m in state.legal_moves())
    assert lead["high"].kind == max(m.kind for m in state.legal_moves() if not m.is_pass)


def test_seating_has_the_learner_and_follows_the_seed() -> None:
    hand = PopulationHand(("baseline", "passive"), (3.0, 1.0), self_share=0.1)
    seen: set[str] = set()
    for seed in range(200):
        seats = hand.seating(seed, 4)
        assert "self" in seats and seats == hand.seating(seed, 4)
        seen.update(seats)
    assert seen == {"self", "baseline", "passive"}
    everyone = PopulationHand(("baseline",), (1.0,), self_share=1.0)
    assert everyone.seating(5, 3) == ["self"] * 3


def test_only_the_learners_decisions_are_recorded() -> None:
    from solver.games.big_two.net import QNet
    net = QNet.initial(1, (16, 8))
    hand = PopulationHand(("baseline", "high"), (1.0, 1.0), self_share=0.3)
    for seed in range(10):
        state, (s, m, y) = hand.play(net, seed, 0.1)
        learners = [p for p, who in enumerate(hand.seating(seed, state.rules.players))
                    if who == "self"]
        returns = state.returns()
        # every target is the final points of a learner's seat
        allowed = {round(returns[p] / POINT_SCALE, 5) for p in learners}
        assert {round(float(v), 5) for v in y} <= allowed


def test_parse_population_refuses_what_it_cannot_seat() -> None:
    assert parse_population("net, high:0.5") == (("net", "high"), (1.0, 0.5))
    for bad in ("", "nobody", "baseline:-1", "baseline:x", "net:no-such-file.npz", "search"):
        with pytest.raises(InputError):
            parse_population(bad)


def test_population_training_is_deterministic_and_resumes(tmp_path) -> None:
    game = population_self_play(("baseline", "shed-most"), (1.0, 1.0), 0.5)
    cfg = TrainConfig(games=24, seed=5, **TINY)
    a = dmc.train(game, tmp_path / "a.npz", cfg)
    ck = tmp_path / "ck.npz"
    dmc.train(game, tmp_path / "half.npz", TrainConfig(games=16, seed=5, **TINY), ck, 8)
    b = dmc.train(game, tmp_path / "b.npz", cfg, ck, 8)
    for wa, wb in zip(a.weights, b.weights):
        np.testing.assert_array_equal(wa, wb)
    # another population's run cannot resume this checkpoint
    other = population_self_play(("baseline",), (1.0,), 0.5)
    with pytest.raises(InputError, match="not a Big Two training checkpoint"):
        dmc.train(other, tmp_path / "c.npz", cfg, ck, 8)


def test_init_starts_from_the_given_network(tmp_path) -> None:
    from solver.games.big_two.net import QNet
    start = QNet.initial(9, (16, 8))
    start.save(tmp_path / "start.npz")
    game = population_self_play(("baseline",), (1.0,), 0.5)
    one = dmc.train(game, tmp_path / "one.npz",
                    TrainConfig(games=8, seed=1, lr=1e-5, init=str(tmp_path / "start.npz"),
                                **TINY))
    fresh = dmc.train(game, tmp_path / "fresh.npz", TrainConfig(games=8, seed=1, lr=1e-5,
                                                               **TINY))
    # a small step from the given weights, not from the seed's random ones
    assert np.abs(one.weights[0] - start.weights[0]).max() < 1e-3
    assert np.abs(fresh.weights[0] - start.weights[0]).max() > 1e-2


def test_cli_trains_against_a_population_and_names_bad_input(tmp_path) -> None:
    out = tmp_path / "pop.npz"
    ok = subprocess.run([sys.executable, "-m", "solver.cli", "train-bot", "big-two", "-o",
                         str(out), "--games", "16", "--population", "baseline:2,passive",
                         "--no-progress"], capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0, ok.stderr
    assert out.is_file()
    bad = subprocess.run([sys.executable, "-m", "solver.cli", "train-bot", "big-two", "-o",
                          str(tmp_path / "x.npz"), "--games", "16", "--population", "nobody"],
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2
    assert "unknown population member 'nobody'" in bad.stderr
    assert "Traceback" not in bad.stderr


@pytest.mark.parametrize("style", sorted(STYLES))
def test_style_bot_through_the_contract_plays_as_the_state_policy(style: str) -> None:
    from solver.games.big_two.population import StyleBot
    bot, policy = StyleBot(style), member_policy(style)
    for seed in range(10):
        state = BigTwoState(deal(seed, 4), BigTwoRules())
        while state.winner < 0:
            p = state.current_player
            a = bot(state.observation(p), state.legal_moves(), random.Random(0))
            assert a.mask == policy(state, random.Random(0)).mask
            state.apply(a)


def test_search_with_a_rollout_population_is_deterministic_and_legal() -> None:
    from solver.games.big_two.advise import rank
    from solver.games.big_two.engine import new_game
    population = (("baseline", "passive", "high"), (1.0, 1.0, 1.0), 0.25)
    state = new_game(seed=11)
    obs = state.observation(state.current_player)
    a = rank(obs, iterations=6, seed=3, population=population)
    b = rank(obs, iterations=6, seed=3, population=population)
    assert [m.mask for m, _ in a.moves] == [m.mask for m, _ in b.moves]
    assert [s.mean for _, s in a.moves] == [s.mean for _, s in b.moves]
    assert a.moves[0][0].mask in {m.mask for m in state.legal_moves()}
    with pytest.raises(InputError, match="no depth"):
        rank(obs, iterations=2, seed=3, population=population, depth=2)


def test_the_match_benchmark_seats_every_style_and_the_population_search(match_bench) -> None:
    assert set(match_bench.STYLE_NAMES) == set(STYLES)
    from solver.games.base import play_hand
    from solver.games.big_two.engine import new_game
    bots = [match_bench.make_big_two_bot(s, 2) for s in ("pop:2", "shed-most", "high", "random")]
    state = play_hand(new_game(seed=4), bots, seed=4)
    assert state.is_terminal()


def test_paired_comparison_of_two_match_records(match_bench) -> None:
    r = lambda d, p: {"deal": d, "rows": [{"points": p, "win": p > 0}, {"points": 0.0, "win": False}]}  # noqa: E731
    text = match_bench.paired([r(1, 4.0), r(2, 2.0), r(3, 0.0)], [r(1, 2.0), r(2, 2.0)], "x", "y")
    # deals 1 and 2 only; per deal (4 + 0) / 2 - (2 + 0) / 2 = 1 and 0
    assert text.startswith("paired on 2 deals: x minus y points per hand +0.500 +- 0.980")
    assert "win rate x 50.0%, y 50.0%" in text  # seatings with a win: 2 of 4 each
    assert match_bench.paired([r(1, 1.0)], [r(2, 1.0)]) == "paired: only 0 deals in both"
