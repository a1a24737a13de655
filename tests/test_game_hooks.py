"""The game contract drives the services: each game's ``/moves`` route and ``capsa moves``
flags come from its ``moves_args`` (``api/moves.py``, ``solver/cli/moves.py``), and the drill
is offered through ``GameInfo.drill`` (``solver/sessions/drill.py`` names no game)."""

from __future__ import annotations

import dataclasses
import json

import pytest
from test_layers import GRAPH

from api.moves import moves_request
from solver.cli import main
from solver.errors import InputError
from solver.games import _LOADED, all_games, drill_games, get_game, list_games
from solver.games.base import DrillSpec, MoveArg
from solver.sessions.drill import DrillService
from solver.sessions.store import SessionStore

MOVES_GAMES = [info.name for info in all_games() if info.moves is not None]

# one position per game with a moves query: (CLI arguments, the same as an HTTP body)
POSITIONS = {
    "big-two": (["3d 3s 4c 7h 7s", "--current", "7d", "--straights", "poker"],
                {"hand": "3d 3s 4c 7h 7s", "current": "7d", "rules": {"straights": "poker"}}),
    "da-san": (["4c 4d 5h 6s 7c", "--current", "4s 5d 6d"],
               {"hand": "4c 4d 5h 6s 7c", "current": "4s 5d 6d"}),
    "da-bai-fen": (["2h 5c Qd", "--trump-rank", "2", "--trump-suit", "s", "--trick", "Kh Qh"],
                   {"hand": "2h 5c Qd", "trump_rank": "2", "trump_suit": "s",
                    "trick": ["Kh Qh"]}),
}


# ------------------------------------------------------------------ sessions name no game
def test_the_sessions_import_only_the_registry_and_the_contract():
    allowed = {"solver.games", "solver.games.base"}
    sessions = [m for m in GRAPH if m == "solver.sessions" or m.startswith("solver.sessions.")]
    assert "solver.sessions.drill" in sessions
    assert "solver.games" in GRAPH["solver.sessions.drill"]  # the reader sees its imports
    wrong = [f"{m}:{line} imports {t}" for m in sessions for t, line in GRAPH[m].items()
             if (t == "solver.games" or t.startswith("solver.games.")) and t not in allowed]
    assert not wrong, "the sessions name a game:\n" + "\n".join(wrong)


# ------------------------------------------------------------------ the moves routes
def test_every_game_with_moves_has_a_position_here():
    assert sorted(POSITIONS) == sorted(MOVES_GAMES)


def _schemas(client):
    return client.get("/openapi.json").get_json()


def _request_schema(doc, game):
    body = doc["paths"][f"/v1/{game}/moves"]["post"]["requestBody"]
    ref = body["content"]["application/json"]["schema"]["$ref"]
    return doc["components"]["schemas"][ref.rsplit("/", 1)[1]]


def _group_schema(doc, prop):
    ref = next(s["$ref"] for s in prop["anyOf"] if "$ref" in s)
    return doc["components"]["schemas"][ref.rsplit("/", 1)[1]]


@pytest.mark.parametrize("game", MOVES_GAMES)
def test_the_moves_request_is_the_games_moves_args(client, game):
    """Field for field, in order: a group's arguments make one optional object; positional
    and required arguments are required fields; choices and bounds are the argument's."""
    doc = _schemas(client)
    schema = _request_schema(doc, game)
    args = get_game(game).moves_args
    top = list(dict.fromkeys(a.group or a.name for a in args))
    assert list(schema["properties"]) == top
    assert schema.get("required", []) == [a.name for a in args if a.positional or a.required]
    assert schema["additionalProperties"] is False
    for a in args:
        prop = schema["properties"][a.group or a.name]
        if a.group is not None:
            assert prop["default"] is None
            prop = _group_schema(doc, prop)["properties"][a.name]
        if a.choices is not None:
            assert prop["enum"] == list(a.choices) and prop["default"] == a.default
        if a.flag:
            assert prop["type"] == "boolean" and prop["default"] == bool(a.default)
        if a.minimum is not None:
            assert {"minimum": a.minimum, "type": "integer"} in prop["anyOf"]
        if a.plays is not None:
            assert prop["type"] == "array" and prop["maxItems"] == a.plays


@pytest.mark.parametrize("game", MOVES_GAMES)
def test_the_cli_and_the_route_give_the_same_moves(client, capsys, game):
    argv, body = POSITIONS[game]
    assert main(["moves", game, *argv, "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    r = client.post(f"/v1/{game}/moves", json=body)
    assert r.status_code == 200, r.get_json()
    http = r.get_json()
    assert cli and {k: http[k] for k in cli} == cli  # the route may say more (Da Bai Fen: count)
    assert cli == get_game(game).moves(**{
        a.name: body.get(a.group, {}).get(a.name, a.default) if a.group
        else body.get(a.name, bool(a.default) if a.flag else a.default)
        for a in get_game(game).moves_args})


@pytest.mark.parametrize("game", MOVES_GAMES)
def test_a_value_out_of_an_arguments_type_is_a_400_naming_the_field(client, game):
    _, body = POSITIONS[game]
    cases = 0
    for a in get_game(game).moves_args:
        if a.choices is not None:
            bad = "no-such-choice"
        elif a.minimum is not None:
            bad = a.minimum - 1
        elif a.flag:
            bad = "yes"
        else:
            continue
        sent = ({**body, a.group: {**body.get(a.group, {}), a.name: bad}} if a.group
                else {**body, a.name: bad})
        r = client.post(f"/v1/{game}/moves", json=sent)
        assert r.status_code == 400, (a.name, r.get_json())
        where = f"{a.group}.{a.name}" if a.group else a.name
        assert r.get_json()["error"]["message"].startswith(f"{where}:")
        cases += 1
    assert cases


def test_a_group_left_out_takes_every_default(client):
    _, body = POSITIONS["big-two"]
    plain = {k: v for k, v in body.items() if k != "rules"}
    defaults = {a.name: a.default for a in get_game("big-two").moves_args if a.group == "rules"}
    a = client.post("/v1/big-two/moves", json=plain).get_json()
    b = client.post("/v1/big-two/moves", json={**plain, "rules": defaults}).get_json()
    c = client.post("/v1/big-two/moves", json={**plain, "rules": {}}).get_json()
    assert a == b == c


def test_the_request_model_is_built_once_per_game_and_name():
    assert moves_request("da-san", "MovesRequest") is moves_request("da-san", "MovesRequest")


@pytest.mark.parametrize("kwargs", [
    {"plays": 3},                              # a list of card fields without the cards
    {"cards": (3, 1)},                         # low above high
    {"positional": True, "group": "rules"},    # a group's fields are optional
])
def test_a_move_arg_that_cannot_be_a_field_is_refused(kwargs):
    with pytest.raises(ValueError):
        MoveArg("x", "an argument", **kwargs)


def test_an_integer_argument_is_bounded_on_the_command_line_too(capsys):
    code = main(["moves", "da-bai-fen", "As", "--trump-rank", "2", "--trump-suit", "s",
                 "--max-plays", "-1"])
    assert code == 2 and "--max-plays" in capsys.readouterr().err


# ------------------------------------------------------------------ the drill hook
def test_the_drill_games_are_those_with_a_drill(client):
    assert drill_games() == [g for g in list_games() if get_game(g).drill is not None]
    assert "capsa" in drill_games()
    doc = _schemas(client)
    game = doc["components"]["schemas"]["DrillCreateRequest"]["properties"]["game"]
    assert game["enum"] == drill_games()


def _toy_drill() -> DrillSpec:
    """A drill that deals two cards and grades every move the same: enough to run the
    service on a game other than Capsa."""

    def grade(hand, rules, move):
        if move != {"play": "ok"}:
            raise InputError("a toy move is {play: ok}")
        return {"ev_lost": 0.25, "exact": False, "mistake": "slow", "cards": list(hand)}

    return DrillSpec(
        title="Toy drill", method="toy", mistakes=("slow", "other"),
        deal=lambda seed, rules: (["As", "Kd"] if seed % 2 else ["2c", "3d"], {"players": 2}),
        grade=grade, check=lambda hand, rules, draft: {"ok": True, "draft": draft},
        natural_move=lambda hand, rules: None, opponents=lambda rules: 1)


@pytest.fixture()
def toy(monkeypatch):
    """Big Two with a drill, through the registry."""
    monkeypatch.setitem(_LOADED, "big-two",
                        dataclasses.replace(get_game("big-two"), drill=_toy_drill()))


def test_the_drill_service_runs_any_games_drill(toy, tmp_path):
    svc = DrillService(SessionStore(str(tmp_path / "d.sqlite3")))
    assert "big-two" in drill_games()
    session, view = svc.create("big-two", None, 5)
    assert view["title"] == "Toy drill" and view["method"] == "toy" and view["opponents"] == 1
    assert view["stats"]["mistake_classes"] == ["slow", "other"]
    with pytest.raises(InputError, match="toy move"):
        svc.move(session.token, {"play": "bad"})
    assert svc.check(session.token, {"x": 1}) == {"ok": True, "draft": {"x": 1}}
    answered = svc.move(session.token, {"play": "ok"})
    assert answered["answer"]["mistake"] == "slow"
    stats = svc.stats(session.token)
    assert stats["hands"] == 1 and stats["by_mistake"]["slow"]["hands"] == 1


def test_a_game_without_a_drill_is_refused(tmp_path):
    svc = DrillService(SessionStore(str(tmp_path / "d.sqlite3")))
    with pytest.raises(InputError, match="a drill deals capsa, not 'da-san'"):
        svc.create("da-san")


def test_the_games_listing_follows_the_hook(toy, tmp_path):
    from api import create_app

    app = create_app({"TESTING": True, "WARMUP": False,
                      "SESSIONS_DB": str(tmp_path / "s.sqlite3")})
    games = {g["name"]: g["drill"] for g in
             app.test_client().get("/v1/sessions/games").get_json()["games"]}
    assert games == {g: get_game(g).drill is not None for g in list_games()}
    assert games["big-two"] and games["capsa"] and not games["da-san"]
