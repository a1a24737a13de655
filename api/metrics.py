"""``GET /metrics``: the service's figures in the Prometheus text format (prometheus-client).

- ``capsa_http_requests_total{route, method, status}``: answers, by route template (so a
  session token or a wrong path never becomes a label: unknown paths count as ``<unmatched>``)
  and method (HTTP's nine; any other token a client sends counts as ``other``): every label
  takes a bounded set of values.
- ``capsa_http_request_duration_seconds{route, method}``: latency histogram.
- ``capsa_http_requests_in_flight``: requests being served now.
- ``capsa_compute_jobs``: costly requests sent to the compute pool and not yet answered
  (running or waiting for a pool process).
- ``capsa_compute_refusals_total{reason}``: ``busy`` (503 ``compute_busy``), ``deadline``
  (stopped at the deadline, 503 ``deadline_exceeded``), ``unavailable``.
- ``capsa_storage_errors_total``: requests answered 503 ``storage_unavailable``.
- ``capsa_sessions_live``: game sessions in the store, read at scrape time, and
  ``capsa_sessions_store_up`` (0 when the store could not be read).

Under ``capsa serve`` several gunicorn workers answer: prometheus-client's multiprocess mode
(``PROMETHEUS_MULTIPROC_DIR``, set by ``capsa serve`` before the app is built) adds their
figures at scrape time. prometheus-client picks that mode when it is first imported, so it is
imported here lazily, never at module import.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Flask, Response, current_app, g, request

from api.request_id import request_seconds

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                   10.0, 30.0)
UNMATCHED = "<unmatched>"
OTHER = "other"
HTTP_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE",
                          "PATCH"})

bp = Blueprint("metrics", __name__)


@dataclass(frozen=True)
class Metrics:
    requests: Any
    latency: Any
    in_flight: Any
    compute_jobs: Any
    refusals: Any
    storage_errors: Any
    registry: Any  # this process's registry; None in multiprocess mode (values in files)


_METRICS: Metrics | None = None


def multiprocess_dir() -> str | None:
    """The directory of the workers' metric files, when several processes serve."""
    return os.environ.get(MULTIPROC_ENV) or None


def metrics() -> Metrics:
    """This process's metric objects, made once (per process, whatever the apps built)."""
    global _METRICS
    if _METRICS is None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        # In multiprocess mode values live in files and a scrape reads them all; else they
        # live in a registry of our own (several apps in one process share it).
        registry = None if multiprocess_dir() else CollectorRegistry(auto_describe=True)
        _METRICS = Metrics(
            requests=Counter("capsa_http_requests", "HTTP answers by route, method and status",
                             ["route", "method", "status"], registry=registry),
            latency=Histogram("capsa_http_request_duration_seconds",
                              "Time to answer, by route and method", ["route", "method"],
                              buckets=LATENCY_BUCKETS, registry=registry),
            in_flight=Gauge("capsa_http_requests_in_flight", "Requests being answered",
                            registry=registry, multiprocess_mode="livesum"),
            compute_jobs=Gauge("capsa_compute_jobs",
                               "Costly requests in the compute pool (running or waiting)",
                               registry=registry, multiprocess_mode="livesum"),
            refusals=Counter("capsa_compute_refusals",
                             "Costly requests refused or stopped, by reason", ["reason"],
                             registry=registry),
            storage_errors=Counter("capsa_storage_errors",
                                   "Requests answered 503 storage_unavailable: the sessions "
                                   "store could not be read or written", registry=registry),
            registry=registry,
        )
    return _METRICS


def method_label(method: str) -> str:
    """The ``method`` label: one of HTTP's own methods, else ``other`` (a client may send any
    token as a method; each would otherwise become a series of its own).

    >>> method_label("POST"), method_label("FOO"), method_label("get")
    ('POST', 'other', 'other')
    """
    return method if method in HTTP_METHODS else OTHER


def count_storage_error() -> None:
    """A request answered 503 ``storage_unavailable``: the sessions store failed."""
    metrics().storage_errors.inc()


def count_refusal(reason: str) -> None:
    """A costly request answered 503: ``busy``, ``deadline`` or ``unavailable``."""
    metrics().refusals.labels(reason=reason).inc()


class _SessionsCollector:
    """``capsa_sessions_live``, read from the app's session store when scraped (inside the
    scrape's request), and ``capsa_sessions_store_up``: 0 when the store cannot be read (the
    figures are still served)."""

    def collect(self) -> Any:
        from prometheus_client.core import GaugeMetricFamily

        svc = current_app.extensions.get("sessions")
        if svc is None:
            return
        up = GaugeMetricFamily("capsa_sessions_store_up",
                               "1 when the sessions store could be read at this scrape")
        try:
            live = svc.store.stats()["sessions"]
        except Exception as exc:  # the store's own failure: shown as a figure, not a 500
            current_app.logger.error("sessions store unreadable at scrape: %s", exc)
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        family = GaugeMetricFamily("capsa_sessions_live", "Game sessions in the store")
        family.add_metric([], live)
        yield family


def exposition() -> tuple[bytes, str]:
    """The text a scrape gets: every worker's figures (or this process's) and the sessions."""
    from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

    local = metrics().registry
    registry = CollectorRegistry(auto_describe=True)
    path = multiprocess_dir()
    if path:
        from prometheus_client import multiprocess

        multiprocess.MultiProcessCollector(registry, path=path)
    else:
        registry.register(_Forward(local))
    registry.register(_SessionsCollector())
    return generate_latest(registry), CONTENT_TYPE_LATEST


class _Forward:
    """This process's own registry, read inside the scrape's registry."""

    def __init__(self, registry: Any):
        self.registry = registry

    def collect(self) -> Any:
        yield from self.registry.collect()


def mark_process_dead(pid: int) -> None:
    """A gunicorn worker ended: drop its live gauges (gunicorn's ``child_exit`` hook)."""
    path = multiprocess_dir()
    if path:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid, path)


@bp.get("/metrics")
def metrics_page() -> Response:
    body, content_type = exposition()
    return Response(body, mimetype=None, content_type=content_type)


def init_metrics(app: Flask) -> None:
    """Count and time every request of ``app``; serve ``/metrics``."""
    m = metrics()
    app.register_blueprint(bp)

    @app.before_request
    def _count_in_flight() -> None:
        g.in_flight = True
        m.in_flight.inc()

    @app.after_request
    def _record(response: Response) -> Response:
        if g.pop("in_flight", False):
            m.in_flight.dec()
            seconds = request_seconds() or 0.0  # the request id's hook noted the start first
            rule = request.url_rule.rule if request.url_rule is not None else UNMATCHED
            method = method_label(request.method)
            m.requests.labels(route=rule, method=method,
                              status=str(response.status_code)).inc()
            m.latency.labels(route=rule, method=method).observe(seconds)
        return response
