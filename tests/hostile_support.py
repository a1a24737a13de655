"""Valid request bodies for every POST route of the OpenAPI document, and the hostile variants
an outside probe sends (lone surrogates, numbers beyond a double, deep nesting, huge integers),
shared by the in-process and the served-stack tests of hostile input.

:func:`base_bodies` builds one valid body per route on a live app (sessions and a drill are
created first, so the token routes have a token); :func:`mutations` walks a body and yields
each hostile variant with a name saying where it struck.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from typing import Any

HAND = "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h"
ROWS = {"front": "As Ad Kh", "middle": "Kd Qc Js Ts 9h", "back": "7c 6d 5s 3c 2h"}
SURROGATE = "\ud800"
DEEP = 200  # deeper than any field of the API nests, well inside the reader's limit

Post = Callable[[str, Any], tuple[int, Any]]  # (path, body) -> (status, parsed JSON answer)


def _session(post: Post, game: str, seed: int) -> tuple[str, dict[str, Any]]:
    status, view = post("/v1/sessions", {"game": game, "seed": seed})
    assert status == 200, view
    return view["token"], view


def base_bodies(post: Post) -> dict[str, dict[str, Any]]:
    """One valid body per POST route (the token routes get a fresh session's token, and the
    routes of a finished hand a session whose first hand is over)."""
    bodies: dict[str, dict[str, Any]] = {
        "/v1/big-two/moves": {"hand": "3d 3s 4c 5h 6c 7d", "current": "4s"},
        "/v1/big-two/classify": {"cards": "3d 3s"},
        "/v1/capsa/arrange": {"hand": HAND, "top": 2},
        "/v1/capsa/arrange/batch": {"hands": [HAND, HAND.replace("2h", "2c")]},
        "/v1/capsa/score": {"players": [
            {"front": "2c 3d 4h", "middle": "5s 5c 7d 8h 9s", "back": "Jc Jd Qh Qs 9c"},
            {"front": "Ac Ad 2h", "middle": "Ts Tc Th 3c 3s", "back": "Ks Kd Kh Kc 6h"}]},
        "/v1/capsa/valid": {"hand": HAND},
        "/v1/capsa/review": {"hands": [{"id": "h1", "hand": HAND, **ROWS}]},
        "/v1/capsa/profile": {"hands": [{"id": "h1", "hand": HAND, **ROWS}]},
        "/v1/da-bai-fen/moves": {"hand": "As Ks Qs 3c 4c", "trump_rank": "2",
                                 "trump_suit": "s"},
        "/v1/da-bai-fen/plays": {"hand": "As Ks Qs 3c 4c", "trump_rank": "2",
                                 "trump_suit": "s"},
        "/v1/da-bai-fen/trick": {"trick": ["Kh", "Ah"], "trump_rank": "2", "trump_suit": "s"},
        "/v1/da-san/moves": {"hand": "3d 3s 4c 5h"},
        "/v1/da-san/classify": {"cards": "Ts 9d 8c 7h"},
    }
    for game, route in (("big-two", "/v1/big-two/advise"), ("da-san", "/v1/da-san/advise"),
                        ("da-bai-fen", "/v1/da-bai-fen/advise")):
        token, view = _session(post, game, 7)
        bodies[route] = {"observation": view["observation"], "iterations": 1, "seed": 1}
    # Capsa sessions: the human moves first, so the token routes have a live hand; each
    # changing route gets a session of its own (the routes may be probed in any order)
    def live() -> tuple[str, list[str], dict[str, list[str]]]:
        token, view = _session(post, "capsa", 11)
        status, advice = post("/v1/sessions/advice", {"token": token})
        assert status == 200, advice
        best = advice["arrangements"][0]
        return token, view["own_cards"], {row: best[row] for row in ("front", "middle", "back")}

    def finished() -> str:
        token, _, move = live()
        status, view = post("/v1/sessions/move", {"token": token, "move": move})
        assert status == 200 and view["terminal"], view
        return token

    bodies["/v1/sessions"] = {"game": "big-two", "seed": 3, "rules": {"players": 4},
                              "bots": "random"}
    token, cards, move = live()
    for route in ("state", "advice", "history"):
        bodies[f"/v1/sessions/{route}"] = {"token": token}
    bodies["/v1/sessions/check"] = {"token": live()[0], "rows": {"front": cards[:2]}}
    token, _, move = live()
    bodies["/v1/sessions/move"] = {"token": token, "move": move, "version": 1}
    done = finished()
    for route in ("hand", "export"):
        bodies[f"/v1/sessions/{route}"] = {"token": done, "n": 1}
    bodies["/v1/sessions/replay"] = {"token": finished(), "n": 1}
    bodies["/v1/sessions/next"] = {"token": finished()}
    status, doc = post("/v1/sessions/export", {"token": done, "n": 1})
    assert status == 200, doc
    bodies["/v1/sessions/import"] = {"hand": doc, "bots": "table"}
    bodies["/v1/sessions/delete"] = {"token": _session(post, "da-san", 5)[0]}

    def drill() -> tuple[str, dict[str, list[str]]]:
        status, view = post("/v1/sessions/drill", {"seed": 4})
        assert status == 200, view
        rules = {k: v for k, v in view["rules"].items() if k != "players"}
        status, best = post("/v1/capsa/arrange", {"hand": view["own_cards"], "top": 1,
                                                  "rules": rules})
        assert status == 200, best
        arr = best["arrangements"][0]
        return view["token"], {row: arr[row] for row in ("front", "middle", "back")}

    bodies["/v1/sessions/drill"] = {"seed": 5, "rules": {"preset": "standard", "players": 3}}
    token, rows = drill()
    for route in ("state", "stats"):
        bodies[f"/v1/sessions/drill/{route}"] = {"token": token}
    bodies["/v1/sessions/drill/check"] = {"token": token, "rows": {"front": rows["front"][:2]}}
    bodies["/v1/sessions/drill/move"] = {"token": token, "move": rows}
    for route, extra in (("next", {}), ("again", {"n": 1})):
        token, rows = drill()
        status, answer = post("/v1/sessions/drill/move", {"token": token, "move": rows})
        assert status == 200, answer
        bodies[f"/v1/sessions/drill/{route}"] = {"token": token, **extra}
    return bodies


def _deep(depth: int) -> Any:
    node: Any = "x"
    for i in range(depth):
        node = [node] if i % 2 else {"k": node}
    return node


def _leaves(doc: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:3]):
            yield from _leaves(v, path + (i,))


def _replace(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(doc, dict):
        return {**doc, head: _replace(doc[head], rest, value)}
    out = list(doc)
    out[head] = _replace(out[head], rest, value)
    return out


def _rename_keys(doc: Any, path: tuple[Any, ...], suffix: str) -> Any:
    """``doc`` with the keys of the object at ``path`` given ``suffix``."""
    node = doc
    for p in path:
        node = node[p]
    return _replace(doc, path, {k + suffix: v for k, v in node.items()})


# (name, value) put in place of a string, a number, or any value of a body
HOSTILE_VALUES: tuple[tuple[str, Any], ...] = (
    ("surrogate", SURROGATE),
    ("surrogate-in-text", "As " + SURROGATE + "Kd"),
    ("huge-float", math.inf),  # written 1e400 by dumps()
    ("huge-int", 10**40),
    ("negative-huge-int", -(10**40)),
    ("deep", _deep(DEEP)),
    ("odd-unicode", "\u202e\u0000\ufeff" + "\U0001F0A1" * 3),
)


def mutations(body: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """Each hostile variant of ``body``: every value (and every field's whole value) in turn
    replaced by each of :data:`HOSTILE_VALUES`, and every object's keys given a surrogate."""
    seen: set[tuple[Any, ...]] = set()
    for path, value in _leaves(body):
        if not path or path in seen:
            continue
        seen.add(path)
        for name, hostile in HOSTILE_VALUES:
            yield f"{'.'.join(map(str, path))}={name}", _replace(body, path, hostile)
        if isinstance(value, dict) and value:
            yield f"{'.'.join(map(str, path))}.keys=surrogate", _rename_keys(body, path,
                                                                             SURROGATE)
    yield "keys=surrogate", _rename_keys(body, (), SURROGATE)


def dumps(doc: Any) -> bytes:
    """``doc`` as a client would send it: infinity as ``1e400``, a surrogate as its escape."""
    return json.dumps(doc).replace("Infinity", "1e400").encode()


RAW_SURROGATE = b"\xed\xa0\x80"  # a surrogate encoded as UTF-8: not UTF-8, the decoder takes it


def strict_json(body: bytes) -> Any:
    """Parse an answer as a strict client would: UTF-8 text, no NaN or Infinity."""

    def refuse(name: str) -> Any:
        raise ValueError(f"{name} in an answer")

    return json.loads(body.decode("utf-8"), parse_constant=refuse)
