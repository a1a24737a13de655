"""A complete tables file for any rule set the referee accepts: what ``capsa train`` runs.

Two passes, as the shipped file was made: self-play rounds (:mod:`.train`: fictitious play from
the naive strategy, under the rules given, so a custom royalty table, naturals off or another
scoring shape what the opponent plays), then the card-removal pass (:mod:`.removal`: the pool
set by the trained strategy gives its final histograms, the card-removal shifts and the rows'
copula). The file holds one set of tables, under the name of the preset the rules train with
(:func:`~solver.games.capsa.strategy.tables.training_preset`), and records the rules, the
command and the seed that made it.

Resumable: after every round the state is written (atomically) to ``OUT.checkpoint.npz``; the
same command run again continues from it, another command refuses to use it. The result is the
same for a seed whatever the number of workers and however often the run was stopped.

``players`` deals the self-play hands as the seats of deals of that many hands from one deck.
Every scoring the referee knows is a sum over pairs of players, so the value of a split against
N opponents is N times its value against one, the decision does not depend on N, and neither
does the row distribution of one opponent: tables trained with 2 and 4 players agree within
sampling noise (measured, see the README). The option is recorded with the file.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solver.errors import InputError
from solver.games.capsa.rules import Rules, resolve_rules
from solver.games.capsa.strategy import removal as removal_pass
from solver.games.capsa.strategy.tables import (
    DATA_FILE,
    load_raw,
    training_preset,
    write_arrays,
)
from solver.games.capsa.strategy.train import TrainState, chunk_sizes, train_rules

DEFAULT_HANDS = 500_000        # hands a round, as the shipped presets
DEFAULT_ROUNDS = 16
DEFAULT_REMOVAL_HANDS = 1_000_000
MIN_HANDS, MAX_HANDS = 1_000, 50_000_000
MAX_ROUNDS = 100
CHECKPOINT_SUFFIX = ".checkpoint.npz"


def shipped_alpha_scale(key: str) -> float:
    """The card-removal strength the shipped file measured best for a preset (1 if none)."""
    meta: dict[str, Any] = dict(load_raw(str(DATA_FILE))["meta"])
    scale = meta.get("by_preset", {}).get(key, {}).get("alpha_scale")
    return 1.0 if scale is None else float(scale)


def shipped_removal_rounds(key: str) -> int:
    """The card-removal pass's rounds of fictitious play the shipped file made a preset with
    (1: one pool)."""
    meta: dict[str, Any] = dict(load_raw(str(DATA_FILE))["meta"])
    return int(meta.get("by_preset", {}).get(key, {}).get("removal_rounds") or 1)


def shipped_suit_scale(key: str) -> float:
    """The suit terms' strength the shipped file gives a preset (0: it has none)."""
    meta: dict[str, Any] = dict(load_raw(str(DATA_FILE))["meta"])
    scale = meta.get("by_preset", {}).get(key, {}).get("suit_scale")
    return 0.0 if scale is None else float(scale)


@dataclass(frozen=True)
class TrainPlan:
    """Everything that decides a trained file (the workers do not)."""

    rules: Rules
    players: int = 2
    hands: int = DEFAULT_HANDS
    rounds: int = DEFAULT_ROUNDS
    removal_hands: int = DEFAULT_REMOVAL_HANDS
    seed: int = 2026
    alpha_scale: float | None = None  # None: the shipped file's for the preset trained with
    suit_scale: float | None = None   # the same for the suit terms (0: none)
    removal_rounds: int | None = None  # the same for the removal pass's fictitious play

    @property
    def key(self) -> str:
        return training_preset(self.rules)

    @property
    def scale(self) -> float:
        return shipped_alpha_scale(self.key) if self.alpha_scale is None else self.alpha_scale

    @property
    def suits(self) -> float:
        return shipped_suit_scale(self.key) if self.suit_scale is None else self.suit_scale

    @property
    def fp_rounds(self) -> int:
        return (shipped_removal_rounds(self.key) if self.removal_rounds is None
                else self.removal_rounds)

    def record(self) -> dict[str, Any]:
        # the suit scale only where there are suit terms: files without are as before
        return {"rules": self.rules.to_dict(), "players": self.players, "hands": self.hands,
                "rounds": self.rounds, "removal_hands": self.removal_hands, "seed": self.seed,
                "alpha_scale": self.scale, **({"suit_scale": self.suits} if self.suits else {}),
                **({"removal_rounds": self.fp_rounds} if self.fp_rounds > 1 else {})}

    def command(self, output: str) -> str:
        return (f"capsa train --rules '{json.dumps(self.rules.to_dict(), sort_keys=True)}' "
                f"--players {self.players} --hands {self.hands} --rounds {self.rounds} "
                f"--removal-hands {self.removal_hands} --seed {self.seed} "
                f"--alpha-scale {self.scale:g} "
                + (f"--suit-scale {self.suits:g} " if self.suits else "")
                + (f"--removal-rounds {self.fp_rounds} " if self.fp_rounds > 1 else "")
                + f"-o {output}")

    def chunks(self, rounds_done: int = 0) -> int:
        """Chunks of work left after ``rounds_done`` rounds (what a progress bar counts)."""
        return ((self.rounds - rounds_done) * len(chunk_sizes(self.hands))
                + self.fp_rounds * len(chunk_sizes(self.removal_hands)))


def make_plan(rules: object, players: int = 2, hands: int = DEFAULT_HANDS,
              rounds: int = DEFAULT_ROUNDS, removal_hands: int = DEFAULT_REMOVAL_HANDS,
              seed: int = 2026, alpha_scale: float | None = None,
              suit_scale: float | None = None, removal_rounds: int | None = None) -> TrainPlan:
    """A checked :class:`TrainPlan`; :class:`InputError` names the first bad value."""
    from solver.validation import check_int

    r = resolve_rules(rules)  # type: ignore[arg-type]
    check_int("players", players, 2, 4)
    check_int("hands", hands, MIN_HANDS, MAX_HANDS)
    check_int("rounds", rounds, 2, MAX_ROUNDS)
    check_int("removal_hands", removal_hands, MIN_HANDS, MAX_HANDS)
    check_int("seed", seed, 0, 2**63 - 1)
    if alpha_scale is not None and not (isinstance(alpha_scale, (int, float))
                                        and 0.0 <= alpha_scale <= 4.0):
        raise InputError(f"alpha_scale must be a number from 0 to 4, got {alpha_scale!r}")
    if suit_scale is not None and not (isinstance(suit_scale, (int, float))
                                       and 0.0 <= suit_scale <= 4.0):
        raise InputError(f"suit_scale must be a number from 0 to 4, got {suit_scale!r}")
    if removal_rounds is not None:
        check_int("removal_rounds", removal_rounds, 1, MAX_ROUNDS)
    return TrainPlan(r, players, hands, rounds, removal_hands, seed,
                     None if alpha_scale is None else float(alpha_scale),
                     None if suit_scale is None else float(suit_scale), removal_rounds)


def checkpoint_path(output: Path) -> Path:
    return output.with_name(output.name + CHECKPOINT_SUFFIX)


def _load_checkpoint(path: Path, plan: TrainPlan) -> TrainState:
    if not path.exists():
        return TrainState()
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            arrays = {k: data[k] for k in ("total_hist", "total_nat", "prev_pw") if k in data}
    except (OSError, ValueError, KeyError) as exc:
        raise InputError(f"{path} is not a training checkpoint ({exc}); delete it to start "
                         "again") from None
    if meta.get("plan") != plan.record():
        diff = sorted(k for k in set(meta.get("plan", {})) | set(plan.record())
                      if meta.get("plan", {}).get(k) != plan.record().get(k))
        raise InputError(f"{path} is the checkpoint of another training (it differs in "
                         f"{', '.join(diff)}); run the same command to resume it, or delete it")
    return TrainState(int(meta["rounds_done"]), arrays.get("total_hist"),
                      arrays.get("total_nat"), arrays.get("prev_pw"),
                      [float("nan") if d is None else float(d) for d in meta["deltas"]])


def rounds_done(plan: TrainPlan, output: Path) -> int:
    """Rounds of ``plan`` already in the checkpoint of ``output`` (0 without one): where
    :func:`train_file` resumes."""
    return _load_checkpoint(checkpoint_path(output), plan).rounds_done


def _save_checkpoint(path: Path, plan: TrainPlan, st: TrainState) -> None:
    assert st.total_hist is not None and st.total_nat is not None and st.prev_pw is not None
    write_arrays(path, {"total_hist": st.total_hist, "total_nat": st.total_nat,
                        "prev_pw": st.prev_pw},
                 {"plan": plan.record(), "rounds_done": st.rounds_done,
                  "deltas": [None if np.isnan(d) else d for d in st.deltas]})


def check_output(output: Path) -> None:
    """:class:`InputError` if the tables file cannot be written where asked."""
    if output.is_dir():
        raise InputError(f"the output {output} is a directory")
    parent = output.resolve().parent
    if not parent.is_dir():
        raise InputError(f"cannot write {output}: no directory {parent}")
    if not os.access(parent, os.W_OK):
        raise InputError(f"cannot write {output}: permission denied")


def train_file(plan: TrainPlan, output: Path, workers: int = 1,
               progress: Callable[[int], object] | None = None,
               log: Callable[[str], object] = lambda s: None) -> dict[str, Any]:
    """Train the tables of ``plan`` into ``output`` (written once, whole, at the end); returns
    the file's metadata. ``progress(n)`` is told of every ``n`` chunks done; it starts at
    ``plan.chunks(rounds already in the checkpoint)`` left."""
    check_output(output)
    ckpt = checkpoint_path(output)
    st = _load_checkpoint(ckpt, plan)
    spec = plan.rules

    def tick() -> None:
        if progress is not None:
            progress(1)

    if st.rounds_done < plan.rounds:
        log(f"self-play under the {plan.key!r} tables' slot, rounds {st.rounds_done} to "
            f"{plan.rounds - 1}")
        hist, naturals, deltas = train_rules(
            spec, plan.hands, plan.rounds, plan.seed, workers, log, plan.players, st,
            on_round=lambda s: _save_checkpoint(ckpt, plan, s),
            on_chunk=tick)
    else:
        assert st.total_hist is not None and st.total_nat is not None
        hist, naturals, deltas = st.total_hist, st.total_nat, st.deltas
    key = plan.key
    fp_ckpt = output.with_name(output.name + ".removal" + CHECKPOINT_SUFFIX)
    fd, rows_file = tempfile.mkstemp(dir=output.resolve().parent, prefix=".rows-",
                                     suffix=".npz")
    os.close(fd)
    try:
        write_arrays(Path(rows_file), {f"{key}/hist": hist, f"{key}/naturals": naturals},
                     {"note": "self-play rows before the card-removal pass"})
        log(f"card-removal pass over {plan.removal_hands:,} hands"
            + (f", {plan.fp_rounds} rounds of fictitious play" if plan.fp_rounds > 1 else ""))
        measured = removal_pass.measure(
            spec, rows_file, plan.removal_hands, plan.seed, workers, tick,
            rounds=plan.fp_rounds, alpha=removal_pass.ALPHA * plan.scale,
            suit_scale=plan.suits, checkpoint=fp_ckpt,  # beside the self-play's
            checkpoint_key={"plan": json.dumps(plan.record(), sort_keys=True)},
            on_round=lambda r: log(f"card-removal round {r - 1} done"))
    finally:
        os.unlink(rows_file)
    meta: dict[str, Any] = {
        "format": 1, "command": plan.command(output.name), "seed": plan.seed,
        "rules": plan.rules.to_dict(), "trained_for": key, "players": plan.players,
        "hands_per_round": plan.hands, "rounds": plan.rounds, "presets": [key],
        "last_change": deltas[-1],
        "removal": {"hands": plan.removal_hands, "seed": plan.seed,
                    "alpha_scale": plan.scale, **({"suit_scale": plan.suits} if plan.suits else {}),
                    **({"rounds": plan.fp_rounds} if plan.fp_rounds > 1 else {})},
    }
    arrays = removal_pass.file_arrays(key, measured, removal_pass.ALPHA * plan.scale,
                                      plan.suits)
    write_arrays(output, arrays, meta)
    ckpt.unlink(missing_ok=True)
    fp_ckpt.unlink(missing_ok=True)
    return meta
