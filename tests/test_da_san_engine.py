"""The Da San hand engine: dealer draw, deal, auction, play, settlement and self-play."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.cards import format_cards, parse_cards
from solver.errors import IllegalMoveError, InputError
from solver.games import get_game, play_hand
from solver.games.da_san import (
    PASS,
    Kind,
    Move,
    Phase,
    bid,
    classify,
    legal_moves,
    new_game,
)
from solver.games.da_san.bots import greedy_bot, random_bot, self_play
from solver.games.da_san.engine import deal, draw_count, draw_dealer

ORDER = "456789TJQKA23"


def rotated_deal(kitty_text: str) -> list:
    """3 hands of 16 (cards dealt round-robin in id order) around a given kitty."""
    kitty = parse_cards(kitty_text)
    rest = [c for c in range(52) if c not in kitty]
    return [rest[0::3], rest[1::3], rest[2::3], kitty]


def owner(state, card_text: str) -> int:
    card = parse_cards(card_text)[0]
    return next(s for s, h in enumerate(state.hands) if card in h)


# ----------------------------------------------------------------- dealer draw and deal
def test_draw_counts():
    counts = {t: draw_count(parse_cards(t)[0]) for t in ("Ah", "2c", "9d", "Ts", "Jc", "Qd", "Kh")}
    assert counts == {"Ah": 1, "2c": 2, "9d": 9, "Ts": 10, "Jc": 0, "Qd": 0, "Kh": 0}


@given(st.integers(0, 2**32))
def test_dealer_draw_highest_count_deals_and_ties_draw_again(seed):
    draw = draw_dealer(random.Random(seed))
    contenders = {0, 1, 2}
    for i, rnd in enumerate(draw.rounds):
        assert {seat for seat, _ in rnd} == contenders
        best = max(draw_count(c) for _, c in rnd)
        top = {seat for seat, c in rnd if draw_count(c) == best}
        if i < len(draw.rounds) - 1:
            assert len(top) > 1
            contenders = top
        else:
            assert top == {draw.dealer}
    drawn = [c for rnd in draw.rounds for _, c in rnd]
    assert len(drawn) == len(set(drawn))


class _FixedRandom(random.Random):
    def shuffle(self, x):  # keep the deck in id order
        pass

    def randrange(self, *args):  # the cut moves 1 card
        return 1


def test_deal_draws_counter_clockwise_from_the_dealer():
    hands, kitty = deal(_FixedRandom(), dealer=2)
    deck = list(range(1, 52)) + [0]
    assert hands[2] == deck[0:48:3] and hands[0] == deck[1:48:3] and hands[1] == deck[2:48:3]
    assert kitty == tuple(deck[48:])


def test_new_game_deals_16_each_and_a_kitty_of_4():
    state = new_game(seed=11)
    assert [len(h) for h in state.hands] == [16, 16, 16] and len(state.kitty) == 4
    assert sorted(c for h in state.hands for c in h) + [] == sorted(set(range(52)) - set(state.kitty))
    assert state.dealer_draw is not None and state.dealer == state.dealer_draw.dealer
    assert new_game(seed=11).hands == state.hands
    assert new_game(seed=11, dealer=1).dealer == 1


def test_registry_and_alias():
    assert get_game("da-san").new_game is new_game
    assert get_game("big-three") is get_game("da_san")


def test_bad_deals_are_rejected():
    with pytest.raises(InputError):
        new_game(hands=[[0, 1], [2], [3]])
    deal_ = rotated_deal("4h 5h 6h 7h")
    with pytest.raises(InputError, match="kitty"):
        new_game(hands=deal_[:3] + [parse_cards("4h 5h 6h 8h")])
    with pytest.raises(InputError, match=r"card .\w\w. is dealt twice \(hands 0 and 1\)"):
        new_game(hands=[deal_[0], deal_[0], deal_[1]])
    with pytest.raises(InputError):
        new_game(seed=1, dealer=3)


# ----------------------------------------------------------------- auction
def test_the_4h_holder_opens_and_must_bid():
    state = new_game(hands=rotated_deal("Ac Ad Ah As"))
    assert state.phase is Phase.AUCTION and state.current_player == owner(state, "4h")
    assert state.legal_moves() == [bid(1), bid(2), bid(3)]
    with pytest.raises(IllegalMoveError, match="must bid"):
        state.apply(PASS)
    with pytest.raises(IllegalMoveError):
        state.apply(parse_cards("4h"))


def test_with_4h_in_the_kitty_the_lowest_heart_opens():
    state = new_game(hands=rotated_deal("4h 5h 2c 3c"))
    assert state.opener == owner(state, "6h") == state.current_player
    state = new_game(hands=rotated_deal("4h 5h 6h 7h"))
    assert state.opener == owner(state, "8h")


def test_a_bid_of_3_ends_the_auction():
    state = new_game(seed=4)
    opener = state.current_player
    state.apply(bid(3))
    assert state.phase is Phase.PLAY and state.bidder == opener and state.high_bid == 3
    assert len(state.hands[opener]) == 20 and set(state.kitty) <= set(state.hands[opener])
    assert state.current_player == owner(state, "4h")  # all 52 cards are out: 4h leads


def test_two_passes_in_a_row_end_the_auction():
    state = new_game(seed=5)
    o = state.current_player
    state.apply(bid(1))
    assert state.legal_moves() == [bid(2), bid(3), PASS]
    state.apply(PASS)
    state.apply(PASS)
    assert state.phase is Phase.PLAY and state.bidder == o and state.high_bid == 1


def test_a_passed_player_may_bid_again_and_the_highest_bidder_wins():
    state = new_game(seed=6)
    o = state.current_player
    state.apply(bid(1))             # o
    state.apply(PASS)               # o+1
    state.apply(bid(2))             # o+2 (one pass, then a bid: not two in a row)
    state.apply(PASS)               # o
    assert state.phase is Phase.AUCTION and state.current_player == (o + 1) % 3
    with pytest.raises(IllegalMoveError, match="higher"):
        state.apply(bid(2))
    state.apply(PASS)               # o+1: two passes in a row
    assert state.phase is Phase.PLAY and state.bidder == (o + 2) % 3 and state.high_bid == 2
    assert [m.kind for _, m in state.history] == [Kind.BID, Kind.PASS, Kind.BID, Kind.PASS, Kind.PASS]


# ----------------------------------------------------------------- play and settlement
def test_play_rules_in_the_engine():
    state = new_game(seed=8)
    state.apply(bid(3))
    leader = state.current_player
    with pytest.raises(IllegalMoveError, match="may not pass"):
        state.apply(PASS)
    other = next(c for c in range(52) if c not in state.hands[leader])
    with pytest.raises(IllegalMoveError, match="does not hold"):
        state.apply([other])
    single = min(state.hands[leader], key=lambda c: ORDER.index(format_cards([c])[0][0]))
    state.apply(classify([single]))
    assert state.pile.kind is Kind.SINGLE and state.last_player == leader
    follower = state.current_player
    lower = [c for c in state.hands[follower]
             if not classify([c]).beats(state.pile)]
    if lower:
        with pytest.raises(IllegalMoveError, match="does not beat"):
            state.apply([lower[0]])
    state.apply(PASS)
    state.apply(PASS)
    assert state.pile is None and state.current_player == leader  # pile cleared


def test_forged_moves_are_refused():
    state = new_game(seed=9)
    state.apply(bid(3))
    card = state.hands[state.current_player][0]
    real = classify([card])
    with pytest.raises(IllegalMoveError, match="not a single of strength"):
        state.apply(Move((card,), Kind.SINGLE, real.strength + 1))
    with pytest.raises(IllegalMoveError, match="not a pair"):
        state.apply(Move((card,), Kind.PAIR, real.strength))


def _settle(state, winner):
    state._settle(winner)
    return state.returns()


def test_settlement_pays_the_bid():
    state = new_game(seed=10)
    o = state.current_player
    state.apply(bid(2))
    state.apply(PASS)
    state.apply(PASS)
    assert _settle(state.clone(), o) == [2.0 * 2 if s == o else -2.0 for s in range(3)]
    assert _settle(state.clone(), (o + 1) % 3) == [-2.0 * 2 if s == o else 2.0 for s in range(3)]
    assert state.returns() == [0.0, 0.0, 0.0]


def _cards_in_play(state) -> list[int]:
    cards = [c for h in state.hands for c in h]
    cards += [c for _, m in state.history for c in m.cards]
    if state.phase is Phase.AUCTION:
        cards += list(state.kitty)
    return cards


@given(st.integers(0, 2**32), st.booleans())
def test_engine_invariants_under_random_play(seed, all_suits):
    rng = random.Random(seed)
    state = new_game(seed=seed)
    steps = 0
    while not state.is_terminal():
        seat = state.current_player
        moves = state.legal_moves(all_suits=all_suits) if state.phase is Phase.PLAY \
            else state.legal_moves()
        assert moves, "the player to act always has a move"
        move = rng.choice(moves)
        if state.phase is Phase.PLAY:
            assert set(move.cards) <= set(state.hands[seat])
            assert move == PASS or move.beats(state.pile)
            assert move == PASS or classify(move.cards) == move
            assert state.pile is not None or move != PASS
            assert moves == legal_moves(state.hands[seat], state.pile, all_suits=all_suits)
        before = state.clone()
        state.apply(move)
        assert before.history != state.history  # the clone is independent
        cards = _cards_in_play(state)
        assert len(cards) == 52 and set(cards) == set(range(52))
        steps += 1
        assert steps < 1000
    assert state.winner >= 0 and not state.hands[state.winner]
    assert all(state.hands[s] for s in range(3) if s != state.winner)
    r = state.returns()
    assert sum(r) == 0
    bid_ = state.high_bid
    assert r[state.bidder] == (2 * bid_ if state.winner == state.bidder else -2 * bid_)
    assert state.current_player == -1 and state.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        state.apply(PASS)


def test_self_play_chains_dealers_and_is_zero_sum():
    seen = []
    result = self_play(20, seed=3, on_hand=seen.append)
    assert result.hands == 20 and sum(result.scores) == 0
    for prev, nxt in zip(seen, seen[1:]):
        assert nxt.dealer == prev.winner and nxt.dealer_draw is None
    assert seen[0].dealer_draw is not None
    assert result.scores == self_play(20, seed=3).scores  # reproducible


def test_greedy_beats_random_players():
    """The baseline should beat random play clearly over a few hundred hands."""
    bots = [greedy_bot, random_bot, random_bot]
    result = self_play(300, seed=7, bots=bots)
    assert result.scores[0] > max(result.scores[1:])


def test_play_hand_with_given_hands():
    hands = rotated_deal("Kc Kd Kh Ks")
    state = play_hand(new_game(seed=1, hands=hands), [greedy_bot] * 3, seed=1)
    assert state.is_terminal() and sum(state.returns()) == 0
