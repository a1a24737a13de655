"""The OpenAPI document is precise and comes from the domain: bounds as minimum/maximum, card
fields whose pattern is the card parser's grammar, counts per game, vocabularies equal to the
rules modules' tuples, and errors that name the value sent and the allowed ones."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.schemas import CardsSpec
from solver.cards import SUIT_SYMBOLS, card_pattern, parse_card, parse_cards
from solver.errors import CardError
from solver.games.big_two.rules import FLUSH_ORDERS, STRAIGHTS
from solver.games.capsa.arrange import METHODS
from solver.games.capsa.limits import MAX_BATCH_HANDS, MAX_SAMPLES_PER_REQUEST
from solver.games.capsa.lookup import KIND_NAMES, WHEEL_MODES
from solver.games.capsa.rules import (
    FRONT_KINDS,
    NATURAL_KINDS,
    PRESETS,
    ROYALTY_MODES,
    ROYALTY_PRESETS,
    SCORINGS,
)
from solver.games.da_bai_fen.cards import (
    TRUMP_RANK_PATTERN,
    TRUMP_SUIT_PATTERN,
    parse_rank,
    parse_suit,
)

HAND = "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h"
TOKEN_CHARS = "0123456789TJQKAtjqkacdhsCDHSxzBbSs" + "".join(SUIT_SYMBOLS)


@pytest.fixture(scope="module")
def doc(app):
    return app.test_client().get("/openapi.json").get_json()


def _walk(node, path=()):
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _walk(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, (*path, i))


def _schemas(doc):
    return doc["components"]["schemas"]


def _prop(doc, model, name):
    return _schemas(doc)[model]["properties"][name]


def _branch(schema, typ):
    options = schema.get("anyOf") or schema.get("oneOf") or [schema]
    return next(o for o in options if o.get("type") == typ)


def test_openapi_31_and_no_pydantic_only_keywords(doc):
    assert doc["openapi"] == "3.1.0"
    for path, node in _walk(doc["components"]):
        if "properties" in path[-1:]:
            continue  # field names, not keywords
        assert not {"ge", "le", "gt", "lt"} & set(node), f"pydantic keyword at {path}"


@pytest.mark.parametrize("model, field, low, high", [
    ("ArrangeRequest", "samples", 1, MAX_SAMPLES_PER_REQUEST),
    ("ArrangeRequest", "opponents", 1, 3),
    ("ArrangeRequest", "top", 1, 20),
    ("BatchRequest", "seed", 0, 2**63 - 1),
    ("TrickRequest", "kitty_multiplier", 0, 10),
])
def test_integer_bounds_render_as_minimum_maximum(doc, model, field, low, high):
    schema = _prop(doc, model, field)
    schema = _branch(schema, "integer")
    assert (schema["minimum"], schema["maximum"]) == (low, high)


def test_unit_tables_are_bounded(doc):
    units = _branch(_schemas(doc)["RoyaltyTable"]["properties"]["back"], "object")
    assert units["additionalProperties"] == {"type": "integer", "minimum": 0, "maximum": 1000}
    assert units["propertyNames"]["enum"] == list(KIND_NAMES)
    front = _branch(_schemas(doc)["RoyaltyTable"]["properties"]["front"], "object")
    assert front["propertyNames"]["enum"] == list(FRONT_KINDS)


@pytest.mark.parametrize("model, field, low, high", [
    ("ArrangeRequest", "hand", 13, 13),
    ("ArrangementIn", "front", 3, 3),
    ("ArrangementIn", "middle", 5, 5),
    ("BigTwoMovesRequest", "hand", 1, 13),
    ("MovesRequest", "hand", 1, 20),
    ("PlaysRequest", "hand", 1, 12),
])
def test_card_fields_have_patterns_and_counts(doc, model, field, low, high):
    schema = _prop(doc, model, field)
    text = _branch(schema, "string")
    assert text["pattern"].startswith("^") and text["maxLength"] > 0
    canonical, spelled = [o for o in schema["anyOf"] if o["type"] == "array"]
    for array in (canonical, spelled):
        assert (array["minItems"], array["maxItems"]) == (low, high) and array["uniqueItems"]
    assert len(canonical["items"]["enum"]) == (54 if model == "PlaysRequest" else 52)
    assert spelled["items"]["pattern"].startswith("^")


def test_array_lengths(doc):
    players = _prop(doc, "ScoreRequest", "players")
    assert (players["minItems"], players["maxItems"]) == (2, 4)
    hands = _prop(doc, "BatchRequest", "hands")
    assert (hands["minItems"], hands["maxItems"]) == (1, MAX_BATCH_HANDS)


GAME_PREFIXES = ("/v1/capsa/", "/v1/big-two/", "/v1/da-san/", "/v1/da-bai-fen/")


def _request_models(doc) -> set[str]:
    """Names of the components a game route's request body reaches, following every $ref."""
    todo = [op["requestBody"]["content"]["application/json"]["schema"]
            for path, ops in doc["paths"].items() if path.startswith(GAME_PREFIXES)
            for op in ops.values() if "requestBody" in op]
    seen: set[str] = set()
    while todo:
        for _, node in _walk(todo.pop()):
            ref = node.get("$ref")
            if isinstance(ref, str) and (name := ref.rsplit("/", 1)[-1]) not in seen:
                seen.add(name)
                todo.append(_schemas(doc)[name])
    return seen


def test_every_game_request_string_is_constrained(doc):
    """No free-text field in a game request: each string has a pattern or an enum."""
    models = _request_models(doc)
    assert {"ArrangeRequest", "RulesIn", "RoyaltyTable", "PlaysRequest"} <= models
    for name in models:
        for path, node in _walk(_schemas(doc)[name]):
            if node.get("type") == "string":
                assert "pattern" in node or "enum" in node, f"{name} {path}: free string"


def test_vocabularies_come_from_the_domain(doc):
    s = _schemas(doc)
    rules = s["ArrangeRequest"]["properties"]["rules"]
    assert _branch(rules, "string")["enum"] == list(PRESETS)
    r = s["RulesIn"]["properties"]
    assert _branch(r["scoring"], "string")["enum"] == list(SCORINGS)
    assert _branch(r["royalty_mode"], "string")["enum"] == list(ROYALTY_MODES)
    assert _branch(r["wheel"], "string")["enum"] == list(WHEEL_MODES)
    royalties = r["royalties"]["anyOf"][0]
    assert _branch(royalties, "string")["enum"] == list(ROYALTY_PRESETS)
    assert list(s["NaturalUnits"]["properties"]) == list(NATURAL_KINDS)
    assert s["ArrangeRequest"]["properties"]["method"]["enum"] == list(METHODS)
    assert s["BatchRequest"]["properties"]["method"]["enum"] == [m for m in METHODS if m != "known"]
    b2 = s["BigTwoRulesIn"]["properties"]
    assert b2["straights"]["enum"] == list(STRAIGHTS)
    assert b2["flush_order"]["enum"] == list(FLUSH_ORDERS)


# ------------------------------------------------------------------ pattern == parser
@given(st.text(alphabet=TOKEN_CHARS, min_size=1, max_size=4), st.booleans())
def test_card_pattern_is_the_parsers_grammar(token, jokers):
    try:
        parse_card(token, allow_jokers=jokers)
        parses = True
    except CardError:
        parses = False
    assert parses == bool(re.fullmatch(card_pattern(jokers), token)), token


@pytest.mark.parametrize("low, high, jokers", [(13, 13, False), (1, 13, False), (0, 20, False),
                                                (1, 12, True), (0, 6, True)])
@given(data=st.data())
def test_strings_the_schema_allows_parse_to_the_allowed_count(low, high, jokers, data):
    spec = CardsSpec(low, high, jokers)
    text = data.draw(st.from_regex(spec.text_regex))
    assert len(text) <= spec.max_length
    ids = parse_cards(text, allow_jokers=jokers, allow_duplicates=True)
    assert low <= len(ids) <= high
    assert spec.validate(text) == text


@given(st.from_regex(r"\A(?:" + TRUMP_RANK_PATTERN + r")\Z"),
       st.from_regex(r"\A(?:" + TRUMP_SUIT_PATTERN + r")\Z"))
def test_trump_patterns_parse(rank, suit):
    assert 0 <= parse_rank(rank) <= 12 and 0 <= parse_suit(suit) <= 3


# ------------------------------------------------------------------ messages
@pytest.mark.parametrize("path, body, message", [
    ("/v1/capsa/arrange", {"hand": HAND, "rules": {"scoring": "six-one"}},
     "rules.scoring: unknown scoring 'six-one'; one of one-six, two-four, scoop-one, basic"),
    ("/v1/capsa/arrange", {"hand": HAND, "rules": {"royalties": "some"}},
     "rules.royalties: unknown royalties 'some'; one of standard, none"),
    ("/v1/capsa/arrange", {"hand": HAND, "rules": {"royalties": {"front": {"flush": 2}}}},
     "rules.royalties.front: unknown hand kind 'flush'; one of high_card, pair, trips"),
    ("/v1/capsa/arrange", {"hand": HAND, "method": "exact"},
     "method: unknown method 'exact'; one of table, montecarlo, known"),
    ("/v1/capsa/arrange", {"hand": HAND, "top": 0},
     "top: Input should be greater than or equal to 1, got 0"),
    ("/v1/capsa/arrange", {"hand": HAND, "seed": "7"}, "seed: Input should be a valid integer"),
    ("/v1/capsa/arrange", {"hand": ["As"] * 13}, "hand: duplicate card 'As'"),
    ("/v1/capsa/arrange", {"hand": 13}, "hand: cards must be a string or a list of strings, got int"),
    ("/v1/capsa/score", {"players": [{"hand": HAND}]},
     "players: List should have at least 2 items after validation, not 1"),
    ("/v1/big-two/moves", {"hand": "3d", "rules": {"flush_order": "colour"}},
     "rules.flush_order: unknown flush_order 'colour'; one of rank, suit"),
    ("/v1/da-bai-fen/moves", {"hand": "BJ", "trump_rank": "1", "trump_suit": "h"},
     "trump_rank: unknown trump rank '1'; one of 2 3 4 5 6 7 8 9 T J Q K A (or 10)"),
])
def test_errors_name_the_value_and_the_allowed_ones(client, path, body, message):
    r = client.post(path, json=body)
    assert r.status_code == 400
    assert message in r.get_json()["error"]["message"]


def test_schema_valid_but_refused_is_a_422(client):
    dragon = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
    r = client.post("/v1/capsa/score", json={"players": [{"hand": dragon}, {"hand": dragon}]})
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "invalid_cards"
    assert "players 0 and 1" in r.get_json()["error"]["message"]
    r = client.post("/v1/capsa/score", json={"players": [{"hand": HAND}, {"hand": dragon}]})
    assert r.status_code == 422 and "holds no natural" in r.get_json()["error"]["message"]
    r = client.post("/v1/capsa/arrange", json={"hand": HAND.replace("2h", "as")})
    assert r.status_code == 422 and "duplicate card 'As'" in r.get_json()["error"]["message"]
