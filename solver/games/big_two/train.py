"""Self-play training of the Big Two value network (deep Monte Carlo, :mod:`solver.games.dmc`).

Every seat is the current network, playing its best ``Q`` except with probability
``epsilon`` a uniform legal option; each decision regresses on its seat's final points (the
loop, checkpoints and determinism are the shared trainer's). Rules vary from hand to hand
(2-4 players, weighted to 4; straights, flush order, bomb on a 2, scoring and ``zero_sum`` at
random) and are part of the input, so one network serves every option set.

A best response to a frozen bot (:func:`exploit_self_play`, the exploiter of
``benchmarks/bench_exploit.py``, :mod:`solver.games.exploit`) trains with the same loop: the
learner plays one seat of 4 (the seat rotates with the hand seed) and the frozen bot the other
three, under one fixed rule set, and only the learner's decisions are recorded.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from solver.errors import InputError
from solver.games import dmc, exploit
from solver.games.big_two.engine import BigTwoState, deal
from solver.games.big_two.moves import Move
from solver.games.big_two.net import (
    POINT_SCALE,
    NetBot,
    QNet,
    move_at,
    move_features,
    seen_from_state,
    state_features,
)
from solver.games.big_two.rules import BigTwoRules
from solver.games.dmc import Adam, TrainConfig, gradients

__all__ = ["EXPLOIT_RULES", "Adam", "ExploitHand", "SELF_PLAY", "TrainConfig",
           "exploit_self_play", "gradients", "play_training_hand", "random_rules",
           "train"]

CHECKPOINT_FORMAT = "capsa-big-two-train/1"


def random_rules(rng: random.Random) -> BigTwoRules:
    """A rule set for one training hand: 4 seats 70%, 3 and 2 seats 15% each."""
    players = rng.choices((2, 3, 4), (0.15, 0.15, 0.70))[0]
    return BigTwoRules(straights=rng.choice(("rank-order", "poker")),
                       flush_order=rng.choice(("rank", "suit")),
                       bomb_on_two=rng.random() < 0.5, zero_sum=rng.random() < 0.5,
                       players=players, scoring=rng.choice(("penalty", "cards-left")))


def epsilon_greedy(net: QNet, state: BigTwoState, seat: int, lm: Any, options: int,
                   rng: random.Random, epsilon: float) -> tuple[int, np.ndarray, np.ndarray]:
    """A learner's choice among ``options`` (at least two): with probability ``epsilon`` a
    uniform one, else the best ``Q``; with the rows the trainer records (the state's, and
    the chosen option's)."""
    s = state_features(seen_from_state(state))
    m = move_features(state.hand_mask(seat), lm.masks, lm.strengths, lm.can_pass)
    i = rng.randrange(options) if rng.random() < epsilon else int(np.argmax(net.q(s, m)))
    return i, s, m[i]


def learner_move(net: QNet, state: BigTwoState, rng: random.Random, epsilon: float
                 ) -> tuple[Move, tuple[np.ndarray, np.ndarray] | None]:
    """The learner's move for the seat to act (:func:`epsilon_greedy` when it has a choice)
    and the rows to record (None: a forced move, nothing to learn)."""
    lm = state.legal()
    options = len(lm) + (1 if lm.can_pass else 0)
    if options == 1:
        return move_at(lm, 0), None
    i, s, m = epsilon_greedy(net, state, state.current_player, lm, options, rng, epsilon)
    return move_at(lm, i), (s, m)


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
        move, rows = learner_move(net, state, rng, epsilon)
        if rows is not None:
            states.append(rows[0])
            moves.append(rows[1])
            seats.append(p)
        state._apply_trusted(move)
    return dmc.hand_records(states, moves, seats, state.returns(), POINT_SCALE)


SELF_PLAY = dmc.SelfPlay(QNet, play_training_hand, CHECKPOINT_FORMAT)


#: The exploiter's table: 4 seats, cards-left scoring (1 point a card, zero-sum), every other
#: option at its default.
EXPLOIT_RULES = BigTwoRules(scoring="cards-left")
EXPLOIT_FORMAT = "capsa-big-two-exploit/1"


@dataclass(frozen=True)
class ExploitHand(exploit.ExploitHand):
    """``play_hand`` of an exploiter of the registry's bot ``bot`` (the loop is
    :class:`solver.games.exploit.ExploitHand`'s): one hand under ``rules`` (JSON options; 4
    seats) with the learner in seat ``hand_seed % 4``, epsilon-greedy on its ``Q`` as in
    self-play (:func:`learner_move`), and the frozen bot in the other seats."""

    bot: str
    rules: str = json.dumps(EXPLOIT_RULES.to_dict(), sort_keys=True)

    GAME: ClassVar[str] = "big-two"
    NET: ClassVar[type[QNet]] = QNet
    RULES: ClassVar[type[BigTwoRules]] = BigTwoRules
    LEARNER_MOVE = staticmethod(learner_move)
    GREEDY = NetBot
    POINT_SCALE: ClassVar[float] = POINT_SCALE
    FORMAT: ClassVar[str] = EXPLOIT_FORMAT

    def players(self, rules: BigTwoRules) -> int:
        return rules.players

    def deal(self, seed: int, rules: BigTwoRules) -> BigTwoState:
        return BigTwoState(deal(seed, rules.players), rules)

    def options(self, state: BigTwoState) -> int:
        lm = state.legal()
        return len(lm) + (1 if lm.can_pass else 0)

    def apply(self, state: BigTwoState, move: Move) -> None:
        state._apply_trusted(move)


def exploit_self_play(bot: str, rules: BigTwoRules | None = None) -> dmc.SelfPlay:
    """The trainer's game for a best response to the registry's bot ``bot`` (its checkpoint
    format names the bot and the rules, so a checkpoint resumes only its own run)."""
    rules = EXPLOIT_RULES if rules is None else rules
    if rules.players != 4:
        raise InputError("the exploiter plays at a table of 4")
    return ExploitHand.of(bot, rules).self_play()


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
