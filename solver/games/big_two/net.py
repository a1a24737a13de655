"""Big Two value network: what a seat sees and a candidate play in, expected points out.

A small numpy MLP estimates ``Q(s, a)``: the points (the rules' ``returns()``, divided by
:data:`POINT_SCALE`) the seat to act ends the hand with if it plays ``a`` now from what it sees
``s`` and everyone plays on as in self-play. Trained by Monte Carlo regression on the final
points of self-play hands (:mod:`solver.games.big_two.train`); the bot that plays the best
``Q`` is :class:`NetBot`. Nothing hidden enters the features: the seat's own hand, the cards
each other seat has played, how many each holds, the play to beat, passes and the rules.

The network and its file are :class:`~solver.games.valuenet.ValueNet`'s (shared with Da San):
the layer weights and a JSON ``meta`` record of the format, the feature layout, the command,
seed and games that made it; :func:`load` refuses a file built for other features.

>>> from solver.games.big_two.engine import new_game
>>> net = QNet.initial(seed=0)
>>> state = new_game(seed=1)
>>> move = NetBot(net).choose_play(state)
>>> move in state.legal_moves()
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from solver.cards import NUM_CARDS
from solver.errors import InputError
from solver.games.big_two.moves import KIND_SHIFT, PASS, Kind, LegalMoves, Move, generate
from solver.games.big_two.rules import BigTwoRules
from solver.games.big_two.view import View
from solver.games.search import observation_errors
from solver.games.valuenet import ValueNet, offsets

__all__ = ["DEFAULT_NET", "FORMAT", "MOVE_FEATURES", "NetBot", "QNet", "STATE_FEATURES",
           "default_net", "load", "move_features", "net_candidates", "seen_from_view",
           "state_features"]

FORMAT = "capsa-big-two-qnet/1"
POINT_SCALE = 13.0  # returns are learned in units of a full hand's cards
HAND = 13
MAX_SEATS = 4
_KINDS = 9  # Kind.PASS .. Kind.STRAIGHT_FLUSH
#: Feature blocks of what the seat sees, in order (name, width).
STATE_LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", NUM_CARDS),
    ("played_by_next", NUM_CARDS), ("played_by_second", NUM_CARDS),
    ("played_by_third", NUM_CARDS),
    ("unseen", NUM_CARDS),
    ("cards_left_next", HAND + 1), ("cards_left_second", HAND + 1),
    ("cards_left_third", HAND + 1), ("cards_left_own", HAND + 1),
    ("table", NUM_CARDS), ("table_kind", _KINDS), ("table_owner", MAX_SEATS),
    ("passes", MAX_SEATS - 1), ("opening_lead", 1),
    ("rules", 5), ("players", 3),
)
#: Feature blocks of a candidate play.
MOVE_LAYOUT: tuple[tuple[str, int], ...] = (
    ("cards", NUM_CARDS), ("kind", _KINDS), ("cards_left_after", HAND + 1),
)
STATE_FEATURES = sum(w for _, w in STATE_LAYOUT)
MOVE_FEATURES = sum(w for _, w in MOVE_LAYOUT)
HIDDEN = (256, 256, 128)
DEFAULT_NET = Path(__file__).resolve().parent / "data" / "qnet.npz"
_OFF = offsets(STATE_LAYOUT)
_BIT = np.arange(64, dtype=np.uint64)
_SIZE = np.array([0, 1, 2, 3, 5, 5, 5, 5, 5], np.int64)  # cards in a play of each Kind


def _bits(masks: np.ndarray) -> np.ndarray:
    """52 bit columns (float32) of int64 Big Two masks."""
    m = np.asarray(masks, dtype=np.int64).astype(np.uint64)
    return ((m[:, None] >> _BIT[None, :NUM_CARDS]) & np.uint64(1)).astype(np.float32)


@dataclass
class Seen:
    """What one seat sees, as the features need it (from an engine state or an observation)."""

    seat: int
    n: int
    mine: int
    counts: Sequence[int]
    history: Sequence[tuple[int, Move]]
    current: Move | None
    last_player: int
    passes: int
    rules: BigTwoRules
    opening: bool = False
    played: list[int] = field(init=False)  # each seat's cards played, from the history

    def __post_init__(self) -> None:
        self.played = [0] * self.n
        for p, m in self.history:
            self.played[p] |= m.mask


def seen_from_state(state: Any) -> Seen:
    """The seat to act's view of a :class:`~solver.games.big_two.engine.BigTwoState`."""
    p = state.current_player
    return Seen(p, state.num_players, state.hand_mask(p), state.cards_left(), state.history,
                state.current_play, state.last_player, state.passes, state.rules,
                state.required_card() >= 0)


def seen_from_view(view: View) -> Seen:
    """What the network reads, from the observation's view."""
    return Seen(view.seat, view.n, view.mine, view.counts, view.history, view.current,
                view.last_player, view.passes, view.rules, not view.history)


_NAMES = ("next", "second", "third")
_CARD_BLOCKS = np.array([_OFF[n] for n in ("hand", "played_by_next", "played_by_second",
                                           "played_by_third", "unseen", "table")])
_CARD_COLS = (_CARD_BLOCKS[:, None] + np.arange(NUM_CARDS)[None, :]).ravel()
_ALL = (1 << NUM_CARDS) - 1


def state_features(seen: Seen) -> np.ndarray:
    """The state block (float32, :data:`STATE_FEATURES` wide)."""
    x = np.zeros(STATE_FEATURES, np.float32)
    n, seat = seen.n, seen.seat
    masks = [seen.mine, 0, 0, 0, 0, seen.current.mask if seen.current is not None else 0]
    unseen = _ALL & ~seen.mine
    for q in range(n):
        unseen &= ~seen.played[q]
    masks[4] = unseen
    for r in range(1, n):
        q = (seat + r) % n
        masks[r] = seen.played[q]
        x[_OFF[f"cards_left_{_NAMES[r - 1]}"] + min(int(seen.counts[q]), HAND)] = 1.0
    x[_CARD_COLS] = _bits(np.array(masks, np.int64)).ravel()
    x[_OFF["cards_left_own"] + min(seen.mine.bit_count(), HAND)] = 1.0
    if seen.current is not None:
        x[_OFF["table_kind"] + int(seen.current.kind)] = 1.0
        if seen.last_player >= 0:
            x[_OFF["table_owner"] + (seen.last_player - seat) % n] = 1.0
    else:
        x[_OFF["table_kind"]] = 1.0  # leading
    x[_OFF["passes"] + min(seen.passes, MAX_SEATS - 2)] = 1.0
    x[_OFF["opening_lead"]] = float(seen.opening)
    poker, fsuit, bomb = seen.rules.flags
    r0 = _OFF["rules"]
    x[r0:r0 + 5] = (poker, fsuit, bomb, seen.rules.scoring == "cards-left",
                    seen.rules.winner_collects)
    x[_OFF["players"] + n - 2] = 1.0
    return x


def move_features(mine: int, masks: np.ndarray, keys: np.ndarray, can_pass: bool) -> np.ndarray:
    """One row per play (``masks``/``keys`` as the generator gives them), then the pass."""
    k = int(masks.shape[0])
    rows = k + (1 if can_pass else 0)
    x = np.zeros((rows, MOVE_FEATURES), np.float32)
    if k:
        x[:k, :NUM_CARDS] = _bits(masks)
        kinds = (np.asarray(keys, np.int64) >> KIND_SHIFT).astype(np.int64)
        x[np.arange(k), NUM_CARDS + kinds] = 1.0
        left = mine.bit_count() - _SIZE[kinds]
        x[np.arange(k), NUM_CARDS + _KINDS + left] = 1.0
    if can_pass:
        x[k, NUM_CARDS + int(Kind.PASS)] = 1.0
        x[k, NUM_CARDS + _KINDS + min(mine.bit_count(), HAND)] = 1.0
    return x


class QNet(ValueNet):
    """Big Two's network (:class:`~solver.games.valuenet.ValueNet` with this layout)."""

    GAME = "Big Two"
    FORMAT = FORMAT
    STATE_LAYOUT = STATE_LAYOUT
    MOVE_LAYOUT = MOVE_LAYOUT
    POINT_SCALE = POINT_SCALE
    HIDDEN = HIDDEN


def layout_digest() -> str:
    """The feature layout in one string (a file must match it)."""
    return QNet.layout_digest()


def load(path: str | Path) -> QNet:
    """A network file (``InputError`` naming the problem if it is not one for this layout)."""
    return QNet.load(path)


@functools.cache
def default_net() -> QNet:
    """The shipped network (loaded once)."""
    return load(DEFAULT_NET)


def legal_q(net: QNet, seen: Seen, lm: LegalMoves) -> np.ndarray:
    """``Q`` of each legal play of ``lm`` and, last, the pass when allowed."""
    return net.q(state_features(seen), move_features(seen.mine, lm.masks, lm.strengths,
                                                     lm.can_pass))


def move_at(lm: LegalMoves, i: int) -> Move:
    """The ``i``-th option of ``lm`` (the pass after the plays)."""
    return lm[i] if i < len(lm) else PASS


def net_candidates(view: View, net: QNet, width: int
                   ) -> tuple[list[Move], int, dict[int, float]]:
    """The ``width`` options of highest ``Q`` (the network's own choice first), how many
    options are legal, and those options' ``Q`` by mask."""
    lm = generate(view.mine, view.current, view.required, view.rules)
    q = legal_q(net, seen_from_view(view), lm)
    order = np.argsort(-q, kind="stable")[:width]
    moves = [move_at(lm, int(i)) for i in order]
    return moves, len(q), {m.mask: float(q[int(i)]) for m, i in zip(moves, order)}


class NetBot:
    """Plays the legal option of highest ``Q`` (ties: the first, so the weakest)."""

    name = "net"

    def __init__(self, net: QNet | None = None):
        self._net = net

    @property
    def net(self) -> QNet:
        return self._net if self._net is not None else default_net()

    def choose_play(self, state: Any, rng: random.Random | None = None) -> Move:
        lm = state.legal()
        if len(lm) == 0:
            return PASS
        if len(lm) == 1 and not lm.can_pass:
            return lm[0]
        return move_at(lm, int(np.argmax(legal_q(self.net, seen_from_state(state), lm))))

    def __call__(self, observation: Mapping[str, Any], legal_moves: Sequence[Move],
                 rng: random.Random) -> Move:
        with observation_errors():
            best = net_candidates(View(observation), self.net, 1)[0][0]
        for m in legal_moves:
            if m.mask == best.mask:
                return m
        raise InputError("the network chose a move that is not among the legal moves given")
