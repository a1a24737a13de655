"""Big Two's observation, parsed once per decision (:class:`View`), and a world sampled from
it (:func:`sample_world`): the unseen cards dealt at random to the other seats in their
counts (with 2-3 players the rest is set aside). Nothing of the network or the search: the
advisor (:mod:`solver.games.big_two.advise`), the network bot and the inference
(:mod:`solver.games.big_two.net`, :mod:`solver.games.big_two.infer`) all read this.

>>> import random
>>> from solver.games.big_two.engine import new_game
>>> state = new_game(seed=5)
>>> view = View(state.observation(state.current_player))
>>> world = sample_world(view, random.Random(1))
>>> world.hand_mask(view.seat) == view.mine and world.current_player == view.seat
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from solver.cards import NUM_CARDS, parse_cards
from solver.errors import InputError, RulesError
from solver.games.big_two.engine import BigTwoState
from solver.games.big_two.moves import ID_TO_BT, ids_to_mask, parse_play
from solver.games.big_two.rules import BigTwoRules
from solver.games.search import require_turn

__all__ = ["View", "sample_world"]


class View:
    """What the observation says, parsed once per decision."""

    def __init__(self, obs: Mapping[str, Any]):
        self.seat = require_turn(obs, "player", "current_player", "big-two")
        try:
            self.rules = BigTwoRules.from_options(obs["rules"])
            self.n = int(obs["num_players"])
            self.mine = ids_to_mask(parse_cards(obs["hand"]))
            self.counts = [int(c) for c in obs["cards_left"]]
            table = obs.get("table")
            self.current = parse_play(table, self.rules) if table else None
            self.history = [(int(h["player"]), parse_play(h["move"], self.rules))
                            for h in obs.get("history") or []]
            req = obs.get("required")
        except RulesError:
            raise  # a bad rule option is named as such, with its allowed values
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"not a Big Two observation: {exc!r}") from None
        if len(self.counts) != self.n or self.counts[self.seat] != self.mine.bit_count():
            raise InputError("observation: cards_left does not match num_players and the hand")
        self.required = ID_TO_BT[parse_cards([req])[0]] if req else -1
        if self.history and self.required >= 0:
            self.required = -1  # only the opening lead must hold a card
        if not self.history and self.required < 0:
            self.required = (self.mine & -self.mine).bit_length() - 1  # the opener's lowest
        self.last_player = int(obs.get("last_player", -1))
        self.passes = int(obs.get("passes", 0))
        if not 0 <= self.passes <= self.n - 2 or not -1 <= self.last_player < self.n:
            raise InputError(f"observation: passes must be 0 to {self.n - 2} and last_player "
                             f"-1 to {self.n - 1}, got {self.passes} and {self.last_player}")
        if (self.current is None) != (self.passes == 0 and obs.get("table") is None):
            raise InputError("observation: passes are counted only while a play is on the table")
        if any(c <= 0 for c in self.counts):
            raise InputError("observation: a seat with no cards has won; the hand is over")
        played = 0
        for _, m in self.history:
            played |= m.mask
        if played & self.mine:
            raise InputError("observation: the hand holds a card already played")
        self.unseen = [b for b in range(NUM_CARDS) if not ((self.mine | played) >> b) & 1]
        need = sum(c for p, c in enumerate(self.counts) if p != self.seat)
        if need > len(self.unseen):
            raise InputError(f"observation: the other seats hold {need} cards but only "
                             f"{len(self.unseen)} are unseen")


def sample_world(view: View, rng: random.Random) -> BigTwoState:
    """A full state consistent with ``view``: the unseen cards dealt to the other seats."""
    cards = list(view.unseen)
    rng.shuffle(cards)
    hands, k = [0] * view.n, 0
    for p in range(view.n):
        if p == view.seat:
            hands[p] = view.mine
            continue
        m = 0
        for b in cards[k:k + view.counts[p]]:
            m |= 1 << b
        k += view.counts[p]
        hands[p] = m
    return BigTwoState.from_view(hands, view.rules, view.seat, view.current, view.last_player,
                                 view.passes, view.history, view.required)
