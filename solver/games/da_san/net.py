"""Da San value network: what a seat sees and a candidate move (a bid or a play) in,
expected points out.

A :class:`~solver.games.valuenet.ValueNet` (numpy MLP) estimates ``Q(s, a)``: the points
(``returns()``) the seat to act ends the hand with if it makes move ``a`` now from what it
sees ``s`` and everyone plays on as in self-play; trained by deep Monte Carlo on self-play
hands (:mod:`solver.games.da_san.train`). Suits never matter in Da San, so cards enter as rank
counts (four "at least n" bits a rank). What a seat sees: its hand, the ranks each other seat
has played, the ranks still unseen, how many cards each holds, the auction (high bid, who
holds it, who opened), the play to beat (kind, size, top rank, whose), passes and the rules'
``min_run``; nothing hidden (a closed kitty is among the unseen ranks, a taken one is in the
bidder's hand).

>>> from solver.games.da_san.engine import new_game
>>> net = DaSanNet.initial(seed=0, hidden=(8,))
>>> state = new_game(seed=1)
>>> NetBot(net).choose_play(state) in state.legal_moves()
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solver.errors import InputError
from solver.games.da_san.engine import NUM_PLAYERS, DaSanState, Phase
from solver.games.da_san.moves import DS_RANK, MAX_BID, MAX_HAND, PLAY_KINDS, Kind, Move
from solver.games.da_san.rules import MIN_RUN_HIGH, MIN_RUN_LOW, DaSanRules
from solver.games.da_san.view import View, sample_world
from solver.games.search import observation_errors
from solver.games.valuenet import ValueNet, offsets

__all__ = ["DEFAULT_NET", "FORMAT", "DaSanNet", "NetBot", "Seen", "default_net", "legal_q",
           "load", "move_features", "net_candidates", "seen_from_state", "seen_from_view",
           "state_features"]

FORMAT = "capsa-da-san-qnet/1"
POINT_SCALE = 3.0  # a hand moves at most 6 points (a bid of 3 from each of two opponents)
RANKS = 13
THERMO = 4 * RANKS  # rank counts as "at least 1, 2, 3, 4 cards of the rank" bits
SIZES = MAX_HAND + 1
_MIN_RUNS = MIN_RUN_HIGH - MIN_RUN_LOW + 1
_KINDS = tuple(Kind)  # the move kinds in a fixed order
_KIND_INDEX: dict[Kind, int] = {k: i for i, k in enumerate(_KINDS)}
_PLAY_INDEX: dict[Kind, int] = {k: i for i, k in enumerate(PLAY_KINDS)}
#: Feature blocks of what the seat sees, in order (name, width).
STATE_LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", THERMO), ("played_by_next", THERMO), ("played_by_second", THERMO),
    ("unseen", THERMO),
    ("cards_left_own", SIZES), ("cards_left_next", SIZES), ("cards_left_second", SIZES),
    ("auction", 1), ("high_bid", MAX_BID + 1), ("bidder", NUM_PLAYERS + 1),
    ("opener", NUM_PLAYERS),
    ("pile_kind", len(PLAY_KINDS) + 1), ("pile_size", SIZES), ("pile_top", RANKS),
    ("pile_owner", NUM_PLAYERS), ("passes", 2), ("min_run", _MIN_RUNS),
)
#: Feature blocks of a candidate move.
MOVE_LAYOUT: tuple[tuple[str, int], ...] = (
    ("cards", THERMO), ("kind", len(_KINDS)), ("bid", MAX_BID + 1), ("top", RANKS),
    ("size", SIZES), ("cards_left_after", SIZES),
)
DEFAULT_NET = Path(__file__).resolve().parent / "data" / "qnet.npz"
_OFF = offsets(STATE_LAYOUT)
_MOFF = offsets(MOVE_LAYOUT)
_LEVELS = np.arange(4)


class DaSanNet(ValueNet):
    """Da San's network (:class:`~solver.games.valuenet.ValueNet` with this layout)."""

    GAME = "Da San"
    FORMAT = FORMAT
    STATE_LAYOUT = STATE_LAYOUT
    MOVE_LAYOUT = MOVE_LAYOUT
    POINT_SCALE = POINT_SCALE


STATE_FEATURES = DaSanNet.state_width()
MOVE_FEATURES = DaSanNet.move_width()


def load(path: str | Path) -> DaSanNet:
    """A network file (``InputError`` naming the problem if it is not one for this layout)."""
    return DaSanNet.load(path)


@functools.cache
def default_net() -> DaSanNet:
    """The shipped network (loaded once)."""
    return load(DEFAULT_NET)


def rank_counts(cards: Sequence[int] | tuple[int, ...]) -> np.ndarray:
    """Cards of each Da San rank (13 ints)."""
    counts = np.zeros(RANKS, np.int64)
    for c in cards:
        counts[DS_RANK[c]] += 1
    return counts


def _thermo(counts: np.ndarray) -> np.ndarray:
    return (counts[:, None] > _LEVELS[None, :]).ravel()


@dataclass
class Seen:
    """What one seat sees, as the features need it (from an engine state or an observation)."""

    seat: int
    mine: Sequence[int]
    counts: Sequence[int]
    history: Sequence[tuple[int, Move]]
    auction: bool
    high_bid: int
    bidder: int
    opener: int
    pile: Move | None
    last_player: int
    passes: int
    rules: DaSanRules


def seen_from_state(state: DaSanState) -> Seen:
    """The seat to act's view of a :class:`~solver.games.da_san.engine.DaSanState`."""
    p = state.to_act
    return Seen(p, state.hands[p], state.counts(), state.history, state.phase is Phase.AUCTION,
                state.high_bid, state.bidder, state.opener, state.pile, state.last_player,
                state.passes, state.rules)


def seen_from_view(view: View) -> Seen:
    """What the network reads, from the observation's view."""
    return Seen(view.seat, view.mine, view.counts, view.history, view.phase is Phase.AUCTION,
                view.high_bid, view.bidder, view.opener, view.pile, view.last_player,
                view.passes, view.rules)


def state_features(seen: Seen) -> np.ndarray:
    """The state block (float32, ``STATE_FEATURES`` wide)."""
    x = np.zeros(STATE_FEATURES, np.float32)
    seat = seen.seat
    mine = rank_counts(seen.mine)
    played = np.zeros((NUM_PLAYERS, RANKS), np.int64)
    for p, m in seen.history:
        for c in m.cards:
            played[p, DS_RANK[c]] += 1
    nxt, second = (seat + 1) % NUM_PLAYERS, (seat + 2) % NUM_PLAYERS
    unseen = 4 - mine - played.sum(axis=0)
    x[_OFF["hand"]:_OFF["hand"] + THERMO] = _thermo(mine)
    x[_OFF["played_by_next"]:_OFF["played_by_next"] + THERMO] = _thermo(played[nxt])
    x[_OFF["played_by_second"]:_OFF["played_by_second"] + THERMO] = _thermo(played[second])
    x[_OFF["unseen"]:_OFF["unseen"] + THERMO] = _thermo(unseen)
    x[_OFF["cards_left_own"] + min(len(seen.mine), MAX_HAND)] = 1.0
    x[_OFF["cards_left_next"] + min(int(seen.counts[nxt]), MAX_HAND)] = 1.0
    x[_OFF["cards_left_second"] + min(int(seen.counts[second]), MAX_HAND)] = 1.0
    x[_OFF["auction"]] = float(seen.auction)
    x[_OFF["high_bid"] + seen.high_bid] = 1.0
    x[_OFF["bidder"] + (0 if seen.bidder < 0 else 1 + (seen.bidder - seat) % NUM_PLAYERS)] = 1.0
    x[_OFF["opener"] + (seen.opener - seat) % NUM_PLAYERS] = 1.0
    pile = seen.pile
    if pile is None or not pile.cards:
        x[_OFF["pile_kind"] + len(PLAY_KINDS)] = 1.0  # leading (or the auction)
    else:
        x[_OFF["pile_kind"] + _PLAY_INDEX[pile.kind]] = 1.0
        x[_OFF["pile_size"] + min(len(pile.cards), MAX_HAND)] = 1.0
        x[_OFF["pile_top"] + pile.strength] = 1.0
        if seen.last_player >= 0:
            x[_OFF["pile_owner"] + (seen.last_player - seat) % NUM_PLAYERS] = 1.0
    x[_OFF["passes"] + min(seen.passes, 1)] = 1.0
    x[_OFF["min_run"] + seen.rules.min_run - MIN_RUN_LOW] = 1.0
    return x


def move_features(mine_count: int, moves: Sequence[Move]) -> np.ndarray:
    """One row per move (bids, plays and the pass alike)."""
    x = np.zeros((len(moves), MOVE_FEATURES), np.float32)
    for i, m in enumerate(moves):
        x[i, _MOFF["kind"] + _KIND_INDEX[m.kind]] = 1.0
        n = len(m.cards)
        if m.kind is Kind.BID:
            x[i, _MOFF["bid"] + m.strength] = 1.0
        elif n:
            x[i, :THERMO] = _thermo(rank_counts(m.cards))
            x[i, _MOFF["top"] + m.strength] = 1.0
        x[i, _MOFF["size"] + min(n, MAX_HAND)] = 1.0
        x[i, _MOFF["cards_left_after"] + max(0, min(mine_count - n, MAX_HAND))] = 1.0
    return x


def legal_q(net: DaSanNet, seen: Seen, moves: Sequence[Move]) -> np.ndarray:
    """``Q`` of each of ``moves`` (the seat's legal moves) from what the seat sees."""
    return net.q(state_features(seen), move_features(len(seen.mine), moves))


def net_candidates(view: View, net: DaSanNet, width: int
                   ) -> tuple[list[Move], int, dict[Move, float]]:
    """The ``width`` moves of highest ``Q`` (the network's own choice first), how many moves
    are legal, and those moves' ``Q``."""
    legal = sample_world(view, random.Random(0)).legal_moves()  # the seat's own moves
    q = legal_q(net, seen_from_view(view), legal)
    order = np.argsort(-q, kind="stable")[:width]
    moves = [legal[int(i)] for i in order]
    return moves, len(legal), {m: float(q[int(i)]) for m, i in zip(moves, order)}


class NetBot:
    """Makes the legal move of highest ``Q`` (ties: the first listed)."""

    name = "net"

    def __init__(self, net: DaSanNet | None = None):
        self._net = net

    @property
    def net(self) -> DaSanNet:
        return self._net if self._net is not None else default_net()

    def choose_play(self, state: DaSanState, rng: random.Random | None = None) -> Move:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        return moves[int(np.argmax(legal_q(self.net, seen_from_state(state), moves)))]

    def __call__(self, observation: Mapping[str, Any], legal_moves: Sequence[Move],
                 rng: random.Random) -> Move:
        with observation_errors():
            view = View(observation)
            seen = seen_from_view(view)
        if not legal_moves:
            raise InputError("no legal moves given")
        if len(legal_moves) == 1:
            return legal_moves[0]
        return legal_moves[int(np.argmax(legal_q(self.net, seen, list(legal_moves))))]
