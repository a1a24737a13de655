"""Baseline Da San players (bidding and play) and a self-play runner.

A bot is ``bot(observation, legal_moves, rng) -> move`` (the contract of
:mod:`solver.games.base`): it sees only ``state.observation(seat)``. The greedy bot's
decisions are plain functions of what it sees (:func:`bid_choice`, :func:`play_choice`), so
the fast self-play path (:func:`fast_greedy`, reading the same facts off the state) plays
exactly the same moves without building an observation per move.

>>> result = self_play(3, seed=1)
>>> result.hands, sum(result.scores)
(3, 0.0)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from solver.cards import parse_cards
from solver.games.base import Bot
from solver.games.da_san.engine import NUM_PLAYERS, DaSanState, Phase, new_game
from solver.games.da_san.moves import DS_RANK, PASS, Move, bid

StateBot = Callable[[DaSanState], Move]
HIGH = 10  # Da San rank of the ace; A, 2 and 3 are the cards that win tricks
BID_THRESHOLDS = ((20.0, 3), (15.0, 2), (10.0, 1))  # hand score -> the bid it supports


def hand_score(hand: Sequence[int]) -> float:
    """A rough strength of a hand for bidding: top cards, quads, and few loose low singles."""
    counts = [0] * 13
    for c in hand:
        counts[DS_RANK[c]] += 1
    return counts_score(counts)


def counts_score(counts: Sequence[int]) -> float:
    """:func:`hand_score` from the hand's rank counts (suits never matter)."""
    score = 3.0 * counts[12] + 2.0 * counts[11] + 1.0 * counts[10]
    score += sum(2.0 for n in counts if n == 4)
    score -= 0.5 * sum(1 for d in range(HIGH) if counts[d] == 1)
    return score


def wanted_bid(score: float) -> int:
    """The bid a hand score supports (0: none)."""
    for threshold, amount in BID_THRESHOLDS:
        if score >= threshold:
            return amount
    return 0


def bid_choice(hand: Sequence[int], high_bid: int) -> Move:
    """Bid the amount the hand's score supports (the opener bids at least 1), else pass."""
    wanted = wanted_bid(hand_score(hand))
    if wanted > high_bid:
        return bid(wanted)
    return bid(1) if high_bid == 0 else PASS


def _lead_key(m: Move) -> tuple[bool, int, int]:
    return (m.strength >= HIGH, -len(m.cards), m.strength)


def play_choice(moves: Sequence[Move], leading: bool, seat: int, bidder: int,
                last_player: int) -> Move:
    """Lead the longest low combination; follow with the lowest play that beats, but let a
    partner's play stand (the two opponents of the bidder are partners)."""
    if leading:
        return min(moves, key=_lead_key)
    if seat != bidder and last_player != bidder:
        return PASS
    plays = [m for m in moves if m.cards]
    return plays[0] if plays else PASS  # legal_moves lists the higher plays from the lowest up


def greedy_bot(observation: Mapping[str, Any], legal_moves: Sequence[Move],
               rng: random.Random) -> Move:
    """The baseline player: :func:`bid_choice` in the auction, :func:`play_choice` after."""
    if observation["phase"] == Phase.AUCTION.value:
        return bid_choice(parse_cards(observation["hand"]), observation["high_bid"])
    pile = observation["pile"]
    bidder = observation["bidder"]
    return play_choice(legal_moves, pile is None, observation["player"],
                       -1 if bidder is None else bidder, -1 if pile is None else pile["player"])


def random_bot(observation: Mapping[str, Any], legal_moves: Sequence[Move],
               rng: random.Random) -> Move:
    """A player choosing uniformly among the legal moves (a floor for the baseline)."""
    return legal_moves[rng.randrange(len(legal_moves))]


def fast_greedy(state: DaSanState) -> Move:
    """:func:`greedy_bot`'s move read straight off the state (self-play and rollouts)."""
    if state.phase is Phase.AUCTION:
        return bid_choice(state.hands[state.to_act], state.high_bid)
    return play_choice(state.legal_moves(), state.pile is None, state.to_act, state.bidder,
                       state.last_player)


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
    """Play ``num_hands`` hands in a row: a dealer draw first, then the last winner deals.

    ``bots``: one contract bot per seat, each given its observation; by default the greedy
    bot on every seat through the fast path (same moves, no observations built)."""
    rng = random.Random(seed)
    bot_rng = random.Random(rng.getrandbits(64))
    scores = [0.0] * NUM_PLAYERS
    dealer = None
    bidder_wins = moves = 0
    start = time.perf_counter()
    for _ in range(num_hands):
        state = new_game(seed=rng.getrandbits(64), dealer=dealer)
        if bots is None:
            while not state.is_terminal():
                state.apply(fast_greedy(state))
        else:
            while not state.is_terminal():
                seat = state.to_act
                state.apply(bots[seat](state.observation(seat), state.legal_moves(), bot_rng))
        for seat, r in enumerate(state.returns()):
            scores[seat] += r
        bidder_wins += state.winner == state.bidder
        moves += len(state.history)
        dealer = state.next_dealer
        if on_hand is not None:
            on_hand(state)
    return SelfPlayResult(num_hands, tuple(scores), bidder_wins, moves, time.perf_counter() - start)


__all__ = ["HIGH", "SelfPlayResult", "StateBot", "bid_choice", "counts_score", "fast_greedy",
           "greedy_bot", "hand_score", "play_choice", "random_bot", "self_play", "wanted_bid"]
