"""What every game's value network shares (Big Two, Da San, Da Bai Fen): its file format and
the files it refuses, the shipped network's record of how it was made, the self-play trainer's
determinism and resume, the ``capsa train-bot`` command, and deterministic advice. What is a
game's own (its features, its decisions, its bots) stays in ``test_<game>_net.py``."""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cli import main
from solver.errors import InputError
from solver.games import dmc, get_game


@dataclass(frozen=True)
class NetGame:
    key: str  # the registry's name
    label: str  # as messages name it
    package: str  # solver.games.<package>
    net_class: str  # the network's class in its net module
    tiny_games: int  # a tiny training run: hands, and hands a block
    block: int
    advice_steps: int  # random moves before the advice's decision, and its worlds
    advice_iterations: int
    bots: frozenset[str]

    def module(self, name: str) -> ModuleType:
        return importlib.import_module(f"solver.games.{self.package}.{name}")

    @property
    def net(self) -> ModuleType:
        return self.module("net")

    def initial(self, seed: int, hidden: tuple[int, ...]) -> Any:
        return getattr(self.net, self.net_class).initial(seed=seed, hidden=hidden)

    def tiny(self, **changes: Any) -> dmc.TrainConfig:
        return dmc.TrainConfig(**{"games": self.tiny_games, "block_games": self.block,
                                  "batch": 64, "hidden": (16, 8), **changes})

    def train(self, out, cfg, **kw):
        return dmc.train(self.module("train").SELF_PLAY, out, cfg, **kw)

    def played(self, seed: int, steps: int, rules: dict | None = None):
        """A hand ``steps`` random moves in."""
        state = get_game(self.key).new_game(seed=seed, rules=rules)
        rng = random.Random(seed)
        for _ in range(steps):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_moves()))
        return state


GAMES = {g.key: g for g in (
    NetGame("big-two", "Big Two", "big_two", "QNet", 24, 8, 2, 5,
            frozenset({"search", "net", "search-rollout", "baseline"})),
    NetGame("da-san", "Da San", "da_san", "DaSanNet", 24, 8, 3, 3,
            frozenset({"search", "net", "search-rollout", "greedy"})),
    NetGame("da-bai-fen", "Da Bai Fen", "da_bai_fen", "DaBaiFenNet", 12, 4, 20, 2,
            frozenset({"search", "net", "search-rollout", "greedy"})),
)}
#: each game's neighbour: whose files and checkpoints it must refuse
OTHER = {"big-two": "da-san", "da-san": "da-bai-fen", "da-bai-fen": "big-two"}

games = pytest.mark.parametrize("game", list(GAMES.values()), ids=list(GAMES))


def _same_weights(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a.weights + a.biases, b.weights + b.biases))


@games
def test_save_load_round_trip(game: NetGame, tmp_path) -> None:
    n = game.net
    net = game.initial(3, (8, 4))
    net.meta["command"] = "test"
    net.save(tmp_path / "n.npz")
    back = n.load(tmp_path / "n.npz")
    assert back.meta["format"] == n.FORMAT and back.meta["command"] == "test"
    assert _same_weights(net, back)
    s = np.zeros(n.STATE_FEATURES, np.float32)
    m = np.eye(3, n.MOVE_FEATURES, dtype=np.float32)
    assert np.array_equal(net.q(s, m), back.q(s, m))
    assert not list(tmp_path.glob("*.part"))


@games
def test_bad_and_foreign_files_are_refused_by_name(game: NetGame, tmp_path) -> None:
    n, other = game.net, GAMES[OTHER[game.key]]
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    (tmp_path / "empty.npz").write_bytes(b"")
    net = game.initial(0, (4,))
    net.save(tmp_path / "n.npz")
    data = (tmp_path / "n.npz").read_bytes()
    (tmp_path / "cut.npz").write_bytes(data[: len(data) // 2])
    for name in ("junk.npz", "empty.npz", "cut.npz"):
        with pytest.raises(InputError, match=f"{name}: not a {game.label} network file"):
            n.load(tmp_path / name)
    other.initial(0, (4,)).save(tmp_path / "other.npz")
    with pytest.raises(InputError, match=f"other.npz: format '{other.net.FORMAT}'"):
        n.load(tmp_path / "other.npz")


@games
def test_shipped_network_records_how_it_was_made(game: NetGame) -> None:
    n = game.net
    net = n.load(n.DEFAULT_NET)
    assert net.meta["command"].startswith(f"capsa train-bot {game.key}")
    assert net.meta["games"] >= 1 and "seed" in net.meta["config"]
    assert n.DEFAULT_NET.stat().st_size < 2_500_000


@games
def test_training_is_deterministic_resumes_and_ignores_the_workers(game: NetGame,
                                                                   tmp_path) -> None:
    cfg = game.tiny()
    a = game.train(tmp_path / "a.npz", cfg)
    assert _same_weights(a, game.train(tmp_path / "b.npz", cfg))
    half = game.tiny(games=game.tiny_games - game.block)
    ck = tmp_path / "ck.npz"
    game.train(tmp_path / "c.npz", half, checkpoint=ck, checkpoint_every=game.block)
    c = game.train(tmp_path / "c.npz", cfg, checkpoint=ck, checkpoint_every=game.block)
    assert c.meta["games"] == game.tiny_games and _same_weights(a, c)
    assert _same_weights(a, game.train(tmp_path / "w.npz", cfg, workers=2))
    with pytest.raises(InputError, match="other settings"):
        game.train(tmp_path / "d.npz", game.tiny(lr=1e-3), checkpoint=ck)


@games
def test_extending_a_run_that_stopped_mid_block_realigns_its_blocks(game: NetGame,
                                                                    tmp_path) -> None:
    ck = tmp_path / "ck.npz"
    game.train(tmp_path / "a.npz", game.tiny(games=game.block + game.block // 2),
               checkpoint=ck, checkpoint_every=game.block)
    longer = game.train(tmp_path / "a.npz", game.tiny(games=5 * game.block), checkpoint=ck,
                        checkpoint_every=game.block)
    assert longer.meta["games"] == 5 * game.block


@games
def test_cli_trains_a_tiny_file_and_names_bad_input(game: NetGame, tmp_path, capsys) -> None:
    out, n = tmp_path / "net.npz", game.block
    assert main(["train-bot", game.key, "-o", str(out), "--games", str(n),
                 "--no-progress"]) == 0
    net = game.net.load(out)
    assert net.meta["games"] == n
    # recorded without what does not change the result, and with the output's name only
    assert net.meta["command"] == f"capsa train-bot {game.key} -o net.npz --games {n}"
    assert (tmp_path / "net-train.npz").exists()
    main(["train-bot", game.key, "--output", str(tmp_path / "b.npz"), f"--games={n}",
          "--checkpoint", str(tmp_path / "ck.npz"), "--workers=1", "--no-progress"])
    assert game.net.load(tmp_path / "b.npz").meta["command"] == \
        f"capsa train-bot {game.key} --output b.npz --games={n}"
    other = GAMES[OTHER[game.key]]
    assert main(["train-bot", other.key, "-o", str(out), "--games", str(n),
                 "--no-progress"]) == 2
    assert f"net-train.npz: not a {other.label} training checkpoint" in capsys.readouterr().err
    assert main(["train-bot", game.key, "-o", str(out), "--epsilon", "1.5"]) == 2
    assert "--epsilon must be" in capsys.readouterr().err
    assert main(["train-bot", game.key, "-o", str(tmp_path / "no" / "n.npz")]) == 2
    assert "is not a directory" in capsys.readouterr().err
    (tmp_path / "bad-train.npz").write_bytes(b"junk")
    assert main(["train-bot", game.key, "-o", str(tmp_path / "bad.npz"), "--games", "8"]) == 2
    assert f"bad-train.npz: not a readable {game.label} training checkpoint" in \
        capsys.readouterr().err


@games
def test_advice_is_deterministic_reports_q_and_checks_its_options(game: NetGame) -> None:
    advise = game.module("advise")
    state = game.played(9, game.advice_steps)
    obs = state.observation(state.current_player)
    k = game.advice_iterations
    a, b = advise.advise(obs, iterations=k, seed=3), advise.advise(obs, iterations=k, seed=3)
    a.pop("elapsed_ms"), b.pop("elapsed_ms")
    assert a == b
    assert len(a["q"]) == len(a["moves"]) and "network" in a["method"]
    with pytest.raises(InputError, match="width must be"):
        advise.rank(obs, iterations=2, seed=1, width=0)


@games
def test_registry_offers_the_net_bots(game: NetGame) -> None:
    assert game.bots <= set(get_game(game.key).bots)


@games
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_net_bot_moves_are_legal_and_agree_on_both_paths(game, seed, steps):
    """The network's bot picks a legal move, the same by its fast state path
    (``choose_play``) as through the contract (observation and legal moves)."""
    state = game.played(seed, steps)
    if state.is_terminal():
        return
    bot = game.net.NetBot(game.net.default_net())
    fast = bot.choose_play(state)
    legal = state.legal_moves()
    assert fast in legal
    assert bot(state.observation(state.current_player), legal, random.Random(0)) == fast
