"""Big Two beliefs: where the unseen cards are, read from what the others played and passed.

The search deals the cards it cannot see at random, as if a seat that passed on a 9 were as
likely to hold three aces as one that led a low pair; dealt the true hands instead it would
hold a network to 11.7% of the wins instead of 20.4% (docs/research/matches.md). Scoring each
sampled world by the network's policy over the others' past decisions costs a full network
pass a decision a world, too much to read far (:mod:`solver.games.big_two.infer`). Here a
small network reads the public record once per decision to advise and says, for every unseen
card, how likely each other seat (or, with two or three players, the cards set aside) holds
it; worlds are then dealt from those odds in the seats' counts (:func:`belief_sampler`).

Features (all 0/1, so stored as bits): the value network's view of the state (hand, each
seat's played cards, unseen cards, counts, the play to beat, passes, rules) and, for each
other seat by position, the cards of the plays it passed on and the cards it played, each
split by kind (single, pair, triple, five cards). Output: 52 x 4 logits, the classes the
next, second and third seat and "set aside"; classes that cannot hold a card (no such seat,
no cards left, nothing set aside) are masked out.

Training data is the record of hands played by a population of players (the shipped
network, the population-trained one, the baseline and hand-made styles, with a share of
random moves), labelled with the true hands (:func:`generate`); the fit is plain
cross-entropy (:func:`train`). Nothing hidden enters the features, so a world dealt from
the beliefs is consistent with the observation as a uniform one is.

>>> import random
>>> from solver.games.big_two.engine import new_game
>>> from solver.games.big_two.view import View
>>> state = new_game(seed=5)
>>> view = View(state.observation(state.current_player))
>>> sample = belief_sampler(BeliefNet.initial(seed=0), view)
>>> world = sample(view, random.Random(1))
>>> world.hand_mask(view.seat) == view.mine
True
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from solver.cards import NUM_CARDS
from solver.errors import InputError
from solver.games.big_two.engine import BigTwoState, deal
from solver.games.big_two.moves import PASS, Move
from solver.games.big_two.net import (
    STATE_FEATURES,
    Seen,
    seen_from_state,
    seen_from_view,
    state_features,
)
from solver.games.big_two.view import View
from solver.games.valuenet import he_layers, read_layers
from solver.npzfile import BAD_FILE_ERRORS, write_arrays

__all__ = ["BELIEF_FORMAT", "BeliefNet", "Beliefs", "DEFAULT_BELIEF", "belief_features", "belief_sampler",
           "card_odds", "default_belief", "generate", "train"]

BELIEF_FORMAT = "capsa-big-two-belief/1"
DATA_FORMAT = "capsa-big-two-belief-data/1"
DEFAULT_BELIEF = Path(__file__).resolve().parent / "data" / "belief.npz"
CLASSES = 4            # the next, second and third seat; set aside
GROUPS = 4             # single, pair, triple, five cards
HISTORY_FEATURES = 3 * 2 * GROUPS * NUM_CARDS
FEATURES = STATE_FEATURES + HISTORY_FEATURES
HIDDEN = (256, 256)
ASIDE = 3


def _group(kind: int) -> int:
    return min(kind, 4) - 1


def history_features(seat: int, n: int, history: Sequence[tuple[int, Move]]) -> np.ndarray:
    """For each other seat by position: the cards of the plays it passed on, and of the plays
    it made, by kind group (0/1, :data:`HISTORY_FEATURES` wide)."""
    passed = np.zeros((3, GROUPS), np.int64)
    played = np.zeros((3, GROUPS), np.int64)
    current: Move | None = None
    passes = 0
    for p, m in history:
        r = (p - seat) % n - 1
        if m.mask == 0:
            if current is not None and r >= 0:
                passed[r, _group(int(current.kind))] |= current.mask
            passes += 1
            if passes >= n - 1:
                current, passes = None, 0
        else:
            if r >= 0:
                played[r, _group(int(m.kind))] |= m.mask
            current, passes = m, 0
    masks = np.concatenate([passed, played], axis=1).ravel().astype(np.uint64)
    bits = (masks[:, None] >> np.arange(NUM_CARDS, dtype=np.uint64)[None, :]) & np.uint64(1)
    return bits.astype(np.float32).ravel()


def belief_features(seen: Seen) -> np.ndarray:
    """What the belief network reads (float32 0/1, :data:`FEATURES` wide)."""
    return np.concatenate([state_features(seen), history_features(seen.seat, seen.n, seen.history)])


_CARD_BITS = np.arange(NUM_CARDS)


def _bits(mask: int) -> np.ndarray:
    """The 52 cards of a Big Two mask, as booleans."""
    return ((mask >> _CARD_BITS) & 1).astype(bool)


def _known(seen: Seen) -> int:
    """The cards ``seen``'s seat can see: its hand and every card played."""
    known = seen.mine
    for played in seen.played:
        known |= played
    return known


def class_counts(seen: Seen) -> list[int]:
    """Cards each class holds: the next, second and third seat's counts, and the rest of
    the unseen cards (set aside with two or three players)."""
    out = [int(seen.counts[(seen.seat + r) % seen.n]) if r < seen.n else 0 for r in (1, 2, 3)]
    unseen = NUM_CARDS - _known(seen).bit_count()
    return [*out, unseen - sum(out)]


def labels(state: BigTwoState, seat: int) -> np.ndarray:
    """The class of every card from ``seat``'s view (int8; -1: its own or played)."""
    y = np.full(NUM_CARDS, -1, np.int8)
    n = state.num_players
    dealt = 0
    for r in range(1, n):
        m = state.hand_mask((seat + r) % n)
        dealt |= m
        y[_bits(m)] = r - 1
    played = 0
    for _, mv in state.history:
        played |= mv.mask
    y[_bits(((1 << NUM_CARDS) - 1) & ~(dealt | state.hand_mask(seat) | played))] = ASIDE
    return y


@dataclass
class BeliefNet:
    """An MLP from :func:`belief_features` to 52 x 4 logits."""

    weights: list[np.ndarray]
    biases: list[np.ndarray]
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def initial(cls, seed: int = 0, hidden: Sequence[int] = HIDDEN) -> BeliefNet:
        ws, bs = he_layers([FEATURES, *hidden, NUM_CARDS * CLASSES], seed)
        ws[-1] *= 0.1
        return cls(ws, bs, {"format": BELIEF_FORMAT, "hidden": list(hidden)})

    def logits(self, x: np.ndarray) -> np.ndarray:
        """(rows, 52, 4) logits of feature rows ``x`` (rows, :data:`FEATURES`)."""
        h = x
        for w, b in zip(self.weights[:-1], self.biases[:-1]):
            h = np.maximum(h @ w + b, 0.0)
        return (h @ self.weights[-1] + self.biases[-1]).reshape(-1, NUM_CARDS, CLASSES)

    def save(self, path: str | Path) -> None:
        arrays = {f"w{i}": w.astype(np.float16) for i, w in enumerate(self.weights)}
        arrays.update({f"b{i}": b for i, b in enumerate(self.biases)})
        write_arrays(Path(path), arrays, {**self.meta, "format": BELIEF_FORMAT,
                                          "features": FEATURES})

    @classmethod
    def load(cls, path: str | Path) -> BeliefNet:
        """A belief file (``InputError`` naming the problem if it is not one)."""
        name = Path(path).name
        meta, ws, bs = read_layers(path, "Big Two belief", BELIEF_FORMAT)
        if meta.get("features") != FEATURES or ws[0].shape[0] != FEATURES or \
                ws[-1].shape[1] != NUM_CARDS * CLASSES:
            raise InputError(f"{name}: built for another feature layout")
        return cls(ws, bs, meta)


@functools.cache
def default_belief() -> BeliefNet:
    """The shipped belief network (loaded once)."""
    return BeliefNet.load(DEFAULT_BELIEF)


def _class_odds(z: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Softmax of logits ``z`` over the last axis (the classes), over the ``valid`` ones
    only (a mask that broadcasts against ``z``)."""
    z = np.where(valid, z, -1e9)
    p = np.exp(z - z.max(axis=-1, keepdims=True))
    return p / p.sum(axis=-1, keepdims=True)


def card_odds(net: BeliefNet, seen: Seen) -> np.ndarray:
    """(52, 4) probabilities: where each card is, from ``seen``'s seat (rows of cards it
    can see are zero)."""
    logit = net.logits(belief_features(seen)[None, :])[0].astype(np.float64)
    p = _class_odds(logit, np.array(class_counts(seen)) > 0)
    p[_bits(_known(seen))] = 0.0
    return p


def deal_from_odds(odds: np.ndarray, cards: Sequence[int], counts: Sequence[int],
                   rng: np.random.Generator, proposals: int = 16, power: float = 1.0,
                   worlds: int = 1) -> np.ndarray:
    """Classes of ``cards`` in ``worlds`` deals (rows): for each, ``proposals`` deals drawn
    card by card in a random order, each card to a class with room in proportion to its
    odds, then one kept by importance weight (the product of the odds over the proposal's
    probability), so the kept deal follows the odds restricted to the counts. ``power``
    sharpens (> 1) or flattens the odds."""
    ids = np.asarray(cards)
    k, m = proposals * worlds, len(ids)
    p = np.power(np.maximum(odds[ids], 1e-12), power)  # (m, 4)
    order = np.argsort(rng.random((k, m)), axis=1)
    room = np.tile(np.asarray(counts, np.int64), (k, 1))
    out = np.empty((k, m), np.int64)
    log_w = np.zeros(k)
    rows = np.arange(k)
    u = rng.random((k, m))
    for j in range(m):
        c = order[:, j]
        w = p[c] * (room > 0)
        tot = w.sum(axis=1)
        cum = np.cumsum(w, axis=1)
        pick = np.minimum((cum < (u[:, j] * tot)[:, None]).sum(axis=1), CLASSES - 1)
        while True:  # a class without room never comes out of rounding
            bad = room[rows, pick] <= 0
            if not bad.any():
                break
            pick[bad] = np.argmax(room[bad] > 0, axis=1)
        out[rows, c] = pick
        room[rows, pick] -= 1
        log_w += np.log(p[c, pick]) - np.log(w[rows, pick] / tot)
    if proposals == 1:
        return out
    by_world = log_w.reshape(worlds, proposals)
    g = np.exp(by_world - by_world.max(axis=1, keepdims=True))
    cum = np.cumsum(g, axis=1)
    keep = np.minimum((cum < rng.random(worlds)[:, None] * cum[:, -1:]).sum(axis=1),
                      proposals - 1)
    return out.reshape(worlds, proposals, m)[np.arange(worlds), keep]


Sampler = Callable[[View, random.Random], BigTwoState]


@dataclass(frozen=True)
class Beliefs:
    """How the search deals worlds from beliefs: the network (None: the shipped one), the
    proposals a world and the power on the odds (see :func:`deal_from_odds`)."""

    net: BeliefNet | None = None
    proposals: int = 16
    power: float = 1.0

    def sampler(self, view: View) -> Sampler:
        return belief_sampler(self.net or default_belief(), view, self.proposals, self.power)


BATCH = 8  # worlds dealt at once (the deal's cost is mostly per call, not per world)


def belief_sampler(net: BeliefNet, view: View, proposals: int = 16, power: float = 1.0
                   ) -> Sampler:
    """A world sampler for the search: the others' hands dealt from :func:`card_odds` (read
    once for the decision) in their counts, :data:`BATCH` worlds at a time (a batch is drawn
    from the generator of the call that finds none left, so a seeded search stays seeded)."""
    seen = seen_from_view(view)
    odds = card_odds(net, seen)
    counts = class_counts(seen)
    cards = list(view.unseen)
    ready: list[list[int]] = []

    def draw(view_: View, rng: random.Random) -> BigTwoState:
        if not ready:
            gen = np.random.default_rng(rng.getrandbits(64))
            ready.extend(deal_from_odds(odds, cards, counts, gen, proposals, power,
                                        BATCH).tolist()[::-1])
        cls = ready.pop()
        hands = [0] * view_.n
        hands[view_.seat] = view_.mine
        for c, k in zip(cards, cls):
            if k < ASIDE:
                hands[(view_.seat + k + 1) % view_.n] |= 1 << c
        return BigTwoState.from_view(hands, view_.rules, view_.seat, view_.current,
                                     view_.last_player, view_.passes, view_.history,
                                     view_.required)
    return draw


# --- training data ---------------------------------------------------------------------------

#: Who plays the recorded hands, by weight (population member names).
DATA_POPULATION = (("net", "baseline", "shed-most", "high", "passive"),
                   (4.0, 1.5, 1.0, 1.0, 0.25))
RANDOM_MOVES = 0.05  # the share of a seat's moves played at random


def play_record(seed: int, members: tuple[str, ...] = DATA_POPULATION[0],
                weights: tuple[float, ...] = DATA_POPULATION[1]
                ) -> tuple[np.ndarray, np.ndarray]:
    """One hand of ``seed``: bit-packed features and labels at every decision with a choice."""
    from solver.games.big_two.population import member_policy
    from solver.games.big_two.train import random_rules
    rng = random.Random(f"belief:{seed}")
    rules = random_rules(rng)
    seats = [rng.choices(members, weights)[0] for _ in range(rules.players)]
    policies = [member_policy(s) for s in seats]
    state = BigTwoState(deal(rng.getrandbits(64), rules.players), rules)
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    while state.winner < 0:
        p = state.current_player
        lm = state.legal()
        options = len(lm) + (1 if lm.can_pass else 0)
        if options > 1 and state.history:
            xs.append(np.packbits(belief_features(seen_from_state(state)).astype(np.uint8)))
            ys.append(labels(state, p))
        if options > 1 and rng.random() < RANDOM_MOVES:
            i = rng.randrange(options)
            move = lm[i] if i < len(lm) else PASS
        else:
            move = policies[p](state, rng)
        state._apply_trusted(move)
    width = (FEATURES + 7) // 8
    if not xs:
        return np.zeros((0, width), np.uint8), np.zeros((0, NUM_CARDS), np.int8)
    return np.stack(xs), np.stack(ys)


SHARD = 2_000  # hands a data file


def generate(folder: str | Path, hands: int, shard: int = SHARD, seed: int = 0,
             workers: int = 1) -> list[Path]:
    """Record ``hands`` hands in shards of ``shard`` hands (``shard-K.npz``, each written
    atomically; a shard that exists is kept, so the same call resumes, and one recorded by
    another call, other seed or shard size, is refused). Hand ``i`` of the run plays seed
    ``seed * 10**9 + i``: the data do not depend on ``workers``."""
    folder = Path(folder)
    todo = []
    for k in range(math.ceil(hands / shard)):
        path = folder / f"shard-{k:05d}.npz"
        if not path.exists():
            todo.append((k, path))
            continue
        try:
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
        except BAD_FILE_ERRORS as exc:
            raise InputError(f"{path.name}: not belief data ({exc})") from None
        if (meta.get("format"), meta.get("features"), meta.get("seed"), meta.get("hands")) != (
                DATA_FORMAT, FEATURES, seed, [k * shard, min((k + 1) * shard, hands)]):
            raise InputError(f"{path.name}: recorded by another run (seed, hands or shard "
                             f"size); use another --data folder")
    for path in folder.glob("shard-*.npz"):
        if int(path.stem[6:]) >= math.ceil(hands / shard):
            raise InputError(f"{path.name}: more data in {folder} than {hands} hands; use "
                             "another --data folder")
    if workers <= 1:
        for k, path in todo:
            _write_shard(path, k, shard, hands, seed)
    else:
        from solver.executors.pool import local_executor  # here: a game loads no executor
        with local_executor(workers) as pool:
            list(pool.map(_write_shard_task, [(path, k, shard, hands, seed) for k, path in todo]))
    return sorted(folder.glob("shard-*.npz"))


def _write_shard_task(task: tuple[Path, int, int, int, int]) -> None:
    _write_shard(*task)


def _write_shard(path: Path, k: int, shard: int, hands: int, seed: int) -> None:
    xs, ys = [], []
    for i in range(k * shard, min((k + 1) * shard, hands)):
        x, y = play_record(seed * 10**9 + i)
        xs.append(x)
        ys.append(y)
    write_arrays(path, {"x": np.concatenate(xs), "y": np.concatenate(ys)},
                 {"format": DATA_FORMAT, "features": FEATURES, "seed": seed, "shard": k,
                  "hands": [k * shard, min((k + 1) * shard, hands)]})


def load_data(folder: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """Every shard of a folder, in order (bit-packed features, labels)."""
    xs, ys = [], []
    for path in sorted(Path(folder).glob("shard-*.npz")):
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            if meta.get("format") != DATA_FORMAT or meta.get("features") != FEATURES:
                raise InputError(f"{path.name}: not belief data for these features")
            xs.append(z["x"])
            ys.append(z["y"])
    if not xs:
        raise InputError(f"no belief data in {folder}")
    return np.concatenate(xs), np.concatenate(ys)


# --- training ----------------------------------------------------------------------------------

def _class_mask(y: np.ndarray) -> np.ndarray:
    """(rows, 1, 4) which classes can hold a card, from the labels (a class holds a card iff
    it has cards: the counts are in the features, and the labels say the same)."""
    m = np.zeros((len(y), CLASSES), bool)
    for c in range(CLASSES):
        m[:, c] = (y == c).any(axis=1)
    return m[:, None, :]


def loss_and_gradients(net: BeliefNet, x: np.ndarray, y: np.ndarray
                       ) -> tuple[float, list[np.ndarray]]:
    """Mean cross-entropy over the unseen cards, and its gradients (weights, then biases)."""
    from solver.games.dmc import backward
    acts = [x]
    h = x
    for w, b in zip(net.weights[:-1], net.biases[:-1]):
        h = np.maximum(h @ w + b, 0.0)
        acts.append(h)
    z = (h @ net.weights[-1] + net.biases[-1]).reshape(-1, NUM_CARDS, CLASSES)
    p = _class_odds(z, _class_mask(y))
    hit = y >= 0
    count = max(int(hit.sum()), 1)
    rows, cards = np.nonzero(hit)
    cls = y[rows, cards].astype(np.int64)
    loss = float(-np.log(np.maximum(p[rows, cards, cls], 1e-12)).sum() / count)
    d = p * hit[:, :, None]
    d[rows, cards, cls] -= 1.0
    d = (d / count).reshape(len(x), -1).astype(np.float32)
    return loss, backward(net.weights, acts, d)


def evaluate(net: BeliefNet, xb: np.ndarray, y: np.ndarray, batch: int = 4096
             ) -> dict[str, float]:
    """Held-out figures: cross-entropy a card, and the share of the probability the net
    puts on the true class (a uniform deal in the counts is the baseline)."""
    total, mass, base, cards = 0.0, 0.0, 0.0, 0
    for i in range(0, len(y), batch):
        x = np.unpackbits(xb[i:i + batch], axis=1)[:, :FEATURES].astype(np.float32)
        yy = y[i:i + batch]
        p = _class_odds(net.logits(x).astype(np.float64), _class_mask(yy))
        rows, cs = np.nonzero(yy >= 0)
        cls = yy[rows, cs].astype(np.int64)
        total += float(-np.log(np.maximum(p[rows, cs, cls], 1e-12)).sum())
        mass += float(p[rows, cs, cls].sum())
        sizes = np.stack([(yy == c).sum(axis=1) for c in range(CLASSES)], axis=1)
        share = sizes / np.maximum(sizes.sum(axis=1, keepdims=True), 1)
        base += float(share[rows, cls].sum())
        cards += len(rows)
    return {"cross_entropy": total / max(cards, 1), "true_mass": mass / max(cards, 1),
            "uniform_mass": base / max(cards, 1), "cards": cards}


def _checkpoint_path(out: Path) -> Path:
    return out.with_name(out.stem + "-train.npz")


def train(folder: str | Path, out: str | Path, epochs: int = 3, batch: int = 1024,
          lr: float = 1e-3, seed: int = 0, held_out: float = 0.02, hands: int | None = None,
          command: str = "", log: Callable[[str], None] | None = None) -> dict[str, float]:
    """Fit a belief network to the data of ``folder`` and write it to ``out``; returns the
    held-out figures (the last ``held_out`` share of the rows, by hand order). The step size
    falls to 0.3 times after each epoch. A checkpoint (``OUT-train.npz``: weights, Adam's
    moments, epochs done) is written after every epoch, and the same call resumes from it:
    the result is the same as an unbroken run's."""
    from solver.games.dmc import Adam
    out = Path(out)
    xb, y = load_data(folder)
    cut = int(len(y) * (1 - held_out))
    config = {"rows": cut, "batch": batch, "lr": lr, "seed": seed, "epochs": epochs}
    net = BeliefNet.initial(seed)
    opt = Adam(net, lr)  # type: ignore[arg-type]
    done = 0
    ckpt = _checkpoint_path(out)
    if ckpt.exists():
        done = _resume(ckpt, config, net, opt)
    for epoch in range(done, epochs):
        opt.lr = lr * 0.3 ** epoch
        order = np.random.default_rng([seed, epoch]).permutation(cut)
        running = []
        for i in range(0, cut - batch + 1, batch):
            idx = np.sort(order[i:i + batch])
            x = np.unpackbits(xb[idx], axis=1)[:, :FEATURES].astype(np.float32)
            loss, grads = loss_and_gradients(net, x, y[idx])
            opt.step(grads)
            running.append(loss)
            if log and len(running) % 1000 == 0:
                log(f"epoch {epoch + 1}/{epochs} step {len(running)} loss "
                    f"{np.mean(running[-1000:]):.4f}")
        arrays = {f"p{i}": p for i, p in enumerate(opt.params)}
        arrays.update({f"m{i}": m for i, m in enumerate(opt.m)})
        arrays.update({f"v{i}": v for i, v in enumerate(opt.v)})
        write_arrays(ckpt, arrays, {"format": BELIEF_FORMAT + " checkpoint", "config": config,
                                    "epochs_done": epoch + 1, "t": opt.t})
    figures = evaluate(net, xb[cut:], y[cut:])
    net.meta.update({"command": command, "hands": hands, **config, "held_out": figures})
    net.save(out)
    return figures


def _resume(path: Path, config: dict[str, Any], net: BeliefNet, opt: Any) -> int:
    """Load a checkpoint of the same run into ``net`` and ``opt``; the epochs it had done."""
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            if meta.get("config") != config:
                raise InputError(f"{path.name}: a checkpoint of another run (delete it to "
                                 "start again)")
            for i, p in enumerate(opt.params):
                p[...] = z[f"p{i}"]
                opt.m[i][...] = z[f"m{i}"]
                opt.v[i][...] = z[f"v{i}"]
    except BAD_FILE_ERRORS as exc:
        raise InputError(f"{path.name}: not a belief checkpoint ({exc})") from None
    opt.t = int(meta["t"])
    return int(meta["epochs_done"])
