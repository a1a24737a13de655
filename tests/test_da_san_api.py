"""Da San through the CLI (``capsa moves da-san``) and HTTP (``/v1/da-san/...``)."""

from __future__ import annotations

import json

import pytest

from solver.cli import main

HAND = "4c 4d 5h 6s 7c"
LEADS = [
    {"cards": ["4c"], "kind": "single"}, {"cards": ["5h"], "kind": "single"},
    {"cards": ["6s"], "kind": "single"}, {"cards": ["7c"], "kind": "single"},
    {"cards": ["4c", "4d"], "kind": "pair"},
    {"cards": ["4c", "5h", "6s"], "kind": "run"}, {"cards": ["5h", "6s", "7c"], "kind": "run"},
    {"cards": ["4c", "5h", "6s", "7c"], "kind": "run"},
]


def run_cli(capsys, *argv):
    code = main(["moves", *argv])
    out, err = capsys.readouterr()
    return code, out, err


# ----------------------------------------------------------------- CLI
def test_cli_json_leads(capsys):
    code, out, _ = run_cli(capsys, "da-san", HAND, "--json")
    assert code == 0 and json.loads(out) == {"moves": LEADS, "can_pass": False}


def test_cli_alias_current_and_text(capsys):
    code, out, _ = run_cli(capsys, "big-three", "6d 7d 8d 9d Td Jd", "--current", "6c 7c 8c 9c")
    assert code == 0
    assert out.splitlines() == ["run       7d 8d 9d Td", "run       8d 9d Td Jd", "pass"]


def test_cli_all_suits(capsys):
    code, out, _ = run_cli(capsys, "da-san", "4c 4d 4h", "--current", "3c", "--all-suits", "--json")
    assert code == 0 and json.loads(out) == {"moves": [], "can_pass": True}
    code, out, _ = run_cli(capsys, "da-san", "4c 4d 4h", "--current", "Kc Ks", "--all-suits", "--json")
    assert json.loads(out)["moves"] == []
    code, out, _ = run_cli(capsys, "da-san", "4c 4d 4h", "--all-suits", "--json")
    assert [m["cards"] for m in json.loads(out)["moves"] if m["kind"] == "pair"] == [
        ["4c", "4d"], ["4c", "4h"], ["4d", "4h"]]


@pytest.mark.parametrize("argv, message", [
    (["da-san", "4c Zz"], "unknown card 'Zz'"),
    (["da-san", "4c 4c"], "duplicate card"),
    (["da-san", "4c 5c", "--current", "6c 7c"], "6c 7c is not a Da San combination"),
    (["da-san", "4c 5c", "--current", "4c"], "also in the hand"),
])
def test_cli_errors_exit_2(capsys, argv, message):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


# ----------------------------------------------------------------- HTTP
def test_http_moves(client):
    r = client.post("/v1/da-san/moves", json={"hand": HAND})
    assert r.status_code == 200 and r.get_json() == {"moves": LEADS, "can_pass": False}
    r = client.post("/v1/da-san/moves", json={"hand": HAND.split(), "current": ["3c", "3d"]})
    assert r.get_json() == {"moves": [], "can_pass": True}
    r = client.post("/v1/da-san/moves", json={"hand": "4c 4d", "current": "", "all_suits": True})
    assert r.get_json()["can_pass"] is False and len(r.get_json()["moves"]) == 3


def test_http_classify(client):
    r = client.post("/v1/da-san/classify", json={"cards": "Ts 9d 8c 7h"})
    assert r.status_code == 200
    assert r.get_json() == {"cards": ["7h", "8c", "9d", "Ts"], "kind": "run", "strength": 6, "top": "T"}
    r = client.post("/v1/da-san/classify", json={"cards": ["Qh", "Kc", "Ad"]})
    assert r.get_json()["kind"] is None
    r = client.post("/v1/da-san/classify", json={"cards": "3s 3h 3d 3c"})
    assert r.get_json()["kind"] == "quad" and r.get_json()["top"] == "3"


@pytest.mark.parametrize("path, body, status, code", [
    ("/v1/da-san/moves", {"hand": "4c Zz"}, 400, "invalid_cards"),
    ("/v1/da-san/moves", {"hand": "4c", "current": "5c 6c"}, 422, "illegal_move"),
    ("/v1/da-san/moves", {"hand": "4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2c 3c 4d 5d 6d 7d 8d 9d Td Jd"},
     400, "invalid_cards"),  # 21 cards
    ("/v1/da-san/moves", {"hand": "4c", "extra": 1}, 400, "invalid_request"),
    ("/v1/da-san/moves", {"hand": ["4c"] * 21}, 400, "invalid_cards"),
    ("/v1/da-san/classify", {"cards": "4c 4c"}, 422, "invalid_cards"),
    ("/v1/da-san/classify", {"cards": ["4c", "4c"]}, 400, "invalid_cards"),
    ("/v1/da-san/classify", {}, 400, "invalid_request"),
])
def test_http_errors_are_4xx(client, path, body, status, code):
    """400: the body breaks the schema; 422: it matches, and the game refuses it."""
    r = client.post(path, json=body)
    assert r.status_code == status and r.get_json()["error"]["code"] == code
