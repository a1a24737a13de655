"""Every POST route's body example in the OpenAPI document is a request the service answers
with 2xx: "Try it out" on /docs starts from a request that works (a session's routes once
the token of the session example's answer is pasted in)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from api.examples import TOKEN, request_examples

SESSION_ROUTES_IN_ORDER = [
    "/v1/sessions/state", "/v1/sessions/advice", "/v1/sessions/check", "/v1/sessions/move",
    "/v1/sessions/history", "/v1/sessions/hand", "/v1/sessions/export", "/v1/sessions/replay",
]
AFTER_A_MOVE = ["/v1/sessions/next", "/v1/sessions/delete"]
DRILL_IN_ORDER = ["/v1/sessions/drill/state", "/v1/sessions/drill/check",
                  "/v1/sessions/drill/move", "/v1/sessions/drill/stats",
                  "/v1/sessions/drill/again"]


@pytest.fixture
def document(client) -> dict[str, Any]:
    return client.get("/openapi.json").get_json()


def _example(document: dict[str, Any], path: str) -> dict[str, Any]:
    return copy.deepcopy(
        document["paths"][path]["post"]["requestBody"]["content"]["application/json"]["example"])


def _post(client, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    if token is not None and body.get("token") == TOKEN:
        body["token"] = token
    r = client.post(path, json=body)
    assert 200 <= r.status_code < 300, (path, r.status_code, r.get_json())
    return r.get_json()


def test_every_post_route_has_an_example(document):
    posts = {p for p, ops in document["paths"].items() if "post" in ops}
    assert posts == set(request_examples())
    for path in posts:
        assert _example(document, path) == request_examples()[path]


def test_each_example_without_a_session_succeeds(client, document):
    for path in request_examples():
        body = _example(document, path)
        if "token" not in body:
            _post(client, path, body)


def test_the_session_examples_succeed_one_after_the_other(client, document):
    token = _post(client, "/v1/sessions", _example(document, "/v1/sessions"))["token"]
    for path in SESSION_ROUTES_IN_ORDER:
        _post(client, path, _example(document, path), token)
    # the next hand and the end of a session, on a session whose first hand is set
    token = _post(client, "/v1/sessions", _example(document, "/v1/sessions"))["token"]
    _post(client, "/v1/sessions/move", _example(document, "/v1/sessions/move"), token)
    for path in AFTER_A_MOVE:
        _post(client, path, _example(document, path), token)
    token = _post(client, "/v1/sessions/drill", _example(document, "/v1/sessions/drill"))["token"]
    for path in DRILL_IN_ORDER:
        _post(client, path, _example(document, path), token)
    token = _post(client, "/v1/sessions/drill", _example(document, "/v1/sessions/drill"))["token"]
    for path in ("/v1/sessions/drill/move", "/v1/sessions/drill/next"):
        _post(client, path, _example(document, path), token)
    covered = {"/v1/sessions", "/v1/sessions/drill", "/v1/sessions/import",
               "/v1/sessions/drill/next", *SESSION_ROUTES_IN_ORDER, *AFTER_A_MOVE,
               *DRILL_IN_ORDER}
    assert {p for p, b in request_examples().items() if "token" in b} <= covered


def test_the_token_stand_in_is_a_token_the_schema_takes(client, document):
    r = client.post("/v1/sessions/state", json=_example(document, "/v1/sessions/state"))
    assert r.status_code == 404 and "session" in r.get_json()["error"]["message"]
