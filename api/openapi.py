"""The OpenAPI 3.1 document, built from the same pydantic models that validate requests.

pydantic writes the bounds of a constrained type that wraps a validator as ``ge``/``le``,
which JSON Schema does not know; :func:`json_schema_words` turns them into
``minimum``/``maximum`` so that clients and fuzzers see every limit.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from api.endpoint import ENDPOINTS, MAX_BODY_BYTES

ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string", "description": "what was wrong, the value sent "
                                                             "and what is allowed"},
                "details": {"type": "array", "description": "one item per bad field"},
                "problems": {"type": "array", "items": {"type": "string"}},
            },
        }
    },
}
_ERROR = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
_WORDS = {"ge": "minimum", "le": "maximum", "gt": "exclusiveMinimum", "lt": "exclusiveMaximum"}
_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


def json_schema_words(schema: Any) -> Any:
    """A copy of ``schema`` with pydantic's ``ge``/``le``/``gt``/``lt`` spelled as JSON Schema's
    words; the keys of ``properties`` (field names) are left alone.

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
            out[_WORDS.get(key, key)] = json_schema_words(value)
    return out


def _schema(model: type[BaseModel], components: dict[str, Any], mode: str) -> dict:
    schema = model.model_json_schema(ref_template="#/components/schemas/{model}", mode=mode)
    schema = json_schema_words(schema)
    for name, sub in schema.pop("$defs", {}).items():
        components[name] = sub
    components[model.__name__] = schema
    return {"$ref": f"#/components/schemas/{model.__name__}"}


def build_openapi(app: Any) -> dict:
    components: dict[str, Any] = {"Error": ERROR_SCHEMA}
    paths: dict[str, Any] = {}
    registered = {bp for bp in app.blueprints.values()}
    for spec in ENDPOINTS:
        if spec.blueprint not in registered:
            continue
        op: dict[str, Any] = {
            "summary": spec.summary,
            "operationId": f"{spec.tag}_{spec.rule.strip('/').replace('/', '_') or 'root'}",
            "tags": [spec.tag],
            "responses": {
                "200": {"description": "OK", "content": {"application/json": {
                    "schema": _schema(spec.response, components, "serialization")
                    if spec.response else {"type": "object"}}}},
            },
        }
        if spec.request is not None:
            op["requestBody"] = {"required": True, "content": {"application/json": {
                "schema": _schema(spec.request, components, "validation")}}}
            op["responses"].update({
                "400": {"description": "The body is not JSON, or does not match this schema",
                        **_ERROR},
                "413": {"description": f"Body over {MAX_BODY_BYTES:,} bytes", **_ERROR},
                "415": {"description": "Not application/json", **_ERROR},
                "422": {"description": "Matches the schema, but the game rejects it (a "
                                       "duplicate card, a card in two hands, an illegal play)",
                        **_ERROR},
            })
        for status in spec.errors:
            op["responses"][str(status)] = {"description": "Error", "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        paths.setdefault(spec.path, {})[spec.method.lower()] = op
    return {
        "openapi": "3.1.0",
        "info": {"title": "Capsa solver API", "version": "1.0.0",
                 "description": "Capsa Susun arrangement advice and referee; Big Two, Da San "
                                "and Da Bai Fen move generators. Errors: "
                                '`{"error": {"code": ..., "message": ...}}`: 400 a body that '
                                "is not JSON or breaks this schema, 422 one that matches it but "
                                "the game rejects, 413 too large, 415 not JSON, 405 (with "
                                "`Allow`) another method."},
        "paths": dict(sorted(paths.items())),
        "components": {"schemas": components},
    }
