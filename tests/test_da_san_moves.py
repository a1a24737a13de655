"""Da San combinations and legal moves, checked against plain references that live here."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from solver.cards import format_cards, parse_cards
from solver.errors import CardError, IllegalMoveError, RulesError
from solver.games.da_san import Kind, Move, classify, legal_moves
from solver.games.da_san.rules import DaSanRules

ORDER = "456789TJQKA23"
SET_NAMES = {1: "single", 2: "pair", 3: "trio", 4: "quad"}
RUN_NAMES = {1: "run", 2: "pair_run", 3: "trio_run", 4: "quad_run"}


# ----------------------------------------------------------------- references
def ds_rank(card: int) -> int:
    return ORDER.index(format_cards([card])[0][0])


def ref_classify(cards) -> tuple[str, int, int] | None:
    """(kind, top rank, number of cards) straight from the rules text."""
    counter = Counter(ds_rank(c) for c in cards)
    widths = set(counter.values())
    if len(widths) != 1:
        return None
    width = widths.pop()
    ranks = sorted(counter)
    if len(ranks) == 1:
        return SET_NAMES[width], ranks[0], len(cards)
    consecutive = ranks == list(range(ranks[0], ranks[0] + len(ranks)))
    if len(ranks) >= 3 and consecutive and ORDER[ranks[-1]] not in "A23":
        return RUN_NAMES[width], ranks[-1], len(cards)
    return None


def ref_beats(play, current) -> bool:
    if current is None:
        return True
    return play[0] == current[0] and play[2] == current[2] and play[1] > current[1]


def brute_force(hand, current) -> set[tuple[int, ...]]:
    """Every subset of the hand that is a combination beating ``current`` (cards sorted)."""
    cur = None if current is None else ref_classify(current)
    out = set()
    for k in range(1, len(hand) + 1):
        for subset in combinations(sorted(hand), k):
            c = ref_classify(subset)
            if c is not None and ref_beats(c, cur):
                out.add(subset)
    return out


def rank_count_reference(hand, current) -> Counter:
    """The (kind, top, cards) patterns a hand can play, from its rank counts only."""
    counts = Counter(ds_rank(c) for c in hand)
    cur = None if current is None else ref_classify(current)
    out = Counter()
    for w in range(1, 5):
        for d in range(13):
            if counts[d] >= w:
                out[(SET_NAMES[w], d, w)] += 1
        for n in range(3, 11):
            for top in range(n - 1, 10):
                if all(counts[r] >= w for r in range(top - n + 1, top + 1)):
                    out[(RUN_NAMES[w], top, n * w)] += 1
    return Counter({p: k for p, k in out.items() if ref_beats(p, cur)})


def pattern(cards) -> tuple[int, ...]:
    return tuple(sorted(ds_rank(c) for c in cards))


@st.composite
def hand_and_current(draw, min_size: int, max_size: int):
    size = draw(st.integers(min_size, max_size))
    hand = draw(st.lists(st.integers(0, 51), min_size=size, max_size=size, unique=True))
    if draw(st.booleans()):
        return hand, None
    rest = [c for c in range(52) if c not in hand]
    width = draw(st.integers(1, 4))
    length = draw(st.sampled_from([1, 3, 4, 5]))
    top = draw(st.integers(length - 1 if length > 1 else 0, 9 if length > 1 else 12))
    current = []
    for d in range(top - length + 1, top + 1):
        of_rank = [c for c in rest if ds_rank(c) == d]
        if len(of_rank) < width:
            return hand, None
        current += of_rank[:width]
    return hand, current


# ----------------------------------------------------------------- cross-checks
@given(hand_and_current(1, 14))
def test_legal_moves_equal_brute_force_over_subsets(case):
    hand, current = case
    expected = brute_force(hand, current)
    every = legal_moves(hand, current, all_suits=True)
    plays = [m for m in every if m.cards]
    assert sorted(tuple(sorted(m.cards)) for m in plays) == sorted(expected)  # no duplicates
    assert any(m.is_pass for m in every) == (current is not None)
    for m in plays:
        assert ref_classify(m.cards)[:2] == (m.kind.value, m.strength)
    # default: one move per distinct rank pattern, with cards from the hand
    default = [m for m in legal_moves(hand, current) if m.cards]
    assert sorted(pattern(m.cards) for m in default) == sorted({pattern(s) for s in expected})
    assert all(set(m.cards) <= set(hand) for m in default)


@given(hand_and_current(16, 20))
def test_legal_moves_equal_rank_count_reference_on_big_hands(case):
    hand, current = case
    moves = [m for m in legal_moves(hand, current) if m.cards]
    got = Counter((m.kind.value, m.strength, len(m.cards)) for m in moves)
    assert got == rank_count_reference(hand, current)
    for m in moves:
        assert set(m.cards) <= set(hand)
        assert ref_classify(m.cards) == (m.kind.value, m.strength, len(m.cards))


@given(st.lists(st.integers(0, 51), min_size=16, max_size=20, unique=True))
def test_default_moves_are_sorted_by_kind_size_strength(hand):
    moves = legal_moves(hand)
    keys = [(list(Kind).index(m.kind), len(m.cards), m.strength) for m in moves]
    assert keys == sorted(keys)
    assert len(set(m.cards for m in moves)) == len(moves)


# ----------------------------------------------------------------- the rules file's examples
def c(text: str) -> Move:
    move = classify(text)
    assert move is not None, text
    return move


def test_rules_example_on_6_7_8_9():
    current = c("6c 7c 8c 9c")
    assert c("7d 8d 9d Td").beats(current)
    assert c("Td Jd Qd Kd").beats(current)
    assert not c("8d 9d Td Jd Qd").beats(current)  # too many cards
    assert not c("6d 7d 8d 9d").beats(current)  # not higher
    assert not c("Jc Jd Jh Js").beats(current)  # other kind
    hand = parse_cards("6d 7d 8d 9d Td Jd Qd Kd Jc Jh Js")
    plays = {tuple(m.labels) for m in legal_moves(hand, "6c 7c 8c 9c", all_suits=True) if m.cards}
    assert ("7d", "8d", "9d", "Td") in plays and ("Td", "Jd", "Qd", "Kd") in plays
    assert all(len(p) == 4 for p in plays)
    assert ("6d", "7d", "8d", "9d") not in plays
    assert ("Jc", "Jd", "Jh", "Js") not in plays


@pytest.mark.parametrize("cards", [
    "Qc Kc Ac", "Kc Ac 2c", "Ac 2c 3c", "2c 3c 4c", "3c 4c 5c", "Jc Qc Kc Ac",
    "Qc Qd Kc Kd Ac Ad", "Kc Kd Kh Ac Ad Ah 2c 2d 2h", "Kc Kd Kh Ks Ac Ad Ah As 2c 2d 2h 2s",
])
def test_runs_never_use_a_2_or_3(cards):
    assert classify(cards) is None


@given(st.integers(1, 4), st.integers(3, 13), st.integers(0, 12))
def test_any_run_reaching_a_2_or_3_is_illegal(width, length, low):
    assume(low + length - 1 > 9)
    ranks = [(low + i) % 13 for i in range(length)]
    cards = [ORDER[d] + "cdhs"[s] for d in ranks for s in range(width)]
    if len(set(cards)) == len(cards):
        assert classify(cards) is None


@pytest.mark.parametrize("cards", ["4c 5c", "4c 4d 5c 5d", "Qh Kh", "4c 6c 7c", "4c 5c 7c 8c"])
def test_two_ranks_or_gaps_are_no_run(cards):
    assert classify(cards) is None


@pytest.mark.parametrize("cards", ["4c 4d 4h 5c", "4c 4d 4h 5c 5d", "4c 4d 4h 4s 5c 5d",
                                   "4c 4d 5c 5d 6c", "Kc Kd Kh 3s"])
def test_no_kickers(cards):
    assert classify(cards) is None


def test_quads_beat_only_higher_quads():
    quad5 = c("5c 5d 5h 5s")
    assert quad5.kind is Kind.QUAD and quad5.beats(c("4c 4d 4h 4s"))
    assert not c("4c 4d 4h 4s").beats(quad5)
    for other in ("4c", "4c 4d", "4c 4d 4h", "6c 7c 8c 9c", "6c 6d 7c 7d 8c 8d"):
        assert not quad5.beats(c(other))
        assert not c(other).beats(quad5)
    hand = "5c 5d 5h 5s Kc Kd"
    assert [m.labels for m in legal_moves(hand, "4c 4d") if m.cards] == \
        [["5c", "5d"], ["Kc", "Kd"]]
    assert [m.labels for m in legal_moves(hand, "4c 4d 4h 4s") if m.cards] == [["5c", "5d", "5h", "5s"]]
    assert [m.labels for m in legal_moves("5c 5d 5h 5s", "3c") if m.cards] == []


def test_the_three_is_highest_and_the_four_lowest():
    assert c("3c").beats(c("2c")) and c("2c").beats(c("Ac")) and c("5c").beats(c("4d"))
    assert c("3c").strength == 12 and c("4c").strength == 0


def test_pinned_leads_of_4445556667_78():
    hand = "4c 4d 4h 5c 5d 5h 6c 6d 6h 7c 7d 8c"
    expected = [
        ("single", "4c"), ("single", "5c"), ("single", "6c"), ("single", "7c"), ("single", "8c"),
        ("pair", "4c 4d"), ("pair", "5c 5d"), ("pair", "6c 6d"), ("pair", "7c 7d"),
        ("trio", "4c 4d 4h"), ("trio", "5c 5d 5h"), ("trio", "6c 6d 6h"),
        ("run", "4c 5c 6c"), ("run", "5c 6c 7c"), ("run", "6c 7c 8c"),
        ("run", "4c 5c 6c 7c"), ("run", "5c 6c 7c 8c"),
        ("run", "4c 5c 6c 7c 8c"),
        ("pair_run", "4c 4d 5c 5d 6c 6d"), ("pair_run", "5c 5d 6c 6d 7c 7d"),
        ("pair_run", "4c 4d 5c 5d 6c 6d 7c 7d"),
        ("trio_run", "4c 4d 4h 5c 5d 5h 6c 6d 6h"),
    ]
    got = [(m.kind.value, " ".join(m.labels)) for m in legal_moves(hand)]
    assert got == expected


def test_all_suits_lists_every_card_choice():
    moves = legal_moves("4c 4d 4h 5c", all_suits=True)
    assert [" ".join(m.labels) for m in moves] == [
        "4c", "4d", "4h", "5c", "4c 4d", "4c 4h", "4d 4h", "4c 4d 4h"]


def test_moves_are_immutable_values():
    m = c("9c Tc Jc")
    assert (m.kind, m.strength, m.top, m.length) == (Kind.RUN, 7, "J", 3)
    with pytest.raises(AttributeError):
        m.kind = Kind.PAIR  # type: ignore[misc]
    assert m == Move(m.cards, Kind.RUN, 7) and hash(m) == hash(Move(m.cards, Kind.RUN, 7))
    assert legal_moves("9c Tc Jc")[-1] == m


def test_leader_cannot_pass_and_follower_can():
    assert not any(m.is_pass for m in legal_moves("4c 5d"))
    assert legal_moves("4c 5d", "3c")[-1].is_pass
    assert legal_moves("4c 5d", "")[-1].cards  # an empty current is a lead


def test_bad_input_is_reported():
    with pytest.raises(CardError, match="hand: unknown card 'Zz'"):
        legal_moves("4c Zz")
    with pytest.raises(CardError, match="duplicate"):
        legal_moves("4c 4c")
    with pytest.raises(CardError, match="at most 20"):
        legal_moves(list(range(21)))
    with pytest.raises(CardError, match="no cards"):
        legal_moves("")
    with pytest.raises(IllegalMoveError, match="not a Da San combination"):
        legal_moves("4c", current="5c 6c")
    with pytest.raises(CardError, match="also in the hand"):
        legal_moves("4c 5c", current="4c")
    with pytest.raises(RulesError):
        DaSanRules.from_options({"kickers": True})
    with pytest.raises(RulesError):
        DaSanRules(min_run=1)


def test_min_run_option():
    assert classify("4c 5c", {"min_run": 2}).kind is Kind.RUN
    assert any(len(m.cards) == 2 and m.kind is Kind.RUN
               for m in legal_moves("4c 5c", rules={"min_run": 2}))


def test_a_forged_current_move_is_refused():
    real = c("5c 6c 7c")
    assert legal_moves("8c 8d", real)[-1].is_pass
    with pytest.raises(IllegalMoveError, match="not a pair"):
        legal_moves("8c 8d", Move(real.cards, Kind.PAIR, real.strength))
    with pytest.raises(IllegalMoveError):
        legal_moves("8c 8d", Move((), Kind.BID, 2))
    assert legal_moves("8c", Move((), Kind.PASS, 0)) == [c("8c")]
