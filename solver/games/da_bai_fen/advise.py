"""Da Bai Fen advice: determinized Monte Carlo over the hidden cards, and the search bot.

A world is sampled from the observation alone (:mod:`solver.games.da_bai_fen.view`): the
hidden cards (the other hands, the undrawn deck, the buried kitty) are dealt at random under
what play has shown (cards played, the shown card, the turned kitty, the suits a seat is void
in).

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
from typing import Any

import numpy as np

from solver.cards import Rank, is_joker, rank_of
from solver.errors import InputError
from solver.games.da_bai_fen.bots import GreedyBot
from solver.games.da_bai_fen.cards import (
    DECK_SIZE,
    NUM_PLAYERS,
    Trump,
    card_points,
)
from solver.games.da_bai_fen.engine import (
    DaBaiFenState,
    Kind,
    Move,
    Phase,
)
from solver.games.da_bai_fen.moves import check_play, follow_plays, winner_index
from solver.games.da_bai_fen.net import (
    POINT_WEIGHT,
    DaBaiFenNet,
    NetBot,
    default_net,
    hand_value,
    lead_groups,
    legal_q,
    net_candidates,
    net_moves,
    same_move,
    seen_from_state,
)
from solver.games.da_bai_fen.view import View, legal_count, sample_world
from solver.games.search import (
    Ranked,
    advice,
    guarded,
    search_seat,
)
from solver.games.search import SearchBot as BaseSearchBot
from solver.validation import check_int

__all__ = ["RolloutSearchBot", "SearchBot", "advise", "fast_play", "rank", "rank_rollout"]

NET_CANDIDATES = 3  # moves of highest Q the network-guided search tries
NET_METHOD = "determinized Monte Carlo: a self-play value network picks and plays out"
#: Worlds a decision when no budget is given (the registry's bots, ``advise`` without one): a
#: fixed count keeps a seeded bot the same on every machine. About the median of the worlds the
#: former default, 40 ms of wall time, ran on a core of its own over 300 self-play decisions
#: (``benchmarks/bench_search_iterations.py --measure``).
DEFAULT_ITERATIONS = 10
ROLLOUT_DEFAULT_ITERATIONS = 110  # the same, rounded, for ``search-rollout``
MAX_FOLLOWS = 12  # follows listed in full up to this many; beyond, a short list
_GREEDY = GreedyBot()
_P = tuple(card_points(c) for c in range(DECK_SIZE))


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
