"""Big Two advice: determinized search over the hidden hands, guided by a value network.

From an observation alone (the seat's hand, the plays so far, how many cards each seat
holds, the play to beat) a world is sampled by dealing the unseen cards at random to the
other seats in their counts (with 2-3 players the rest is set aside):
:mod:`solver.games.big_two.view`.

The search (:func:`rank`, the ``search`` bot, ``advise``): the self-play value network
(:mod:`solver.games.big_two.net`) scores every legal option from what the seat sees; the
:data:`NET_CANDIDATES` best are each tried in the same sampled worlds and the hand is played
out by the network in every seat (each from its own view of that world). A shorter lookahead
(``depth``: stop at the seat's n-th next turn and take its best ``Q`` there) is cheaper and,
measured, weaker. A candidate's value is its mean over the worlds, in the points of the rules' ``scoring``
(``returns()``: minus the seat's penalty when another seat goes out, and for a win 0 or,
when the winner collects, the points of every other seat's cards left).

The previous search (:func:`rank_rollout`, the ``search-rollout`` bot) is kept to compare
with: a short list by kind (the lowest plays and the highest, the baseline's choice, the
pass), each rolled out to the end by the baseline bots.

>>> from solver.games.big_two.engine import new_game
>>> state = new_game(seed=5)
>>> result = advise(state.observation(state.current_player), iterations=4, seed=1)
>>> result["moves"][0]["move"]["kind"] in {"single", "pair", "triple", "straight", "flush",
...     "full_house", "four_of_a_kind", "straight_flush"}
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from solver.errors import InputError
from solver.games.big_two.belief import Beliefs
from solver.games.big_two.bots import BaselineBot
from solver.games.big_two.engine import BigTwoState
from solver.games.big_two.infer import resampler
from solver.games.big_two.moves import (
    KIND_SHIFT,
    PASS,
    Kind,
    Move,
    generate,
)
from solver.games.big_two.net import (
    NetBot,
    QNet,
    default_net,
    legal_q,
    net_candidates,
    seen_from_state,
)
from solver.games.big_two.view import View, sample_world
from solver.games.search import Ranked, advice, guarded, search_seat
from solver.games.search import SearchBot as BaseSearchBot
from solver.validation import check_int

__all__ = ["RolloutSearchBot", "SearchBot", "advise", "leaf_value", "rank", "rank_rollout"]

LOWEST_PER_KIND = 3  # candidates per kind: the lowest plays ...
MAX_TURNS = 2_000  # a hand of 52 cards ends far sooner; more means a corrupt observation
_BASELINE = BaselineBot()
NET_CANDIDATES = 3  # options of highest Q the network-guided search tries
NET_METHOD = "determinized Monte Carlo: a self-play value network picks and plays out"
#: Worlds a decision when no budget is given (the registry's bots, ``advise`` without one): a
#: fixed count keeps a seeded bot the same on every machine. About the median of the worlds the
#: former default, 40 ms of wall time, ran on a core of its own over 300 self-play decisions
#: (``benchmarks/bench_search_iterations.py --measure``).
DEFAULT_ITERATIONS = 14
ROLLOUT_DEFAULT_ITERATIONS = 300  # the same, rounded, for ``search-rollout``


def candidates(view: View) -> tuple[list[Move], int]:
    """The plays worth searching, and how many legal moves there are."""
    lm = generate(view.mine, view.current, view.required, view.rules)
    masks, keys = lm.masks.tolist(), lm.strengths.tolist()
    by_kind: dict[int, list[int]] = {}
    for i, k in enumerate(keys):
        by_kind.setdefault(k >> KIND_SHIFT, []).append(i)  # ascending strength within a kind
    chosen: set[int] = set()
    for idx in by_kind.values():
        chosen.update(idx[:LOWEST_PER_KIND])
        chosen.add(idx[-1])
    out = [Move(masks[i], Kind(keys[i] >> KIND_SHIFT), keys[i]) for i in sorted(chosen)]
    base = _BASELINE._kernel(view.mine, view.current, view.required, view.rules)
    if base[0] and all(m.mask != base[0] for m in out):
        out.append(Move(base[0], Kind(base[1] >> KIND_SHIFT), base[1]))
    if lm.can_pass:
        out.append(PASS)
    return out, len(lm) + (1 if lm.can_pass else 0)


def _play(world: BigTwoState, move: Move) -> None:
    world._apply_trusted(move)


def _rollout(world: BigTwoState, rng: random.Random) -> None:
    for _ in range(MAX_TURNS):
        if world.winner >= 0:
            return
        world._apply_trusted(_BASELINE.choose_play(world, rng))
    raise InputError("the observation does not describe a hand that can end")


def leaf_value(world: BigTwoState, seat: int) -> float:
    """A finished world's value for ``seat``: its return under the world's rules (every
    seat's cards left counted as the rules' ``scoring`` counts them)."""
    return world.returns()[seat]


def _net_reply(net: QNet, seat: int, depth: int | None = None
               ) -> Callable[[BigTwoState, random.Random], None]:
    """Play every seat with the network (each from its own view of the sampled world) until
    the hand is over or, with a ``depth``, until ``seat`` is to act for the ``depth``-th
    time."""
    bot = NetBot(net)

    def reply(world: BigTwoState, rng: random.Random) -> None:
        turns = 0
        for _ in range(MAX_TURNS):
            if world.winner >= 0:
                return
            if world.current_player == seat:
                turns += 1
                if depth is not None and turns >= depth:
                    return
            world._apply_trusted(bot.choose_play(world))
        raise InputError("the observation does not describe a hand that can end")
    return reply


#: Who the other seats are in a rollout with a population: member names, their weights and
#: the chance a seat plays like the searcher's own network (see :func:`_population_reply`).
RolloutPopulation = tuple[tuple[str, ...], tuple[float, ...], float]


def _population_reply(net: QNet, seat: int, population: RolloutPopulation
                      ) -> Callable[[BigTwoState, random.Random], None]:
    """Play the hand out with ``seat`` on the network and each other seat, per sampled world,
    the network (with the population's self share) or a member drawn by weight: the search
    no longer assumes everyone plays like itself. The draw uses the rollout's generator, which
    is the same for every candidate in a world, so the candidates meet the same opponents."""
    from solver.games.big_two.population import member_policy
    members, weights, self_share = population
    policies = [member_policy(m) for m in members]
    bot = NetBot(net)

    def reply(world: BigTwoState, rng: random.Random) -> None:
        chosen = [None if p == seat or rng.random() < self_share
                  else rng.choices(policies, weights)[0] for p in range(world.rules.players)]
        for _ in range(MAX_TURNS):
            if world.winner >= 0:
                return
            policy = chosen[world.current_player]
            world._apply_trusted(bot.choose_play(world) if policy is None
                                 else policy(world, rng))
        raise InputError("the observation does not describe a hand that can end")
    return reply


def _net_value(net: QNet) -> Callable[[BigTwoState, int], float]:
    """The seat's points: the hand's return when it is over, else its best ``Q`` from what
    it sees at its next turn."""
    def value(world: BigTwoState, seat: int) -> float:
        if world.winner >= 0:
            return world.returns()[seat]
        return float(legal_q(net, seen_from_state(world), world.legal()).max())
    return value


@guarded
def rank(observation: Mapping[str, Any], budget_ms: float | None = None,
         iterations: int | None = None, seed: int | None = None, net: QNet | None = None,
         depth: int | None = None, width: int = NET_CANDIDATES,
         infer: tuple[int, float, int] | None = None,
         population: RolloutPopulation | None = None, belief: Beliefs | None = None
         ) -> Ranked:
    """The searched candidates of the seat to act, best first (Move objects): the network's
    ``width`` best options, each tried in the same sampled worlds and played out by the
    network in every seat to the end of the hand (with a ``depth``: until the seat's
    ``depth``-th next turn, valued there by its best ``Q``; with a ``population``: the other
    seats drawn from it per world, :func:`_population_reply`; with ``belief``: the worlds
    dealt from the belief network's odds, :mod:`solver.games.big_two.belief`)."""
    check_int("width", width, 1, None)
    if depth is not None:
        check_int("depth", depth, 1, None)
    view = View(observation)
    net = net or default_net()
    cands, legal, q = net_candidates(view, net, width)
    if infer is not None and belief is not None:
        raise InputError("worlds are drawn by inference or by beliefs, not both")
    sample = (belief.sampler(view) if belief is not None
              else sample_world if infer is None else resampler(net, view, sample_world, *infer))
    if population is not None and depth is not None:
        raise InputError("a rollout population plays hands to the end: no depth with it")
    reply = (_net_reply(net, view.seat, depth) if population is None
             else _population_reply(net, view.seat, population))
    ranked = search_seat(view, (cands, legal), sample, _play, reply, _net_value(net), budget_ms,
                         iterations, seed, DEFAULT_ITERATIONS)
    ranked.info = {**ranked.info, "method": NET_METHOD,
                   "q": [round(q[m.mask], 6) for m, _ in ranked.moves],
                   **({} if infer is None else {"infer": {"k": infer[0], "tau": infer[1],
                                                          "last": infer[2]}}),
                   **({} if belief is None else {"belief": {"proposals": belief.proposals,
                                                            "power": belief.power}})}
    return ranked


@guarded
def rank_rollout(observation: Mapping[str, Any], budget_ms: float | None = None,
                 iterations: int | None = None, seed: int | None = None) -> Ranked:
    """The previous search (kept to compare with): a short candidate list by kind, each
    rolled out to the end of the hand by the baseline bots in sampled worlds."""
    view = View(observation)
    return search_seat(view, candidates(view), sample_world, _play, _rollout, leaf_value,
                       budget_ms, iterations, seed, ROLLOUT_DEFAULT_ITERATIONS)


def advise(observation: Mapping[str, Any], budget_ms: float | None = None,
           iterations: int | None = None, seed: int | None = None) -> dict[str, Any]:
    """``GameInfo.advise``: the seat's candidate plays ranked by mean points under the rules'
    scoring (see the module's docstring)."""
    ranked = rank(observation, budget_ms, iterations, seed)  # checks the seat is "player"
    return advice(ranked, lambda m: m.to_json(), observation["player"], "big-two")


_rank = rank


class SearchBot(BaseSearchBot):
    """Plays the advisor's first choice (``iterations`` worlds, or ``budget_ms`` per move),
    with the shipped network or ``net``."""

    def __init__(self, iterations: int | None = None, budget_ms: float | None = None,
                 net: QNet | None = None, depth: int | None = None,
                 width: int = NET_CANDIDATES, infer: tuple[int, float, int] | None = None,
                 population: RolloutPopulation | None = None, belief: Beliefs | None = None):
        super().__init__(iterations, budget_ms)
        self.net, self.depth, self.width, self.infer = net, depth, width, infer
        self.population, self.belief = population, belief

    def rank(self, observation: Mapping[str, Any], budget_ms: float | None,  # type: ignore[override]
             iterations: int | None, seed: int) -> Ranked:
        return _rank(observation, budget_ms, iterations, seed, self.net, self.depth, self.width,
                     self.infer, self.population, self.belief)

    same = staticmethod(lambda a, b: a.mask == b.mask)


class RolloutSearchBot(BaseSearchBot):
    """The previous search bot (baseline rollouts), kept as a yardstick."""

    name = "search-rollout"
    rank = staticmethod(rank_rollout)
    same = staticmethod(lambda a, b: a.mask == b.mask)
