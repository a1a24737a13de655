"""Da Bai Fen hand engine: draw, trump, kitty, scoring, the level table and whole games."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import parse_cards
from solver.errors import IllegalMoveError, InputError, RulesError
from solver.games import get_game
from solver.games.da_bai_fen import (
    DaBaiFenRules,
    GreedyBot,
    Kind,
    Match,
    Move,
    Outcome,
    Phase,
    level_outcome,
    new_hand,
    play_game,
    points_of,
    random_bot,
    self_play_hand,
)
from solver.games.da_bai_fen.bots import policy_of
from solver.games.da_bai_fen.levels import game_over, game_winner, levels_after, next_hand_options
from solver.games.da_bai_fen.rules import next_leader
from tests.test_da_bai_fen import ref_legal, ref_suit, ref_winner


def cards(text: str) -> list[int]:
    return parse_cards(text, allow_jokers=True)


def never_show(observation, moves, rng):
    return Move(Kind.NO_SHOW) if observation["phase"] == "draw" else random_bot(observation,
                                                                                 moves, rng)


def seats_cards(state) -> list[int]:
    """Every card somewhere: hands, the current trick, finished tricks, buried, undrawn."""
    out = [c for h in state.hands for c in h]
    out += [c for p in state.trick for c in p]
    out += [c for t in state.tricks for p in t.plays for c in p]
    out += state.buried
    out += list(state.deck[state.drawn:]) if state.phase is Phase.DRAW else []
    return out


# ------------------------------------------------------------------ level table
@pytest.mark.parametrize("points, outcome, leader_step", [
    (0, Outcome(2, 0, False), 2),
    (5, Outcome(1, 0, False), 2),
    (35, Outcome(1, 0, False), 2),
    (40, Outcome(0, 0, True), 1),
    (75, Outcome(0, 0, True), 1),
    (80, Outcome(0, 1, True), 1),
    (95, Outcome(0, 1, True), 1),
    (100, Outcome(0, 2, True), 1),
    (105, Outcome(0, 2, True), 1),
])
def test_level_table_boundaries(points, outcome, leader_step):
    assert level_outcome(points) == outcome
    for leader in range(4):
        assert next_leader(leader, outcome) == (leader + leader_step) % 4


@pytest.mark.parametrize("points, levels_after, next_lead", [
    (0, [5, 3], 2), (35, [4, 3], 2), (40, [3, 3], 1), (95, [3, 4], 1), (105, [3, 5], 1),
])
def test_match_moves_levels_by_the_table(points, levels_after, next_lead):
    match = Match(levels=[3, 3])
    result = SimpleNamespace(declarers=0, outcome=level_outcome(points),
                             next_leader=next_leader(0, level_outcome(points)))
    match.record(SimpleNamespace(result=result))
    assert match.levels == levels_after and match.next_leader == next_lead
    assert match.winner is None


def test_going_past_ace_wins():
    match = Match(levels=[11, 12])
    match.record(SimpleNamespace(result=SimpleNamespace(
        declarers=0, outcome=level_outcome(100), next_leader=1)))
    assert match.winner == 1 and match.levels == [11, 14]


@pytest.mark.parametrize("points, declarers, expected", [
    (0, 0, (5, 3)), (0, 1, (3, 5)), (35, 1, (3, 4)), (60, 0, (3, 3)), (95, 0, (3, 4)),
    (120, 1, (5, 3)),
])
def test_levels_after_follows_the_level_table(points, declarers, expected):
    """The one carry-over rule: the declarers go up by the table's row, the defenders by theirs."""
    result = SimpleNamespace(declarers=declarers, outcome=level_outcome(points), next_leader=0)
    assert levels_after((3, 3), result) == expected
    assert game_winner(expected) is None


def test_the_next_hand_carries_levels_and_leader_until_the_game_is_won():
    state = self_play_hand([GreedyBot()] * 4, seed=6)
    r = state.result
    carried = next_hand_options(state)
    assert carried == {"levels": levels_after(state.levels, r), "leader": r.next_leader,
                       "dealer": r.next_leader}
    assert game_over(state) is None
    nxt = new_hand(seed=1, **carried)
    assert nxt.levels == carried["levels"] and nxt.leader == r.next_leader
    won = SimpleNamespace(levels=(12, 3), result=SimpleNamespace(
        declarers=0, outcome=level_outcome(0), next_leader=2))
    assert next_hand_options(won) == {}
    over = game_over(won)
    assert over["winner_team"] == 0 and "past A" in over["text"]
    with pytest.raises(InputError, match="not finished"):
        next_hand_options(new_hand(seed=1))


# ------------------------------------------------------------------ draw, trump and kitty
def test_hands_are_drawn_as_given_and_first_drawer_is_right_of_dealer():
    deck = list(range(54))
    hands = [deck[i * 12:(i + 1) * 12] for i in range(4)] + [deck[48:]]
    state = new_hand(hands=hands, dealer=1)
    assert state.deck[0] in hands[2]  # the player on the dealer's right draws first
    while state.phase is Phase.DRAW:
        state.apply(Move(Kind.NO_SHOW))
    for seat in range(4):
        mine = state.hands[seat] if seat != state.leader else state.hands[seat][:12]
        assert sorted(mine) == sorted(hands[seat])


def test_first_showing_fixes_trump_and_the_shower_leads():
    state = new_hand(seed=11)
    while state.phase is Phase.DRAW:
        moves = state.legal_moves()
        shows = [m for m in moves if m.kind is Kind.SHOW]
        state.apply(shows[0] if shows else moves[0])
    seat, card = state.shown
    assert card >> 2 == 0 and state.trump.suit == card & 3 and state.leader == seat
    assert state.declarers == seat % 2 and state.phase is Phase.BURY
    assert len(state.hands[seat]) == 18 and state.current_player == seat


def test_show_is_offered_only_before_the_first_showing():
    state = new_hand(seed=5)
    offers = 0
    while state.phase is Phase.DRAW:
        moves = state.legal_moves()
        assert moves[0].kind is Kind.NO_SHOW
        assert all(m.cards[0] in state.hands[state.current_player] for m in moves[1:])
        offers += state.shown is not None
        state.apply(moves[-1])
    assert offers == 0


@pytest.mark.parametrize("kitty, suit", [
    ("5c 9h 2d 2s Ac Kh", 1),  # the first trump-rank card turned (2d) decides
    ("5c 9h Kd As Ac Kh", 3),  # none: the highest card, ties to the first turned (As)
    ("BJ 9h SJ 5c 3s 8d", 2),  # jokers skipped: 9h is the highest
])
def test_kitty_reveal_when_nobody_shows(kitty, suit):
    rest = [c for c in range(54) if c not in cards(kitty)]
    hands = [rest[i * 12:(i + 1) * 12] for i in range(4)] + [kitty]
    state = new_hand(hands=hands, dealer=2)
    while state.phase is Phase.DRAW:
        state.apply(Move(Kind.NO_SHOW))
    assert state.trump.suit == suit and state.trump.rank == 0
    assert state.leader == 2  # first hand, nobody showed: the dealer leads
    assert sorted(state.hands[2][12:]) == sorted(cards(kitty))


def test_later_hand_leader_and_rank_come_from_the_table():
    state = new_hand(seed=4, levels=(3, 7), dealer=1, leader=1)
    assert state.trump_rank == 7
    while state.phase is Phase.DRAW:
        state.apply(state.legal_moves()[-1])  # show whenever possible
    assert state.leader == 1 and state.declarers == 1
    if state.shown is not None:
        assert state.trump.suit == state.shown[1] & 3


# ------------------------------------------------------------------ kitty multiplier
def _moves_until_over(seed: int) -> tuple[list[Move], object]:
    rng = random.Random(seed)
    state = new_hand(seed=seed)
    played = []
    while not state.is_terminal():
        move = random_bot.policy(state, rng)
        played.append(move)
        state.apply(move)
    return played, state


def _replay(seed: int, moves: list[Move], multiplier: int):
    state = new_hand(seed=seed, rules={"kitty_multiplier": multiplier})
    for m in moves:
        state.apply(m)
    return state


def test_kitty_counts_multiplied_when_defenders_win_the_last_trick():
    defenders_won = declarers_won = False
    for seed in range(200):
        moves, state = _moves_until_over(seed)
        r = state.result
        last = state.tricks[-1]
        defenders_last = last.winner % 2 != r.declarers
        if r.kitty_points == 0:
            continue
        by_mult = {m: _replay(seed, moves, m).result for m in (1, 2, 3)}
        for m, res in by_mult.items():
            if defenders_last:
                assert res.kitty_bonus == m * r.kitty_points
            else:
                assert res.kitty_bonus == 0
            trick_pts = sum(t.points for t in state.tricks if t.winner % 2 != r.declarers)
            assert res.defenders_points == trick_pts + res.kitty_bonus
        defenders_won |= defenders_last
        declarers_won |= not defenders_last
        if defenders_won and declarers_won:
            break
    assert defenders_won and declarers_won


def test_rules_are_checked():
    with pytest.raises(RulesError, match="unknown rule option 'kitty'"):
        new_hand(seed=1, rules={"kitty": 2})
    with pytest.raises(RulesError, match="kitty_multiplier"):
        DaBaiFenRules(kitty_multiplier=-1)
    with pytest.raises(InputError, match="same level"):
        new_hand(seed=1, levels=(0, 3))


# ------------------------------------------------------------------ GameState API
def test_game_state_api():
    state = get_game("da-bai-fen").new_game(seed=9)
    assert state.returns() == [0.0] * 4
    copy = state.clone()
    while not state.is_terminal():
        state.apply(state.legal_moves()[0])
    assert copy.phase is Phase.DRAW and not copy.tricks
    assert state.current_player == -1 and state.legal_moves() == []
    r = state.returns()
    assert r[0] == r[2] == -r[1] == -r[3]
    with pytest.raises(IllegalMoveError, match="over"):
        state.apply(Move(Kind.PLAY, (1,)))


def test_illegal_moves_raise_with_a_reason():
    state = new_hand(seed=2)
    while state.phase is not Phase.PLAY:
        state.apply(state.legal_moves()[0])
    seat = state.current_player
    other = state.hands[(seat + 1) % 4][0]
    with pytest.raises(IllegalMoveError, match="not in the hand"):
        state.apply(Move(Kind.PLAY, (other,)))
    with pytest.raises(IllegalMoveError, match="expected a play move"):
        state.apply(Move(Kind.BURY, (state.hands[seat][0],)))
    state.apply(Move(Kind.PLAY, (state.hands[seat][0],)))
    follower = state.current_player
    with pytest.raises(IllegalMoveError, match="as many as were led"):
        state.apply(Move(Kind.PLAY, tuple(state.hands[follower][:2])))


# ------------------------------------------------------------------ invariants
POLICIES = st.sampled_from([random_bot, GreedyBot(), GreedyBot(show=False), never_show])


def decide(bot, state, rng):
    return policy_of(bot)(state, rng)


@given(st.integers(0, 2**32), st.lists(POLICIES, min_size=4, max_size=4),
       st.sampled_from([0, 1, 2, 4]))
def test_hand_invariants(seed, policies, mult):
    rng = random.Random(seed)
    state = new_hand(seed=seed, rules={"kitty_multiplier": mult})
    while not state.is_terminal():
        assert sorted(seats_cards(state)) == list(range(54))
        move = decide(policies[state.current_player], state, rng)
        assert move in state.legal_moves()
        if state.phase is Phase.PLAY:
            hand = state.hands[state.current_player]
            r, s = state.trump.rank, state.trump.suit
            assert ref_legal(move.cards, hand, state.trick, r, s)
            if state.trick:  # followers of a non-trump lead keep to the led suit when able
                led = ref_suit(state.trick[0][0], r, s)
                assert len(move.cards) == len(state.trick[0])
                if any(ref_suit(c, r, s) == led for c in hand):
                    assert any(ref_suit(c, r, s) == led for c in move.cards)
        state.apply(move)
    assert sorted(seats_cards(state)) == list(range(54))
    assert sum(len(t.plays[0]) for t in state.tricks) == 12 and len(state.buried) == 6
    assert all(len({len(p) for p in t.plays}) == 1 for t in state.tricks)
    assert not any(state.hands)
    for t in state.tricks:
        assert t.winner == (t.leader + ref_winner(t.plays, state.trump.rank, state.trump.suit)) % 4
        assert t.points == sum(points_of(p) for p in t.plays)
    res = state.result
    trick_total = sum(t.points for t in state.tricks)
    assert trick_total + points_of(state.buried) == 100
    assert res.kitty_points == points_of(state.buried)
    d = res.declarers
    assert state.team_points[d] + state.team_points[1 - d] == trick_total
    assert res.defenders_points == state.team_points[1 - d] + res.kitty_bonus
    assert res.kitty_bonus in (0, mult * res.kitty_points)
    assert res.outcome == level_outcome(res.defenders_points)
    assert res.next_leader == next_leader(res.leader, res.outcome)
    gain = res.outcome.declarers_up - res.outcome.defenders_up
    assert state.returns() == [float(gain if s % 2 == d else -gain) for s in range(4)]


@settings(max_examples=15)
@given(st.integers(0, 2**32), st.lists(POLICIES, min_size=4, max_size=4))
def test_whole_game_ends_and_levels_follow_the_table(seed, policies):
    record = play_game(policies, seed=seed, max_hands=None)
    assert record.winner in (0, 1)
    levels, leader = [0, 0], None
    for r in record.hands:
        if leader is not None:
            assert r.leader == leader and r.declarers == leader % 2
        before = list(levels)
        levels = list(levels_after(levels, r))
        assert r.outcome == level_outcome(r.defenders_points)
        assert max(before) <= 12  # nobody had passed A before this hand
        leader = r.next_leader
    assert tuple(levels) == record.levels and levels[record.winner] > 12


def test_play_hand_and_bots():
    state = self_play_hand([GreedyBot(), random_bot] * 2, seed=3)
    assert state.is_terminal()
    with pytest.raises(InputError, match="need 4 bots, got 1"):
        self_play_hand([random_bot], seed=3)
    greedy_wins = sum(play_game([GreedyBot(), random_bot] * 2, seed=s).winner == 0
                      for s in range(6))
    assert greedy_wins >= 4  # the baseline beats random play
