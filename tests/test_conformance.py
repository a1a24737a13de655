"""Every registered game follows the contract of :mod:`solver.games.base`.

Random playouts with hypothesis-chosen seeds (and, where a game has them, options): every
listed move applies, legal moves are listed once each, a move with a card the seat does not
hold raises ``IllegalMoveError`` and changes nothing, ``clone()`` is independent,
``to_json``/``from_json`` round-trips at every step, replaying ``history`` gives the same
state, ``observation(p)`` (and what the game's presentation makes of it) never shows a card
of ``hidden_cards(p)``, ``from_view`` given the true hidden facts is the real state (every
seat sees the same, and it plays on to the same end), returns stay within
``utility_bounds`` and are zero-sum where the metadata says so. A new game that passes this
module can be played in sessions and searched.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.cards import cards_named, format_card
from solver.errors import IllegalMoveError
from solver.games import all_games, get_game, list_games, play_hand
from solver.games.base import TERMINAL, GameInfo, GameState

ROOT = Path(__file__).resolve().parents[1]
MAX_STEPS = 400
# Games whose engines do not yet implement the observation/document half of the contract:
# their contract tests are expected to fail with NotImplementedError (strict: once a game
# implements it, the test must pass and this entry must go).
PENDING: set[str] = set()


def _games(raises: type[Exception] | None = NotImplementedError) -> list:
    return [pytest.param(name, marks=pytest.mark.xfail(raises=raises, strict=True,
                                                       reason="contract pending"))
            if name in PENDING else name for name in list_games()]  # Da Bai Fen: draws, show, bury and 25 tricks of 4 plays stay below this


def _options(name: str, rng: random.Random) -> dict | None:
    """Random legal options of a game, from its registry metadata."""
    info = get_game(name)
    out = {}
    for opt in info.options:
        if opt.choices:
            out[opt.name] = rng.choice(opt.choices)
        elif isinstance(opt.default, bool):
            out[opt.name] = rng.random() < 0.5
        elif opt.minimum is not None and opt.maximum is not None:
            out[opt.name] = rng.randint(opt.minimum, opt.maximum)
    return out or None




def _check_observations(state, info: GameInfo | None = None) -> None:
    for p in range(state.num_players):
        obs = state.observation(p)
        text = json.dumps(obs)  # JSON-ready
        assert json.loads(text) == obs
        leaked = cards_named(obs) & state.hidden_cards(p)
        assert not leaked, f"seat {p} sees hidden {[format_card(c) for c in leaked]}"
        if info is not None:
            pres = info.presentation
            shown = {"own": pres.own_cards(obs), "roles": pres.seat_roles(obs, state.num_players),
                     "summary": pres.summary(obs) if pres.summary else None,
                     "leftovers": pres.leftovers(obs),
                     "board": pres.board(obs, state.num_players), "log": pres.log(obs),
                     "role_lines": pres.roles(obs, state.num_players),
                     "settlement": pres.settlement(obs) if pres.settlement else None}
            assert json.loads(json.dumps(shown)) == shown
            assert len(shown["roles"]) == state.num_players
            assert not cards_named(shown) & state.hidden_cards(p)


def _key(doc) -> str:
    """One spelling of a move document whatever the order of its cards."""
    return json.dumps({k: sorted(v) if isinstance(v, list) else v for k, v in doc.items()},
                      sort_keys=True)


MOVES_COMPARED = 200  # a Capsa seat has ~20,000 splits: the first ones stand for the list


def _move_keys(state, player: int) -> tuple[int, set[str]]:
    moves = state.legal_moves(player)
    return len(moves), {_key(state.move_json(m)) for m in moves[:MOVES_COMPARED]}


def _check_unique_moves(state, every: bool) -> None:
    """No move is offered twice (by its JSON spelling): every move when ``every``, else the
    first 2,000 (a Capsa seat has ~20,000 splits: spelling them all once a hand is enough)."""
    for p in state.players_to_act():
        moves = state.legal_moves(p)
        docs = [_key(state.move_json(m)) for m in (moves if every else moves[:2000])]
        assert len(set(docs)) == len(docs), f"seat {p} is offered a move twice"


def _check_illegal_move(state, rng: random.Random) -> None:
    """A legal move with one of its cards swapped for a card the seat does not hold (of the
    same rank when there is one, so that it still looks like a combination) is refused."""
    p = state.current_player
    hidden = sorted(state.hidden_cards(p))
    if not hidden:
        return
    legal = state.legal_moves(p)
    # a move drawn uniformly among those with cards: drawn from all of them until one has
    # cards (nearly every move has), which builds a few moves instead of a Capsa seat's
    # ~20,000 splits; the whole list only when a few draws find none
    move = next((m for m in (legal[rng.randrange(len(legal))] for _ in range(20) if legal)
                 if getattr(m, "cards", ())), None)
    if move is None:
        moves = [m for m in legal if getattr(m, "cards", ())]
        if not moves:
            return
        move = moves[rng.randrange(len(moves))]
    doc = state.move_json(move)
    old = rng.choice(doc["cards"])
    same_rank = [c for c in hidden if format_card(c)[0] == old[0]]
    new = format_card(rng.choice(same_rank or hidden))
    bad = {k: [new if x == old else x for x in v] if isinstance(v, list) else v
           for k, v in doc.items()}
    before = state.to_json()
    with pytest.raises(IllegalMoveError):
        state.apply(state.parse_move(bad))
    assert state.to_json() == before, "a refused move changed the state"


def _same_state(twin: GameState, state: GameState) -> None:
    """``twin`` is ``state`` as far as any seat can tell: the same seat to act, the same
    view and hidden cards for every seat, the same legal moves."""
    assert twin.current_player == state.current_player
    assert twin.players_to_act() == state.players_to_act()
    assert twin.is_terminal() == state.is_terminal() and twin.returns() == state.returns()
    for q in range(state.num_players):
        assert twin.observation(q) == state.observation(q), f"seat {q} sees another state"
        assert twin.hidden_cards(q) == state.hidden_cards(q)
    for q in state.players_to_act():
        assert _move_keys(twin, q) == _move_keys(state, q)


def _check_from_view(info: GameInfo, state: GameState, rng: random.Random, play_on: bool) -> None:
    for p in state.players_to_act():
        hidden = info.hidden_of(state, p)
        assert json.loads(json.dumps(hidden)) == hidden
        twin = info.from_view(json.loads(json.dumps(state.observation(p))), hidden)
        _same_state(twin, state)
    if not play_on:
        return
    real = state.clone()
    while not real.is_terminal():  # both play on with the same moves to the same end
        move = _pick(real, rng)
        real.apply(move)
        twin.apply(twin.parse_move(json.loads(json.dumps(real.move_json(move)))))
        _same_state(twin, real)
    assert twin.returns() == real.returns()


def _pick(state, rng: random.Random):
    moves = state.legal_moves()
    assert len(moves) > 0, "a seat to act has no legal move"
    return moves[rng.randrange(len(moves))]


@pytest.mark.parametrize("name", _games())
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playout_follows_the_contract(name, seed):
    info = get_game(name)
    rng = random.Random(seed)
    state = info.new_game(seed=seed, rules=_options(name, rng))
    lo, hi = info.players
    assert lo <= state.num_players <= hi
    steps = 0
    check_every = 1 if name != "da-bai-fen" else 7
    play_on_at = rng.randrange(3)  # one check per hand plays the rebuilt state to its end
    while not state.is_terminal():
        assert state.current_player != TERMINAL
        assert state.current_player in state.players_to_act()
        assert state.returns() == [0.0] * state.num_players
        if steps % check_every == 0:
            _check_observations(state, info)
            _check_unique_moves(state, every=steps == 0)
            _check_illegal_move(state, rng)
            _check_from_view(info, state, rng, play_on=steps // check_every == play_on_at)
            doc = state.to_json()
            assert json.loads(json.dumps(doc)) == doc
            again = info.from_json(doc)
            assert again.to_json() == doc
            assert again.current_player == state.current_player
        before = state.to_json()
        twin = state.clone()
        move = _pick(state, rng)
        state.apply(move)
        assert twin.to_json() == before, "clone() shares state with the original"
        assert len(state.history) == len(twin.history) + 1
        steps += 1
        assert steps < MAX_STEPS
    assert state.current_player == TERMINAL
    assert state.players_to_act() == []
    assert len(state.legal_moves()) == 0
    _check_observations(state, info)
    final = state.to_json()
    lo, hi = info.utility_bounds(final["rules"])
    assert all(lo <= r <= hi for r in state.returns()), (state.returns(), (lo, hi))
    move = state.move_json(state.history[-1][1])
    with pytest.raises(IllegalMoveError):  # nothing may be played once the hand is over
        state.apply(state.parse_move(move))
    replayed = info.from_json(final)
    assert replayed.is_terminal() and replayed.returns() == state.returns()
    # replaying the history move by move from the same seed gives the same hand
    fresh = info.new_game(seed=seed, rules=final["rules"])
    assert fresh.to_json()["deal"] == final["deal"]
    for player, move in state.history:
        assert fresh.current_player == player
        fresh.apply(fresh.parse_move(json.loads(json.dumps(state.move_json(move)))))
    assert fresh.to_json() == final and fresh.returns() == state.returns()
    if info.zero_sum:
        assert sum(state.returns()) == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("name", list_games())
def test_registry_metadata(name):
    info = get_game(name)
    assert info.name == name and info.title
    lo, hi = info.players
    assert 1 <= lo <= hi <= 4
    assert info.bots, "every game ships at least one bot"
    # what sessions and searches ask of every game
    assert info.from_view is not None and info.hidden_of is not None
    lo, hi = info.utility_bounds(None)
    assert lo < hi and (not info.zero_sum or lo <= 0 <= hi)
    assert info.presentation.name
    for opt in info.options:
        assert opt.name and opt.help
        if opt.choices:
            assert opt.default in opt.choices


@pytest.mark.parametrize("name", _games(raises=None))  # old bots: not yet (obs, moves, rng)
def test_bots_play_a_hand_from_observations(name):
    info = get_game(name)
    for bot_name in info.bots:
        state = info.new_game(seed=11)
        bots = [info.bot(bot_name) for _ in range(state.num_players)]
        play_hand(state, bots, seed=11)
        assert state.is_terminal()


def test_unknown_game_names_the_known_ones():
    with pytest.raises(ValueError, match="unknown game 'chess'; one of big-two, capsa"):
        get_game("chess")


def test_every_game_loads():
    assert [g.name for g in all_games()] == list_games()


def _modules() -> list[str]:
    out = []
    for path in sorted((ROOT / "solver").rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__main__":
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out.append(".".join(parts))
    for path in sorted((ROOT / "api").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out.append(".".join(parts))
    return out


# Modules allowed to load numba: kernels and what builds on them.
NUMBA_OK = ("solver._jit", "solver.games.capsa", "solver.games.big_two", "solver.cli",
            "solver.batch", "solver.warmup", "solver.executors", "api")


# A fresh interpreter per module costs its start, numpy and numba each time (a minute for the
# whole tree). Instead one small server per test process forks a child per module from an
# interpreter that holds only third-party packages (numpy; numba too for the modules allowed
# it), so each child imports the project's modules alone, as a fresh interpreter would.
_IMPORT_SERVER = r"""
import importlib, json, os, sys, traceback
import numpy
if sys.argv[1] == "numba":
    import numba
for line in sys.stdin:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            importlib.import_module(line.strip())
            msg = [0, "", "numba" in sys.modules]
        except BaseException:
            msg = [1, traceback.format_exc()[-1500:], False]
        os.write(w, json.dumps(msg).encode())
        os._exit(0)
    os.close(w)
    data = b""
    while chunk := os.read(r, 65536):
        data += chunk
    os.close(r)
    _, status = os.waitpid(pid, 0)
    print(data.decode() or json.dumps([status or 1, "the import killed its process", False]),
          flush=True)
"""


@pytest.fixture(scope="module")
def import_servers():
    servers: dict[str, subprocess.Popen] = {}

    def start(kind: str) -> subprocess.Popen:
        if kind not in servers:
            servers[kind] = subprocess.Popen(
                [sys.executable, "-c", _IMPORT_SERVER, kind], cwd=ROOT, text=True,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        return servers[kind]

    yield start
    for proc in servers.values():
        proc.stdin.close()
        proc.wait(timeout=30)


def _import_alone(start, module: str, kind: str) -> tuple[int, str, bool]:
    proc = start(kind)
    proc.stdin.write(module + "\n")
    proc.stdin.flush()
    code, err, numba = json.loads(proc.stdout.readline())
    return code, err, numba


# Modules that must not load numba even though they sit under a package that may.
NUMBA_NEVER = ("solver", "solver.games", "solver.games.da_san", "solver.games.da_bai_fen")


@pytest.mark.parametrize("module", _modules())
def test_module_imports_alone_and_numba_stays_where_kernels_are(module, import_servers):
    """Each module imports on its own in an interpreter that holds none of the project (an
    import cycle fails there), and only kernel modules and what builds on them load numba. One
    test a module, so the test processes share them out."""
    allowed = module.startswith(NUMBA_OK) and module not in NUMBA_NEVER
    code, err, numba = _import_alone(import_servers, module, "numba" if allowed else "plain")
    assert code == 0, err
    assert allowed or not numba, f"{module} loads numba"
