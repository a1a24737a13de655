"""Da Bai Fen behind the game contract: observations, documents, move labels, rule options,
and the bots' two paths (observation and fast state path) choosing the same moves."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import cards_named, format_cards
from solver.errors import IllegalMoveError, InputError, RulesError
from solver.games import get_game, play_hand
from solver.games.da_bai_fen import (
    DaBaiFenRules,
    GreedyBot,
    Kind,
    Move,
    Phase,
    new_hand,
    random_bot,
    self_play_hand,
)

GAME = get_game("da-bai-fen")




def random_playout(seed: int, *, levels=(0, 0), leader=None, dealer=None):
    """Yield every state of a hand played by random bots (seats show at random)."""
    rng = random.Random(seed)
    state = new_hand(seed=seed, levels=levels, leader=leader, dealer=dealer)
    while True:
        yield state
        if state.is_terminal():
            return
        state.apply(random_bot.policy(state, rng))


def reference_hidden(state, player: int) -> set[int]:
    """What a seat may not see, read straight from the rules file and the engine's fields."""
    if state.phase is Phase.OVER:
        return set()
    out = {c for q in range(4) if q != player for c in state.hands[q]}
    if state.phase is Phase.DRAW:
        out |= set(state.deck[state.drawn:])
    if player != state.leader:
        out |= set(state.buried)
    out -= set(state.revealed)
    if state.shown:
        out.discard(state.shown[1])
    return out


# ------------------------------------------------------------------ observations
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_observation_never_shows_a_hidden_card(seed, later_hand):
    kw = {"levels": (3, 7), "leader": seed % 4, "dealer": seed % 4} if later_hand else {}
    for state in random_playout(seed, **kw):
        for p in range(4):
            obs = state.observation(p)
            assert json.loads(json.dumps(obs)) == obs
            hidden = state.hidden_cards(p)
            assert hidden == reference_hidden(state, p)
            assert not cards_named(obs) & hidden
            assert sorted(format_cards(state.hands[p])) == sorted(obs["hand"])
            assert obs["counts"] == [len(h) for h in state.hands]
            assert obs["phase"] == state.phase.value and obs["current_player"] == \
                state.current_player
            if p != state.leader and state.phase is not Phase.OVER:
                assert obs["kitty"] is None and obs["buried"] is None
            assert obs["buried_count"] == len(state.buried)


def test_leader_sees_kitty_and_buried_others_see_counts():
    state = new_hand(seed=4)
    while state.phase is not Phase.PLAY:
        state.apply(state.legal_moves()[-1])
    lead = state.leader
    mine = state.observation(lead)
    assert sorted(mine["kitty"]) == sorted(format_cards(state.kitty))
    assert sorted(mine["buried"]) == sorted(format_cards(state.buried))
    other = state.observation((lead + 1) % 4)
    assert other["kitty"] is None and other["buried"] is None and other["buried_count"] == 6
    assert other["shown"] == mine["shown"] and other["trump_suit"] == mine["trump_suit"]
    while not state.is_terminal():
        state.apply(state.legal_moves()[0])
    end = state.observation((lead + 1) % 4)
    assert sorted(end["buried"]) == sorted(format_cards(state.buried))
    assert end["result"]["defenders_points"] == state.result.defenders_points
    assert end["returns"] == state.returns()


def test_no_show_is_not_public():
    """A declined showing would tell the table the seat holds a trump-rank card."""
    state = new_hand(seed=5)
    seat = state.current_player
    state.apply(Move(Kind.NO_SHOW))
    for p in range(4):
        assert "no_show" not in json.dumps(state.observation(p)) or p == seat


# ------------------------------------------------------------------ documents
@pytest.mark.parametrize("kw", [{}, {"levels": ("4", "9"), "leader": 3, "dealer": 3}])
def test_deal_document_recreates_the_deal(kw):
    state = new_hand(seed=21, rules={"kitty_multiplier": 3}, **kw)
    again = GAME.new_game(hands=state.deal_json(), rules=state.rules_json())
    assert again.deck == state.deck and again.dealer == state.dealer
    assert again.levels == state.levels and again.leader == state.leader
    assert again.rules == state.rules
    for _ in range(30):
        if state.is_terminal():
            break
        move = state.legal_moves()[-1]
        state.apply(move)
        again.apply(move)
    assert again.to_json() == state.to_json()
    assert GAME.from_json(json.loads(json.dumps(state.to_json()))).to_json() == state.to_json()


def test_deal_document_errors_name_the_problem():
    with pytest.raises(InputError, match="deck"):
        new_hand(hands={"dealer": 1})
    with pytest.raises(InputError, match="leader must be a seat 0..3, got 7"):
        new_hand(hands={**new_hand(seed=1).deal_json(), "leader": 7})
    with pytest.raises(InputError, match="levels must be two levels"):
        new_hand(hands={**new_hand(seed=1).deal_json(), "levels": ["2", "Z"]})


# ------------------------------------------------------------------ move labels
def _in_phase(phase: Phase):
    state = new_hand(seed=8)
    while state.phase is not phase:
        state.apply(state.legal_moves()[-1])
    return state


def test_move_json_is_cards_and_snake_case_kind():
    state = new_hand(seed=8)
    assert NO_SHOW_JSON == state.legal_moves()[0].to_json()
    assert {k.label for k in Kind} == {"show", "no_show", "bury", "play"}
    bury = _in_phase(Phase.BURY).legal_moves()[0]
    assert set(bury.to_json()) == {"cards", "kind"} and bury.to_json()["kind"] == "bury"


NO_SHOW_JSON = {"cards": [], "kind": "no_show"}


@pytest.mark.parametrize("doc", ["no-show", "no_show", "NO-SHOW", {"kind": "no-show"}, {"kind": "No Show"},
                                 {"kind": "No_Show", "cards": []}, {"cards": []}, ""])
def test_old_and_new_labels_are_read(doc):
    state = new_hand(seed=8)
    assert state.parse_move(doc) == Move(Kind.NO_SHOW)


def test_text_forms_and_kind_inferred_from_the_phase():
    state = _in_phase(Phase.PLAY)
    lead = state.legal_moves()[0]
    text = " ".join(format_cards(lead.cards))
    assert state.parse_move(f"play {text}") == lead
    assert state.parse_move(text) == lead
    assert state.parse_move({"cards": format_cards(lead.cards)}) == lead
    assert state.parse_move(lead.to_json()) == lead
    with pytest.raises(InputError, match="unknown Da Bai Fen move kind 'pass'; one of show"):
        state.parse_move({"kind": "pass"})
    with pytest.raises(InputError, match="unknown move field 'rows'"):
        state.parse_move({"cards": [], "rows": 1})
    with pytest.raises(IllegalMoveError, match="expected a play move, got bury"):
        state.apply({"kind": "bury", "cards": format_cards(lead.cards)})


def test_old_label_history_replays():
    state = new_hand(seed=8)
    while state.phase is Phase.DRAW:
        state.apply(state.legal_moves()[0])
    doc = state.to_json()
    old = json.loads(json.dumps(doc).replace('"no_show"', '"no-show"'))
    assert old != doc and GAME.from_json(old).to_json() == doc


def test_played_cards_are_stored_in_trump_order():
    state = _in_phase(Phase.PLAY)
    groups = [m for m in state.legal_moves() if len(m.cards) > 1]
    if not groups:
        pytest.skip("no group lead in this deal")
    move = groups[-1]
    state.apply(Move(Kind.PLAY, tuple(reversed(move.cards))))
    assert state.history[-1][1] == move


def test_legal_moves_of_a_seat_not_to_act_is_empty():
    state = _in_phase(Phase.PLAY)
    p = state.current_player
    assert state.legal_moves(p) == state.legal_moves()
    assert all(state.legal_moves(q) == [] for q in range(4) if q != p)


# ------------------------------------------------------------------ rule options
def test_from_options_accepts_none_instance_and_mapping():
    r = DaBaiFenRules(kitty_multiplier=4)
    assert DaBaiFenRules.from_options(None) == DaBaiFenRules()
    assert DaBaiFenRules.from_options(r) is r
    assert DaBaiFenRules.from_options({"kitty_multiplier": 4}) == r
    assert DaBaiFenRules.from_options(r.to_dict()) == r


@pytest.mark.parametrize("options, message", [
    ({"kitty": 2}, "unknown rule option 'kitty'; the options are: kitty_multiplier"),
    ({"kitty_multiplier": 11}, "kitty_multiplier must be an integer from 0 to 10, got 11"),
    ({"kitty_multiplier": "2"}, "from 0 to 10, got '2'"),
    ({"kitty_multiplier": True}, "got True"),
    ("standard", "rules must be a mapping of options, got str; the options are: "
                 "kitty_multiplier"),
])
def test_from_options_errors_name_the_value_and_the_allowed_ones(options, message):
    with pytest.raises(RulesError) as exc:
        DaBaiFenRules.from_options(options)
    assert message in str(exc.value)


def test_registry_options_come_from_the_rules():
    (opt,) = GAME.options
    assert (opt.name, opt.default, opt.minimum, opt.maximum) == ("kitty_multiplier", 2, 0, 10)
    assert {"greedy", "random"} <= set(GAME.bots)


# ------------------------------------------------------------------ bots: two paths, one choice
LINEUPS = [["greedy"] * 4, ["random"] * 4, ["greedy", "random", "greedy", "random"]]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(LINEUPS))
def test_fast_path_matches_observation_bots(seed, lineup):
    bots = [GAME.bot(n) for n in lineup]
    slow = play_hand(GAME.new_game(seed=seed), bots, seed=seed)
    fast = self_play_hand(bots, GAME.new_game(seed=seed), rng=random.Random(seed))
    assert fast.history == slow.history and fast.returns() == slow.returns()


def test_greedy_bot_reads_only_the_observation():
    """The same observation gives the same move, whatever the other seats hold."""
    state = _in_phase(Phase.PLAY)
    seat = state.current_player
    obs, moves = state.observation(seat), state.legal_moves()
    move = GreedyBot()(obs, moves, random.Random(0))
    assert move in moves
    assert GreedyBot()(json.loads(json.dumps(obs)), moves, random.Random(1)) == move
