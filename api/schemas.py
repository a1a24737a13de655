"""Request field types built from the domain's vocabularies, so validation and the OpenAPI
document come from one source and say the same thing.

Each is a plain ``Annotated`` type (``Annotated[str, choice("method", METHODS)]``), so a type
checker sees ``str``, ``int`` or ``str | list[str]`` and pydantic sees the rule:

- :data:`Int` accepts ``18.0`` (JSON Schema calls it an integer) and refuses ``true``; bound it
  with ``Annotated[Int, Field(ge=..., le=...)]``, rendered ``minimum``/``maximum``.
- :func:`choice` is an ``enum`` whose error names the value sent and the allowed ones.
- :func:`cards` is one card type per deck (52 cards, or 54 with jokers) and per count: a
  string (``"As Kd 10h"``) or a list of card strings, with a ``pattern`` that is exactly the
  card parser's grammar (:func:`solver.cards.card_pattern`) and the number of cards allowed.

The schema describes the *shape* of a request. What no JSON Schema can say (the same card
twice in one string, a card in two hands, a foul, an illegal play) is the game's verdict,
answered 422; a request that breaks the schema is answered 400 (see ``api.endpoint``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    Strict,
)
from pydantic.json_schema import (
    DEFAULT_REF_TEMPLATE,
    GenerateJsonSchema,
    JsonSchemaMode,
    JsonSchemaValue,
)
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from solver.cards import card_pattern, format_cards, parse_cards
from solver.errors import CardError

# What may stand between two cards in one string, and how much of it: the parser splits on any
# run of whitespace, commas and semicolons; the schema names the usual ones and bounds the run
# so that every string it allows has a known maximum length.
SEPARATOR = "[ \\t\\r\\n,;]"
MAX_SEPARATOR = 4
MAX_PADDING = 8
MAX_TOKEN = 3  # "10h", "♦10"

Cards = str | list[str]  # what a card field holds: "As Kd 10h" or ["As", "Kd", "10h"]


def _integral(value: Any) -> Any:
    """JSON Schema calls ``18.0`` an integer; ``true`` is not one."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Int = Annotated[int, Strict(), BeforeValidator(_integral)]

_WORDS = {"ge": "minimum", "le": "maximum", "gt": "exclusiveMinimum", "lt": "exclusiveMaximum"}
_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


def json_schema_words(schema: Any) -> Any:
    """A copy of ``schema`` with pydantic's ``ge``/``le``/``gt``/``lt`` spelled as JSON Schema's
    words; the keys of ``properties`` (field names) are left alone.

    pydantic writes the bounds stacked on a type that wraps a validator (``Annotated[Int,
    Field(ge=1)]``) under its own names, which JSON Schema does not know.

    >>> json_schema_words({"properties": {"ge": {"type": "integer", "ge": 1, "le": 3}}})
    {'properties': {'ge': {'type': 'integer', 'minimum': 1, 'maximum': 3}}}
    """
    if isinstance(schema, list):
        return [json_schema_words(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _MAPS and isinstance(value, dict):
            out[key] = {name: json_schema_words(sub) for name, sub in value.items()}
        elif key in ("enum", "const", "default", "examples", "example"):
            out[key] = value
        else:
            out[_WORDS.get(key) or key] = json_schema_words(value)
    return out


class ApiJsonSchema(GenerateJsonSchema):
    """pydantic's JSON Schema generator, with every bound in JSON Schema's words."""

    def generate(self, schema: CoreSchema, mode: JsonSchemaMode = "validation") -> JsonSchemaValue:
        words: JsonSchemaValue = json_schema_words(super().generate(schema, mode))
        return words


class Body(BaseModel):
    """Base for request bodies: unknown fields are errors; the schema uses :class:`ApiJsonSchema`
    (the OpenAPI document is built from ``model_json_schema``)."""

    model_config = ConfigDict(extra="forbid", strict=True, regex_engine="python-re")

    @classmethod
    def model_json_schema(cls, by_alias: bool | None = None,
                          ref_template: str = DEFAULT_REF_TEMPLATE,
                          schema_generator: type[GenerateJsonSchema] = ApiJsonSchema,
                          mode: JsonSchemaMode = "validation", **kwargs: Any) -> dict[str, Any]:
        return super().model_json_schema(by_alias, ref_template, schema_generator, mode, **kwargs)


class Checked:
    """Annotation metadata: ``check`` validates a value (and raises pydantic errors in words),
    ``schema`` is the JSON Schema the document shows for it."""

    schema: dict[str, Any]

    def check(self, value: Any) -> Any:
        raise NotImplementedError

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_plain_validator_function(self.check)

    def __get_pydantic_json_schema__(self, core: CoreSchema,
                                     handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        return dict(self.schema)


def _phrase(values: Sequence[Any]) -> str:
    return ", ".join(str(v) for v in values)


class choice(Checked):
    """One of ``values`` (an ``enum``); anything else is ``unknown NAME 'x'; one of a, b``."""

    def __init__(self, name: str, values: Sequence[str], description: str | None = None):
        self.name, self.allowed = name, tuple(values)
        self.schema = {"enum": list(self.allowed), "type": "string"}
        if description:
            self.schema["description"] = description

    def check(self, value: Any) -> Any:
        if not isinstance(value, str) or value not in self.allowed:
            raise PydanticCustomError("unknown_choice", "unknown {name} {value}; one of {allowed}",
                                      {"name": self.name, "value": repr(value),
                                       "allowed": _phrase(self.allowed)})
        return value


def _count_phrase(low: int, high: int) -> str:
    if low == high:
        return f"{low} cards"
    return f"{low} to {high} cards"


class CardsSpec(Checked):
    """The compiled grammar of one card field: which deck, how many cards."""

    def __init__(self, low: int, high: int, jokers: bool, description: str = "cards"):
        if not 0 <= low <= high or high < 1:
            raise ValueError(f"a card field holds low..high cards with 0 <= low <= high, "
                             f"1 <= high; got {low}..{high}")
        self.low, self.high, self.jokers = low, high, jokers
        token = card_pattern(jokers)
        sep = f"{SEPARATOR}{{1,{MAX_SEPARATOR}}}"
        if low == 0:
            body = f"(?:{token}(?:{sep}{token}){{0,{high - 1}}})?"
        else:
            body = f"{token}(?:{sep}{token}){{{low - 1},{high - 1}}}"
        pad = f"{SEPARATOR}{{0,{MAX_PADDING}}}"
        self.text_pattern = f"^{pad}{body}{pad}$"
        self.token_pattern = f"^{token}$"
        # JSON Schema patterns are ECMA: ``$`` is the end of the string (Python's ``$`` would
        # also match before a final newline), so validate with ``\Z``.
        self.text_regex = re.compile(rf"\A{pad}{body}{pad}\Z")
        self._token = re.compile(rf"\A{token}\Z")
        self.max_length = 2 * MAX_PADDING + high * MAX_TOKEN + (high - 1) * MAX_SEPARATOR
        self.schema = self.json_schema(description)

    def _fail(self, message: str) -> PydanticCustomError:
        return PydanticCustomError("invalid_cards", "{message}", {"message": message})

    def _parser_message(self, value: Any) -> str | None:
        """The card parser's own words for what is wrong, if it finds anything."""
        try:
            ids = parse_cards(value, allow_jokers=self.jokers)
        except CardError as exc:
            return str(exc)
        if not self.low <= len(ids) <= self.high:
            return f"expected {_count_phrase(self.low, self.high)}, got {len(ids)}"
        return None

    def validate(self, value: Any) -> Any:
        if isinstance(value, str):
            if len(value) <= self.max_length and self.text_regex.search(value):
                return value
            raise self._fail(self._parser_message(value) or (
                f"cards must be separated by at most {MAX_SEPARATOR} spaces, commas or "
                f"semicolons, at most {self.max_length} characters in all; got {value!r:.80}"))
        if isinstance(value, list):
            bad = [t for t in value if not (isinstance(t, str) and self._token.search(t))]
            if bad or not self.low <= len(value) <= self.high:
                raise self._fail(self._parser_message(value) or (
                    f"each card must be a string such as 'As' or '10h', got {bad[0]!r:.40}"
                    if bad else f"expected {_count_phrase(self.low, self.high)}, got {len(value)}"))
            if len(set(value)) != len(value):
                # the parser's words, as for a string: each repeated card once, with its count
                raise self._fail(self._parser_message(value) or "duplicate cards")
            return value
        raise self._fail(f"cards must be a string or a list of strings, got {type(value).__name__}")

    check = validate

    def json_schema(self, description: str) -> dict[str, Any]:
        """A string; or a list of canonical names (``As``, ``Th``: distinct names are distinct
        cards, so ``uniqueItems`` says "no card twice"); or a list of any spellings."""
        deck = format_cards(range(54 if self.jokers else 52))
        sized = {"type": "array", "minItems": self.low, "maxItems": self.high, "uniqueItems": True}
        return {
            "description": description,
            "anyOf": [
                {"type": "string", "pattern": self.text_pattern, "maxLength": self.max_length},
                {**sized, "items": {"type": "string", "enum": deck}},
                {**sized, "items": {"type": "string", "pattern": self.token_pattern}},
            ],
        }


def cards(low: int, high: int | None = None, *, jokers: bool = False,
          description: str | None = None) -> CardsSpec:
    """The rule of a card field of ``low`` to ``high`` cards (exactly ``low`` when ``high`` is
    omitted) from the 52-card deck, or the 54-card deck with ``jokers`` (``SJ``, ``BJ``):
    ``Hand = Annotated[Cards, cards(13)]``."""
    high = low if high is None else high
    example = "BJ SJ As 10h" if jokers else "As Kd 10h"
    text = (description or "cards") + (
        f": {_count_phrase(low, high)}, as one string (`{example}`, spaces or commas between "
        "cards) or a list of card strings")
    return CardsSpec(low, high, jokers, text)


class card(Checked):
    """One card as a string: ``As``, ``10h``, ``♦7`` (and ``SJ``/``BJ`` with ``jokers``)."""

    def __init__(self, *, jokers: bool = False, description: str | None = None):
        token = card_pattern(jokers)
        self._compiled = re.compile(rf"\A{token}\Z")
        self.schema = {"type": "string", "pattern": f"^{token}$",
                       "description": description or "one card, such as `As` or `10h`"}

    def check(self, value: Any) -> Any:
        if isinstance(value, str) and self._compiled.search(value):
            return value
        raise PydanticCustomError("invalid_cards", "unknown card {value}", {"value": repr(value)})


class pattern_choice(Checked):
    """A string matching ``pattern`` (no anchors); errors name the value and ``allowed``."""

    def __init__(self, name: str, pattern: str, allowed: str, description: str | None = None):
        self.name, self.allowed = name, allowed
        self._compiled = re.compile(rf"\A(?:{pattern})\Z")
        self.schema = {"type": "string", "pattern": f"^(?:{pattern})$"}
        if description:
            self.schema["description"] = description

    def check(self, value: Any) -> Any:
        if isinstance(value, str) and self._compiled.search(value):
            return value
        raise PydanticCustomError("unknown_choice", "unknown {name} {value}; one of {allowed}",
                                  {"name": self.name, "value": repr(value),
                                   "allowed": self.allowed})
