"""Self-play training of the Da San value network (deep Monte Carlo, :mod:`solver.games.dmc`).

Every seat is the current network, in the auction and in the play, making its best ``Q``
except with probability ``epsilon`` a uniform legal move; each decision regresses on its
seat's final points (the loop, checkpoints and determinism are the shared trainer's). The
rules' ``min_run`` is drawn per hand (3, the rules file's, 80% of hands; 2 and 4 10% each)
and is part of the input. Train with ``dmc.train(SELF_PLAY, out, cfg, ...)`` or ``capsa
train-bot da-san``.
"""

from __future__ import annotations

import random

import numpy as np

from solver.games import dmc
from solver.games.da_san.engine import new_game
from solver.games.da_san.net import (
    POINT_SCALE,
    DaSanNet,
    move_features,
    seen_from_state,
    state_features,
)
from solver.games.da_san.rules import DaSanRules
from solver.games.dmc import TrainConfig

__all__ = ["SELF_PLAY", "TrainConfig", "play_training_hand", "random_rules"]

CHECKPOINT_FORMAT = "capsa-da-san-train/1"


def random_rules(rng: random.Random) -> DaSanRules:
    """The rule set of one training hand."""
    return DaSanRules(min_run=rng.choices((3, 2, 4), (0.8, 0.1, 0.1))[0])


def play_training_hand(net: DaSanNet, game_seed: int, epsilon: float
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One self-play hand: (state rows, move rows, targets in network units)."""
    rng = random.Random(game_seed)
    rules = random_rules(rng)
    state = new_game(seed=rng.getrandbits(64), rules=rules)
    states: list[np.ndarray] = []
    moves: list[np.ndarray] = []
    seats: list[int] = []
    while not state.is_terminal():
        p = state.to_act
        legal = state.legal_moves()
        if len(legal) == 1:
            state.apply(legal[0])
            continue
        s = state_features(seen_from_state(state))
        m = move_features(len(state.hands[p]), legal)
        if rng.random() < epsilon:
            i = rng.randrange(len(legal))
        else:
            i = int(np.argmax(net.q(s, m)))
        states.append(s)
        moves.append(m[i])
        seats.append(p)
        state.apply(legal[i])
    return dmc.hand_records(states, moves, seats, state.returns(), POINT_SCALE)


SELF_PLAY = dmc.SelfPlay(DaSanNet, play_training_hand, CHECKPOINT_FORMAT)

