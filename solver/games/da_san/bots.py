"""Baseline Da San players (bidding and play) and a self-play runner.

A bot is a callable ``bot(state) -> move`` returning one of ``state.legal_moves()``.

>>> result = self_play(3, seed=1)
>>> result.hands, sum(result.scores)
(3, 0.0)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solver.games.da_san.engine import NUM_PLAYERS, DaSanState, Phase, new_game
from solver.games.da_san.moves import DS_RANK, PASS, Kind, Move

Bot = Callable[[DaSanState], Move]
HIGH = 10  # Da San rank of the ace; A, 2 and 3 are the cards that win tricks


def hand_score(hand: Sequence[int]) -> float:
    """A rough strength of a hand for bidding: top cards, quads, and few loose low singles."""
    counts = [0] * 13
    for c in hand:
        counts[DS_RANK[c]] += 1
    score = 3.0 * counts[12] + 2.0 * counts[11] + 1.0 * counts[10]
    score += sum(2.0 for n in counts if n == 4)
    score -= 0.5 * sum(1 for d in range(HIGH) if counts[d] == 1)
    return score


def greedy_bid(state: DaSanState) -> Move:
    """Bid the amount the hand's score supports (the opener bids at least 1), else pass."""
    score = hand_score(state.hands[state.to_act])
    wanted = 3 if score >= 20 else 2 if score >= 15 else 1 if score >= 10 else 0
    moves = state.legal_moves()
    if wanted > state.high_bid:
        return next(m for m in moves if m.kind is Kind.BID and m.strength == wanted)
    return moves[0] if state.high_bid == 0 else PASS


def greedy_play(state: DaSanState) -> Move:
    """Lead the longest low combination; follow with the lowest play that beats, but let a
    partner's play stand (the two opponents of the bidder are partners)."""
    moves = state.legal_moves()
    if state.pile is None:
        return min(moves, key=lambda m: (m.strength >= HIGH, -len(m.cards), m.strength))
    seat = state.to_act
    partner_played = (seat != state.bidder and state.last_player != state.bidder)
    plays = [m for m in moves if m.cards]
    if not plays or partner_played:
        return PASS
    return plays[0]  # legal_moves lists the higher plays from the lowest up


def greedy_bot(state: DaSanState) -> Move:
    """The baseline player: :func:`greedy_bid` in the auction, :func:`greedy_play` after."""
    return greedy_bid(state) if state.phase is Phase.AUCTION else greedy_play(state)


def random_bot(seed: int | None = None) -> Bot:
    """A player choosing uniformly among the legal moves (a floor for the baseline)."""
    rng = random.Random(seed)

    def bot(state: DaSanState) -> Move:
        return rng.choice(state.legal_moves())

    return bot


def play_hand(state: DaSanState, bots: Sequence[Bot]) -> DaSanState:
    """Play ``state`` to the end, seat ``s`` moved by ``bots[s]``."""
    while not state.is_terminal():
        state.apply(bots[state.current_player](state))
    return state


@dataclass(frozen=True)
class SelfPlayResult:
    """Totals of a self-play session."""

    hands: int
    scores: tuple[float, ...]
    bidder_wins: int
    moves: int
    seconds: float

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else float("inf")


def self_play(num_hands: int, seed: int | None = None, bots: Sequence[Bot] | None = None,
              on_hand: Callable[[DaSanState], None] | None = None) -> SelfPlayResult:
    """Play ``num_hands`` hands in a row: a dealer draw first, then the last winner deals."""
    bots = list(bots) if bots is not None else [greedy_bot] * NUM_PLAYERS
    rng = random.Random(seed)
    scores = [0.0] * NUM_PLAYERS
    dealer = None
    bidder_wins = moves = 0
    start = time.perf_counter()
    for _ in range(num_hands):
        state = play_hand(new_game(seed=rng.getrandbits(64), dealer=dealer), bots)
        for seat, r in enumerate(state.returns()):
            scores[seat] += r
        bidder_wins += state.winner == state.bidder
        moves += len(state.history)
        dealer = state.next_dealer
        if on_hand is not None:
            on_hand(state)
    return SelfPlayResult(num_hands, tuple(scores), bidder_wins, moves, time.perf_counter() - start)


__all__ = ["Bot", "SelfPlayResult", "greedy_bid", "greedy_bot", "greedy_play",
           "hand_score", "play_hand", "random_bot", "self_play"]
