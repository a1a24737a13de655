"""``POST /v1/<game>/advise``: one small endpoint per game, added to that game's blueprint.

The body is the seat's observation (the game contract's ``observation(seat)`` document) and
a budget; the answer ranks the seat's legal moves by the game's search. The service caps the
budget (:data:`MAX_ITERATIONS`, :data:`MAX_BUDGET_MS`) so that one request cannot hold a
worker for long; the CLI allows more.
"""

from __future__ import annotations

from typing import Annotated, Any

from flask import Blueprint
from pydantic import BaseModel, ConfigDict, Field

from api.endpoint import Body, json_endpoint
from api.offload import run
from api.schemas import Int
from solver.games import get_game
from solver.games.capsa.limits import MAX_SEED

MAX_ITERATIONS = 5_000
MAX_BUDGET_MS = 5_000


class AdviseRequest(Body):
    observation: dict[str, Any] = Field(
        description="what the seat to act sees: the game's observation(seat) document")
    iterations: Annotated[Int, Field(ge=1, le=MAX_ITERATIONS)] | None = Field(
        default=None, description="sampled worlds to search (deterministic for a seed)")
    budget_ms: Annotated[Int, Field(ge=1, le=MAX_BUDGET_MS)] | None = Field(
        default=None, description="search time instead of iterations (default: the advisor's)")
    seed: Annotated[Int, Field(ge=0, le=MAX_SEED)] | None = Field(
        default=0, description="search seed")


class AdvisedMove(BaseModel):
    move: dict[str, Any] = Field(description="the move, as the game writes moves")
    value: float = Field(description="mean value of the move for the seat over the worlds")
    stderr: float = Field(description="standard error of that mean")
    samples: int = Field(description="worlds the move was played out in")


class AdviceResponse(BaseModel):
    model_config = ConfigDict(extra="allow")

    game: str
    player: int
    method: str
    iterations: int = Field(description="worlds sampled")
    elapsed_ms: float
    legal_moves: int = Field(description="how many legal moves the seat has")
    evaluated: int = Field(description="how many of them were searched")
    moves: list[AdvisedMove] = Field(description="the searched moves, best first")
    q: list[float] | None = Field(
        default=None, description="Big Two, Da San and Da Bai Fen: the value network's "
                                  "estimate of each searched move's value, in the order of "
                                  "moves")


def add_advise_route(bp: Blueprint, game: str) -> None:
    """Register ``POST <prefix>/advise`` on ``bp`` for ``game``."""
    title = get_game(game).title

    def advise(body: AdviseRequest) -> dict:
        advise_fn = get_game(game).advise
        assert advise_fn is not None  # only games with an advisor get the route
        return run(advise_fn, body.observation, budget_ms=body.budget_ms,
                   iterations=body.iterations, seed=body.seed)

    advise.__name__ = advise.__qualname__ = f"advise_{game.replace('-', '_')}"
    json_endpoint(bp, "/advise", AdviseRequest, AdviceResponse,
                  summary=f"Rank the legal moves of the seat to act in {title} by search")(
        advise)
