"""Big Two behind the game contract: observations, documents, labels, rules, bots."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import cards_named, format_card, format_cards, parse_cards
from solver.errors import IllegalMoveError, InputError, RulesError
from solver.games import get_game, play_hand
from solver.games.base import TERMINAL
from solver.games.big_two import (
    PASS,
    BaselineBot,
    BigTwoRules,
    Kind,
    RandomBot,
    classify,
    new_game,
    parse_play,
    self_play,
)

GAME = get_game("big-two")
OPTIONS = st.fixed_dictionaries({
    "straights": st.sampled_from(["rank-order", "poker"]),
    "flush_order": st.sampled_from(["rank", "suit"]),
    "bomb_on_two": st.booleans(),
    "zero_sum": st.booleans(),
    "players": st.integers(2, 4),
})




@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), OPTIONS)
def test_observation_never_leaks_in_random_playouts(seed, opts):
    state = new_game(seed=seed, rules=opts)
    rng = random.Random(seed)
    dealt = [set(h) for h in state.hands()]
    while True:
        played = {c for _, m in state.history for c in m.cards}
        for p in range(state.num_players):
            obs = state.observation(p)
            assert json.loads(json.dumps(obs)) == obs
            own = set(state.hand(p))
            assert set(parse_cards(obs["hand"])) == own
            assert obs["cards_left"] == state.cards_left()
            # hidden: everything but the seat's own cards and the cards played; at the end
            # the hands kept are laid down (the cards set aside, with 2-3 players, are not)
            over = state.is_terminal()
            held = set().union(*(set(state.hand(q)) for q in range(state.num_players))) \
                if over else own
            assert state.hidden_cards(p) == set(range(52)) - held - played
            named = cards_named(obs)  # read once: nearly all of this test's time
            assert not named & state.hidden_cards(p)
            assert named <= held | played
            others = set().union(*(dealt[q] for q in range(state.num_players) if q != p))
            if not over:
                assert not (others - played) & named
        if state.is_terminal():
            break
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    obs = state.observation(0)
    assert obs["phase"] == "over" and obs["current_player"] == TERMINAL
    assert obs["result"]["returns"] == state.returns()
    assert obs["result"]["winner"] == state.winner
    assert obs["result"]["hands"] == [format_cards(state.hand(q)) for q in range(state.num_players)]
    assert [len(h) for h in obs["result"]["hands"]] == state.cards_left()


def test_observation_fields():
    state = new_game(hands=["3d 4d 5d", "6c 7c Ac Kc", "8h 9h", "Ts Js"])
    obs = state.observation(0)
    assert obs["phase"] == "play" and obs["current_player"] == 0 and obs["to_act"] == [0]
    assert obs["required"] == "3d" and obs["table"] is None and obs["result"] is None
    assert state.observation(1)["required"] is None  # another seat's card stays hidden
    state.apply("3d")
    obs = state.observation(2)
    assert obs["table"] == {"cards": ["3d"], "kind": "single"} and obs["last_player"] == 0
    assert obs["history"] == [{"player": 0, "move": {"cards": ["3d"], "kind": "single"}}]
    assert obs["required"] is None and obs["cards_left"] == [2, 4, 2, 2]
    state.apply("pass")
    assert state.observation(0)["passes"] == 1
    assert state.legal_moves(0) == [] and state.legal_moves(2) == state.legal_moves()
    with pytest.raises(InputError, match="player must be 0 to 3, got 4"):
        state.observation(4)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_and_rules_documents_recreate_the_hand(players):
    state = new_game(seed=8, rules={"players": players, "straights": "poker"})
    again = new_game(hands=state.deal_json(), rules=state.rules_json())
    assert again.hands() == state.hands() and again.rules == state.rules
    assert again.current_player == state.current_player
    rng = random.Random(1)
    while not state.is_terminal():
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    doc = state.to_json()
    assert doc["deal"] == again.deal_json()  # the deal, not what is left of it
    back = GAME.from_json(json.loads(json.dumps(doc)))
    assert back.to_json() == doc and back.returns() == state.returns()
    with pytest.raises(InputError, match="hands"):
        new_game(hands={"hand": ["3d"]})


def test_kind_labels_snake_case_out_old_spellings_in():
    assert [k.label for k in Kind] == ["pass", "single", "pair", "triple", "straight", "flush",
                                       "full_house", "four_of_a_kind", "straight_flush"]
    for text in ("four-of-a-kind", "four_of_a_kind", "Four Of A Kind", "FOUR-OF-A-KIND"):
        assert Kind.parse(text) is Kind.FOUR_OF_A_KIND
    with pytest.raises(InputError, match="unknown kind 'quads'; one of pass, single"):
        Kind.parse("quads")
    quads = classify("9d 9c 9h 9s 3d")
    assert quads.to_json() == {"cards": ["3d", "9d", "9c", "9h", "9s"], "kind": "four_of_a_kind"}
    for kind in ("four-of-a-kind", "four_of_a_kind", None):
        doc = {"cards": ["9d", "9c", "9h", "9s", "3d"], "kind": kind}
        assert parse_play(doc) == quads
    assert parse_play("9d 9c 9h 9s 3d") == quads == parse_play(list(quads.cards))
    assert parse_play({"cards": [], "kind": "pass"}) == PASS == parse_play("Pass")
    with pytest.raises(IllegalMoveError, match="is a four_of_a_kind, not a straight_flush"):
        parse_play({"cards": "9d 9c 9h 9s 3d", "kind": "straight-flush"})
    with pytest.raises(IllegalMoveError, match="needs cards"):
        parse_play({"cards": [], "kind": "pair"})
    with pytest.raises(InputError, match="unknown move field 'rank'"):
        parse_play({"cards": ["3d"], "rank": "3"})
    with pytest.raises(InputError, match="got int"):
        parse_play(7)


def test_old_label_documents_replay():
    state = new_game(hands=["3d 4d 5d 6d 7d 9c", "6c 7c 8c 9h Tc Ac", "8h 9s", "Ts Js"])
    state.apply("3d 4d 5d 6d 7d")
    doc = state.to_json()
    assert doc["history"][0]["move"]["kind"] == "straight_flush"
    doc["history"][0]["move"]["kind"] = "straight-flush"  # an older client's spelling
    assert GAME.from_json(doc).to_json()["history"] == state.to_json()["history"]


def test_phases():
    state = new_game(hands=["3d", "4d", "5d", "6d"])
    assert state.phase == "play"
    state.apply({"cards": ["3d"], "kind": "single"})
    assert state.phase == "over" and state.is_terminal()


def test_from_options_errors_name_the_value_and_the_allowed_ones():
    with pytest.raises(RulesError, match=r"'straights' must be 'rank-order' or 'poker', got 'wrap'"):
        BigTwoRules.from_options({"straights": "wrap"})
    with pytest.raises(RulesError, match=r"'flush_order' must be 'rank' or 'suit', got 'colour'"):
        BigTwoRules.from_options({"flush-order": "colour"})
    with pytest.raises(RulesError, match="unknown rule option 'jokers'; known: straights, "
                                         "flush_order, bomb_on_two, zero_sum, players, scoring"):
        BigTwoRules.from_options({"jokers": 2})
    with pytest.raises(RulesError, match="'players' must be 2, 3 or 4, got 5"):
        BigTwoRules.from_options({"players": 5})
    with pytest.raises(RulesError, match="'zero_sum' must be true or false, got 'yes'"):
        BigTwoRules.from_options({"zero_sum": "yes"})
    with pytest.raises(RulesError, match="mapping of options .*straights.* or null, got str"):
        BigTwoRules.from_options("poker")
    rules = BigTwoRules.from_options({"straights": "poker"})
    assert BigTwoRules.from_options(rules) is rules
    assert BigTwoRules.from_options(None) == BigTwoRules()
    assert BigTwoRules.from_options({"straights": "Rank_Order"}).straights == "rank-order"
    assert BigTwoRules.from_options(rules.to_dict()) == rules


def test_registry_options_come_from_the_rules():
    opts = {o.name: o for o in GAME.options}
    assert opts["straights"].choices == ("rank-order", "poker")
    assert {name: o.default for name, o in opts.items()} == BigTwoRules().to_dict()
    assert set(GAME.bots) >= {"baseline", "random"}


BOTS = {"baseline": BaselineBot, "random": RandomBot}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.sampled_from(sorted(BOTS)), min_size=2,
                                           max_size=4))
def test_fast_self_play_equals_the_observation_path(seed, names):
    """``self_play`` (bots asked on the engine state) plays the same hand as
    ``solver.games.play_hand`` (bots given observations) on the same seed."""
    rules = {"players": len(names)}
    fast = self_play(seed, [BOTS[n]() for n in names], rules)
    checked = self_play(seed, [BOTS[n]() for n in names], rules, check=True)
    state = play_hand(new_game(seed=seed, rules=rules), [GAME.bot(n) for n in names], seed)
    assert fast == checked
    assert (fast.winner, fast.returns, fast.cards_left, fast.turns) == (
        state.winner, tuple(state.returns()), tuple(state.cards_left()), len(state.history))


def test_a_bot_move_outside_the_legal_list_is_refused():
    state = new_game(hands=["3d 4d", "5d 6d"])
    with pytest.raises(InputError, match="not among the legal moves"):
        BaselineBot()(state.observation(0), [classify("4d")], random.Random(0))


def test_card_strings_out():
    state = new_game(seed=4)
    hand = state.observation(state.current_player)["hand"]
    assert hand == [format_card(c) for c in state.hand(state.current_player)]
