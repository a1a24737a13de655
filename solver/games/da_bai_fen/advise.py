"""Da Bai Fen advice: determinized Monte Carlo over the hidden cards, and the search bot.

A world is sampled from the observation alone. What is hidden: the other hands, the cards
not drawn yet (while drawing), and the buried kitty (for everyone but the leader). What
narrows it: every card played, the shown card (its owner holds it until it is played), the
kitty cards turned when nobody showed (they went to the leader: in the leader's hand or
buried), and the suits a seat has shown void in (it followed a lead with fewer cards of the
led suit than were led). The unseen cards are dealt at random under those constraints,
most constrained first.

Every candidate is tried in the same worlds and the hand is played out by fast heuristic
bots (:func:`fast_play`: no move lists, no checks). Their leads are groups: a group lead
wins unless a follower void in its suit trumps it with a whole group, and a lead of trumps
always wins, so they lead all their trumps, then their longest suit; this beats random play
by about a level per hand where the greedy baseline's single-card leads barely do. A
candidate's value is the levels the seat's team gains minus the other team's, plus
:data:`POINT_WEIGHT` per point of the defenders' total on the seat's side (the level table
moves in steps; the points give the search a gradient between them).

Candidates: every show / no-show while drawing, every card to bury, and for a play: each
single card and, per suit, the groups of its top k and bottom k cards when leading; when
following a group lead, a short list (cheapest, strongest, most points, a winning trump group).

>>> from solver.games.da_bai_fen.engine import new_hand
>>> state = new_hand(seed=3)
>>> result = advise(state.observation(state.current_player), iterations=3, seed=1)
>>> {m["move"]["kind"] for m in result["moves"]} <= {"show", "no_show"}
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from math import comb
from typing import Any

import numpy as np

from solver.cards import Rank, is_joker, parse_card, parse_cards, rank_of
from solver.errors import InputError
from solver.games.da_bai_fen.bots import GreedyBot
from solver.games.da_bai_fen.cards import (
    DECK_SIZE,
    NUM_PLAYERS,
    Trump,
    card_points,
    parse_rank,
    parse_suit,
)
from solver.games.da_bai_fen.engine import (
    DEALT,
    TOP_LEVEL,
    DaBaiFenRules,
    DaBaiFenState,
    Kind,
    Move,
    Phase,
    Trick,
)
from solver.games.da_bai_fen.moves import check_play, follow_plays, winner_index
from solver.games.da_bai_fen.net import (
    POINT_WEIGHT,
    DaBaiFenNet,
    NetBot,
    Seen,
    default_net,
    hand_value,
    lead_groups,
    legal_q,
    net_moves,
    same_move,
    seen_from_state,
)
from solver.games.search import (
    Ranked,
    advice,
    guarded,
    require_turn,
    search_seat,
)
from solver.games.search import SearchBot as BaseSearchBot
from solver.validation import check_int

__all__ = ["RolloutSearchBot", "SearchBot", "advise", "fast_play", "net_candidates", "rank",
           "rank_rollout", "sample_world", "seen_from_view"]

NET_CANDIDATES = 3  # moves of highest Q the network-guided search tries
NET_METHOD = "determinized Monte Carlo: a self-play value network picks and plays out"
#: Worlds a decision when no budget is given (the registry's bots, ``advise`` without one): a
#: fixed count keeps a seeded bot the same on every machine. About the median of the worlds the
#: former default, 40 ms of wall time, ran on a core of its own over 300 self-play decisions
#: (``benchmarks/bench_search_iterations.py --measure``).
DEFAULT_ITERATIONS = 10
ROLLOUT_DEFAULT_ITERATIONS = 110  # the same, rounded, for ``search-rollout``
MAX_FOLLOWS = 12  # follows listed in full up to this many; beyond, a short list
BURIED = NUM_PLAYERS  # the buried kitty as a fifth place a hidden card may be
_GREEDY = GreedyBot()
_P = tuple(card_points(c) for c in range(DECK_SIZE))


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


# ------------------------------------------------------------------ candidates
def _follow_candidates(view: View, world: DaBaiFenState) -> list[tuple[int, ...]]:
    t, hand = view.fixed_trump, view.mine
    led, k = t.eff[view.trick[0][0]], len(view.trick[0])
    plays = follow_plays(hand, led, k, t)
    if len(plays) <= MAX_FOLLOWS:
        return plays
    s, eff = t.strength, t.eff
    same = [c for c in hand if eff[c] == led]
    rest = [c for c in hand if eff[c] != led]
    keys = (lambda c: (_P[c], s[c]), lambda c: (-s[c],), lambda c: (-_P[c], s[c]),
            lambda c: (eff[c] == t.suit, _P[c], s[c]), lambda c: (eff[c] != t.suit, -s[c]))
    out: set[tuple[int, ...]] = set()
    for key in keys:
        if len(same) >= k:
            out.add(tuple(sorted(sorted(same, key=key)[:k])))
        else:
            out.add(tuple(sorted(same + sorted(rest, key=key)[:k - len(same)])))
    out.add(tuple(sorted(fast_play(world))))
    return sorted(out)


def candidates(view: View, world: DaBaiFenState) -> tuple[list[Move], int]:
    """The moves worth searching, and how many legal moves there are."""
    if view.phase is not Phase.PLAY:
        every = world.legal_moves()
        return every, len(every)
    t = view.fixed_trump
    plays = _follow_candidates(view, world) if view.trick else lead_groups(view.mine, t)
    moves = []
    for p in plays:
        if check_play(p, view.mine, view.trick, t):
            moves.append(Move(Kind.PLAY, tuple(t.sort(p))))
    return moves, legal_count(view)


# ------------------------------------------------------------------ rollouts
def fast_play(st: DaBaiFenState) -> tuple[int, ...]:
    """A heuristic play for the seat to act, written for speed: lead groups (see
    :func:`_lead`); on a single lead win as cheaply as possible (with the most points if
    winning), else throw the least; on a group lead follow cheaply, trump in with a group
    when void, feed points to a winning partner."""
    seat = (st.trick_leader + len(st.trick)) % NUM_PLAYERS
    hand = st.hands[seat]
    t = st.trump
    if t is None:
        raise InputError("fast_play is for the play phase, where the trump is fixed")
    s, eff, ts = t.strength, t.eff, t.suit
    trick = st.trick
    if not trick:
        return _lead(hand, t)
    lead = trick[0]
    k, led = len(lead), eff[lead[0]]
    wi = winner_index(trick, t)
    partner = (st.trick_leader + wi) % 2 == seat % 2
    same = [c for c in hand if eff[c] == led]
    if k == 1:
        w = trick[wi][0]
        best, best_key = hand[0], None
        for c in same or hand:
            wins = partner or (eff[c] == eff[w] and s[c] > s[w]) or (eff[c] == ts and eff[w] != ts)
            key = (wins, _P[c] if wins else -_P[c], -s[c])
            if best_key is None or key > best_key:
                best, best_key = c, key
        return (best,)
    if len(same) >= k:
        same.sort(key=(lambda c: (-_P[c], s[c])) if partner else (lambda c: (_P[c], s[c])))
        return tuple(same[:k])
    rest = [c for c in hand if eff[c] != led]
    if not same and led != ts and not partner:
        trumps = sorted((c for c in rest if eff[c] == ts), key=s.__getitem__)
        top = max(s[c] for c in trick[wi]) if wi > 0 else -1
        if len(trumps) >= k and s[trumps[-1]] > top:
            return tuple(trumps[:k - 1] + [trumps[-1]])
    rest.sort(key=(lambda c: (eff[c] == ts, -_P[c], s[c])) if partner
              else (lambda c: (eff[c] == ts, _P[c], s[c])))
    return tuple(same + rest[:k - len(same)])


def _lead(hand: Sequence[int], t: Trump) -> tuple[int, ...]:
    """A group lead wins unless a follower void in the suit trumps it with a group, and a
    trump group always wins: lead every trump (two or more) at once, else the longest other
    suit as one group, else an off-suit ace or the cheapest card."""
    suits: dict[int, list[int]] = {}
    for c in hand:
        suits.setdefault(t.eff[c], []).append(c)
    trumps = suits.get(t.suit, [])
    if len(trumps) >= 2:
        return tuple(trumps)
    off = [cards for suit, cards in suits.items() if suit != t.suit and len(cards) >= 2]
    if off:
        longest: list[int] = max(off, key=len)
        return tuple(longest)
    aces = [c for c in hand if not is_joker(c) and rank_of(c) == Rank.ACE and t.eff[c] != t.suit]
    if aces:
        return (min(aces),)
    return (min(hand, key=lambda c: (_P[c], t.strength[c], c)),)


def _fast_apply(st: DaBaiFenState, play: tuple[int, ...]) -> None:
    hand = st.hands[(st.trick_leader + len(st.trick)) % NUM_PLAYERS]
    for c in play:
        hand.remove(c)
    st.trick.append(play)
    if len(st.trick) == NUM_PLAYERS:
        st._finish_trick()


def rollout(st: DaBaiFenState, rng: random.Random) -> None:
    """Play ``st`` to the end: the greedy bot while drawing and burying, then fast play."""
    while st.phase is Phase.DRAW or st.phase is Phase.BURY:
        st.apply(_GREEDY.policy(st, rng))
    while st.phase is Phase.PLAY:
        _fast_apply(st, fast_play(st))


value = hand_value  # levels gained by the seat's team minus the other's, plus its points


def _play(world: DaBaiFenState, move: Move) -> None:
    world.apply(move)


@guarded
def rank_rollout(observation: Mapping[str, Any], budget_ms: float | None = None,
                 iterations: int | None = None, seed: int | None = None) -> Ranked:
    """The previous search (kept to compare with): a short candidate list (every single
    lead, groups, a few follows), each played out by the fast heuristic bots."""
    view = View(observation)
    return search_seat(view, candidates(view, sample_world(view, random.Random(0))),
                       sample_world, _play, rollout, value, budget_ms, iterations, seed,
                       ROLLOUT_DEFAULT_ITERATIONS)


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


def net_candidates(view: View, net: DaBaiFenNet, width: int = NET_CANDIDATES
                   ) -> tuple[list[Move], int, dict[Move, float]]:
    """The ``width`` moves of highest ``Q`` among the network's candidates (its own choice
    first), how many moves are legal, and those moves' ``Q``."""
    seen = seen_from_view(view)
    moves = net_moves(seen)
    q = legal_q(net, seen, moves)
    order = np.argsort(-q, kind="stable")[:width]
    best = [moves[int(i)] for i in order]
    return best, legal_count(view), {m: float(q[int(i)]) for m, i in zip(best, order)}


def _net_playout(net: DaBaiFenNet, depth: int | None
                 ) -> tuple[Callable[[DaBaiFenState, random.Random], None],
                            Callable[[DaBaiFenState, int], float]]:
    """The rollout and the value of a finished rollout: every seat plays the network (each
    from its own view of the world) to the end of the hand, or with ``depth`` until ``depth``
    more tricks are complete, where the network's best ``Q`` for the seat to act stands in
    for the rest (negated when that seat is on the other team)."""
    bot = NetBot(net)
    leaf: dict[int, tuple[int, float]] = {}

    def play_out(world: DaBaiFenState, rng: random.Random) -> None:
        stop = None if depth is None else len(world.tricks) + depth
        while world.phase is not Phase.OVER:
            seen = seen_from_state(world)
            if stop is not None and len(world.tricks) >= stop and not world.trick:
                moves = net_moves(seen)
                leaf[id(world)] = (seen.seat % 2, float(np.max(legal_q(net, seen, moves))))
                return
            world.apply(bot.choose(seen))

    def worth(world: DaBaiFenState, seat: int) -> float:
        if world.phase is Phase.OVER:
            return value(world, seat)
        team, q = leaf.pop(id(world))
        return q if team == seat % 2 else -q
    return play_out, worth


@guarded
def rank(observation: Mapping[str, Any], budget_ms: float | None = None,
         iterations: int | None = None, seed: int | None = None,
         net: DaBaiFenNet | None = None, width: int = NET_CANDIDATES,
         depth: int | None = None) -> Ranked:
    """The searched candidates of the seat to act, best first (Move objects): the network's
    ``width`` best moves, each tried in the same sampled worlds and played out by the network
    in every seat to the end of the hand (or ``depth`` more tricks, then its ``Q``)."""
    check_int("width", width, 1, None)
    if depth is not None:
        check_int("depth", depth, 1, None)
    view = View(observation)
    net = net or default_net()
    cands, legal, q = net_candidates(view, net, width)
    play_out, worth = _net_playout(net, depth)
    ranked = search_seat(view, (cands, legal), sample_world, _play, play_out, worth,
                         budget_ms, iterations, seed, DEFAULT_ITERATIONS)
    ranked.info = {**ranked.info, "method": NET_METHOD,
                   "q": [round(q[m], 6) for m, _ in ranked.moves]}
    return ranked


def advise(observation: Mapping[str, Any], budget_ms: float | None = None,
           iterations: int | None = None, seed: int | None = None) -> dict[str, Any]:
    """``GameInfo.advise``: the seat's candidate moves ranked by value (levels, plus
    ``POINT_WEIGHT`` per point of the defenders' total on the seat's side)."""
    ranked = rank(observation, budget_ms, iterations, seed)
    out = advice(ranked, lambda m: m.to_json(), observation["player"], "da-bai-fen")
    out["value_unit"] = f"levels + {POINT_WEIGHT} x points"
    return out


_rank = rank


class SearchBot(BaseSearchBot):
    """Plays the advisor's first choice (``iterations`` worlds, or ``budget_ms`` per move),
    with the shipped network or ``net``."""

    def __init__(self, iterations: int | None = None, budget_ms: float | None = None,
                 net: DaBaiFenNet | None = None, width: int = NET_CANDIDATES,
                 depth: int | None = None):
        super().__init__(iterations, budget_ms)
        self.net, self.width, self.depth = net, width, depth

    def rank(self, observation: Mapping[str, Any], budget_ms: float | None,  # type: ignore[override]
             iterations: int | None, seed: int) -> Ranked:
        return _rank(observation, budget_ms, iterations, seed, self.net, self.width,
                     self.depth)

    same = staticmethod(same_move)


class RolloutSearchBot(BaseSearchBot):
    """The previous search bot (heuristic rollouts), kept as a yardstick."""

    name = "search-rollout"
    rank = staticmethod(rank_rollout)
    same = staticmethod(same_move)


def seen_from_view(view: View) -> Seen:
    """What the network reads, from the observation's view."""
    return Seen(view.seat, view.phase, view.mine, view.trump_rank, view.trump, view.leader,
                view.dealer, view.first_hand, view.drawn, view.shown, view.revealed,
                view.buried if view.phase is not Phase.DRAW else None, view.trick,
                view.trick_leader, view.tricks, view.team_points, view.rules)
