"""The OpenAPI 3.1 document, built from the same pydantic models that validate requests."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from api.endpoint import ENDPOINTS

ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
        }
    },
}


def _schema(model: type[BaseModel], components: dict[str, Any], mode: str) -> dict:
    schema = model.model_json_schema(ref_template="#/components/schemas/{model}", mode=mode)
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
                "400": {"description": "Bad input", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Error"}}}},
            },
        }
        if spec.request is not None:
            op["requestBody"] = {"required": True, "content": {"application/json": {
                "schema": _schema(spec.request, components, "validation")}}}
            op["responses"]["413"] = {"description": "Body too large"}
            op["responses"]["415"] = {"description": "Not JSON"}
        for status in spec.errors:
            op["responses"][str(status)] = {"description": "Error", "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        paths.setdefault(spec.path, {})[spec.method.lower()] = op
    return {
        "openapi": "3.1.0",
        "info": {"title": "Capsa solver API", "version": "1.0.0",
                 "description": "Capsa Susun arrangement advice and referee; Big Two, Da San "
                                "and Da Bai Fen move generators. Errors: "
                                '`{"error": {"code": ..., "message": ...}}` with a 4xx status.'},
        "paths": dict(sorted(paths.items())),
        "components": {"schemas": components},
    }
