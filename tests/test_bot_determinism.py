"""Seeded search bots and advice are the same on every machine: with no time budget asked for,
the searches of Big Two, Da San and Da Bai Fen run a fixed number of worlds, so a slow or a
fast clock changes nothing, and a session's bots play the same moves for the same seed and
human moves (on another server, after a restart, and when a deal is replayed). A wall-clock
budget asked for explicitly still stops on the clock.

The clock is faked in ``solver.games.search`` only: each read of ``perf_counter`` moves it on
by a fixed step, so a wall-clock budget would stop after a known number of worlds."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest
from threadpoolctl import threadpool_limits

from solver.games import get_game
from solver.games import search as search_module
from solver.games.big_two import advise as big_two_advise
from solver.games.da_bai_fen import advise as dbf_advise
from solver.games.da_san import advise as da_san_advise
from solver.sessions.service import SessionService
from solver.sessions.store import SessionStore

GAMES = ("big-two", "da-san", "da-bai-fen")
MODULES = {"big-two": big_two_advise, "da-san": da_san_advise, "da-bai-fen": dbf_advise}
SEARCH_BOTS = ("search", "search-rollout")
SLOW, LOADED = 1.0, 0.01  # seconds the fake clock moves per read


@pytest.fixture(autouse=True, scope="module")
def one_blas_thread():
    """The networks' BLAS on one thread: on shared cores its other threads wait for a core
    and make every search several times slower (every run here uses the same setting)."""
    with threadpool_limits(limits=1, user_api="blas"):
        yield


def fake_clock(monkeypatch: pytest.MonkeyPatch, step: float) -> None:
    """Make every ``perf_counter`` read in the search ``step`` seconds later than the last."""
    now = [0.0]

    def perf_counter() -> float:
        now[0] += step
        return now[0]

    monkeypatch.setattr(search_module, "time", SimpleNamespace(perf_counter=perf_counter))


def strip(advice: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in advice.items() if k != "elapsed_ms"}


def searched_states(game: str, count: int) -> list[Any]:
    """States from random play where the search has a real choice (several candidates)."""
    info, out = get_game(game), []
    for seed in range(50):
        state = info.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(1, 30)):
            if state.is_terminal():
                break
            state.apply(rng.choice(list(state.legal_moves())))
        if not state.is_terminal() and len(state.legal_moves()) > 1 and MODULES[game].rank(
                state.observation(state.current_player), iterations=1, seed=0).iterations:
            out.append(state)
            if len(out) == count:
                return out
    raise AssertionError(f"{game}: too few positions with a choice")


def choices(game: str, states: list[Any]) -> list[Any]:
    """Default advice and every search bot's move for each state."""
    info, out = get_game(game), []
    for state in states:
        p = state.current_player
        obs, legal = state.observation(p), list(state.legal_moves())
        out.append(strip(info.advise(obs, seed=3)))
        for name in SEARCH_BOTS:
            out.append(state.move_json(info.bot(name)(obs, legal, random.Random(3))))
    return out


# ------------------------------------------------------------------ (a) the clock changes nothing
@pytest.mark.parametrize("game", GAMES)
def test_default_search_ignores_the_clock(game, monkeypatch):
    states = searched_states(game, 2)
    expected = choices(game, states)
    for step in (SLOW, LOADED):
        fake_clock(monkeypatch, step)
        assert choices(game, states) == expected, step
    advice = [a for a in expected if isinstance(a, dict) and "iterations" in a]
    assert {a["iterations"] for a in advice} == {MODULES[game].DEFAULT_ITERATIONS}


@pytest.mark.parametrize("game", GAMES)
def test_default_advice_over_http_is_the_python_default(game, client, monkeypatch):
    state = searched_states(game, 1)[0]
    obs = state.observation(state.current_player)
    expected = strip(get_game(game).advise(obs, seed=2))
    fake_clock(monkeypatch, SLOW)
    r = client.post(f"/v1/{game}/advise", json={"observation": obs, "seed": 2})
    assert r.status_code == 200, r.get_json()
    assert strip(r.get_json()) == expected
    assert expected["iterations"] == MODULES[game].DEFAULT_ITERATIONS


def test_the_rollout_search_has_its_own_default():
    for game in GAMES:
        state = searched_states(game, 1)[0]
        ranked = MODULES[game].rank_rollout(state.observation(state.current_player), seed=1)
        assert ranked.iterations in (0, MODULES[game].ROLLOUT_DEFAULT_ITERATIONS)


# ------------------------------------------------------------------ (b) sessions
def first_legal(service: SessionService, token: str, view: dict[str, Any]) -> Any:
    """The human's move: the first legal one (from the state when the list is too long)."""
    if view["legal_moves"] is not None:
        return view["legal_moves"][0]
    doc = service.store.load(token).state["doc"]
    state = get_game(view["game"]).from_json(doc)
    return state.move_json(state.legal_moves(view["seat"])[0])


def finish(service: SessionService, token: str, view: dict[str, Any]) -> list[Any]:
    """Play the human's first legal move until the hand ends; the hand's history."""
    for _ in range(500):
        if view["terminal"]:
            return service.store.load(token).state["doc"]["history"]
        view = service.move(token, first_legal(service, token, view))
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("game", GAMES)
def test_sessions_replay_the_same_bot_moves(game, tmp_path, monkeypatch):
    """One seed and the same human moves: the same hand on two servers (one on a slow
    clock), and again when the deal is replayed (on a loaded clock)."""
    players = get_game(game).new_game(seed=0).num_players
    bots = [SEARCH_BOTS[p % 2] for p in range(players - 1)]
    first = SessionService(SessionStore(str(tmp_path / "a.sqlite3")))
    session, view = first.create(game, seed=17, bots=bots)
    history = finish(first, session.token, view)
    assert any(h["player"] != 0 for h in history)

    fake_clock(monkeypatch, SLOW)
    other = SessionService(SessionStore(str(tmp_path / "b.sqlite3")))
    session_b, view_b = other.create(game, seed=17, bots=bots)
    assert finish(other, session_b.token, view_b) == history

    fake_clock(monkeypatch, LOADED)
    again = first.replay_deal(session.token, 1)
    assert again["replay_of"] == 1
    assert finish(first, session.token, again) == history


# ------------------------------------------------------------------ (c) a wall budget still works
@pytest.mark.parametrize("game", GAMES)
def test_an_explicit_wall_budget_stops_on_the_clock(game, client, monkeypatch):
    """The fake clock reads 0.25 s at the start and 0.25 s more at each check after a world:
    a budget of 1,000 ms stops after 4 worlds, on a slow clock after 1."""
    info, mod = get_game(game), MODULES[game]
    state = searched_states(game, 1)[0]
    obs, legal = state.observation(state.current_player), list(state.legal_moves())
    fake_clock(monkeypatch, 0.25)
    assert info.advise(obs, budget_ms=1000, seed=1)["iterations"] == 4
    assert mod.rank_rollout(obs, budget_ms=1000, seed=1).iterations == 4
    fake_clock(monkeypatch, SLOW)
    assert info.advise(obs, budget_ms=40, seed=1)["iterations"] == 1
    r = client.post(f"/v1/{game}/advise", json={"observation": obs, "budget_ms": 40})
    assert r.status_code == 200 and r.get_json()["iterations"] == 1, r.get_json()
    # iterations and a budget together: whichever ends first
    assert info.advise(obs, budget_ms=5000, iterations=2, seed=1)["iterations"] == 2

    seen: list[int] = []

    class Counted(mod.SearchBot):  # type: ignore[name-defined]
        def rank(self, *args: Any) -> Any:
            ranked = super().rank(*args)
            seen.append(ranked.iterations)
            return ranked

    Counted(budget_ms=40)(obs, legal, random.Random(1))
    assert seen == [1]
