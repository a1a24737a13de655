"""Da Bai Fen value network: what a seat sees and a candidate move in, expected levels out.

A :class:`~solver.games.valuenet.ValueNet` (numpy MLP) estimates ``Q(s, a)``: the value the
seat to act ends the hand with (the levels its team gains minus the other team's, plus
:data:`POINT_WEIGHT` per point of the defenders' total on its side, as the search values a
hand) if it makes move ``a`` now from what it sees ``s`` and everyone plays on as in
self-play; trained by deep Monte Carlo on self-play hands (:mod:`solver.games.da_bai_fen.train`).
One network makes every decision: show / no-show while drawing, each card to bury, and every
lead and follow, groups included.

Cards enter in a trump-relative order, so one pattern means the same whatever the trump:
the trump suit's 12 plain cards, the three other suits' 12 each (in suit order after the
trump suit), the three other trump-rank cards, the trump-rank card of the trump suit, the
small and the big joker (54 slots). While drawing, before a trump suit is fixed, suits keep
their own order; a candidate show is valued from the seat's cards laid out as if its suit
were trump (that is what the show would make it).

What a seat sees (nothing hidden): the phase, the trump rank and suit, who leads, deals and
showed, its hand, the cards each seat has played, the cards still unseen (the buried kitty
is among them for everyone but the leader, who sees it), the shown and turned cards not yet
played, the suits each other seat has shown void in, the trick so far (the lead, the play
winning it, who made it, the led suit and size), the points each side has taken and, for the
leader, the points it buried; and in sums: its cards and the unseen ones per suit, the points
in its hand and unseen. A candidate move: its kind, its cards, their points and size,
whether it leads, its suit, whether it would win the trick now, and how many unseen cards of
its suit beat its top card.

Candidates (:func:`net_moves`): every show / no-show and every card to bury; every follow when
there are at most :data:`FOLLOW_CAP`, else a short list (the cheapest, the strongest, the most
points, trumps kept or spent, a trump group to win a void suit); and as leads every single
card and, per suit, its top k and bottom k cards as a group (a hand of 12 has up to 4,095
leads, almost all of them pointless splits of a suit).

>>> from solver.games.da_bai_fen.engine import new_hand
>>> net = DaBaiFenNet.initial(seed=0, hidden=(8,))
>>> state = new_hand(seed=1)
>>> NetBot(net).choose_play(state) in state.legal_moves()
True
"""

from __future__ import annotations

import functools
import random
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from solver.cards import BIG_JOKER, SMALL_JOKER, is_joker, rank_of, suit_of
from solver.errors import InputError
from solver.games.da_bai_fen.cards import DECK_SIZE, NUM_PLAYERS, Trump, card_points
from solver.games.da_bai_fen.engine import (
    DaBaiFenRules,
    DaBaiFenState,
    Kind,
    Move,
    Phase,
    Trick,
)
from solver.games.da_bai_fen.moves import follow_plays, winner_index
from solver.games.da_bai_fen.view import View, legal_count
from solver.games.search import observation_errors
from solver.games.valuenet import ValueNet, offsets

__all__ = ["DEFAULT_NET", "FOLLOW_CAP", "FORMAT", "MOVE_FEATURES", "POINT_WEIGHT",
           "STATE_FEATURES", "DaBaiFenNet", "NetBot", "Seen", "default_net", "hand_value",
           "legal_q", "load", "net_candidates", "net_moves", "same_move", "seen_from_state",
           "seen_from_view", "state_features"]

FORMAT = "capsa-da-bai-fen-qnet/1"
POINT_SCALE = 2.0  # a hand moves the levels by at most 2 each way
POINT_WEIGHT = 0.01  # value per point of the defenders' total (the search's gradient)
FOLLOW_CAP = 24  # follows listed in full up to this many; beyond, a short list
RANKS = 13
MAX_HELD = 18  # the leader holds 18 cards while burying
_PHASES = (Phase.DRAW, Phase.BURY, Phase.PLAY)
_KINDS = (Kind.SHOW, Kind.NO_SHOW, Kind.BURY, Kind.PLAY)
#: Feature blocks of what the seat sees, in order (name, width).
STATE_LAYOUT: tuple[tuple[str, int], ...] = (
    ("phase", 3), ("trump_fixed", 1), ("trump_rank", RANKS), ("first_hand", 1), ("drawn", 1),
    ("role", 3), ("leader", NUM_PLAYERS), ("dealer", NUM_PLAYERS), ("shower", NUM_PLAYERS + 1),
    ("kitty_multiplier", 1),
    ("hand", DECK_SIZE), ("hand_size", MAX_HELD + 1),
    ("played_own", DECK_SIZE), ("played_next", DECK_SIZE), ("played_partner", DECK_SIZE),
    ("played_prev", DECK_SIZE), ("unseen", DECK_SIZE), ("buried", DECK_SIZE),
    ("public", DECK_SIZE), ("voids", 3 * 4), ("suit_counts", 2 * 4), ("hand_points", 1),
    ("unseen_points", 1),
    ("trick_lead", DECK_SIZE), ("trick_best", DECK_SIZE), ("trick_size", RANKS),
    ("trick_suit", 5), ("trick_position", NUM_PLAYERS), ("trick_winner", NUM_PLAYERS),
    ("partner_winning", 1), ("trick_points", 1),
    ("defenders_points", 1), ("defenders_bands", 4), ("declarers_points", 1),
    ("buried_points", 1),
)
#: Feature blocks of a candidate move.
MOVE_LAYOUT: tuple[tuple[str, int], ...] = (
    ("kind", len(_KINDS)), ("cards", DECK_SIZE), ("size", RANKS), ("points", 1),
    ("lead", 1), ("suit", 5), ("all_trumps", 1), ("wins_now", 1), ("team_wins_now", 1),
    ("beaten_by", 1), ("led_suit_cards", 1),
)
DEFAULT_NET = Path(__file__).resolve().parent / "data" / "qnet.npz"
_OFF = offsets(STATE_LAYOUT)
_MOFF = offsets(MOVE_LAYOUT)
_BANDS = (5, 40, 80, 100)  # the level table's steps of the defenders' total
_P = tuple(card_points(c) for c in range(DECK_SIZE))


class DaBaiFenNet(ValueNet):
    """Da Bai Fen's network (:class:`~solver.games.valuenet.ValueNet` with this layout)."""

    GAME = "Da Bai Fen"
    FORMAT = FORMAT
    STATE_LAYOUT = STATE_LAYOUT
    MOVE_LAYOUT = MOVE_LAYOUT
    POINT_SCALE = POINT_SCALE


STATE_FEATURES = DaBaiFenNet.state_width()
MOVE_FEATURES = DaBaiFenNet.move_width()


def load(path: str | Path) -> DaBaiFenNet:
    """A network file (``InputError`` naming the problem if it is not one for this layout)."""
    return DaBaiFenNet.load(path)


@functools.cache
def default_net() -> DaBaiFenNet:
    """The shipped network (loaded once)."""
    return load(DEFAULT_NET)


@functools.cache
def slots(rank: int, suit: int | None) -> tuple[int, ...]:
    """Each card's place in the trump-relative order (54 ints); ``suit`` None while no
    trump suit is fixed (suits keep their own order)."""
    out = [0] * DECK_SIZE
    for c in range(DECK_SIZE):
        if c == SMALL_JOKER:
            out[c] = 52
        elif c == BIG_JOKER:
            out[c] = 53
        else:
            r, s = rank_of(c), suit_of(c)
            rel = s if suit is None else (s - suit) % 4
            if r == rank:
                out[c] = 48 + (rel if suit is None else (3 if rel == 0 else rel - 1))
            else:
                out[c] = rel * 12 + (r if r < rank else r - 1)
    return tuple(out)


def hand_value(state: DaBaiFenState, seat: int) -> float:
    """A finished hand's value for ``seat``: levels gained by its team minus the other's,
    plus :data:`POINT_WEIGHT` per point of the defenders' total on its side."""
    r = state.result
    if r is None:
        raise InputError("a hand's value is known once it is over")
    sign = 1 if seat % 2 != r.declarers else -1
    return state.returns()[seat] + POINT_WEIGHT * sign * r.defenders_points


@dataclass
class Seen:
    """What one seat sees, as the features need it (from an engine state or an observation)."""

    seat: int
    phase: Phase
    hand: Sequence[int]
    trump_rank: int
    trump: Trump | None
    leader: int | None
    dealer: int
    first_hand: bool
    drawn: int
    shown: tuple[int, int] | None
    revealed: Sequence[int]
    buried: Sequence[int] | None  # the leader's own buried cards; None for the others
    trick: Sequence[tuple[int, ...]]
    trick_leader: int
    tricks: Sequence[Trick]
    team_points: Sequence[int]
    rules: DaBaiFenRules


def seen_from_state(state: DaBaiFenState) -> Seen:
    """The seat to act's view of a :class:`~solver.games.da_bai_fen.engine.DaBaiFenState`."""
    p = state.current_player
    leads = p == state.leader and state.phase is not Phase.DRAW
    return Seen(p, state.phase, state.hands[p], state.trump_rank, state.trump, state.leader,
                state.dealer, state.first_hand, state.drawn, state.shown, state.revealed,
                state.buried if leads else None, state.trick,
                state.trick_leader if state.phase is Phase.PLAY else -1, state.tricks,
                state.team_points, state.rules)


def seen_from_view(view: View) -> Seen:
    """What the network reads, from the observation's view."""
    return Seen(view.seat, view.phase, view.mine, view.trump_rank, view.trump, view.leader,
                view.dealer, view.first_hand, view.drawn, view.shown, view.revealed,
                view.buried if view.phase is not Phase.DRAW else None, view.trick,
                view.trick_leader, view.tricks, view.team_points, view.rules)


def _rounds(seen: Seen) -> list[tuple[int, Sequence[tuple[int, ...]]]]:
    rounds: list[tuple[int, Sequence[tuple[int, ...]]]] = [(t.leader, t.plays)
                                                           for t in seen.tricks]
    if seen.trick:
        rounds.append((seen.trick_leader, seen.trick))
    return rounds


def _known(seen: Seen) -> set[int]:
    """The cards the seat knows the place of: its hand, every card played, its buried ones."""
    known = set(seen.hand)
    for _, plays in _rounds(seen):
        for play in plays:
            known.update(play)
    if seen.buried is not None:
        known.update(seen.buried)
    return known


def _state_row(seen: Seen, trump: Trump | None, known: set[int],
               hypothetical: bool = False) -> np.ndarray:
    """The state block; ``known``: :func:`_known` of ``seen``."""
    x = np.zeros(STATE_FEATURES, np.float32)
    on: list[int] = []  # the features set to 1
    seat = seen.seat
    rank = seen.trump_rank
    slot = slots(rank, None if trump is None else trump.suit)
    on.append(_OFF["phase"] + _PHASES.index(seen.phase))
    x[_OFF["trump_fixed"]] = float(trump is not None)
    on.append(_OFF["trump_rank"] + rank)
    x[_OFF["first_hand"]] = float(seen.first_hand)
    x[_OFF["drawn"]] = seen.drawn / 48.0
    leader = seen.leader
    if hypothetical and seen.first_hand:
        leader = seat  # a show in the first hand makes the seat the leader
    if leader is not None:
        on.append(_OFF["role"])
        x[_OFF["role"] + 1] = float(leader % 2 == seat % 2)
        x[_OFF["role"] + 2] = float(leader == seat)
        on.append(_OFF["leader"] + (leader - seat) % NUM_PLAYERS)
    on.append(_OFF["dealer"] + (seen.dealer - seat) % NUM_PLAYERS)
    shower = seat if hypothetical else (None if seen.shown is None else seen.shown[0])
    on.append(_OFF["shower"] + (NUM_PLAYERS if shower is None
                                else (shower - seat) % NUM_PLAYERS))
    x[_OFF["kitty_multiplier"]] = seen.rules.kitty_multiplier / 2.0
    hand = seen.hand
    o = _OFF["hand"]
    on.extend(o + slot[c] for c in hand)
    on.append(_OFF["hand_size"] + min(len(hand), MAX_HELD))
    rounds = _rounds(seen)
    played_at = (_OFF["played_own"], _OFF["played_next"], _OFF["played_partner"],
                 _OFF["played_prev"])
    for lead_seat, plays in rounds:
        for i, play in enumerate(plays):
            o = played_at[(lead_seat + i - seat) % NUM_PLAYERS]
            on.extend(o + slot[c] for c in play)
    buried = seen.buried
    if buried is not None:
        o = _OFF["buried"]
        on.extend(o + slot[c] for c in buried)
        x[_OFF["buried_points"]] = sum(_P[c] for c in buried) / 20.0
    o = _OFF["unseen"]
    unseen = [c for c in range(DECK_SIZE) if c not in known]
    on.extend(o + slot[c] for c in unseen)
    counts = [0] * 8  # the seat's cards and the unseen ones per suit (trumps first)
    for k, cards in ((0, hand), (4, unseen)):
        for c in cards:
            b = slot[c] // 12
            if b < 4:
                counts[k + b] += 1
            elif trump is not None:
                counts[k] += 1
    o = _OFF["suit_counts"]
    x[o:o + 8] = counts
    x[o:o + 8] /= 12.0
    x[_OFF["hand_points"]] = sum(_P[c] for c in hand) / 100.0
    x[_OFF["unseen_points"]] = sum(_P[c] for c in unseen) / 100.0
    public = set(seen.revealed)
    if seen.shown is not None:
        public.add(seen.shown[1])
    o = _OFF["public"]
    on.extend(o + slot[c] for c in public if c not in known)
    if trump is not None and not hypothetical:
        eff, ts = trump.eff, trump.suit
        for lead_seat, plays in rounds:
            led, k = eff[plays[0][0]], len(plays[0])
            for i in range(1, len(plays)):
                rel = (lead_seat + i - seat) % NUM_PLAYERS
                if rel and sum(1 for c in plays[i] if eff[c] == led) < k:
                    on.append(_OFF["voids"] + (rel - 1) * 4 + (led - ts) % 4)
        trick = seen.trick
        if trick:
            lead = trick[0]
            o = _OFF["trick_lead"]
            on.extend(o + slot[c] for c in lead)
            wi = winner_index(trick, trump)
            o = _OFF["trick_best"]
            on.extend(o + slot[c] for c in trick[wi])
            on.append(_OFF["trick_size"] + min(len(lead), RANKS - 1))
            on.append(_OFF["trick_suit"] + 1 + (eff[lead[0]] - ts) % 4)
            on.append(_OFF["trick_winner"] + (seen.trick_leader + wi - seat) % NUM_PLAYERS)
            x[_OFF["partner_winning"]] = float((seen.trick_leader + wi) % 2 == seat % 2)
            x[_OFF["trick_points"]] = sum(_P[c] for p in trick for c in p) / 20.0
        else:
            on.append(_OFF["trick_suit"])
        on.append(_OFF["trick_position"] + len(trick))
    if leader is not None:
        d = leader % 2
        defenders = seen.team_points[1 - d]
        x[_OFF["defenders_points"]] = defenders / 100.0
        for i, band in enumerate(_BANDS):
            x[_OFF["defenders_bands"] + i] = float(defenders >= band)
        x[_OFF["declarers_points"]] = seen.team_points[d] / 100.0
    x[on] = 1.0
    return x


def state_features(seen: Seen) -> np.ndarray:
    """The state block (float32, ``STATE_FEATURES`` wide) of what the seat sees now."""
    return _state_row(seen, seen.trump, _known(seen))


_M_KIND, _M_CARDS, _M_SIZE, _M_POINTS, _M_LEAD, _M_SUIT, _M_ALL_TRUMPS, _M_WINS, _M_TEAM, \
    _M_BEATEN, _M_LED = (_MOFF[name] for name, _ in MOVE_LAYOUT)


def _move_rows(seen: Seen, moves: Sequence[Move], trump: Trump | None,
               unseen: Sequence[int]) -> np.ndarray:
    """One row per move (the features set as (flat index, value) pairs, then at once)."""
    x = np.zeros((len(moves), MOVE_FEATURES), np.float32)
    at: list[int] = []
    val: list[float] = []
    slot = slots(seen.trump_rank, None if trump is None else trump.suit)
    trick = seen.trick
    if trump is not None:
        eff, s, ts = trump.eff, trump.strength, trump.suit
        above: dict[int, list[int]] = {}  # the unseen strengths of each suit, sorted
        for c in unseen:
            above.setdefault(eff[c], []).append(s[c])
        for v in above.values():
            v.sort()
        led = eff[trick[0][0]] if trick else -1
        team = seen.seat % 2
    for i, move in enumerate(moves):
        base = i * MOVE_FEATURES
        at.append(base + _M_KIND + _KINDS.index(move.kind))
        val.append(1.0)
        cards = move.cards
        if not cards:
            continue
        n = len(cards)
        at.extend(base + _M_CARDS + slot[c] for c in cards)
        val.extend([1.0] * n)
        at += [base + _M_SIZE + min(n, RANKS - 1), base + _M_POINTS]
        val += [1.0, sum(_P[c] for c in cards) / 20.0]
        if move.kind is not Kind.PLAY or trump is None:
            continue
        suits = {eff[c] for c in cards}
        top = max(cards, key=s.__getitem__)
        higher = above.get(eff[top], [])
        at += [base + _M_LEAD,
               base + (_M_SUIT + 1 + (next(iter(suits)) - ts) % 4 if len(suits) == 1
                       else _M_SUIT),
               base + _M_ALL_TRUMPS, base + _M_BEATEN]
        val += [float(not trick), 1.0, float(suits == {ts}),
                (len(higher) - bisect_right(higher, s[top])) / 12.0]
        at += [base + _M_LED, base + _M_WINS, base + _M_TEAM]
        if trick:
            wi = winner_index([*trick, cards], trump)
            val += [sum(1 for c in cards if eff[c] == led) / n, float(wi == len(trick)),
                    float((seen.trick_leader + wi) % 2 == team)]
        else:
            val += [1.0, 1.0, 1.0]
    x.reshape(-1)[at] = val
    return x


def decision_features(seen: Seen, moves: Sequence[Move]) -> tuple[np.ndarray, np.ndarray]:
    """The state block (one row, or one row per move while drawing, where a show is valued
    as if its suit were trump) and one move row per move."""
    known = _known(seen)
    if seen.phase is Phase.DRAW:
        rows, cols = [], []
        for move in moves:
            trump = None if move.kind is not Kind.SHOW else \
                Trump(seen.trump_rank, suit_of(move.cards[0]))
            rows.append(_state_row(seen, trump, known, hypothetical=trump is not None))
            cols.append(_move_rows(seen, [move], trump, ())[0])
        return np.stack(rows), np.stack(cols)
    unseen = ([c for c in range(DECK_SIZE) if c not in known]
              if seen.phase is Phase.PLAY else [])
    return _state_row(seen, seen.trump, known), _move_rows(seen, moves, seen.trump, unseen)


def legal_q(net: DaBaiFenNet, seen: Seen, moves: Sequence[Move]) -> np.ndarray:
    """``Q`` of each of ``moves`` (legal moves of the seat) from what the seat sees."""
    s, m = decision_features(seen, moves)
    return net.q(s, m)


# ------------------------------------------------------------------ candidates
def lead_groups(hand: Sequence[int], t: Trump) -> list[tuple[int, ...]]:
    """The leads a seat considers: every single card, and per suit its top and bottom runs of
    every length (the search's and the network's candidates alike)."""
    ordered = t.sort(hand)  # high to low
    out: list[tuple[int, ...]] = [(c,) for c in ordered]
    suits: dict[int, list[int]] = {}
    for c in ordered:
        suits.setdefault(t.eff[c], []).append(c)
    for cards in suits.values():
        for k in range(2, len(cards) + 1):
            out.append(tuple(cards[:k]))
            if k < len(cards):
                out.append(tuple(cards[-k:]))
    return out


def _follows(seen: Seen, t: Trump) -> list[tuple[int, ...]]:
    hand, trick = t.sort(seen.hand), seen.trick  # one order whatever the hand's own
    eff, s, ts = t.eff, t.strength, t.suit
    led, k = eff[trick[0][0]], len(trick[0])
    same = [c for c in hand if eff[c] == led]
    rest = [c for c in hand if eff[c] != led]
    m = len(same)
    count = comb(m, k) if m >= k else comb(len(hand) - m, k - m)
    if count <= FOLLOW_CAP:
        return follow_plays(hand, led, k, t)
    keys = (lambda c: (_P[c], s[c], c), lambda c: (-s[c], c), lambda c: (-_P[c], s[c], c),
            lambda c: (eff[c] == ts, _P[c], s[c], c), lambda c: (eff[c] != ts, -s[c], c),
            lambda c: (eff[c] == ts, -_P[c], s[c], c))
    out: set[tuple[int, ...]] = set()
    for key in keys:
        if m >= k:
            out.add(tuple(sorted(same, key=key)[:k]))
        else:
            out.add(tuple(same + sorted(rest, key=key)[:k - m]))
    if not same and led != ts:  # a trump group to win a void suit: cheap trumps and the top
        trumps = sorted((c for c in rest if eff[c] == ts), key=lambda c: (s[c], c))
        if len(trumps) >= k:
            out.add(tuple(trumps[:k - 1] + [trumps[-1]]))
            out.add(tuple(trumps[:k]))
    if m > k:  # every choice when the led suit alone is short enough to list
        if comb(m, k) <= FOLLOW_CAP:
            out.update(combinations(same, k))
    return sorted(tuple(t.sort(p)) for p in out)


def net_moves(seen: Seen) -> list[Move]:
    """The moves the network chooses among (all legal): see the module's text."""
    hand = seen.hand
    if seen.phase is Phase.DRAW:
        shows = [Move(Kind.SHOW, (c,)) for c in sorted(hand)
                 if not is_joker(c) and rank_of(c) == seen.trump_rank]
        return [Move(Kind.NO_SHOW), *shows]
    t = seen.trump
    if t is None:
        raise InputError("the trump is fixed once the draw ends")
    if seen.phase is Phase.BURY:
        return [Move(Kind.BURY, (c,)) for c in t.sort(hand)]
    plays = _follows(seen, t) if seen.trick else lead_groups(hand, t)
    out, seen_plays = [], set()
    for p in plays:
        key = tuple(t.sort(p))
        if key not in seen_plays:
            seen_plays.add(key)
            out.append(Move(Kind.PLAY, key))
    return out


def same_move(a: Move, b: Move) -> bool:
    """Whether two moves are the same (the cards in any order)."""
    return a.kind is b.kind and sorted(a.cards) == sorted(b.cards)


def net_candidates(view: View, net: DaBaiFenNet, width: int
                   ) -> tuple[list[Move], int, dict[Move, float]]:
    """The ``width`` moves of highest ``Q`` among the network's candidates (its own choice
    first), how many moves are legal, and those moves' ``Q``."""
    seen = seen_from_view(view)
    moves = net_moves(seen)
    q = legal_q(net, seen, moves)
    order = np.argsort(-q, kind="stable")[:width]
    best = [moves[int(i)] for i in order]
    return best, legal_count(view), {m: float(q[int(i)]) for m, i in zip(best, order)}


class NetBot:
    """Makes the candidate move (:func:`net_moves`) of highest ``Q`` (ties: the first)."""

    name = "net"

    def __init__(self, net: DaBaiFenNet | None = None):
        self._net = net

    @property
    def net(self) -> DaBaiFenNet:
        return self._net if self._net is not None else default_net()

    def choose(self, seen: Seen) -> Move:
        moves = net_moves(seen)
        if len(moves) == 1:
            return moves[0]
        return moves[int(np.argmax(legal_q(self.net, seen, moves)))]

    def choose_play(self, state: DaBaiFenState, rng: random.Random | None = None) -> Move:
        return self.choose(seen_from_state(state))

    def policy(self, state: DaBaiFenState, rng: random.Random) -> Move:
        """The fast path (self-play, rollouts): the same choice from the engine's state."""
        return self.choose(seen_from_state(state))

    def __call__(self, observation: Mapping[str, Any], legal_moves: Sequence[Move],
                 rng: random.Random) -> Move:
        with observation_errors():
            seen = seen_from_view(View(observation))
        if not legal_moves:
            raise InputError("no legal moves given")
        if len(legal_moves) == 1:
            return legal_moves[0]
        best = self.choose(seen)
        for m in legal_moves:
            if same_move(m, best):
                return m
        raise InputError("the network chose a move that is not among the legal moves given")
