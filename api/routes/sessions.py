"""Game sessions over HTTP: play any registered game against the project's bots.

Every call is a POST with a JSON body; the session token travels in the body, never in a
URL (URLs end up in access logs, histories and Referer headers). Answers carry only what
the human seat may see (see :mod:`solver.sessions.service`). Errors: 400 bad fields, 404
unknown or expired token (or hand), 409 a request that does not fit the session's state,
413 a document over the size bound, 422 an illegal move (the engine's reason in words).

The Capsa drill (``/v1/sessions/drill...``, :mod:`solver.sessions.drill`) is a session of the
same store: one hand of your 13 cards at a time, your rows graded at once by the coach, the
running figures kept. The play routes answer a drill's token with 409 ``drill_session``, the
drill routes a play session's with 409 ``not_a_drill``; ``/delete`` ends either.

The store is opened and checked when the app is built (:mod:`api.storage`); a store that
fails later answers 503 ``storage_unavailable`` with ``Retry-After``.

``/move``, ``/next`` and ``/replay`` (and the drill's ``/move``, ``/next`` and ``/again``)
take the ``version`` of the view they were made from
(every view carries it): a resend of the request that made the current version (a client
retrying after a time-out) is answered with the view now and not applied twice; a request
from an older version is 409 ``stale_version`` with the session now in ``state``. Without
``version`` nothing is checked.
"""

from __future__ import annotations

from typing import Annotated, Any

from flask import Blueprint, current_app, jsonify
from pydantic import Discriminator, Field, Tag

from api.capsa_models import ArrangementIn, Hand, NaturalName, RulesIn
from api.endpoint import ApiError, Body, Int, json_endpoint
from api.schemas import Cards, cards, choice
from api.storage import drill
from api.storage import sessions as service
from solver.errors import IllegalMoveError, InputError
from solver.games import DEFAULT_GAME, drill_games, get_game, list_games
from solver.games.bot_levels import level_of
from solver.games.capsa.limits import ROW_SIZES
from solver.games.capsa.referee import MAX_PLAYERS, MIN_PLAYERS
from solver.sessions.service import (
    SEED_MAX,
    LeakError,
    SessionStateError,
    StaleVersion,
)
from solver.sessions.store import Conflict, SessionNotFound, TooLarge

bp = Blueprint("sessions", __name__, url_prefix="/v1/sessions")

_TAG = "sessions"
# tokens are ``secrets.token_urlsafe``: URL-safe base64 letters
Token = Annotated[str, Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_-]+$",
                             description="the session token")]
Scalar = Annotated[str, Field(max_length=100)] | int | float | bool
Options = Annotated[dict[Annotated[str, Field(max_length=50)], Scalar], Field(max_length=30)]
BotName = Annotated[str, Field(max_length=50)]
HandNo = Annotated[Int, Field(ge=1, le=10**9, description="hand number in the session")]


def _error(status: int, code: str, message: str):
    err = ApiError(status, code, message)
    return jsonify(err.body()), err.status


@bp.errorhandler(SessionNotFound)
def _not_found(exc: SessionNotFound):
    what = str(exc.args[0]) if exc.args and str(exc.args[0]).startswith("hand ") else None
    return _error(404, "not_found", f"no such {what} in this session" if what else
                  "no session has this token (it may have expired)")


# the session's refusals and their statuses; the code is the exception's own (a conflict has
# none: "conflict")
_REFUSALS = ((Conflict, 409), (SessionStateError, 409), (IllegalMoveError, 422), (TooLarge, 413))


def _refusal(status: int):
    def answer(exc: Exception):
        return _error(status, getattr(exc, "code", "conflict"), str(exc))
    return answer


for _exc, _status in _REFUSALS:
    bp.register_error_handler(_exc, _refusal(_status))


@bp.errorhandler(StaleVersion)
def _stale(exc: StaleVersion):
    err = ApiError(409, exc.code, str(exc))
    return jsonify({**err.body(), "state": exc.view}), err.status


@bp.errorhandler(LeakError)
def _leak(exc: LeakError):  # a game bug: never answer the hidden cards
    current_app.logger.error("refused an answer: %s", exc)
    return _error(500, "internal_error", "internal error: the answer would have shown hidden cards")


# ---------------------------------------------------------------- bodies
class CreateRequest(Body):
    game: Annotated[str, Field(max_length=40, description="a registered game (or alias)")]
    rules: Options | None = Field(default=None, description="rule options of the game "
                                  "(`players` included where the table size is an option)")
    seat: Annotated[Int, Field(ge=0, le=9)] = Field(default=0, description="the human's seat")
    bots: BotName | Annotated[list[BotName], Field(max_length=9)] | None = Field(
        default=None, description="one bot for every other seat, or one name per other seat")
    seed: Annotated[Int, Field(ge=0, le=2**63 - 1)] | None = Field(
        default=None, description="seed of the session's deals (random if omitted)")


class TokenRequest(Body):
    token: Token


class AdviceRequest(TokenRequest):
    opponent_profiles: Annotated[list[dict[str, Any]], Field(
        min_length=1, max_length=MAX_PLAYERS - 1)] | None = Field(None, description=(
            "Capsa: one opponent profile per opponent, in seat order after yours (the answer "
            "of POST /v1/capsa/profile, fitted under the table's rules): the advice is Monte "
            "Carlo against those players' habits instead of table's"))


Version = Annotated[Int, Field(ge=0, le=2**62)] | None
VERSION_FIELD = Field(
    default=None, description="the `version` of the view this request was made from: a resend "
    "of the request that made the current version is answered again, not applied twice; an "
    "older version is refused (409 `stale_version`, with the session now in `state`). "
    "Omitted: not checked")


class MoveRequest(Body):
    token: Token
    move: dict[Annotated[str, Field(max_length=50)], Any] = Field(
        description="a move as the legal_moves list gives it (Capsa: front, middle, back)")
    version: Version = VERSION_FIELD


class NextRequest(Body):
    token: Token
    version: Version = VERSION_FIELD


RowCards = Annotated[list[Annotated[str, Field(max_length=8)]], Field(max_length=13)]


class RowsRequest(Body):
    token: Token
    rows: dict[Annotated[str, Field(max_length=20)], RowCards] = Field(
        description="Capsa rows being set: front, middle and back, each a list of cards "
                    "(rows may be partly filled)")


class HandRequest(Body):
    token: Token
    n: HandNo


class ReplayRequest(HandRequest):
    version: Version = VERSION_FIELD


class ImportRequest(Body):
    hand: dict[Annotated[str, Field(max_length=50)], Any] = Field(
        description="an exported hand: the game's to_json document")
    seat: Annotated[Int, Field(ge=0, le=9)] = 0
    bots: BotName | Annotated[list[BotName], Field(max_length=9)] | None = None


class DrillRules(RulesIn):
    """A Capsa preset plus per-option overrides, and the table size the drill models."""

    players: Annotated[Int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS, description=(
        "seats at the table: the coach grades your rows against players - 1 opponents"))] = 4


class DrillCreateRequest(Body):
    game: Annotated[str, choice("game", drill_games(), "the game drilled")] = "capsa"
    rules: DrillRules | None = Field(default=None, description="rule options and players")
    seed: Annotated[Int, Field(ge=0, le=SEED_MAX)] | None = Field(
        default=None, description="seed of the drill's deals (random if omitted): hand n "
                                  "is seat 0's hand n of a play session of the same seed")
    opponent_profiles: Annotated[list[dict[str, Any]], Field(
        min_length=1, max_length=MAX_PLAYERS - 1)] | None = Field(None, description=(
            "one opponent profile per opponent (players - 1; the answer of POST "
            "/v1/capsa/profile, fitted under the drill's rules): each hand is graded by Monte "
            "Carlo against opponents who set their hands as their profiles say"))


class DrillNatural(Body):
    """Declare the natural the hand holds (``cards``, if given, must be the hand)."""

    kind: Annotated[str, choice("kind", ("natural",))]
    cards: Hand | None = None
    natural: NaturalName | None = None


def _move_shape(value: Any) -> str:
    natural = isinstance(value, DrillNatural) or (isinstance(value, dict) and "kind" in value)
    return "<natural>" if natural else "<rows>"


DrillMove = Annotated[
    Annotated[ArrangementIn, Tag("<rows>")] | Annotated[DrillNatural, Tag("<natural>")],
    Discriminator(_move_shape),
    Field(description="your rows (front, middle, back), or {kind: natural}"),
]


class DrillMoveRequest(Body):
    token: Token
    move: DrillMove
    version: Version = VERSION_FIELD


FrontSoFar = Annotated[Cards, cards(0, ROW_SIZES["front"], description="the front so far")]
MiddleSoFar = Annotated[Cards, cards(0, ROW_SIZES["middle"], description="the middle so far")]
BackSoFar = Annotated[Cards, cards(0, ROW_SIZES["back"], description="the back so far")]


class DrillDraft(Body):
    """Rows being set: each partly filled or left out."""

    front: FrontSoFar | None = None
    middle: MiddleSoFar | None = None
    back: BackSoFar | None = None


class DrillCheckRequest(Body):
    token: Token
    rows: DrillDraft


NOT_FOUND = (404,)
PLAY_ERRORS = (404, 409, 413, 422)


def _guard(fn, *args):
    """Engine errors from user-supplied data that are not typed yet become 400s."""
    try:
        return fn(*args)
    except (InputError, SessionNotFound, Conflict, LeakError):
        raise
    except NotImplementedError as exc:
        raise InputError(f"this game cannot be played in a session yet: {str(exc) or 'its engine gives no seat views'}") from None
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise InputError(f"not a valid document for this game: {type(exc).__name__} {exc}") from None


# ---------------------------------------------------------------- routes
@json_endpoint(bp, "/games", None, None, method="GET", tag=_TAG,
               summary="Games that can be played in a session, with their options and bots")
def games() -> dict:
    out = []
    for name in list_games():
        info = get_game(name)
        try:
            info.new_game(seed=1).observation(0)
            playable, reason = True, None
        except NotImplementedError:
            playable, reason = False, "its engine does not give seat views yet"
        out.append({"name": info.name, "title": info.title, "players": list(info.players),
                    "bots": list(info.bots), "playable": playable, "reason": reason,
                    "bot_levels": {b: level_of(b) for b in info.bots},
                    "advisor": info.has_advice, "presentation": info.presentation.name,
                    "partial_check": info.check_partial is not None,
                    "drill": info.drill is not None,
                    "options": [{"name": o.name, "default": o.default, "help": o.help,
                                 "choices": list(o.choices) if o.choices else None,
                                 "minimum": o.minimum, "maximum": o.maximum}
                                for o in info.options]})
    return {"games": out, "default": DEFAULT_GAME}


@json_endpoint(bp, "", CreateRequest, None, tag=_TAG, errors=(413,),
               summary="Start a session: a table of bots and one human seat; the first hand")
def create(body: CreateRequest) -> Any:
    session, view = _guard(service().create, body.game, body.rules, body.seat, body.bots,
                           body.seed)
    return {"token": session.token, **view}


@json_endpoint(bp, "/state", TokenRequest, None, tag=_TAG, errors=NOT_FOUND,
               summary="What my seat sees now, my legal moves, the score")
def state(body: TokenRequest) -> dict:
    svc = service()
    return svc.view(svc.load(body.token))


@json_endpoint(bp, "/move", MoveRequest, None, tag=_TAG, errors=PLAY_ERRORS,
               summary="Play my move; the bots answer up to my next turn or the hand's end")
def move(body: MoveRequest) -> dict:
    return _guard(service().move, body.token, body.move, body.version)


@json_endpoint(bp, "/check", RowsRequest, None, tag=_TAG, errors=PLAY_ERRORS,
               summary="Check a move being built, where the game has such a check (Capsa: the rows "
                       "being set, each full row's kind, foul so far)")
def check(body: RowsRequest) -> dict:
    return service().check_partial(body.token, body.rows)


@json_endpoint(bp, "/next", NextRequest, None, tag=_TAG, errors=PLAY_ERRORS,
               summary="Deal the next hand of the session")
def next_hand(body: NextRequest) -> dict:
    return service().next_hand(body.token, body.version)


@json_endpoint(bp, "/advice", AdviceRequest, None, tag=_TAG, errors=PLAY_ERRORS,
               summary="The solver's advice for my turn (Capsa: the best arrangements)")
def advice(body: AdviceRequest) -> dict:
    return _guard(service().advice, body.token, body.opponent_profiles)


@json_endpoint(bp, "/history", TokenRequest, None, tag=_TAG, errors=NOT_FOUND,
               summary="The finished hands of the session")
def history(body: TokenRequest) -> dict:
    return service().history(body.token)


@json_endpoint(bp, "/hand", HandRequest, None, tag=_TAG, errors=NOT_FOUND,
               summary="A finished hand move by move, as my seat saw it (for a replay)")
def hand(body: HandRequest) -> dict:
    return service().hand_frames(body.token, body.n)


@json_endpoint(bp, "/replay", ReplayRequest, None, tag=_TAG, errors=PLAY_ERRORS,
               summary="Play the deal of a finished hand again, as a new hand")
def replay(body: ReplayRequest) -> dict:
    return service().replay_deal(body.token, body.n, body.version)


@json_endpoint(bp, "/export", HandRequest, None, tag=_TAG, errors=NOT_FOUND,
               summary="A finished hand as the game's JSON document")
def export(body: HandRequest) -> dict:
    return service().export(body.token, body.n)


@json_endpoint(bp, "/import", ImportRequest, None, tag=_TAG, errors=(413,),
               summary="Start a session from an exported hand")
def import_hand(body: ImportRequest) -> dict:
    session, view = _guard(service().import_hand, body.hand, body.seat, body.bots)
    return {"token": session.token, **view}


@json_endpoint(bp, "/delete", TokenRequest, None, tag=_TAG, errors=NOT_FOUND,
               summary="End a session and forget it")
def delete(body: TokenRequest) -> dict:
    if not service().store.delete(body.token):
        raise SessionNotFound(body.token)
    return {"deleted": True}


# ---------------------------------------------------------------- the drill
@json_endpoint(bp, "/drill", DrillCreateRequest, None, tag=_TAG, errors=(413,),
               summary="Start a Capsa drill: your 13 cards, graded as soon as you set them")
def drill_create(body: DrillCreateRequest) -> Any:
    rules = body.rules.spec() if body.rules is not None else None
    session, view = _guard(drill().create, body.game, rules, body.seed, body.opponent_profiles)
    return {"token": session.token, **view}


@json_endpoint(bp, "/drill/state", TokenRequest, None, tag=_TAG, errors=PLAY_ERRORS,
               summary="The drill now: the hand, its answer once set, the running figures")
def drill_state(body: TokenRequest) -> dict:
    svc = drill()
    return svc.view(svc.load(body.token))


@json_endpoint(bp, "/drill/check", DrillCheckRequest, None, tag=_TAG, errors=PLAY_ERRORS,
               summary="Check the drill rows being set (each full row's kind, foul so far)")
def drill_check(body: DrillCheckRequest) -> dict:
    return drill().check(body.token, body.rows.model_dump(exclude_none=True))


@json_endpoint(bp, "/drill/move", DrillMoveRequest, None, tag=_TAG, errors=PLAY_ERRORS,
               summary="Set the drill hand's rows (or declare its natural): EV lost, the best "
                       "arrangement and the mistake class at once; the figures updated")
def drill_move(body: DrillMoveRequest) -> dict:
    return _guard(drill().move, body.token, body.move.model_dump(exclude_none=True),
                  body.version)


@json_endpoint(bp, "/drill/next", NextRequest, None, tag=_TAG, errors=PLAY_ERRORS,
               summary="Deal the drill's next hand")
def drill_next(body: NextRequest) -> dict:
    return drill().next_hand(body.token, body.version)


@json_endpoint(bp, "/drill/again", ReplayRequest, None, tag=_TAG, errors=PLAY_ERRORS,
               summary="Deal the cards of drilled hand n again (practise a mistake again)")
def drill_again(body: ReplayRequest) -> dict:
    return drill().again(body.token, body.n, body.version)


@json_endpoint(bp, "/drill/stats", TokenRequest, None, tag=_TAG, errors=PLAY_ERRORS,
               summary="The drill's figures: hands, mean EV lost (all, last 20), per mistake "
                       "class, the trend and the worst mistakes")
def drill_stats(body: TokenRequest) -> dict:
    return drill().stats(body.token)


__all__ = ["ApiError", "bp", "drill", "service"]
