"""Big Two (Capsa Banting) over HTTP: legal plays for a hand, and what a play is.

A hand holds at most 13 cards, so an answer lists at most 1,664 plays. Bad cards and bad
rule options are 400s naming the problem; a ``current`` that is not a combination, or one
that shares cards with the hand, is a 422 (well formed, but not a Big Two position).
"""

from __future__ import annotations

from typing import Annotated

from flask import Blueprint
from pydantic import BaseModel, Field

from api.advise import add_advise_route
from api.endpoint import Body, json_endpoint
from api.moves import add_moves_route, group_model, moves_request
from api.schemas import Cards, cards, choice
from solver.games.big_two import BigTwoRules, Kind, classify, describe
from solver.games.big_two.moves import HAND_SIZE

bp = Blueprint("big_two", __name__, url_prefix="/v1/big-two")

PlayCards = Annotated[Cards, cards(1, HAND_SIZE, description="a play")]
KindLabel = Annotated[str, choice("kind", tuple(k.label for k in Kind if k != Kind.PASS))]

# the body of /moves, from the game's moves_args; its rule options, an object ``rules``, are
# /classify's too
BigTwoMovesRequest = moves_request("big-two", "BigTwoMovesRequest", {"rules": "BigTwoRulesIn"})
BigTwoRulesIn = group_model(BigTwoMovesRequest, "rules")


class BigTwoMoveOut(BaseModel):
    cards: list[str] = Field(description="the play's cards, weakest first")
    kind: KindLabel


class BigTwoMovesResponse(BaseModel):
    moves: list[BigTwoMoveOut] = Field(description="every legal play once, by kind then strength")
    can_pass: bool = Field(description="false when the player leads")


class BigTwoClassifyRequest(Body):
    cards: PlayCards
    rules: BigTwoRulesIn | None = None  # type: ignore[valid-type]


class BigTwoClassifyResponse(BaseModel):
    cards: list[str]
    kind: KindLabel
    size: int
    strength: int = Field(description="among plays with as many cards, the larger strength beats")
    rank: str | None = Field(
        default=None, description="rank that decides singles, pairs, triples, full houses, fours")


def _rules(body_rules: BaseModel | None) -> BigTwoRules:
    return BigTwoRules.from_options(body_rules.model_dump()) if body_rules is not None \
        else BigTwoRules()


# up to ~50 ms of Python for a one-suit hand: keep it off the web threads
add_moves_route(bp, "big-two", BigTwoMovesRequest, BigTwoMovesResponse, offloaded=True,
                summary="Every legal Big Two play for a hand, and whether passing is allowed")


@json_endpoint(bp, "/classify", BigTwoClassifyRequest, BigTwoClassifyResponse,
               summary="The Big Two combination some cards form (422 when none)")
def classify_cards(body: BigTwoClassifyRequest) -> dict:
    return describe(classify(body.cards, _rules(body.rules)))


add_advise_route(bp, "big-two")
