"""Self-play training of the Da Bai Fen value network (deep Monte Carlo, :mod:`solver.games.dmc`).

Every seat is the current network, in the draw (show or not), the burying and the play,
making its best ``Q`` among its candidates (:func:`~solver.games.da_bai_fen.net.net_moves`)
except with probability ``epsilon`` a uniform one; each decision regresses on its seat's final
value (levels, plus a hundredth of a level per point of the defenders' total on its side; the
loop, checkpoints and determinism are the shared trainer's). The hands are drawn as a game
brings them: 30% a game's first hand (both teams at 2; whoever shows leads), the rest a later
hand with each team's level drawn from 2..A and a random leader. The rules'
``kitty_multiplier`` is 2 (the default) in 85% of hands, else 0, 1, 3 or 4, and is part of the
input. Train with ``dmc.train(SELF_PLAY, out, cfg, ...)`` or ``capsa train-bot da-bai-fen``.
"""

from __future__ import annotations

import random

import numpy as np

from solver.games import dmc
from solver.games.da_bai_fen.engine import DaBaiFenRules, DaBaiFenState, new_hand
from solver.games.da_bai_fen.net import (
    POINT_SCALE,
    DaBaiFenNet,
    decision_features,
    hand_value,
    net_moves,
    seen_from_state,
)
from solver.games.dmc import TrainConfig

__all__ = ["SELF_PLAY", "TrainConfig", "play_training_hand", "random_hand"]

CHECKPOINT_FORMAT = "capsa-da-bai-fen-train/1"
FIRST_HANDS = 0.3


def random_hand(rng: random.Random) -> DaBaiFenState:
    """The hand (deal, levels, leader and rules) of one training hand."""
    mult = 2 if rng.random() < 0.85 else rng.choice((0, 1, 3, 4))
    rules = DaBaiFenRules(kitty_multiplier=mult)
    seed = rng.getrandbits(64)
    if rng.random() < FIRST_HANDS:
        level = rng.randrange(13)
        return new_hand(seed, rules=rules, levels=(level, level))
    leader = rng.randrange(4)
    return new_hand(seed, rules=rules, dealer=leader,
                    levels=(rng.randrange(13), rng.randrange(13)), leader=leader)


def play_training_hand(net: DaBaiFenNet, game_seed: int, epsilon: float
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One self-play hand: (state rows, move rows, targets in network units)."""
    rng = random.Random(game_seed)
    state = random_hand(rng)
    states: list[np.ndarray] = []
    moves: list[np.ndarray] = []
    seats: list[int] = []
    while not state.is_terminal():
        seen = seen_from_state(state)
        legal = net_moves(seen)
        if len(legal) == 1:
            state.apply(legal[0])
            continue
        s, m = decision_features(seen, legal)
        if rng.random() < epsilon:
            i = rng.randrange(len(legal))
        else:
            i = int(np.argmax(net.q(s, m)))
        states.append(s[i] if s.ndim == 2 else s)
        moves.append(m[i])
        seats.append(seen.seat)
        state.apply(legal[i])
    values = [hand_value(state, p) for p in range(4)]
    return dmc.hand_records(states, moves, seats, values, POINT_SCALE)


SELF_PLAY = dmc.SelfPlay(DaBaiFenNet, play_training_hand, CHECKPOINT_FORMAT)
