"""JSON endpoints from pydantic models: one model both validates a request and documents it.

``json_endpoint(bp, "/moves", MovesRequest, MovesResponse)`` registers a POST view that
reads the JSON body (415 for another content type, 400 for malformed JSON, 413 for a body
over the limit), validates it (400 naming each bad field), calls the view with the model
instance and returns its dict as JSON. Every endpoint lands in the OpenAPI document.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from flask import Blueprint, current_app, jsonify, request
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    ValidationError,
)

from solver.errors import InputError

MAX_BODY_BYTES = 1_000_000


class ApiError(Exception):
    """An error answered as ``{"error": {"code": ..., "message": ...}}`` with ``status``."""

    def __init__(self, status: int, code: str, message: str, details: Any = None):
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details

    def body(self) -> dict:
        err: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details is not None:
            err["details"] = self.details
        return {"error": err}


def _integral(value: Any) -> Any:
    """JSON Schema calls ``18.0`` an integer; ``true`` is not one."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Int = Annotated[int, BeforeValidator(_integral), Strict()]
Cards = Annotated[
    Annotated[str, Field(max_length=300)]
    | Annotated[list[Annotated[str, Field(max_length=8)]], Field(max_length=54)],
    Field(description="cards as one string (`As Kd 10h`, spaces or commas) or a list of card strings"),
]


class Body(BaseModel):
    """Base for request bodies: unknown fields are errors."""

    model_config = ConfigDict(extra="forbid", strict=True)


@dataclass(frozen=True)
class EndpointSpec:
    blueprint: Blueprint
    rule: str
    method: str
    request: type[BaseModel] | None
    response: type[BaseModel] | None
    summary: str
    tag: str
    errors: tuple[int, ...] = ()  # error statuses beyond 400/413/415 (404, 409, ...)

    @property
    def path(self) -> str:
        return (self.blueprint.url_prefix or "") + self.rule


ENDPOINTS: list[EndpointSpec] = []


def _validation_message(exc: ValidationError) -> tuple[str, list[dict]]:
    details = []
    parts = []
    for err in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in err["loc"]) or "body"
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown field"
        details.append({"loc": [p for p in err["loc"]], "message": msg})
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts), details


def read_json_body() -> Any:
    if request.content_length is not None and request.content_length > MAX_BODY_BYTES:
        raise ApiError(413, "body_too_large", f"request body over {MAX_BODY_BYTES} bytes")
    if request.mimetype != "application/json":
        raise ApiError(415, "unsupported_media_type",
                       f"expected Content-Type application/json, got {request.mimetype or 'none'!r}")
    raw = request.get_data(cache=False)
    if len(raw) > MAX_BODY_BYTES:
        raise ApiError(413, "body_too_large", f"request body over {MAX_BODY_BYTES} bytes")
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError(400, "malformed_json", f"malformed JSON: {exc}") from None


def json_endpoint(
    bp: Blueprint,
    rule: str,
    request_model: type[BaseModel] | None,
    response_model: type[BaseModel] | None = None,
    *,
    method: str = "POST",
    summary: str = "",
    tag: str = "",
    errors: tuple[int, ...] = (),
) -> Callable[[Callable], Callable]:
    """Register ``fn(body_model) -> dict`` (or ``fn() -> dict`` without a request model)."""

    def decorate(fn: Callable) -> Callable:
        def view() -> Any:
            if request_model is None:
                return jsonify(fn())
            data = read_json_body()
            if not isinstance(data, dict):
                raise ApiError(400, "invalid_request", "request body must be a JSON object")
            try:
                body = request_model.model_validate(data)
            except ValidationError as exc:
                message, details = _validation_message(exc)
                raise ApiError(400, "invalid_request", message, details) from None
            return jsonify(fn(body))

        view.__name__ = fn.__name__
        view.__doc__ = fn.__doc__
        bp.add_url_rule(rule, endpoint=fn.__name__, view_func=view, methods=[method])
        ENDPOINTS.append(EndpointSpec(bp, rule, method, request_model, response_model,
                                      summary or (fn.__doc__ or "").strip().split("\n")[0],
                                      tag or bp.name, errors))
        return fn

    return decorate


def register_error_handlers(app: Any) -> None:
    from werkzeug.exceptions import HTTPException

    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError):
        return jsonify(exc.body()), exc.status

    @app.errorhandler(InputError)
    def _input_error(exc: InputError):
        return jsonify({"error": {"code": exc.code, "message": str(exc),
                                  "problems": exc.problems}}), 400

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        code = (exc.name or "error").lower().replace(" ", "_")
        return jsonify({"error": {"code": code, "message": exc.description or exc.name}}), exc.code

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):  # pragma: no cover - a bug, logged and answered in JSON
        current_app.logger.exception("unhandled error")
        return jsonify({"error": {"code": "internal_error", "message": "internal error"}}), 500
