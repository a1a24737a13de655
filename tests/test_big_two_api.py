"""Big Two through the CLI (``capsa moves big-two``) and HTTP (``/v1/big-two/...``)."""

from __future__ import annotations

import json

import pytest

from solver.cli import main
from solver.games.big_two import legal_moves


def _cli_json(capsys, *argv):
    assert main(["moves", "big-two", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_lead_json(capsys):
    out = _cli_json(capsys, "3d 3s 4c")
    assert out == {"moves": [{"cards": ["3d"], "kind": "single"},
                             {"cards": ["3s"], "kind": "single"},
                             {"cards": ["4c"], "kind": "single"},
                             {"cards": ["3d", "3s"], "kind": "pair"}],
                   "can_pass": False}


def test_cli_current_first_trick_and_rules(capsys):
    out = _cli_json(capsys, "7s 7h 6d", "--current", "7d")
    assert [m["cards"] for m in out["moves"]] == [["7h"], ["7s"]] and out["can_pass"]
    out = _cli_json(capsys, "3d 3c 9s", "--first-trick")
    assert [m["cards"] for m in out["moves"]] == [["3d"], ["3d", "3c"]]
    hand = "Ad 2c 3h 4s 5d"
    assert all(m["kind"] != "straight" for m in _cli_json(capsys, hand)["moves"])
    poker = _cli_json(capsys, hand, "--straights", "poker")
    assert {"cards": ["3h", "4s", "5d", "Ad", "2c"], "kind": "straight"} in poker["moves"]
    bomb = "9d 9c 9h 9s 3d"
    assert len(_cli_json(capsys, bomb, "--current", "2s")["moves"]) == 1
    assert _cli_json(capsys, bomb, "--current", "2s", "--no-bomb-on-two")["moves"] == []
    flush_hi = _cli_json(capsys, "3h 5h 7h 9h Jh", "--current", "Ac Kc Qc Jc 9c",
                         "--flush-order", "suit")
    assert len(flush_hi["moves"]) == 1
    assert _cli_json(capsys, "3h 5h 7h 9h Jh", "--current", "Ac Kc Qc Jc 9c")["moves"] == []


def test_cli_aliases_and_text(capsys):
    assert main(["moves", "capsa-banting", "3d 4d"]) == 0
    text = capsys.readouterr().out
    assert "single" in text and "no pass" in text
    assert main(["moves", "big2", "3d", "--current", "2s"]) == 0
    assert "pass allowed" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["3d Zz"], "Zz"),
    (["3d 4d", "--current", "5d 6c"], "not a combination"),
    (["3d 4d", "--current", "3d"], "share"),
    (["4d 5d", "--first-trick"], "3d"),
    (["3d", "--straights", "wrap"], "straights"),
])
def test_cli_errors_exit_2(capsys, argv, message):
    assert main(["moves", "big-two", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_http_moves(client):
    r = client.post("/v1/big-two/moves", json={"hand": "3d 3s 4c"})
    assert r.status_code == 200
    assert r.get_json() == legal_moves("3d 3s 4c").to_json()
    r = client.post("/v1/big-two/moves", json={
        "hand": ["Ad", "2c", "3h", "4s", "5d", "6h"], "current": "3c 4c 5c 6c 7d",
        "rules": {"straights": "poker", "flush_order": "suit", "bomb_on_two": False}})
    body = r.get_json()
    assert r.status_code == 200 and body["can_pass"]
    assert {m["kind"] for m in body["moves"]} == {"straight"} and len(body["moves"]) == 2
    r = client.post("/v1/big-two/moves", json={"hand": "3d 3c 9s", "first_trick": True})
    assert [m["cards"] for m in r.get_json()["moves"]] == [["3d"], ["3d", "3c"]]


@pytest.mark.parametrize("body, status, fragment", [
    ({"hand": "3d Zz"}, 400, "unknown card 'Zz'"),
    ({"hand": "3d 4d", "current": "5d 6c"}, 422, "not a combination"),
    ({"hand": "3d 4d", "current": "4d"}, 422, "share"),
    ({"hand": "3d 3d"}, 422, "duplicate card '3d'"),
    ({"hand": "3d 4d", "rules": {"straights": "wrap"}}, 400,
     "rules.straights: unknown straights 'wrap'; one of rank-order, poker"),
    ({"hand": "3d 4d", "rules": {"jokers": 1}}, 400, "jokers"),
    ({"hand": "3d 4d", "extra": 1}, 400, "extra"),
    ({"hand": [str(i) for i in range(60)]}, 400, "hand"),
    ({"hand": "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2d"}, 400, "expected 1 to 13 cards, got 14"),
    ({"hand": "4d", "first_trick": True}, 422, "3d"),
    ({"hand": "4d", "required": "Qq"}, 400, "unknown card 'Qq'"),
])
def test_http_moves_errors(client, body, status, fragment):
    r = client.post("/v1/big-two/moves", json=body)
    assert r.status_code == status
    assert fragment in json.dumps(r.get_json())


def test_http_classify(client):
    r = client.post("/v1/big-two/classify", json={"cards": "8s 9s Ts Js Qs"})
    sf = r.get_json()
    assert r.status_code == 200 and sf["kind"] == "straight_flush" and sf["size"] == 5
    low = client.post("/v1/big-two/classify", json={"cards": "3h 4h 5h 6h 7h"}).get_json()
    assert sf["strength"] > low["strength"]
    pair = client.post("/v1/big-two/classify", json={"cards": ["7s", "7h"]}).get_json()
    assert pair["kind"] == "pair" and pair["rank"] == "7"
    r = client.post("/v1/big-two/classify", json={"cards": "7s 7h 7d 7c"})
    assert r.status_code == 422 and "not a combination" in r.get_json()["error"]["message"]
    r = client.post("/v1/big-two/classify",
                    json={"cards": "Ah 2h 3h 4h 5h", "rules": {"straights": "poker"}})
    assert r.get_json()["kind"] == "straight_flush"
    assert client.post("/v1/big-two/classify", json={"cards": ""}).status_code == 400


def test_openapi_lists_the_endpoints(client):
    paths = client.get("/openapi.json").get_json()["paths"]
    assert "/v1/big-two/moves" in paths and "/v1/big-two/classify" in paths
