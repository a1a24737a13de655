"""What the play page says about a game, as message keys with parameters, not sentences: the
board's lines, the log of public events, each seat's roles and the settlement. The page
looks each key up in the player's language (``api/i18n``) and fills the parameters, so it
names no game and holds no English of its own.

A message is ``{"key": ..., "params": {...}}``; a board line adds ``label`` (a key). A
parameter is a number, a string shown as it is, or one of the typed values below, which the
page draws its own way: a seat (named "You" or "Seat 2 (search)"), cards (symbols, or card
faces on the board), a term (another key: a hand kind, a suit, a team), a move.

>>> msg("board.passes", n=2)
{'key': 'board.passes', 'params': {'n': 2}}
>>> line("board.to_beat", "board.to_beat.by", cards=cards(["4c", "4h"]), by=seat(1))["params"]
{'cards': {'cards': ['4c', '4h']}, 'by': {'seat': 1}}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Message = dict[str, Any]


def msg(key: str, **params: Any) -> Message:
    return {"key": key, "params": params}


def line(label: str, key: str, **params: Any) -> Message:
    """A board line: ``label`` (a key without parameters) and what follows it."""
    return {"label": label, **msg(key, **params)}


def seat(p: int) -> dict[str, int]:
    return {"seat": int(p)}


def seats(ps: Iterable[int]) -> dict[str, list[int]]:
    """Several seats, named one after another."""
    return {"seats": [int(p) for p in ps]}


def cards(cs: Sequence[str]) -> dict[str, list[str]]:
    return {"cards": list(cs)}


def term(key: str) -> dict[str, str]:
    """Another message, without parameters (a hand kind ``kind.pair``, a suit ``suit.h``)."""
    return {"term": key}


def move(m: Mapping[str, Any]) -> dict[str, Any]:
    """A move as the game's ``move_json`` writes it (its kind, cards, amount)."""
    return {"move": dict(m)}


def seat_counts(counts: Sequence[int]) -> dict[str, list[list[int]]]:
    """Each seat with a number: ``You 1, Seat 1 4``."""
    return {"seat_counts": [[p, int(n)] for p, n in enumerate(counts)]}


def history_log(observation: Mapping[str, Any]) -> list[Message]:
    """The log of a game whose observation keeps every public move in ``history``."""
    return [{"player": h["player"], **msg("log.move", move=move(h["move"]))}
            for h in observation.get("history") or []]


def no_board(observation: Mapping[str, Any], players: int) -> list[Message]:
    return []


def dealer_roles(observation: Mapping[str, Any], players: int) -> list[list[Message]]:
    """Each seat's roles where the only one is the dealer (:func:`base.dealer_role`)."""
    return [[msg("role.dealer")] if observation.get("dealer") == p else []
            for p in range(players)]
