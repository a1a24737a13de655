"""Big Two's ``scoring`` rule option: ``penalty`` (the tiered penalty, the default) and
``cards-left`` (1 point a card, the winner collects), through the rules, the engine, the
registry, the search, the CLI and HTTP."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api import create_app
from solver.cli import main
from solver.errors import InputError, RulesError
from solver.games import get_game
from solver.games.big_two import BaselineBot, BigTwoRules, RandomBot, new_game, self_play
from solver.games.big_two.advise import advise
from solver.games.big_two.rules import SCORINGS

GAME = get_game("big-two")
RANKS, SUITS = "3456789TJQKA2", "dchs"
#: every card but 3d, weakest first: consecutive slices hold few ranks (never a dragon)
DECK = [r + s for r in RANKS for s in SUITS][1:]


def finished(losers: list[int], rules: dict | None = None):
    """A hand seat 0 has just won by playing 3d; seat k+1 keeps ``losers[k]`` cards."""
    hands, k = ["3d"], 0
    for n in losers:
        hands.append(" ".join(DECK[k:k + n]))
        k += n
    state = new_game(hands=hands, rules=rules)
    state.apply("3d")
    assert state.is_terminal() and state.winner == 0
    return state


def _tiered(n: int) -> int:
    return n if n <= 9 else 2 * n if n <= 12 else 3 * n


# ------------------------------------------------------------------ the rules object
def test_the_option_defaults_to_penalty_and_names_its_values():
    assert SCORINGS == ("penalty", "cards-left")
    assert BigTwoRules().scoring == "penalty"
    assert BigTwoRules.from_options({"scoring": "cards_left"}).scoring == "cards-left"
    assert BigTwoRules.from_options({"scoring": "Cards-Left"}).scoring == "cards-left"
    rules = BigTwoRules.from_options({"scoring": "cards-left", "zero_sum": True})
    assert BigTwoRules.from_options(rules.to_dict()) == rules
    assert rules.with_players(2).scoring == "cards-left"


@pytest.mark.parametrize("value", ["tiers", "", 1, None, True])
def test_an_unknown_scoring_is_a_rules_error_naming_the_allowed_values(value):
    with pytest.raises(RulesError, match=r"rule 'scoring' must be 'penalty' or 'cards-left', "
                                         rf"got {value!r}") as exc:
        BigTwoRules.from_options({"scoring": value})
    assert isinstance(exc.value, InputError)
    with pytest.raises(RulesError, match="'scoring' must be"):
        new_game(seed=1, rules={"scoring": value})


# ------------------------------------------------------------------ returns on finished hands
@pytest.mark.parametrize("losers", [[1, 9, 13], [10, 12, 13], [9, 10], [13], [1, 1, 1]])
def test_returns_under_both_scorings(losers):
    n = len(losers)
    tiered = [_tiered(c) for c in losers]
    plain = finished(losers)
    assert plain.penalties() == [0, *tiered]
    assert plain.returns() == [0.0, *(-float(p) for p in tiered)]
    zs = finished(losers, {"zero_sum": True})
    assert zs.returns() == [float(sum(tiered)), *(-float(p) for p in tiered)]
    for zero_sum in (False, True):  # cards-left: zero_sum has no effect
        cl = finished(losers, {"scoring": "cards-left", "zero_sum": zero_sum})
        assert cl.penalties() == [0, *losers]
        assert cl.returns() == [float(sum(losers)), *(-float(c) for c in losers)]
        assert sum(cl.returns()) == 0
        res = cl.observation(1)["result"]
        assert res["scoring"] == "cards-left" and res["returns"] == cl.returns()
        assert res["penalties"] == [0, *losers] and res["cards_left"] == [0, *losers]
        assert cl.num_players == n + 1
    assert plain.observation(0)["result"]["scoring"] == "penalty"


def test_the_example_hand_of_winner_and_1_9_10_13_cards():
    """Four losers do not fit at a table of four: two tables cover 1, 9, 10 and 13."""
    a, b = finished([1, 9, 13], {"scoring": "cards-left"}), finished([10], {"scoring": "cards-left"})
    assert a.returns() == [23.0, -1.0, -9.0, -13.0] and b.returns() == [10.0, -10.0]
    a, b = finished([1, 9, 13]), finished([10])
    assert a.returns() == [0.0, -1.0, -9.0, -39.0] and b.returns() == [0.0, -20.0]


def test_a_dragon_wins_the_others_cards_under_cards_left():
    dragon = "3d 4c 5h 6s 7d 8c 9h Ts Jd Qc Kh As 2d"
    rest = [c for c in DECK if c not in dragon.split()]
    hands = [" ".join(rest[:13]), dragon, " ".join(rest[13:26]), " ".join(rest[26:39])]
    state = new_game(hands=hands, rules={"scoring": "cards-left"})
    assert state.dragon and state.winner == 1
    assert state.returns() == [-13.0, 39.0, -13.0, -13.0]
    assert new_game(hands=hands).returns() == [-39.0, 0.0, -39.0, -39.0]


@pytest.mark.parametrize("rules, bounds", [
    (None, (-39.0, 0.0)),
    ({"zero_sum": True}, (-39.0, 117.0)),
    ({"scoring": "cards-left"}, (-13.0, 39.0)),
    ({"scoring": "cards-left", "zero_sum": True}, (-13.0, 39.0)),
    ({"scoring": "cards-left", "players": 2}, (-13.0, 13.0)),
    ({"scoring": "cards-left", "players": 3}, (-13.0, 26.0)),
])
def test_utility_bounds_follow_the_scoring(rules, bounds):
    assert GAME.utility_bounds(rules) == bounds


BOTS = {"baseline": BaselineBot, "random": RandomBot}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.sampled_from(sorted(BOTS)), min_size=2,
                                           max_size=4), st.booleans())
def test_cards_left_is_zero_sum_over_self_played_hands(seed, names, zero_sum):
    rules = {"scoring": "cards-left", "zero_sum": zero_sum, "players": len(names)}
    result = self_play(seed, [BOTS[n]() for n in names], rules)
    assert sum(result.returns) == 0
    assert result.returns[result.winner] == sum(result.cards_left)
    assert all(r == -c for p, (r, c) in enumerate(zip(result.returns, result.cards_left))
               if p != result.winner)
    # the scoring changes the points, not how these bots play the hand
    tiered = self_play(seed, [BOTS[n]() for n in names], {"players": len(names)})
    assert (tiered.winner, tiered.cards_left, tiered.turns) == (
        result.winner, result.cards_left, result.turns)
    assert tiered.returns == tuple(0.0 if p == result.winner else -float(_tiered(c))
                                   for p, c in enumerate(result.cards_left))


# ------------------------------------------------------------------ registry and documents
def test_the_option_flows_through_the_registry():
    opts = {o.name: o for o in GAME.options}
    assert opts["scoring"].choices == SCORINGS and opts["scoring"].default == "penalty"
    state = GAME.new_game(seed=7, rules={"scoring": "cards-left"})
    assert state.rules.scoring == "cards-left"
    obs = state.observation(state.current_player)
    assert obs["rules"]["scoring"] == "cards-left"
    again = GAME.from_json(state.to_json())
    assert again.rules == state.rules
    hidden = GAME.hidden_of(state, state.current_player)
    assert GAME.from_view(obs, hidden).rules == state.rules
    with pytest.raises(RulesError, match="'penalty' or 'cards-left'"):
        GAME.new_game(seed=7, rules={"scoring": "nope"})


def test_the_summary_says_how_the_cards_were_counted():
    assert "1 point a card" in GAME.presentation.summary(
        finished([2, 3], {"scoring": "cards-left"}).observation(0))
    assert "point" not in GAME.presentation.summary(finished([2, 3]).observation(0))


# ------------------------------------------------------------------ the search
def _lead_out_position(rules: dict | None):
    """Seat 0 leads with 3d 3c and can go out at once with the pair; the others hold 1, 9
    and 13 cards."""
    hands = ["3d 3c", " ".join(DECK[1:2]), " ".join(DECK[2:11]), " ".join(DECK[11:24])]
    return new_game(hands=hands, rules=rules)


@pytest.mark.parametrize("rules, value", [
    ({"scoring": "cards-left"}, 1 + 9 + 13),
    ({"scoring": "cards-left", "zero_sum": True}, 1 + 9 + 13),
    (None, 0),
    ({"zero_sum": True}, 1 + 9 + 39),
])
def test_the_search_values_a_win_by_the_rules_scoring(rules, value):
    """Going out now is worth what the scoring pays the winner: every opponent's cards."""
    state = _lead_out_position(rules)
    advice = advise(state.observation(0), iterations=12, seed=3)
    pair = next(m for m in advice["moves"] if sorted(m["move"]["cards"]) == ["3c", "3d"])
    assert pair["value"] == value and pair["stderr"] == 0
    assert advice["moves"][0]["value"] == value  # nothing can score more


def _drop_time(advice: dict) -> dict:
    return {k: v for k, v in advice.items() if k != "elapsed_ms"}


@pytest.mark.parametrize("seed, steps", [(1, 0), (4, 9), (17, 23)])
def test_advise_under_cards_left_is_legal_and_deterministic(seed, steps):
    state = new_game(seed=seed, rules={"scoring": "cards-left"})
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    if state.is_terminal():
        pytest.skip("the random hand ended early")
    obs = state.observation(state.current_player)
    first = advise(obs, iterations=10, seed=5)
    assert _drop_time(first) == _drop_time(advise(obs, iterations=10, seed=5))
    assert first["moves"]
    lo, hi = GAME.utility_bounds(obs["rules"])
    for entry in first["moves"]:
        trial = state.clone()
        trial.apply(trial.parse_move(entry["move"]))  # IllegalMoveError if not legal
        assert lo <= entry["value"] <= hi


def test_the_search_bot_plays_a_cards_left_hand():
    state = new_game(seed=2, rules={"scoring": "cards-left", "players": 3})
    bot = GAME.bot("search")
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply(bot(state.observation(state.current_player), state.legal_moves(), rng))
    assert sum(state.returns()) == 0


# ------------------------------------------------------------------ CLI
def test_cli_moves_accepts_and_checks_the_scoring(capsys):
    assert main(["moves", "big-two", "3d 3s 4c", "--scoring", "cards-left", "--json"]) == 0
    with_option = json.loads(capsys.readouterr().out)
    assert main(["moves", "big-two", "3d 3s 4c", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == with_option
    assert main(["moves", "big-two", "3d", "--scoring", "tiers"]) == 2
    assert "cards-left" in capsys.readouterr().err


def test_cli_advise_reads_the_scoring_from_the_observation(tmp_path, capsys):
    obs = _lead_out_position({"scoring": "cards-left"}).observation(0)
    path = tmp_path / "obs.json"
    path.write_text(json.dumps(obs))
    assert main(["advise", "big-two", str(path), "--iterations", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["moves"][0]["value"] == 23
    obs["rules"]["scoring"] = "tiers"
    path.write_text(json.dumps(obs))
    assert main(["advise", "big-two", str(path), "--iterations", "4"]) == 2
    assert "'penalty' or 'cards-left'" in capsys.readouterr().err


# ------------------------------------------------------------------ HTTP
def test_http_moves_accepts_the_scoring(client):
    r = client.post("/v1/big-two/moves",
                    json={"hand": "3d 3s 4c", "rules": {"scoring": "cards-left"}})
    assert r.status_code == 200
    assert r.get_json() == client.post("/v1/big-two/moves", json={"hand": "3d 3s 4c"}).get_json()
    r = client.post("/v1/big-two/classify", json={"cards": "3d 3s", "rules": {"scoring": "penalty"}})
    assert r.status_code == 200 and r.get_json()["kind"] == "pair"


@pytest.mark.parametrize("value", ["tiers", "cards_left", 3, None])
def test_http_moves_refuses_an_unknown_scoring(client, value):
    r = client.post("/v1/big-two/moves", json={"hand": "3d", "rules": {"scoring": value}})
    assert r.status_code == 400
    message = r.get_json()["error"]["message"]
    assert "rules.scoring: unknown scoring" in message and "one of penalty, cards-left" in message


def test_openapi_constrains_the_scoring_with_an_enum(client):
    schemas = client.get("/openapi.json").get_json()["components"]["schemas"]
    prop = schemas["BigTwoRulesIn"]["properties"]["scoring"]
    assert prop["enum"] == list(SCORINGS) and prop["type"] == "string"
    assert prop["default"] == "penalty"


def test_http_advise_under_cards_left(client):
    obs = _lead_out_position({"scoring": "cards-left"}).observation(0)
    body = {"observation": obs, "iterations": 6, "seed": 1}
    r = client.post("/v1/big-two/advise", json=body)
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["moves"][0]["value"] == 23
    again = client.post("/v1/big-two/advise", json=body).get_json()
    assert _drop_time(again) == _drop_time(r.get_json())
    obs["rules"]["scoring"] = "tiers"
    r = client.post("/v1/big-two/advise", json={"observation": obs, "iterations": 6})
    assert 400 <= r.status_code < 500
    err = r.get_json()["error"]
    assert err["code"] == "invalid_rules" and "'penalty' or 'cards-left'" in err["message"]


def test_sessions_accept_the_scoring(tmp_path):
    app = create_app({"TESTING": True, "WARMUP": False,
                      "SESSIONS_DB": str(tmp_path / "s.sqlite3")})
    c = app.test_client()
    games = c.get("/v1/sessions/games").get_json()["games"]
    option = next(o for g in games if g["name"] == "big-two" for o in g["options"]
                  if o["name"] == "scoring")
    assert option["choices"] == list(SCORINGS) and option["default"] == "penalty"
    r = c.post("/v1/sessions", json={"game": "big-two", "seed": 3,
                                     "rules": {"scoring": "cards-left"}})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["observation"]["rules"]["scoring"] == "cards-left"
    r = c.post("/v1/sessions", json={"game": "big-two", "seed": 3, "rules": {"scoring": "x"}})
    assert 400 <= r.status_code < 500
    assert "'penalty' or 'cards-left'" in r.get_json()["error"]["message"]
