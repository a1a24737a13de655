"""HTTP: every capsa endpoint and its errors; no input produces a 5xx."""

from __future__ import annotations

import time

import pytest

HAND = "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h"


def test_healthz_openapi_docs_index(client):
    assert client.get("/healthz").get_json() == {"status": "ok"}
    spec = client.get("/openapi.json").get_json()
    assert spec["openapi"].startswith("3.1")
    for path in ("/v1/capsa/arrange", "/v1/capsa/arrange/batch", "/v1/capsa/score",
                 "/v1/capsa/valid"):
        assert "post" in spec["paths"][path]
    assert client.get("/docs").status_code == 200
    assert client.get("/").status_code == 200


def test_arrange(client):
    t0 = time.perf_counter()
    r = client.post("/v1/capsa/arrange", json={"hand": HAND, "top": 2, "opponents": 1})
    wall_ms = (time.perf_counter() - t0) * 1000
    assert r.status_code == 200
    body = r.get_json()
    assert body["valid_arrangements"] == 18835 and len(body["arrangements"]) == 2
    best = body["arrangements"][0]
    assert sorted(best["front"] + best["middle"] + best["back"]) == sorted(body["hand"])
    assert [row["row"] for row in best["rows"]] == ["front", "middle", "back"]
    # the solver's own time, in milliseconds: within the request's wall time
    assert 0 < body["elapsed_ms"] <= wall_ms


def _same_arrangements(http: list[dict], py: list[dict]) -> None:
    """The HTTP answer's arrangements are the Python API's, row for row and ev for ev."""
    assert len(http) == len(py)
    for a, b in zip(http, py):
        assert [a[row] for row in ("front", "middle", "back")] == \
            [b[row] for row in ("front", "middle", "back")]
        assert a["ev"] == pytest.approx(b["ev"], abs=1e-9)


def test_arrange_methods_and_rules(client):
    """Each method and the rule options reach the solver: the answer is what the Python API
    gives for the same inputs (Monte Carlo with the same seed), and ``known`` scores each
    arrangement exactly against the opponent's rows."""
    import solver
    from solver.games.capsa.referee import score

    rules = {"preset": "standard", "royalty_mode": "net", "royalties": {"back": {"flush": 1}}}
    r = client.post("/v1/capsa/arrange", json={
        "hand": HAND.split(), "method": "montecarlo", "samples": 50, "seed": 3, "opponents": 2,
        "rules": rules})
    assert r.status_code == 200 and r.get_json()["seed"] == 3
    py = solver.arrange(HAND, rules, 2, method="montecarlo", samples=50, seed=3).to_dict()
    _same_arrangements(r.get_json()["arrangements"], py["arrangements"])
    flush_back = solver.arrange(HAND, "standard", 2, method="montecarlo", samples=50,
                                seed=3).to_dict()
    assert [a["ev"] for a in flush_back["arrangements"]] != [a["ev"] for a in py["arrangements"]]
    opponent = {"front": "2s 2d 3h", "middle": "3s 4c 4d 5h 6s", "back": "7h 8c 9c Tc Jc"}
    r = client.post("/v1/capsa/arrange", json={
        "hand": HAND, "method": "known", "opponent_arrangements": [opponent]})
    body = r.get_json()
    assert r.status_code == 200 and body["opponents"] == 1
    for arr in body["arrangements"]:
        table = score([{row: arr[row] for row in ("front", "middle", "back")}, opponent],
                      "standard")
        assert arr["ev"] == pytest.approx(table.to_dict()["players"][0]["points"])


def test_batch_score_valid(client):
    r = client.post("/v1/capsa/arrange/batch", json={"hands": [HAND, HAND.replace("2h", "2s")]})
    assert r.status_code == 200 and len(r.get_json()["results"]) == 2
    table = {"players": [
        {"front": "2c 3d 4h", "middle": "5s 5c 7d 8h 9s", "back": "Jc Jd Qh Qs 9c"},
        {"front": "Ac Ad 2h", "middle": "Ts Tc Th 3c 3s", "back": "Ks Kd Kh Kc 6h"}]}
    r = client.post("/v1/capsa/score", json=table)
    assert [p["points"] for p in r.get_json()["players"]] == [-12, 12]
    r = client.post("/v1/capsa/valid", json={"hand": HAND})
    assert r.get_json() == {"valid_arrangements": 18835}


@pytest.mark.parametrize("kwargs, status, code, fragment", [
    ({"data": "{bad", "content_type": "application/json"}, 400, "malformed_json", "malformed JSON"),
    ({"data": "hand=x", "content_type": "application/x-www-form-urlencoded"}, 415,
     "unsupported_media_type", "application/json"),
    ({"json": [1, 2]}, 400, "invalid_request", "JSON object"),
    ({"json": {"hand": HAND, "colour": 1}}, 400, "invalid_request", "colour: unknown field"),
    ({"json": {"hand": "As As Kd"}}, 400, "invalid_cards", "duplicate card 'As'"),
    ({"json": {"hand": "As Kd Zz"}}, 400, "invalid_cards", "unknown card 'Zz'"),
    ({"json": {"hand": "As Kd"}}, 400, "invalid_cards", "expected 13 cards, got 2"),
    ({"json": {"hand": HAND, "rules": "house"}}, 400, "invalid_request", "rules"),
    ({"json": {"hand": HAND, "samples": 10**6}}, 400, "invalid_request", "samples"),
    ({"json": {"hand": HAND, "opponents": True}}, 400, "invalid_request", "opponents"),
    ({"json": {"hand": HAND, "opponents": 2.0}}, 200, None, None),
    ({"json": {"hand": HAND, "method": "known"}}, 422, "invalid_input", "needs exactly one of"),
    ({"json": {"hand": HAND.replace("2h", "As")}}, 422, "invalid_cards", "duplicate card 'As'"),
    ({"json": {"hand": HAND, "rules": "vegas"}}, 400, "invalid_request",
     "rules: unknown preset 'vegas'; one of standard, basic, two-four, indonesia"),
    ({"json": {"hand": HAND, "rules": {"preset": "vegas"}}}, 400, "invalid_request",
     "rules.preset: unknown preset 'vegas'; one of standard, basic, two-four, indonesia"),
    ({"json": {"hand": HAND, "rules": 7}}, 400, "invalid_request",
     "rules: must be a preset name or an object of options, got 7"),
    ({"json": {"hand": HAND, "samples": 10**6}}, 400, "invalid_request",
     "samples: Input should be less than or equal to 5000, got 1000000"),
    ({"data": "{" + " " * 1_100_000 + "}", "content_type": "application/json"}, 413,
     "body_too_large", "bytes"),
])
def test_arrange_errors(client, kwargs, status, code, fragment):
    r = client.post("/v1/capsa/arrange", **kwargs)
    assert r.status_code == status
    if code:
        err = r.get_json()["error"]
        assert err["code"] == code and fragment in err["message"]


def test_batch_limits(client):
    r = client.post("/v1/capsa/arrange/batch", json={"hands": [HAND] * 1001})
    assert r.status_code == 400 and "hands" in r.get_json()["error"]["message"]
    r = client.post("/v1/capsa/arrange/batch",
                    json={"hands": [HAND] * 30, "method": "montecarlo", "samples": 1000})
    # hands x samples is past what a schema can say: the request is well formed, the solver
    # refuses it
    assert r.status_code == 422 and "at most 20,000 samples" in r.get_json()["error"]["message"]
    r = client.post("/v1/capsa/arrange/batch", json={"hands": [HAND, "As"]})
    assert r.status_code == 400 and "hands.1: expected 13 cards" in r.get_json()["error"]["message"]
    r = client.post("/v1/capsa/arrange/batch", json={"hands": [HAND, HAND.replace("2h", "As")]})
    assert r.status_code == 422 and "hand 1: duplicate card 'As'" in r.get_json()["error"]["message"]


def test_unknown_route_and_method_are_json(client):
    r = client.get("/v1/nope")
    assert r.status_code == 404 and r.get_json()["error"]["code"] == "not_found"
    r = client.get("/v1/capsa/arrange")
    assert r.status_code == 405 and "error" in r.get_json()
