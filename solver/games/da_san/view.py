"""Da San's observation, parsed once per decision (:class:`View`), and a world sampled from
it (:func:`sample_world`): the unseen cards (not in the seat's hand, not played, not a kitty
the seat has taken) dealt at random to the other seats in their counts, and to the kitty
while the auction runs. Nothing of the network or the search: the advisor
(:mod:`solver.games.da_san.advise`) and the network (:mod:`solver.games.da_san.net`) both
read this.

>>> import random
>>> from solver.games.da_san.engine import new_game
>>> state = new_game(seed=3)
>>> view = View(state.observation(state.current_player))
>>> world = sample_world(view, random.Random(1))
>>> sorted(world.hands[view.seat]) == sorted(view.mine) and world.current_player == view.seat
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from solver.cards import NUM_CARDS, parse_cards
from solver.errors import InputError
from solver.games.da_san.engine import KITTY_SIZE, NUM_PLAYERS, DaSanState, Phase
from solver.games.da_san.moves import parse_move
from solver.games.da_san.rules import DaSanRules
from solver.games.search import require_turn

__all__ = ["View", "sample_world"]


class View:
    """What the observation says, parsed once per decision."""

    def __init__(self, obs: Mapping[str, Any]):
        self.seat = require_turn(obs, "player", "to_act", "da-san")
        try:
            self.rules = DaSanRules.from_options(obs["rules"])
            self.phase = Phase(obs["phase"])
            self.mine = tuple(parse_cards(obs["hand"]))
            self.counts = [int(c) for c in obs["counts"]]
            self.kitty = tuple(parse_cards(obs["kitty"])) if obs.get("kitty") else ()
            self.high_bid = int(obs["high_bid"])
            bidder = obs.get("bidder")
            self.bidder = -1 if bidder is None else int(bidder)
            pile = obs.get("pile")
            self.pile = None if pile is None else parse_move(pile["move"], self.rules)
            self.last_player = -1 if pile is None else int(pile["player"])
            self.passes = int(obs["passes"])
            self.dealer, self.opener = int(obs["dealer"]), int(obs["opener"])
            self.history = [(int(h["player"]), parse_move(h["move"], self.rules))
                            for h in obs.get("history") or []]
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"not a Da San observation: {exc!r}") from None
        if len(self.counts) != NUM_PLAYERS or self.counts[self.seat] != len(self.mine):
            raise InputError("observation: counts do not match the hand")
        if self.phase is Phase.OVER:
            raise InputError("the hand is over: there is no move to advise")
        if self.passes not in (0, 1) or not 0 <= self.high_bid <= 3 \
                or not -1 <= self.last_player < NUM_PLAYERS:
            raise InputError(f"observation: passes must be 0 or 1, high_bid 0 to 3 and the "
                             f"pile's player a seat, got {self.passes}, {self.high_bid}, "
                             f"{self.last_player}")
        if self.phase is Phase.PLAY and not 0 <= self.bidder < NUM_PLAYERS:
            raise InputError("observation: the play has started, so there is a bidder")
        if any(c <= 0 for c in self.counts):
            raise InputError("observation: a seat with no cards has gone out; the hand is over")
        played = {c for _, m in self.history for c in m.cards}
        known = played | set(self.mine) | set(self.kitty)
        self.unseen = [c for c in range(NUM_CARDS) if c not in known]
        need = sum(c for p, c in enumerate(self.counts) if p != self.seat)
        if self.phase is Phase.AUCTION:
            need += KITTY_SIZE
        if need != len(self.unseen):
            raise InputError(f"observation: {len(self.unseen)} cards are unseen but the other "
                             f"seats (and a closed kitty) hold {need}")


def sample_world(view: View, rng: random.Random) -> DaSanState:
    """A full state consistent with ``view``: the unseen cards dealt to the other seats
    (and to the kitty during the auction)."""
    cards = list(view.unseen)
    rng.shuffle(cards)
    hands: list[list[int]] = []
    k = 0
    for p in range(NUM_PLAYERS):
        if p == view.seat:
            hands.append(list(view.mine))
            continue
        hands.append(cards[k:k + view.counts[p]])
        k += view.counts[p]
    kitty = cards[k:] if view.phase is Phase.AUCTION else view.kitty
    return DaSanState.from_view(
        hands, kitty, dealer=view.dealer, opener=view.opener, phase=view.phase,
        high_bid=view.high_bid, bidder=view.bidder, passes=view.passes, to_act=view.seat,
        pile=view.pile, last_player=view.last_player, history=view.history, rules=view.rules)
