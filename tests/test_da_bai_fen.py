"""Da Bai Fen card order, legal plays and trick winners, against plain reference readings."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.cards import BIG_JOKER, SMALL_JOKER, format_cards, parse_cards
from solver.errors import InputError
from solver.games.da_bai_fen import (
    Trump,
    card_points,
    count_plays,
    is_legal,
    legal_plays,
    trick_points,
    trick_winner,
)

DECK = list(range(54))


def cards(text: str) -> list[int]:
    return parse_cards(text, allow_jokers=True)


# ------------------------------------------------------------------ reference readings
def ref_suit(card: int, rank: int, suit: int) -> int:
    """Which suit a card follows as; 4 stands for trumps."""
    if card >= 52 or card >> 2 == rank or card & 3 == suit:
        return 4
    return card & 3


def ref_level(card: int, rank: int, suit: int) -> int:
    """Position in the rules' high-to-low lists (lower is higher); equal for equal cards."""
    if ref_suit(card, rank, suit) == 4:
        order = ["BJ", "SJ", f"R{suit}", "R*"] + [f"S{r}" for r in range(12, -1, -1) if r != rank]
        if card == BIG_JOKER:
            return order.index("BJ")
        if card == SMALL_JOKER:
            return order.index("SJ")
        if card >> 2 == rank:
            return order.index(f"R{suit}" if card & 3 == suit else "R*")
        return order.index(f"S{card >> 2}")
    return [r for r in range(12, -1, -1) if r != rank].index(card >> 2)


def ref_legal(play, hand, trick, rank, suit) -> bool:
    if not trick:
        return len(play) == 1 or len({ref_suit(c, rank, suit) for c in play}) == 1
    lead = trick[0]
    if len(play) != len(lead):
        return False
    led = ref_suit(lead[0], rank, suit)
    held = sum(1 for c in hand if ref_suit(c, rank, suit) == led)
    return sum(1 for c in play if ref_suit(c, rank, suit) == led) == min(held, len(lead))


def ref_winner(trick, rank, suit) -> int:
    led = ref_suit(trick[0][0], rank, suit)
    if len(trick[0]) == 1:
        best = 0
        for i in range(1, len(trick)):
            c, w = trick[i][0], trick[best][0]
            cs, ws = ref_suit(c, rank, suit), ref_suit(w, rank, suit)
            if cs == 4 and ws != 4:
                best = i
            elif cs == ws and ref_level(c, rank, suit) < ref_level(w, rank, suit):
                best = i
        return best
    best, best_level = 0, None
    for i in range(1, len(trick)):
        play = trick[i]
        void = all(ref_suit(c, rank, suit) != led for c in play)
        if void and all(ref_suit(c, rank, suit) == 4 for c in play):
            top = min(ref_level(c, rank, suit) for c in play)
            if best_level is None or top < best_level:
                best, best_level = i, top
    return best


def brute_plays(hand, trick, rank, suit) -> set[frozenset[int]]:
    return {frozenset(s) for k in range(1, len(hand) + 1) for s in combinations(hand, k)
            if ref_legal(s, hand, trick, rank, suit)}


@st.composite
def positions(draw, max_hand: int = 8):
    """A trump, a hand, and a partial trick (possibly empty) it can follow."""
    rank = draw(st.integers(0, 12))
    suit = draw(st.integers(0, 3))
    deck = draw(st.permutations(DECK))
    n = draw(st.integers(1, max_hand))
    hand, rest = list(deck[:n]), list(deck[n:])
    followers = draw(st.integers(-1, 2))  # -1: no trick (a lead)
    if followers < 0:
        return rank, suit, hand, []
    led = ref_suit(rest[0], rank, suit)
    same = [c for c in rest if ref_suit(c, rank, suit) == led]
    k = draw(st.integers(1, min(n, len(same), 4)))
    lead = same[:k]
    rest = [c for c in rest if c not in lead]
    trick = [lead]
    for _ in range(followers):
        trick.append(rest[:k])
        rest = rest[k:]
    return rank, suit, hand, trick


# ------------------------------------------------------------------ card order
def test_points_total_100_and_values():
    assert sum(card_points(c) for c in DECK) == 100
    assert [card_points(c) for c in cards("Kh Tc 5d 4s BJ SJ As")] == [10, 10, 5, 0, 0, 0, 0]


@pytest.mark.parametrize("rank", range(13))
@pytest.mark.parametrize("suit", range(4))
def test_eighteen_trumps_in_rule_order(rank, suit):
    t = Trump(rank, suit)
    trumps = t.trumps()
    assert len(trumps) == 18
    levels = [ref_level(c, rank, suit) for c in trumps]
    assert levels == sorted(levels)
    assert [t.strength[c] for c in trumps] == sorted((t.strength[c] for c in trumps), reverse=True)
    for a in DECK:
        assert t.is_trump(a) == (ref_suit(a, rank, suit) == 4)
        for b in DECK:
            if t.eff[a] == t.eff[b]:
                higher = ref_level(a, rank, suit) < ref_level(b, rank, suit)
                assert (t.strength[a] > t.strength[b]) == higher


def test_trump_rank_ace_suit_runs_king_down():
    t = Trump.parse("A", "h")
    assert format_cards(t.trumps()) == (
        "BJ SJ Ah As Ad Ac Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h".split())
    # Off-suit: K is the top card, the ace is a trump.
    assert trick_winner([cards("Ks"), cards("Qs"), cards("As")], t) == 2
    assert trick_winner([cards("Ks"), cards("Qs")], t) == 0


def test_parse_errors_name_the_value():
    with pytest.raises(InputError, match="trump rank 'Z'"):
        Trump.parse("Z", "h")
    with pytest.raises(InputError) as exc:
        Trump.parse("1", "x")
    assert len(exc.value.problems) == 2
    assert Trump.parse("10", "♥") == Trump(8, 2)


# ------------------------------------------------------------------ legal plays
@given(positions())
def test_legal_plays_equal_brute_force(pos):
    rank, suit, hand, trick = pos
    t = Trump(rank, suit)
    plays = legal_plays(hand, trick, t)
    assert len(plays) == len({frozenset(p) for p in plays}), "a play listed twice"
    assert {frozenset(p) for p in plays} == brute_plays(hand, trick, rank, suit)
    assert count_plays(hand, trick, t) == len(plays)
    for p in plays:
        assert list(p) == t.sort(p)


@given(positions(), st.data())
def test_is_legal_agrees_with_reference(pos, data):
    rank, suit, hand, trick = pos
    k = data.draw(st.integers(1, len(hand)))
    play = data.draw(st.permutations(hand)).__getitem__(slice(0, k))
    verdict = is_legal(play, hand, trick, Trump(rank, suit))
    assert bool(verdict) == ref_legal(play, hand, trick, rank, suit)
    assert bool(verdict) or verdict.reason


def test_off_suit_trump_rank_card_is_a_trump_not_its_printed_suit():
    t = Trump.parse("2", "s")
    # The only heart is the trump-rank 2h: the player is void in hearts and plays freely.
    assert {tuple(format_cards(p)) for p in legal_plays(cards("2h 5c"), [cards("Kh")], t)} == {
        ("2h",), ("5c",)}
    # Led trumps: 2h must follow a spade lead.
    assert [format_cards(p) for p in legal_plays(cards("2h 5c"), [cards("3s")], t)] == [["2h"]]
    verdict = is_legal(cards("5c"), cards("2h 5c"), [cards("3s")], t)
    assert not verdict and "trumps" in verdict.reason
    # A lead mixing 2h with a heart is no group; with spades it is.
    assert not is_legal(cards("2h Ah"), cards("2h Ah 3s"), None, t)
    assert is_legal(cards("2h 3s"), cards("2h Ah 3s"), None, t)


def test_follow_must_use_all_led_suit_cards_then_fill_freely():
    t = Trump.parse("2", "s")
    plays = legal_plays(cards("Ah 4h 9c Tc"), [cards("Kh Qh Jh")], t)
    assert {frozenset(format_cards(p)) for p in plays} == {
        frozenset({"Ah", "4h", "9c"}), frozenset({"Ah", "4h", "Tc"})}
    verdict = is_legal(cards("Ah 9c Tc"), cards("Ah 4h 9c Tc"), [cards("Kh Qh Jh")], t)
    assert not verdict and "2 cards of the led suit (hearts), played 1" in verdict.reason


def test_leads_count_every_subset_of_a_suit_once():
    t = Trump.parse("2", "s")
    hand = cards("Ah Kh Qh Jh Th 3c")
    assert len(legal_plays(hand, None, t)) == 6 + (2**5 - 1 - 5)


def test_enumeration_bound_and_max_plays():
    t = Trump.parse("2", "s")
    hand = cards("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s")
    assert count_plays(hand, None, t) == 4095
    assert len(legal_plays(hand, None, t)) == 4095
    with pytest.raises(InputError, match="4095 legal plays, more than max_plays=100"):
        legal_plays(hand, None, t, max_plays=100)
    with pytest.raises(InputError, match="at most 12 cards"):
        legal_plays(hand + cards("BJ"), None, t)


@pytest.mark.parametrize("trick, message", [
    (["Kh Qc"], "mixes suits"),
    (["Kh Qh", "3c"], "has 1 cards, the lead has 2"),
    (["Kh", "Kh"], "played twice"),
    (["Kh", "3c", "4c", "5c"], "complete"),
    (["Zz"], "unknown card"),
    ([""], "lead is empty"),
    (["As"], "both in the hand and in the trick"),
])
def test_bad_tricks_are_input_errors(trick, message):
    with pytest.raises(InputError, match=message):
        legal_plays(cards("As 2d 7h"), trick, Trump.parse("2", "s"))


# ------------------------------------------------------------------ trick winners
@given(positions(max_hand=4), st.data())
def test_trick_winner_matches_reference(pos, data):
    rank, suit, hand, trick = pos
    if not trick:
        trick, hand = [hand[:1]], hand[1:]
    t = Trump(rank, suit)
    # Add one more follower play chosen among the hand's legal plays when it fits.
    if hand and len(trick) < 4 and len(hand) >= len(trick[0]):
        trick = trick + [list(data.draw(st.sampled_from(legal_plays(hand, trick, t))))]
    assert trick_winner(trick, t) == ref_winner(trick, rank, suit)


def test_single_tricks():
    t = Trump.parse("2", "s")
    assert trick_winner([cards("Kh"), cards("Ah"), cards("3c")], t) == 1
    assert trick_winner([cards("Kh"), cards("Ah"), cards("3s")], t) == 2
    # Equal off-suit trump-rank cards: the first played wins, the trump-suit one is higher.
    assert trick_winner([cards("Kh"), cards("2c"), cards("2d"), cards("2h")], t) == 1
    assert trick_winner([cards("2d"), cards("2c")], t) == 0
    assert trick_winner([cards("2c"), cards("2s")], t) == 1
    assert trick_winner([cards("2s"), cards("SJ"), cards("BJ")], t) == 2
    assert trick_points([cards("Kh"), cards("5h"), cards("Th"), cards("2c")]) == 25


def test_group_tricks():
    t = Trump.parse("2", "s")
    # Higher cards of the led suit do not beat a group: only an all-trump group does.
    assert trick_winner([cards("Kh Qh"), cards("Ah Jh"), cards("3c 4c")], t) == 0
    assert trick_winner([cards("Kh Qh"), cards("3s 4s"), cards("3c 4c")], t) == 1
    assert trick_winner([cards("Kh Qh"), cards("3s 4c"), cards("BJ 4d")], t) == 0
    # Highest trump group wins by its highest card; ties (equal 2c / 2d) to the earlier player.
    assert trick_winner([cards("Kh Qh"), cards("3s 4s"), cards("As 5s")], t) == 2
    assert trick_winner([cards("Kh Qh"), cards("2c 3s"), cards("2d As")], t) == 1
    # A trump group lead cannot be beaten.
    assert trick_winner([cards("3s 4s"), cards("BJ SJ"), cards("Ah Kh")], t) == 0
