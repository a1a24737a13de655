"""The play page's words from each game's presentation, as message keys: random hands of
every game, every step, seat 0's view. Each key is in the catalog with the placeholders its
parameters fill, and the English they make is the English the API has always sent (the
summary, each seat's roles, the game-over text) word for word."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from api import i18n
from solver.games import get_game, list_games

EN = i18n.messages("en")


def render(m: dict[str, Any]) -> str:
    """A message in English, seats written ``{seat:N}`` as the API's summaries write them."""
    text = EN[m["key"]]
    params = m["params"]
    assert i18n.placeholders(text) == set(params), (m["key"], text, params)
    return re.sub(r"\{(\w+)\}", lambda g: value(params[g.group(1)]), text)


def value(v: Any) -> str:
    if isinstance(v, dict):
        (kind, x), = v.items()
        if kind == "seat":
            return f"{{seat:{x}}}"
        if kind == "seats":
            return ", ".join(f"{{seat:{p}}}" for p in x)
        if kind == "seat_counts":
            return ", ".join(f"{{seat:{p}}} {n}" for p, n in x)
        if kind == "cards":
            return " ".join(x)
        if kind == "term":
            assert x in EN, x
            return EN[x]
        if kind == "move":
            assert f"kind.{x['kind']}" in EN, x
            return str(x)
        if kind == "plays":
            return " · ".join(f"{{seat:{p}}} {' '.join(cs)}" for p, cs in x)
        raise AssertionError(f"unknown parameter type {kind}")
    assert isinstance(v, (int, str)), v
    return str(v)


def playouts(name: str, hands: int = 3):
    game = get_game(name)
    for seed in range(hands):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        yield state
        while not state.is_terminal():
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))] if name != "capsa" else moves[0])
            yield state


@pytest.mark.parametrize("name", list_games())
def test_every_line_is_a_catalog_message_and_says_the_api_english(name):
    game = get_game(name)
    pres = game.presentation
    seen: set[str] = set()
    for state in playouts(name):
        obs = state.observation(0)
        players = state.num_players
        if obs.get("phase"):
            assert f"phase.{obs['phase']}" in EN, obs["phase"]  # the page's "Your turn (...)"
        for m in state.legal_moves() if not state.is_terminal() else []:
            assert f"kind.{state.move_json(m)['kind']}" in EN  # every move button's name
        board = pres.board(obs, players)
        for m in board:
            assert m["label"] in EN and not i18n.placeholders(EN[m["label"]])
            render(m)
            seen.add(m["key"])
        for entry in pres.log(obs):
            assert 0 <= entry["player"] < players
            render(entry)
            seen.add(entry["key"])
        roles = [[render(r) for r in rs] for rs in pres.roles(obs, players)]
        assert roles == pres.seat_roles(obs, players)
        if pres.summary:
            said = pres.summary(obs)
            lines = pres.settlement(obs) if pres.settlement else None
            if said is None:
                assert lines is None
            else:
                assert lines is not None and " ".join(render(m) for m in lines) == said
        if state.is_terminal() and game.game_over is not None:
            over = game.game_over(state)
            if over is not None:
                assert render(over) == over["text"]
    assert seen, f"{name}: no board or log line in three hands"


def test_the_board_is_drawn_for_every_game_and_names_the_kitty_right():
    """Da San: the kitty is face down until the auction ends, then the high bidder's."""
    said: dict[str, list[str]] = {}
    for state in playouts("da-san", hands=1):
        obs = state.observation(0)
        for m in get_game("da-san").presentation.board(obs, 3):
            if m["label"] == "board.kitty":
                said.setdefault(obs["phase"], []).append(m["key"])
    assert set(said["auction"]) == {"board.kitty.until_auction"}
    assert "board.kitty.until_auction" not in said["play"]


def test_the_session_view_carries_the_lines(tmp_path):
    from solver.sessions import SessionService, SessionStore

    svc = SessionService(SessionStore(str(tmp_path / "s.sqlite3")))
    _, view = svc.create("big-two", seed=3, bots="baseline")
    assert view["board_lines"] and view["board_lines"][-1]["label"] == "board.passes"
    assert view["role_lines"] == [[] for _ in range(4)]
    assert view["summary_lines"] is None
    assert all(e["key"] == "log.move" for e in view["log_lines"])
    assert len(view["log_lines"]) == len(view["observation"]["history"])


def test_the_game_won_sentence_says_the_api_english():
    game = get_game("da-bai-fen")
    said = []
    for seed in range(6):
        state = game.new_game(seed=seed, levels=["A", "A"])
        rng = random.Random(seed)
        while not state.is_terminal():
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        over = game.game_over(state)
        if over is not None:
            assert render(over) == over["text"]
            said.append(over["key"])
    assert said, "no hand from level A went past it"
