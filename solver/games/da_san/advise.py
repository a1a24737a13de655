"""Da San advice: determinized Monte Carlo over the hidden cards, guided by a value network.

A world is sampled from the observation alone (:mod:`solver.games.da_san.view`): the unseen
cards (not in the seat's hand, not played, not a kitty the seat has taken) are dealt at random
to the other seats in their counts, and to the kitty while the auction runs.

The search (:func:`rank`, the ``search`` bot, ``advise``): the self-play value network
(:mod:`solver.games.da_san.net`) scores every legal move (a bid or the pass in the auction; a
play or the pass after) from what the seat sees; the :data:`NET_CANDIDATES` best are each
tried in the same sampled worlds and the hand, the rest of the auction included, is played
out by the network in every seat (each from its own view of that world). A candidate's value
is the seat's mean points (the bid won or lost, per opponent for the bidder).

The previous search (:func:`rank_rollout`, the ``search-rollout`` bot) is kept to compare
with: for each kind and size the lowest plays and the highest, plus the greedy bot's choice,
each played out by the greedy bots.

>>> from solver.games.da_san.engine import new_game
>>> state = new_game(seed=3)
>>> result = advise(state.observation(state.current_player), iterations=4, seed=1)
>>> sorted(m["move"]["kind"] for m in result["moves"])[0]
'bid'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from solver.errors import InputError
from solver.games.da_san.bots import fast_greedy
from solver.games.da_san.engine import DaSanState, Phase
from solver.games.da_san.moves import Kind, Move
from solver.games.da_san.net import DaSanNet, NetBot, default_net, net_candidates
from solver.games.da_san.view import View, sample_world
from solver.games.search import Ranked, advice, guarded, search_seat
from solver.games.search import SearchBot as BaseSearchBot
from solver.validation import check_int

__all__ = ["RolloutSearchBot", "SearchBot", "advise", "rank", "rank_rollout"]

LOWEST_PER_GROUP = 2  # per (kind, size): the lowest plays, and the highest
MAX_TURNS = 2_000  # a hand of 52 cards ends far sooner; more means a corrupt observation
NET_CANDIDATES = 3  # moves of highest Q the network-guided search tries
NET_METHOD = "determinized Monte Carlo: a self-play value network picks and plays out"
#: Worlds a decision when no budget is given (the registry's bots, ``advise`` without one): a
#: fixed count keeps a seeded bot the same on every machine. About the median of the worlds the
#: former default, 40 ms of wall time, ran on a core of its own over 300 self-play decisions
#: (``benchmarks/bench_search_iterations.py --measure``).
DEFAULT_ITERATIONS = 10
ROLLOUT_DEFAULT_ITERATIONS = 70  # the same, rounded, for ``search-rollout``


def candidates(view: View, world: DaSanState) -> tuple[list[Move], int]:
    """The moves worth searching, and how many legal moves there are."""
    legal = world.legal_moves()
    if view.phase is Phase.AUCTION:
        return list(legal), len(legal)
    groups: dict[tuple[Kind, int], list[Move]] = {}
    passes = []
    for m in legal:
        if m.kind is Kind.PASS:
            passes.append(m)
        else:
            groups.setdefault((m.kind, len(m.cards)), []).append(m)
    out: list[Move] = []
    for ms in groups.values():
        ms = sorted(ms, key=lambda m: m.strength)
        pick = ms[:LOWEST_PER_GROUP] + ([ms[-1]] if len(ms) > LOWEST_PER_GROUP else [])
        out.extend(pick)
    greedy = fast_greedy(world)
    if greedy not in out and greedy not in passes:
        out.append(greedy)
    return out + passes, len(legal)


def _play(world: DaSanState, move: Move) -> None:
    world.apply(move)


def _rollout(world: DaSanState, rng: random.Random) -> None:
    for _ in range(MAX_TURNS):
        if world.phase is Phase.OVER:
            return
        world.apply(fast_greedy(world))
    raise InputError("the observation does not describe a hand that can end")


def _net_rollout(net: DaSanNet) -> Callable[[DaSanState, random.Random], None]:
    """Play every seat with the network (each from its own view of the world) to the end."""
    bot = NetBot(net)

    def rollout(world: DaSanState, rng: random.Random) -> None:
        for _ in range(MAX_TURNS):
            if world.phase is Phase.OVER:
                return
            world.apply(bot.choose_play(world))
        raise InputError("the observation does not describe a hand that can end")
    return rollout


def _value(world: DaSanState, seat: int) -> float:
    return world.returns()[seat]


@guarded
def rank(observation: Mapping[str, Any], budget_ms: float | None = None,
         iterations: int | None = None, seed: int | None = None, net: DaSanNet | None = None,
         width: int = NET_CANDIDATES) -> Ranked:
    """The searched candidates of the seat to act, best first (Move objects): the network's
    ``width`` best moves, each tried in the same sampled worlds and played out by the network
    in every seat to the end of the hand."""
    check_int("width", width, 1, None)
    view = View(observation)
    net = net or default_net()
    cands, legal, q = net_candidates(view, net, width)
    ranked = search_seat(view, (cands, legal), sample_world, _play, _net_rollout(net), _value,
                         budget_ms, iterations, seed, DEFAULT_ITERATIONS)
    ranked.info = {**ranked.info, "method": NET_METHOD,
                   "q": [round(q[m], 6) for m, _ in ranked.moves]}
    return ranked


@guarded
def rank_rollout(observation: Mapping[str, Any], budget_ms: float | None = None,
                 iterations: int | None = None, seed: int | None = None) -> Ranked:
    """The previous search (kept to compare with): a short candidate list by kind and size,
    each played out by the greedy bots in sampled worlds."""
    view = View(observation)
    return search_seat(view, candidates(view, sample_world(view, random.Random(0))),
                       sample_world, _play, _rollout, _value, budget_ms, iterations, seed,
                       ROLLOUT_DEFAULT_ITERATIONS)


def advise(observation: Mapping[str, Any], budget_ms: float | None = None,
           iterations: int | None = None, seed: int | None = None) -> dict[str, Any]:
    """``GameInfo.advise``: the seat's candidate moves ranked by mean points."""
    ranked = rank(observation, budget_ms, iterations, seed)
    return advice(ranked, lambda m: m.to_json(), observation["player"], "da-san")


def _same(a: Move, b: Move) -> bool:
    """Equal as Da San plays: suits never matter, so kind, size and top rank decide."""
    return a.kind is b.kind and a.strength == b.strength and len(a.cards) == len(b.cards)


_rank = rank


class SearchBot(BaseSearchBot):
    """Plays the advisor's first choice (``iterations`` worlds, or ``budget_ms`` per move),
    with the shipped network or ``net``."""

    def __init__(self, iterations: int | None = None, budget_ms: float | None = None,
                 net: DaSanNet | None = None, width: int = NET_CANDIDATES):
        super().__init__(iterations, budget_ms)
        self.net, self.width = net, width

    def rank(self, observation: Mapping[str, Any], budget_ms: float | None,  # type: ignore[override]
             iterations: int | None, seed: int) -> Ranked:
        return _rank(observation, budget_ms, iterations, seed, self.net, self.width)

    same = staticmethod(_same)


class RolloutSearchBot(BaseSearchBot):
    """The previous search bot (greedy rollouts), kept as a yardstick."""

    name = "search-rollout"
    rank = staticmethod(rank_rollout)
    same = staticmethod(_same)
