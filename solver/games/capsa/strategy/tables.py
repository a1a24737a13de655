"""Row tables of the ``table`` strategy, loaded from ``solver/games/capsa/data/tables.npz``.

The data file holds, per training preset, how often an opponent playing the strategy puts each
strength in each row (``hist``, shape (3, strengths)), how often it holds each natural
(``naturals``: none, three flushes, three straights, six pairs, dragon) and how many hands were
dealt. From these and the rules in force we derive, for one opponent:

- ``pw[row, s]`` / ``pt[row, s]``: probability that my row of strength ``s`` beats / ties theirs;
- ``lr[row, s]``: expected royalty units the opponent collects from its row beating mine
  (winner mode), and ``opp_royalty`` its expected royalty total (net mode);
- ``p_natural`` and ``natural_units``: chance the opponent holds a natural and what it costs.

A file may also hold, per preset, ``removal`` (13, 3, strengths): how one card of each rank in
my hand shifts the opponent's row distribution (card removal, see
:mod:`solver.games.capsa.strategy.removal`). Tables built from such a file carry it, and the
``table`` strategy then values each hand against its own opponent tables (see
:mod:`solver.games.capsa.kernels.removal` and :func:`solver.games.capsa.search.hand_tables`),
``suit`` (14, 3, strengths) with ``suit_scale``: how holding ``c`` cards of a suit shifts it
beyond the ranks' shifts (its flushes, mostly),
and ``joint`` (2, n + 1, n + 1, n + 1): the copula of the opponent's three rows, so the scoop
is valued from their joint distribution rather than as if they were independent (see
:mod:`solver.games.capsa.strategy.joint`).

Custom rules use the tables of the preset sharing their wheel and scoring; their own royalty
table and natural units are applied on top. ``capsa train --rules`` (:mod:`.build`) makes a file
trained for a rule set itself; ``tables=`` / ``--tables FILE`` play it (or any tables file), and
``CAPSA_TABLES`` names the file a process plays by default (:func:`use_tables`).
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from solver.errors import InputError
from solver.games.capsa.kernels.table import NO_JOINT
from solver.games.capsa.rules import NATURAL_KINDS, NATURAL_STRENGTH, Rules
from solver.npzfile import write_arrays

DATA_FILE = Path(__file__).resolve().parents[1] / "data" / "tables.npz"
# natural codes as counted by the training (kernels.natural_kind): 1 flushes .. 4 dragon
NATURAL_BY_CODE = dict(sorted((code, kind) for kind, code in NATURAL_STRENGTH.items()))
TRAINED_PRESETS = ("standard", "two-four", "basic", "indonesia")


def training_preset(rules: Rules) -> str:
    """Which trained preset a set of rules plays with."""
    if rules.wheel == "second":
        return "indonesia"
    if rules.scoring == "two-four":
        return "two-four"
    if rules.scoring == "basic" and not rules.royalties:
        return "basic"
    return "standard"


class TablesSource(NamedTuple):
    """Where tables read from a file come from: the rules they were derived for, the file
    and whether they keep its card-removal shifts. Tables are arrays, so this value is what
    names them (what :func:`solver.games.capsa.prepared.prepare` caches by)."""

    rules: Rules
    path: str
    card_removal: bool


@dataclass(frozen=True)
class StrategyTables:
    pw: np.ndarray
    pt: np.ndarray
    lr: np.ndarray
    roy: np.ndarray
    opp_royalty: float
    p_natural: float
    natural_units: float  # expected units given the opponent holds a natural
    preset: str
    p: np.ndarray | None = None        # (3, S) opponent row distribution (given no natural)
    removal: np.ndarray | None = None  # (13, 3, S) its shift per card of each rank I hold
    alpha: float = 0.0                 # how one card's shift scales to a whole hand's
    joint: np.ndarray | None = None    # (2, n + 1, n + 1, n + 1) copula of its rows
    suit: np.ndarray | None = None     # (14, 3, S) its shift per suit I hold c cards of, scaled
    # what :func:`tables_for` read them from; None for tables made any other way
    source: TablesSource | None = field(default=None, compare=False)

    @property
    def joint_grid(self) -> np.ndarray:
        """What the kernels take: the copula grids, or ``NO_JOINT`` (rows independent)."""
        return NO_JOINT if self.joint is None else self.joint


@lru_cache(maxsize=4)
def load_raw(path: str = str(DATA_FILE)) -> dict[str, dict[str, np.ndarray]]:
    """The histograms of every trained preset, and the file's metadata under ``"meta"``;
    :class:`InputError` for a file that is not a tables file."""
    if not os.path.isfile(path):
        raise InputError(f"tables file {Path(path).name}: no such file")
    if not zipfile.is_zipfile(path):
        raise InputError(f"{Path(path).name} is not a tables file (not an .npz archive)")
    try:
        return _load_raw(path)
    except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InputError(f"{Path(path).name} is not a readable tables file: {why}") from None


def _load_raw(path: str) -> dict[str, dict[str, np.ndarray]]:
    with np.load(path, allow_pickle=False) as data:
        out: dict = {"meta": json.loads(str(data["meta"]))}
        for preset in TRAINED_PRESETS:
            if f"{preset}/hist" in data:
                out[preset] = {"hist": data[f"{preset}/hist"].astype(np.float64),
                               "naturals": data[f"{preset}/naturals"].astype(np.float64)}
                if f"{preset}/removal" in data:
                    out[preset]["removal"] = data[f"{preset}/removal"].astype(np.float64)
                    out[preset]["alpha"] = float(data[f"{preset}/alpha"])
                if f"{preset}/suit" in data:
                    out[preset]["suit"] = data[f"{preset}/suit"].astype(np.float64)
                    out[preset]["suit_scale"] = float(data[f"{preset}/suit_scale"])
                if f"{preset}/joint" in data:
                    out[preset]["joint"] = data[f"{preset}/joint"].astype(np.float64)
    return out


def derive(hist: np.ndarray, naturals: np.ndarray, rules: Rules, preset: str,
           removal: np.ndarray | None = None, alpha: float = 0.0,
           joint: np.ndarray | None = None, suit: np.ndarray | None = None) -> StrategyTables:
    """Win/tie/royalty tables for ``rules`` from an opponent row histogram (3, S), with the
    card-removal shifts ``removal`` (13, 3, S), the suits' ``suit`` (14, 3, S, scaled; only
    with ``removal``) and the rows' copula ``joint`` when given."""
    hands = hist[0].sum()
    p = hist / max(hands, 1.0)
    below = np.cumsum(p, axis=1) - p  # P(opp < s)
    roy = rules.royalty_array.astype(np.float64)
    above_roy = np.cumsum((p * roy)[:, ::-1], axis=1)[:, ::-1] - p * roy  # E[roy; opp > s]
    total = naturals.sum()
    p_nat = float(naturals[1:].sum() / total) if total and rules.naturals_on else 0.0
    units = 0.0
    if p_nat > 0:
        units = float(sum(naturals[code] * rules.natural_units(kind)
                          for code, kind in NATURAL_BY_CODE.items()) / naturals[1:].sum())
    return StrategyTables(np.ascontiguousarray(below), np.ascontiguousarray(p),
                          np.ascontiguousarray(above_roy), roy,
                          float((p * roy).sum()), p_nat, units, preset,
                          np.ascontiguousarray(p) if removal is not None else None,
                          None if removal is None else np.ascontiguousarray(removal), alpha,
                          None if joint is None else np.ascontiguousarray(joint),
                          None if suit is None or removal is None
                          else np.ascontiguousarray(suit))


TABLES_ENV = "CAPSA_TABLES"
# the tables every ``table`` decision plays unless told otherwise: the shipped file, or the one
# named by CAPSA_TABLES (what ``capsa serve --tables`` sets, so every process of the service,
# forked or spawned, plays the same file)
_IN_USE: list[Path] = [Path(os.environ[TABLES_ENV]) if os.environ.get(TABLES_ENV) else DATA_FILE]


def _forked() -> None:
    """In a forked child (a pool's supervisor or process), the process default only, as in
    a fresh process: a :func:`tables_file` block of the parent does not outlive the fork."""
    del _IN_USE[1:]


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)


def checked_tables_file(path: str | os.PathLike[str]) -> str:
    """The absolute path of a tables file, read once to check it: :class:`InputError` names a
    missing file, one that is not a tables file, or one that holds no tables."""
    where = os.path.abspath(os.fspath(path))
    if not os.path.isfile(where):
        raise InputError(f"tables file {os.fspath(path)}: no such file")
    raw = load_raw(where)
    if not any(preset in raw for preset in TRAINED_PRESETS):
        raise InputError(f"tables file {os.fspath(path)} holds no tables")
    return where


def use_tables(path: str | os.PathLike[str]) -> str:
    """Make a tables file this process's default (and its children's, through
    ``CAPSA_TABLES``); returns its checked absolute path."""
    where = checked_tables_file(path)
    os.environ[TABLES_ENV] = where
    _IN_USE[0] = Path(where)
    return where


@dataclass(frozen=True)
class TablesInfo:
    """Which tables an answer played: the file's name (never its folder), its content hash and
    the rules it was trained for (a preset name, or the rule set of a ``capsa train`` file)."""

    file: str
    digest: str
    trained_for: Any

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "digest": self.digest, "trained_for": self.trained_for}


def tables_info(rules: Rules, path: str | os.PathLike[str] | None = None) -> TablesInfo:
    """:class:`TablesInfo` of the tables ``rules`` play from ``path`` (default: the file in use)."""
    where = str(_IN_USE[-1] if path is None else path)
    meta = load_raw(where)["meta"]
    trained = meta.get("rules") if meta.get("rules") is not None else training_preset(rules)
    return TablesInfo(Path(where).name, _digest(where), trained)


@contextmanager
def tables_file(path: str | Path) -> Iterator[None]:
    """Play every ``table`` decision in this process from another tables file (a candidate
    being measured, or the shipped file without card removal) until the block ends."""
    _IN_USE.append(Path(path))
    try:
        yield
    finally:
        _IN_USE.pop()


def tables_digest(path: str | Path | None = None) -> str:
    """A short content hash of a tables file (default: the one in use): what tells two
    strategies apart when a result must be reproduced (``capsa batch`` records it)."""
    return _digest(str(_IN_USE[-1] if path is None else path))


@lru_cache(maxsize=8)
def _digest(path: str) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()[:16]


def without_removal(path: str | Path, out: str | Path, keep_joint: bool = True) -> Path:
    """Write the tables file ``path`` without its card-removal shifts to ``out``; the rows'
    joint model stays unless ``keep_joint`` is false (the tables as they were before both)."""
    raw = load_raw(str(path))
    names = ("hist", "naturals", "joint") if keep_joint else ("hist", "naturals")
    arrays = {f"{preset}/{name}": raw[preset][name] for preset in TRAINED_PRESETS
              if preset in raw for name in names if name in raw[preset]}
    meta = {**raw["meta"], "removal": None, "note": "card-removal shifts left out"}
    write_arrays(Path(out), arrays, meta)
    return Path(out)


def tables_for(rules: Rules, path: str | os.PathLike[str] | None = None,
               card_removal: bool = True) -> StrategyTables:
    """The strategy tables for a set of rules (cached), from the shipped data file (or the
    one :func:`tables_file` put in use) or from another table file of the same format at
    ``path`` (a candidate being measured); ``card_removal=False``: the same tables without
    their card-removal shifts (:func:`plain_tables`)."""
    return _tables_for(rules, str(_IN_USE[-1] if path is None else path), card_removal)


def plain_tables(st: StrategyTables) -> StrategyTables:
    """``st`` without card removal: every hand plays against the same opponent tables (about
    2.5 times faster a hand, and more exploitable, see the README). The rows' joint model
    stays."""
    if st.removal is None:
        return st
    src = st.source
    if src is not None and _tables_for(src.rules, src.path, True) is st:
        return _tables_for(src.rules, src.path, False)  # one object: its terms built once
    return _without_removal(st, None)


def _without_removal(st: StrategyTables, source: TablesSource | None) -> StrategyTables:
    return replace(st, p=None, removal=None, alpha=0.0, suit=None, source=source)


@lru_cache(maxsize=64)
def _tables_for(rules: Rules, path: str, card_removal: bool) -> StrategyTables:
    if not card_removal:
        full = _tables_for(rules, path, True)
        return full if full.removal is None else _without_removal(
            full, TablesSource(rules, path, False))
    preset = training_preset(rules)
    data = load_raw(path)
    if preset not in data:
        raise InputError(f"table file {Path(str(path)).name!r} has no {preset!r} preset; it has "
                         f"{', '.join(k for k in data if k != 'meta') or 'none'}")
    raw = data[preset]
    suit = raw["suit"] * raw["suit_scale"] if "suit" in raw else None
    st = derive(raw["hist"], raw["naturals"], rules, preset, raw.get("removal"),
                float(raw.get("alpha", 0.0)), raw.get("joint"), suit)  # load_raw: floats
    return replace(st, source=TablesSource(rules, path, True))


assert set(NATURAL_BY_CODE.values()) == set(NATURAL_KINDS)
