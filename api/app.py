"""``create_app()``: the Flask app with every blueprint (see :mod:`api`)."""

from __future__ import annotations

import importlib
from typing import Any

from flask import Flask, Response
from flask.json.provider import DefaultJSONProvider

from api.endpoint import MAX_BODY_BYTES, init_app
from api.headers import init_security_headers
from api.logs import init_access_log
from api.metrics import init_metrics
from api.request_id import init_request_id
from api.storage import init_storage
from solver.games import all_games, module_name
from solver.games.valuenet import one_blas_thread_for_good
from solver.warmup import warm_up


class ApiJSONProvider(DefaultJSONProvider):
    """Flask's JSON, with keys in the order the answers build them and non-ASCII text
    written as itself (``♠``, not an escape). Strict: ``NaN`` and ``Infinity`` are not JSON,
    so an answer holding one is refused (a bug, answered 500 in words) rather than sent to a
    client whose parser would choke on it; a string that is not text (a lone surrogate, which
    the body reader never lets in) is written escaped instead of failing at encoding."""

    sort_keys = False
    ensure_ascii = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        kwargs.setdefault("allow_nan", False)
        return super().dumps(obj, **kwargs)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        dump_args: dict[str, Any] = {"separators": (",", ":")}
        if (self.compact is None and self._app.debug) or self.compact is False:
            dump_args = {"indent": 2}
        try:
            body = f"{self.dumps(obj, **dump_args)}\n".encode()
        except UnicodeEncodeError:
            body = f"{self.dumps(obj, ensure_ascii=True, **dump_args)}\n".encode()
        return Response(body, mimetype=self.mimetype)


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
    init_security_headers(app)  # every answer, through either front
    modules = (["meta"] + [module_name(info.name) for info in all_games()]
               + ["sessions", "i18n", "rules"])
    for name in modules:
        app.register_blueprint(importlib.import_module(f"api.routes.{name}").bp)
    init_storage(app)  # a sessions store that cannot be used stops the app here
    one_blas_thread_for_good()  # the service's parallelism is its own processes
    if app.config["WARMUP"]:
        warm_up()
        app.extensions["warmed_up"] = True
    return app
