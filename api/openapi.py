"""What the OpenAPI document says beyond the routes' own models: the API's title and
description, the one error body, and the ``/docs`` page.

The document itself is spectree's (:data:`api.endpoint.SPEC`), built from the same pydantic
models that validate the requests; ``/docs`` is the Swagger UI page spectree ships for offline
use (the ``offapi`` package: the UI's files are in the page, no CDN).
"""

from __future__ import annotations

import functools
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, RootModel

TITLE = "Capsa solver API"
VERSION = "1.0.0"
DESCRIPTION = (
    "Capsa Susun arrangement advice and referee; Big Two, Da San and Da Bai Fen move "
    'generators. Errors: `{"error": {"code": ..., "message": ..., "problems": [...]}}`: 400 a '
    "body that is not JSON or breaks this schema, 422 one that matches it but the game rejects, "
    "413 too large, 415 not JSON, 405 (with `Allow`) another method. `problems` lists each "
    "problem with `loc`, where it is (field names and list positions; empty for the body as a "
    "whole), and its `message`.")
SPEC_URL = "/openapi.json"


class Problem(BaseModel):
    """One thing wrong with a request."""

    loc: list[str | int] = Field(
        description="where: field names and list positions from the body's root; empty when "
                    "the problem is the body as a whole or the game names no field")
    message: str = Field(description="what is wrong, the value sent and what is allowed")


class ErrorDetail(BaseModel):
    model_config = ConfigDict(extra="allow")

    code: str = Field(description="what kind of error: invalid_request, invalid_cards, "
                                  "illegal_move, body_too_large, ...")
    message: str = Field(description="what was wrong, the value sent and what is allowed")
    problems: list[Problem] = Field(
        default_factory=list,
        description="one item per problem (on a 400 that breaks the schema and on a 422)")


class Error(BaseModel):
    """Every error this service answers."""

    error: ErrorDetail


class JsonObject(RootModel[dict[str, Any]]):
    """A JSON object (answers documented in words rather than by a model)."""


@functools.cache
def docs_page(template: str) -> str:
    """The Swagger UI page for this API's document (rendered once: it is about 2 MB)."""
    return template.format(spec_url=SPEC_URL)
