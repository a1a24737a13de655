"""Service routes: health, the OpenAPI document, its docs page and the web page."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, send_from_directory

from api.openapi import build_openapi

bp = Blueprint("meta", __name__)

_DOCS = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Capsa solver API</title><link rel="stylesheet" href="/static/docs.css"></head>
<body><main id="docs"><h1>Capsa solver API</h1><p>Loading…</p></main>
<script src="/static/docs.js"></script></body></html>"""


@bp.get("/healthz")
def healthz():
    return jsonify({"status": "ok"})


@bp.get("/openapi.json")
def openapi():
    return jsonify(build_openapi(current_app))


@bp.get("/docs")
def docs():
    return _DOCS, 200, {"Content-Type": "text/html; charset=utf-8"}


@bp.get("/")
def index():
    return send_from_directory(current_app.static_folder, "index.html")
