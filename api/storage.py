"""The app's sessions store: opened and checked when the app is built, one place for the
routes, the figures and the readiness check to find it.

The store is the SQLite file ``SESSIONS_DB`` (default: ``sessions.sqlite3`` in the app's
instance folder; a temporary folder under ``TESTING``). :func:`init_storage` opens it in
``create_app`` and writes it once, so a path that cannot be used (a read-only folder, a
folder where the file should be, a file that is not a database) stops the service at start
with one line instead of failing every session request later. A store that fails later (a
full disk) is answered 503 ``storage_unavailable`` with ``Retry-After`` and counted in
``capsa_storage_errors_total``; nothing is half-written (SQLite rolls the operation back).
"""

from __future__ import annotations

import os
import tempfile
import threading

from flask import Flask, current_app, jsonify
from flask.typing import ResponseReturnValue

from api.endpoint import ApiError
from api.metrics import count_storage_error
from solver.sessions.drill import DrillService
from solver.sessions.service import SessionService
from solver.sessions.store import SessionStore, StorageUnavailable

__all__ = ["RETRY_AFTER_S", "StorageUnavailable", "drill", "init_storage", "sessions"]

RETRY_AFTER_S = 5  # what a 503 storage_unavailable tells the client to wait
_LOCK = threading.Lock()
# app config key -> SessionStore keyword
_STORE_OPTIONS = (("SESSIONS_TTL", "ttl"), ("SESSIONS_MAX", "max_sessions"),
                  ("SESSIONS_MAX_HANDS", "max_hands"), ("SESSIONS_MAX_BYTES", "max_bytes"),
                  ("SESSIONS_MAX_DOC_BYTES", "max_doc_bytes"), ("SESSIONS_CLOCK", "clock"))


def store_path(app: Flask) -> str:
    """Where ``app`` keeps its sessions."""
    path = app.config.get("SESSIONS_DB")
    if path:
        return str(path)
    folder = tempfile.mkdtemp(prefix="capsa-sessions-") if app.testing else app.instance_path
    return os.path.join(folder, "sessions.sqlite3")


def open_sessions(app: Flask) -> SessionService:
    """``app``'s session service, its store opened (and checked) on the first call."""
    with _LOCK:
        svc = app.extensions.get("sessions")
        if svc is None:
            options = {kw: app.config[key] for key, kw in _STORE_OPTIONS if key in app.config}
            store = SessionStore(store_path(app), **options)
            svc = app.extensions["sessions"] = SessionService(store)
    return svc


def sessions() -> SessionService:
    """The current app's session service."""
    return open_sessions(current_app._get_current_object())  # type: ignore[attr-defined]


def drill() -> DrillService:
    """The current app's drill service, on the sessions' store."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    store = sessions().store
    with _LOCK:
        svc = app.extensions.get("drill")
        if svc is None or svc.store is not store:
            svc = app.extensions["drill"] = DrillService(store)
    return svc


def _unavailable(exc: StorageUnavailable) -> ResponseReturnValue:
    count_storage_error()
    current_app.logger.error("%s", exc)
    err = ApiError(503, "storage_unavailable",
                   f"game sessions cannot be read or saved right now; nothing was changed. "
                   f"Retry in {RETRY_AFTER_S} s", headers=[("Retry-After", str(RETRY_AFTER_S))])
    return jsonify(err.body()), err.status, err.headers


def init_storage(app: Flask) -> None:
    """Open and check ``app``'s store now (:class:`StorageUnavailable` if it cannot be used);
    answer a store that fails later with 503 ``storage_unavailable``."""
    app.register_error_handler(StorageUnavailable, _unavailable)
    open_sessions(app)
