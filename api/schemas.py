"""Request field types built from the domain's vocabularies, so validation and the OpenAPI
document come from one source and say the same thing.

- :func:`bounded` integers render ``minimum``/``maximum`` (JSON Schema's words), accept
  ``18.0`` (JSON Schema calls it an integer) and refuse ``true``.
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
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, PlainValidator, Strict, WithJsonSchema
from pydantic_core import PydanticCustomError

from solver.cards import card_pattern, format_cards, parse_cards
from solver.errors import CardError

# What may stand between two cards in one string, and how much of it: the parser splits on any
# run of whitespace, commas and semicolons; the schema names the usual ones and bounds the run
# so that every string it allows has a known maximum length.
SEPARATOR = "[ \\t\\r\\n,;]"
MAX_SEPARATOR = 4
MAX_PADDING = 8
MAX_TOKEN = 3  # "10h", "♦10"


def _integral(value: Any) -> Any:
    """JSON Schema calls ``18.0`` an integer; ``true`` is not one."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Int = Annotated[int, Strict(), BeforeValidator(_integral)]


def bounded(low: int | None = None, high: int | None = None, description: str | None = None) -> Any:
    """An integer in ``[low, high]``; the bounds sit before the validator so they render as
    ``minimum``/``maximum`` in the document (after it, pydantic writes ``ge``/``le``)."""
    return Annotated[int, Strict(), Field(ge=low, le=high, description=description),
                     BeforeValidator(_integral)]


def _phrase(values: Sequence[Any]) -> str:
    return ", ".join(str(v) for v in values)


def choice(name: str, values: Sequence[str], description: str | None = None) -> Any:
    """One of ``values`` (an ``enum``); anything else is ``unknown NAME 'x'; one of a, b``."""
    allowed = tuple(values)

    def check(value: Any) -> Any:
        if not isinstance(value, str) or value not in allowed:
            raise PydanticCustomError("unknown_choice", "unknown {name} {value}; one of {allowed}",
                                      {"name": name, "value": repr(value),
                                       "allowed": _phrase(allowed)})
        return value

    return Annotated[Literal[allowed], BeforeValidator(check),  # type: ignore[valid-type]
                     Field(description=description)]


def _count_phrase(low: int, high: int) -> str:
    if low == high:
        return f"{low} cards"
    return f"{low} to {high} cards"


class CardsSpec:
    """The compiled grammar of one card field: which deck, how many cards."""

    def __init__(self, low: int, high: int, jokers: bool):
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
                dup = next(t for i, t in enumerate(value) if t in value[:i])
                raise self._fail(f"duplicate card {dup!r}")
            return value
        raise self._fail(f"cards must be a string or a list of strings, got {type(value).__name__}")

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
          description: str | None = None) -> Any:
    """A card field of ``low`` to ``high`` cards (exactly ``low`` when ``high`` is omitted)
    from the 52-card deck, or the 54-card deck with ``jokers`` (``SJ``, ``BJ``)."""
    spec = CardsSpec(low, low if high is None else high, jokers)
    example = "BJ SJ As 10h" if jokers else "As Kd 10h"
    text = description or "cards"
    text += (f": {_count_phrase(spec.low, spec.high)}, as one string (`{example}`, spaces or "
             "commas between cards) or a list of card strings")
    return Annotated[str | list[str], PlainValidator(spec.validate),
                     WithJsonSchema(spec.json_schema(text))]


def card(*, jokers: bool = False, description: str | None = None) -> Any:
    """One card as a string: ``As``, ``10h``, ``♦7`` (and ``SJ``/``BJ`` with ``jokers``)."""
    token = card_pattern(jokers)
    compiled = re.compile(rf"\A{token}\Z")

    def check(value: Any) -> Any:
        if isinstance(value, str) and compiled.search(value):
            return value
        raise PydanticCustomError("invalid_cards", "unknown card {value}", {"value": repr(value)})

    schema = {"type": "string", "pattern": f"^{token}$",
              "description": description or "one card, such as `As` or `10h`"}
    return Annotated[str, PlainValidator(check), WithJsonSchema(schema)]


def pattern_choice(name: str, pattern: str, allowed: str, description: str | None = None) -> Any:
    """A string matching ``pattern`` (no anchors); errors name the value and ``allowed``."""
    compiled = re.compile(rf"\A(?:{pattern})\Z")

    def check(value: Any) -> Any:
        if isinstance(value, str) and compiled.search(value):
            return value
        raise PydanticCustomError("unknown_choice", "unknown {name} {value}; one of {allowed}",
                                  {"name": name, "value": repr(value), "allowed": allowed})

    schema: dict[str, Any] = {"type": "string", "pattern": f"^(?:{pattern})$"}
    if description:
        schema["description"] = description
    return Annotated[str, PlainValidator(check), WithJsonSchema(schema)]
