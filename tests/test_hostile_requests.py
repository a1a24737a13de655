"""What an attacker or a careless client sends, on every POST route of the OpenAPI document:
never a 5xx, never an answer that is not strict JSON (UTF-8, no NaN or Infinity), and every
refusal in the service's error shape. In process through the Flask app, then the same raw
cases through both fronts of ``capsa serve``.

The cases are an outside probe's: lone surrogates (escaped, and as the raw bytes ``ED A0 80``
that Python's decoder takes), numbers beyond a double (``1e400``), integers of 40 digits,
values nested 200 deep, invalid UTF-8, arbitrary bytes, in every field and key of a valid
body (:mod:`hostile_support`).
"""

from __future__ import annotations

import http.client
import json
import math
import socket
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hostile_support import (
    RAW_SURROGATE,
    SURROGATE,
    base_bodies,
    dumps,
    mutations,
    strict_json,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from test_serve import FRONTS, Server

from api import create_app
from api.endpoint import MAX_JSON_DEPTH

APP = create_app({"TESTING": True, "WARMUP": False})
POST_ROUTES = sorted(p for p, ops in APP.test_client().get("/openapi.json").get_json()["paths"]
                     .items() if "post" in ops)
# an imported hand is a whole game document and an observation a whole seat's view: their
# fields a level or two down are enough (each variant starts a session or a search)
MAX_PATH = {"/v1/sessions/import": 3, "/v1/big-two/advise": 2, "/v1/da-san/advise": 2,
            "/v1/da-bai-fen/advise": 2}


@pytest.fixture(scope="module")
def client(app):  # the session app warms the kernels once; this module's app shares them
    return APP.test_client()


@pytest.fixture(scope="module")
def bodies(client) -> dict[str, dict[str, Any]]:
    def post(path: str, body: Any) -> tuple[int, Any]:
        r = client.post(path, data=dumps(body), content_type="application/json")
        return r.status_code, strict_json(r.data)

    return base_bodies(post)


def _answered_in_shape(status: int, data: bytes, case: str) -> Any:
    assert status < 500, f"{case}: {status} {data[:300]!r}"
    body = strict_json(data)  # raises on invalid UTF-8, NaN, Infinity
    if status >= 400:
        assert set(body) >= {"error"} and {"code", "message"} <= set(body["error"]), case
        message = body["error"]["message"]
        assert isinstance(message, str) and message, case
    return body


def test_every_post_route_has_a_valid_body(bodies, client):
    assert sorted(bodies) == POST_ROUTES
    for path, body in bodies.items():
        r = client.post(path, data=dumps(body), content_type="application/json")
        assert r.status_code == 200, (path, r.get_json())


@pytest.mark.parametrize("path", POST_ROUTES)
def test_hostile_values_in_every_field(path, bodies, client):
    limit = MAX_PATH.get(path)
    for case, body in mutations(bodies[path]):
        if limit and case.split("=")[0].count(".") >= limit:
            continue
        r = client.post(path, data=dumps(body), content_type="application/json")
        _answered_in_shape(r.status_code, r.data, f"{path} {case}")


@pytest.mark.parametrize("path", POST_ROUTES)
def test_text_that_is_not_text_is_a_400_bad_json(path, bodies, client):
    """A lone surrogate, escaped or as raw bytes, and invalid UTF-8: refused at decoding."""
    body = bodies[path]
    key = next(iter(body))
    for raw in (dumps({**body, key + SURROGATE: 1}),
                dumps(body).replace(b'"', b'"' + RAW_SURROGATE, 1),
                dumps(body).replace(b'"', b'"\xff', 1),
                b'{"x": "\\udc00\\ud800"}'):
        r = client.post(path, data=raw, content_type="application/json")
        err = _answered_in_shape(r.status_code, r.data, f"{path} {raw[:40]!r}")["error"]
        assert r.status_code == 400 and err["code"] == "bad_json", (path, err)


def test_an_escaped_surrogate_pair_is_text(client):
    """A pair (an emoji written as two escapes) is one character, not an error."""
    r = client.post("/v1/capsa/valid", content_type="application/json",
                    data=b'{"hand": "As Kd \\ud83c\\udca1"}')
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "invalid_cards"
    assert "\U0001F0A1" in r.get_json()["error"]["message"]


@pytest.mark.parametrize("path", POST_ROUTES)
def test_a_number_beyond_a_double_is_a_422_naming_the_field(path, bodies, client):
    body = bodies[path]
    key = next(iter(body))
    r = client.post(path, data=dumps({**body, key: {"deep": [0, math.inf]}}),
                    content_type="application/json")
    err = _answered_in_shape(r.status_code, r.data, path)["error"]
    assert r.status_code == 422 and err["code"] == "number_out_of_range", err
    assert err["message"].startswith(f"{key}.deep.1: number out of range")
    assert err["problems"][0]["loc"] == [key, "deep", 1]


def test_an_advise_observation_with_infinity_is_a_422(bodies, client):
    """The probe's case: ``1e400`` in an observation reached ``int(inf)`` (a 500)."""
    for path in ("/v1/big-two/advise", "/v1/da-san/advise", "/v1/da-bai-fen/advise"):
        body = bodies[path]
        obs = {**body["observation"], "player": math.inf}
        r = client.post(path, data=dumps({**body, "observation": obs}),
                        content_type="application/json")
        err = r.get_json()["error"]
        assert r.status_code == 422 and err["message"].startswith("observation.player:"), err


def test_a_review_id_is_answered_as_strict_json(client):
    """``id`` is any JSON value passed through: deep, huge or odd, the answer stays JSON."""
    hand = {"hand": "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h", "front": "As Ad Kh",
            "middle": "Kd Qc Js Ts 9h", "back": "7c 6d 5s 3c 2h"}
    deep: Any = "x"
    for _ in range(200):
        deep = [deep]
    for ident in (deep, 10**40, -1.5e300, "\u202e\U0001F0A1", None):
        r = client.post("/v1/capsa/review", data=dumps({"hands": [{**hand, "id": ident}]}),
                        content_type="application/json")
        body = _answered_in_shape(r.status_code, r.data, repr(ident)[:40])
        if r.status_code == 200:
            assert body["summary"]["hands"] + body["summary"]["errors"] == 1


def test_the_json_provider_refuses_nan_and_infinity():
    """No answer ever holds NaN or Infinity: writing one is a bug, never sent."""
    with APP.app_context():
        for value in (math.nan, math.inf, -math.inf):
            with pytest.raises(ValueError):
                APP.json.response({"value": value})
        # a string that is not text cannot be sent as UTF-8: written escaped, still JSON
        assert strict_json(APP.json.response({"s": SURROGATE}).get_data()) == {"s": SURROGATE}


# ------------------------------------------------------------------ generated documents
_hostile_text = st.one_of(
    st.text(max_size=20),
    st.sampled_from([SURROGATE, "\udfff", "a\ud83d", "\u0000", "\ufeff", "\u202e"]),
)
_hostile_number = st.one_of(
    st.integers(min_value=-(10**60), max_value=10**60),
    st.floats(allow_nan=False),  # infinities included: written 1e400
)
_leaf = st.one_of(st.none(), st.booleans(), _hostile_number, _hostile_text)
_doc = st.recursive(
    _leaf, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                  st.dictionaries(_hostile_text, kids, max_size=4)),
    max_leaves=30)


@settings(max_examples=150, deadline=None)
@given(path=st.sampled_from(POST_ROUTES), doc=st.dictionaries(_hostile_text, _doc, max_size=6),
       depth=st.integers(0, MAX_JSON_DEPTH + 5))
def test_generated_documents_on_every_route(path, doc, depth):
    wrapped: Any = doc
    for _ in range(depth):
        wrapped = {"k": wrapped}
    r = APP.test_client().post(path, data=dumps(wrapped), content_type="application/json")
    _answered_in_shape(r.status_code, r.data, f"{path} {dumps(wrapped)[:120]!r}")


@settings(max_examples=150, deadline=None)
@given(path=st.sampled_from(POST_ROUTES), raw=st.one_of(
    st.binary(max_size=300),
    st.binary(max_size=100).map(lambda b: b'{"x": "' + b + b'"}'),
    st.lists(st.sampled_from([b"{", b"[", b"]", b"}", b'"', b"\\u", b"d800", b"1e400", b",",
                              b":", RAW_SURROGATE, b"\xff", b"NaN", b"-", b"0"]),
             max_size=60).map(b"".join)))
def test_arbitrary_bytes_on_every_route(path, raw):
    r = APP.test_client().post(path, data=raw, content_type="application/json")
    _answered_in_shape(r.status_code, r.data, f"{path} {raw[:120]!r}")
    assert r.status_code < 500


# ------------------------------------------------------------------ through both fronts
RAW_CASES = (
    ("surrogate escape", lambda b: dumps({**b, "k" + SURROGATE: SURROGATE}), 400),
    ("raw surrogate bytes", lambda b: dumps(b).replace(b'"', b'"' + RAW_SURROGATE, 1), 400),
    ("invalid utf-8", lambda b: dumps(b).replace(b'"', b'"\xff\xfe', 1), 400),
    ("1e400", lambda b: dumps({**b, next(iter(b)): math.inf}), 422),
    ("deep", lambda b: b"[" * 5000 + b"]" * 5000, 400),
    ("NaN", lambda b: dumps(b)[:-1] + b', "n": NaN}', 400),
)


@pytest.fixture(scope="module", params=FRONTS)
def served(request):
    server = Server(1, "--compute-workers", "1", front=request.param)
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


def _raw_post(port: int, path: str, raw: bytes) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("POST", path, body=raw, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def test_served_hostile_requests(served):
    """The probe's raw cases on every POST route through the front, and each field of a
    valid body given each hostile value (top-level fields: the rest is the in-process test's)."""

    def post(path: str, body: Any) -> tuple[int, Any]:
        status, data = _raw_post(served.port, path, dumps(body))
        return status, strict_json(data)

    bodies = base_bodies(post)
    for path in POST_ROUTES:
        for name, make, want in RAW_CASES:
            status, data = _raw_post(served.port, path, make(bodies[path]))
            _answered_in_shape(status, data, f"{path} {name}")
            assert status == want, (path, name, status, data[:200])
        for case, body in mutations(bodies[path]):
            if "." in case.split("=")[0] or "keys" in case:
                continue
            status, data = _raw_post(served.port, path, dumps(body))
            _answered_in_shape(status, data, f"{path} {case}")
    status, data = _raw_post(served.port, "/v1/capsa/valid", json.dumps(
        {"hand": "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h"}).encode())
    assert status == 200 and strict_json(data) == {"valid_arrangements": 18835}


def test_review_text_lines_end_only_at_line_breaks(client):
    """A U+2028 or U+0085 inside an id does not end its line (as ``capsa review`` reads)."""
    hand = {"hand": "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h", "front": "As Ad Kh",
            "middle": "Kd Qc Js Ts 9h", "back": "7c 6d 5s 3c 2h"}
    text = "\n".join(json.dumps({**hand, "id": f"a\u2028b\u0085{i}"}, ensure_ascii=False)
                     for i in range(2)) + "\r\n[1"
    body = client.post("/v1/capsa/review", json={"text": text}).get_json()
    assert body["summary"]["hands"] == 2 and [e["line"] for e in body["errors"]] == [3]
    assert [h["id"] for h in body["hands"]] == ["a\u2028b\u00850", "a\u2028b\u00851"]


TRAVERSALS = (
    "/static/../pyproject.toml", "/static/%2e%2e/pyproject.toml", "/static/..%2fpyproject.toml",
    "/static/%2e%2e%2fapi%2fapp.py", "/static/..%5c..%5cpyproject.toml",
    "/static/%252e%252e/pyproject.toml", "/static/....//....//pyproject.toml",
    "/static/..;/pyproject.toml", "/static/%00../pyproject.toml", "/static/play.html%00.js",
    "/static//etc/passwd", "/static/%2fetc%2fpasswd", "/static/../../../../etc/passwd",
    "/..%2f..%2fetc%2fpasswd", "/static/\u2025/pyproject.toml".encode().decode("latin-1"),
    "/static/%c0%ae%c0%ae/pyproject.toml", "/static/.%2e/.%2e/etc/passwd",
)


def _raw_get(port: int, path: str) -> tuple[int, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(b"GET " + path.encode("latin-1") + b" HTTP/1.1\r\nHost: x\r\n"
                  b"Connection: close\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def test_served_paths_never_leave_the_static_folder(served):
    for path in TRAVERSALS:
        status, body = _raw_get(served.port, path)
        assert status < 500, (path, status)
        assert b"[build-system]" not in body and b"root:" not in body
        assert b"create_app" not in body, path


def test_served_burst_on_one_session_plays_each_move_once(served):
    """Eight clients resend one move at once: it is played once, and each gets its answer
    (a resend that lost the race to its original is answered as the original was)."""

    def post(path: str, body: Any) -> tuple[int, Any]:
        status, data = _raw_post(served.port, path, dumps(body))
        return status, strict_json(data)

    status, view = post("/v1/sessions", {"game": "big-two", "seed": 9, "bots": "random"})
    assert status == 200 and view["your_turn"]
    body = {"token": view["token"], "move": view["legal_moves"][-1], "version": view["version"]}
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: post("/v1/sessions/move", body), range(8)))
    assert all(status == 200 for status, _ in answers), answers
    played = [a for _, a in answers]
    assert all(a == played[0] for a in played)
    status, state = post("/v1/sessions/state", {"token": view["token"]})
    assert state["version"] == view["version"] + 1 and state == played[0]


_served_raw = st.one_of(
    st.binary(max_size=200),
    st.lists(st.sampled_from([b"{", b"[", b"]", b"}", b'"', b"\\u", b"d800", b"1e400", b",",
                              b":", RAW_SURROGATE, b"\xff", b"NaN", b"0", b'"k"']),
             max_size=40).map(b"".join),
    _doc.map(lambda d: dumps({"x": d})))


def test_served_arbitrary_bodies(served):
    """Generated bodies (raw bytes, JSON-ish fragments, hostile documents) on every POST route
    through the front: a 4xx in the error shape or a 200, never a 5xx or invalid JSON."""

    @settings(max_examples=60, deadline=None, database=None)
    @given(path=st.sampled_from(POST_ROUTES), raw=_served_raw)
    def probe(path: str, raw: bytes) -> None:
        status, data = _raw_post(served.port, path, raw)
        _answered_in_shape(status, data, f"{path} {raw[:120]!r}")

    probe()
