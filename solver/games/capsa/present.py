"""Capsa on the play page, as message keys (:mod:`solver.games.lines`): who has set their rows
and how many opponents on the board; each revealed arrangement (or a row set face down) in
the log. The rows and the settlement table are the page's own (``play-capsa.js``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.games.lines import Message, line, move, msg, seats


def board(o: Mapping[str, Any], players: int) -> list[Message]:
    done = [p for p, x in enumerate(o.get("set") or []) if x]
    return [line("board.rows_set", "board.seats", who=seats(done)) if done else
            line("board.rows_set", "board.nobody_yet"),
            line("board.opponents", "board.number", n=int(o["num_players"]) - 1)]


def log(o: Mapping[str, Any]) -> list[Message]:
    out: list[Message] = []
    for p, m in enumerate(o.get("moves") or []):
        if m:
            out.append({"player": p, **msg("log.move", move=move(m))})
        elif (o.get("set") or [])[p]:
            out.append({"player": p, **msg("log.set_face_down")})
    return out
