"""What an operator relies on: request ids, ``/metrics``, JSON logs, graceful shutdown.

The app-level checks run on the test client; the served ones run the real ``capsa serve``
with each front (nginx and the embedded waitress).
"""

from __future__ import annotations

import http.client
import json
import re
import signal
import socket
import threading
import time

import pytest
from prometheus_client.parser import text_string_to_metric_families
from test_serve import FRONTS, HAND, Server

HEX_ID = re.compile(r"[0-9a-f]{32}")
SLOW_ARRANGE = {"hand": HAND, "method": "montecarlo", "opponents": 3, "samples": 5000,
                "seed": 3, "top": 1, "adaptive": False}  # every sample drawn: about a second


def _get(port: int, method: str, path: str, body: bytes | None = None,
         headers: dict | None = None, timeout: float = 30) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        try:
            conn.request(method, path, body=body, headers=headers or {})
        except (BrokenPipeError, ConnectionResetError):
            # a front that refuses a body may answer and close before the upload ends (timing
            # decides); its answer is in the socket already, read it as curl would
            pass
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def _post_json(port: int, path: str, doc: dict, headers: dict | None = None,
               timeout: float = 60) -> tuple[int, dict, dict]:
    status, head, data = _get(port, "POST", path, json.dumps(doc).encode(),
                              {"Content-Type": "application/json", **(headers or {})}, timeout)
    return status, head, json.loads(data)


def _samples(text: str) -> dict[tuple[str, tuple], float]:
    """Every sample of a Prometheus exposition, keyed by name and sorted labels."""
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


# ---------------------------------------------------------------- app level
def test_every_answer_has_a_request_id_and_keeps_a_usable_one(client):
    resp = client.get("/healthz")
    assert HEX_ID.fullmatch(resp.headers["X-Request-Id"])
    assert client.get("/healthz").headers["X-Request-Id"] != resp.headers["X-Request-Id"]
    assert client.get("/healthz", headers={"X-Request-Id": "lb-7:abc.1"}).headers[
        "X-Request-Id"] == "lb-7:abc.1"
    bad = client.get("/healthz", headers={"X-Request-Id": "two words"}).headers["X-Request-Id"]
    assert HEX_ID.fullmatch(bad)  # not usable in a log line: replaced
    err = client.post("/v1/capsa/valid", json={"hand": "As As"}, headers={"X-Request-Id": "e-1"})
    assert err.status_code == 400 and err.headers["X-Request-Id"] == "e-1"
    assert client.get("/no/such/page").headers["X-Request-Id"]


def test_metrics_count_requests_by_route_and_status(client):
    before = _samples(client.get("/metrics").get_data(as_text=True))
    for _ in range(3):
        client.get("/healthz")
    client.post("/v1/capsa/valid", json={"hand": "As As"})
    client.get("/v1/sessions/nope-not-a-route-token")
    resp = client.get("/metrics")
    assert resp.status_code == 200 and resp.mimetype == "text/plain"
    after = _samples(resp.get_data(as_text=True))

    def delta(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0) - before.get(key, 0)

    assert delta("capsa_http_requests_total", route="/healthz", method="GET", status="200") == 3
    assert delta("capsa_http_requests_total", route="/v1/capsa/valid", method="POST",
                 status="400") == 1
    # A path no route matches is one label, whatever the path (no unbounded labels).
    assert delta("capsa_http_requests_total", route="<unmatched>", method="GET", status="404") == 1
    assert delta("capsa_http_request_duration_seconds_count", route="/healthz", method="GET") == 3
    assert ("capsa_sessions_live", ()) in after
    assert ("capsa_compute_jobs", ()) in after


def test_json_access_lines_carry_the_request_id(app):
    import io
    import logging

    from api.logs import configure_logging

    stream = io.StringIO()
    handler = configure_logging("json", "info", stream)
    app.config["ACCESS_LOG"] = True
    try:
        app.test_client().get("/healthz", headers={"X-Request-Id": "log-check-1"})
    finally:
        app.config["ACCESS_LOG"] = False
        for name in ("capsa", "api"):
            logging.getLogger(name).removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    access = [d for d in lines if d["logger"] == "capsa.access"]
    assert len(access) == 1
    line = access[0]
    assert (line["request_id"], line["method"], line["path"], line["status"]) == (
        "log-check-1", "GET", "/healthz", 200)
    assert line["duration_ms"] >= 0 and line["level"] == "info" and "time" in line


# ---------------------------------------------------------------- served
@pytest.fixture(scope="module", params=FRONTS)
def served(request, tmp_path_factory):
    log = tmp_path_factory.mktemp("logs") / f"serve-{request.param}.log"
    srv = Server(2, "--log-format", "json", "--compute-workers", "1", "--deadline", "30",
                 front=request.param, stderr_path=log)
    try:
        srv.wait_ready()
        srv.front, srv.log_path = request.param, log
        yield srv
    finally:
        assert srv.stop() == 0


def test_served_request_ids_from_the_app_and_from_the_front(served):
    status, head, _ = _get(served.port, "GET", "/healthz", headers={"X-Request-Id": "abc-42"})
    assert status == 200 and head["x-request-id"] == "abc-42"
    status, head, _ = _get(served.port, "GET", "/healthz")
    assert HEX_ID.fullmatch(head["x-request-id"])
    # The front's own refusal (a body over the limit, never seen by the app) has one too.
    status, head, body = _get(served.port, "POST", "/v1/capsa/arrange", b"x" * 1_200_000,
                              {"Content-Type": "application/json", "X-Request-Id": "big-1"})
    assert status == 413 and json.loads(body)["error"]["code"] == "body_too_large"
    assert head["x-request-id"] == "big-1"


def test_served_metrics_add_up_every_worker(served):
    """Two gunicorn workers answer: a scrape counts the requests of both."""
    before = _samples(_get(served.port, "GET", "/metrics")[2].decode())
    n = 40
    for _ in range(n):
        assert _get(served.port, "GET", "/healthz")[0] == 200
    after = _samples(_get(served.port, "GET", "/metrics")[2].decode())
    key = ("capsa_http_requests_total", (("method", "GET"), ("route", "/healthz"),
                                         ("status", "200")))
    assert after[key] - before.get(key, 0) == n
    assert after[("capsa_http_requests_in_flight", ())] >= 1  # the scrape itself


def test_served_logs_are_json_lines_with_the_request_id(served):
    _get(served.port, "GET", "/healthz", headers={"X-Request-Id": f"json-log-{served.front}"})
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        text = served.log_path.read_text()
        if f"json-log-{served.front}" in text:
            break
        time.sleep(0.1)
    lines = [ln for ln in text.splitlines() if ln and not ln.startswith("capsa serve:")]
    docs = [json.loads(ln) for ln in lines]  # every line is one JSON object
    access = [d for d in docs if d.get("request_id") == f"json-log-{served.front}"]
    assert len(access) == 1 and access[0]["logger"] == "capsa.access"
    assert access[0]["path"] == "/healthz" and access[0]["status"] == 200


def _wait_in_flight(port: int, n: int, timeout: float = 20) -> None:
    """Until ``/metrics`` counts ``n`` requests being served (a busy machine may take a while
    to accept a request: a fixed sleep could signal before it arrived)."""
    end = time.monotonic() + timeout
    key = ("capsa_http_requests_in_flight", ())
    while time.monotonic() < end:
        if _samples(_get(port, "GET", "/metrics")[2].decode()).get(key, 0) >= n:
            return
        time.sleep(0.05)
    pytest.fail(f"the request was not in flight after {timeout} s")


@pytest.mark.parametrize("front", FRONTS)
def test_sigterm_lets_the_request_in_flight_finish(front):
    """A Monte Carlo request (about a second) running when SIGTERM arrives still gets its
    answer; then every process ends and the port is free."""
    srv = Server(1, "--compute-workers", "1", "--deadline", "30", front=front)
    answers: list = []
    try:
        srv.wait_ready()
        def ask() -> None:
            answer = _post_json(srv.port, "/v1/capsa/arrange", SLOW_ARRANGE)
            answers.append((*answer, time.monotonic()))

        t = threading.Thread(target=ask, daemon=True)
        t.start()
        _wait_in_flight(srv.port, 2)  # the slow request and this scrape: it is being served
        signalled = time.monotonic()
        srv.proc.send_signal(signal.SIGTERM)
        t.join(60)
    finally:
        code = srv.stop()
    assert code == 0
    assert answers, "no answer"
    status, _, body, answered = answers[0]
    assert status == 200, body
    assert body["arrangements"] and body["method"] == "montecarlo"
    assert answered > signalled, "the request finished before the signal: nothing was tested"
    with socket.socket() as s:  # nothing listens any more
        assert s.connect_ex(("127.0.0.1", srv.port)) != 0
