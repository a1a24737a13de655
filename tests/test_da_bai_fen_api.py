"""Da Bai Fen through `capsa moves da-bai-fen` and the HTTP endpoints."""

from __future__ import annotations

import json

import pytest

from solver.cli import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["moves", "da-bai-fen", *args])
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------ CLI
def test_cli_lead_json_lists_every_choice_once(capsys):
    code, out, _ = run(capsys, "BJ 2h As 10d", "--trump-rank", "2", "--trump-suit", "s", "--json")
    assert code == 0
    plays = json.loads(out)["plays"]
    assert set(json.loads(out)) == {"plays"}
    # 4 singles and the trump groups of BJ, 2h, As (3 pairs and the triple).
    assert len(plays) == 8 and len({frozenset(p["cards"]) for p in plays}) == 8
    assert {"cards": ["BJ", "2h", "As"]} in plays


def test_cli_follow_with_trick_text(capsys):
    code, out, _ = run(capsys, "2h 5c Qd", "--trump-rank", "2", "--trump-suit", "s",
                       "--trick", "Kh Qh;3c 4c")
    assert code == 0
    assert out.split("\n")[:-1] == ["2h 5c", "2h Qd", "5c Qd"]


@pytest.mark.parametrize("args, message", [
    (["Zz", "--trump-rank", "2", "--trump-suit", "s"], "unknown card 'Zz'"),
    (["As", "--trump-rank", "1", "--trump-suit", "s"], "trump rank '1'"),
    (["As", "--trump-rank", "2", "--trump-suit", "s", "--trick", "Kh Qc"], "mixes suits"),
    (["As Ks", "--trump-rank", "2", "--trump-suit", "s", "--trick", "Kh;"], "lead has 1"),
    (["As", "--trump-rank", "2", "--trump-suit", "s", "--trick", "Kh;2c;3c;4c"], "complete"),
    (["As Ks Qs", "--trump-rank", "2", "--trump-suit", "s", "--max-plays", "3"], "max_plays=3"),
    (["As", "--trump-suit", "s"], "--trump-rank"),
])
def test_cli_errors_exit_2(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("capsa: error:") and message in err and err.count("\n") == 1


# ------------------------------------------------------------------ HTTP
def post(client, path: str, body: dict):
    return client.post(f"/v1/da-bai-fen{path}", json=body)


def test_http_plays(client):
    r = post(client, "/plays", {"hand": ["2h", "5c", "Qd"], "trump_rank": "2", "trump_suit": "s",
                                "trick": ["Kh"]})
    assert r.status_code == 200
    body = r.get_json()
    assert body["plays"] == [{"cards": ["2h"]}, {"cards": ["5c"]}, {"cards": ["Qd"]}]
    assert body["count"] == 3 and body["lead"] is False and body["led_suit"] == "hearts"
    lead = post(client, "/plays",
                {"hand": "As Ks", "trump_rank": "A", "trump_suit": "h"}).get_json()
    assert lead == {"plays": [{"cards": ["As"]}, {"cards": ["Ks"]}], "count": 2, "lead": True,
                    "led_suit": None}


def test_http_trick_winner_points_and_kitty(client):
    body = {"trick": ["Kh Qh", "2c 3s", "Ah Th", "BJ 4c"], "trump_rank": "2", "trump_suit": "s"}
    r = post(client, "/trick", body).get_json()
    assert r == {"winner": 1, "winning_cards": ["2c", "3s"], "points": 20, "complete": True,
                 "kitty_bonus": 0}
    r = post(client, "/trick", {**body, "kitty": "Ks 5s", "kitty_multiplier": 3}).get_json()
    assert r["kitty_bonus"] == 45
    partial = post(client, "/trick", {"trick": ["2d", "2c"], "trump_rank": "2",
                                      "trump_suit": "s"}).get_json()
    assert partial["winner"] == 0 and partial["complete"] is False


@pytest.mark.parametrize("path, body, status, message", [
    ("/plays", {"hand": "As Zz", "trump_rank": "2", "trump_suit": "s"}, 400, "unknown card 'Zz'"),
    ("/plays", {"hand": "As", "trump_rank": "2", "trump_suit": "s", "trick": ["As"]}, 422,
     "both in"),
    ("/plays", {"hand": "As", "trump_rank": "2", "trump_suit": "s", "extra": 1}, 400,
     "unknown field"),
    ("/plays", {"hand": "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2d", "trump_rank": "2",
                "trump_suit": "s"}, 400, "expected 1 to 12 cards, got 13"),
    ("/plays", {"hand": "As", "trump_rank": "2", "trump_suit": "s", "trick": ["Kh"] * 4},
     400, "trick"),
    ("/plays", {"hand": "As", "trump_rank": "2", "trump_suit": "x"}, 400,
     "trump_suit: unknown trump suit 'x'; one of c d h s, a symbol or a suit's name"),
    ("/trick", {"trick": [], "trump_rank": "2", "trump_suit": "s"}, 400, "trick"),
    ("/trick", {"trick": ["Kh Qh", "3c"], "trump_rank": "2", "trump_suit": "s"}, 422,
     "lead has 2"),
    ("/trick", {"trick": ["Kh"], "trump_rank": "2", "trump_suit": "s",
                "kitty_multiplier": 11}, 400,
     "kitty_multiplier: Input should be less than or equal to 10, got 11"),
])
def test_http_errors_are_4xx(client, path, body, status, message):
    """400: the body breaks the schema; 422: it matches, and the game refuses it."""
    r = post(client, path, body)
    assert r.status_code == status
    assert message in r.get_json()["error"]["message"]


def test_http_moves_is_plays_under_the_common_name(client):
    body = {"hand": "2h 5c Qd", "trump_rank": "2", "trump_suit": "s", "trick": ["Kh Qh"]}
    moves = post(client, "/moves", body)
    assert moves.status_code == 200 and moves.get_json() == post(client, "/plays", body).get_json()
    assert post(client, "/moves", {**body, "trump_rank": "1"}).status_code == 400
