"""Baseline Da Bai Fen bots, the whole game (hands until a team goes past A) and self-play.

A policy is ``policy(state, rng) -> Move`` for the player to act; it reads only that
player's hand, the current trick and the public facts (trump, tricks so far).

>>> record = play_game([GreedyBot()] * 4, seed=1)
>>> record.winner in (0, 1), max(record.levels) > TOP_LEVEL
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from solver.errors import InputError
from solver.games.da_bai_fen.cards import NUM_PLAYERS, card_points
from solver.games.da_bai_fen.engine import (
    NO_SHOW,
    TOP_LEVEL,
    Action,
    DaBaiFenRules,
    DaBaiFenState,
    HandResult,
    Move,
    Phase,
    new_hand,
)
from solver.games.da_bai_fen.moves import winner_index

Policy = Callable[[DaBaiFenState, random.Random], Move]


# ------------------------------------------------------------------ bots
def random_bot(state: DaBaiFenState, rng: random.Random) -> Move:
    """Any legal move, uniformly (groups dominate its leads: there are many of them)."""
    return rng.choice(state.legal_moves())


@dataclass(frozen=True)
class GreedyBot:
    """A simple baseline: shows its longest suit, buries cheap off-suit cards, leads single
    cards, wins a trick as cheaply as it can and throws points to a winning partner."""

    show: bool = True

    def __call__(self, state: DaBaiFenState, rng: random.Random) -> Move:
        if state.phase is Phase.DRAW:
            return self._show(state)
        if state.phase is Phase.BURY:
            return self._bury(state)
        return self._play(state)

    def _show(self, state: DaBaiFenState) -> Move:
        moves = state.legal_moves()[1:]
        if not self.show or not moves:
            return NO_SHOW
        hand = state.hands[state.current_player]
        return max(moves, key=lambda m: sum(1 for c in hand if c < 52 and c & 3 == m.cards[0] & 3))

    def _bury(self, state: DaBaiFenState) -> Move:
        t = state.trump
        hand = state.hands[state.current_player]
        length = {s: sum(1 for c in hand if t.eff[c] == s) for s in range(4)}

        def keep(c: int) -> tuple:  # lowest is buried first: off-suit, no points, short suit
            return (t.is_trump(c), card_points(c), c >> 2 == 12, length[t.eff[c]], t.strength[c])

        return Move(Action.BURY, (min(hand, key=keep),))

    def _play(self, state: DaBaiFenState) -> Move:
        t, seat = state.trump, state.current_player
        if not state.trick:
            hand = state.hands[seat]
            aces = [c for c in hand if not t.is_trump(c) and c >> 2 == 12]
            if aces:
                return Move(Action.PLAY, (aces[0],))
            return Move(Action.PLAY, (min(hand, key=lambda c: (card_points(c), t.strength[c])),))
        team = seat % 2
        leader = state.trick_leader

        def score(play: tuple[int, ...]) -> tuple:
            trick = [*state.trick, play]
            wins = (leader + winner_index(trick, t)) % NUM_PLAYERS % 2 == team
            pts = sum(card_points(c) for c in play)
            cost = sum(t.strength[c] for c in play)
            return (wins, pts if wins else -pts, -cost)

        return Move(Action.PLAY, max(state.legal_plays(), key=score))


# ------------------------------------------------------------------ the whole game
@dataclass
class Match:
    """Levels, declarers and the next leader across hands; ``winner`` once a team passes A."""

    rules: DaBaiFenRules = field(default_factory=DaBaiFenRules)
    levels: list[int] = field(default_factory=lambda: [0, 0])
    next_leader: int | None = None
    winner: int | None = None
    results: list[HandResult] = field(default_factory=list)

    def new_hand(self, rng: random.Random) -> DaBaiFenState:
        """The next hand: its dealer is its leader, except in the first (a random dealer)."""
        if self.winner is not None:
            raise InputError("the game is over")
        seed = rng.getrandbits(64)
        if self.next_leader is None:
            return new_hand(seed, rules=self.rules, levels=tuple(self.levels))
        return new_hand(seed, rules=self.rules, dealer=self.next_leader,
                        levels=tuple(self.levels), leader=self.next_leader)

    def record(self, state: DaBaiFenState) -> HandResult:
        """Move the levels by the finished hand's result."""
        r = state.result
        if r is None:
            raise InputError("the hand is not finished")
        o = r.outcome
        for team, up in ((r.declarers, o.declarers_up), (1 - r.declarers, o.defenders_up)):
            self.levels[team] += up
            if self.levels[team] > TOP_LEVEL:
                self.winner = team
        self.next_leader = r.next_leader
        self.results.append(r)
        return r


@dataclass(frozen=True)
class GameRecord:
    winner: int | None  # None only when ``max_hands`` stopped the game
    levels: tuple[int, int]
    hands: tuple[HandResult, ...]


def play_hand(policies: Sequence[Policy], state: DaBaiFenState | None = None,
              seed: int | None = None, rules: DaBaiFenRules | Mapping | None = None,
              rng: random.Random | None = None) -> DaBaiFenState:
    """Play one hand to the end with one policy per seat; returns the finished state."""
    if len(policies) != NUM_PLAYERS:
        raise InputError(f"need {NUM_PLAYERS} policies, got {len(policies)}")
    rng = rng or random.Random(seed)
    state = state or new_hand(rng.getrandbits(64), rules=rules)
    while not state.is_terminal():
        state.apply(policies[state.current_player](state, rng))
    return state


def play_game(policies: Sequence[Policy], seed: int | None = None,
              rules: DaBaiFenRules | Mapping | None = None,
              max_hands: int | None = 10_000) -> GameRecord:
    """Play hands until a team goes past A (or ``max_hands`` hands were played)."""
    rng = random.Random(seed)
    match = Match(DaBaiFenRules.make(rules))
    while match.winner is None and (max_hands is None or len(match.results) < max_hands):
        match.record(play_hand(policies, match.new_hand(rng), rng=rng))
    return GameRecord(match.winner, (match.levels[0], match.levels[1]), tuple(match.results))
