"""Big Two combinations and legal moves, checked against a brute force over every subset."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import format_card, parse_cards
from solver.errors import CardError, IllegalMoveError, RulesError
from solver.games.big_two import BigTwoRules, Kind, beats, classify, legal_moves

# ------------------------------------------------------------------ reference
# A plain reference written from the rules text: card strings, tuples, every subset.

RANKS = "3456789TJQKA2"
SUITS = "dchs"
FIVE_ORDER = ["straight", "flush", "full_house", "four_of_a_kind", "straight_flush"]
WINDOWS = ["34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA", "JQKA2"]
POKER_WINDOWS = ["A2345", "23456"]


def _rs(card: int) -> tuple[int, int]:
    text = format_card(card)
    return RANKS.index(text[0]), SUITS.index(text[1])


def ref_classify(cards, straights="rank-order", flush_order="rank"):
    """(kind, value) with values comparable within a kind, or None."""
    rs = [_rs(c) for c in cards]
    ranks = [r for r, _ in rs]
    n = len(rs)
    if n == 1:
        return ("single", rs[0])
    if n in (2, 3):
        if len(set(ranks)) != 1:
            return None
        return ("pair" if n == 2 else "triple", (ranks[0], max(s for _, s in rs)))
    if n != 5:
        return None
    counts = {r: ranks.count(r) for r in ranks}
    if sorted(counts.values()) == [1, 4]:
        return ("four_of_a_kind", (next(r for r, c in counts.items() if c == 4),))
    if sorted(counts.values()) == [2, 3]:
        return ("full_house", (next(r for r, c in counts.items() if c == 3),))
    windows = WINDOWS + (POKER_WINDOWS if straights == "poker" else [])
    rank_chars = {RANKS[r] for r in ranks}
    flush = len({s for _, s in rs}) == 1
    for i, w in enumerate(windows):
        if set(w) == rank_chars:
            top_suit = next(s for r, s in rs if RANKS[r] == w[-1])
            return ("straight_flush" if flush else "straight", (i, top_suit))
    if flush:
        desc = tuple(sorted(ranks, reverse=True))
        suit = rs[0][1]
        return ("flush", (suit, desc) if flush_order == "suit" else (desc, suit))
    return None


def ref_beats(a, a_size, b, b_size, bomb_on_two=True):
    """Does classified play ``a`` beat classified play ``b``."""
    if (bomb_on_two and b[0] == "single" and b[1][0] == RANKS.index("2")
            and a[0] in ("four_of_a_kind", "straight_flush")):
        return True
    if a_size != b_size:
        return False
    if a_size == 5:
        return (FIVE_ORDER.index(a[0]), a[1]) > (FIVE_ORDER.index(b[0]), b[1])
    return a[1] > b[1]


def ref_legal(hand, current=None, required=None, straights="rank-order", flush_order="rank",
              bomb_on_two=True):
    """Set of (frozenset(cards), kind) of every legal play, by trying every subset."""
    cur = None
    if current is not None:
        cur = ref_classify(current, straights, flush_order)
    out = set()
    for size in (1, 2, 3, 5):
        for combo in combinations(hand, size):
            c = ref_classify(combo, straights, flush_order)
            if c is None:
                continue
            if required is not None and required not in combo:
                continue
            if cur is not None and not ref_beats(c, size, cur, len(current), bomb_on_two):
                continue
            out.add((frozenset(combo), c[0]))
    return out


def ref_all_combos(hand, straights="rank-order", flush_order="rank"):
    """Every combination in ``hand`` as (cards tuple, classification)."""
    out = []
    for size in (1, 2, 3, 5):
        for combo in combinations(hand, size):
            c = ref_classify(combo, straights, flush_order)
            if c is not None:
                out.append((combo, c))
    return out


# ------------------------------------------------------------------ strategies

OPTIONS = st.fixed_dictionaries({
    "straights": st.sampled_from(["rank-order", "poker"]),
    "flush_order": st.sampled_from(["rank", "suit"]),
    "bomb_on_two": st.booleans(),
})


@st.composite
def hand_and_rest(draw, max_size=13):
    """A hand (often drawn from few ranks or suits, so fours, flushes and straight
    flushes show up) and the cards left for the table."""
    pool_kind = draw(st.sampled_from(["deck", "ranks", "suits"]))
    deck = list(range(52))
    if pool_kind == "ranks":
        ranks = draw(st.sets(st.integers(0, 12), min_size=3, max_size=6))
        pool = [c for c in deck if c // 4 in ranks]
    elif pool_kind == "suits":
        suits = draw(st.sets(st.integers(0, 3), min_size=1, max_size=2))
        pool = [c for c in deck if c % 4 in suits]
    else:
        pool = deck
    size = draw(st.integers(1, min(max_size, len(pool))))
    hand = draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))
    rest = [c for c in deck if c not in hand]
    return hand, rest


def _got(moves):
    return {(frozenset(m.cards), m.kind.label) for m in moves}


@given(hand_and_rest(), OPTIONS)
def test_leads_equal_brute_force(hr, opts):
    hand, _ = hr
    rules = BigTwoRules(**opts)
    lm = legal_moves(hand, rules=rules)
    assert not lm.can_pass
    got = [frozenset(m.cards) for m in lm]
    assert len(got) == len(set(got)), "a card choice listed twice"
    assert _got(lm) == ref_legal(hand, straights=opts["straights"], flush_order=opts["flush_order"])


@given(hand_and_rest(), OPTIONS, st.data())
def test_responses_equal_brute_force(hr, opts, data):
    hand, rest = hr
    other = data.draw(st.lists(st.sampled_from(rest), min_size=5, max_size=13, unique=True))
    if data.draw(st.booleans()):  # the bomb case needs a single 2 (or an ace) on the table
        high = [c for c in rest if c // 4 in (0, 12)]
        if high:
            other = [data.draw(st.sampled_from(high))]
    combos = ref_all_combos(other, opts["straights"], opts["flush_order"])
    current = list(data.draw(st.sampled_from(combos))[0])
    rules = BigTwoRules(**opts)
    lm = legal_moves(hand, current=current, rules=rules)
    assert lm.can_pass
    assert len({frozenset(m.cards) for m in lm}) == len(lm)
    assert _got(lm) == ref_legal(hand, current, None, **opts)


@given(hand_and_rest(), OPTIONS, st.data())
def test_required_card_equals_brute_force(hr, opts, data):
    hand, _ = hr
    req = data.draw(st.sampled_from(hand))
    lm = legal_moves(hand, required=req, rules=BigTwoRules(**opts))
    assert _got(lm) == ref_legal(hand, None, req, opts["straights"], opts["flush_order"])


@settings(max_examples=40)
@given(hand_and_rest(), hand_and_rest(), OPTIONS)
def test_strength_order_matches_reference(h1, h2, opts):
    """Among plays of the same size, strength order is the reference order."""
    rules = BigTwoRules(**opts)
    cards = h1[0] + [c for c in h2[0] if c not in h1[0]]
    moves = list(legal_moves(cards[:13], rules=rules))[:120]
    refs = [ref_classify(m.cards, opts["straights"], opts["flush_order"]) for m in moves]
    for a, ra in zip(moves, refs):
        assert ra is not None and ra[0] == a.kind.label
        assert classify(a.cards, rules) == a
        for b, rb in zip(moves, refs):
            if a.size == b.size:
                assert (a.strength > b.strength) == ref_beats(ra, a.size, rb, b.size, False)


def test_moves_sorted_by_kind_then_strength():
    lm = legal_moves("3d 3c 3h 4d 5d 6d 7d 8d 9c 9h 2s 2h Kd")
    keys = [(m.kind, m.strength) for m in lm]
    assert keys == sorted(keys)


# ------------------------------------------------------------------ the tricky cases
def test_first_trick_needs_3d():
    lm = legal_moves("3d 3c 4d 5c 6h 7s 9s", first_trick=True)
    assert len(lm) > 0 and all(parse_cards("3d")[0] in m.cards for m in lm)
    assert "3c" not in [str(m) for m in lm]
    with pytest.raises(IllegalMoveError, match="3d"):
        legal_moves("3c 4d", first_trick=True)
    # with 2-3 players the lowest card dealt is required instead
    assert [str(m) for m in legal_moves("3c 3h 4d", required="3c")] == ["3c", "3c 3h"]


def test_single_order():
    assert beats("7s", "7h") and not beats("7h", "7s")
    assert beats("7d", "6s") and not beats("6s", "7d")
    assert beats("2d", "As") and beats("2s", "2h")
    assert classify("3d").strength < classify("3c").strength < classify("3h").strength


def test_pairs_and_triples_by_highest_suit():
    assert beats("7s 7d", "7h 7c")
    assert not beats("7h 7c", "7s 7d")
    assert beats("8d 8c", "7s 7h")
    assert beats("9d 9c 9s", "9h 9c 9d") and not beats("9h 9c 9d", "9d 9c 9s")
    assert beats("Jd Jc Js", "Jd Jc Jh")
    assert not beats("7s 7h", "7s")  # different sizes never beat each other


@pytest.mark.parametrize("straights", ["rank-order", "poker"])
def test_straight_windows(straights):
    rules = BigTwoRules(straights=straights)
    assert classify("3d 4c 5h 6s 7d", rules).kind == Kind.STRAIGHT
    assert classify("Jd Qc Kh As 2d", rules).kind == Kind.STRAIGHT
    with pytest.raises(IllegalMoveError, match="not a combination"):
        classify("Kd Ac 2h 3s 4d", rules)  # K-A-2-3-4 never
    with pytest.raises(IllegalMoveError):
        classify("Qd Kc Ah 2s 3d", rules)
    low = ["Ad 2c 3h 4s 5d", "2d 3c 4h 5s 6d"]
    if straights == "poker":
        a2345, s23456 = (classify(c, rules) for c in low)
        top = classify("Js Qs Ks As 2h", rules)
        assert a2345.kind == s23456.kind == Kind.STRAIGHT
        assert top.strength < a2345.strength < s23456.strength
        assert beats("2d 3c 4h 5s 6d", "Ad 2c 3h 4s 5s", rules)  # window before suit
    else:
        for c in low:
            with pytest.raises(IllegalMoveError):
                classify(c, rules)
    # within a window: the suit of the top card decides
    assert beats("3s 4s 5s 6d 7h", "3d 4d 5d 6h 7c", rules)
    assert beats("4d 5d 6d 7d 8c", "3s 4s 5s 6h 7s", rules)


def test_straight_flush_beats_lower_straight_flush_and_everything_else():
    assert beats("8s 9s Ts Js Qs", "3h 4h 5h 6h 7h")
    assert classify("8s 9s Ts Js Qs").kind == Kind.STRAIGHT_FLUSH
    assert beats("3d 4d 5d 6d 7d", "2s 2h 2c 2d Ks")
    assert beats("3c 3d 3h 3s 4d", "Ks Kh Kd Qs Qh")
    assert beats("4c 4d 4h 5s 5d", "2s 4s 6s 8s Ts")
    assert beats("2s 4s 6s 8s Ts", "Ad Kc Qh Js Td")
    # poker straight flush A-2-3-4-5 is a flush under rank-order
    assert classify("Ah 2h 3h 4h 5h").kind == Kind.FLUSH
    assert classify("Ah 2h 3h 4h 5h", {"straights": "poker"}).kind == Kind.STRAIGHT_FLUSH


def test_flush_order_options():
    high_rank_low_suit = "Kd 9d 7d 5d 3d"
    low_rank_high_suit = "Qs 9s 7s 5s 3s"
    assert beats(high_rank_low_suit, low_rank_high_suit, {"flush_order": "rank"})
    assert beats(low_rank_high_suit, high_rank_low_suit, {"flush_order": "suit"})
    # rank order compares the next card down, ..., then the suit of the highest card
    assert beats("Kd Jd 7d 5d 3d", "Ks Ts 9s 5s 3s")
    assert beats("Kc Jc 7c 5c 4c", "Kd Jd 7d 5d 3d")
    assert beats("Kh Jh 7h 5h 3h", "Kc Jc 7c 5c 3c")
    assert not beats("Kc Jc 7c 5c 3c", "Kh Jh 7h 5h 3h")
    # suit first, then ranks
    suit = {"flush_order": "suit"}
    assert beats("3h 5h 7h 9h Jh", "Ac Kc Qc Jc 9c", suit)
    assert not beats("3h 5h 7h 9h Jh", "Ac Kc Qc Jc 9c")
    assert beats("Kc Jc 7c 5c 4c", "Qc Jc 7c 5c 3c", suit)
    assert not beats("Qc Jc 7c 5c 3c", "Kc Jc 7c 5c 4c", suit)


def test_four_of_a_kind_alone_is_illegal():
    with pytest.raises(IllegalMoveError, match="not a combination"):
        classify("7s 7h 7d 7c")
    assert all(m.size != 4 for m in legal_moves("7s 7h 7d 7c 8d"))
    assert "7d 7c 7h 7s 8d" in [str(m) for m in legal_moves("7s 7h 7d 7c 8d")]
    for bad in ("7s 7h 8d", "7s 8s", "3d 4d 5d 6d", "3d 4c 5h 6s 7d 8c"):
        with pytest.raises(IllegalMoveError):
            classify(bad)


def test_bomb_on_a_single_two():
    hand = "9d 9c 9h 9s 3d 5s 6s 7s 8s Ts"
    lm = legal_moves(hand, current="2s")
    kinds = {m.kind for m in lm}
    assert kinds == {Kind.FOUR_OF_A_KIND, Kind.STRAIGHT_FLUSH}
    assert len(legal_moves(hand, current="2s", rules={"bomb_on_two": False})) == 0
    assert len(legal_moves(hand, current="2s 2h")) == 0  # only a single 2 can be bombed
    assert not beats("9d 9c 9h 9s 3d", "As")  # and only a 2
    assert len(legal_moves(hand, current="As")) == 0


def test_leader_cannot_pass_and_responder_can():
    assert not legal_moves("3d 4d").can_pass
    empty = legal_moves("3d 4d", current="2s")
    assert empty.can_pass and len(empty) == 0


def test_bad_input_names_the_problem():
    with pytest.raises(CardError, match="Zz"):
        legal_moves("3d Zz")
    with pytest.raises(CardError, match="at most 13"):
        legal_moves(list(range(14)))
    with pytest.raises(CardError, match="no cards"):
        legal_moves("")
    with pytest.raises(IllegalMoveError, match="not a combination"):
        legal_moves("3d 4d", current="5d 6c")
    with pytest.raises(IllegalMoveError, match="share"):
        legal_moves("3d 4d", current="4d")
    with pytest.raises(RulesError, match="straights"):
        BigTwoRules(straights="wrap")
    with pytest.raises(RulesError, match="flush_order"):
        legal_moves("3d", rules={"flush_order": "colour"})
    with pytest.raises(RulesError, match="bomb"):
        BigTwoRules.from_options({"bomb": True})
    with pytest.raises(RulesError, match="bomb_on_two"):
        BigTwoRules(bomb_on_two="yes")
    with pytest.raises(RulesError, match="players"):
        BigTwoRules(players=5)
