"""Big Two bots and fast self-play.

Every bot is ``bot(observation, legal_moves, rng) -> move`` (the contract of
:mod:`solver.games.base`). The baselines also offer ``choose_play(state, rng)``, the same
choice read straight from the engine's masks, so that :func:`self_play` (benchmarks,
rollouts) skips building observations; a test checks both paths play the same hands.

>>> result = self_play(seed=3)
>>> sum(1 for r in result.returns if r == 0), result.winner == result.returns.index(0)
(1, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from solver.cards import parse_cards
from solver.errors import InputError
from solver.games.big_two.engine import BigTwoState, deal
from solver.games.big_two.moves import (
    ID_TO_BT,
    KIND_SHIFT,
    PASS,
    Kind,
    Move,
    _baseline_pick,
    ids_to_mask,
    parse_play,
)
from solver.games.big_two.rules import MAX_PLAYERS, MIN_PLAYERS, BigTwoRules

__all__ = ["BaselineBot", "HandResult", "RandomBot", "self_play"]


def _pick(moves: Sequence[Move], mask: int) -> Move:
    """The listed move with these cards (mask 0: the pass)."""
    for m in moves:
        if m.mask == mask:
            return m
    raise InputError("the bot's choice is not among the legal moves given")


class BaselineBot:
    """Plays its lowest legal combination and keeps its 2s when it can.

    Leading: a play holding its lowest card (most cards first, no 2 if possible, then the
    weakest). Responding: the weakest play that beats without a 2, else it passes.
    Works on the kernel's arrays: no Move list is built.
    """

    name = "baseline"

    def __call__(self, observation: Mapping[str, Any], legal_moves: Sequence[Move],
                 rng: random.Random) -> Move:
        rules = BigTwoRules.from_options(observation["rules"])
        hand = ids_to_mask(parse_cards(observation["hand"]))
        table = observation.get("table")
        cur = parse_play(table, rules) if table else None
        req = observation.get("required")
        mask, _ = self._kernel(hand, cur, ID_TO_BT[parse_cards([req])[0]] if req else -1, rules)
        return _pick(legal_moves, mask)

    @staticmethod
    def _kernel(hand: int, cur: Move | None, required: int, rules: BigTwoRules
                ) -> tuple[int, int]:
        poker, fsuit, bomb = rules.flags
        mask, key = _baseline_pick(hand, cur.strength if cur else 0, cur.size if cur else 0,
                                   required, poker, fsuit, bomb)
        return int(mask), int(key)

    def choose_play(self, state: BigTwoState, rng: random.Random | None = None) -> Move:
        mask, key = self._kernel(state.hand_mask(state.current_player), state.current_play,
                                 state.required_card(), state.rules)
        return PASS if mask == 0 else Move(mask, Kind(key >> KIND_SHIFT), key)


class RandomBot:
    """Picks uniformly among the legal plays and the pass (a noisy opponent for tests).

    With a ``seed`` it draws from its own generator; without, from the ``rng`` it is given.
    """

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed) if seed is not None else None

    def __call__(self, observation: Mapping[str, Any], legal_moves: Sequence[Move],
                 rng: random.Random) -> Move:
        r = self.rng or rng
        return legal_moves[r.randrange(len(legal_moves))]

    def choose_play(self, state: BigTwoState, rng: random.Random) -> Move:
        r = self.rng or rng
        lm = state.legal()
        i = r.randrange(len(lm) + (1 if lm.can_pass else 0))
        return lm[i] if i < len(lm) else PASS


@dataclass(frozen=True)
class HandResult:
    """Outcome of one self-play hand."""

    winner: int
    returns: tuple[float, ...]
    cards_left: tuple[int, ...]
    turns: int
    dragon: bool


def self_play(seed: int | None = None, bots: Sequence[Any] | None = None,
              rules: BigTwoRules | Mapping[str, Any] | None = None,
              check: bool = False) -> HandResult:
    """Deal from ``seed`` and let ``bots`` (one per seat; default baseline) play the hand.

    The same hand as ``solver.games.play_hand(new_game(seed=seed), bots, seed)``: bots draw
    from one ``random.Random(seed)``. Bots exposing ``choose_play`` are asked on the engine
    state and trusted; others (or all, with ``check=True``) get their observation and the
    legal moves, and their move is validated by :meth:`BigTwoState.apply`.
    """
    rules = BigTwoRules.from_options(rules)
    if bots is None:
        bots = [BaselineBot()] * rules.players
    if not MIN_PLAYERS <= len(bots) <= MAX_PLAYERS:
        raise InputError(f"Big Two needs 2 to 4 bots, got {len(bots)}")
    rules = rules.with_players(len(bots))
    state = BigTwoState(deal(seed, rules.players), rules)
    rng = random.Random(seed)
    while state.winner < 0:
        p = state.current_player
        bot = bots[p]
        fast = None if check else getattr(bot, "choose_play", None)
        if fast is not None:
            state._apply_trusted(fast(state, rng))
        else:
            state.apply(bot(state.observation(p), state.legal_moves(), rng))
    return HandResult(state.winner, tuple(state.returns()), tuple(state.cards_left()),
                      len(state.history), state.dragon)
