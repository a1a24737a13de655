"""Self-play training of a value network by deep Monte Carlo, for any game that plugs in.

Every seat is the current network, playing its best ``Q`` except with probability
``epsilon`` a uniform legal option. Each decision with a choice is recorded (the features of
what the seat saw and of the option it took); when the hand ends each record's target is its
seat's final points. After every block of ``block_games`` hands the network takes Adam steps
on that block's records (minibatches, mean squared error), and the next block plays with the
new weights. A game supplies a :class:`SelfPlay`: its network class and a function that plays
one hand from a seed (module-level, so worker processes can import it).

Deterministic for a seed: hand ``g`` is dealt and explored from ``(seed, g)``, and a
checkpoint written at a block boundary (weights, Adam moments, hands done) resumes to the
same file as an unbroken run (on the same machine: float sums follow its BLAS). A run whose
``games`` is not a multiple of ``block_games`` ends on a short block; extending it later
trains on from there (blocks realign) but is not the same as an unbroken longer run.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solver.errors import InputError
from solver.games.valuenet import ValueNet
from solver.npzfile import BAD_FILE_ERRORS, write_arrays

__all__ = ["Adam", "SelfPlay", "TrainConfig", "backward", "gradients", "hand_records", "train"]

#: One hand of self-play: (state rows, move rows, targets in network units).
Hand = tuple[np.ndarray, np.ndarray, np.ndarray]


@dataclass(frozen=True)
class TrainConfig:
    """The knobs of a run (all recorded in the file it makes)."""

    games: int = 200_000
    seed: int = 2026
    block_games: int = 16
    batch: int = 256
    epochs: int = 1
    lr: float = 3e-4
    epsilon: float = 0.03
    hidden: tuple[int, ...] = (256, 256, 128)
    #: a network file to start from instead of random weights (its layers replace
    #: ``hidden``): fine-tuning, e.g. the shipped network against a population
    init: str = ""

    def check(self) -> None:
        if self.games < 1 or self.block_games < 1 or self.batch < 1 or self.epochs < 1:
            raise InputError("games, block_games, batch and epochs must be at least 1")
        if not 0.0 <= self.epsilon < 1.0 or not 0.0 < self.lr < 1.0:
            raise InputError("epsilon must be in [0, 1) and lr in (0, 1)")


@dataclass(frozen=True)
class SelfPlay:
    """What a game gives the trainer: its network class, how to play one training hand
    (``play_hand(net, hand_seed, epsilon)``) and the name of its checkpoint format."""

    net: type[ValueNet]
    play_hand: Callable[[Any, int, float], Hand]
    checkpoint_format: str


def hand_records(states: list[np.ndarray], moves: list[np.ndarray], seats: list[int],
                 returns: list[float], point_scale: float) -> Hand:
    """A finished hand's records: each decision's state and move rows, and as its target the
    deciding seat's final points in network units."""
    y = np.array([returns[p] / point_scale for p in seats], np.float32)
    if not states:
        return np.zeros((0, 0), np.float32), np.zeros((0, 0), np.float32), y
    return np.stack(states), np.stack(moves), y


class Adam:
    """Adam over a network's weights and biases (moments kept for checkpoints)."""

    def __init__(self, net: ValueNet, lr: float, b1: float = 0.9, b2: float = 0.999,
                 eps: float = 1e-8):
        self.lr, self.b1, self.b2, self.eps = lr, b1, b2, eps
        self.params = net.weights + net.biases
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t = 0

    def step(self, grads: list[np.ndarray]) -> None:
        self.t += 1
        c1 = 1 - self.b1 ** self.t
        c2 = 1 - self.b2 ** self.t
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= self.b1
            m += (1 - self.b1) * g
            v *= self.b2
            v += (1 - self.b2) * g * g
            p -= (self.lr / c1) * m / (np.sqrt(v / c2) + self.eps)


def gradients(net: ValueNet, x: np.ndarray, y: np.ndarray) -> tuple[float, list[np.ndarray]]:
    """Mean squared error (network units) and its gradients, weights then biases."""
    acts = [x]
    h = x
    for w, b in zip(net.weights[:-1], net.biases[:-1]):
        h = np.maximum(h @ w + b, 0.0)
        acts.append(h)
    out = (h @ net.weights[-1] + net.biases[-1])[:, 0]
    err = out - y
    loss = float(np.mean(err * err))
    return loss, backward(net.weights, acts, (2.0 / len(y)) * err[:, None].astype(np.float32))


def backward(weights: list[np.ndarray], acts: list[np.ndarray], d: np.ndarray
             ) -> list[np.ndarray]:
    """Gradients of a ReLU MLP (weights, then biases) from the loss's gradient ``d`` at the
    output and each layer's input ``acts`` of the forward pass."""
    gw: list[np.ndarray] = [np.empty(0)] * len(weights)
    gb: list[np.ndarray] = [np.empty(0)] * len(weights)
    for i in range(len(weights) - 1, -1, -1):
        gw[i] = acts[i].T @ d
        gb[i] = d.sum(axis=0)
        if i:
            d = (d @ weights[i].T) * (acts[i] > 0)
    return gw + gb


def _save_checkpoint(game: SelfPlay, path: Path, net: ValueNet, opt: Adam, done: int,
                     cfg: TrainConfig, losses: list[float]) -> None:
    arrays = {f"p{i}": p for i, p in enumerate(opt.params)}
    arrays.update({f"m{i}": m for i, m in enumerate(opt.m)})
    arrays.update({f"v{i}": v for i, v in enumerate(opt.v)})
    write_arrays(path, arrays, {"format": game.checkpoint_format, "done": done, "t": opt.t,
                                "config": asdict(cfg), "losses": losses[-2000:],
                                "layers": len(net.weights)})


def _load_checkpoint(game: SelfPlay, path: Path, cfg: TrainConfig
                     ) -> tuple[ValueNet, Adam, int, list[float]]:
    try:
        return _read_checkpoint(game, path, cfg)
    except InputError:
        raise
    except BAD_FILE_ERRORS as exc:
        raise InputError(f"{path.name}: not a readable {game.net.GAME} training checkpoint "
                         f"({exc})") from None


def _read_checkpoint(game: SelfPlay, path: Path, cfg: TrainConfig
                     ) -> tuple[ValueNet, Adam, int, list[float]]:
    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(str(z["meta"]))
        if meta.get("format") != game.checkpoint_format:
            raise InputError(f"{path.name}: not a {game.net.GAME} training checkpoint")
        want = {k: v for k, v in asdict(cfg).items() if k != "games"}
        # a setting added after the checkpoint was written has its default there
        have = {k: v for k, v in {**asdict(TrainConfig()), **meta["config"]}.items()
                if k != "games"}
        have["hidden"] = tuple(have["hidden"])
        if want != have:
            diff = ", ".join(sorted(k for k in want if want[k] != have.get(k)))
            raise InputError(f"{path.name} was started with other settings ({diff}); "
                             f"use the same ones or another checkpoint")
        n = meta["layers"]
        params = [z[f"p{i}"] for i in range(2 * n)]
        net = game.net(params[:n], params[n:], {})
        opt = Adam(net, cfg.lr)
        opt.m = [z[f"m{i}"] for i in range(2 * n)]
        opt.v = [z[f"v{i}"] for i in range(2 * n)]
        opt.t = int(meta["t"])
    return net, opt, int(meta["done"]), list(meta["losses"])


def _play_games(task: tuple[SelfPlay, list[np.ndarray], list[np.ndarray], list[int], float]
                ) -> list[Hand]:
    """Worker side: the hands of ``seeds`` with the block's weights."""
    game, weights, biases, seeds, epsilon = task
    net = game.net(weights, biases, {})
    return [game.play_hand(net, g, epsilon) for g in seeds]


def _block(game: SelfPlay, net: ValueNet, seeds: list[int], epsilon: float, pool: Executor,
           workers: int) -> list[Hand]:
    """A block's hands, in seed order whatever the number of workers."""
    if workers <= 1:
        return [game.play_hand(net, g, epsilon) for g in seeds]
    size = -(-len(seeds) // workers)
    tasks = [(game, net.weights, net.biases, seeds[k:k + size], epsilon)
             for k in range(0, len(seeds), size)]
    return [hand for part in pool.map(_play_games, tasks) for hand in part]


def train(game: SelfPlay, out: str | Path, cfg: TrainConfig = TrainConfig(),
          checkpoint: str | Path | None = None, checkpoint_every: int = 2_000,
          command: str = "", progress: Callable[[int, int, float, float], None] | None = None,
          workers: int = 1) -> ValueNet:
    """Train ``game``'s network to ``cfg.games`` hands and write the network file ``out``.

    With ``checkpoint`` the run resumes from it when it exists and rewrites it every
    ``checkpoint_every`` hands (rounded to blocks). ``progress(done, total, loss,
    seconds)`` is called after every block. ``workers`` processes play each block's hands
    (the result does not depend on how many).
    """
    from solver.executors.pool import local_executor  # here: a game loads no executor
    cfg.check()
    with local_executor(workers) as pool:
        return _train(game, Path(out), cfg, checkpoint, checkpoint_every, command, progress,
                      pool, workers)


def _train(game: SelfPlay, out: Path, cfg: TrainConfig, checkpoint: str | Path | None,
           checkpoint_every: int, command: str,
           progress: Callable[[int, int, float, float], None] | None, pool: Executor,
           workers: int) -> ValueNet:
    ck = Path(checkpoint) if checkpoint else None
    if ck is not None and ck.exists():
        net, opt, done, losses = _load_checkpoint(game, ck, cfg)
    elif cfg.init:
        net = game.net.load(cfg.init)
        opt, done, losses = Adam(net, cfg.lr), 0, []
    else:
        net = game.net.initial(cfg.seed, cfg.hidden)
        opt, done, losses = Adam(net, cfg.lr), 0, []
    every = max(cfg.block_games, checkpoint_every // cfg.block_games * cfg.block_games)
    start = time.perf_counter()
    while done < cfg.games:
        # blocks stay aligned to multiples of block_games, also after a run that stopped
        # mid-block (its last block was short) was extended
        block = min(cfg.block_games - done % cfg.block_games, cfg.games - done)
        xs, ys = [], []
        seeds = [cfg.seed * 1_000_003 + g for g in range(done, done + block)]
        for s, m, y in _block(game, net, seeds, cfg.epsilon, pool, workers):
            if len(y):
                xs.append(np.concatenate([s, m], axis=1))
                ys.append(y)
        saved_before = done // every
        done += block
        if xs:
            x, y = np.concatenate(xs), np.concatenate(ys)
            order = np.random.default_rng([cfg.seed, done]).permutation(len(y))
            block_loss = []
            for _ in range(cfg.epochs):
                for k in range(0, len(y), cfg.batch):
                    idx = order[k:k + cfg.batch]
                    loss, grads = gradients(net, x[idx], y[idx])
                    opt.step(grads)
                    block_loss.append(loss)
            losses.append(float(np.mean(block_loss)))
        if ck is not None and (done // every > saved_before or done >= cfg.games):
            _save_checkpoint(game, ck, net, opt, done, cfg, losses)
        if progress is not None:
            progress(done, cfg.games, losses[-1] if losses else float("nan"),
                     time.perf_counter() - start)
    net.meta = {"config": asdict(cfg), "games": done, "command": command,
                "final_loss": float(np.mean(losses[-50:])) if losses else None}
    net.save(out)
    return game.net.load(out)
