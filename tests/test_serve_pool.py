"""The pieces of the bounded-cost stack in process: compute pool, work limits, proxy config."""

from __future__ import annotations

import io
import logging
import os
import pickle
import signal
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.proxy import (
    ProxyLimits,
    ProxyUnavailable,
    check_config,
    find_nginx,
    nginx_config,
    write_config,
)
from api.routes.capsa import MAX_WORK
from api.server import gunicorn_options
from solver import arrange, arrange_many
from solver.errors import CardError, InputError, WorkLimitError
from solver.executors import pool as compute
from solver.games.capsa.work import OPPONENT_SET_COST, check_work, montecarlo_work

HAND = "As Kd Qh Jc Ts 9s 8d 7h 6c 5s 4d 3h 2c"
WORST_RULES = {"preset": "standard", "single_royalty": True, "royalty_mode": "winner"}


@pytest.fixture(scope="module")
def pool(tmp_path_factory, app):
    # ``app`` first: the pool's processes are forks of this warm process, routes imported.
    path = str(tmp_path_factory.mktemp("pool") / "compute.sock")
    pid = compute.start_pool(path, 2, niceness=0)
    yield path
    compute.stop_pool(pid)
    assert not Path(path).exists()


def test_a_stop_signal_landing_inside_logging_still_stops_the_supervisor():
    # A supervisor logs when a process ends; a stop signal landing in the log handler must
    # not be swallowed by its ``except Exception`` (the supervisor would keep waiting until it
    # was killed, its socket left behind).
    class SignalOnWrite(io.StringIO):
        def write(self, text: str) -> int:
            os.kill(os.getpid(), signal.SIGUSR1)
            return super().write(text)

    logger = logging.getLogger("tests.stop-signal")
    handler = logging.StreamHandler(SignalOnWrite())
    logger.addHandler(handler)
    logger.propagate = False
    old = signal.signal(signal.SIGUSR1, compute.raise_stop)
    try:
        with pytest.raises(compute.StopSignal):
            logger.warning("compute process 1 ended (status 0); replacing it")
    finally:
        signal.signal(signal.SIGUSR1, old)
        logger.removeHandler(handler)


def test_pool_runs_a_job_and_returns_its_value(pool):
    assert compute.call(pool, time.time() + 5, "math", "sqrt", 6.25) == 2.5


def test_pool_stops_a_job_at_its_deadline_then_serves_again(pool):
    t0 = time.perf_counter()
    with pytest.raises(compute.DeadlineExceeded):
        compute.call(pool, time.time() + 0.2, "time", "sleep", 30)
    assert time.perf_counter() - t0 < 0.2 + compute.GRACE_S + 0.5
    # Both processes answer again (the stopped one was replaced).
    for _ in range(4):
        assert compute.call(pool, time.time() + 5, "operator", "add", 2, 3) == 5


def test_pool_gives_work_to_a_free_process(pool):
    """A long job in one process does not queue a short one behind it."""
    slow = threading.Thread(target=compute.call, args=(pool, time.time() + 5, "time", "sleep", 1.5))
    slow.start()
    time.sleep(0.1)
    t0 = time.perf_counter()
    assert compute.call(pool, time.time() + 5, "operator", "mul", 6, 7) == 42
    assert time.perf_counter() - t0 < 1.0
    slow.join()


def test_pool_returns_input_errors_with_every_problem(pool):
    with pytest.raises(CardError) as info:
        compute.call(pool, time.time() + 5, "solver.games.capsa.arrange", "arrange", "As As Zz")
    assert len(info.value.problems) >= 1 and "As" in str(info.value)


def test_no_pool_is_a_clear_error(tmp_path):
    with pytest.raises(compute.ComputeUnavailable, match="no compute pool"):
        compute.call(str(tmp_path / "missing.sock"), time.time() + 1, "math", "sqrt", 4)


def test_app_sends_costly_requests_to_the_pool_with_the_same_answers(pool, client):
    """Through the pool or in place, the answer is the same (the seed fixes it); past the
    deadline the pool's answer is a 503 naming it."""
    from api import create_app

    pooled = create_app({"TESTING": True, "WARMUP": False, "COMPUTE_SOCKET": pool,
                         "REQUEST_DEADLINE_S": 5}).test_client()
    req = {"hand": HAND, "method": "montecarlo", "samples": 40, "seed": 3, "top": 3}
    a, b = pooled.post("/v1/capsa/arrange", json=req), client.post("/v1/capsa/arrange", json=req)
    assert a.status_code == b.status_code == 200
    drop = ("elapsed_ms",)
    assert ({k: v for k, v in a.get_json().items() if k not in drop}
            == {k: v for k, v in b.get_json().items() if k not in drop})
    batch = {"hands": [HAND, "2s 2d 3h 3s 4c 4d 5h 6s 7h 8c 9c Tc Jc"], "method": "montecarlo",
             "samples": 5, "seed": 1}
    a, b = pooled.post("/v1/capsa/arrange/batch", json=batch), client.post(
        "/v1/capsa/arrange/batch", json=batch)
    assert a.get_json()["results"] == b.get_json()["results"]
    bad = pooled.post("/v1/capsa/arrange", json={**req, "hand": "As As"})
    assert bad.status_code == 400 and bad.get_json()["error"]["code"] == "invalid_cards"

    hurried = create_app({"TESTING": True, "WARMUP": False, "COMPUTE_SOCKET": pool,
                          "REQUEST_DEADLINE_S": 0.2}).test_client()
    resp = hurried.post("/v1/capsa/arrange", json={
        "hand": HAND, "rules": WORST_RULES, "method": "montecarlo", "samples": 2000,
        "adaptive": False})
    assert resp.status_code == 503
    assert resp.get_json()["error"]["code"] == "deadline_exceeded"
    assert "0.2 s deadline" in resp.get_json()["error"]["message"]


def test_a_worker_refuses_costly_requests_beyond_its_queue_at_once(pool):
    from api import create_app

    app = create_app({"TESTING": True, "WARMUP": False, "COMPUTE_SOCKET": pool,
                      "REQUEST_DEADLINE_S": 3, "COMPUTE_QUEUE": 1})
    slow = {"hand": HAND, "rules": WORST_RULES, "method": "montecarlo", "samples": 2000,
            "adaptive": False}
    first: list = []
    t = threading.Thread(target=lambda: first.append(
        app.test_client().post("/v1/capsa/arrange", json=slow).status_code))
    t.start()
    time.sleep(0.3)  # the first request holds the worker's one slot
    t0 = time.perf_counter()
    resp = app.test_client().post("/v1/capsa/arrange", json={**slow, "samples": 10})
    assert resp.status_code == 503 and resp.get_json()["error"]["code"] == "compute_busy"
    assert resp.headers["Retry-After"] == "1" and "retry in 1 s" in resp.get_json()["error"]["message"]
    assert time.perf_counter() - t0 < 1.0
    t.join()
    assert first and first[0] in (200, 503)
    # The slot is free again: a cheap pooled request goes through.
    ok = app.test_client().post("/v1/capsa/arrange", json={**slow, "rules": "standard",
                                                            "samples": 10, "seed": 1})
    assert ok.status_code == 200


@pytest.mark.parametrize("cls", [InputError, CardError, WorkLimitError])
def test_input_errors_keep_their_problems_through_pickle(cls):
    err = pickle.loads(pickle.dumps(cls(["first problem", "second problem"])))
    assert type(err) is cls and err.problems == ["first problem", "second problem"]


# ---------------------------------------------------------------- work limits
@given(st.integers(1, 5000), st.integers(1, 3), st.integers(1, 27_400),
       st.integers(10_000, 10**9))
def test_work_limit_rejects_exactly_the_requests_over_it(samples, opponents, candidates, limit):
    work = montecarlo_work(samples, opponents, candidates)
    assert work == samples * opponents * (candidates + OPPONENT_SET_COST)
    if work <= limit:
        check_work(samples, opponents, candidates, limit)
        return
    with pytest.raises(WorkLimitError) as info:
        check_work(samples, opponents, candidates, limit)
    fits = int(info.value.problems[0].rsplit("at most ", 1)[1].split()[0].replace(",", ""))
    assert montecarlo_work(fits, opponents, candidates) <= limit
    assert montecarlo_work(fits + 1, opponents, candidates) > limit


def test_arrange_checks_work_before_sampling():
    with pytest.raises(WorkLimitError, match="17,541 candidate splits"):
        arrange(HAND, WORST_RULES, 3, "montecarlo", samples=5000, seed=1, max_work=MAX_WORK)
    res = arrange(HAND, WORST_RULES, 1, "montecarlo", samples=2, seed=1, max_work=MAX_WORK)
    assert montecarlo_work(2, 1, res.candidates) <= MAX_WORK
    # The Python API has no limit unless asked, and the limit does not change answers.
    free = arrange(HAND, "standard", 3, "montecarlo", samples=30, seed=5)
    bounded = arrange(HAND, "standard", 3, "montecarlo", samples=30, seed=5, max_work=MAX_WORK)
    assert free.to_dict() == bounded.to_dict()


def test_batch_work_is_the_sum_over_hands():
    hands = [HAND, "2s 2d 3h 3s 4c 4d 5h 6s 7h 8c 9c Tc Jc"]
    per_hand = [arrange(h, WORST_RULES, 2, "montecarlo", samples=1, seed=1).candidates
                for h in hands]
    total = sum(montecarlo_work(4, 2, c) for c in per_hand)
    assert len(arrange_many(hands, WORST_RULES, 2, "montecarlo", 4, processes=1,
                            max_work=total)) == 2
    with pytest.raises(WorkLimitError, match=f"needs {total:,} work units"):
        arrange_many(hands, WORST_RULES, 2, "montecarlo", 4, processes=1, max_work=total - 1)


def test_http_rejects_too_much_work_with_the_numbers(client):
    resp = client.post("/v1/capsa/arrange", json={"hand": HAND, "rules": WORST_RULES,
                                                  "method": "montecarlo", "samples": 5000})
    assert resp.status_code == 422
    err = resp.get_json()["error"]
    assert err["code"] == "too_much_work"
    assert "5,000 samples" in err["message"] and f"limit of {MAX_WORK:,}" in err["message"]
    resp = client.post("/v1/capsa/arrange/batch", json={
        "hands": [HAND] * 1000, "rules": WORST_RULES, "method": "montecarlo", "samples": 20})
    assert resp.status_code == 422 and resp.get_json()["error"]["code"] == "too_much_work"


# ---------------------------------------------------------------- serving settings
def test_gunicorn_behind_proxy_accepts_only_with_a_free_thread():
    opts = gunicorn_options(workers=2, threads=8, unix_socket="/x/app.sock")
    assert opts["bind"] == "unix:/x/app.sock"
    assert opts["worker_connections"] == opts["threads"] == 8


def test_nginx_config_has_every_deadline_and_cap(tmp_path):
    limits = ProxyLimits(header_timeout=3, body_timeout=4, keepalive_timeout=6,
                         max_connections=1024, max_body_bytes=12345)
    conf = nginx_config(tmp_path, "::1", 8123, str(tmp_path / "app.sock"), limits)
    for line in ("listen [::1]:8123", "client_header_timeout 3s;", "client_body_timeout 4s;",
                 "keepalive_timeout 6s;", "worker_connections 1024;",
                 "client_max_body_size 12345;", "daemon off;", "proxy_request_buffering on;"):
        assert line in conf, line
    path = write_config(tmp_path, "127.0.0.1", 8123, str(tmp_path / "app.sock"), limits)
    try:
        nginx = find_nginx()
    except ProxyUnavailable as exc:
        if os.environ.get("CI"):
            raise  # CI installs nginx: this check must not be skipped there
        pytest.skip(f"{exc} (.ci/run installs it)")
    check_config(nginx, tmp_path, path)  # nginx -t accepts it


def test_costly_routes_send_the_pool_solver_functions_with_plain_arguments(monkeypatch, make_app):
    """What a route sends the pool is a solver function by its module and name, and
    arguments that pickle with no route, model or Flask object in them; a route's own view
    is refused."""
    import importlib

    from api import offload

    sent: list[tuple[str, str]] = []

    def in_place(path, deadline, module, name, *args, **kwargs):
        sent.append((module, name))
        blob = pickle.dumps((args, kwargs))
        assert b"api." not in blob and b"flask" not in blob and b"pydantic" not in blob
        fn = importlib.import_module(module)
        for part in name.split("."):
            fn = getattr(fn, part)
        return fn(*pickle.loads(blob)[0], **pickle.loads(blob)[1])

    monkeypatch.setattr(offload, "call", in_place)
    client = make_app(COMPUTE_SOCKET="unused").test_client()
    req = {"hand": HAND, "method": "montecarlo", "samples": 20, "seed": 3, "top": 2}
    assert client.post("/v1/capsa/arrange", json=req).status_code == 200
    assert client.post("/v1/capsa/arrange/batch", json={"hands": [HAND]}).status_code == 200
    assert client.post("/v1/big-two/moves", json={"hand": "3d 3s 4c", "current": "3c"}
                       ).status_code == 200
    assert client.post("/v1/capsa/arrange", json={**req, "method": "table"}).status_code == 200
    assert sent == [("solver.executors.pool", "timed")] * 2 + [
        ("solver.games.big_two.game", "moves")]
    from api.routes.capsa import arrange_hand
    with make_app().test_request_context(), pytest.raises(TypeError, match="solver functions"):
        offload.run(arrange_hand, None)
