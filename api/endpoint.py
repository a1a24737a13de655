"""JSON endpoints from pydantic models: one model both validates a request and documents it.

``json_endpoint(bp, "/moves", MovesRequest, MovesResponse)`` registers a POST view that
reads the JSON body and validates it, calls the view with the model instance and returns
its dict as JSON. Every endpoint lands in the OpenAPI document.

Statuses, the same on every route (the document lists them):

- 400 ``malformed_json`` / ``invalid_request`` (or ``invalid_cards``): the body is not JSON,
  is nested deeper than :data:`MAX_JSON_DEPTH`, cannot be read (a broken chunked body), or
  does not match the documented schema; the message names each bad field, what was sent
  and what is allowed.
- 413 ``body_too_large``: over :data:`MAX_BODY_BYTES`, with Content-Length or chunked.
- 415 ``unsupported_media_type``: not ``application/json``.
- 405 with an ``Allow`` header; 404 for an unknown path.
- 422 (``invalid_cards``, ``invalid_rules``, ``illegal_move``, ``invalid_input``): the request
  matches the schema but the game rejects it, in words (a duplicate card, a card in two
  hands, a play that is not a combination). A schema cannot say these, so a schema-driven
  client may send them; they are never a 400.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from flask import Blueprint, current_app, jsonify, request
from pydantic import BaseModel, ValidationError
from werkzeug.exceptions import HTTPException

from api.schemas import Body, Int
from solver.errors import InputError

__all__ = ["MAX_BODY_BYTES", "MAX_JSON_DEPTH", "SEMANTIC_STATUS", "ApiError", "Body", "Int",
           "json_endpoint", "read_json_body", "register_error_handlers"]

MAX_BODY_BYTES = 1_000_000
MAX_JSON_DEPTH = 400
SEMANTIC_STATUS = 422  # schema-valid, rejected by the game (see the module docstring)
_READ_CHUNK = 64 * 1024

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

# pydantic error types whose message already says what was sent and what is allowed
_SELF_EXPLAINED = {"unknown_choice", "invalid_cards", "missing", "extra_forbidden",
                   "union_tag_invalid"}


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _validation_message(exc: ValidationError) -> tuple[str, str, list[dict]]:
    """(code, one-line message, details) for a failed model: each bad field with its
    problem, what was sent and, where pydantic knows it, what is allowed."""
    details = []
    parts = []
    types = set()
    for err in exc.errors(include_url=False):
        # union branches are tagged ``<name>`` (see api.schemas); the path leaves them out
        path = [p for p in err["loc"] if not (isinstance(p, str) and p.startswith("<"))]
        if path[-1:] == ["[key]"]:  # a bad key of a table: the message names it
            path = path[:-2]
        loc = ".".join(str(p) for p in path) or "body"
        msg = err["msg"]
        types.add(err["type"])
        if err["type"] == "extra_forbidden":
            msg = "unknown field"
        elif err["type"] not in _SELF_EXPLAINED and "input" in err:
            msg = f"{msg}, got {_shown(err['input'])}"
        details.append({"loc": path, "message": msg})
        parts.append(f"{loc}: {msg}")
    code = "invalid_cards" if types == {"invalid_cards"} else "invalid_request"
    return code, "; ".join(parts), details


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_OPEN = np.frombuffer(b"[{", dtype=np.uint8)
_CLOSE = np.frombuffer(b"]}", dtype=np.uint8)


def json_depth_exceeds(raw: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether a JSON text nests arrays/objects deeper than ``limit`` (brackets inside strings
    do not count). Checked on the bytes before parsing, since the parser recurses.

    >>> json_depth_exceeds(b"[[1]]", 2), json_depth_exceeds(b"[[[1]]]", 2)
    (False, True)
    >>> json_depth_exceeds(b'[["[[[[", 1]]', 2)
    False
    """
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    text = np.frombuffer(_STRING.sub(b'""', raw), dtype=np.uint8)
    steps = np.isin(text, _OPEN).astype(np.int32) - np.isin(text, _CLOSE)
    return bool(steps.size) and int(np.cumsum(steps).max()) > limit


def _too_large() -> ApiError:
    return ApiError(413, "body_too_large", f"request body over {MAX_BODY_BYTES:,} bytes")


def _read_body() -> bytes:
    """The raw body, at most :data:`MAX_BODY_BYTES`: a sized body is refused on its header, a
    chunked one (no Content-Length) once it runs past the limit, never silently cut."""
    if request.content_length is not None:
        if request.content_length > MAX_BODY_BYTES:
            raise _too_large()
        return request.get_data(cache=False)
    env = request.environ
    if not env.get("wsgi.input_terminated"):
        return request.get_data(cache=False)  # no length and no framing: werkzeug reads nothing
    stream = env["wsgi.input"]
    buf = bytearray()
    while True:
        chunk = stream.read(min(_READ_CHUNK, MAX_BODY_BYTES + 1 - len(buf)))
        if not chunk:
            return bytes(buf)
        buf += chunk
        if len(buf) > MAX_BODY_BYTES:
            raise _too_large()


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def read_json_body() -> Any:
    """The body parsed as JSON; every way it can be wrong is a 4xx :class:`ApiError`."""
    if request.mimetype != "application/json":
        if request.content_length is not None and request.content_length > MAX_BODY_BYTES:
            raise _too_large()
        raise ApiError(415, "unsupported_media_type",
                       f"expected Content-Type application/json, got {request.mimetype or 'none'!r}")
    try:
        raw = _read_body()
    except (ApiError, HTTPException):
        raise
    except Exception as exc:  # the server's reader failed on the client's bytes: gunicorn's
        # InvalidChunkSize / NoMoreData on a malformed chunked body, a reset connection
        raise ApiError(400, "malformed_body",
                       f"the request body could not be read: {type(exc).__name__}") from None
    if json_depth_exceeds(raw):
        raise ApiError(400, "malformed_json",
                       f"malformed JSON: nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
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
                raise ApiError(400, "invalid_request",
                               f"request body must be a JSON object, got {type(data).__name__}")
            try:
                body = request_model.model_validate(data)
            except ValidationError as exc:
                code, message, details = _validation_message(exc)
                raise ApiError(400, code, message, details) from None
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
    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError):
        return jsonify(exc.body()), exc.status

    @app.errorhandler(InputError)
    def _input_error(exc: InputError):
        return jsonify({"error": {"code": exc.code, "message": str(exc),
                                  "problems": exc.problems}}), SEMANTIC_STATUS

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        code = (exc.name or "error").lower().replace(" ", "_")
        if exc.code == 413:
            code = "body_too_large"
        message = exc.description or exc.name
        if exc.code == 405 and getattr(exc, "valid_methods", None):
            message = (f"method {request.method} is not allowed here; allowed: "
                       f"{', '.join(sorted(exc.valid_methods))}")
        # keep the exception's own headers (Allow on a 405), not its HTML content type
        headers = [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]
        return jsonify({"error": {"code": code, "message": message}}), exc.code, headers

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):  # pragma: no cover - a bug, logged and answered in JSON
        current_app.logger.exception("unhandled error")
        return jsonify({"error": {"code": "internal_error", "message": "internal error"}}), 500
