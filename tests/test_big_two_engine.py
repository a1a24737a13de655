"""The Big Two hand engine: deal, turns, passes, trick resets, end and penalty scoring."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import parse_cards
from solver.errors import CardError, IllegalMoveError, RulesError
from solver.games import get_game
from solver.games.big_two import (
    PASS,
    BaselineBot,
    BigTwoRules,
    BigTwoState,
    RandomBot,
    classify,
    new_game,
    penalty,
    play_hand,
)

THREE_D = parse_cards("3d")[0]


def _expected_penalty(n: int) -> int:
    return n * (1 if n <= 9 else 2 if n <= 12 else 3)


def test_registered_with_aliases():
    for name in ("big-two", "capsa-banting", "big2", "Big_Two"):
        assert get_game(name).name == "big-two"
    state = get_game("big2").new_game(seed=1)
    assert isinstance(state, BigTwoState)


def test_deal_and_opening():
    state = new_game(seed=11)
    hands = state.hands()
    assert [len(h) for h in hands] == [13] * 4
    assert sorted(c for h in hands for c in h) == list(range(52))
    assert THREE_D in hands[state.current_player]
    moves = state.legal_moves()
    assert moves and all(THREE_D in m.cards for m in moves)
    assert PASS not in moves
    assert new_game(seed=11).hands() == hands  # the seed decides the deal


@pytest.mark.parametrize("players", [2, 3])
def test_fewer_players_lowest_card_leads(players):
    state = new_game(seed=5, rules={"players": players})
    hands = state.hands()
    assert len(hands) == players and all(len(h) == 13 for h in hands)
    lowest = min((c for h in hands for c in h), key=lambda c: ((c // 4 + 12) % 13, (1, 0, 2, 3)[c % 4]))
    assert lowest in hands[state.current_player]
    assert all(lowest in m.cards for m in state.legal_moves())


def test_leader_cannot_pass_and_trick_resets():
    state = new_game(hands=["3d 4d 5d", "6c 7c Ac Kc", "8h 9h", "Ts Js"])
    with pytest.raises(IllegalMoveError, match="may not pass"):
        state.apply(PASS)
    with pytest.raises(IllegalMoveError, match="3d"):
        state.apply("4d")
    state.apply("3d")
    assert state.current_player == 1
    state.apply("7c")
    for _ in range(3):
        assert PASS in state.legal_moves()
        state.apply("pass")
    assert state.current_player == 1 and state.current_play is None  # last player leads
    assert PASS not in state.legal_moves()
    state.apply("Ac")
    with pytest.raises(IllegalMoveError, match="does not beat"):
        state.apply("8h")
    with pytest.raises(IllegalMoveError, match="does not hold"):
        state.apply("Ts")
    with pytest.raises(IllegalMoveError, match="not a combination"):
        state.apply("8h 9h")
    for _ in range(3):
        state.apply("pass")
    assert state.current_player == 1 and state.current_play is None
    state.apply("6c")
    state.apply("8h")  # seat 2 passed before and may play again
    state.apply("Ts")
    state.apply("pass")
    assert state.current_player == 1 and state.current_play == classify("Ts")
    state.apply("Kc")
    assert state.is_terminal() and state.winner == 1
    assert state.cards_left() == [2, 0, 1, 1]
    assert state.returns() == [-2.0, 0.0, -1.0, -1.0]


def test_win_and_scores_at_9_10_12_13():
    full = list(range(52))
    full.remove(THREE_D)
    for left in (9, 10, 12):
        hands = [[THREE_D], full[:left], full[13:26], full[26:39]]
        state = new_game(hands=hands)
        state.apply("3d")
        assert state.is_terminal() and state.winner == 0 and state.current_player == -1
        assert state.returns() == [0.0, -float(penalty(left)), -39.0, -39.0]
    assert [penalty(n) for n in (9, 10, 12, 13)] == [9, 20, 24, 39]
    zs = new_game(hands=[[THREE_D], full[:9], full[13:23], full[26:38]], rules={"zero_sum": True})
    zs.apply("3d")
    assert zs.returns() == [9.0 + 20 + 24, -9.0, -20.0, -24.0]
    assert sum(zs.returns()) == 0


def test_dragon_wins_at_once():
    dragon = [r * 4 + (r % 4) for r in range(13)]
    rest = [c for c in range(52) if c not in dragon]
    state = new_game(hands=[rest[:13], rest[13:26], dragon, rest[26:39]])
    assert state.is_terminal() and state.dragon and state.winner == 2
    assert state.returns() == [-39.0, -39.0, 0.0, -39.0]
    assert state.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="over"):
        state.apply(PASS)


def test_bad_hands_and_rules():
    with pytest.raises(CardError, match="dealt twice"):
        new_game(hands=["3d 4d", "4d 5d"])
    with pytest.raises(CardError, match="2 to 4"):
        new_game(hands=["3d"])
    with pytest.raises(CardError, match="hand 1"):
        new_game(hands=["3d", "Xx"])
    with pytest.raises(CardError, match="1 to 13"):
        new_game(hands=["3d", ""])
    with pytest.raises(RulesError, match="zero_sum"):
        new_game(seed=1, rules={"zero_sum": "yes"})
    with pytest.raises(RulesError, match="unknown rule option"):
        new_game(seed=1, rules={"jokers": 2})


def test_clone_is_independent():
    state = new_game(seed=2)
    copy = state.clone()
    state.apply(state.legal_moves()[0])
    assert copy.history == [] and sum(copy.cards_left()) == 52
    assert sum(state.cards_left()) < 52


def _run_checked(state: BigTwoState, bots, seed: int = 0) -> BigTwoState:
    """Play a hand through the public API, checking the invariants at each turn."""
    rng = random.Random(seed)
    initial = sum(state.cards_left())
    played = 0
    bound = initial * state.num_players + 1
    for _ in range(bound):
        if state.is_terminal():
            break
        legal = state.legal_moves()
        player = state.current_player
        move = bots[player](state.observation(player), legal, rng)
        assert move in legal
        if state.current_play is None:
            assert PASS not in legal
        state.apply(move)
        played += move.size
        hands = [set(h) for h in state.hands()]
        assert sum(len(h) for h in hands) + played == initial
        assert len(set().union(*hands)) == sum(len(h) for h in hands)
    assert state.is_terminal(), "the hand must end"
    return state


OPTIONS = st.fixed_dictionaries({
    "straights": st.sampled_from(["rank-order", "poker"]),
    "flush_order": st.sampled_from(["rank", "suit"]),
    "bomb_on_two": st.booleans(),
    "zero_sum": st.booleans(),
    "players": st.integers(2, 4),
})


@settings(max_examples=40)
@given(st.integers(0, 2**32), OPTIONS, st.lists(st.booleans(), min_size=4, max_size=4))
def test_self_play_invariants(seed, opts, random_seats):
    rules = BigTwoRules(**opts)
    bots = [RandomBot(seed + i) if r else BaselineBot() for i, r in enumerate(random_seats)]
    state = _run_checked(new_game(seed=seed, rules=rules), bots, seed)
    left = state.cards_left()
    assert left[state.winner] == 0 or state.dragon
    pens = [0 if p == state.winner else _expected_penalty(n) for p, n in enumerate(left)]
    expected = [float(-x) for x in pens]
    if rules.zero_sum:
        expected[state.winner] = float(sum(pens))
    assert state.returns() == expected
    # every play in the history was legal where it was made: replay it
    replay = new_game(hands=new_game(seed=seed, rules=rules).hands(), rules=rules)
    for player, move in state.history:
        assert replay.current_player == player
        replay.apply(move)
    assert replay.returns() == state.returns()


def _baseline(state: BigTwoState):
    """The baseline bot's move from the observation, checked against its fast path."""
    p = state.current_player
    move = BaselineBot()(state.observation(p), state.legal_moves(), random.Random(0))
    assert move == BaselineBot().choose_play(state)
    return move


def test_baseline_bot_behaviour():
    state = new_game(hands=["3d 4c 5h 6s 7d 2s", "8c 9c", "Tc Jd", "Qs Kh"])
    move = _baseline(state)
    assert str(move) == "3d 4c 5h 6s 7d"  # lowest card, as many cards as possible, no 2
    state.apply(move)
    state = new_game(hands=["3d 2s", "4c 9c", "Tc Jd", "Qs Kh"])
    state.apply("3d")
    state.apply("9c")
    state.apply("Jd")
    state.apply("Kh")
    assert _baseline(state) == PASS  # only a 2 beats: keeps it
    state = new_game(hands=["3d 5c 6d", "4c 9c", "Tc Jd", "Qs Kh"])
    state.apply("3d")
    assert _baseline(state) == classify("4c")  # weakest that beats


@settings(max_examples=20)
@given(st.integers(0, 10**6))
def test_play_hand_matches_checked_play(seed):
    fast = play_hand(seed)
    slow = play_hand(seed, check=True)
    assert fast == slow
    assert fast.returns[fast.winner] == 0.0 and all(r <= 0 for r in fast.returns)
    assert play_hand(seed, [BaselineBot()] * 3).cards_left.count(0) <= 1


def test_play_hand_rejects_bad_bots():
    from solver.errors import InputError

    with pytest.raises(InputError, match="2 to 4"):
        play_hand(1, [BaselineBot()])
