"""The exhaustive ``table`` search: best ``k`` in one kernel call for a whole batch of hands
(see :mod:`solver.games.capsa.kernels.search`), and a hand's own opponent tables under card
removal. Everything the kernels read comes from one :class:`~.prepared.Prepared`."""

from __future__ import annotations

import functools
import threading
from typing import Any, NamedTuple

import numpy as np

from solver.games.capsa.kernels import lazy as KL
from solver.games.capsa.kernels import removal as KR
from solver.games.capsa.kernels import search as KS
from solver.games.capsa.kernels import table as KT
from solver.games.capsa.lookup import TABLES
from solver.games.capsa.prepared import Prepared
from solver.games.capsa.rules import Rules
from solver.games.capsa.strategy.tables import StrategyTables

_LOCAL = threading.local()


class _Scratch(NamedTuple):
    """One thread's per-strength scratch for the search kernels (allocated once, so a single
    hand's call clears nothing: hands are told apart by their number, from ``epoch``)."""

    slot: np.ndarray   # where a strength's card-removal terms are (removal_top)
    seen: np.ndarray   # the hand that last computed them
    bseen: np.ndarray  # the hand that last bounded a back of this strength
    bval: np.ndarray   # that bound (the back left no flush)
    xslot: np.ndarray  # (3, S) where a row's exact card-removal terms are (lazy_top)
    xseen: np.ndarray  # (3, S) the hand that computed them
    epoch: np.ndarray  # (1,) the number of the next hand


def _scratch(size: int) -> tuple[np.ndarray, ...]:
    """This thread's :class:`_Scratch` for ``size`` strengths, as the kernels take it (a
    plain tuple)."""
    buf = getattr(_LOCAL, "scratch", None)
    if buf is None or buf[1].shape[0] != size:
        buf = _LOCAL.scratch = tuple(_Scratch(
            np.empty(size, dtype=np.int64), np.full(size, -1, dtype=np.int64),
            np.full(size, -1, dtype=np.int64), np.empty(size),
            np.empty((3, size), dtype=np.int64), np.full((3, size), -1, dtype=np.int64),
            np.zeros(1, dtype=np.int64)))
    return buf


def hand_tables(prep: Prepared, hand: np.ndarray) -> StrategyTables:
    """The tables against the opponent of this 13-card hand: the prepared tables themselves
    without card removal, else the hand's shifted tables in full (a reference; the search
    reads only the entries it visits)."""
    st = prep.tables
    if st.removal is None:
        return st
    pw, pt, lr = (np.empty_like(st.pw) for _ in range(3))
    KR.removal_tables(np.asarray(hand, dtype=np.int64), prep.kernel_group("removal_model"),
                      pw, pt, lr)
    return StrategyTables(pw, pt, lr, st.roy, st.opp_royalty, st.p_natural, st.natural_units,
                          st.preset, joint=st.joint)


def hand_odds(prep: Prepared, hand: np.ndarray,
              rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Win and tie chances (N, 3) of the row strengths ``rows`` (N, 3) of ``hand`` against
    its opponent (with card removal when the tables model it)."""
    rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, 3)
    st = prep.tables
    if st.removal is None:
        idx = np.arange(3)
        return st.pw[idx, rows], st.pt[idx, rows]
    w = np.empty(rows.shape)
    t = np.empty(rows.shape)
    KR.removal_odds(np.asarray(hand, dtype=np.int64), prep.kernel_group("removal_model"), rows,
                    w, t)
    return w, t


def split_values(prep: Prepared, hand: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The table value against one opponent (N,) of the splits of ``hand`` whose row
    strengths are ``rows`` (N, 3), with the hand's own card removal when the tables model it:
    what the search gives the same split, to the last bit (a played arrangement's value,
    beside the best one's, for a review)."""
    rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, 3)
    st = prep.tables
    if st.removal is None:
        idx = np.arange(3)
        w, t, l = st.pw[idx, rows], st.pt[idx, rows], st.lr[idx, rows]
    else:
        w, t, l = (np.empty(rows.shape) for _ in range(3))
        KR.removal_row_terms(np.asarray(hand, dtype=np.int64), prep.kernel_group("removal_model"),
                             rows, w, t, l)
    out = np.empty(len(rows))
    KT.split_values(rows, np.ascontiguousarray(w), np.ascontiguousarray(t),
                    np.ascontiguousarray(l), st.roy, prep.kernel_group("scoring"), out)
    return out


@functools.lru_cache(maxsize=32)
def row_lists(rules: Rules) -> tuple[list, list]:
    """Hand kind per strength and royalty units (per row, per strength) as Python lists: what
    listing a few arrangements reads, without a NumPy call per value (cached per rules)."""
    return TABLES[rules.wheel].kind.tolist(), rules.royalty_array.tolist()


class TopK(NamedTuple):
    """What the search returns for a batch of N hands and its ``k``."""

    split: np.ndarray  # (N, k) packed splits (-1 past ``found``)
    ev: np.ndarray     # (N, k) values against one opponent, best first
    rows: np.ndarray   # (N, k, 3) row strengths: front, middle, back
    found: np.ndarray  # (N,) how many distinct row-strength triples were found
    odds: np.ndarray   # (N, k, 7) win chances of the rows, their tie chances, chance of all three


# the card-removal search kernels: "lazy" (exact terms computed as the search needs them,
# :mod:`solver.games.capsa.kernels.lazy`) and "eager" (every term of every strength a hand
# holds first, :func:`solver.games.capsa.kernels.removal.removal_top`: the previous path, kept
# for the benchmark and the tests). Both give the same answers.
REMOVAL_KERNELS = ("lazy", "eager")
DEFAULT_KERNEL = "lazy"


def _model(prep: Prepared, kernel: str) -> tuple[Any, tuple]:
    """The search kernel for the prepared tables and the value model it reads."""
    if not prep.card_removal:
        return KS.table_top, prep.kernel_group("plain_model")
    if kernel == "lazy":
        return KL.lazy_top, prep.kernel_group("lazy_model")
    return KR.removal_top, prep.kernel_group("removal_model")


def search_top(hands: np.ndarray, prep: Prepared, k: int = 1, kernel: str | None = None) -> TopK:
    """The ``k`` best distinct row-strength triples of each hand (N, 13) under the table
    strategy, with their odds against one opponent. Under tables with card removal each
    hand is valued with its own opponent tables, and the odds are its own; ``kernel`` picks
    the card-removal search (:data:`REMOVAL_KERNELS`, default :data:`DEFAULT_KERNEL`)."""
    kernel = kernel or DEFAULT_KERNEL
    if kernel not in REMOVAL_KERNELS:
        raise ValueError(f"kernel must be one of {', '.join(REMOVAL_KERNELS)}, got {kernel!r}")
    fn, model = _model(prep, kernel)
    hands = np.ascontiguousarray(hands, dtype=np.int64).reshape(-1, 13)
    n = len(hands)
    out = (np.full((n, k), -1, dtype=np.int64), np.full((n, k), -np.inf),
           np.zeros((n, k, 3), dtype=np.int32), np.zeros(n, dtype=np.int64), np.zeros((n, k, 7)))
    fn(hands, prep.kernel_group("lookups"), model, prep.kernel_group("scoring"), k,
       _scratch(TABLES[prep.rules.wheel].size), out)
    return TopK(*out)


def search_best(hands: np.ndarray, prep: Prepared, k: int = 1, kernel: str | None = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`search_top` without the odds: packed splits (N, k), values (N, k), rows
    (N, k, 3) and how many (N,)."""
    return search_top(hands, prep, k, kernel)[:4]
