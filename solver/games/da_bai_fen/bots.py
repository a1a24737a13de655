"""Da Bai Fen bots, the whole game (hands until a team goes past A) and self-play.

Every bot follows the contract: ``bot(observation, legal_moves, rng) -> move``, and sees
only its seat's observation. The baselines also offer ``bot.policy(state, rng)``, the same
decision read straight from the engine's state (no observation document is built): the fast
path of self-play and the search's rollouts. Both paths share one decision function per
bot, so they choose the same moves from the same seeds (the tests check it).

>>> from solver.games.da_bai_fen.engine import TOP_LEVEL
>>> record = play_game([GreedyBot()] * 4, seed=1)
>>> record.winner in (0, 1), max(record.levels) > TOP_LEVEL
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.cards import Rank, is_joker, parse_cards, rank_of, suit_of
from solver.errors import InputError
from solver.games.da_bai_fen.cards import NUM_PLAYERS, Trump, card_points, parse_rank, parse_suit
from solver.games.da_bai_fen.engine import (
    NO_SHOW,
    DaBaiFenRules,
    DaBaiFenState,
    HandResult,
    Kind,
    Move,
    Phase,
    new_hand,
)
from solver.games.da_bai_fen.levels import game_winner, levels_after
from solver.games.da_bai_fen.moves import winner_index

Policy = Callable[[DaBaiFenState, random.Random], Move]
Bot = Callable[[Mapping[str, Any], Sequence[Move], random.Random], Move]


# ------------------------------------------------------------------ what a bot reads
@dataclass(frozen=True)
class View:
    """The part of a seat's knowledge the baseline bots decide from."""

    phase: Phase
    seat: int
    hand: tuple[int, ...]
    trump: Trump | None
    trick: tuple[tuple[int, ...], ...]
    trick_leader: int

    @classmethod
    def of_state(cls, state: DaBaiFenState) -> View:
        seat = state.current_player
        return cls(state.phase, seat, tuple(state.hands[seat]), state.trump, tuple(state.trick),
                   state.trick_leader)

    @classmethod
    def of_observation(cls, obs: Mapping[str, Any]) -> View:
        trump = None
        if obs.get("trump_suit") is not None:
            trump = Trump(parse_rank(obs["trump_rank"]), parse_suit(obs["trump_suit"]))
        lead = obs.get("trick_leader")
        return cls(Phase(obs["phase"]), int(obs["player"]),
                   tuple(parse_cards(obs["hand"], allow_jokers=True)), trump,
                   tuple(tuple(parse_cards(p, allow_jokers=True)) for p in obs.get("trick", [])),
                   -1 if lead is None else int(lead))

    @property
    def fixed_trump(self) -> Trump:
        """The trump, which every phase after the draw has."""
        if self.trump is None:
            raise InputError("the trump is not fixed before the draw ends")
        return self.trump


# ------------------------------------------------------------------ bots
def _is_ace(card: int) -> bool:
    return not is_joker(card) and rank_of(card) == Rank.ACE


class RandomBot:
    """Any legal move, uniformly (groups dominate its leads: there are many of them)."""

    def __call__(self, observation: Mapping[str, Any], legal_moves: Sequence[Move],
                 rng: random.Random) -> Move:
        return legal_moves[rng.randrange(len(legal_moves))]

    def policy(self, state: DaBaiFenState, rng: random.Random) -> Move:
        moves = state.legal_moves()
        return moves[rng.randrange(len(moves))]


random_bot = RandomBot()


@dataclass(frozen=True)
class GreedyBot:
    """A simple baseline: shows its longest suit, buries cheap off-suit cards, leads single
    cards, wins a trick as cheaply as it can and throws points to a winning partner."""

    show: bool = True

    def __call__(self, observation: Mapping[str, Any], legal_moves: Sequence[Move],
                 rng: random.Random) -> Move:
        return self.decide(View.of_observation(observation), legal_moves)

    def policy(self, state: DaBaiFenState, rng: random.Random) -> Move:
        return self.decide(View.of_state(state), state.legal_moves())

    def decide(self, view: View, moves: Sequence[Move]) -> Move:
        if view.phase is Phase.DRAW:
            return self._show(view, moves)
        if view.phase is Phase.BURY:
            return self._bury(view)
        return self._play(view, moves)

    def _show(self, view: View, moves: Sequence[Move]) -> Move:
        shows = [m for m in moves if m.kind is Kind.SHOW]
        if not self.show or not shows:
            return NO_SHOW
        hand = view.hand
        return max(shows, key=lambda m: sum(1 for c in hand
                                            if not is_joker(c) and suit_of(c) == suit_of(m.cards[0])))

    def _bury(self, view: View) -> Move:
        t, hand = view.fixed_trump, view.hand
        length = {s: sum(1 for c in hand if t.eff[c] == s) for s in range(4)}

        def keep(c: int) -> tuple:  # lowest is buried first: off-suit, no points, short suit
            return (t.is_trump(c), card_points(c), _is_ace(c), length[t.eff[c]], t.strength[c], c)

        return Move(Kind.BURY, (min(hand, key=keep),))

    def _play(self, view: View, moves: Sequence[Move]) -> Move:
        t, hand = view.fixed_trump, view.hand
        if not view.trick:
            aces = [c for c in hand if not t.is_trump(c) and _is_ace(c)]
            if aces:
                return Move(Kind.PLAY, (min(aces),))
            return Move(Kind.PLAY, (min(hand, key=lambda c: (card_points(c), t.strength[c], c)),))
        team = view.seat % 2
        leader = view.trick_leader
        trick = list(view.trick)

        def score(move: Move) -> tuple:
            play = move.cards
            wins = (leader + winner_index([*trick, play], t)) % NUM_PLAYERS % 2 == team
            pts = sum(card_points(c) for c in play)
            cost = sum(t.strength[c] for c in play)
            return (wins, pts if wins else -pts, -cost)

        return max(moves, key=score)


def policy_of(bot: Bot) -> Policy:
    """The fast ``(state, rng)`` form of a contract bot: its own ``policy`` if it has one,
    else the contract call on the seat's observation. (A bare ``(state, rng)`` function is
    not a bot: it would be called with the observation.)"""
    fast: Policy | None = getattr(bot, "policy", None)
    if fast is not None:
        return fast

    def policy(state: DaBaiFenState, rng: random.Random) -> Move:
        seat = state.current_player
        return bot(state.observation(seat), state.legal_moves(), rng)

    return policy


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
        self.levels = list(levels_after(self.levels, r))
        self.winner = game_winner(self.levels)
        self.next_leader = r.next_leader
        self.results.append(r)
        return r


@dataclass(frozen=True)
class GameRecord:
    winner: int | None  # None only when ``max_hands`` stopped the game
    levels: tuple[int, int]
    hands: tuple[HandResult, ...]


def self_play_hand(bots: Sequence[Bot], state: DaBaiFenState | None = None,
                   seed: int | None = None, rules: DaBaiFenRules | Mapping | None = None,
                   rng: random.Random | None = None) -> DaBaiFenState:
    """Play one hand to the end with one bot per seat on the fast path (:func:`policy_of`);
    the same moves as :func:`solver.games.play_hand` with the same seed."""
    if len(bots) != NUM_PLAYERS:
        raise InputError(f"need {NUM_PLAYERS} bots, got {len(bots)}")
    policies = [policy_of(b) for b in bots]
    rng = rng or random.Random(seed)
    state = state or new_hand(rng.getrandbits(64), rules=rules)
    while not state.is_terminal():
        state.apply(policies[state.current_player](state, rng))
    return state


def play_game(bots: Sequence[Bot], seed: int | None = None,
              rules: DaBaiFenRules | Mapping | None = None,
              max_hands: int | None = 10_000) -> GameRecord:
    """Play hands until a team goes past A (or ``max_hands`` hands were played)."""
    rng = random.Random(seed)
    match = Match(DaBaiFenRules.from_options(rules))
    while match.winner is None and (max_hands is None or len(match.results) < max_hands):
        match.record(self_play_hand(bots, match.new_hand(rng), rng=rng))
    return GameRecord(match.winner, (match.levels[0], match.levels[1]), tuple(match.results))
