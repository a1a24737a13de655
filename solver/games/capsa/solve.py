"""The solver: a 13-card hand's arrangements ranked by expected points against the opponents.

Three opponent models (``method``):

- ``table``: every valid split scored with the self-play row tables (per-row win/tie
  probabilities against one opponent, royalties, scoop, the opponents' naturals). Fast.
- ``montecarlo``: ``samples`` random deals of the unseen cards; each opponent sets its hand
  with the ``table`` strategy; candidate splits are scored exactly as the referee would, on
  the same deals (common random numbers). Candidates are the splits no other split beats or
  ties in all three rows (a split weakly worse in every row can never score more on any deal
  when royalties grow with the row's strength); with ``single_royalty`` in ``winner`` mode,
  or a royalty table that does not grow with strength, every valid split is a candidate.
- ``known``: the opponents' arrangements (or their 13 cards, set by the ``table`` strategy)
  are given; the exact best response, equal to what the referee would score.

``ev`` is expected points per hand summed over all opponents. With ``known`` it is exact.

>>> res = arrange("As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h", opponents=1, top=1)
>>> res.valid_arrangements
18835
>>> res.arrangements[0].arrangement.back != ()
True
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from solver.cards import format_cards
from solver.errors import CardError, InputError, WorkLimitError
from solver.executors.dask import map_chunks
from solver.executors.pool import PoolExecutor
from solver.games.capsa import kernels as K
from solver.games.capsa.columns import BatchColumns
from solver.games.capsa.kernels.splits import INDEX_BITS, STRENGTH_BITS
from solver.games.capsa.limits import MAX_SAMPLES, MAX_TOP
from solver.games.capsa.lookup import KIND_NAMES, TABLES
from solver.games.capsa.naturals import Natural, detect_natural
from solver.games.capsa.referee import make_seat, royalty_units
from solver.games.capsa.rules import Rules, resolve_rules
from solver.games.capsa.search import row_lists, search_top
from solver.games.capsa.splits import (
    Arrangement,
    all_valid_splits,
    parse_hand,
    unpack_split,
    valid_arrangements,
)
from solver.games.capsa.strategy.play import (
    deal,
    kernel_params,
    natural_codes,
    royalties_grow,
    table_play,
)
from solver.games.capsa.strategy.tables import (
    NATURAL_BY_CODE,
    StrategyTables,
    plain_tables,
    tables_for,
)

METHODS = ("table", "montecarlo", "known")
ROW_NAMES = ("front", "middle", "back")


class RowInfo(NamedTuple):
    """One row's kind and its chances against one opponent (immutable; a named tuple, cheap
    to build for every listed arrangement)."""

    row: str
    kind: str
    win: float
    tie: float

    def to_dict(self) -> dict:
        return {"row": self.row, "kind": self.kind, "win": round(self.win, 6),
                "tie": round(self.tie, 6)}


class RankedArrangement:
    """One arrangement with its expected points and per-row odds against one opponent.

    Read-only. The ``table`` path builds it lazily: ``arrangement`` and ``rows`` are made
    from the packed split and the row strengths when first read (most callers read the
    best one only, or just the JSON)."""

    __slots__ = ("ev", "royalties", "scoop", "_arrangement", "_rows", "_lazy")

    def __init__(self, arrangement: Arrangement | None, ev: float,
                 rows: tuple[RowInfo, RowInfo, RowInfo] | None, royalties: int, scoop: float,
                 lazy: tuple | None = None) -> None:
        set_ = object.__setattr__
        set_(self, "ev", ev)
        set_(self, "royalties", royalties)
        set_(self, "scoop", scoop)
        set_(self, "_arrangement", arrangement)
        set_(self, "_rows", rows)
        set_(self, "_lazy", lazy)  # (cards, packed, (f, m, b), odds, kinds) or None

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"RankedArrangement is read-only: cannot set {name!r}")

    @property
    def arrangement(self) -> Arrangement:
        if self._arrangement is None:
            cards, packed = self._lazy[0], self._lazy[1]  # type: ignore[index]
            object.__setattr__(self, "_arrangement", unpack_split(cards, packed))
        return self._arrangement  # type: ignore[return-value]

    @property
    def rows(self) -> tuple[RowInfo, RowInfo, RowInfo]:
        if self._rows is None:
            _, _, (f, m, b), odds, kinds = self._lazy  # type: ignore[misc]
            object.__setattr__(self, "_rows", (
                RowInfo("front", KIND_NAMES[kinds[f]], odds[0], odds[3]),
                RowInfo("middle", KIND_NAMES[kinds[m]], odds[1], odds[4]),
                RowInfo("back", KIND_NAMES[kinds[b]], odds[2], odds[5])))
        return self._rows  # type: ignore[return-value]

    def _key(self) -> tuple:
        return (self.arrangement, self.ev, self.rows, self.royalties, self.scoop)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RankedArrangement) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"RankedArrangement(arrangement={self.arrangement!r}, ev={self.ev!r}, "
                f"rows={self.rows!r}, royalties={self.royalties!r}, scoop={self.scoop!r})")

    def to_dict(self) -> dict:
        d: dict[str, Any] = self.arrangement.to_dict()
        d.update(ev=round(self.ev, 6), rows=[r.to_dict() for r in self.rows],
                 royalties=self.royalties, scoop=round(self.scoop, 6))
        return d


class ArrangeResult:
    """A ranked answer. With ``table`` the number of valid splits is counted on first use
    (the search itself never lists them all); ``candidates`` then equals it."""

    __slots__ = ("hand", "_valid", "natural", "arrangements", "method", "opponents", "rules",
                 "samples", "seed", "_candidates", "card_removal")

    def __init__(self, hand: tuple[int, ...], valid_arrangements: int | None,
                 natural: Natural | None, arrangements: list[RankedArrangement], method: str,
                 opponents: int, rules: Rules, samples: int | None = None,
                 seed: int | None = None, candidates: int | None = 0,
                 card_removal: bool = True) -> None:
        self.hand = hand
        self._valid = valid_arrangements
        self.natural = natural
        self.arrangements = arrangements
        self.method = method
        self.opponents = opponents
        self.rules = rules
        self.samples = samples
        self.seed = seed
        self._candidates = candidates
        self.card_removal = card_removal  # whether the table decisions used card removal

    @property
    def valid_arrangements(self) -> int:
        if self._valid is None:
            self._valid = valid_arrangements(np.asarray(self.hand, dtype=np.int64), self.rules)
        return self._valid

    @property
    def candidates(self) -> int:
        return self.valid_arrangements if self._candidates is None else self._candidates

    @property
    def best(self) -> RankedArrangement:
        return self.arrangements[0]

    def __repr__(self) -> str:
        return (f"ArrangeResult(hand={format_cards(self.hand)!r}, method={self.method!r}, "
                f"best={self.best!r})")

    def to_dict(self) -> dict:
        d: dict[str, Any] = {
            "hand": format_cards(self.hand),
            "valid_arrangements": self.valid_arrangements,
            "natural": self.natural.to_dict() if self.natural else None,
            "arrangements": [a.to_dict() for a in self.arrangements],
            "method": self.method,
            "opponents": self.opponents,
            "candidates": self.candidates,
            "card_removal": self.card_removal,
        }
        if self.method == "montecarlo":
            d.update(samples=self.samples, seed=self.seed)
        return d


@dataclass
class _Splits:
    """The valid splits of a hand with their row strengths and royalties."""

    hand: np.ndarray
    packed: np.ndarray
    rows: np.ndarray  # (N, 3) front, middle, back strengths
    royalties: np.ndarray  # (N, 3)
    v5: np.ndarray = field(repr=False)
    v3: np.ndarray = field(repr=False)


def _valid_splits(hand: np.ndarray, rules: Rules) -> _Splits:
    packed, v5, v3 = all_valid_splits(hand, rules)
    rows = np.stack([v3[packed >> 22], v5[(packed >> 11) & 2047], v5[packed & 2047]], axis=1)
    roy = np.stack([rules.royalty_array[r][rows[:, r]] for r in range(3)], axis=1)
    return _Splits(hand, packed, rows.astype(np.int64), roy.astype(np.int64), v5, v3)


def _kinds(rows: np.ndarray, rules: Rules) -> list[str]:
    kinds = TABLES[rules.wheel].kind
    return [KIND_NAMES[kinds[s]] for s in rows]


def _check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise InputError(f"{name} must be true or false, got {value!r}")
    return bool(value)


def _check_int(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InputError(f"{name} must be a whole number, got {value!r}")
    if not low <= value <= high:
        raise InputError(f"{name} must be between {low} and {high}, got {value}")
    return int(value)


# ---------------------------------------------------------------- table
def _table_result(h: np.ndarray, rules: Rules, opponents: int, top: int,
                  st: StrategyTables) -> list[RankedArrangement]:
    """The ``top`` best distinct row-strength triples under the tables ``st``, with their
    odds, from one best-k kernel call."""
    best = search_top(h[None, :], rules, st, top)
    k = int(best.found[0])
    kinds, roy = row_lists(rules)
    own = st.opp_royalty if rules.royalty_mode == "net" else 0.0
    cards = h.tolist()
    out = []
    for p, v, fmb, odds in zip(best.split[0, :k].tolist(), best.ev[0, :k].tolist(),
                               best.rows[0, :k].tolist(), best.odds[0, :k].tolist()):
        f, m, b = fmb
        units = (sum(royalty_units((f, m, b), rules)) if rules.single_royalty
                 else roy[0][f] + roy[1][m] + roy[2][b])
        ev = opponents * ((1 - st.p_natural) * (v - own) - st.p_natural * st.natural_units)
        out.append(RankedArrangement(None, float(ev), None, units, odds[6],
                                     (cards, p, fmb, odds, kinds)))
    return out


# ---------------------------------------------------------------- exact scoring (MC and known)
def _candidates(sp: _Splits, rules: Rules) -> np.ndarray:
    """Indices of the splits worth scoring exactly (see the module docstring)."""
    if (rules.single_royalty and rules.royalty_mode == "winner") or not royalties_grow(rules):
        return np.arange(len(sp.packed))
    top = (1 << STRENGTH_BITS) - 1
    rows = sp.rows
    # one integer per split sorts by back, middle, front (strongest first), then position
    keys = ((((top - rows[:, 2]) << STRENGTH_BITS | (top - rows[:, 1])) << STRENGTH_BITS
             | (top - rows[:, 0])) << INDEX_BITS) | np.arange(len(rows))
    keys.sort()
    return K.pareto_front(keys)


def _opponent_rows(hands: np.ndarray, rules: Rules, tables: StrategyTables | None = None,
                   setter: Any = None) -> tuple[np.ndarray, ...]:
    """Opponents' hands (S, O, 13) set with the table strategy (``tables``: default the
    shipped ones; ``setter``: default :func:`table_play`, all in one kernel call): rows,
    royalties, fouls, naturals."""
    s, o = hands.shape[:2]
    flat = hands.reshape(s * o, 13)
    _, _, rows = (setter or table_play)(flat, rules, tables)
    roy = np.stack([rules.royalty_array[r][rows[:, r]] for r in range(3)], axis=1)
    nat = np.zeros(s * o, dtype=np.int64)
    if rules.naturals_on:
        codes = natural_codes(flat)
        for code, kind in NATURAL_BY_CODE.items():
            nat[codes == code] = rules.natural_units(kind)
    return (rows.reshape(s, o, 3).astype(np.int64), roy.reshape(s, o, 3).astype(np.int64),
            np.zeros((s, o), dtype=np.bool_), nat.reshape(s, o))


def _exact_result(sp: _Splits, rules: Rules, opp: tuple[np.ndarray, ...], top: int,
                  cand: np.ndarray) -> list[RankedArrangement]:
    rows, roy, foul, nat = opp
    n = len(cand)
    points = np.empty(n)
    win = np.empty((n, 3), dtype=np.int64)
    tie = np.empty((n, 3), dtype=np.int64)
    scoop = np.empty(n, dtype=np.int64)
    played = np.empty(n, dtype=np.int64)
    scoring, bonus, net, single = kernel_params(rules)
    K.score_candidates(np.ascontiguousarray(sp.rows[cand]), np.ascontiguousarray(sp.royalties[cand]),
                       rows, roy, foul, nat, scoring, int(bonus), net, single,
                       points, win, tie, scoop, played)
    deals = rows.shape[0]
    ev = points / deals
    order = np.lexsort((sp.packed[cand], -ev))[:top]
    out = []
    for j in order:
        i = cand[j]
        denom = max(int(played[j]), 1)
        kinds = _kinds(sp.rows[i], rules)
        info = tuple(RowInfo(ROW_NAMES[r], kinds[r], float(win[j, r] / denom),
                             float(tie[j, r] / denom))
                     for r in range(3))
        f, m, b = (int(x) for x in sp.rows[i])
        out.append(RankedArrangement(unpack_split(sp.hand, int(sp.packed[i])), float(ev[j]),
                                     info, sum(royalty_units((f, m, b), rules)),  # type: ignore[arg-type]
                                     float(scoop[j] / denom)))
    return out


def _known_opponents(hand: np.ndarray, rules: Rules, opponent_hands: Sequence[object] | None,
                     opponent_arrangements: Sequence[Mapping[str, object]] | None,
                     st: StrategyTables | None = None) -> tuple[np.ndarray, ...]:
    if (opponent_hands is None) == (opponent_arrangements is None):
        raise InputError("method 'known' needs exactly one of opponent_hands or "
                         "opponent_arrangements")
    given = list(opponent_hands if opponent_hands is not None else opponent_arrangements)  # type: ignore[arg-type]
    if not 1 <= len(given) <= 3:
        raise InputError(f"give 1 to 3 opponents, got {len(given)}")
    rows = np.zeros((1, len(given), 3), dtype=np.int64)
    roy = np.zeros((1, len(given), 3), dtype=np.int64)
    foul = np.zeros((1, len(given)), dtype=np.bool_)
    nat = np.zeros((1, len(given)), dtype=np.int64)
    used = {int(c): "your hand" for c in hand}
    problems = []
    for o, item in enumerate(given):
        if opponent_hands is not None:
            try:
                cards = parse_hand(item)  # type: ignore[arg-type]
            except CardError as exc:
                raise CardError([f"opponent {o}: {p}" for p in exc.problems]) from None
            code = int(natural_codes(cards[None, :])[0]) if rules.naturals_on else 0
            if code:
                nat[0, o] = rules.natural_units(NATURAL_BY_CODE[code])
            _, _, r = table_play(cards[None, :], rules, st)
            rows[0, o] = r[0]
            roy[0, o] = royalty_units(tuple(int(x) for x in r[0]), rules)  # type: ignore[arg-type]
        else:
            if not isinstance(item, Mapping):
                raise InputError(f"opponent {o}: an arrangement is an object with front, "
                                 "middle and back")
            seat = make_seat(item, rules, o)
            if seat.arrangement is None:
                raise InputError(f"opponent {o}: give front, middle and back")
            cards = np.array(seat.cards)
            rows[0, o] = seat.strengths
            roy[0, o] = seat.royalties
            foul[0, o] = seat.foul
        for c in cards:
            if int(c) in used:
                problems.append(f"card {format_cards([int(c)])[0]!r} of opponent {o} is also in "
                                f"{used[int(c)]}")
            used.setdefault(int(c), f"opponent {o}'s hand")
    if problems:
        raise CardError(problems)
    return rows, roy, foul, nat


# ---------------------------------------------------------------- work limits
# Work is counted in "candidate scorings" (one candidate split against one opponent in one
# sampled deal). Setting one sampled opponent hand with the tables (with card removal) costs
# about as much as 2,300 of them (measured: ~55 us per hand against ~0.024 us per scoring).
OPPONENT_SET_COST = 2_300


def montecarlo_work(samples: int, opponents: int, candidates: int) -> int:
    """Work units of a Monte Carlo decision: samples x opponents x (candidates + set cost).

    >>> montecarlo_work(1000, 3, 10)
    6930000
    """
    return samples * opponents * (candidates + OPPONENT_SET_COST)


def _check_work(samples: int, opponents: int, candidates: int, max_work: int | None,
                what: str = "this Monte Carlo request") -> None:
    if max_work is None:
        return
    work = montecarlo_work(samples, opponents, candidates)
    if work > max_work:
        fits = max_work // (opponents * (candidates + OPPONENT_SET_COST))
        raise WorkLimitError(
            f"{what} needs {work:,} work units ({samples:,} samples x {opponents} opponents x "
            f"({candidates:,} candidate splits + {OPPONENT_SET_COST:,} to set each sampled "
            f"hand)), over the limit of {max_work:,}; allowed: at most {fits:,} samples here")


def batch_work(hands: np.ndarray, rules: object, opponents: int, samples: int) -> int:
    """Work units of a Monte Carlo batch: the sum over its hands (candidates hand by hand)."""
    r = resolve_rules(rules)  # type: ignore[arg-type]
    cands = sum(len(_candidates(_valid_splits(h, r), r)) for h in hands)
    return samples * opponents * (cands + OPPONENT_SET_COST * len(hands))


# ---------------------------------------------------------------- public API
def arrange(hand: str | Iterable[object], rules: object = "standard", opponents: int = 3,
            method: str = "table", samples: int = 1000, seed: int | None = None, top: int = 5,
            opponent_hands: Sequence[object] | None = None,
            opponent_arrangements: Sequence[Mapping[str, object]] | None = None,
            tables: StrategyTables | None = None, max_work: int | None = None,
            card_removal: bool = True) -> ArrangeResult:
    """Rank the arrangements of a 13-card hand by expected points against the opponents.

    ``opponent_hands`` / ``opponent_arrangements`` go with ``method="known"`` and then fix the
    number of opponents. ``tables`` (``montecarlo`` only) are the row tables the sampled
    opponents play with, default the shipped ones: a best response to a candidate table.
    ``max_work`` (``montecarlo`` only) raises :class:`WorkLimitError` before any sampling
    when :func:`montecarlo_work` is over it (the service bounds every request this way).
    ``card_removal=False`` plays every ``table`` decision of the call (the hand's own with
    ``table``, the sampled or given opponents' otherwise) without card removal: about 2.5
    times faster, and more exploitable (see the README).
    """
    r = resolve_rules(rules)  # type: ignore[arg-type]
    if method not in METHODS:
        raise InputError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    top = _check_int("top", top, 1, MAX_TOP)
    card_removal = _check_bool("card_removal", card_removal)
    h = parse_hand(hand)
    if method != "known":
        opponents = _check_int("opponents", opponents, 1, 3)
        if opponent_hands is not None or opponent_arrangements is not None:
            raise InputError("opponent_hands and opponent_arrangements go with method 'known'")
    used_seed = None
    n_samples = None
    st = tables if tables is not None and method == "montecarlo" else tables_for(r)
    if not card_removal:
        st = plain_tables(st)
    if method == "table":
        natural = detect_natural(h, r)
        ranked = _table_result(h, r, opponents, top, st)
        return ArrangeResult(tuple(int(c) for c in h), None, natural, ranked, method,
                             opponents, r, candidates=None, card_removal=card_removal)
    sp = _valid_splits(h, r)
    natural = detect_natural(h, r, (sp.v5, sp.v3))
    if method == "montecarlo":
        n_samples = _check_int("samples", samples, 1, MAX_SAMPLES)
        if seed is None:
            used_seed = secrets.randbits(63)
        else:
            used_seed = _check_int("seed", seed, 0, 2**63 - 1)
        cand = _candidates(sp, r)
        _check_work(n_samples, opponents, len(cand), max_work)
        unseen = np.setdiff1d(np.arange(52), h)
        deals = deal(np.random.default_rng(used_seed), n_samples, opponents, unseen)
        ranked = _exact_result(sp, r, _opponent_rows(deals, r, st), top, cand)
        n_cand = len(cand)
    else:
        opp = _known_opponents(h, r, opponent_hands, opponent_arrangements, st)
        opponents = opp[0].shape[1]
        cand = _candidates(sp, r)
        ranked = _exact_result(sp, r, opp, top, cand)
        n_cand = len(cand)
    return ArrangeResult(tuple(int(c) for c in h), len(sp.packed), natural, ranked, method,
                         opponents, r, n_samples, used_seed, n_cand, card_removal)


def warm_up() -> None:
    """Compile (or load) the solver kernels on a small hand."""
    hand = "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h"
    for rules in ("standard", "two-four", "indonesia"):
        arrange(hand, rules, opponents=1, top=2)
        valid_arrangements(hand, rules)  # what ``to_dict`` of a ``table`` answer counts
        arrange(hand, rules, opponents=1, method="montecarlo", samples=2, seed=1, top=1)
    arrange(hand, opponents=1, method="known", top=1,
            opponent_hands=["2s 2d 3h 3s 4c 4d 5h 6s 7h 8c 9c Tc Jc"])


# ---------------------------------------------------------------- many hands
def hand_seed(seed: int, hand: np.ndarray) -> int:
    """The Monte Carlo seed of one hand in a batch: fixed by the batch seed and the cards, so a
    hand gets the same answer whatever chunk, order or worker solves it."""
    return int(np.random.SeedSequence([seed, *sorted(int(c) for c in hand)]).generate_state(
        2, np.uint64)[0] >> np.uint64(1))


def best_many_columns(hands: np.ndarray, rules: object = "standard", opponents: int = 3,
                      method: str = "table", samples: int = 1000, seed: int = 0,
                      card_removal: bool = True) -> BatchColumns:
    """The best arrangement and its ev for each hand of an (N, 13) array, in one process, as
    columns. ``table`` sets the whole array in one kernel call; ``montecarlo`` solves hand by
    hand with the seed :func:`hand_seed` gives. ``card_removal`` as in :func:`arrange`."""
    r = resolve_rules(rules)  # type: ignore[arg-type]
    hands = np.sort(np.asarray(hands, dtype=np.int64).reshape(-1, 13), axis=1)
    opponents = _check_int("opponents", opponents, 1, 3)
    card_removal = _check_bool("card_removal", card_removal)
    if method == "table":
        st = tables_for(r, card_removal=card_removal)
        split, value, _ = table_play(hands, r, st)
        net = r.royalty_mode == "net"
        per_opp = ((1 - st.p_natural) * (value - (st.opp_royalty if net else 0.0))
                   - st.p_natural * st.natural_units)
        return BatchColumns.from_splits(hands, split, opponents * per_opp)
    if method == "montecarlo":
        ev = np.empty(len(hands))
        rows = np.empty((len(hands), 13), dtype=np.int64)
        for i, h in enumerate(hands):
            res = arrange(h, r, opponents, "montecarlo", samples, hand_seed(seed, h), top=1,
                          card_removal=card_removal)
            arr = res.best.arrangement
            rows[i] = arr.front + arr.middle + arr.back
            ev[i] = res.best.ev
        return BatchColumns(hands, rows[:, :3], rows[:, 3:8], rows[:, 8:], ev)
    raise InputError(f"batch method must be table or montecarlo, got {method!r}")


def best_many(hands: np.ndarray, rules: object = "standard", opponents: int = 3,
              method: str = "table", samples: int = 1000, seed: int = 0,
              card_removal: bool = True) -> list[dict]:
    """:func:`best_many_columns` as one dict per hand."""
    return best_many_columns(hands, rules, opponents, method, samples, seed,
                             card_removal).to_dicts()


def best_chunk(chunk: np.ndarray, args: tuple) -> list[dict]:
    """``best_many(chunk, *args)``: the task an executor runs for one chunk."""
    return best_many(chunk.astype(np.int64), *args)


def best_chunk_columns(chunk: np.ndarray, args: tuple) -> BatchColumns:
    """``best_many_columns(chunk, *args)``: the columnar task of one chunk."""
    return best_many_columns(chunk.astype(np.int64), *args)


def _parse_many(hands: Iterable[object] | np.ndarray) -> np.ndarray:
    if isinstance(hands, np.ndarray) and hands.ndim == 2 and hands.shape[1] == 13:
        arr = np.sort(hands.astype(np.int64), axis=1)
        if arr.min(initial=0) >= 0 and arr.max(initial=0) < 52 and np.all(np.diff(arr, axis=1) > 0):
            return arr
        raise CardError("hands must hold 13 distinct card ids from 0 to 51 per row")
    out = []
    for i, h in enumerate(hands):
        try:
            out.append(parse_hand(h))  # type: ignore[arg-type]
        except CardError as exc:
            raise CardError([f"hand {i}: {p}" for p in exc.problems]) from None
    return np.array(out, dtype=np.int64).reshape(-1, 13)


def _map_chunks(arr: np.ndarray, task: Any, args: tuple, processes: int | None,
                chunk_size: int, client: Any) -> list[Any]:
    """``task(chunk, args)`` of every chunk, in input order: here, on a pool or a cluster."""
    chunks = [arr[i:i + chunk_size] for i in range(0, len(arr), chunk_size)]
    if client is not None:
        return map_chunks(client, task, chunks, args)
    workers = processes or os.cpu_count() or 1
    if workers == 1 or len(chunks) <= 1:
        return [task(c, args) for c in chunks]
    ex = PoolExecutor(task, args, workers)
    for i, chunk in enumerate(chunks):
        ex.submit(i, chunk)
    parts: list[Any] = [None] * len(chunks)
    for _ in chunks:
        i, part = ex.next_done()
        parts[i] = part
    return parts


def _batch_args(hands: Iterable[object] | np.ndarray, rules: object, method: str,
                card_removal: object) -> tuple[np.ndarray, bool]:
    """The parsed hands and the checked ``card_removal``: every problem before any work."""
    arr = _parse_many(hands)
    resolve_rules(rules)  # type: ignore[arg-type]
    if method not in ("table", "montecarlo"):
        raise InputError(f"batch method must be table or montecarlo, got {method!r}")
    return arr, _check_bool("card_removal", card_removal)


def arrange_many(hands: Iterable[object] | np.ndarray, rules: object = "standard",
                 opponents: int = 3, method: str = "table", samples: int = 1000,
                 seed: int = 0, processes: int | None = None, chunk_size: int = 2000,
                 client: Any = None, max_work: int | None = None,
                 card_removal: bool = True) -> list[dict]:
    """Best arrangement and ev for many hands (a list of hands, or an (N, 13) array of ids).

    Uses every local core by default (processes, not numba threads); ``processes=1`` stays in
    this process; ``client`` (a ``dask.distributed.Client``) sends the chunks to a cluster.
    Results come back in input order. :func:`arrange_many_columns` gives the same as arrays.
    ``max_work`` bounds a Monte Carlo batch's :func:`batch_work` (a :class:`WorkLimitError`
    before any sampling). ``card_removal`` as in :func:`arrange`.
    """
    arr, card_removal = _batch_args(hands, rules, method, card_removal)
    if method == "montecarlo" and max_work is not None:
        opponents = _check_int("opponents", opponents, 1, 3)
        samples = _check_int("samples", samples, 1, MAX_SAMPLES)
        work = batch_work(arr, rules, opponents, samples)
        if work > max_work:
            per_sample = work // samples
            raise WorkLimitError(
                f"this Monte Carlo batch needs {work:,} work units ({len(arr):,} hands x "
                f"{samples:,} samples x {opponents} opponents, each hand's candidate splits "
                f"plus {OPPONENT_SET_COST:,} to set each sampled hand), over the limit of "
                f"{max_work:,}; allowed: at most {max(max_work // per_sample, 0):,} samples "
                "for these hands, or fewer hands")
    parts = _map_chunks(arr, best_chunk, (rules, opponents, method, samples, seed,
                                          card_removal), processes, chunk_size, client)
    return [d for part in parts for d in part]


def arrange_many_columns(hands: Iterable[object] | np.ndarray, rules: object = "standard",
                         opponents: int = 3, method: str = "table", samples: int = 1000,
                         seed: int = 0, processes: int | None = None, chunk_size: int = 2000,
                         client: Any = None, card_removal: bool = True) -> BatchColumns:
    """:func:`arrange_many` as columns (:class:`BatchColumns`: NumPy arrays, ``to_arrow()``
    for an Arrow table, ``to_dicts()`` for the dicts), without a dict per hand."""
    arr, card_removal = _batch_args(hands, rules, method, card_removal)
    parts = _map_chunks(arr, best_chunk_columns, (rules, opponents, method, samples, seed,
                                                  card_removal), processes, chunk_size, client)
    return BatchColumns.concat(parts)
