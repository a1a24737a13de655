"""Capsa Susun over HTTP: arrangement advice (one hand or a batch), the referee, split counts.

Limits: ``samples`` up to 5,000 per request; a batch holds up to 1,000 hands, and a Monte Carlo
batch at most 20,000 samples in all (hands x samples). Monte Carlo work is also bounded as work
(samples x opponents x candidate splits, see ``montecarlo_work``), and under ``capsa serve``
Monte Carlo and batch requests run in the compute pool under the request deadline.
"""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal

from flask import Blueprint
from pydantic import BaseModel, Field

from api.endpoint import Body, Cards, Int, json_endpoint
from api.offload import offload
from solver.errors import InputError
from solver.games.capsa.referee import score
from solver.games.capsa.rules import KIND_NAMES
from solver.games.capsa.solve import arrange, arrange_many
from solver.games.capsa.splits import valid_arrangements

bp = Blueprint("capsa", __name__, url_prefix="/v1/capsa")

MAX_SAMPLES = 5_000
MAX_BATCH = 1_000
MAX_BATCH_SAMPLES = 20_000
MAX_WORK = 120_000_000  # Monte Carlo work units: about 3 s of one free core

Preset = Literal["standard", "basic", "two-four", "indonesia"]
KindName = Literal[tuple(KIND_NAMES)]  # type: ignore[valid-type]
Units = Annotated[Int, Field(ge=0, le=1000)]


class RoyaltyTable(Body):
    front: dict[Literal["high_card", "pair", "trips"], Units] | None = None
    middle: dict[KindName, Units] | None = None
    back: dict[KindName, Units] | None = None


class NaturalUnits(Body):
    dragon: Units | None = None
    six_pairs: Units | None = None
    three_straights: Units | None = None
    three_flushes: Units | None = None


class RulesIn(Body):
    """A preset plus per-option overrides (see the rules file)."""

    preset: Preset = "standard"
    scoring: Literal["one-six", "two-four", "scoop-one", "basic"] | None = None
    royalties: Literal["standard", "none"] | RoyaltyTable | None = None
    royalty_mode: Literal["winner", "net"] | None = None
    single_royalty: bool | None = None
    naturals: bool | NaturalUnits | None = None
    wheel: Literal["lowest", "second"] | None = None

    def spec(self) -> dict[str, Any]:
        d = self.model_dump(exclude_none=True)
        for key in ("royalties", "naturals"):
            if isinstance(d.get(key), dict):
                d[key] = {k: v for k, v in d[key].items() if v is not None}
        return d


RulesField = Annotated[Preset | RulesIn, Field(description="a preset name, or a preset with overrides")]


class ArrangementIn(Body):
    front: Cards
    middle: Cards
    back: Cards


class HandIn(Body):
    hand: Cards


class ArrangeRequest(Body):
    hand: Cards = Field(description="the 13 cards to set")
    rules: RulesField = "standard"
    opponents: Annotated[Int, Field(ge=1, le=3)] = 3
    method: Literal["table", "montecarlo", "known"] = "table"
    samples: Annotated[Int, Field(ge=1, le=MAX_SAMPLES)] = 1000
    seed: Annotated[Int, Field(ge=0, le=2**63 - 1)] | None = None
    top: Annotated[Int, Field(ge=1, le=20)] = 5
    opponent_hands: Annotated[list[Cards], Field(min_length=1, max_length=3)] | None = None
    opponent_arrangements: Annotated[list[ArrangementIn], Field(min_length=1, max_length=3)] | None = None


class RowOut(BaseModel):
    row: Literal["front", "middle", "back"]
    kind: KindName
    win: float
    tie: float


class ArrangementOut(BaseModel):
    front: list[str]
    middle: list[str]
    back: list[str]
    ev: float = Field(description="expected points per hand against all opponents")
    rows: list[RowOut]
    royalties: int
    scoop: float = Field(description="probability of winning all three rows against one opponent")


class NaturalOut(BaseModel):
    kind: Literal["dragon", "six_pairs", "three_straights", "three_flushes"]
    units: int
    split: ArrangementIn | None = None


class ArrangeResponse(BaseModel):
    hand: list[str]
    valid_arrangements: int
    natural: NaturalOut | None
    arrangements: list[ArrangementOut]
    method: Literal["table", "montecarlo", "known"]
    opponents: int
    candidates: int
    samples: int | None = None
    seed: int | None = None
    elapsed_ms: float


class BatchRequest(Body):
    hands: Annotated[list[Cards], Field(min_length=1, max_length=MAX_BATCH)]
    rules: RulesField = "standard"
    opponents: Annotated[Int, Field(ge=1, le=3)] = 3
    method: Literal["table", "montecarlo"] = "table"
    samples: Annotated[Int, Field(ge=1, le=MAX_SAMPLES)] = 1000
    seed: Annotated[Int, Field(ge=0, le=2**63 - 1)] = 0


class BestOut(BaseModel):
    hand: list[str]
    front: list[str]
    middle: list[str]
    back: list[str]
    ev: float


class BatchResponse(BaseModel):
    results: list[BestOut]
    elapsed_ms: float


class ScoreRequest(Body):
    rules: RulesField = "standard"
    players: Annotated[list[ArrangementIn | HandIn], Field(min_length=2, max_length=4)]


class VsOut(BaseModel):
    opponent: int
    points: int
    rows: list[int]
    scoop: int
    royalties: int
    natural: int


class PlayerOut(BaseModel):
    points: int
    foul: bool
    natural: Literal["dragon", "six_pairs", "three_straights", "three_flushes"] | None
    vs: list[VsOut]


class ScoreResponse(BaseModel):
    players: list[PlayerOut]


class ValidRequest(Body):
    hand: Cards
    rules: RulesField = "standard"


class ValidResponse(BaseModel):
    valid_arrangements: int


def _rules(r: str | RulesIn) -> Any:
    return r if isinstance(r, str) else r.spec()


@json_endpoint(bp, "/arrange", ArrangeRequest, ArrangeResponse)
@offload(lambda body: body.method == "montecarlo")
def arrange_hand(body: ArrangeRequest) -> dict:
    """Rank the arrangements of 13 cards by expected points."""
    start = time.perf_counter()
    res = arrange(body.hand, _rules(body.rules), body.opponents, body.method, body.samples,
                  body.seed, body.top,
                  opponent_hands=body.opponent_hands,
                  opponent_arrangements=[a.model_dump() for a in body.opponent_arrangements]
                  if body.opponent_arrangements else None, max_work=MAX_WORK)
    out = res.to_dict()
    out["elapsed_ms"] = round((time.perf_counter() - start) * 1e3, 3)
    return out


@json_endpoint(bp, "/arrange/batch", BatchRequest, BatchResponse)
@offload()
def arrange_batch(body: BatchRequest) -> dict:
    """The best arrangement of each of up to 1,000 hands."""
    if body.method == "montecarlo" and len(body.hands) * body.samples > MAX_BATCH_SAMPLES:
        raise InputError(f"a Monte Carlo batch may use at most {MAX_BATCH_SAMPLES:,} samples in "
                         f"all (hands x samples), got {len(body.hands) * body.samples:,}")
    start = time.perf_counter()
    results = arrange_many(body.hands, _rules(body.rules), body.opponents, body.method,
                           body.samples, body.seed, processes=1, max_work=MAX_WORK)
    return {"results": results, "elapsed_ms": round((time.perf_counter() - start) * 1e3, 3)}


@json_endpoint(bp, "/score", ScoreRequest, ScoreResponse)
def score_table(body: ScoreRequest) -> dict:
    """Settle a table of 2 to 4 players (the referee)."""
    return score([p.model_dump() for p in body.players], _rules(body.rules)).to_dict()


@json_endpoint(bp, "/valid", ValidRequest, ValidResponse)
def count_valid(body: ValidRequest) -> dict:
    """How many of the 72,072 splits of 13 cards are not fouls."""
    return {"valid_arrangements": valid_arrangements(body.hand, _rules(body.rules))}
