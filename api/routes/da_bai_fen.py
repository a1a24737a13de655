"""Da Bai Fen over HTTP: legal plays for a hand, and the winner and points of a trick.

``/moves`` is the name every game uses for the legal-moves query; ``/plays`` is the same
endpoint under its first name, kept for existing clients.

Sizes are bounded by the models (a hand of at most 12 cards, so at most 4,095 plays). A bad
card, rank or suit is a 400 naming the problem; a trick the rules refuse (plays of unequal
sizes, a card both in the hand and the trick, too many plays) is a 422.
"""

from __future__ import annotations

from typing import Annotated, Any

from flask import Blueprint
from pydantic import BaseModel, Field

from api.advise import add_advise_route
from api.endpoint import Body, json_endpoint
from api.moves import add_moves_route, field_type, moves_request
from api.schemas import Cards, Int, cards
from solver.cards import format_cards, parse_cards
from solver.games.da_bai_fen.cards import HAND_SIZE, KITTY_SIZE, NUM_PLAYERS, Trump, points_of
from solver.games.da_bai_fen.moves import normalize_trick, trick_winner
from solver.games.da_bai_fen.rules import KITTY_MULTIPLIER_RANGE, DaBaiFenRules

bp = Blueprint("da_bai_fen", __name__, url_prefix="/v1/da-bai-fen")

PlayIn = Annotated[Cards, cards(1, HAND_SIZE, jokers=True, description="one play")]
KittyIn = Annotated[Cards, cards(0, KITTY_SIZE, jokers=True, description="the buried kitty")]
# the trump as /moves takes it (the game's moves_args)
Rank = field_type("da-bai-fen", "trump_rank")
Suit = field_type("da-bai-fen", "trump_suit")
KittyMultiplier = Annotated[Int, Field(ge=KITTY_MULTIPLIER_RANGE[0], le=KITTY_MULTIPLIER_RANGE[1])]

# the body of /moves and /plays, from the game's moves_args
PlaysRequest = moves_request("da-bai-fen", "PlaysRequest")


class PlayOut(BaseModel):
    cards: list[str]


class PlaysResponse(BaseModel):
    plays: list[PlayOut] = Field(description="every legal play once, cards high to low")
    count: int
    lead: bool = Field(description="true when the plays are leads")
    led_suit: str | None = Field(description="`trumps` or the led suit's name; null on a lead")


class TrickRequest(Body):
    trick: Annotated[list[PlayIn], Field(
        min_length=1, max_length=NUM_PLAYERS)] = Field(
        description="the plays of the trick in order, the lead first (complete or partial)")
    trump_rank: Rank  # type: ignore[valid-type]
    trump_suit: Suit  # type: ignore[valid-type]
    kitty: KittyIn | None = Field(
        default=None, description="on the last trick: the buried kitty, whose points count "
                                  "kitty_multiplier times for the defenders if they win it")
    kitty_multiplier: KittyMultiplier = Field(
        default=DaBaiFenRules().kitty_multiplier, description="the rule option of that name")


class TrickResponse(BaseModel):
    winner: int = Field(description="index of the winning play so far, 0 = the leader")
    winning_cards: list[str]
    points: int = Field(description="points in the trick's cards")
    complete: bool = Field(description="true when all 4 players have played")
    kitty_bonus: int = Field(description="kitty points times the multiplier (0 without a kitty)")


def _plays_answer(kwargs: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """The game's answer (the plays) with their count, and what they answer: a lead, or a
    follow to the led suit."""
    trump = Trump.parse(kwargs["trump_rank"], kwargs["trump_suit"])
    trick = normalize_trick(kwargs["trick"], trump)
    return {
        "plays": result["plays"],
        "count": len(result["plays"]),
        "lead": not trick,
        "led_suit": trump.suit_name(trump.eff[trick[0][0]]) if trick else None,
    }


add_moves_route(bp, "da-bai-fen", PlaysRequest, PlaysResponse, answer=_plays_answer,
                summary="Every legal Da Bai Fen lead or follow for a hand")
add_moves_route(bp, "da-bai-fen", PlaysRequest, PlaysResponse, answer=_plays_answer,
                rule="/plays",
                summary="Every legal Da Bai Fen lead or follow for a hand (same as /moves)")


@json_endpoint(bp, "/trick", TrickRequest, TrickResponse,
               summary="Winner and points of a Da Bai Fen trick")
def trick(body: TrickRequest) -> dict:
    trump = Trump.parse(body.trump_rank, body.trump_suit)
    t = normalize_trick(body.trick, trump)
    rules = DaBaiFenRules(kitty_multiplier=body.kitty_multiplier)
    bonus = 0
    if body.kitty is not None:
        kitty = parse_cards(body.kitty, allow_jokers=True)
        bonus = points_of(kitty) * rules.kitty_multiplier
    w = trick_winner(t, trump)
    return {
        "winner": w,
        "winning_cards": format_cards(t[w]),
        "points": sum(points_of(p) for p in t),
        "complete": len(t) == 4,
        "kitty_bonus": bonus,
    }


add_advise_route(bp, "da-bai-fen")
