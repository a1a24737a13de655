"""Service routes: health, the OpenAPI document, its docs page and the web page."""

from __future__ import annotations

from typing import Any, Literal

from flask import Blueprint, current_app, send_from_directory
from flask.typing import ResponseReturnValue
from pydantic import BaseModel

from api.endpoint import SPEC, json_endpoint
from api.openapi import docs_page

bp = Blueprint("meta", __name__)


class Health(BaseModel):
    """The service is up and its kernels are compiled (``create_app`` warms them first)."""

    status: Literal["ok"]


@json_endpoint(bp, "/healthz", None, Health, method="GET", summary="Liveness check")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@json_endpoint(bp, "/openapi.json", None, None, method="GET",
               summary="This API's OpenAPI 3.1 document")
def openapi() -> dict[str, Any]:
    # built from this app's routes on the first call and kept: every app of this package
    # registers the same blueprints
    spec: dict[str, Any] = SPEC.spec
    return spec


@bp.get("/docs")
def docs() -> ResponseReturnValue:
    """Swagger UI, from the page spectree ships for offline use."""
    page = docs_page(SPEC.config.page_templates["swagger"])
    return page, 200, {"Content-Type": "text/html; charset=utf-8"}


@bp.get("/")
def index() -> ResponseReturnValue:
    return send_from_directory(current_app.static_folder or "static", "index.html")
