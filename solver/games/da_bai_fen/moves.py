"""Da Bai Fen trick play: legal leads and follows, legality with a reason, trick winners.

A play is a tuple of card ids, high to low in the hand's order; each set of cards is listed
once (the order of cards inside a play never matters). A trick is the list of plays made so
far, the lead first.

Enumeration is bounded by the hand: a hand holds at most 12 cards (the rules' hand size;
longer hands are an error), so there are at most 4,095 leads (every subset of one suit of
12 cards) and at most C(12, 6) = 924 follows. :func:`count_plays` gives the number without
listing, and ``max_plays`` turns a larger answer into an error.

>>> from solver.cards import parse_cards, format_cards
>>> t = Trump.parse("2", "s")
>>> hand = parse_cards("Ah 2h 5c", allow_jokers=True)
>>> [format_cards(p) for p in legal_plays(hand, [parse_cards("Kh")], t)]
[['Ah']]
>>> [format_cards(p) for p in legal_plays(parse_cards("2h 5c"), [parse_cards("Kh")], t)]
[['2h'], ['5c']]
>>> trick_winner([parse_cards("2c"), parse_cards("2d")], t)
0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from solver.cards import cards_twice, format_card, parse_cards
from solver.errors import InputError
from solver.games.da_bai_fen.cards import HAND_SIZE, NUM_PLAYERS, Trump, points_of

Play = tuple[int, ...]


@dataclass(frozen=True)
class Verdict:
    """The answer of :func:`is_legal`: truthy when legal, else ``reason`` says why."""

    ok: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.ok


LEGAL = Verdict(True)


# ------------------------------------------------------------------ input normalisation
def _cards(cards: Iterable[object], what: str) -> list[int]:
    try:
        return parse_cards(cards, allow_jokers=True)
    except InputError as exc:
        raise type(exc)([f"{what}: {p}" for p in exc.problems]) from None


def normalize_trick(trick: Sequence[Iterable[object]] | None, trump: Trump) -> list[list[int]]:
    """Parse and check a trick: a legal lead, equal counts, no card twice, at most 4 plays."""
    if trick is None:
        return []
    plays = [_cards(p, f"trick play {i + 1}") for i, p in enumerate(trick)]
    problems: list[str] = []
    if len(plays) > NUM_PLAYERS:
        problems.append(f"a trick has at most {NUM_PLAYERS} plays, got {len(plays)}")
    if plays:
        lead = plays[0]
        if not lead:
            problems.append("the lead is empty")
        elif len(lead) > HAND_SIZE:
            problems.append(f"the lead has {len(lead)} cards, more than a hand of {HAND_SIZE}")
        elif len({trump.eff[c] for c in lead}) > 1:
            problems.append("the lead mixes suits: a group must be of one suit "
                            "(trumps count as one)")
        for i, p in enumerate(plays[1:], start=2):
            if len(p) != len(lead):
                problems.append(f"trick play {i} has {len(p)} cards, the lead has {len(lead)}")
    problems += cards_twice(plays, "played", labels=[f"trick play {i + 1}" for i in range(len(plays))])
    if problems:
        raise InputError(problems)
    return plays


def _hand(hand: Iterable[object], trick: list[list[int]]) -> list[int]:
    cards = _cards(hand, "hand")
    problems = []
    if not cards:
        problems.append("the hand is empty")
    if len(cards) > HAND_SIZE:
        problems.append(f"a hand holds at most {HAND_SIZE} cards, got {len(cards)}")
    in_trick = {c for p in trick for c in p}
    for c in cards:
        if c in in_trick:
            problems.append(f"card {format_card(c)!r} is both in the hand and in the trick")
    if trick:
        if len(trick) >= NUM_PLAYERS:
            problems.append("the trick is complete: nobody is left to play")
        elif len(cards) < len(trick[0]):
            problems.append(f"the hand has {len(cards)} cards, fewer than the {len(trick[0])} led")
    if problems:
        raise InputError(problems)
    return cards


# ------------------------------------------------------------------ enumeration
def _by_suit(hand: Sequence[int], trump: Trump) -> dict[int, list[int]]:
    groups: dict[int, list[int]] = {}
    for c in trump.sort(hand):
        groups.setdefault(trump.eff[c], []).append(c)
    return groups


def lead_plays(hand: Sequence[int], trump: Trump) -> list[Play]:
    """Every lead from card ids (no checks): each single card, then each group of 2+ cards
    of one effective suit, smallest groups first."""
    groups = _by_suit(hand, trump)
    plays: list[Play] = [(c,) for c in trump.sort(hand)]
    longest = max((len(g) for g in groups.values()), default=0)
    for k in range(2, longest + 1):
        for g in groups.values():
            plays.extend(combinations(g, k))
    return plays


def follow_plays(hand: Sequence[int], led_suit: int, count: int, trump: Trump) -> list[Play]:
    """Every follow of ``count`` cards to a lead of ``led_suit`` (card ids, no checks)."""
    ordered = trump.sort(hand)
    same = [c for c in ordered if trump.eff[c] == led_suit]
    if len(same) >= count:
        return list(combinations(same, count))
    rest = [c for c in ordered if trump.eff[c] != led_suit]
    head = tuple(same)
    return [tuple(trump.sort(head + fill)) for fill in combinations(rest, count - len(same))]


def _count(hand: Sequence[int], trick: list[list[int]], trump: Trump) -> int:
    if not trick:
        sizes = [len(g) for g in _by_suit(hand, trump).values()]
        return len(hand) + sum(2**n - 1 - n for n in sizes)
    k = len(trick[0])
    m = sum(1 for c in hand if trump.eff[c] == trump.eff[trick[0][0]])
    return comb(m, k) if m >= k else comb(len(hand) - m, k - m)


def count_plays(hand: Iterable[object], trick: Sequence[Iterable[object]] | None = None,
                trump: Trump | None = None) -> int:
    """How many plays :func:`legal_plays` would list, computed without listing them."""
    trump = _need_trump(trump)
    t = normalize_trick(trick, trump)
    return _count(_hand(hand, t), t, trump)


def legal_plays(hand: Iterable[object], trick: Sequence[Iterable[object]] | None = None,
                trump: Trump | None = None, rules: object = None, *,
                max_plays: int | None = None) -> list[Play]:
    """Every legal play of ``hand`` (card ids or strings) to ``trick`` (None or [] to lead).

    ``rules`` is accepted for a uniform signature (no rule option changes the legal plays).
    With ``max_plays``, a longer answer raises :class:`InputError` before anything is listed.
    """
    trump = _need_trump(trump)
    t = normalize_trick(trick, trump)
    cards = _hand(hand, t)
    if max_plays is not None:
        n = _count(cards, t, trump)
        if n > max_plays:
            raise InputError(f"{n} legal plays, more than max_plays={max_plays}")
    if not t:
        return lead_plays(cards, trump)
    return follow_plays(cards, trump.eff[t[0][0]], len(t[0]), trump)


def _need_trump(trump: Trump | None) -> Trump:
    if not isinstance(trump, Trump):
        raise InputError("a trump (rank and suit) is required")
    return trump


# ------------------------------------------------------------------ legality
def check_play(play: Sequence[int], hand: Sequence[int], trick: Sequence[Sequence[int]],
               trump: Trump) -> Verdict:
    """Legality of card ids against a checked hand and trick (the engine's fast path)."""
    if not play:
        return Verdict(False, "a play needs at least one card")
    if len(set(play)) != len(play):
        return Verdict(False, "a card is played twice")
    held = set(hand)
    missing = [format_card(c) for c in play if c not in held]
    if missing:
        return Verdict(False, f"not in the hand: {' '.join(missing)}")
    eff = trump.eff
    if not trick:
        if len({eff[c] for c in play}) > 1:
            return Verdict(False, "a lead of several cards must be of one suit "
                                  "(trumps count as one)")
        return LEGAL
    k = len(trick[0])
    if len(play) != k:
        return Verdict(False, f"must play {k} card{'s' if k > 1 else ''}, as many as were led")
    led = eff[trick[0][0]]
    need = min(k, sum(1 for c in hand if eff[c] == led))
    have = sum(1 for c in play if eff[c] == led)
    if have < need:
        return Verdict(False, f"must play {need} card{'s' if need > 1 else ''} of the led suit "
                              f"({trump.suit_name(led)}), played {have}")
    return LEGAL


def is_legal(play: Iterable[object], hand: Iterable[object],
             trick: Sequence[Iterable[object]] | None = None, trump: Trump | None = None,
             rules: object = None) -> Verdict:
    """Whether ``play`` is legal; the :class:`Verdict` is falsy with a reason when it is not.

    Malformed input (unknown cards, a broken trick) raises :class:`InputError` instead.
    """
    trump = _need_trump(trump)
    t = normalize_trick(trick, trump)
    cards = _hand(hand, t)
    return check_play(parse_cards(play, allow_jokers=True, allow_duplicates=True), cards, t, trump)


# ------------------------------------------------------------------ winners
def winner_index(trick: Sequence[Sequence[int]], trump: Trump) -> int:
    """Index (0 = leader) of the play winning a checked trick so far."""
    s, eff, ts = trump.strength, trump.eff, trump.suit
    lead = trick[0]
    if len(lead) == 1:
        best, w = 0, lead[0]
        for i in range(1, len(trick)):
            c = trick[i][0]
            if (eff[c] == eff[w] and s[c] > s[w]) or (eff[c] == ts and eff[w] != ts):
                best, w = i, c
        return best
    led = eff[lead[0]]
    if led == ts:
        return 0
    best, top = 0, -1
    for i in range(1, len(trick)):
        play = trick[i]
        if all(eff[c] == ts for c in play):  # all trumps, hence void in the led suit
            high = max(s[c] for c in play)
            if high > top:
                best, top = i, high
    return best


def trick_winner(trick: Sequence[Iterable[object]], trump: Trump) -> int:
    """Index (0 = leader) of the play that wins ``trick`` (complete or partial) so far.

    Single cards: the highest trump, else the highest card of the led suit; equal off-suit
    trump-rank cards: the first played. Groups: the leader, unless a follower void in the
    led suit played only trumps; the highest such group by its highest card, ties to the
    earlier player. The plays are assumed legal (only their shape is checked).
    """
    trump = _need_trump(trump)
    t = normalize_trick(trick, trump)
    if not t:
        raise InputError("the trick is empty")
    return winner_index(t, trump)


def trick_points(trick: Sequence[Iterable[object]]) -> int:
    """Points in the cards of a trick."""
    return sum(points_of(_cards(p, "trick")) for p in trick)
