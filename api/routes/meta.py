"""Service routes: liveness (``/healthz``: the process answers) and readiness (``/readyz``:
every dependency checked now), the OpenAPI document, its docs page and the web page."""

from __future__ import annotations

import os
import time
from typing import Any, Literal

from flask import Blueprint, Response, current_app, request, send_from_directory
from flask.typing import ResponseReturnValue
from pydantic import BaseModel, Field

from api.caching import etag_of, revalidated
from api.endpoint import SPEC, ApiError, json_endpoint
from api.examples import add_examples
from api.headers import inline_page_csp
from api.openapi import docs_page
from solver.executors.pool import call_function

bp = Blueprint("meta", __name__)


class Health(BaseModel):
    """The service is up and its kernels are compiled (``create_app`` warms them first)."""

    status: Literal["ok"]


@json_endpoint(bp, "/healthz", None, Health, method="GET", summary="Liveness check")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


READY_PROBE_S = 2.0  # how long the compute pool may take to answer the readiness probe


class Check(BaseModel):
    ok: bool
    detail: str = Field(description="what was checked, or why it failed")


class Ready(BaseModel):
    """Every dependency answered: the sessions store was written, the kernels are warm, the
    compute pool ran a job."""

    status: Literal["ok"]
    checks: dict[str, Check]


def _check_sessions() -> str:
    svc = current_app.extensions.get("sessions")
    if svc is None:
        raise RuntimeError("the sessions store was never opened")
    svc.store.check()
    return "the sessions store was read and written"


def _check_kernels() -> str:
    if current_app.config.get("WARMUP") and not current_app.extensions.get("warmed_up"):
        raise RuntimeError("the numba kernels are not warmed up")
    return "warm" if current_app.config.get("WARMUP") else "not warmed at start (WARMUP off)"


def _check_compute() -> str:
    path = current_app.config.get("COMPUTE_SOCKET")
    if not path:
        return "no compute pool: costly requests run in the web workers"
    pid = call_function(path, time.time() + READY_PROBE_S, os.getpid)
    return f"a pool process ({pid}) answered"


_CHECKS = {"sessions": _check_sessions, "kernels": _check_kernels, "compute": _check_compute}


@json_endpoint(bp, "/readyz", None, Ready, method="GET", errors=(503,),
               summary="Readiness: each dependency checked now (503 not_ready naming the "
                       "failed ones)")
def readyz() -> dict[str, Any]:
    checks: dict[str, dict[str, Any]] = {}
    for name, check in _CHECKS.items():
        try:
            checks[name] = {"ok": True, "detail": check()}
        except Exception as exc:  # each failure is the answer's content, not a crash
            checks[name] = {"ok": False, "detail": f"{type(exc).__name__}: {exc}"[:300]}
    failed = [name for name, c in checks.items() if not c["ok"]]
    if failed:
        raise ApiError(503, "not_ready", "; ".join(f"{n}: {checks[n]['detail']}" for n in failed),
                       [{"loc": [n], "message": checks[n]["detail"]} for n in failed],
                       headers=[("Retry-After", "5")])
    return {"status": "ok", "checks": checks}


@json_endpoint(bp, "/openapi.json", None, None, method="GET",
               summary="This API's OpenAPI 3.1 document")
def openapi() -> dict[str, Any]:
    # built from this app's routes on the first call and kept: every app of this package
    # registers the same blueprints
    spec: dict[str, Any] = add_examples(SPEC.spec)
    return spec


@bp.after_request
def _revalidate_the_document(response: Response) -> Response:
    """The OpenAPI document is fixed for the service's life: an ETag, and 304 when unchanged
    (after spectree has checked the answer)."""
    if request.endpoint == "meta.openapi" and response.status_code == 200:
        return revalidated(response)
    return response


@bp.get("/docs")
def docs() -> ResponseReturnValue:
    """Swagger UI, from the page spectree ships for offline use; an ETag, and 304 when the
    browser holds it already. Its policy is set here from the page itself, so that a 304
    (no body) carries the same one."""
    page = docs_page(SPEC.config.page_templates["swagger"]).encode()
    answer = Response(page, 200, {"Content-Type": "text/html; charset=utf-8",
                                  "Content-Security-Policy": inline_page_csp(page)})
    return revalidated(answer, etag_of(page))


@bp.get("/")
def index() -> ResponseReturnValue:
    return send_from_directory(current_app.static_folder or "static", "index.html")
