"""Self-play training of the Da San value network (deep Monte Carlo, :mod:`solver.games.dmc`).

Every seat is the current network, in the auction and in the play, making its best ``Q``
except with probability ``epsilon`` a uniform legal move; each decision regresses on its
seat's final points (the loop, checkpoints and determinism are the shared trainer's). The
rules' ``min_run`` is drawn per hand (3, the rules file's, 80% of hands; 2 and 4 10% each)
and is part of the input. Train with ``dmc.train(SELF_PLAY, out, cfg, ...)`` or ``capsa
train-bot da-san``.

A best response to a frozen bot (:func:`exploit_self_play`, the exploiter of
``benchmarks/bench_exploit.py --game da-san``, :mod:`solver.games.exploit`) trains with the same
loop: the learner plays one seat of 3 (the seat rotates with the hand seed) and the frozen bot
the other two, under the rules file, and only the learner's decisions are recorded.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from solver.games import dmc, exploit
from solver.games.da_san.engine import NUM_PLAYERS, DaSanState, new_game
from solver.games.da_san.moves import Move
from solver.games.da_san.net import (
    POINT_SCALE,
    DaSanNet,
    NetBot,
    move_features,
    seen_from_state,
    state_features,
)
from solver.games.da_san.rules import DEFAULT_RULES, DaSanRules
from solver.games.dmc import TrainConfig

__all__ = ["EXPLOIT_RULES", "SELF_PLAY", "ExploitHand", "TrainConfig", "exploit_self_play",
           "learner_move", "play_training_hand", "random_rules"]

CHECKPOINT_FORMAT = "capsa-da-san-train/1"


def random_rules(rng: random.Random) -> DaSanRules:
    """The rule set of one training hand."""
    return DaSanRules(min_run=rng.choices((3, 2, 4), (0.8, 0.1, 0.1))[0])


def learner_move(net: DaSanNet, state: DaSanState, rng: random.Random, epsilon: float
                 ) -> tuple[Move, tuple[np.ndarray, np.ndarray] | None]:
    """The learner's move for the seat to act and the rows to record (None: a forced move,
    nothing to learn): with probability ``epsilon`` a uniform legal move, else the best
    ``Q``."""
    legal = state.legal_moves()
    if len(legal) == 1:
        return legal[0], None
    s = state_features(seen_from_state(state))
    m = move_features(len(state.hands[state.to_act]), legal)
    if rng.random() < epsilon:
        i = rng.randrange(len(legal))
    else:
        i = int(np.argmax(net.q(s, m)))
    return legal[i], (s, m[i])


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
        move, rows = learner_move(net, state, rng, epsilon)
        if rows is not None:
            states.append(rows[0])
            moves.append(rows[1])
            seats.append(p)
        state.apply(move)
    return dmc.hand_records(states, moves, seats, state.returns(), POINT_SCALE)


SELF_PLAY = dmc.SelfPlay(DaSanNet, play_training_hand, CHECKPOINT_FORMAT)



#: The exploiter's table: the rules file (``min_run`` 3), 3 seats.
EXPLOIT_RULES = DEFAULT_RULES
EXPLOIT_FORMAT = "capsa-da-san-exploit/1"


@dataclass(frozen=True)
class ExploitHand(exploit.ExploitHand):
    """``play_hand`` of an exploiter of the registry's Da San bot ``bot`` (the loop is
    :class:`solver.games.exploit.ExploitHand`'s): one hand under ``rules`` (JSON options)
    with the learner in seat ``hand_seed % 3``, in the auction and the play, epsilon-greedy
    on its ``Q`` as in self-play (:func:`learner_move`), and the frozen bot in the other two
    seats. The hand is dealt by ``new_game(seed=hand_seed)`` (the dealer draw included)."""

    bot: str
    rules: str = json.dumps(EXPLOIT_RULES.to_dict(), sort_keys=True)

    GAME: ClassVar[str] = "da-san"
    NET: ClassVar[type[DaSanNet]] = DaSanNet
    RULES: ClassVar[type[DaSanRules]] = DaSanRules
    LEARNER_MOVE = staticmethod(learner_move)
    GREEDY = NetBot
    POINT_SCALE: ClassVar[float] = POINT_SCALE
    FORMAT: ClassVar[str] = EXPLOIT_FORMAT

    def players(self, rules: DaSanRules) -> int:
        return NUM_PLAYERS

    def deal(self, seed: int, rules: DaSanRules) -> DaSanState:
        return new_game(seed=seed, rules=rules)



def exploit_self_play(bot: str, rules: DaSanRules | None = None) -> dmc.SelfPlay:
    """The trainer's game for a best response to the registry's Da San bot ``bot`` (its
    checkpoint format names the bot and the rules, so a checkpoint resumes only its own
    run)."""
    rules = EXPLOIT_RULES if rules is None else rules
    return ExploitHand.of(bot, rules).self_play()
