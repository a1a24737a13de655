"""Da San (Big Three) endpoints: legal moves of a hand, and what a set of cards is."""

from __future__ import annotations

from typing import Annotated, Literal

from flask import Blueprint
from pydantic import BaseModel, Field

from api.advise import add_advise_route
from api.endpoint import Body, json_endpoint
from api.moves import add_moves_route, moves_request
from api.schemas import Cards, cards, choice
from solver.games.da_san.moves import MAX_HAND, PLAY_KINDS, RANK_ORDER, classify_result

bp = Blueprint("da_san", __name__, url_prefix="/v1/da-san")

KindName = Annotated[str, choice("kind", tuple(k.label for k in PLAY_KINDS))]
RankName = Annotated[str, choice("rank", tuple(RANK_ORDER))]

# a play comes out of a hand, so it holds no more cards than one; none is a pass
PlayCards = Annotated[Cards, cards(0, MAX_HAND, description="the cards (none: a pass)")]

# the body of /moves, from the game's moves_args
MovesRequest = moves_request("da-san", "MovesRequest")


class MoveOut(BaseModel):
    cards: list[str] = Field(description="the cards, low to high")
    kind: KindName


class MovesResponse(BaseModel):
    moves: list[MoveOut] = Field(description="plays by kind, number of cards, then top rank")
    can_pass: bool = Field(description="false when leading: the leader may not pass")


class ClassifyRequest(Body):
    cards: PlayCards = Field(description="the cards to classify (none: a pass)")


class ClassifyResponse(BaseModel):
    cards: list[str]
    kind: KindName | Literal["pass"] | None = Field(description="null: not a Da San combination")
    strength: int | None = Field(description="Da San rank of the top rank, 0 (`4`) to 12 (`3`)")
    top: RankName | None = Field(
        description=f"the top rank, one of `{RANK_ORDER}`")


# all_suits on a 20-card hand lists thousands of plays: keep it off the web threads
add_moves_route(bp, "da-san", MovesRequest, MovesResponse, offloaded=True,
                summary="Legal Da San plays of a hand, leading or on a current play")


@json_endpoint(bp, "/classify", ClassifyRequest, ClassifyResponse,
               summary="What a set of cards is in Da San (kind and strength)")
def classify(body: ClassifyRequest) -> dict:
    """What a set of cards is in Da San (kind and strength)."""
    return classify_result(body.cards)


add_advise_route(bp, "da-san")
