"""A request id on every answer and every log line of that request, and the time the
request began (which the metrics and the access line read, so it is taken once).

The id is the client's ``X-Request-Id`` when it sent a usable one (1-128 characters of
letters, digits and ``._:-``, so it cannot forge log lines), else a fresh random one. The
front (nginx or the embedded one) sets it before gunicorn sees the request, so the front's
own refusals carry one too; the app keeps the id it is given.
"""

from __future__ import annotations

import logging
import re
import time
import uuid

from flask import Flask, Response, g, has_request_context, request

REQUEST_ID_HEADER = "X-Request-Id"
_USABLE = re.compile(r"[A-Za-z0-9._:-]{1,128}")


def request_id_from(sent: str | None) -> str:
    """The client's id when usable, else a new one.

    >>> request_id_from("abc-123")
    'abc-123'
    >>> len(request_id_from("bad id\\nwith a newline"))
    32
    """
    if sent and _USABLE.fullmatch(sent):
        return sent
    return uuid.uuid4().hex


def request_seconds() -> float | None:
    """Seconds since the request being served began (None outside a request)."""
    if not has_request_context() or "request_start" not in g:
        return None
    return time.perf_counter() - g.request_start


def current_request_id() -> str | None:
    """The id of the request being served in this thread (None outside a request)."""
    if not has_request_context():
        return None
    return g.get("request_id")


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to every log record made while a request is served."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = current_request_id()
        return True


def init_request_id(app: Flask) -> None:
    """Register the hooks that note the start, take or make the id, and send it back
    (before the other hooks, which read both)."""

    @app.before_request
    def _take_request_id() -> None:
        g.request_start = time.perf_counter()
        g.request_id = request_id_from(request.headers.get(REQUEST_ID_HEADER))

    @app.after_request
    def _send_request_id(response: Response) -> Response:
        rid = g.get("request_id")
        if rid:
            response.headers[REQUEST_ID_HEADER] = rid
        return response
