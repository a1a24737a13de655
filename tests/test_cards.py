"""Shared cards: the named encodings, and error messages that name each problem once with
its count (a hand of thirteen ``Tc`` is one duplicate, not twelve)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from solver.cards import (
    BIG_JOKER,
    NUM_CARDS,
    RANK_CHARS,
    RANK_SHIFT,
    SMALL_JOKER,
    SUIT_CHARS,
    SUIT_MASK,
    Card,
    Rank,
    Suit,
    card_id,
    cards_twice,
    format_card,
    is_joker,
    parse_cards,
    rank_of,
    suit_of,
)
from solver.errors import CardError


# ------------------------------------------------------------------ encodings
def test_helpers_agree_with_the_card_text_for_every_card():
    """The helpers read the id as the text says: 'As' is rank A, suit s, and back."""
    for c in range(NUM_CARDS):
        text = format_card(c)
        assert RANK_CHARS[rank_of(c)] + SUIT_CHARS[suit_of(c)] == text
        assert card_id(rank_of(c), suit_of(c)) == c
        assert (c >> RANK_SHIFT, c & SUIT_MASK) == (rank_of(c), suit_of(c))
        assert not is_joker(c)
    assert card_id(Rank.ACE, Suit.SPADES) == parse_cards("As")[0] == Card.parse("As").id
    assert is_joker(SMALL_JOKER) and is_joker(BIG_JOKER)
    assert (format_card(SMALL_JOKER), format_card(BIG_JOKER)) == ("SJ", "BJ")


# ------------------------------------------------------------------ one message per problem
def problems(cards: str | Iterable[object], **kwargs: Any) -> list[str]:
    with pytest.raises(CardError) as exc:
        parse_cards(cards, **kwargs)
    return exc.value.problems


def test_thirteen_copies_are_one_duplicate_with_its_count():
    assert problems("Tc " * 13, count=13) == ["duplicate card 'Tc' (13 times)"]
    assert problems(["Tc"] * 3) == ["duplicate card 'Tc' (3 times)"]


def test_two_copies_are_a_duplicate_without_a_count():
    """"Duplicate" already says two; the README's example message stays as shown."""
    assert problems("As As") == ["duplicate card 'As'"]


def test_spellings_of_one_card_count_together():
    assert problems("Th 10h th ♥10") == ["duplicate card 'Th' (4 times)"]


def test_each_distinct_problem_once_in_first_seen_order():
    cards = "Zz As Kd Zz As 1h Zz Kd As Zz"
    assert problems(cards, count=13) == [
        "unknown card 'Zz' (4 times)",
        "duplicate card 'As' (3 times)",
        "unknown card '1h'",
        "duplicate card 'Kd'",
    ]


def test_items_of_the_wrong_type_are_counted_too():
    assert problems(["As", 1.5, 2.5, None]) == ["card must be a string, got float (twice)",
                                                "card must be a string, got NoneType"]


def test_bad_ids_are_counted_like_tokens():
    assert problems([99, 99, 0]) == ["unknown card '99' (twice)"]
    assert problems([SMALL_JOKER] * 3, allow_jokers=True) == ["duplicate card 'SJ' (3 times)"]


def test_allowed_duplicates_are_not_problems():
    assert parse_cards("Tc Tc Tc", allow_duplicates=True) == [32, 32, 32]


def test_a_card_in_several_hands_is_named_once_with_each_place_once():
    assert cards_twice([[32, 32], [32], [32, 5]]) == [
        "card 'Tc' is dealt 4 times (hands 0, 1 and 2)"]
    assert cards_twice([[32, 32]], labels=["the kitty"]) == [
        "card 'Tc' is dealt twice (the kitty)"]


def test_game_deals_say_each_repeated_card_once():
    from solver.games.big_two.engine import new_game

    hand = " ".join(["3d"] * 13)
    other = "4d 4c 4h 4s 5d 5c 5h 5s 6d 6c 6h 6s 7d"
    with pytest.raises(CardError) as exc:
        new_game(hands=[hand, other])
    assert exc.value.problems == ["hand 0: duplicate card '3d' (13 times)"]


# ------------------------------------------------------------------ CLI and HTTP
def test_cli_prints_each_problem_once(capsys):
    from solver.cli import main

    assert main(["valid", " ".join(["Tc"] * 12 + ["Zz"])]) == 2
    assert capsys.readouterr().err == (
        "capsa: error: duplicate card 'Tc' (12 times); unknown card 'Zz'\n")
    assert main(["valid", "As As"]) == 2  # the README's example, word for word
    assert capsys.readouterr().err == "capsa: error: duplicate card 'As'\n"


def test_http_error_body_carries_the_same_message(client):
    r = client.post("/v1/capsa/valid", json={"hand": " ".join(["Tc"] * 13)})
    assert r.status_code == 422
    assert r.get_json()["error"]["message"] == "duplicate card 'Tc' (13 times)"


def test_http_card_list_says_the_same_as_a_card_string(client):
    """A JSON list is refused by the schema (a 400), in the parser's words: the count too."""
    r = client.post("/v1/capsa/valid", json={"hand": ["Tc"] * 13})
    assert r.status_code == 400
    assert r.get_json()["error"]["message"] == "hand: duplicate card 'Tc' (13 times)"
    r = client.post("/v1/capsa/valid", json={"hand": ["Tc", "10c", "As", "As"] + ["Kd"] * 9})
    assert r.status_code == 400
    assert r.get_json()["error"]["message"] == (
        "hand: duplicate card 'Tc'; duplicate card 'As'; duplicate card 'Kd' (9 times)")
