"""Training and rollouts against a population of styles, not one self.

A network trained only against copies of itself learns to beat that one style: measured
against an outside agent it did about 11 points of win rate worse than against its own
copies. Here each training hand seats, at every chair, either the learner (epsilon-greedy on
its ``Q``; its decisions are recorded) or a member of a fixed population drawn by weight:

- the registry's bots that are cheap enough to train against (``baseline``, ``random``,
  ``net``: the shipped network, greedy on its ``Q``);
- hand-made styles (:data:`STYLES`): ``shed-most`` (the play with the most cards), ``high``
  (the strongest play: spends its 2s early), ``passive`` (passes whenever it may while it
  holds more than three cards);
- any network file, as ``net:PATH`` (a past checkpoint, or one trained with another reward).

Members are named by strings so that the trainer's worker processes resolve them themselves
(nothing but names crosses a process boundary) and the checkpoint format names them (a
checkpoint resumes only its own population).

>>> hand = PopulationHand(("baseline", "shed-most"), (1.0, 1.0), self_share=0.25)
>>> seats = hand.seating(7, 4)
>>> len(seats), "self" in seats
(4, True)
>>> seats == hand.seating(7, 4)  # the seating follows the hand's seed
True
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.errors import InputError
from solver.games import dmc
from solver.games.big_two.engine import BigTwoState, deal
from solver.games.big_two.moves import PASS, Move
from solver.games.big_two.net import POINT_SCALE, QNet, legal_q, move_at, seen_from_state
from solver.games.big_two.train import learner_move, random_rules
from solver.games.exploit import frozen_bot, frozen_move

__all__ = ["POPULATION_FORMAT", "ROLLOUT_POPULATION", "STYLES", "PopulationHand", "StyleBot", "member_policy",
           "parse_population", "population_self_play"]

POPULATION_FORMAT = "capsa-big-two-population/1"

Policy = Callable[[BigTwoState, random.Random], Move]


Style = Callable[[list[Move], bool, int], Move]


def shed_most(plays: list[Move], can_pass: bool, held: int) -> Move:
    """The play with the most cards (ties: the weakest); passes only with nothing to play."""
    return max(plays, key=lambda m: (m.size, -m.strength)) if plays else PASS


def play_high(plays: list[Move], can_pass: bool, held: int) -> Move:
    """The strongest play of the largest kind it may play (spends 2s and bombs early)."""
    return max(plays, key=lambda m: (m.kind, m.strength)) if plays else PASS


def passive(plays: list[Move], can_pass: bool, held: int) -> Move:
    """Passes whenever it may while it holds more than three cards; else the weakest play."""
    if (can_pass and held > 3) or not plays:
        return PASS
    return min(plays, key=lambda m: (m.kind, m.strength))


def _state_policy(style: Style) -> Policy:
    def choose(state: BigTwoState, rng: random.Random) -> Move:
        lm = state.legal()
        return style([lm[i] for i in range(len(lm))], lm.can_pass,
                     state.hand_mask(state.current_player).bit_count())
    return choose


class StyleBot:
    """A hand-made style as a bot of the contract (``bot(observation, legal_moves, rng)``), for
    matches against the styles."""

    def __init__(self, name: str):
        if name not in STYLES:
            raise InputError(f"unknown style {name!r} (known: {', '.join(sorted(STYLES))})")
        self.name, self.style = name, STYLES[name]

    def __call__(self, observation: Any, legal_moves: list[Move], rng: random.Random) -> Move:
        plays = [m for m in legal_moves if not m.is_pass]
        choice = self.style(plays, len(plays) < len(legal_moves), len(observation["hand"]))
        return next(m for m in legal_moves if m.mask == choice.mask)

    def choose_play(self, state: BigTwoState, rng: random.Random) -> Move:
        return _state_policy(self.style)(state, rng)


#: The hand-made styles, by name.
STYLES: dict[str, Style] = {"shed-most": shed_most, "high": play_high, "passive": passive}

#: The population the search's rollouts draw the other seats from (``SearchBot(population=)``):
#: the network itself half the time, else the baseline and the styles.
ROLLOUT_POPULATION = (("baseline", "shed-most", "high", "passive"), (2.0, 1.0, 1.0, 1.0), 0.5)

#: The registry's bots cheap enough to seat in training (the searches take ~50 ms a move).
REGISTRY_MEMBERS = ("baseline", "random", "net")


def _net_policy(net: QNet) -> Policy:
    def choose(state: BigTwoState, rng: random.Random) -> Move:
        lm = state.legal()
        if len(lm) == 0:
            return PASS
        if len(lm) == 1 and not lm.can_pass:
            return lm[0]
        return move_at(lm, int(np.argmax(legal_q(net, seen_from_state(state), lm))))
    return choose


def check_member(name: str) -> None:
    """Raise :class:`InputError` unless ``name`` names a member (a network file must exist)."""
    if name in STYLES or name in REGISTRY_MEMBERS:
        return
    if name.startswith("net:"):
        from pathlib import Path
        if not Path(name[4:]).is_file():
            raise InputError(f"population member {name!r}: no such network file")
        return
    known = ", ".join(sorted([*STYLES, *REGISTRY_MEMBERS]))
    raise InputError(f"unknown population member {name!r} (known: {known}, or net:FILE)")


@functools.cache
def member_policy(name: str) -> Policy:
    """The move chooser of a member (built once per process)."""
    check_member(name)
    if name in STYLES:
        return _state_policy(STYLES[name])
    if name.startswith("net:"):
        return _net_policy(QNet.load(name[4:]))
    bot = frozen_bot("big-two", name)
    return lambda state, rng: frozen_move(bot, state, rng)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def parse_population(text: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """``"baseline:2,net,shed-most"`` -> names and weights (default weight 1; a network
    file is ``net:PATH`` and takes its weight after a ``@``: ``net:old.npz@2``).

    >>> parse_population("baseline:2, net:3, shed-most")
    (('baseline', 'net', 'shed-most'), (2.0, 3.0, 1.0))
    """
    names: list[str] = []
    weights: list[float] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if part.startswith("net:") and not _is_number(part[4:]):
            name, _, w = part.partition("@")
        else:
            name, _, w = part.partition(":")
        try:
            weight = float(w) if w else 1.0
        except ValueError:
            raise InputError(f"population member {part!r}: the weight is not a number") from None
        if not weight > 0 or weight == float("inf"):
            raise InputError(f"population member {part!r}: the weight must be positive")
        check_member(name)
        names.append(name)
        weights.append(weight)
    if not names:
        raise InputError("the population is empty")
    return tuple(names), tuple(weights)


@dataclass(frozen=True)
class PopulationHand:
    """``play_hand`` of population training: each seat is the learner with probability
    ``self_share`` (at least one seat is), else a member drawn by ``weights``. Rules vary
    from hand to hand as in self-play (``rules`` None) or are fixed (JSON options)."""

    members: tuple[str, ...]
    weights: tuple[float, ...]
    self_share: float = 0.25
    rules: str | None = None

    def seating(self, hand_seed: int, players: int) -> list[str]:
        """Who sits where in this hand (``"self"`` for the learner)."""
        rng = random.Random(f"seating:{hand_seed}")
        seats = ["self" if rng.random() < self.self_share
                 else rng.choices(self.members, self.weights)[0] for _ in range(players)]
        if "self" not in seats:
            seats[rng.randrange(players)] = "self"
        return seats

    def __call__(self, net: QNet, hand_seed: int, epsilon: float
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.play(net, hand_seed, epsilon)[1]

    def play(self, net: QNet, hand_seed: int, epsilon: float
             ) -> tuple[BigTwoState, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """The finished hand and the learner's records."""
        from solver.games.big_two.rules import BigTwoRules
        rng = random.Random(hand_seed)
        rules = (random_rules(rng) if self.rules is None
                 else BigTwoRules.from_options(json.loads(self.rules)))
        seats = self.seating(hand_seed, rules.players)
        policies = [None if s == "self" else member_policy(s) for s in seats]
        others = random.Random(f"others:{hand_seed}")
        state = BigTwoState(deal(rng.getrandbits(64), rules.players), rules)
        states: list[np.ndarray] = []
        moves: list[np.ndarray] = []
        deciders: list[int] = []
        while state.winner < 0:
            p = state.current_player
            policy = policies[p]
            if policy is not None:
                state._apply_trusted(policy(state, others))
                continue
            move, rows = learner_move(net, state, rng, epsilon)
            if rows is not None:
                states.append(rows[0])
                moves.append(rows[1])
                deciders.append(p)
            state._apply_trusted(move)
        return state, dmc.hand_records(states, moves, deciders, state.returns(), POINT_SCALE)


def population_self_play(members: tuple[str, ...], weights: tuple[float, ...],
                         self_share: float = 0.25, rules: Any = None) -> dmc.SelfPlay:
    """The trainer's game for population training (its checkpoint format names the
    population, so a checkpoint resumes only its own run)."""
    if len(members) != len(weights) or not members:
        raise InputError("one weight per population member")
    for name in members:
        check_member(name)
    if not 0.0 < self_share <= 1.0:
        raise InputError("self_share must be in (0, 1]")
    options = None if rules is None else json.dumps(rules.to_dict(), sort_keys=True)
    hand = PopulationHand(tuple(members), tuple(float(w) for w in weights), self_share, options)
    spec = json.dumps({"members": hand.members, "weights": hand.weights,
                       "self_share": self_share, "rules": options}, sort_keys=True)
    return dmc.SelfPlay(QNet, hand, f"{POPULATION_FORMAT} {spec}")
