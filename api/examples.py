"""A request body that succeeds for every POST route, set as the ``example`` of its JSON body
in the OpenAPI document, so that "Try it out" on ``/docs`` starts from a request the service
answers with 200 (Swagger UI otherwise fills a sample from the schema: a string made up to
match a card pattern, which the game refuses).

The bodies that name cards of a deal are made by the engines, from the deal the session
example's seed gives: the session example is Capsa for two with seed 1, and the move and
row examples are the solver's best rows of its first hand, so the examples work one after
the other. A route that needs a session carries :data:`TOKEN`, a stand-in: paste the token
the session example answered in its place.
"""

from __future__ import annotations

import copy
import functools
from typing import TYPE_CHECKING, Any, cast

from solver.games import get_game
from solver.sessions.service import derived_seed

if TYPE_CHECKING:
    from solver.games.capsa.game import CapsaState

TOKEN = "paste-the-token-of-your-session"
HAND = "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h"
ROWS = {"front": "5s 3c 2h", "middle": "As Ad Kh 7c 6d", "back": "Kd Qc Js Ts 9h"}
SESSION = {"game": "capsa", "rules": {"players": 2}, "seed": 1}
DRILL = {"game": "capsa", "rules": {"preset": "standard", "players": 2}, "seed": 1}
ADVISE_SEED = 7  # the deal whose first observation each game's /advise example sends

FIXED: dict[str, dict[str, Any]] = {
    "/v1/capsa/arrange": {"hand": HAND, "rules": "standard", "opponents": 3, "top": 3},
    "/v1/capsa/arrange/batch": {"hands": [HAND, "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad"],
                                "opponents": 3},
    "/v1/capsa/score": {"players": [
        {"front": "2c 3d 4h", "middle": "5s 5c 7d 8h 9s", "back": "Jc Jd Qh Qs 9c"},
        {"front": "Ac Ad 2h", "middle": "Ts Tc Th 3c 3s", "back": "Ks Kd Kh Kc 6h"}],
        "rules": "standard"},
    "/v1/capsa/valid": {"hand": HAND},
    "/v1/capsa/review": {
        "text": (f"deal 1 | {ROWS['front']} | {ROWS['middle']} | {ROWS['back']}\n"
                 "deal 2 | 3c 4d 9s | Ac Ad Jh 8c 5s | 7s 7h 7d Qs Qh\n"
                 '{"id": "deal 3", "front": "Kd Qc Js", "middle": "Ts 9h 7c 6d 5s", '
                 '"back": "As Ad Kh 3c 2h"}\n'),
        "rules": "standard", "opponents": 3},
    "/v1/capsa/profile": {  # one player's shown hands: plain text rows or JSON lines
        "text": (f"{ROWS['front']} | {ROWS['middle']} | {ROWS['back']}\n"
                 "3c 4d 9s | Ac Ad Jh 8c 5s | 7s 7h 7d Qs Qh\n"
                 '{"front": "Kd Qc Js", "middle": "Ts 9h 7c 6d 5s", "back": "As Ad Kh 3c 2h"}\n'),
        "rules": "standard"},
    "/v1/big-two/moves": {"hand": "3d 3s 4c 5h 6c 7d", "current": "4s"},
    "/v1/big-two/classify": {"cards": "8s 9s Ts Js Qs"},
    "/v1/da-san/moves": {"hand": "3d 3s 4c 5h"},
    "/v1/da-san/classify": {"cards": "Ts 9d 8c 7h"},
    "/v1/da-bai-fen/moves": {"hand": "As Ks Qs 3c 4c", "trump_rank": "2", "trump_suit": "s"},
    "/v1/da-bai-fen/plays": {"hand": "As Ks Qs 3c 4c", "trump_rank": "2", "trump_suit": "s"},
    "/v1/da-bai-fen/trick": {"trick": ["Kh", "Ah"], "trump_rank": "2", "trump_suit": "s"},
    "/v1/sessions": SESSION,
    "/v1/sessions/drill": DRILL,
}
TOKEN_ONLY = ("state", "advice", "history", "next", "delete", "drill/state", "drill/next",
              "drill/stats")
HAND_NO = ("hand", "export", "replay", "drill/again")


def _first_hand(spec: dict[str, Any]) -> tuple[CapsaState, dict[str, list[str]]]:
    """The first deal of a Capsa session (or drill) of ``spec``'s seed and players, and the
    solver's best rows of seat 0's hand."""
    from solver.games.capsa.arrange import arrange

    rules = dict(spec["rules"])
    state = cast("CapsaState", get_game("capsa").new_game(seed=derived_seed(spec["seed"], 1),
                                                         rules=rules))
    scoring = {k: v for k, v in rules.items() if k != "players"} or "standard"
    best = arrange(state.hand(0), scoring, rules["players"] - 1, "table", top=1).best
    return state, best.arrangement.to_dict()


@functools.cache
def request_examples() -> dict[str, dict[str, Any]]:
    """A body for every POST route (see the module doc), by path."""
    out = copy.deepcopy(FIXED)
    for game in ("big-two", "da-san", "da-bai-fen"):
        state = get_game(game).new_game(seed=derived_seed(ADVISE_SEED, 1))
        out[f"/v1/{game}/advise"] = {"observation": state.observation(state.current_player),
                                     "iterations": 20, "seed": 1}
    state, rows = _first_hand(SESSION)
    _, drill_rows = _first_hand(DRILL)
    for route in TOKEN_ONLY:
        out[f"/v1/sessions/{route}"] = {"token": TOKEN}
    for route in HAND_NO:
        out[f"/v1/sessions/{route}"] = {"token": TOKEN, "n": 1}
    out["/v1/sessions/check"] = {"token": TOKEN, "rows": {"front": rows["front"][:2]}}
    out["/v1/sessions/move"] = {"token": TOKEN, "move": rows}
    out["/v1/sessions/import"] = {"hand": state.to_json()}
    out["/v1/sessions/drill/check"] = {"token": TOKEN, "rows": {"front": drill_rows["front"][:2]}}
    out["/v1/sessions/drill/move"] = {"token": TOKEN, "move": drill_rows}
    return out


def add_examples(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec`` (an OpenAPI document) with each POST route's JSON body example set."""
    examples = request_examples()
    for path, ops in spec.get("paths", {}).items():
        body = ops.get("post", {}).get("requestBody", {}).get("content", {})
        if path in examples and "application/json" in body:
            body["application/json"]["example"] = examples[path]
    return spec
