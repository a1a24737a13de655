"""Access logs and log format: one line per request, plain text or JSON.

``capsa serve --access-log`` logs each answer to standard error; ``--log-format json`` writes
every line (access lines and the service's own messages) as one JSON object, with the
request id, for a log collector. The access line is written by the app, so it has the route,
the status, the time taken and the request id whichever front is used.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import datetime, timezone
from typing import Any

from flask import Flask, Response, request

from api.request_id import RequestIdFilter, request_seconds
from solver.validation import check_choice

ACCESS_LOGGER = "capsa.access"
LOG_FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_ACCESS_FIELDS = ("method", "path", "status", "duration_ms", "bytes", "remote")


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message, request id, and the access
    fields when the record is an access line.

    >>> rec = logging.LogRecord("capsa.access", logging.INFO, __file__, 1, "GET /healthz 200",
    ...                         None, None)
    >>> rec.request_id, rec.status = "abc", 200
    >>> doc = json.loads(JsonFormatter().format(rec))
    >>> doc["message"], doc["request_id"], doc["status"]
    ('GET /healthz 200', 'abc', 200)
    """

    def format(self, record: logging.LogRecord) -> str:
        doc: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(
                timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = getattr(record, "request_id", None)
        if rid:
            doc["request_id"] = rid
        for field in _ACCESS_FIELDS:
            if hasattr(record, field):
                doc[field] = getattr(record, field)
        if record.exc_info:
            doc["exception"] = self.formatException(record.exc_info)
        return json.dumps(doc, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """The plain format, with ``[request id]`` after the level when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        rid = getattr(record, "request_id", None)
        return f"{line} [{rid}]" if rid else line


def formatter(log_format: str) -> logging.Formatter:
    check_choice("log format", log_format, LOG_FORMATS)
    return JsonFormatter() if log_format == "json" else TextFormatter(TEXT_FORMAT)


def configure_logging(log_format: str = "text", level: str = "info",
                      stream: Any = None) -> logging.Handler:
    """Send the service's loggers (``capsa.*``, the app's) to ``stream`` (stderr) in the
    format asked for; returns the handler (for tests)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(formatter(log_format))
    handler.addFilter(RequestIdFilter())
    for name in ("capsa", "api"):
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
    # Access lines are asked for on their own (--access-log): they do not hide behind the
    # level chosen for the service's messages.
    logging.getLogger(ACCESS_LOGGER).setLevel(logging.INFO)
    return handler


def init_access_log(app: Flask) -> None:
    """Log one line per answer on ``capsa.access`` when ``ACCESS_LOG`` is set."""
    log = logging.getLogger(ACCESS_LOGGER)

    @app.after_request
    def _access_line(response: Response) -> Response:
        if not app.config.get("ACCESS_LOG"):
            return response
        seconds = request_seconds()
        ms = round(seconds * 1000, 2) if seconds is not None else None
        remote = (request.headers.get("X-Forwarded-For", "").split(",")[-1].strip()
                  or request.remote_addr or "")
        path = request.full_path.rstrip("?") if request.query_string else request.path
        log.info("%s %s %s %sms", request.method, path, response.status_code, ms,
                 extra={"method": request.method, "path": path,
                        "status": response.status_code, "duration_ms": ms,
                        "bytes": response.calculate_content_length(), "remote": remote})
        return response
