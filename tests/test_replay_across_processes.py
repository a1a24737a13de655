"""A deal played again meets the same bot moves whichever process serves it: the served stack
runs several workers (and restarts them), each with its own string-hash seed and BLAS threads,
so a bot that leaned on set or dict order of strings, or on a thread count, would play another
move there. The same session (seed, bots, the human's moves), played in two
fresh interpreters with different PYTHONHASHSEED and OPENBLAS_NUM_THREADS, must write the same
histories. (The deal played again in one process meets the same moves:
``test_bot_determinism.py``, ``test_phone_table_browser.py``.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r"""
import json, sys, tempfile
from solver.games import get_game
from solver.sessions.service import SessionService
from solver.sessions.store import SessionStore

out = {}
for game, bots in (("big-two", ["search", "net", "baseline"]), ("da-san", ["net", "greedy"]),
                   ("da-bai-fen", ["net", "greedy", "search-rollout"])):
    svc = SessionService(SessionStore(tempfile.mktemp(suffix=".sqlite3")))
    session, view = svc.create(game, seed=29, bots=bots)

    def play(view):  # the human: always the last legal move; the hand's history
        for _ in range(400):
            if view["terminal"]:
                return svc.store.load(session.token).state["doc"]["history"]
            moves = view["legal_moves"]
            if moves is None:
                state = get_game(game).from_json(svc.store.load(session.token).state["doc"])
                moves = [state.move_json(m) for m in state.legal_moves(view["seat"])]
            view = svc.move(session.token, moves[-1])
        raise AssertionError("the hand did not end")

    out[game] = play(view)
print(json.dumps(out))
"""


def _run(hash_seed: str, blas: str) -> dict:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "OPENBLAS_NUM_THREADS": blas}
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_same_session_plays_the_same_in_other_processes():
    first, second = _run("1", "1"), _run("2", "2")
    assert set(first) == {"big-two", "da-san", "da-bai-fen"}
    for game, history in first.items():
        assert any(h["player"] != 0 for h in history), game
        assert second[game] == history, game
