"""Service routes: health, the OpenAPI document, its docs page and the web page."""

from __future__ import annotations

from typing import Literal

from flask import Blueprint, current_app, send_from_directory
from pydantic import BaseModel

from api.endpoint import json_endpoint
from api.openapi import build_openapi

bp = Blueprint("meta", __name__)

_DOCS = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>Capsa solver API</title><link rel="stylesheet" href="/static/docs.css"></head>
<body><main id="docs"><h1>Capsa solver API</h1><p>Loading…</p></main>
<script src="/static/docs.js"></script></body></html>"""


class Health(BaseModel):
    """The service is up and its kernels are compiled (``create_app`` warms them first)."""

    status: Literal["ok"]


@json_endpoint(bp, "/healthz", None, Health, method="GET", summary="Liveness check")
def healthz() -> dict:
    return {"status": "ok"}


@json_endpoint(bp, "/openapi.json", None, None, method="GET",
               summary="This API's OpenAPI 3.1 document")
def openapi() -> dict:
    return build_openapi(current_app)


@bp.get("/docs")
def docs():
    return _DOCS, 200, {"Content-Type": "text/html; charset=utf-8"}


@bp.get("/")
def index():
    return send_from_directory(current_app.static_folder, "index.html")
