"""Capsa Susun over HTTP: arrangement advice (one hand or a batch), the referee, split counts.

Limits (``solver.games.capsa.limits``): ``samples`` up to 5,000 per request; a batch holds up
to 1,000 hands, and a Monte Carlo batch at most 20,000 samples in all (hands x samples).
Monte Carlo work is also bounded as work (samples x opponents x candidate splits, see
``montecarlo_work``), and under ``capsa serve`` Monte Carlo and batch requests run in the
compute pool under the request deadline. Every vocabulary (presets, scorings, royalty modes, hand kinds,
naturals, wheels, methods) comes from the rules and solver modules.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from api.capsa_models import (
    MAX_REVIEW_LINES,
    ArrangeRequest,
    ArrangeResponse,
    BatchRequest,
    BatchResponse,
    ProfileRequest,
    ProfileResponse,
    ReviewRequest,
    ReviewResponse,
    RulesIn,
    ScoreRequest,
    ScoreResponse,
    ValidRequest,
    ValidResponse,
)
from api.endpoint import json_endpoint
from api.offload import run
from solver.batch.many import arrange_many
from solver.errors import InputError
from solver.executors.pool import timed
from solver.games.capsa.arrange import arrange
from solver.games.capsa.coach import split_text
from solver.games.capsa.limits import (
    MAX_BATCH_SAMPLES,
    MAX_WORK_PER_REQUEST,
)
from solver.games.capsa.profile import profile, review
from solver.games.capsa.referee import score
from solver.games.capsa.splits import valid_arrangements

bp = Blueprint("capsa", __name__, url_prefix="/v1/capsa")

MAX_WORK = MAX_WORK_PER_REQUEST  # Monte Carlo work a request may ask for



def _rules(r: str | RulesIn) -> Any:
    return r if isinstance(r, str) else r.spec()


def _ms(seconds: float) -> float:
    """An answer's ``elapsed_ms``: the solver's time where it ran."""
    return round(seconds * 1e3, 3)


@json_endpoint(bp, "/arrange", ArrangeRequest, ArrangeResponse)
def arrange_hand(body: ArrangeRequest) -> dict:
    """Rank the arrangements of 13 cards by expected points."""
    res, seconds = run(timed, arrange, body.hand, _rules(body.rules), body.opponents,
                       body.method, body.samples, body.seed, body.top,
                       opponent_hands=body.opponent_hands,
                       opponent_arrangements=[a.model_dump() for a in body.opponent_arrangements]
                       if body.opponent_arrangements else None, max_work=MAX_WORK,
                       card_removal=body.card_removal, adaptive=body.adaptive,
                       opponent_profiles=body.opponent_profiles,
                       costly=body.method == "montecarlo")
    return {**res.to_dict(), "elapsed_ms": _ms(seconds)}


@json_endpoint(bp, "/arrange/batch", BatchRequest, BatchResponse)
def arrange_batch(body: BatchRequest) -> dict:
    """The best arrangement of each of up to 1,000 hands."""
    if body.method == "montecarlo" and len(body.hands) * body.samples > MAX_BATCH_SAMPLES:
        raise InputError(f"a Monte Carlo batch may use at most {MAX_BATCH_SAMPLES:,} samples in "
                         f"all (hands x samples), got {len(body.hands) * body.samples:,}")
    results, seconds = run(timed, arrange_many, body.hands, _rules(body.rules), body.opponents,
                           body.method, body.samples, body.seed, processes=1,
                           max_work=MAX_WORK, card_removal=body.card_removal)
    return {"results": results, "elapsed_ms": _ms(seconds)}


@json_endpoint(bp, "/score", ScoreRequest, ScoreResponse)
def score_table(body: ScoreRequest) -> dict:
    """Settle a table of 2 to 4 players (the referee)."""
    return score([p.model_dump() for p in body.players], _rules(body.rules)).to_dict()


@json_endpoint(bp, "/valid", ValidRequest, ValidResponse)
def count_valid(body: ValidRequest) -> dict:
    """How many of the 72,072 splits of 13 cards are not fouls."""
    return {"valid_arrangements": valid_arrangements(body.hand, _rules(body.rules))}


@json_endpoint(bp, "/review", ReviewRequest, ReviewResponse)
def review_hands(body: ReviewRequest) -> dict:
    """Review hands played elsewhere: each hand's EV, the best EV, EV lost and the kind of
    mistake; the summary (EV lost with a 95% bootstrap interval, per mistake class, the
    costliest hands). The text's lines are rows as plain text or JSON objects."""
    if (body.text is None) == (body.hands is None):
        raise InputError("give the played hands either as text (one a line) or as hands, not both")
    lines: list[Any] = split_text(body.text) if body.text is not None else list(body.hands or [])
    if len(lines) > MAX_REVIEW_LINES:
        raise InputError(f"a review takes at most {MAX_REVIEW_LINES:,} lines, got {len(lines):,}")
    if body.method == "montecarlo" and len(lines) * body.samples > MAX_BATCH_SAMPLES:
        raise InputError(f"a Monte Carlo review may use at most {MAX_BATCH_SAMPLES:,} samples in "
                         f"all (hands x samples), got {len(lines) * body.samples:,}")
    report, seconds = run(timed, review, lines, _rules(body.rules), body.opponents,
                          body.method, body.samples, body.seed, card_removal=body.card_removal,
                          opponent_profiles=body.opponent_profiles)
    return {**report.to_dict(), "elapsed_ms": _ms(seconds)}


@json_endpoint(bp, "/profile", ProfileRequest, ProfileResponse)
def profile_player(body: ProfileRequest) -> dict:
    """Learn how one player sets hands from the hands they showed: the profile (to give back
    in ``opponent_profiles`` of a Monte Carlo arrange) and what it learnt, in words."""
    if (body.text is None) == (body.hands is None):
        raise InputError("give the shown hands either as text (JSON lines) or as hands, not both")
    lines: list[Any] = split_text(body.text) if body.text is not None else list(body.hands or [])
    if len(lines) > MAX_REVIEW_LINES:
        raise InputError(f"a profile takes at most {MAX_REVIEW_LINES:,} lines, got {len(lines):,}")
    fitted, seconds = run(timed, profile, lines, _rules(body.rules))
    return {**fitted.to_dict(), "elapsed_ms": _ms(seconds)}
