"""JSON endpoints declared with spectree: one pydantic model both validates a request and
documents it in the OpenAPI 3.1 document (:data:`SPEC`).

``json_endpoint(bp, "/moves", MovesRequest, MovesResponse)`` registers a POST view through
``SPEC.validate``: the view gets the validated model and returns a dict, answered as JSON and
checked against the response model (an answer that breaks it is a logged 500). What this module adds to spectree is the house policy:

- the strict body reader (:class:`ApiRequest`): Flask's ``get_json`` is replaced by one that
  refuses, in words, a body that is not ``application/json`` (415), over
  :data:`MAX_BODY_BYTES` with Content-Length or chunked (413), unreadable (a broken chunked
  body), nested deeper than :data:`MAX_JSON_DEPTH`, not JSON (``NaN`` included) or not a JSON
  object (400);
- :func:`error_answer`, the one place that decides an error's status and body: a request that
  breaks the documented schema is a 400 (``invalid_request``, or ``invalid_cards`` when only
  card fields are wrong); one that matches it but that the game refuses (a duplicate card, a
  card in two hands, a play that is not a combination) is a 422 (:data:`SEMANTIC_STATUS`), with
  the game's code. A schema cannot say these, so a schema-driven client may send them; they are
  never a 400. Every error is ``{"error": {"code", "message", "problems"?}}``;
- the operation ids and the error responses every operation documents.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any, cast

import numpy as np
from flask import Blueprint, Flask, Request, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from pydantic import BaseModel, ValidationError
from spectree import Response, SpecTree
from werkzeug.exceptions import HTTPException

from api.openapi import DESCRIPTION, TITLE, VERSION, Error, JsonObject
from api.schemas import Body, Int
from solver.errors import InputError

__all__ = ["MAX_BODY_BYTES", "MAX_JSON_DEPTH", "SEMANTIC_STATUS", "SPEC", "ApiError",
           "ApiRequest", "Body", "Int", "error_answer", "init_app", "json_endpoint",
           "read_json_body", "register_error_handlers"]

MAX_BODY_BYTES = 1_000_000
MAX_JSON_DEPTH = 400
SCHEMA_STATUS = 400  # the body is not JSON, or breaks the documented schema
SEMANTIC_STATUS = 422  # schema-valid, refused by the game (see the module docstring)
_READ_CHUNK = 64 * 1024


class ApiError(Exception):
    """An error answered as ``{"error": {"code": ..., "message": ..., "problems"?: [...]}}``
    with ``status`` (and ``headers``, such as ``Allow`` on a 405)."""

    def __init__(self, status: int, code: str, message: str,
                 problems: list[dict[str, Any]] | None = None,
                 headers: list[tuple[str, str]] | None = None):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.problems, self.headers = problems, headers or []

    def body(self) -> dict[str, Any]:
        err: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.problems is not None:
            err["problems"] = self.problems
        return {"error": err}


# pydantic error types whose message already says what was sent and what is allowed
_SELF_EXPLAINED = {"unknown_choice", "invalid_cards", "missing", "extra_forbidden",
                   "union_tag_invalid"}


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _schema_error(exc: ValidationError) -> ApiError:
    """A 400 for a body that breaks the schema: each bad field with its problem, what was sent
    and, where pydantic knows it, what is allowed."""
    problems = []
    parts = []
    types = set()
    for err in exc.errors(include_url=False):
        # union branches are tagged ``<name>`` (see api.routes.capsa); the path leaves them out
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
        problems.append({"loc": path, "message": msg})
        parts.append(f"{loc}: {msg}")
    code = "invalid_cards" if types == {"invalid_cards"} else "invalid_request"
    return ApiError(SCHEMA_STATUS, code, "; ".join(parts), problems)


def _http_error(exc: HTTPException) -> ApiError:
    status = exc.code or 500
    code = "body_too_large" if status == 413 else (exc.name or "error").lower().replace(" ", "_")
    message = exc.description or exc.name
    valid_methods = getattr(exc, "valid_methods", None)
    if status == 405 and valid_methods:
        message = (f"method {request.method} is not allowed here; allowed: "
                   f"{', '.join(sorted(valid_methods))}")
    # keep the exception's own headers (Allow on a 405), not its HTML content type
    headers = [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]
    return ApiError(status, code, message, headers=headers)


def error_answer(exc: Exception) -> ApiError:
    """The status and body of every error: the one place that tells 400 from 422."""
    if isinstance(exc, ApiError):
        return exc
    if isinstance(exc, ValidationError):
        return _schema_error(exc)
    if isinstance(exc, InputError):
        return ApiError(SEMANTIC_STATUS, exc.code, str(exc),
                        [{"loc": [], "message": p} for p in exc.problems])
    if isinstance(exc, HTTPException):
        return _http_error(exc)
    return ApiError(500, "internal_error", "internal error")


# ------------------------------------------------------------------ the body reader
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


def _read_body(req: Request) -> bytes:
    """The raw body, at most :data:`MAX_BODY_BYTES`: a sized body is refused on its header, a
    chunked one (no Content-Length) once it runs past the limit, never silently cut."""
    if req.content_length is not None:
        if req.content_length > MAX_BODY_BYTES:
            raise _too_large()
        return req.get_data(cache=False)
    env = req.environ
    if not env.get("wsgi.input_terminated"):
        return req.get_data(cache=False)  # no length and no framing: werkzeug reads nothing
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


# a ``\\uD800``-``\\uDFFF`` escape: the only way a parsed string can hold a surrogate once
# the bytes are strict UTF-8 (a pair is fine, a lone one is not text)
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _where(path: list[Any]) -> str:
    """A field's path as the error messages write it, every part ASCII (a key may hold
    anything the client sent)."""
    parts = [str(p) if isinstance(p, int) or (p.isascii() and p.isprintable()) else json.dumps(p)
             for p in path]
    return ".".join(parts) or "body"


def _find(doc: Any, bad: Callable[[Any], bool]) -> list[Any] | None:
    """The path of the first key or value of ``doc`` for which ``bad`` holds (iterative: the
    depth is bounded by :data:`MAX_JSON_DEPTH`, not by Python's stack)."""
    stack: list[tuple[Any, list[Any]]] = [(doc, [])]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                if bad(k):
                    return path + [k]
                stack.append((v, path + [k]))
        elif isinstance(node, list):
            stack.extend((v, path + [i]) for i, v in enumerate(node))
        elif bad(node):
            return path
    return None


def _lone_surrogate(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _non_finite(value: Any) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


def parse_json_text(raw: bytes) -> Any:
    """A JSON text parsed as the API reads every body: strict UTF-8 (a BOM is allowed) with no
    lone surrogate, escaped or not (RFC 8259 and I-JSON, RFC 7493: such a string is not text and
    can never be answered back), no ``NaN``/``Infinity``, no number beyond a double, no deeper
    nesting than :data:`MAX_JSON_DEPTH`. Raises :class:`ApiError`: 400 ``bad_json`` (not
    UTF-8 text), 400 ``malformed_json`` (not JSON), 422 ``number_out_of_range`` (naming the
    field).

    >>> parse_json_text(b'{"a": "\\\\ud83d\\\\ude00"}')  # an escaped pair is one character
    {'a': '😀'}
    >>> parse_json_text(b'{"a": ["\\\\ud800"]}')
    Traceback (most recent call last):
    api.endpoint.ApiError: malformed JSON: a string holds a lone UTF-16 surrogate (not text), at a.0
    >>> parse_json_text(b'{"x": {"y": 1e400}}')
    Traceback (most recent call last):
    api.endpoint.ApiError: x.y: number out of range (beyond a 64-bit float)
    """
    if json_depth_exceeds(raw):
        raise ApiError(400, "malformed_json",
                       f"malformed JSON: nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ApiError(400, "bad_json", f"malformed JSON: the body is not UTF-8 text "
                       f"({exc.reason} at byte {exc.start})") from None
    overflow = False

    def parse_float(s: str) -> float:
        nonlocal overflow
        value = float(s)
        overflow = overflow or not math.isfinite(value)
        return value

    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=parse_float)
    except (ValueError, RecursionError) as exc:
        raise ApiError(400, "malformed_json", f"malformed JSON: {exc}") from None
    if _SURROGATE_ESCAPE.search(raw):
        path = _find(data, _lone_surrogate)
        if path is not None:
            raise ApiError(400, "bad_json", "malformed JSON: a string holds a lone UTF-16 "
                           f"surrogate (not text), at {_where(path)}")
    if overflow:
        path = _find(data, _non_finite) or []
        where = _where(path)
        raise ApiError(SEMANTIC_STATUS, "number_out_of_range",
                       f"{where}: number out of range (beyond a 64-bit float)",
                       [{"loc": path, "message": "number out of range"}])
    return data


def read_json_body(req: Request) -> dict[str, Any]:
    """The body parsed as a JSON object; every way it can be wrong is a 4xx :class:`ApiError`."""
    if req.mimetype != "application/json":
        if req.content_length is not None and req.content_length > MAX_BODY_BYTES:
            raise _too_large()
        raise ApiError(415, "unsupported_media_type",
                       f"expected Content-Type application/json, got {req.mimetype or 'none'!r}")
    try:
        raw = _read_body(req)
    except (ApiError, HTTPException):
        raise
    except Exception as exc:  # the server's reader failed on the client's bytes: gunicorn's
        # InvalidChunkSize / NoMoreData on a malformed chunked body, a reset connection
        raise ApiError(400, "malformed_body",
                       f"the request body could not be read: {type(exc).__name__}") from None
    data = parse_json_text(raw)
    if not isinstance(data, dict):
        raise ApiError(400, "invalid_request",
                       f"request body must be a JSON object, got {type(data).__name__}")
    return data


_UNREAD = object()


class ApiRequest(Request):
    """Flask's request with :func:`read_json_body` as ``get_json``: spectree (and anything
    else) reads the body through it, so a bad body is a 4xx in words, never ``None``."""

    context: Any = None  # spectree's validated parts (``context.json``: the body model)
    _strict_json: Any = _UNREAD

    def get_json(self, force: bool = False, silent: bool = False,
                 cache: bool = True) -> dict[str, Any]:
        """``force`` and ``silent`` are ignored: every body of this API is a JSON object."""
        if self._strict_json is _UNREAD:
            self._strict_json = read_json_body(self)
        return cast(dict[str, Any], self._strict_json)


# ------------------------------------------------------------------ the document and routes
SPEC = SpecTree(
    "flask", mode="strict", annotations=False, title=TITLE, version=VERSION,
    description=DESCRIPTION, validation_error_status=SCHEMA_STATUS, validation_error_model=Error,
    naming_strategy=lambda model: model.__name__,
    nested_naming_strategy=lambda _parent, child: child,
)

_BODY_ERRORS = {
    400: "The body is not JSON, or does not match this schema",
    413: f"Body over {MAX_BODY_BYTES:,} bytes",
    415: "Not application/json",
    422: "Matches the schema, but the game rejects it (a duplicate card, a card in two hands, "
         "an illegal play)",
}


def _before(req: Any, resp: Any, error: Exception | None, instance: Any, adapter: Any) -> None:
    """Spectree's hook after request validation: a schema error is answered in this API's
    words (:func:`error_answer`), and a body-taking route reads its body even when spectree
    would not (form bodies: 415)."""
    if error is not None:
        raise error_answer(error)
    if req.method == "POST":
        req.get_json()


def _after(req: Any, resp: Any, error: Exception | None, instance: Any, adapter: Any) -> None:
    """An answer that breaks its own response model is a bug: logged, answered 500 in JSON."""
    if error is not None:
        current_app.logger.error("response of %s breaks its model: %s", req.path, error)
        raise ApiError(500, "internal_error", "internal error: the answer broke its schema")


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
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register ``fn(body_model) -> dict`` (or ``fn() -> dict`` without a request model) on
    ``bp`` through ``SPEC.validate``; ``errors`` are error statuses beyond the body's own
    (404, 409, ...). Without a response model the answer is documented as a JSON object."""
    tag = tag or bp.name
    responses: dict[str, Any] = {"HTTP_200": (response_model or JsonObject, "OK")}
    if request_model is not None:
        responses.update({f"HTTP_{s}": (Error, text) for s, text in _BODY_ERRORS.items()})
    for status in errors:
        responses.setdefault(f"HTTP_{status}", (Error, "Error"))

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        def view() -> Any:
            # answered as a JSON response: spectree then checks the bytes against the response
            # model in one pass (pydantic's JSON validator), where a dict would first be walked
            # in Python for model instances (a third of a millisecond for one arrangement list)
            if request_model is None:
                return jsonify(fn())
            return jsonify(fn(cast(ApiRequest, request).context.json))

        view.__name__ = fn.__name__
        view.__doc__ = summary or (fn.__doc__ or "").strip().split("\n")[0]
        validated = SPEC.validate(
            json=request_model, resp=Response(**responses), tags=[tag],
            operation_id=f"{tag}_{rule.strip('/').replace('/', '_') or 'root'}",
            before=_before, after=_after)(view)
        bp.add_url_rule(rule, endpoint=fn.__name__, view_func=validated, methods=[method])
        return fn

    return decorate


def register_error_handlers(app: Flask) -> None:
    """Every error, the app's own and Flask's, answered through :func:`error_answer`."""

    def answer(exc: Exception) -> ResponseReturnValue:
        err = error_answer(exc)
        if err.status >= 500 and not isinstance(exc, ApiError):
            current_app.logger.exception("unhandled error")  # a bug, answered in JSON
        return jsonify(err.body()), err.status, err.headers

    # a ValidationError is a schema error only from request validation (``_before``); raised
    # anywhere else it is a bug, answered 500 like any other
    for exc_type in (ApiError, InputError, HTTPException, Exception):
        app.register_error_handler(exc_type, answer)


def init_app(app: Flask) -> None:
    """The strict body reader and the error answers, for ``create_app``."""
    app.request_class = ApiRequest
    register_error_handlers(app)
