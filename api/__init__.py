"""The HTTP service: ``create_app()`` builds the Flask app with every blueprint.

Routes live in ``api/routes/<game>.py``, one module per registered game (the registry names
them; a missing module is an error at start-up), each exposing ``bp``; ``api/routes/meta.py``
serves the pages, the OpenAPI document and ``/healthz``. Every answer carries an
``X-Request-Id``; ``/metrics`` serves the Prometheus figures (:mod:`api.metrics`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from api.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    # the app (Flask, the schemas, every blueprint) loads on first use, so the CLI's other
    # commands and the modules of the server's processes do not pay for it
    if name == "create_app":
        from api.app import create_app

        return create_app
    raise AttributeError(f"module 'api' has no attribute {name!r}")
