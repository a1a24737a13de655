"""Lighter pages: both fronts gzip text answers the same way (nginx's gzip module, the
embedded front's :func:`api.front.gzip_answer`), the docs page travels in under 700 KB, and
the fixed answers (pages, scripts, style sheets, the docs page, the OpenAPI document) carry
an ETag that a browser sends back for a 304."""

from __future__ import annotations

import gzip
import http.client
import json
from pathlib import Path

import pytest
from test_serve import FRONTS, HAND

from api.front import accepts_gzip, gzip_answer
from api.proxy import GZIP_LEVEL, GZIP_MIN_LENGTH, GZIP_TYPES, nginx_config

DOCS_BUDGET = 700_000  # bytes of /docs on the wire
TEXT = ("/docs", "/openapi.json", "/", "/static/review.html", "/static/review.js",
        "/static/review.css", "/static/play.js", "/static/style.css")


@pytest.fixture(scope="module", params=FRONTS)
def stack(request, served_stacks):
    return served_stacks.get(request.param)


def fetch(port: int, method: str, path: str, headers: dict[str, str] | None = None,
          body: dict | None = None) -> tuple[int, http.client.HTTPMessage, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers={**({"Content-Type": "application/json"} if body else {}),
                              **(headers or {})})
        resp = conn.getresponse()
        return resp.status, resp.headers, resp.read()
    finally:
        conn.close()


def vary(headers: http.client.HTTPMessage) -> set[str]:
    return {v.strip().lower() for line in headers.get_all("Vary") or [] for v in line.split(",")}


def test_text_answers_are_gzipped_to_a_client_that_takes_it(stack):
    for path in TEXT:
        status, plain_headers, plain = fetch(stack.port, "GET", path)
        assert status == 200 and plain_headers.get("Content-Encoding") is None, path
        status, headers, packed = fetch(stack.port, "GET", path, {"Accept-Encoding": "gzip"})
        assert status == 200 and headers.get("Content-Encoding") == "gzip", path
        assert "accept-encoding" in vary(headers) and "accept-encoding" in vary(plain_headers)
        assert gzip.decompress(packed) == plain, path
        assert len(packed) < len(plain) / 2, path
    # a JSON answer of the API
    body = {"hand": HAND, "top": 5}
    status, headers, packed = fetch(stack.port, "POST", "/v1/capsa/arrange",
                                    {"Accept-Encoding": "gzip, deflate, br"}, body)
    assert status == 200 and headers.get("Content-Encoding") == "gzip"
    assert json.loads(gzip.decompress(packed))["arrangements"]


def test_the_docs_page_travels_in_under_700_kb(stack):
    status, headers, packed = fetch(stack.port, "GET", "/docs", {"Accept-Encoding": "gzip"})
    assert status == 200 and headers.get("Content-Encoding") == "gzip"
    assert len(packed) < DOCS_BUDGET, len(packed)
    assert len(gzip.decompress(packed)) > 2 * DOCS_BUDGET  # the whole Swagger UI, inline


def test_small_answers_and_refusing_clients_get_plain_bytes(stack):
    status, headers, body = fetch(stack.port, "GET", "/healthz", {"Accept-Encoding": "gzip"})
    assert status == 200 and len(body) < GZIP_MIN_LENGTH
    assert headers.get("Content-Encoding") is None
    for refusal in ("gzip;q=0", "identity", "br"):
        status, headers, body = fetch(stack.port, "GET", "/static/review.js",
                                      {"Accept-Encoding": refusal})
        assert status == 200 and headers.get("Content-Encoding") is None, refusal
        assert body.startswith(b"/*")


@pytest.mark.parametrize("path", ["/docs", "/openapi.json", "/static/review.js", "/"])
def test_an_etag_sent_back_gets_a_304_through_the_front(stack, path):
    for encoding in ("gzip", "identity"):
        status, headers, _ = fetch(stack.port, "GET", path, {"Accept-Encoding": encoding})
        etag = headers.get("ETag")
        assert status == 200 and etag and headers.get("Cache-Control") == "no-cache", path
        assert etag.startswith("W/") == (encoding == "gzip")  # both fronts weaken it
        status, headers, body = fetch(stack.port, "GET", path,
                                      {"Accept-Encoding": encoding, "If-None-Match": etag})
        assert status == 304 and body == b"", (path, encoding)


# ---------------------------------------------------------------- one rule, two fronts

def test_nginx_takes_its_gzip_rules_from_the_one_place(tmp_path):
    conf = nginx_config(tmp_path, "127.0.0.1", 8000, str(tmp_path / "app.sock"))
    assert "gzip on;" in conf and f"gzip_min_length {GZIP_MIN_LENGTH};" in conf
    assert f"gzip_comp_level {GZIP_LEVEL};" in conf and "gzip_vary on;" in conf
    assert "gzip_proxied any;" in conf
    line = next(x for x in conf.splitlines() if x.strip().startswith("gzip_types "))
    assert set(line.strip().rstrip(";").split()[1:]) | {"text/html"} == set(GZIP_TYPES)


def test_the_embedded_front_compresses_what_nginx_does():
    page = Path("api/static/review.js").read_bytes()
    head = [("Content-Type", "text/javascript; charset=utf-8"), ("ETag", '"a"'),
            ("Content-Length", str(len(page)))]
    env = {"REQUEST_METHOD": "GET", "SERVER_PROTOCOL": "HTTP/1.1",
           "HTTP_ACCEPT_ENCODING": "gzip"}
    headers, body = gzip_answer(env, 200, head, page)
    named = dict(headers)
    assert gzip.decompress(body) == page and named["Content-Encoding"] == "gzip"
    assert named["ETag"] == 'W/"a"' and named["Content-Length"] == str(len(body))
    assert named["Vary"] == "Accept-Encoding"
    # not compressed: HTTP/1.0, HEAD, a 500, an image, a small body, an encoded body
    for change, status, extra, data in (
            ({"SERVER_PROTOCOL": "HTTP/1.0"}, 200, [], page),
            ({"REQUEST_METHOD": "HEAD"}, 200, [], page),
            ({}, 500, [], page),
            ({}, 200, [("Content-Type", "image/png")], page),
            ({}, 200, [], page[:GZIP_MIN_LENGTH - 1]),
            ({}, 200, [("Content-Encoding", "br")], page)):
        given = [h for h in head if h[0] not in {k for k, _ in extra}] + extra
        _, out = gzip_answer({**env, **change}, status, given, data)
        assert out == data, (change, status, extra)
    assert [accepts_gzip(v) for v in ("gzip", "GZIP;q=0.5", "deflate, gzip;q=0.0", "x-gzip2",
                                      "")] == [True, True, False, False, False]
