"""Self-play training of the Big Two value network (deep Monte Carlo, :mod:`solver.games.dmc`).

Every seat is the current network, playing its best ``Q`` except with probability
``epsilon`` a uniform legal option; each decision regresses on its seat's final points (the
loop, checkpoints and determinism are the shared trainer's). Rules vary from hand to hand
(2-4 players, weighted to 4; straights, flush order, bomb on a 2, scoring and ``zero_sum`` at
random) and are part of the input, so one network serves every option set.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np

from solver.games import dmc
from solver.games.big_two.engine import BigTwoState, deal
from solver.games.big_two.net import (
    POINT_SCALE,
    QNet,
    move_at,
    move_features,
    seen_from_state,
    state_features,
)
from solver.games.big_two.rules import BigTwoRules
from solver.games.dmc import Adam, TrainConfig, gradients

__all__ = ["Adam", "SELF_PLAY", "TrainConfig", "gradients", "play_training_hand",
           "random_rules", "train"]

CHECKPOINT_FORMAT = "capsa-big-two-train/1"


def random_rules(rng: random.Random) -> BigTwoRules:
    """A rule set for one training hand: 4 seats 70%, 3 and 2 seats 15% each."""
    players = rng.choices((2, 3, 4), (0.15, 0.15, 0.70))[0]
    return BigTwoRules(straights=rng.choice(("rank-order", "poker")),
                       flush_order=rng.choice(("rank", "suit")),
                       bomb_on_two=rng.random() < 0.5, zero_sum=rng.random() < 0.5,
                       players=players, scoring=rng.choice(("penalty", "cards-left")))


def play_training_hand(net: QNet, game_seed: int, epsilon: float
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One self-play hand: (state rows, move rows, targets in network units)."""
    rng = random.Random(game_seed)
    rules = random_rules(rng)
    state = BigTwoState(deal(rng.getrandbits(64), rules.players), rules)
    states: list[np.ndarray] = []
    moves: list[np.ndarray] = []
    seats: list[int] = []
    while state.winner < 0:
        p = state.current_player
        lm = state.legal()
        options = len(lm) + (1 if lm.can_pass else 0)
        if options == 1:
            move = move_at(lm, 0)
        else:
            s = state_features(seen_from_state(state))
            m = move_features(state.hand_mask(p), lm.masks, lm.strengths, lm.can_pass)
            if rng.random() < epsilon:
                i = rng.randrange(options)
            else:
                i = int(np.argmax(net.q(s, m)))
            move = move_at(lm, i)
            states.append(s)
            moves.append(m[i])
            seats.append(p)
        state._apply_trusted(move)
    return dmc.hand_records(states, moves, seats, state.returns(), POINT_SCALE)


SELF_PLAY = dmc.SelfPlay(QNet, play_training_hand, CHECKPOINT_FORMAT)


def train(out: str | Path, cfg: TrainConfig = TrainConfig(), checkpoint: str | Path | None = None,
          checkpoint_every: int = 2_000, command: str = "",
          progress: Callable[[int, int, float, float], None] | None = None,
          workers: int = 1) -> QNet:
    """Train to ``cfg.games`` hands and write the network file ``out`` (see
    :func:`solver.games.dmc.train`: resumable from ``checkpoint``, ``workers`` processes,
    the same file whatever their number)."""
    net = dmc.train(SELF_PLAY, out, cfg, checkpoint, checkpoint_every, command, progress,
                    workers)
    assert isinstance(net, QNet)
    return net
