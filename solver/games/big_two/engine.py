"""Capsa Banting (Big Two): the hand engine, a baseline bot, self-play and the CLI hooks.

Combinations and legal-move generation live in :mod:`solver.games.big_two.moves`; this module
runs a hand: deal, dragon check, turns, passes, trick resets and penalty scoring.

>>> state = new_game(seed=3)
>>> state.num_players, [len(h) for h in state.hands()]
(4, [13, 13, 13, 13])
>>> [str(m) for m in legal_moves("3d 3s 4c")]
['3d', '3s', '4c', '3d 3s']
>>> legal_moves("3d 3s 4c", current="2s").can_pass
True
>>> result = play_hand(seed=3)
>>> sum(1 for r in result.returns if r == 0), result.winner == result.returns.index(0)
(1, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from solver.cards import format_card, parse_cards
from solver.errors import CardError, IllegalMoveError, InputError
from solver.games.base import GameState
from solver.games.big_two.moves import (
    BT_TO_ID,
    DEFAULT_RULES,
    HAND_SIZE,
    KIND_SHIFT,
    PASS,
    BigTwoRules,
    Kind,
    LegalMoves,
    Move,
    _baseline_pick,
    beats,
    beats_move,
    classify,
    classify_mask,
    describe,
    generate,
    ids_to_mask,
    legal_moves,
    mask_to_ids,
)

__all__ = [
    "BaselineBot", "BigTwoRules", "BigTwoState", "HandResult", "Kind", "LegalMoves", "Move",
    "PASS", "RandomBot", "beats", "classify", "describe", "legal_moves", "new_game",
    "penalty", "play_hand",
]


def penalty(cards_left: int) -> int:
    """Penalty points for the cards a loser still holds.

    >>> [penalty(n) for n in (1, 9, 10, 12, 13)]
    [1, 9, 20, 24, 39]
    """
    if cards_left <= 9:
        return cards_left
    if cards_left <= 12:
        return 2 * cards_left
    return 3 * cards_left


def _is_dragon(mask: int) -> bool:
    return all((mask >> (4 * r)) & 15 for r in range(13))


class BigTwoState(GameState):
    """One hand of Big Two. Seats play in increasing order (counter-clockwise)."""

    def __init__(self, hands: Sequence[int], rules: BigTwoRules = DEFAULT_RULES):
        self.rules = rules
        self.num_players = len(hands)
        self._hands = list(hands)  # Big Two masks
        self._current: Move | None = None  # play to beat; None when the player leads
        self._last_player = -1
        self._passes = 0
        self.winner = -1
        self.dragon = False
        self.history: list[tuple[int, Move]] = []
        lowest = min((m & -m).bit_length() - 1 for m in self._hands)
        self.required = lowest  # the lowest card dealt (3d with 4 players) opens the hand
        self._player = next(p for p, m in enumerate(self._hands) if (m >> lowest) & 1)
        for k in range(self.num_players):  # several dragons: the first in turn order wins
            p = (self._player + k) % self.num_players
            if _is_dragon(self._hands[p]):
                self.winner, self.dragon, self._player = p, True, -1
                break

    # ------------------------------------------------------------------ observation
    @property
    def current_player(self) -> int:
        return self._player

    @property
    def current_play(self) -> Move | None:
        """The play to beat (None when the player to act leads)."""
        return self._current

    @property
    def last_player(self) -> int:
        """Seat of the last player to play in this trick (-1 before the first play)."""
        return self._last_player

    def hand(self, player: int) -> list[int]:
        """Shared card ids of a seat's hand, weakest first."""
        return list(mask_to_ids(self._hands[player]))

    def hands(self) -> list[list[int]]:
        return [self.hand(p) for p in range(self.num_players)]

    def hand_mask(self, player: int) -> int:
        return self._hands[player]

    def cards_left(self) -> list[int]:
        """How many cards each seat holds (public information)."""
        return [m.bit_count() for m in self._hands]

    def is_terminal(self) -> bool:
        return self.winner >= 0

    # ------------------------------------------------------------------ moves
    def _required(self) -> int:
        return self.required if not self.history else -1

    def legal(self) -> LegalMoves:
        """Legal plays of the player to act as a lazy sequence (``can_pass`` attached)."""
        if self.is_terminal():
            return LegalMoves(np.empty(0, np.int64), np.empty(0, np.int64), False)
        return generate(self._hands[self._player], self._current, self._required(), self.rules)

    def legal_moves(self) -> list[Move]:
        """Every legal play, then :data:`PASS` when passing is allowed."""
        lm = self.legal()
        return list(lm) + ([PASS] if lm.can_pass else [])

    def _check(self, move: Move) -> Move:
        """The classified play of ``move`` for the player to act, or IllegalMoveError."""
        if self.is_terminal():
            raise IllegalMoveError("the hand is over")
        if move.mask == 0:
            if self._current is None:
                raise IllegalMoveError("the leader may not pass")
            return PASS
        hand = self._hands[self._player]
        if move.mask & ~hand:
            missing = " ".join(format_card(c) for c in mask_to_ids(move.mask & ~hand))
            raise IllegalMoveError(f"player {self._player} does not hold {missing}")
        play = classify_mask(move.mask, self.rules)
        if play is None:
            raise IllegalMoveError(f"{move} is not a combination")
        req = self._required()
        if req >= 0 and not (move.mask >> req) & 1:
            raise IllegalMoveError(f"the first play must contain {format_card(BT_TO_ID[req])}")
        if self._current is not None and not beats_move(play, self._current, self.rules):
            raise IllegalMoveError(f"{play} does not beat {self._current}")
        return play

    def apply(self, move: Move | str | Iterable[Any]) -> None:
        """Play a :class:`Move` (or cards; an empty list or ``"pass"`` passes)."""
        if not isinstance(move, Move):
            if isinstance(move, str) and move.strip().lower() == "pass":
                move = PASS
            else:
                ids = parse_cards(move)
                move = Move(ids_to_mask(ids), Kind.PASS, 0) if ids else PASS
        self._apply_trusted(self._check(move))

    def _apply_trusted(self, play: Move) -> None:
        """Advance without checks (the play came from the legal-move generator)."""
        p = self._player
        self.history.append((p, play))
        n = self.num_players
        if play.mask == 0:
            self._passes += 1
            self._player = (p + 1) % n
            if self._passes >= n - 1:  # everyone else passed: the last player leads
                self._current = None
                self._passes = 0
                self._player = self._last_player
            return
        self._hands[p] &= ~play.mask
        self._current = play
        self._last_player = p
        self._passes = 0
        if self._hands[p] == 0:
            self.winner, self._player = p, -1
            return
        self._player = (p + 1) % n

    # ------------------------------------------------------------------ scoring
    def penalties(self) -> list[int]:
        """Penalty points per seat (0 for the winner); zeros while the hand runs."""
        if not self.is_terminal():
            return [0] * self.num_players
        return [0 if p == self.winner else penalty(c) for p, c in enumerate(self.cards_left())]

    def returns(self) -> list[float]:
        pen = self.penalties()
        out = [float(-x) for x in pen]
        if self.is_terminal() and self.rules.zero_sum:
            out[self.winner] = float(sum(pen))
        return out

    def clone(self) -> BigTwoState:
        other = object.__new__(BigTwoState)
        other.__dict__.update(self.__dict__)
        other._hands = list(self._hands)
        other.history = list(self.history)
        return other

    def __repr__(self) -> str:
        return (f"BigTwoState(player={self._player}, cards_left={self.cards_left()}, "
                f"current={self._current}, winner={self.winner})")


def deal(seed: int | None, players: int) -> list[int]:
    """Shuffle with ``seed`` and give 13 cards to each seat (the rest are set aside)."""
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    hands = []
    for p in range(players):
        m = 0
        for c in deck[p * HAND_SIZE:(p + 1) * HAND_SIZE]:
            m |= 1 << c  # deck positions are Big Two indices: any bijection deals fairly
        hands.append(m)
    return hands


def new_game(seed: int | None = None, hands: Sequence[Any] | None = None,
             rules: BigTwoRules | Mapping[str, Any] | None = None) -> BigTwoState:
    """Deal a hand from ``seed``, or start from the given hands (1-13 cards each, 2-4 seats).

    With ``hands`` the number of seats is ``len(hands)`` (it overrides ``rules.players``).
    """
    rules = BigTwoRules.coerce(rules)
    if hands is None:
        return BigTwoState(deal(seed, rules.players), rules)
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise CardError("hands must be a list of 2 to 4 hands")
    if not 2 <= len(hands) <= 4:
        raise CardError(f"Big Two needs 2 to 4 hands, got {len(hands)}")
    masks, problems, seen = [], [], 0
    for p, h in enumerate(hands):
        try:
            ids = parse_cards(h)
        except CardError as exc:
            problems.extend(f"hand {p}: {msg}" for msg in exc.problems)
            continue
        if not 1 <= len(ids) <= HAND_SIZE:
            problems.append(f"hand {p}: expected 1 to {HAND_SIZE} cards, got {len(ids)}")
        m = ids_to_mask(ids)
        if m & seen:
            dup = " ".join(format_card(c) for c in mask_to_ids(m & seen))
            problems.append(f"hand {p}: {dup} dealt twice")
        seen |= m
        masks.append(m)
    if problems:
        raise CardError(problems)
    if rules.players != len(masks):
        rules = BigTwoRules(rules.straights, rules.flush_order, rules.bomb_on_two,
                            rules.zero_sum, len(masks))
    return BigTwoState(masks, rules)


# ------------------------------------------------------------------------------ bots
class Bot(Protocol):
    def choose(self, state: BigTwoState) -> Move: ...


class BaselineBot:
    """Plays its lowest legal combination and keeps its 2s when it can.

    Leading: a play holding its lowest card (most cards first, no 2 if possible, then the
    weakest). Responding: the weakest play that beats without a 2, else it passes.
    Works on the kernel's arrays: no Move list is built.
    """

    def choose_play(self, state: BigTwoState) -> Move:
        cur = state.current_play
        poker, fsuit, bomb = state.rules.flags
        mask, key = _baseline_pick(state.hand_mask(state.current_player),
                                   cur.strength if cur else 0, cur.size if cur else 0,
                                   state._required(), poker, fsuit, bomb)
        if mask == 0:
            return PASS
        key = int(key)
        return Move(int(mask), Kind(key >> KIND_SHIFT), key)

    def choose(self, state: BigTwoState) -> Move:
        return self.choose_play(state)


class RandomBot:
    """Picks uniformly among the legal plays and the pass (a noisy opponent for tests)."""

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose_play(self, state: BigTwoState) -> Move:
        lm = state.legal()
        i = self.rng.randrange(len(lm) + (1 if lm.can_pass else 0))
        return lm[i] if i < len(lm) else PASS

    def choose(self, state: BigTwoState) -> Move:
        return self.choose_play(state)


@dataclass(frozen=True)
class HandResult:
    """Outcome of one self-play hand."""

    winner: int
    returns: tuple[float, ...]
    cards_left: tuple[int, ...]
    turns: int
    dragon: bool


def play_hand(seed: int | None = None, bots: Sequence[Any] | None = None,
              rules: BigTwoRules | Mapping[str, Any] | None = None,
              check: bool = False) -> HandResult:
    """Deal from ``seed`` and let ``bots`` (one per seat; default baseline) play the hand.

    Bots' plays are trusted when they expose ``choose_play`` (built from the legal-move
    generator); ``check=True`` validates every play through :meth:`BigTwoState.apply`.
    """
    rules = BigTwoRules.coerce(rules)
    if bots is None:
        bots = [BaselineBot()] * rules.players
    if not 2 <= len(bots) <= 4:
        raise InputError(f"Big Two needs 2 to 4 bots, got {len(bots)}")
    if len(bots) != rules.players:
        rules = BigTwoRules(rules.straights, rules.flush_order, rules.bomb_on_two,
                            rules.zero_sum, len(bots))
    state = BigTwoState(deal(seed, rules.players), rules)
    while state.winner < 0:
        bot = bots[state._player]
        fast = None if check else getattr(bot, "choose_play", None)
        if fast is not None:
            state._apply_trusted(fast(state))
        else:
            state.apply(bot.choose(state))
    return HandResult(state.winner, tuple(state.returns()), tuple(state.cards_left()),
                      len(state.history), state.dragon)
