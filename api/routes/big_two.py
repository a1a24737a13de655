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
from api.offload import offload
from api.schemas import Cards, card, cards, choice
from solver.games.big_two import BigTwoRules, Kind, classify, describe, moves_result
from solver.games.big_two.moves import HAND_SIZE
from solver.games.big_two.rules import DEFAULT_RULES, FLUSH_ORDERS, SCORINGS, STRAIGHTS

bp = Blueprint("big_two", __name__, url_prefix="/v1/big-two")

HandCards = Annotated[Cards, cards(1, HAND_SIZE, description="the player's hand")]
PlayCards = Annotated[Cards, cards(1, HAND_SIZE, description="a play")]
KindLabel = Annotated[str, choice("kind", tuple(k.label for k in Kind if k != Kind.PASS))]
StraightsIn = Annotated[str, choice("straights", STRAIGHTS)]
FlushOrderIn = Annotated[str, choice("flush_order", FLUSH_ORDERS)]
ScoringIn = Annotated[str, choice("scoring", SCORINGS)]


class BigTwoRulesIn(Body):
    straights: StraightsIn = Field(
        default=DEFAULT_RULES.straights, description="`poker` adds A-2-3-4-5 and 2-3-4-5-6 as the top straights")
    flush_order: FlushOrderIn = Field(
        default=DEFAULT_RULES.flush_order, description="flushes compare by ranks then suit, or by suit first")
    bomb_on_two: bool = Field(
        default=DEFAULT_RULES.bomb_on_two, description="four of a kind + 1 or a straight flush may beat a single 2")
    scoring: ScoringIn = Field(
        default=DEFAULT_RULES.scoring,
        description="how a hand is scored (the legal plays are the same): `penalty` 1/2/3 "
                    "points a card left by count, `cards-left` 1 point a card")

    def to_rules(self) -> BigTwoRules:
        return BigTwoRules.from_options(self.model_dump())


class BigTwoMovesRequest(Body):
    hand: HandCards
    current: PlayCards | None = Field(
        default=None, description="the play to beat; null or absent when the player leads")
    first_trick: bool = Field(default=False, description="opening lead: every play must hold 3d")
    required: Annotated[str, card()] | None = Field(
        default=None, description="card every play must hold (with 2-3 players: the lowest dealt)")
    rules: BigTwoRulesIn | None = None


class BigTwoMoveOut(BaseModel):
    cards: list[str] = Field(description="the play's cards, weakest first")
    kind: KindLabel


class BigTwoMovesResponse(BaseModel):
    moves: list[BigTwoMoveOut] = Field(description="every legal play once, by kind then strength")
    can_pass: bool = Field(description="false when the player leads")


class BigTwoClassifyRequest(Body):
    cards: PlayCards
    rules: BigTwoRulesIn | None = None


class BigTwoClassifyResponse(BaseModel):
    cards: list[str]
    kind: KindLabel
    size: int
    strength: int = Field(description="among plays with as many cards, the larger strength beats")
    rank: str | None = Field(
        default=None, description="rank that decides singles, pairs, triples, full houses, fours")


def _rules(body_rules: BigTwoRulesIn | None) -> BigTwoRules:
    return body_rules.to_rules() if body_rules is not None else BigTwoRules()


@json_endpoint(bp, "/moves", BigTwoMovesRequest, BigTwoMovesResponse,
               summary="Every legal Big Two play for a hand, and whether passing is allowed")
@offload()  # up to ~50 ms of Python for a one-suit hand: keep it off the web threads
def moves(body: BigTwoMovesRequest) -> dict:
    return moves_result(body.hand, body.current, body.first_trick, _rules(body.rules), body.required)


@json_endpoint(bp, "/classify", BigTwoClassifyRequest, BigTwoClassifyResponse,
               summary="The Big Two combination some cards form (422 when none)")
def classify_cards(body: BigTwoClassifyRequest) -> dict:
    return describe(classify(body.cards, _rules(body.rules)))


add_advise_route(bp, "big-two")
