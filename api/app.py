"""``create_app()``: the Flask app with every blueprint (see :mod:`api`)."""

from __future__ import annotations

import importlib
from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider

from api.endpoint import MAX_BODY_BYTES, init_app
from api.logs import init_access_log
from api.metrics import init_metrics
from api.request_id import init_request_id
from solver.games import all_games, module_name
from solver.warmup import warm_up


class ApiJSONProvider(DefaultJSONProvider):
    """Flask's JSON, with keys in the order the answers build them and non-ASCII text
    written as itself (``♠``, not an escape)."""

    sort_keys = False
    ensure_ascii = False


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app; compile and warm the numba kernels unless ``WARMUP`` is False."""
    app = Flask(__name__, static_folder="static", static_url_path="/static")
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY_BYTES, JSON_SORT_KEYS=False, WARMUP=True)
    app.json = ApiJSONProvider(app)
    if config:
        app.config.update(config)
    init_app(app)
    # Operator hooks, the request id first so the others see it.
    init_request_id(app)
    init_metrics(app)
    init_access_log(app)
    modules = ["meta"] + [module_name(info.name) for info in all_games()] + ["sessions"]
    for name in modules:
        app.register_blueprint(importlib.import_module(f"api.routes.{name}").bp)
    if app.config["WARMUP"]:
        warm_up()
    return app
