"""The two fronts (nginx and the embedded waitress) apply the same limits the same way, and
every answer carries the service's security headers, the fronts' own refusals included.

The served-stack cases share one stack per front (module scope); the headers are also checked
on the app alone, through Flask's test client.
"""

from __future__ import annotations

import base64
import hashlib
import http.client
import json
import re
import socket
from collections.abc import Iterable

import pytest
from test_serve import FRONTS, HAND

from api.endpoint import MAX_BODY_BYTES as MAX_BODY
from api.front import FrontConfig, create_front
from api.headers import DATA_CSP, FRONT_HEADERS, PAGE_CSP
from api.proxy import ProxyLimits, nginx_config

LIMITS = ProxyLimits()
VALID = "/v1/capsa/valid"
PAGES = ("/", "/static/play.html", "/static/review.html")
SECURITY = ("X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy",
            "Content-Security-Policy")



@pytest.fixture(scope="module", params=FRONTS)
def stack(request, served_stacks):
    return served_stacks.get(request.param)


def test_both_fronts_take_their_limits_from_one_place(tmp_path):
    """The app's body limit and ProxyLimits' head limits, in nginx's config and waitress's."""
    assert LIMITS.max_body_bytes == MAX_BODY
    conf = nginx_config(tmp_path, "127.0.0.1", 8000, str(tmp_path / "app.sock"))
    for line in (f"client_max_body_size {MAX_BODY};",
                 f"client_header_buffer_size {LIMITS.header_buffer};",
                 f"large_client_header_buffers {LIMITS.header_buffers} {LIMITS.max_header_line};",
                 "error_page 494 =431 /__capsa_error/494;",
                 "add_header X-Content-Type-Options $capsa_x_content_type_options always;"):
        assert line in conf, line
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    front = create_front(FrontConfig("127.0.0.1", 0, str(tmp_path / "app.sock"), threads=1),
                         sock)
    try:
        assert front.adj.max_request_body_size == MAX_BODY + 1  # waitress refuses at >=
        assert front.adj.max_request_header_size == LIMITS.max_head_bytes + 1
    finally:
        front.task_dispatcher.shutdown(timeout=1)
        front.close()


Answer = tuple[int, list[tuple[str, str]], bytes]


def exchange(port: int, head: bytes, parts: Iterable[bytes] = ()) -> Answer:
    """Send a raw request, read one answer: status, every header as sent (duplicates kept),
    and the body (Content-Length bytes)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        try:
            s.sendall(head)
            for part in parts:
                s.sendall(part)
        except OSError:
            pass  # refused before the whole request was sent: the answer is still there
        data = b""
        while b"\r\n\r\n" not in data and (chunk := s.recv(65536)):
            data += chunk
        raw_head, _, body = data.partition(b"\r\n\r\n")
        lines = raw_head.decode("latin-1").split("\r\n")
        headers = [(name.strip(), value.strip()) for name, _, value in
                   (line.partition(":") for line in lines[1:])]
        length = int(values(headers, "Content-Length")[0])
        while len(body) < length and (chunk := s.recv(65536)):
            body += chunk
    return int(lines[0].split()[1]), headers, body


def values(headers: list[tuple[str, str]], name: str) -> list[str]:
    return [v for k, v in headers if k.lower() == name.lower()]


def assert_security(headers: list[tuple[str, str]], csp: str | None = None) -> None:
    """Each security header once (the app's and a front's never both), with its value."""
    for name in SECURITY:
        assert len(values(headers, name)) == 1, (name, headers)
    for name in ("X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy"):
        assert values(headers, name) == [FRONT_HEADERS[name]]
    if csp is not None:
        assert values(headers, "Content-Security-Policy") == [csp]


def assert_refused(answer: Answer, status: int, code: str) -> None:
    """A front's own refusal: the status, the service's error shape, its security headers."""
    got, headers, body = answer
    assert got == status, (got, body[:300])
    assert values(headers, "Content-Type") == ["application/json"]
    error = json.loads(body)["error"]
    assert set(error) == {"code", "message"} and error["code"] == code
    assert_security(headers, DATA_CSP)


def padded(size: int) -> bytes:
    """A valid /v1/capsa/valid body of exactly ``size`` bytes (JSON ends with whitespace)."""
    body = json.dumps({"hand": HAND}).encode()
    return body + b" " * (size - len(body))


def post_head(length: int | None) -> bytes:
    framing = b"Transfer-Encoding: chunked" if length is None else b"Content-Length: %d" % length
    return (b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n%s\r\n"
            b"Connection: close\r\n\r\n" % (VALID.encode(), framing))


def chunked(body: bytes, size: int = 4096) -> list[bytes]:
    """``body`` in chunks of ``size`` bytes: the framing adds about 2 % to the bytes sent."""
    parts = [b"%x\r\n%s\r\n" % (len(body[i:i + size]), body[i:i + size])
             for i in range(0, len(body), size)]
    return [*parts, b"0\r\n\r\n"]


@pytest.mark.parametrize("size", [MAX_BODY - 1, MAX_BODY])
@pytest.mark.parametrize("framing", ["chunked", "sized"])
def test_a_body_up_to_the_limit_is_served_however_it_is_framed(stack, size, framing):
    """The limit is on the body's own bytes: a chunked body of 999,999 bytes is 1,000,000 and
    more on the wire, and both fronts pass it to the app."""
    body = padded(size)
    parts = chunked(body) if framing == "chunked" else [body]
    assert sum(map(len, parts)) > MAX_BODY or framing == "sized"
    status, headers, answer = exchange(stack.port, post_head(None if framing == "chunked"
                                                             else size), parts)
    assert status == 200, answer[:300]
    assert json.loads(answer)["valid_arrangements"] > 0
    assert_security(headers, DATA_CSP)


def test_a_chunked_body_over_the_limit_is_413(stack):
    """The last byte over the limit is refused, as it arrives (nothing sent after it)."""
    body = padded(MAX_BODY + 1)
    parts = chunked(body[:MAX_BODY])[:-1] + [b"1\r\n" + body[MAX_BODY:] + b"\r\n0\r\n\r\n"]
    assert_refused(exchange(stack.port, post_head(None), parts), 413, "body_too_large")


def test_a_sized_body_over_the_limit_is_413_on_its_length(stack):
    """Refused on Content-Length alone, before the body is sent."""
    assert_refused(exchange(stack.port, post_head(MAX_BODY + 1)), 413, "body_too_large")


def get_head(path: bytes = b"/healthz", extra: bytes = b"") -> bytes:
    return b"GET %s HTTP/1.1\r\nHost: x\r\n%sConnection: close\r\n\r\n" % (path, extra)


def header_line(size: int, name: bytes = b"X-Pad") -> bytes:
    """One header line of ``size`` bytes, its CRLF included."""
    return name + b": " + b"a" * (size - len(name) - 4) + b"\r\n"


def many_lines(count: int, size: int) -> bytes:
    return b"".join(header_line(size, b"X-Pad-%d" % i) for i in range(count))


@pytest.mark.parametrize("extra, status", [
    (header_line(LIMITS.max_header_line), 200),
    (header_line(LIMITS.max_header_line + 1), 431),
    (header_line(10 * 1024), 431),
    (many_lines(20, 1000), 200),  # 20 KB: 20 lines fill 3 of nginx's 4 buffers
    (many_lines(5, 4200), 431),   # 21 KB: no two lines share a buffer, 5 > 4
    (many_lines(40, 1000), 431),  # 40 KB: more than the 4 buffers hold
], ids=["line-at-limit", "line-over-limit", "10KB-line", "20KB-packed", "21KB-unpacked",
        "40KB"])
def test_headers_are_bounded_the_same_way(stack, extra, status):
    """A header line over the limit, or lines more than nginx's buffers hold (as nginx packs
    them, so the embedded front gives the same answer for every head): 431 in JSON."""
    answer = exchange(stack.port, get_head(extra=extra))
    if status == 200:
        assert answer[0] == 200 and json.loads(answer[2]) == {"status": "ok"}
        assert_security(answer[1], DATA_CSP)
    else:
        assert_refused(answer, 431, "headers_too_large")


@pytest.mark.parametrize("length, status", [(LIMITS.max_request_line, 200),
                                            (LIMITS.max_request_line + 1, 414)])
def test_the_request_line_is_bounded_the_same_way(stack, length, status):
    """Over gunicorn's limit the front refuses it in JSON (gunicorn would in HTML)."""
    path = b"/healthz?q=" + b"a" * (length - len("GET /healthz?q= HTTP/1.1"))
    answer = exchange(stack.port, get_head(path))
    assert len(b"GET %s HTTP/1.1" % path) == length
    if status == 200:
        assert answer[0] == 200
        assert_security(answer[1], DATA_CSP)
    else:
        assert_refused(answer, 414, "uri_too_long")


def fetch(port: int, method: str, path: str, body: dict | None = None
          ) -> tuple[int, list[tuple[str, str]], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers={"Content-Type": "application/json"} if body is not None else {})
        resp = conn.getresponse()
        return resp.status, resp.getheaders(), resp.read()
    finally:
        conn.close()


def test_pages_and_answers_carry_the_security_headers_through_the_front(stack):
    for path in PAGES:
        status, headers, _ = fetch(stack.port, "GET", path)
        assert status == 200, path
        assert_security(headers, PAGE_CSP)
    status, headers, _ = fetch(stack.port, "GET", "/docs")
    assert status == 200
    assert_security(headers)
    assert "script-src 'sha256-" in values(headers, "Content-Security-Policy")[0]
    for method, path, body in (("GET", "/healthz", None), ("POST", VALID, {"hand": HAND}),
                               ("GET", "/static/app.js", None)):
        status, headers, _ = fetch(stack.port, method, path, body)
        assert status == 200, path
        assert_security(headers, DATA_CSP)
        assert not values(headers, "Cache-Control") or path.startswith("/static/")


def test_session_answers_are_not_stored_through_the_front(stack):
    status, headers, body = fetch(stack.port, "POST", "/v1/sessions",
                                  {"game": "capsa", "rules": {"players": 2}, "seed": 1})
    assert status == 200 and json.loads(body)["token"]
    assert values(headers, "Cache-Control") == ["no-store"]
    assert_security(headers, DATA_CSP)
    status, headers, _ = fetch(stack.port, "POST", "/v1/sessions/state", {"token": "x" * 22})
    assert status >= 400 and values(headers, "Cache-Control") == ["no-store"]


# The app alone (Flask's test client): every answer, pages, docs, JSON, errors.

def test_pages_have_the_page_policy(client):
    for path in PAGES:
        r = client.get(path)
        assert r.status_code == 200
        assert r.headers["Content-Security-Policy"] == PAGE_CSP
        assert "frame-ancestors 'none'" in PAGE_CSP and "'unsafe-inline'" not in PAGE_CSP
        for name in ("X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy"):
            assert r.headers.get_all(name) == [FRONT_HEADERS[name]]
        r.close()


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_docs_allows_its_own_inline_code_by_hash_and_nothing_else(client):
    r = client.get("/docs")
    page = r.get_data(as_text=True)
    csp = r.headers["Content-Security-Policy"]
    scripts = re.search(r"script-src ([^;]*);", csp)
    assert scripts and all(src.startswith("'sha256-") for src in scripts.group(1).split())
    assert "'unsafe-eval'" not in csp
    assert "frame-ancestors 'none'" in csp and "connect-src 'self'" in csp
    onload = re.search(r"<script>(\s*window\.onload.*?)</script>", page, re.S)
    assert onload and _sha256(onload.group(1)) in csp
    assert r.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("method, path, body, status", [
    ("GET", "/healthz", None, 200),
    ("GET", "/openapi.json", None, 200),
    ("POST", VALID, {"hand": HAND}, 200),
    ("POST", VALID, {"hand": "As As"}, 400),
    ("GET", "/nowhere", None, 404),
    ("GET", VALID, None, 405),
    ("GET", "/static/app.js", None, 200),
])
def test_every_other_answer_is_no_document(client, method, path, body, status):
    r = client.open(path, method=method, json=body)
    assert r.status_code == status
    assert r.headers["Content-Security-Policy"] == DATA_CSP
    for name, value in FRONT_HEADERS.items():
        assert r.headers.get_all(name) == [value]
    assert "no-store" not in r.headers.get("Cache-Control", "")
    r.close()


def test_every_session_answer_is_no_store(client):
    r = client.post("/v1/sessions", json={"game": "capsa", "rules": {"players": 2}, "seed": 3})
    token = r.get_json()["token"]
    assert r.headers.get_all("Cache-Control") == ["no-store"]
    for path, body in (("/v1/sessions/state", {"token": token}),
                       ("/v1/sessions/export", {"token": token, "n": 1}),
                       ("/v1/sessions/state", {"token": "x" * 22}),
                       ("/v1/sessions/state", {"nothing": 1})):
        r = client.post(path, json=body)
        assert r.headers.get_all("Cache-Control") == ["no-store"], (path, r.status_code)
    assert client.get("/v1/sessions/games").headers["Cache-Control"] == "no-store"
    assert client.get("/v1/sessionsX").headers.get("Cache-Control") != "no-store"
