"""The fast path of ``parse_hand`` (plain spellings) agrees with the full card parser."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.cards import parse_cards
from solver.errors import CardError
from solver.games.capsa.splits import parse_hand

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "t", "10", "J", "j", "Q", "q", "K", "k",
         "A", "a"]
SUITS = ["c", "d", "h", "s", "C", "D", "H", "S", "♠", "♥"]
token = st.builds(lambda r, s: r + s, st.sampled_from(RANKS), st.sampled_from(SUITS))


def _full(hand):
    return np.sort(np.asarray(parse_cards(hand, count=13), dtype=np.int64))


@given(tokens=st.lists(token | st.sampled_from(["Xx", "1s", "As,", ""]), min_size=11, max_size=14),
       sep=st.sampled_from([" ", ", ", "\t", ";"]), as_list=st.booleans())
def test_fast_path_equals_full_parser(tokens, sep, as_list):
    hand = tokens if as_list else sep.join(tokens)
    try:
        expected = _full(hand)
    except CardError as exc:
        with pytest.raises(CardError) as got:
            parse_hand(hand)
        assert got.value.problems == exc.problems
        return
    np.testing.assert_array_equal(parse_hand(hand), expected)
