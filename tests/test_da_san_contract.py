"""Da San behind the game contract: rules from options, move documents and labels,
observations that never leak, deal and state documents, and the bots' two paths."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import cards_named, format_cards, parse_cards
from solver.errors import IllegalMoveError, InputError, RulesError
from solver.games import get_game, play_hand
from solver.games.base import TERMINAL
from solver.games.da_san import PASS, Kind, Phase, bid, classify, new_game, parse_move
from solver.games.da_san.bots import fast_greedy, greedy_bot, random_bot, self_play
from solver.games.da_san.rules import DaSanRules

GAME = get_game("da-san")


# ----------------------------------------------------------------- rules
def test_from_options_accepts_none_instance_and_mapping():
    assert DaSanRules.from_options(None) == DaSanRules()
    r = DaSanRules(min_run=4)
    assert DaSanRules.from_options(r) is r
    assert DaSanRules.from_options({"min_run": 4}) == r
    assert DaSanRules.from_options(r.to_dict()) == r


@pytest.mark.parametrize("options, words", [
    ({"kickers": True}, ["'kickers'", "min_run"]),
    ({"min_run": 1}, ["1", "2 to 10"]),
    ({"min_run": 11}, ["11", "2 to 10"]),
    ({"min_run": "3"}, ["'3'", "2 to 10"]),
    ({"min_run": True}, ["True", "2 to 10"]),
    ("standard", ["str", "min_run"]),
])
def test_from_options_errors_name_the_bad_value_and_the_allowed_ones(options, words):
    with pytest.raises(RulesError) as info:
        DaSanRules.from_options(options)
    for w in words:
        assert w in str(info.value)


def test_registry_options_come_from_the_rules():
    (opt,) = GAME.options
    assert (opt.name, opt.default, opt.minimum, opt.maximum) == ("min_run", 3, 2, 10)
    assert set(GAME.bots) >= {"greedy", "random"}


# ----------------------------------------------------------------- moves and labels
def test_move_json_is_cards_and_a_snake_case_kind():
    assert classify("6c 6d 7c 7d 8c 8d").to_json() == {
        "cards": ["6c", "6d", "7c", "7d", "8c", "8d"], "kind": "pair_run"}
    assert PASS.to_json() == {"cards": [], "kind": "pass"}
    assert bid(2).to_json() == {"cards": [], "kind": "bid", "amount": 2}
    assert bid(2).amount == 2 and PASS.amount is None
    assert all(k.label == k.value and k.label.islower() and "-" not in k.label for k in Kind)


@pytest.mark.parametrize("kind", ["pair_run", "pair-run", "Pair Run", "PAIR_RUN", " pair-run "])
def test_old_and_new_kind_labels_are_accepted(kind):
    move = parse_move({"cards": ["6c", "6d", "7c", "7d", "8c", "8d"], "kind": kind})
    assert move == classify("6c 6d 7c 7d 8c 8d") and Kind.parse(kind) is Kind.PAIR_RUN


@pytest.mark.parametrize("doc, expected", [
    ("pass", PASS), ("PASS", PASS), ({"kind": "pass"}, PASS), ({"cards": [], "kind": "pass"}, PASS),
    ("bid 2", bid(2)), ({"kind": "bid", "amount": 3}, bid(3)), ({"amount": 1}, bid(1)),
    ({"kind": "Bid", "cards": [], "amount": 1}, bid(1)),
    ("4c 4d", classify("4c 4d")), (["4c", "4d"], classify("4c 4d")),
    (parse_cards("4c 4d"), classify("4c 4d")), ({"cards": "9c Tc Jc"}, classify("9c Tc Jc")),
])
def test_parse_move_reads_json_and_text_forms(doc, expected):
    assert parse_move(doc) == expected


@pytest.mark.parametrize("doc, words", [
    ({"cards": ["4c", "4d"], "kind": "bomb"}, ["'bomb'", "single", "pair_run"]),
    ({"cards": ["4c", "4d"], "kind": "single"}, ["is a pair, not a single"]),
    ({"cards": ["4c", "5d"]}, ["not a Da San combination"]),
    ({"kind": "bid", "amount": 4}, ["1 to 3", "4"]),
    ({"kind": "bid"}, ["1 to 3", "None"]),
    ("bid two", ["bid N"]),
    ({"kind": "pass", "cards": ["4c"]}, ["no cards"]),
    ({"cards": ["4c"], "suit": "c"}, ["suit", "cards, kind, amount"]),
    (7, ["int"]),
])
def test_bad_move_documents_name_the_problem(doc, words):
    with pytest.raises(InputError) as info:
        parse_move(doc)
    for w in words:
        assert w in str(info.value)


def test_state_applies_documents_and_text():
    state = new_game(seed=4)
    state.apply({"kind": "bid", "amount": 3})
    assert state.phase is Phase.PLAY
    leader, lead = state.current_player, state.legal_moves()[0]
    state.apply(lead.to_json())
    assert state.history[-1] == (leader, lead)
    state.apply("pass")
    assert state.history[-1] == ((leader + 1) % 3, PASS)


def test_legal_moves_of_a_seat_not_to_act_are_empty():
    state = new_game(seed=2)
    others = [p for p in range(3) if p != state.current_player]
    assert all(state.legal_moves(p) == [] for p in others)
    assert state.legal_moves(state.current_player) == state.legal_moves()


# ----------------------------------------------------------------- observations
def _random_playout(seed: int, bots=None):
    rng = random.Random(seed)
    state = new_game(seed=seed)
    states = [state.clone()]
    while not state.is_terminal():
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
        states.append(state.clone())
    return states




@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_observations_never_show_hidden_cards(seed):
    for state in _random_playout(seed):
        for p in range(3):
            obs = state.observation(p)
            assert json.loads(json.dumps(obs)) == obs
            hidden = state.hidden_cards(p)
            assert not cards_named(obs) & hidden
            assert hidden.isdisjoint(state.hands[p])
            others = {c for q in range(3) if q != p for c in state.hands[q]}
            if state.phase is Phase.OVER:  # the cards kept are laid down at the end
                assert hidden == set()
                assert obs["settlement"]["hands"] == [format_cards(h) for h in state.hands]
            else:
                assert others <= hidden  # the other seats' cards stay concealed
            assert obs["hand"] == format_cards(state.hands[p])
            assert obs["counts"] == [len(h) for h in state.hands]
            assert obs["phase"] == state.phase.value
            if state.phase is Phase.AUCTION:
                assert set(state.kitty) <= hidden and obs["kitty"] is None
            elif p == state.bidder:
                assert obs["kitty"] == format_cards(state.kitty)
            else:
                assert obs["kitty"] is None


def test_the_finished_hand_shows_the_settlement():
    state = _random_playout(5)[-1]
    obs = state.observation(0)
    assert obs["phase"] == "over" and obs["to_act"] is None
    s = obs["settlement"]
    assert s["winner"] == state.winner and s["bidder"] == state.bidder
    assert s["returns"] == state.returns() and s["bidder_made"] == (state.winner == state.bidder)
    assert state.current_player == TERMINAL
    with pytest.raises(InputError, match="seat 0-2"):
        state.observation(3)


# ----------------------------------------------------------------- documents
@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4))
def test_deal_and_rules_documents_recreate_the_hand(seed, min_run):
    rng = random.Random(seed)
    state = new_game(seed=seed, rules={"min_run": min_run})
    first_deal = state.deal_json()
    while not state.is_terminal():
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
        assert state.deal_json() == first_deal
    again = new_game(hands=state.deal_json(), rules=state.rules_json())
    assert again.rules == state.rules and again.dealer == state.dealer
    for _, move in state.history:
        again.apply(move.to_json())
    assert again.hands == state.hands and again.returns() == state.returns()
    doc = state.to_json()
    assert GAME.from_json(json.loads(json.dumps(doc))).to_json() == doc


def test_bad_deal_documents_are_rejected():
    deal = new_game(seed=1).deal_json()
    with pytest.raises(InputError, match="unknown field"):
        new_game(hands={**deal, "extra": 1})
    with pytest.raises(InputError, match="3 hands"):
        new_game(hands={**deal, "hands": deal["hands"][:2]})
    with pytest.raises(InputError, match="kitty"):
        new_game(hands={**deal, "kitty": deal["hands"][0][:4]})
    with pytest.raises(InputError, match="dealer"):
        new_game(hands={**deal, "dealer": 5})


# ----------------------------------------------------------------- bots
def test_fast_self_play_equals_the_observation_bots():
    seen_fast, seen_obs = [], []
    fast = self_play(40, seed=21, on_hand=seen_fast.append)
    slow = self_play(40, seed=21, bots=[greedy_bot] * 3, on_hand=seen_obs.append)
    assert (fast.scores, fast.moves, fast.bidder_wins) == (slow.scores, slow.moves, slow.bidder_wins)
    assert [s.history for s in seen_fast] == [s.history for s in seen_obs]


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=20, deadline=None)
def test_fast_greedy_is_the_greedy_bot_on_every_state(seed):
    for state in _random_playout(seed)[:-1]:
        p = state.current_player
        assert fast_greedy(state) == greedy_bot(state.observation(p), state.legal_moves(),
                                                random.Random(0))


def test_every_bot_plays_through_play_hand():
    for name in GAME.bots:
        state = play_hand(new_game(seed=3), [GAME.bot(name) for _ in range(3)], seed=3)
        assert state.is_terminal() and sum(state.returns()) == 0
    a = play_hand(new_game(seed=3), [random_bot] * 3, seed=9)
    b = play_hand(new_game(seed=3), [random_bot] * 3, seed=9)
    assert a.history == b.history
    with pytest.raises(IllegalMoveError):
        a.apply(PASS)
