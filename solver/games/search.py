"""Determinized Monte Carlo search, shared by the advisors of Big Two, Da San and Da Bai Fen.

Each iteration samples one *world*: a full game state consistent with what the seat to act
has seen (its own cards, the public record, card counts, voids shown by play), built from the
observation alone. Every candidate move is then played in that same world and the hand is
rolled out to its end by fast heuristic bots; the seat's value is averaged over the worlds
(perfect-information Monte Carlo). Scoring every candidate on the same worlds cancels much
of the deal's luck out of the comparison.

Candidates whose mean falls far below the best (by more than ``PRUNE_Z`` standard errors of
the difference) stop receiving rollouts, so the budget goes to the close calls.

A budget is ``iterations`` (worlds; the result is then a function of the seed) or
``budget_ms`` (wall time, checked between worlds, at least one world: how far it gets depends
on the machine and its load, so it is not reproducible). With neither, the caller's
``default_iterations`` (each game's ``DEFAULT_ITERATIONS``), so that a seeded bot or advice
is the same on every machine: a session's bots play the same moves again on a replay or
after a restart.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from solver.errors import InputError

MAX_ITERATIONS = 1_000_000
MAX_BUDGET_MS = 60_000.0
PRUNE_Z = 3.0
PRUNE_AFTER = 8  # worlds before any candidate may be dropped


@dataclass
class Stats:
    """Running mean and variance of one candidate's rollout values (Welford)."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        d = x - self.mean
        self.mean += d / self.n
        self.m2 += d * (x - self.mean)

    @property
    def stderr(self) -> float:
        if self.n < 2:
            return 0.0
        return math.sqrt(self.m2 / (self.n - 1) / self.n)


@dataclass
class Problem:
    """One decision to search: the candidates and how to sample, play out and score a world.

    ``sample(rng)`` returns a fresh world (a game state at this decision); ``play(world,
    move)`` applies a candidate; ``rollout(world, rng)`` plays it to the end; ``value(world)``
    is the seat's score of the finished world.
    """

    candidates: Sequence[Any]
    sample: Callable[[random.Random], Any]
    play: Callable[[Any, Any], None]
    rollout: Callable[[Any, random.Random], None]
    value: Callable[[Any], float]
    legal_count: int = 0
    info: dict[str, Any] = field(default_factory=dict)


@dataclass
class Ranked:
    """The search's answer: candidates best first, with their statistics."""

    moves: list[tuple[Any, Stats]]
    iterations: int
    elapsed_ms: float
    legal_count: int
    info: dict[str, Any]


def check_budget(budget_ms: float | None, iterations: int | None,
                 default_iterations: int | None = None) -> tuple[float | None, int | None]:
    """Validated budget (``InputError`` naming the bad value and the allowed range); with
    neither ``iterations`` nor ``budget_ms``, ``default_iterations`` worlds."""
    if iterations is not None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) \
                or not 1 <= iterations <= MAX_ITERATIONS:
            raise InputError(f"iterations must be an integer from 1 to {MAX_ITERATIONS:,}, "
                             f"got {iterations!r}")
    if budget_ms is not None:
        if isinstance(budget_ms, bool) or not isinstance(budget_ms, (int, float)) \
                or not 0 < budget_ms <= MAX_BUDGET_MS:
            raise InputError(f"budget_ms must be a number above 0 and at most "
                             f"{MAX_BUDGET_MS:,.0f}, got {budget_ms!r}")
    if iterations is None and budget_ms is None:
        if default_iterations is None:
            raise ValueError("a search needs iterations, budget_ms or default_iterations")
        iterations = default_iterations
    return budget_ms, iterations


def search(problem: Problem, budget_ms: float | None = None, iterations: int | None = None,
           seed: int | None = None, default_iterations: int | None = None) -> Ranked:
    """Rank ``problem.candidates`` by their mean rollout value over sampled worlds (the
    budget as :func:`check_budget` reads it)."""
    budget_ms, iterations = check_budget(budget_ms, iterations, default_iterations)
    start = time.perf_counter()
    deadline = None if budget_ms is None else start + budget_ms / 1000.0
    cands = list(problem.candidates)
    stats = [Stats() for _ in cands]
    active = list(range(len(cands)))
    master = random.Random(seed)
    worlds = 0
    while True:
        world_seed = master.getrandbits(64)
        world = problem.sample(random.Random(world_seed))
        for i in active:
            w = world if len(active) == 1 else _clone(world)
            problem.play(w, cands[i])
            problem.rollout(w, random.Random(world_seed ^ 0x5EED))  # same luck per candidate
            stats[i].add(problem.value(w))
        worlds += 1
        if worlds >= PRUNE_AFTER and len(active) > 2:
            active = _prune(active, stats)
        if iterations is not None and worlds >= iterations:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
        if worlds >= MAX_ITERATIONS:
            break
    order = sorted(range(len(cands)), key=lambda i: (-stats[i].mean, -stats[i].n, i))
    return Ranked([(cands[i], stats[i]) for i in order], worlds,
                  (time.perf_counter() - start) * 1000.0, problem.legal_count or len(cands),
                  problem.info)


def _clone(world: Any) -> Any:
    return world.clone()


def _prune(active: list[int], stats: list[Stats]) -> list[int]:
    """Drop candidates whose mean is far below the leader's (at least two stay)."""
    best = max(active, key=lambda i: stats[i].mean)
    b = stats[best]
    keep = []
    for i in active:
        s = stats[i]
        gap = b.mean - s.mean
        se = math.sqrt(b.stderr ** 2 + s.stderr ** 2)
        if i == best or gap <= PRUNE_Z * se or se == 0.0 and gap == 0.0:
            keep.append(i)
    if len(keep) < 2:
        rest = sorted((i for i in active if i not in keep), key=lambda i: -stats[i].mean)
        keep.extend(rest[:2 - len(keep)])
    return keep


def advice(ranked: Ranked, move_json: Callable[[Any], dict[str, Any]], seat: int,
           game: str) -> dict[str, Any]:
    """The JSON document ``GameInfo.advise`` returns."""
    return {
        "game": game,
        "player": seat,
        "method": "determinized Monte Carlo (sampled hidden cards, heuristic rollouts)",
        "iterations": ranked.iterations,
        "elapsed_ms": round(ranked.elapsed_ms, 3),
        "legal_moves": ranked.legal_count,
        "evaluated": len(ranked.moves),
        "moves": [{"move": move_json(m), "value": round(s.mean, 6),
                   "stderr": round(s.stderr, 6), "samples": s.n} for m, s in ranked.moves],
        **ranked.info,
    }


def single(move: Any, legal_count: int = 1) -> Ranked:
    """The answer when there is one move only (no search needed)."""
    return Ranked([(move, Stats())], 0, 0.0, legal_count, {"forced": True})


def require_turn(observation: Any, seat_key: str, to_act_key: str, game: str) -> int:
    """The seat of an observation, which must be the seat to act (``InputError`` if not)."""
    if not isinstance(observation, Mapping):
        raise InputError("the observation must be a JSON object")
    if observation.get("game", game) != game:
        raise InputError(f"this observation is for game {observation.get('game')!r}, "
                         f"not {game!r}")
    seat = observation.get(seat_key)
    to_act = observation.get(to_act_key)
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise InputError(f"observation.{seat_key} must be a seat number, got {seat!r}")
    if to_act != seat:
        raise InputError(f"seat {seat} is not to act (the seat to act is {to_act!r}); "
                         f"advice is for the seat to act")
    return seat


@contextmanager
def observation_errors() -> Iterator[None]:
    """Report a malformed or inconsistent observation read inside the block as
    ``InputError`` (an observation is outside input: it must never surface as a crash)."""
    try:
        yield
    except InputError:
        raise
    except (LookupError, TypeError, ValueError, AttributeError) as exc:
        message = f"the observation is malformed or inconsistent: {exc!r}"
        raise InputError(message[:300]) from None


def guarded(rank: Callable[..., Ranked]) -> Callable[..., Ranked]:
    """``rank`` with a malformed or inconsistent observation reported as ``InputError``
    (an observation is outside input: it must never surface as a crash)."""

    def wrapper(observation: Any, budget_ms: float | None = None, iterations: int | None = None,
                seed: int | None = None, *extra: Any, **options: Any) -> Ranked:
        with observation_errors():
            return rank(observation, budget_ms, iterations, seed, *extra, **options)

    wrapper.__name__, wrapper.__doc__ = rank.__name__, rank.__doc__
    return wrapper


class SearchBot:
    """A bot that plays the advisor's first choice (``iterations`` worlds, or ``budget_ms`` per
    move; with neither, the game's default worlds, so its moves are a function of its ``rng``).
    Each game sets ``rank`` (its advisor's ranking) and ``same`` (when one of the legal moves
    given is the move the search chose, if not equal as values)."""

    name = "search"

    def __init__(self, iterations: int | None = None, budget_ms: float | None = None):
        self.iterations, self.budget_ms = iterations, budget_ms

    @staticmethod
    def rank(observation: Mapping[str, Any], budget_ms: float | None, iterations: int | None,
             seed: int) -> Ranked:
        raise NotImplementedError

    @staticmethod
    def same(a: Any, b: Any) -> bool:
        return a == b

    def __call__(self, observation: Mapping[str, Any], legal_moves: Sequence[Any],
                 rng: random.Random) -> Any:
        if len(legal_moves) == 1:
            return legal_moves[0]
        best = self.rank(observation, self.budget_ms, self.iterations,
                         rng.getrandbits(32)).moves[0][0]
        for m in legal_moves:
            if m == best:
                return m
        for m in legal_moves:
            if self.same(m, best):
                return m
        raise InputError("the search chose a move that is not among the legal moves given")


def search_seat(view: Any, candidates: tuple[Sequence[Any], int],
                sample_world: Callable[[Any, random.Random], Any],
                play: Callable[[Any, Any], None], rollout: Callable[[Any, random.Random], None],
                value: Callable[[Any, int], float], budget_ms: float | None,
                iterations: int | None, seed: int | None,
                default_iterations: int | None = None) -> Ranked:
    """Rank ``candidates`` (the moves to search, and how many moves are legal) of the seat
    ``view.seat``: worlds from ``sample_world(view, rng)``, each scored ``value(world, seat)``
    at its end. A single candidate is answered without search."""
    cands, legal = candidates
    if len(cands) == 1:
        return single(cands[0], legal)
    seat = view.seat
    problem = Problem(cands, lambda rng: sample_world(view, rng), play, rollout,
                      lambda w: value(w, seat), legal)
    return search(problem, budget_ms, iterations, seed, default_iterations)
