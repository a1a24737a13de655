"""The Capsa routes' request and answer models (pydantic, read by spectree into the OpenAPI
document), apart from the views so that other routes (sessions, the drill) take the same
types without importing a route module. Every vocabulary (presets, scorings, royalty modes,
hand kinds, naturals, wheels, methods) comes from the rules and solver modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, Discriminator, Field, Tag, create_model

from api.endpoint import Body
from api.schemas import Cards, Int, cards, choice
from solver.games.capsa.arrange import METHODS
from solver.games.capsa.coach import LINE_ERRORS, MISTAKES
from solver.games.capsa.coach import METHODS as REVIEW_METHODS
from solver.games.capsa.limits import (
    HAND_SIZE,
    MAX_BATCH_HANDS,
    MAX_OPPONENTS,
    MAX_SAMPLES_PER_REQUEST,
    MAX_SEED,
    MAX_TOP_PER_REQUEST,
    ROW_SIZES,
)
from solver.games.capsa.lookup import WHEEL_MODES
from solver.games.capsa.referee import MAX_PLAYERS, MIN_PLAYERS
from solver.games.capsa.rules import (
    FRONT_KINDS,
    KIND_NAMES,
    MAX_UNITS,
    NATURAL_KINDS,
    PRESETS,
    ROWS,
    ROYALTY_MODES,
    ROYALTY_PRESETS,
    SCORINGS,
)

BATCH_METHODS = tuple(m for m in METHODS if m != "known")  # known needs the opponents' cards
Preset = Annotated[str, choice("preset", tuple(PRESETS), "a rules preset")]
KindName = Annotated[str, choice("hand kind", tuple(KIND_NAMES))]
NaturalName = Annotated[str, choice("natural", tuple(NATURAL_KINDS))]
RowName = Annotated[str, choice("row", tuple(ROWS))]
Units = Annotated[Int, Field(ge=0, le=MAX_UNITS)]
Hand = Annotated[Cards, cards(HAND_SIZE, description="a hand")]
Seed = Annotated[Int, Field(ge=0, le=MAX_SEED, description="random seed")]
Samples = Annotated[Int, Field(ge=1, le=MAX_SAMPLES_PER_REQUEST,
                               description="Monte Carlo samples (deals of the unseen cards)")]
Opponents = Annotated[Int, Field(ge=1, le=MAX_OPPONENTS, description="number of opponents")]
Top = Annotated[Int, Field(ge=1, le=MAX_TOP_PER_REQUEST, description="how many arrangements to list")]
CardRemoval = Annotated[bool, Field(
    description="play the table strategy with card removal (default); false: about 2.5 times "
                "faster a hand, and more exploitable")]
# {kind: units}; kinds outside the row's are schema errors, named with the allowed ones
FrontTable = dict[Annotated[str, choice("hand kind", FRONT_KINDS)], Units]
RowTable = dict[Annotated[str, choice("hand kind", tuple(KIND_NAMES))], Units]


class RoyaltyTable(Body):
    """Royalty units per row and hand kind; a row left out pays none."""

    front: FrontTable | None = None
    middle: RowTable | None = None
    back: RowTable | None = None


if TYPE_CHECKING:
    NaturalUnits = Body  # its fields are the rules' naturals, known only when it is built
else:
    # one optional field per natural the rules know, in their order
    NaturalUnits = create_model(
        "NaturalUnits", __base__=Body,
        __doc__="Units per natural; a natural left out keeps its standard units.",
        **{kind: (Units | None, None) for kind in NATURAL_KINDS},
    )


class RulesIn(Body):
    """A preset plus per-option overrides (see the rules file)."""

    preset: Preset = "standard"
    scoring: Annotated[str, choice("scoring", SCORINGS)] | None = None
    royalties: Annotated[
        Annotated[Annotated[str, choice("royalties", ROYALTY_PRESETS)], Tag("<name>")]
        | Annotated[RoyaltyTable, Tag("<table>")],
        Discriminator(lambda v: "<name>" if isinstance(v, str) else "<table>"),
    ] | None = None
    royalty_mode: Annotated[str, choice("royalty_mode", ROYALTY_MODES)] | None = None
    single_royalty: bool | None = None
    naturals: Annotated[
        Annotated[bool, Tag("<switch>")] | Annotated[NaturalUnits, Tag("<units>")],
        Discriminator(lambda v: "<units>" if isinstance(v, (dict, BaseModel)) else "<switch>"),
    ] | None = None
    wheel: Annotated[str, choice("wheel", WHEEL_MODES)] | None = None

    def spec(self) -> dict[str, Any]:
        d = self.model_dump(exclude_none=True)
        for key in ("royalties", "naturals"):
            if isinstance(d.get(key), dict):
                d[key] = {k: v for k, v in d[key].items() if v is not None}
        return d


def _rules_shape(value: Any) -> str | None:
    if isinstance(value, str):
        return "<preset>"
    return "<options>" if isinstance(value, (dict, BaseModel)) else None


RulesField = Annotated[
    Annotated[Preset, Tag("<preset>")] | Annotated[RulesIn, Tag("<options>")],
    Discriminator(_rules_shape, custom_error_type="rules_shape",
                  custom_error_message="must be a preset name or an object of options"),
    Field(description="a preset name, or a preset with overrides"),
]


class ArrangementIn(Body):
    front: Annotated[Cards, cards(ROW_SIZES["front"], description="the front row")]
    middle: Annotated[Cards, cards(ROW_SIZES["middle"], description="the middle row")]
    back: Annotated[Cards, cards(ROW_SIZES["back"], description="the back row")]


class HandIn(Body):
    hand: Hand


class ArrangeRequest(Body):
    hand: Hand = Field(description="the 13 cards to set")
    rules: RulesField = "standard"
    opponents: Opponents = 3
    method: Annotated[str, choice("method", METHODS)] = "table"
    samples: Samples = 1000
    seed: Seed | None = None
    top: Top = 5
    opponent_hands: Annotated[list[Hand], Field(
        min_length=1, max_length=MAX_OPPONENTS)] | None = None
    opponent_arrangements: Annotated[list[ArrangementIn], Field(
        min_length=1, max_length=MAX_OPPONENTS)] | None = None
    card_removal: CardRemoval = True
    adaptive: bool = Field(True, description=(
        "Monte Carlo: stop sampling once the answer's order is settled (samples_used says "
        "how many deals it drew); false draws every sample"))
    opponent_profiles: Annotated[list[dict[str, Any]], Field(
        min_length=1, max_length=MAX_OPPONENTS)] | None = Field(None, description=(
            "Monte Carlo: one opponent profile per opponent (the answer of POST "
            "/v1/capsa/profile, fitted under the same rules); the sampled opponents set their "
            "hands as their profiles say instead of as table does"))


class RowOut(BaseModel):
    row: RowName
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
    kind: NaturalName
    units: int
    split: ArrangementIn | None = None
    ev: float | None = Field(None, description="expected points of declaring it against the "
                             "same opponent model as the arrangements' ev")
    declare: bool | None = Field(None, description="whether declaring it beats the best "
                                 "arrangement's ev (on a tie the rows are advised)")


class TablesOut(BaseModel):
    file: str = Field(description="the tables file's name")
    digest: str = Field(description="its content hash")
    trained_for: str | dict[str, Any] = Field(
        description="the preset it was trained for, or the rule set of a capsa train file")


class ArrangeResponse(BaseModel):
    hand: list[str]
    valid_arrangements: int
    natural: NaturalOut | None
    arrangements: list[ArrangementOut]
    method: Annotated[str, choice("method", METHODS)]
    opponents: int
    candidates: int
    card_removal: bool = Field(description="whether the table decisions used card removal")
    tables: TablesOut | None = Field(None, description="the tables the decisions played")
    samples: int | None = Field(None, description="Monte Carlo: the most deals it draws")
    seed: int | None = None
    samples_used: int | None = Field(
        None, description="Monte Carlo: the deals it drew before the answer's order settled")
    kept_table: bool | None = Field(
        None, description="Monte Carlo: whether table's split was put first in place of the "
        "best on the deals drawn, which did not beat it by more than 1.5 standard errors")
    elapsed_ms: float


class BatchRequest(Body):
    hands: Annotated[list[Hand], Field(
        min_length=1, max_length=MAX_BATCH_HANDS)]
    rules: RulesField = "standard"
    opponents: Opponents = 3
    method: Annotated[str, choice("method", BATCH_METHODS)] = "table"
    samples: Samples = 1000
    seed: Seed = 0
    card_removal: CardRemoval = True


class BestOut(BaseModel):
    hand: list[str]
    front: list[str]
    middle: list[str]
    back: list[str]
    ev: float


class BatchResponse(BaseModel):
    results: list[BestOut]
    elapsed_ms: float


Player = Annotated[
    Annotated[ArrangementIn, Tag("<rows>")] | Annotated[HandIn, Tag("<hand>")],
    Discriminator(lambda v: "<hand>" if isinstance(v, HandIn) or (isinstance(v, dict) and "hand" in v)
                  else "<rows>"),
    Field(description="three rows, or a hand of 13 cards (for a natural)"),
]


class ScoreRequest(Body):
    rules: RulesField = "standard"
    players: Annotated[list[Player], Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)]


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
    natural: NaturalName | None
    vs: list[VsOut]


class ScoreResponse(BaseModel):
    players: list[PlayerOut]


class ValidRequest(Body):
    hand: Hand
    rules: RulesField = "standard"


class ValidResponse(BaseModel):
    valid_arrangements: int


MAX_REVIEW_LINES = 5_000  # lines of one review request (a hand each; blank lines count)
MAX_REVIEW_TEXT = 900_000  # characters: under the body bound (1,000,000 bytes), so the schema answers first
TEXT_PATTERN = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$"
Mistake = Annotated[str, choice("mistake", MISTAKES)]


class ReviewRequest(Body):
    text: Annotated[str, Field(max_length=MAX_REVIEW_TEXT, pattern=TEXT_PATTERN)] | None = Field(
        None, description="one played hand a line (the file as it is; lines that do not "
        "parse are reported, not refused): rows as plain text, 'front | middle | back' (an id "
        "field first if you like; 'natural | HAND' for a declared natural), or a JSON object; "
        "text without control characters but tab, line feed and carriage return")
    hands: Annotated[list[Any], Field(min_length=1, max_length=MAX_REVIEW_LINES)] | None = Field(
        None, description="the played hands as objects (instead of text)")
    rules: RulesField = "standard"
    opponents: Opponents = 3
    method: Annotated[str, choice("method", REVIEW_METHODS)] = "table"
    samples: Samples = 1000
    seed: Seed = 0
    card_removal: CardRemoval = True
    opponent_profiles: Annotated[list[dict[str, Any]], Field(
        min_length=1, max_length=MAX_OPPONENTS)] | None = Field(None, description=(
            "Monte Carlo: one opponent profile per opponent (POST /v1/capsa/profile); every "
            "EV is then against opponents who set their hands as their profiles say"))


class MistakeOut(BaseModel):
    hands: int
    ev_lost: float
    mean_ev_lost: float
    share_of_lost: float


class WorstOut(BaseModel):
    line: int
    ev_lost: float
    mistake: Mistake | None
    hand: list[str]
    id: Any = Field(None, description="the hand's id, when its line gave one")


class ReviewSummaryOut(BaseModel):
    hands: int
    errors: int
    exact_share: float | None = Field(description="share of hands played exactly right")
    ev: float
    best_ev: float
    ev_lost: float
    mean_ev_lost: float
    mean_ev_lost_ci95: list[float]
    by_mistake: dict[Mistake, MistakeOut]
    worst: list[WorstOut]
    known: dict[str, float] | None = None
    naturals: dict[str, float] | None = Field(
        None, description="the hands holding a natural: how many, how many declared it, "
        "declaring's EV and the best rows' EV over them, and the EV lost on them")


class HandReviewOut(BaseModel):
    line: int
    hand: list[str]
    mine: dict[str, Any] = Field(description="the rows set, or {natural: kind} if declared")
    natural: NaturalName | None
    foul: bool
    ev: float
    best_ev: float
    ev_lost: float
    exact: bool
    best: dict[str, Any] = Field(description="the best rows, or {natural: kind}")
    natural_ev: float | None = Field(
        None, description="a hand holding a natural: what declaring it is worth")
    rows_ev: float | None = Field(
        None, description="a hand holding a natural: the best rows' EV")
    mistake: Mistake | None
    mistakes: list[Mistake]
    opponents: int
    id: Any = None
    actual_points: float | None = None
    best_response: dict[str, Any] | None = None


class LineErrorOut(BaseModel):
    line: int
    error: str
    code: Annotated[str, choice("line error", LINE_ERRORS)] = Field(
        description="the kind of problem: unreadable (not text), format (neither rows nor "
                    "JSON), cards, fields (JSON that is not a hand), natural (a declared "
                    "natural the hand does not hold), review")


class ReviewResponse(BaseModel):
    method: Annotated[str, choice("method", REVIEW_METHODS)]
    card_removal: bool
    summary: ReviewSummaryOut
    errors: list[LineErrorOut]
    hands: list[HandReviewOut]
    samples: int | None = None
    seed: int | None = None
    elapsed_ms: float


class ProfileRequest(Body):
    text: Annotated[str, Field(max_length=MAX_REVIEW_TEXT, pattern=TEXT_PATTERN)] | None = Field(
        None, description="JSON lines, one hand the player showed a line (as the review reads "
        "them; lines that do not parse are reported, not refused)")
    hands: Annotated[list[Any], Field(min_length=1, max_length=MAX_REVIEW_LINES)] | None = Field(
        None, description="the shown hands as objects (instead of text)")
    rules: RulesField = "standard"


class ProfileResponse(BaseModel):
    format: str
    version: int
    rules: dict[str, Any] = Field(description="the rules the profile was fitted under")
    table: bool = Field(description="whether the profile is the table strategy itself")
    hands: int = Field(description="hands set in rows it was fitted on")
    naturals_declared: int
    params: dict[str, float] = Field(description="the model's parameters")
    shares: dict[str, float] = Field(description="the weight of each habit: considered, "
                                     "naive, random, foul")
    summary: dict[str, Any]
    heldout: dict[str, Any] | None = Field(description="log-likelihood per held-back hand, "
                                           "the profile's and table's")
    words: list[str] = Field(description="what the profile learnt, in plain words")
    words_i18n: list[dict[str, Any]] = Field(
        default=[], description="the same as message keys with parameters "
                                "({key, params}), for a page to say in its language")
    errors: list[LineErrorOut] = Field(description="the lines that could not be read")
    elapsed_ms: float
