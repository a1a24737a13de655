"""Strict HTTP and JSON: every way a body can be wrong is a 4xx JSON error, never a 500.

In-process through the WSGI test client, and once over real sockets against gunicorn on a
loopback port (its chunked-body reader is what raises on a bad chunk size).
"""

from __future__ import annotations

import io
import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from gunicorn.http.errors import InvalidChunkSize

from api.endpoint import MAX_BODY_BYTES, MAX_JSON_DEPTH, json_depth_exceeds

ROOT = Path(__file__).resolve().parent.parent
HAND = "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h"
VALID = json.dumps({"hand": HAND}).encode()


def nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def _post_stream(client, path: str, stream, **environ):
    """A POST whose body has no Content-Length: what a chunked request looks like to WSGI."""
    return client.post(path, input_stream=stream, content_type="application/json",
                       environ_overrides={"wsgi.input_terminated": True, **environ})


class _Unreadable(io.RawIOBase):
    """A body stream that fails as gunicorn's does on a malformed chunk size."""

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        return 0

    def readinto(self, buffer) -> int:
        raise InvalidChunkSize(b"zz")


@pytest.mark.parametrize("path", ["/v1/capsa/arrange", "/v1/big-two/moves", "/v1/da-san/moves",
                                  "/v1/da-bai-fen/trick"])
def test_deep_json_is_a_400_not_a_recursion_error(client, path):
    r = client.post(path, data=nested(1000), content_type="application/json")
    assert r.status_code == 400
    err = r.get_json()["error"]
    assert err["code"] == "malformed_json" and f"deeper than {MAX_JSON_DEPTH}" in err["message"]
    r = client.post(path, data=b'{"hand": ' + nested(5000) + b"}", content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "malformed_json"


def test_depth_at_the_limit_is_parsed(client):
    r = client.post("/v1/capsa/valid", data=nested(MAX_JSON_DEPTH), content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "invalid_request"
    assert "JSON object" in r.get_json()["error"]["message"]


def test_depth_scan_matches_the_parser_on_strings():
    """Brackets inside strings (escaped quotes too) are not nesting."""
    text = json.dumps({"a": ["[[[[" * 200, '"]]\\"[[' * 300]}).encode()
    assert not json_depth_exceeds(text)
    deep = json.dumps(json.loads(nested(MAX_JSON_DEPTH + 1))).encode()
    assert json_depth_exceeds(deep) and not json_depth_exceeds(nested(MAX_JSON_DEPTH))


def test_unreadable_chunked_body_is_a_400(client):
    r = _post_stream(client, "/v1/capsa/valid", _Unreadable())
    assert r.status_code == 400
    err = r.get_json()["error"]
    assert err["code"] == "malformed_body" and "InvalidChunkSize" in err["message"]


def test_chunked_body_over_the_limit_is_a_413_not_cut(client):
    # a valid first megabyte followed by junk: the old code cut it at the limit and parsed it
    body = VALID[:-1] + b' ' * (MAX_BODY_BYTES - len(VALID)) + b'}' + b"junk" * 1000
    r = _post_stream(client, "/v1/capsa/valid", io.BytesIO(body))
    assert r.status_code == 413 and r.get_json()["error"]["code"] == "body_too_large"
    r = client.post("/v1/capsa/valid", data=body, content_type="application/json")
    assert r.status_code == 413 and r.get_json()["error"]["code"] == "body_too_large"


def test_chunked_body_within_the_limit_is_read_whole(client):
    body = VALID[:-1] + b' ' * (MAX_BODY_BYTES - len(VALID)) + b'}'
    assert len(body) == MAX_BODY_BYTES
    r = _post_stream(client, "/v1/capsa/valid", io.BytesIO(body))
    assert r.status_code == 200 and r.get_json() == {"valid_arrangements": 18835}


@pytest.mark.parametrize("data, fragment", [
    (b"NaN", "NaN is not JSON"),
    (b'{"hand": Infinity}', "Infinity is not JSON"),
    (b"\xff\xfe{", "malformed JSON"),
    (b"", "malformed JSON"),
    (b"1" * 5000, "malformed JSON"),  # past Python's digit limit for int()
])
def test_bad_json_is_a_400(client, data, fragment):
    r = client.post("/v1/capsa/valid", data=data, content_type="application/json")
    assert r.status_code == 400 and fragment in r.get_json()["error"]["message"]


@pytest.mark.parametrize("method, path, allowed", [
    ("TRACE", "/v1/capsa/arrange", {"POST", "OPTIONS"}),
    ("GET", "/v1/big-two/moves", {"POST", "OPTIONS"}),
    ("DELETE", "/healthz", {"GET", "HEAD", "OPTIONS"}),
])
def test_405_names_the_allowed_methods(client, method, path, allowed):
    r = client.open(path, method=method)
    assert r.status_code == 405 and r.is_json
    assert {m.strip() for m in r.headers["Allow"].split(",")} == allowed
    err = r.get_json()["error"]
    assert err["code"] == "method_not_allowed" and method in err["message"]
    assert all(m in err["message"] for m in allowed)


def test_every_error_status_is_documented(client):
    doc = client.get("/openapi.json").get_json()
    for path, ops in doc["paths"].items():
        for op in ops.values():
            if "requestBody" in op:
                assert {"400", "413", "415", "422"} <= set(op["responses"]), path


# ------------------------------------------------------------------ over real sockets
def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _raw(port: int, data: bytes, timeout: float = 20) -> tuple[int, dict[str, str], bytes]:
    """Send bytes, read one HTTP/1.1 response (the server closes: ``Connection: close``)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            s.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered (413) before reading everything
        chunks = []
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    raw = b"".join(chunks)
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


def _chunked(path: str, chunks: list[bytes], sizes: list[bytes] | None = None) -> bytes:
    sizes = sizes or [f"{len(c):x}".encode() for c in chunks]
    body = b"".join(s + b"\r\n" + c + b"\r\n" for s, c in zip(sizes, chunks)) + b"0\r\n\r\n"
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n").encode() + body


@pytest.fixture(scope="module")
def gunicorn_port():
    port = _free_port()
    app = 'api:create_app({"TESTING": True, "WARMUP": False})'
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "1",
         "--worker-class", "gthread", "--threads", "2", "--log-level", "warning", app],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"gunicorn did not start: {proc.stderr.read().decode()}")
                time.sleep(0.1)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_served_chunked_body(gunicorn_port):
    status, _, body = _raw(gunicorn_port, _chunked("/v1/capsa/valid", [VALID[:20], VALID[20:]]))
    assert status == 200 and json.loads(body) == {"valid_arrangements": 18835}


def test_served_bad_chunk_size_is_a_400(gunicorn_port):
    status, _, body = _raw(gunicorn_port, _chunked("/v1/capsa/valid", [VALID], [b"zz"]))
    assert status == 400 and json.loads(body)["error"]["code"] == "malformed_body"


def test_served_chunked_body_over_the_limit_is_a_413(gunicorn_port):
    """A valid first megabyte followed by junk: not cut at the limit and parsed."""
    big = [VALID[:-1] + b" " * (MAX_BODY_BYTES - len(VALID)) + b"}", b"junk" * 100]
    status, _, body = _raw(gunicorn_port, _chunked("/v1/capsa/valid", big))
    assert status == 413 and json.loads(body)["error"]["code"] == "body_too_large"


def test_served_deep_json_is_a_400(gunicorn_port):
    deep = nested(1000)
    req = (f"POST /v1/big-two/moves HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
           f"\r\nContent-Length: {len(deep)}\r\nConnection: close\r\n\r\n").encode() + deep
    status, _, body = _raw(gunicorn_port, req)
    assert status == 400 and json.loads(body)["error"]["code"] == "malformed_json"


def test_served_405_has_allow(gunicorn_port):
    status, headers, _ = _raw(gunicorn_port, b"TRACE /v1/capsa/arrange HTTP/1.1\r\n"
                                             b"Host: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert status == 405 and set(headers["allow"].replace(" ", "").split(",")) == {"POST", "OPTIONS"}


# ------------------------------------------------------------------ one error body
def _error(r) -> dict:
    body = r.get_json()
    assert set(body) == {"error"}, body
    return body["error"]


def test_schema_errors_and_refusals_list_problems_the_same_way(client):
    """A 400 (the schema) and a 422 (the game) both list ``problems``: ``loc`` and ``message``."""
    err = _error(client.post("/v1/capsa/arrange", json={"hand": "As", "top": 0}))
    assert err["code"] == "invalid_request"
    assert {"loc": ["top"], "message": "Input should be greater than or equal to 1, got 0"} \
        in err["problems"]
    assert ["hand"] in [p["loc"] for p in err["problems"]]
    r = client.post("/v1/capsa/arrange/batch", json={"hands": [HAND, HAND.replace("2h", "As")]})
    assert r.status_code == 422
    err = _error(r)
    assert err["code"] == "invalid_cards"
    assert err["problems"] == [{"loc": [], "message": "hand 1: duplicate card 'As'"}]
    assert err["message"] == "hand 1: duplicate card 'As'"


def test_other_errors_have_code_and_message(client):
    for r, status in ((client.get("/v1/nope"), 404), (client.get("/v1/capsa/arrange"), 405),
                      (client.post("/v1/capsa/valid", data="x", content_type="text/plain"), 415)):
        assert r.status_code == status
        assert set(_error(r)) == {"code", "message"}


def test_the_error_body_is_documented(client):
    doc = client.get("/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    detail = schemas["ErrorDetail"]
    assert {"code", "message"} <= set(detail["required"]) and "problems" in detail["properties"]
    assert set(schemas["Problem"]["required"]) == {"loc", "message"}
    for ops in doc["paths"].values():
        for op in ops.values():
            for status, answer in op["responses"].items():
                if status.startswith(("4", "5")):
                    assert answer["content"]["application/json"]["schema"] == {
                        "$ref": "#/components/schemas/Error"}


def test_an_answer_that_breaks_its_model_is_a_json_500():
    """The response model is checked on every answer: a view that breaks it is a bug, logged and
    answered 500 in the one error body, never a body that contradicts the document."""
    from flask import Blueprint
    from pydantic import BaseModel

    from api import create_app
    from api.endpoint import json_endpoint

    class Count(BaseModel):
        n: int

    bp = Blueprint("broken_answer", __name__)

    @json_endpoint(bp, "/broken-answer", None, Count, method="GET")
    def broken() -> dict:
        return {"n": "many"}

    app = create_app({"TESTING": True, "WARMUP": False})
    app.register_blueprint(bp)
    r = app.test_client().get("/broken-answer")
    assert r.status_code == 500 and _error(r)["code"] == "internal_error"
