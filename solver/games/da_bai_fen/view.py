"""Da Bai Fen's observation, parsed once per decision (:class:`View`), and a world sampled
from it (:func:`sample_world`). Nothing of the network or the search: the advisor
(:mod:`solver.games.da_bai_fen.advise`) and the network (:mod:`solver.games.da_bai_fen.net`)
both read this.

What is hidden: the other hands, the cards not drawn yet (while drawing), and the buried
kitty (for everyone but the leader). What narrows it: every card played, the shown card (its
owner holds it until it is played), the kitty cards turned when nobody showed (they went to
the leader: in the leader's hand or buried), and the suits a seat has shown void in (it
followed a lead with fewer cards of the led suit than were led). The unseen cards are dealt
at random under those constraints, most constrained first.

>>> import random
>>> from solver.games.da_bai_fen.engine import new_hand
>>> state = new_hand(seed=3)
>>> view = View(state.observation(state.current_player))
>>> world = sample_world(view, random.Random(1))
>>> sorted(world.hands[view.seat]) == sorted(view.mine) and world.current_player == view.seat
True
>>> legal_count(view) == len(state.legal_moves())
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from math import comb
from typing import Any

from solver.cards import is_joker, parse_card, parse_cards, rank_of
from solver.errors import InputError
from solver.games.da_bai_fen.cards import DECK_SIZE, NUM_PLAYERS, Trump, parse_rank, parse_suit
from solver.games.da_bai_fen.engine import (
    DEALT,
    TOP_LEVEL,
    DaBaiFenRules,
    DaBaiFenState,
    Phase,
    Trick,
)
from solver.games.search import require_turn

__all__ = ["View", "legal_count", "sample_world"]

BURIED = NUM_PLAYERS  # the buried kitty as a fifth place a hidden card may be


class View:
    """What the observation says, parsed once per decision."""

    def __init__(self, obs: Mapping[str, Any]):
        self.seat = require_turn(obs, "player", "current_player", "da-bai-fen")
        try:
            self.rules = DaBaiFenRules.from_options(obs["rules"])
            self.phase = Phase(obs["phase"])
            self.dealer = int(obs["dealer"])
            ours, theirs = (TOP_LEVEL + 1 if v is None else parse_rank(v) for v in obs["levels"])
            self.levels = (ours, theirs)
            self.first_hand = bool(obs["first_hand"])
            self.trump_rank = parse_rank(obs["trump_rank"])
            suit = obs.get("trump_suit")
            self.trump = None if suit is None else Trump(self.trump_rank, parse_suit(suit))
            self.leader = None if obs.get("leader") is None else int(obs["leader"])
            self.mine = list(parse_cards(obs["hand"], allow_jokers=True))
            self.counts = [int(c) for c in obs["counts"]]
            self.drawn = int(obs["drawn"])
            shown = obs.get("shown")
            self.shown = None if shown is None else (int(shown["player"]),
                                                     parse_card(shown["card"], allow_jokers=True))
            self.revealed = tuple(parse_cards(obs.get("revealed") or [], allow_jokers=True))
            self.kitty = tuple(parse_cards(obs["kitty"], allow_jokers=True)) \
                if obs.get("kitty") else None
            self.buried = list(parse_cards(obs["buried"], allow_jokers=True)) \
                if obs.get("buried") is not None else None
            self.buried_count = int(obs.get("buried_count", 0))
            lead = obs.get("trick_leader")
            self.trick_leader = -1 if lead is None else int(lead)
            self.trick = [tuple(parse_cards(p, allow_jokers=True)) for p in obs.get("trick") or []]
            self.tricks = [Trick(int(t["leader"]),
                                 tuple(tuple(parse_cards(p, allow_jokers=True))
                                       for p in t["plays"]),
                                 int(t["winner"]), int(t["points"]))
                           for t in obs.get("tricks") or []]
            self.team_points = [int(p) for p in obs["team_points"]]
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise InputError(f"not a Da Bai Fen observation: {exc!r}") from None
        if self.phase is Phase.OVER:
            raise InputError("the hand is over: there is no move to advise")
        if len(self.counts) != NUM_PLAYERS or self.counts[self.seat] != len(self.mine):
            raise InputError("observation: counts do not match the hand")
        if len(self.trick) >= NUM_PLAYERS or (self.phase is Phase.PLAY
                                               and not 0 <= self.trick_leader < NUM_PLAYERS):
            raise InputError("observation: a trick in progress holds at most 3 plays and "
                             "has a leader seat")
        if self.phase is not Phase.DRAW and self.trump is None:
            raise InputError("observation: the trump suit is fixed once the draw ends")
        self.played = {c for t in self.tricks for p in t.plays for c in p}
        self.played.update(c for p in self.trick for c in p)
        self.voids = self._voids()

    @property
    def fixed_trump(self) -> Trump:
        """The trump, which every phase after the draw has (``__init__`` checks it)."""
        if self.trump is None:
            raise InputError("observation: the trump suit is fixed once the draw ends")
        return self.trump

    def _voids(self) -> list[set[int]]:
        """Suits (effective, trumps as one) each seat has shown it holds no more of."""
        voids: list[set[int]] = [set() for _ in range(NUM_PLAYERS)]
        if self.trump is None:
            return voids
        eff = self.trump.eff
        rounds = [(t.leader, t.plays) for t in self.tricks]
        if self.trick:
            rounds.append((self.trick_leader, tuple(self.trick)))
        for leader, plays in rounds:
            led, k = eff[plays[0][0]], len(plays[0])
            for i in range(1, len(plays)):
                if sum(1 for c in plays[i] if eff[c] == led) < k:
                    voids[(leader + i) % NUM_PLAYERS].add(led)
        return voids


def _deal(cards: list[int], places: dict[int, int], eligible: dict[int, list[int]],
          rng: random.Random) -> dict[int, list[int]] | None:
    """Cards to places (seat or :data:`BURIED`) with these capacities, each card to one of
    its eligible places, most constrained first; None when a random attempt gets stuck."""
    order = list(cards)
    rng.shuffle(order)
    order.sort(key=lambda c: len(eligible[c]))
    room = dict(places)
    out: dict[int, list[int]] = {p: [] for p in places}
    for c in order:
        opts = [p for p in eligible[c] if room.get(p, 0) > 0]
        if not opts:
            return None
        total = sum(room[p] for p in opts)
        x = rng.randrange(total)
        for p in opts:
            x -= room[p]
            if x < 0:
                break
        out[p].append(c)
        room[p] -= 1
    return out


def _deal_search(cards: list[int], places: dict[int, int], eligible: dict[int, list[int]],
                 rng: random.Random, limit: int = 20_000) -> dict[int, list[int]] | None:
    """A backtracking deal under the same constraints (places tried in a random order
    weighted by their room); None if none is found within ``limit`` steps."""
    order = list(cards)
    rng.shuffle(order)
    order.sort(key=lambda c: len(eligible[c]))
    room = dict(places)
    out: dict[int, list[int]] = {p: [] for p in places}
    steps = 0

    def go(i: int) -> bool:
        nonlocal steps
        if i == len(order):
            return True
        steps += 1
        if steps > limit:
            return False
        c = order[i]
        opts = [p for p in eligible[c] if room[p] > 0]
        opts.sort(key=lambda p: -rng.random() ** (1.0 / room[p]))
        for p in opts:
            room[p] -= 1
            out[p].append(c)
            if go(i + 1):
                return True
            room[p] += 1
            out[p].pop()
        return False

    return out if go(0) else None


def _hidden_deal(view: View, rng: random.Random) -> tuple[dict[int, list[int]], list[int]]:
    """The other seats' hands (and the buried kitty when unknown), sampled."""
    seat = view.seat
    places = {p: view.counts[p] for p in range(NUM_PLAYERS) if p != seat}
    known = set(view.mine) | view.played
    if view.buried is not None:
        known.update(view.buried)
    else:
        places[BURIED] = view.buried_count
    unseen = [c for c in range(DECK_SIZE) if c not in known]
    if len(unseen) != sum(places.values()):
        raise InputError(f"observation: {len(unseen)} cards are unseen but the other seats "
                         f"(and the buried kitty) hold {sum(places.values())}")
    eff = view.trump.eff if view.trump else None
    anywhere = [p for p in places]
    eligible: dict[int, list[int]] = {}
    shown_at: list[int] = []
    shown_card = -1  # the card shown by another seat, -1 when none
    if view.shown is not None and view.shown[0] != seat:
        shown_card = view.shown[1]
        shown_at = [view.shown[0]]  # its owner holds it, or buried it as the leader
        if view.shown[0] == view.leader and BURIED in places:
            shown_at.append(BURIED)
    for c in unseen:
        if c == shown_card:
            at = shown_at
        elif c in view.revealed and view.buried is None and view.leader is not None:
            at = [q for q in (view.leader, BURIED) if q in places]
        else:
            at = anywhere
        if eff is not None:
            at = [p for p in at if p == BURIED or eff[c] not in view.voids[p]]
        eligible[c] = at
    for _ in range(4):
        out = _deal(unseen, places, eligible, rng)
        if out is not None:
            return out, unseen
    out = _deal_search(unseen, places, eligible, rng)
    if out is not None:
        return out, unseen
    loose = {c: shown_at if c == shown_card else anywhere for c in unseen}
    out = _deal(unseen, places, loose, rng)  # the voids cannot all hold: drop them
    if out is None:
        raise InputError("observation: the unseen cards cannot fill the other hands")
    return out, unseen


def sample_world(view: View, rng: random.Random) -> DaBaiFenState:
    """A full state consistent with ``view``."""
    if view.phase is Phase.DRAW:
        return _draw_world(view, rng)
    dealt, _ = _hidden_deal(view, rng)
    hands = [list(view.mine) if p == view.seat else dealt[p] for p in range(NUM_PLAYERS)]
    buried = view.buried if view.buried is not None else dealt[BURIED]
    return DaBaiFenState.from_view(
        deck=(), kitty=view.kitty or (), dealer=view.dealer, levels=view.levels,
        first_hand=view.first_hand, leader=view.leader, trump_rank=view.trump_rank,
        hands=hands, drawn=DEALT, shown=view.shown, revealed=view.revealed, trump=view.trump,
        buried=buried, phase=view.phase, trick=view.trick, trick_leader=view.trick_leader,
        tricks=view.tricks, team_points=view.team_points, rules=view.rules)


def _draw_world(view: View, rng: random.Random) -> DaBaiFenState:
    """While drawing: the seat's cards at its draw positions, the rest of the deck at random."""
    first = (view.dealer + 1) % NUM_PLAYERS
    mine = set(view.mine)
    rest = [c for c in range(DECK_SIZE) if c not in mine]
    rng.shuffle(rest)
    own = list(view.mine)
    rng.shuffle(own)
    deck, k = [], 0
    for j in range(DECK_SIZE):
        if j < view.drawn and (first + j) % NUM_PLAYERS == view.seat:
            deck.append(own.pop())
        else:
            deck.append(rest[k])
            k += 1
    if own:
        raise InputError("observation: the hand does not match the cards drawn")
    hands: list[list[int]] = [[] for _ in range(NUM_PLAYERS)]
    for j in range(view.drawn):
        hands[(first + j) % NUM_PLAYERS].append(deck[j])
    return DaBaiFenState.from_view(
        deck=deck, dealer=view.dealer, levels=view.levels, first_hand=view.first_hand,
        leader=view.leader, trump_rank=view.trump_rank, hands=hands, drawn=view.drawn,
        shown=None, revealed=(), trump=None, buried=[], phase=Phase.DRAW, trick=[],
        trick_leader=-1, tricks=[], team_points=[0, 0], rules=view.rules, to_show=view.seat)


def legal_count(view: View) -> int:
    """How many moves are legal for the seat (counted, not listed)."""
    if view.phase is Phase.DRAW:
        return 1 + sum(1 for c in view.mine if not is_joker(c) and rank_of(c) == view.trump_rank)
    if view.phase is Phase.BURY:
        return len(view.mine)
    t = view.fixed_trump
    if view.trick:
        led, k = t.eff[view.trick[0][0]], len(view.trick[0])
        m = sum(1 for c in view.mine if t.eff[c] == led)
        return comb(m, k) if m >= k else comb(len(view.mine) - m, k - m)
    sizes: dict[int, int] = {}
    for c in view.mine:
        sizes[t.eff[c]] = sizes.get(t.eff[c], 0) + 1
    return len(view.mine) + sum(2 ** n - 1 - n for n in sizes.values())
