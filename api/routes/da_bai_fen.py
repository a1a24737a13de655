"""Da Bai Fen over HTTP: legal plays for a hand, and the winner and points of a trick.

``/moves`` is the name every game uses for the legal-moves query; ``/plays`` is the same
endpoint under its first name, kept for existing clients.

Sizes are bounded by the models (a hand of at most 12 cards, so at most 4,095 plays). A bad
card, rank or suit is a 400 naming the problem; a trick the rules refuse (plays of unequal
sizes, a card both in the hand and the trick, too many plays) is a 422.
"""

from __future__ import annotations

from typing import Annotated

from flask import Blueprint
from pydantic import BaseModel, Field

from api.advise import add_advise_route
from api.endpoint import Body, json_endpoint
from api.schemas import Cards, Int, cards, pattern_choice
from solver.cards import RANK_CHARS, SUIT_CHARS, format_cards, parse_cards
from solver.games.da_bai_fen.cards import (
    HAND_SIZE,
    KITTY_SIZE,
    NUM_PLAYERS,
    TRUMP_RANK_PATTERN,
    TRUMP_SUIT_PATTERN,
    Trump,
    points_of,
)
from solver.games.da_bai_fen.moves import legal_plays, normalize_trick, trick_winner
from solver.games.da_bai_fen.rules import KITTY_MULTIPLIER_RANGE, DaBaiFenRules

bp = Blueprint("da_bai_fen", __name__, url_prefix="/v1/da-bai-fen")

JOKERS = "`BJ` big joker, `SJ` small joker"
HandIn = Annotated[Cards, cards(1, HAND_SIZE, jokers=True,
                                description=f"the player's hand ({JOKERS})")]
PlayIn = Annotated[Cards, cards(1, HAND_SIZE, jokers=True, description="one play")]
KittyIn = Annotated[Cards, cards(0, KITTY_SIZE, jokers=True, description="the buried kitty")]
Rank = Annotated[str, pattern_choice("trump rank", TRUMP_RANK_PATTERN,
                                     " ".join(RANK_CHARS) + " (or 10)",
                                     "trump rank: 2..9, T (or 10), J, Q, K, A")]
Suit = Annotated[str, pattern_choice("trump suit", TRUMP_SUIT_PATTERN,
                                     " ".join(SUIT_CHARS) + ", a symbol or a suit's name",
                                     "trump suit: c, d, h or s (a symbol or name too)")]
KittyMultiplier = Annotated[Int, Field(ge=KITTY_MULTIPLIER_RANGE[0], le=KITTY_MULTIPLIER_RANGE[1])]


class PlaysRequest(Body):
    hand: HandIn
    trump_rank: Rank
    trump_suit: Suit
    trick: Annotated[list[PlayIn], Field(max_length=NUM_PLAYERS - 1)] = Field(
        default_factory=list,
        description="plays so far in the trick, the lead first; empty to lead")
    max_plays: Annotated[Int, Field(ge=0)] | None = Field(
        default=None, description="answer 400 instead of listing more plays than this")


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
    trump_rank: Rank
    trump_suit: Suit
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


@json_endpoint(bp, "/moves", PlaysRequest, PlaysResponse,
               summary="Every legal Da Bai Fen lead or follow for a hand")
def moves(body: PlaysRequest) -> dict:
    trump = Trump.parse(body.trump_rank, body.trump_suit)
    trick = normalize_trick(body.trick, trump)
    result = legal_plays(body.hand, trick, trump, max_plays=body.max_plays)
    return {
        "plays": [{"cards": format_cards(p)} for p in result],
        "count": len(result),
        "lead": not trick,
        "led_suit": trump.suit_name(trump.eff[trick[0][0]]) if trick else None,
    }


@json_endpoint(bp, "/plays", PlaysRequest, PlaysResponse,
               summary="Every legal Da Bai Fen lead or follow for a hand (same as /moves)")
def plays(body: PlaysRequest) -> dict:
    return moves(body)


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
