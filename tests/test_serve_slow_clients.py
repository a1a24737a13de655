"""The served stack under attack: slow and idle connections, and the costliest legal requests.

Against the real ``capsa serve`` on loopback, 200 connections send their headers a line at a
time, 200 send a body a byte at a time, 200 connect and send nothing (each reopened as soon
as the server drops it), and 8 clients keep the costliest legal Monte Carlo request in flight.
Meanwhile ``/healthz`` and a table ``arrange`` must all answer, with p99 under 100 ms (on a
machine loaded so much that the idle stack's own p99 nears that: under 3x the idle p99 measured
first). Before nginx and the compute pool, 8 slow connections alone left ``/healthz``
unanswered. Every test of the served stack runs with each front: nginx and the embedded
waitress. ``benchmarks/bench_load.py --slow`` reports the same figures for the stacks.
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import socket
import threading
import time

import pytest
from test_serve import FRONTS, HAND, Server

from api.proxy import ProxyLimits
from api.routes.capsa import MAX_WORK
from solver import arrange
from solver.games.capsa.work import OPPONENT_SET_COST

P99_TARGET_MS = 100.0
IDLE_FACTOR = 3.0
# The idle baseline only raises the bound on a machine so loaded that the idle p99 nears 100 ms;
# 2 s gives it 60 to 130 probes of each kind, whose p99 is then one of the two or three
# slowest, a bound no looser than with more probes.
BASELINE_SECONDS = 2.0
# The fronts drop a connection that has not sent its whole head within ``header_timeout``
# (5 s; no option changes it), and the slow clients see the drop within their 0.5 s interval
# and reopen at once: a window that starts as the attack does and lasts 1 s longer than the
# timeout probes while the 400 slow-header and idle connections are dropped and reopened.
HEADER_TIMEOUT_S = ProxyLimits().header_timeout
PROBE_SECONDS = HEADER_TIMEOUT_S + 1.0
SLOW_INTERVAL_S = 0.5
WINDOWS = 3
# The served stack's request deadline (``--deadline``, 5 s by default): the heavy clients
# keep the pool just as full (each sends its next request as soon as one is answered or
# stopped), and once probing ends the test waits for at most 2 s of their last requests.
DEADLINE_S = 2.0
WORST_RULES = {"preset": "standard", "single_royalty": True, "royalty_mode": "winner"}


class SlowClients:
    """Slow-header, slow-body and idle connections kept open by a separate process (so its
    work never delays the probes' own timing)."""

    def __init__(self, port: int, headers: int, bodies: int, idle: int,
                 interval: float = SLOW_INTERVAL_S):
        self.port, self.interval = port, interval
        self.kinds = ["header"] * headers + ["body"] * bodies + ["idle"] * idle
        self.socks: list[socket.socket | None] = [None] * len(self.kinds)
        self.reopened = 0
        self.open_counts: list[int] = []
        ctx = multiprocessing.get_context("fork")
        self._stop = ctx.Event()
        self._ready = ctx.Event()
        self._parent, self._child = ctx.Pipe()
        self._proc = ctx.Process(target=self._main, daemon=True)

    def _open(self, i: int) -> None:
        s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        kind = self.kinds[i]
        if kind == "header":
            s.sendall(b"POST /v1/capsa/arrange HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        elif kind == "body":
            s.sendall(b"POST /v1/capsa/arrange HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
        s.setblocking(False)
        self.socks[i] = s

    @staticmethod
    def _alive(s: socket.socket) -> bool:
        try:
            return s.recv(4096, socket.MSG_PEEK) != b""  # data: an answer, still open
        except BlockingIOError:
            return True
        except OSError:
            return False

    def _tick(self) -> None:
        for i, s in enumerate(self.socks):
            ok = s is not None and self._alive(s)
            if ok and self.kinds[i] != "idle":
                try:
                    s.send(b"X-Slow: 1\r\n" if self.kinds[i] == "header" else b" ")
                except OSError:
                    ok = False
            if not ok:
                if s is not None:
                    s.close()
                    self.reopened += 1
                try:
                    self._open(i)
                except OSError:
                    self.socks[i] = None
        self.open_counts.append(sum(s is not None for s in self.socks))

    def _main(self) -> None:
        for i in range(len(self.kinds)):
            self._open(i)
        self._ready.set()
        while not self._stop.wait(self.interval):
            self._tick()
        self._child.send((self.reopened, self.open_counts))
        for s in self.socks:
            if s is not None:
                s.close()

    def __enter__(self) -> SlowClients:
        self._proc.start()
        if not self._ready.wait(30):
            raise RuntimeError("the slow connections were not opened within 30 s")
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._parent.poll(30):
            self.reopened, self.open_counts = self._parent.recv()
        self._proc.join(10)


def _post(port: int, path: str, body: dict, timeout: float = 30) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read())
    finally:
        conn.close()


def _timed_get(port: int, method: str, path: str, body: dict | None) -> tuple[float, int]:
    t0 = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        payload = json.dumps(body) if body is not None else None
        conn.request(method, path, body=payload,
                     headers={"Content-Type": "application/json"} if body else {})
        resp = conn.getresponse()
        resp.read()
        status = resp.status
    except OSError:
        status = 0
    finally:
        conn.close()
    return (time.perf_counter() - t0) * 1000, status


def worst_legal_request() -> dict:
    """The costliest Monte Carlo request the work limit lets through: every split a candidate,
    and as many samples as fit."""
    cands = arrange(HAND, WORST_RULES, 3, "montecarlo", samples=1, seed=1, top=1).candidates
    samples = min(5000, MAX_WORK // (3 * (cands + OPPONENT_SET_COST)))
    return {"hand": HAND, "rules": WORST_RULES, "method": "montecarlo", "samples": samples,
            "opponents": 3, "seed": 7, "top": 1, "adaptive": False}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


@pytest.fixture(scope="module", params=FRONTS)
def server(request):
    srv = Server(2, "--deadline", f"{DEADLINE_S:g}", front=request.param)
    try:
        srv.wait_ready()
        yield srv
    finally:
        assert srv.stop() == 0


PROBES = {
    "healthz": ("GET", "/healthz", None),
    "arrange": ("POST", "/v1/capsa/arrange", {"hand": HAND, "method": "table"}),
}


def probe(port: int, seconds: float) -> tuple[dict[str, list[float]], list[tuple[str, int]]]:
    """Probe /healthz and a table arrange alternately, each on a fresh connection."""
    probes: dict[str, list[float]] = {kind: [] for kind in PROBES}
    failures = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for kind, (method, path, body) in PROBES.items():
            ms, status = _timed_get(port, method, path, body)
            probes[kind].append(ms)
            if status != 200:
                failures.append((kind, status))
        time.sleep(0.02)
    return probes, failures


def test_slow_and_idle_clients_and_costly_requests_do_not_starve_cheap_ones(server):
    """Every probe answers; p99 under attack stays under 100 ms, or (on a machine so loaded
    that the idle stack's own p99 is near that) under 3x the idle p99 measured just before.
    A window spoilt by a machine-wide stall is measured again, at most 3 in all."""
    idle, failures = probe(server.port, BASELINE_SECONDS)
    assert not failures, failures[:5]
    worst = worst_legal_request()
    heavy_status: list[int] = []
    stop, pool_full = threading.Event(), threading.Event()

    def heavy() -> None:
        while not stop.is_set():
            status, body = _post(server.port, "/v1/capsa/arrange", worst)
            code = body["error"]["code"] if status != 200 else "ok"
            assert code in ("ok", "deadline_exceeded", "compute_busy"), body
            heavy_status.append(status)
            if code == "compute_busy":
                pool_full.set()  # the pool and its queue hold as many as they take
                time.sleep(0.2)  # refused at once: come back, as a client would

    with SlowClients(server.port, 200, 200, 200) as slow:
        heavies = [threading.Thread(target=heavy, daemon=True) for _ in range(8)]
        for t in heavies:
            t.start()
        # The slow connections are open (``SlowClients`` waits for that); probing starts once
        # the pool is full: a costly request has been refused as busy.
        assert pool_full.wait(30), "the costly requests never filled the pool"
        bounds = {kind: max(P99_TARGET_MS, IDLE_FACTOR * percentile(ms, 99))
                  for kind, ms in idle.items()}
        windows = []
        for _ in range(WINDOWS):  # a later window only if a machine-wide stall spoilt one
            probes, failures = probe(server.port, PROBE_SECONDS)
            assert not failures, failures[:5]
            windows.append({kind: (percentile(ms, 99), len(ms)) for kind, ms in probes.items()})
            if all(windows[-1][kind][0] < bounds[kind] for kind in bounds):
                break
        stop.set()
        for t in heavies:
            t.join(30)
    held = min(slow.open_counts) if slow.open_counts else 0

    assert held >= 550, f"only {held} of 600 slow connections were held open"
    assert slow.reopened >= 200, "the server never dropped the slow-header or idle connections"
    assert heavy_status, "no costly request completed or was stopped"
    last = windows[-1]
    assert all(n >= 50 for _, n in last.values()), last
    assert all(last[kind][0] < bounds[kind] for kind in bounds), (
        f"p99 (ms, probes) under attack per window: {windows}; bounds {bounds}")


def big_two_advice_request() -> dict:
    """Advice at the largest iteration count (seconds of rollouts): costly whatever the
    machine, unlike a move listing, which a fast machine answers within the deadline."""
    from solver.games import get_game

    state = get_game("big-two").new_game(seed=1)
    return {"observation": state.observation(state.current_player), "iterations": 5000,
            "seed": 1}




@pytest.mark.parametrize("path, body", [
    ("/v1/capsa/arrange", None),  # the worst legal Monte Carlo request
    ("/v1/capsa/arrange/batch", {"hands": [HAND] * 400, "rules": WORST_RULES,
                                 "method": "montecarlo", "samples": 3, "seed": 1}),
    ("/v1/big-two/advise", "advice"),
], ids=["montecarlo", "batch", "advice"])
def test_costly_request_is_stopped_at_its_deadline_and_the_pool_recovers(path, body):
    srv = Server(1, "--compute-workers", "1", "--deadline", "0.1")
    try:
        srv.wait_ready()
        t0 = time.perf_counter()
        if body is None:
            body = worst_legal_request()
        elif body == "advice":
            body = big_two_advice_request()
        status, answer = _post(srv.port, path, body)
        elapsed = time.perf_counter() - t0
        assert status == 503 and answer["error"]["code"] == "deadline_exceeded", answer
        assert "0.1 s deadline" in answer["error"]["message"]
        assert elapsed < 1.5, f"answered after {elapsed:.1f} s"
        # The stopped process is replaced: a tiny pooled request is served (a few tries: a
        # fresh fork on a loaded machine may need more than 0.1 s for its first job).
        answers = [_post(srv.port, "/v1/da-san/moves", {"hand": "4c 4d 5h"}) for _ in range(5)]
        assert any(status == 200 and answer["can_pass"] is False for status, answer in answers)
        assert all(status == 200 or answer["error"]["code"] == "deadline_exceeded"
                   for status, answer in answers), answers
    finally:
        assert srv.stop() == 0


def _read_answer(s: socket.socket) -> bytes:
    """One whole answer (headers and the Content-Length body) from a raw socket."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), 0)
    while len(body) < length:
        chunk = s.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def test_proxy_bounds_bodies_and_answers_json(server):
    """Chunked bodies over the limit are 413 like sized ones; a bad chunk size is a 400."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /v1/capsa/arrange HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                  b"\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"x" * 65536
        try:
            for _ in range(20):
                s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        except OSError:
            pass
        answer = _read_answer(s)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"content-type: application/json" in head.lower()
    assert json.loads(body)["error"] == {"code": "body_too_large",
                                         "message": "request body over 1000000 bytes"}
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /v1/capsa/arrange HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                  b"\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
        answer = _read_answer(s)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), answer[:200]
    error = json.loads(body)["error"]
    assert error["code"] == "bad_request" and error["message"].startswith("malformed HTTP request")


def test_proxy_refuses_trace_with_allow_and_json(server):
    """TRACE (nginx answers it itself, the embedded front passes it to the app): a JSON 405
    whose Allow names the path's methods."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    for path, allow in (("/v1/capsa/arrange", "OPTIONS, POST"), ("/healthz", "GET, HEAD, OPTIONS")):
        conn.request("TRACE", path)
        resp = conn.getresponse()
        body = json.loads(resp.read())
        assert resp.status == 405
        assert sorted(m.strip() for m in resp.getheader("Allow").split(",")) == allow.split(", ")
        assert body["error"]["code"] == "method_not_allowed" and "TRACE" in body["error"]["message"]
        conn.close()


def test_move_listings_are_served_through_the_pool(server):
    status, body = _post(server.port, "/v1/big-two/moves",
                         {"hand": "3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad 2d"})
    assert status == 200 and len(body["moves"]) > 1000
    status, body = _post(server.port, "/v1/da-san/moves", {"hand": "4c 4d 5h", "all_suits": True})
    assert status == 200 and body["can_pass"] is False
