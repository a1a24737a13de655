"""The HTTP service: ``create_app()`` builds the Flask app with every blueprint.

Routes live in ``api/routes/<name>.py``, one module per game, each exposing ``bp``.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from flask import Flask

from api.endpoint import MAX_BODY_BYTES, register_error_handlers

ROUTE_MODULES = ("meta", "capsa", "big_two", "da_san", "da_bai_fen")


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app; compile and warm the numba kernels unless ``WARMUP`` is False."""
    app = Flask(__name__, static_folder="static", static_url_path="/static")
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY_BYTES, JSON_SORT_KEYS=False, WARMUP=True)
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    if config:
        app.config.update(config)
    register_error_handlers(app)
    for name in ROUTE_MODULES:
        if importlib.util.find_spec(f"api.routes.{name}") is None:
            continue
        module = importlib.import_module(f"api.routes.{name}")
        app.register_blueprint(module.bp)
    if app.config["WARMUP"]:
        from solver.warmup import warm_up

        warm_up()
    return app
