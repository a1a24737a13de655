"""Duplicate matches between two strategies: how many points per hand one gains over the other.

Luck cancels because both strategies play the same cards:

- heads-up: each deal of 2 hands is played twice with the seats swapped (A on hand 0 against B
  on hand 1, then B on hand 0 against A on hand 1); A's margin is the sum of its points over
  both games divided by 2 (points per hand played).
- 4 players: each deal of 4 hands is played twice, A in seat 0 against B in seats 1-3, then B
  in all four seats; A's margin is seat 0's points in the first game minus in the second.

Every game is settled exactly as the referee settles it (:func:`solver.games.capsa.referee.settle` on
seats from :func:`solver.games.capsa.referee.make_seat`). A hand holding a natural under the rules
declares it, whatever the strategy. A strategy sets a hand knowing only the rules and the
number of opponents; ``montecarlo`` seeds each hand with
:func:`solver.games.capsa.methods.montecarlo.hand_seed`, so a match is deterministic for a seed, whatever the number of workers.

>>> res = duplicate_match("table", "naive", deals=50, players=2, rules="two-four", seed=1,
...                       workers=1)
>>> res.deals, res.ci_low <= res.mean <= res.ci_high
(50, True)
>>> duplicate_match("table", "table", deals=20, players=2, seed=3, workers=1).mean
0.0
"""

from __future__ import annotations

import math
import os
import time
from concurrent.futures import Executor
from contextlib import nullcontext
from dataclasses import dataclass, field

import numpy as np

from solver.errors import InputError
from solver.games.capsa import kernels as K
from solver.games.capsa.arrange import arrange
from solver.games.capsa.limits import MAX_SAMPLES_PER_DECISION
from solver.games.capsa.methods.exact import opponent_rows
from solver.games.capsa.methods.montecarlo import hand_seed
from solver.games.capsa.naturals import detect_natural
from solver.games.capsa.referee import Seat, make_seat, settle
from solver.games.capsa.rules import Rules, RulesSpec, resolve_rules
from solver.games.capsa.splits import Arrangement, unpack_split
from solver.games.capsa.strategy.play import deal, kernel_params, naive_play, table_play
from solver.games.capsa.strategy.tables import StrategyTables, tables_for
from solver.validation import check_int

STRATEGIES = ("naive", "table", "montecarlo")
MAX_DEALS = 10_000_000
Z95 = 1.96


@dataclass(frozen=True)
class Strategy:
    """A way of setting a hand: ``naive`` (strongest back, then middle), ``table`` (the
    self-play row tables) or ``montecarlo`` (``samples`` random deals of the unseen cards).

    ``tables`` is a table file of the shipped format (default: the shipped one): the tables
    ``table`` plays with, or those the sampled opponents of ``montecarlo`` play with, so that
    ``montecarlo`` is a best response to that ``table``. ``adaptive`` (``montecarlo``): stop
    sampling once the best split is settled, as ``arrange`` does; False draws every sample (the
    best response of the exploitability benchmark does, as its recorded figures did)."""

    name: str
    samples: int = 1000
    tables: str | None = None
    adaptive: bool = True

    def __post_init__(self) -> None:
        if self.name not in STRATEGIES:
            raise InputError(f"strategy must be one of {', '.join(STRATEGIES)}, got {self.name!r}")
        if self.name == "montecarlo":
            check_int("samples", self.samples, 1, MAX_SAMPLES_PER_DECISION)
        if self.tables is not None and self.name == "naive":
            raise InputError("naive plays without tables; tables go with table or montecarlo")
        if self.tables is not None and not os.path.isfile(self.tables):
            raise InputError(f"table file {self.tables!r} does not exist")

    @property
    def label(self) -> str:
        base = f"montecarlo({self.samples})" if self.name == "montecarlo" else self.name
        if self.name == "montecarlo" and not self.adaptive:
            base = f"montecarlo({self.samples}, every sample)"
        return base if self.tables is None else f"{base}[{os.path.basename(self.tables)}]"

    def row_tables(self, rules: Rules) -> StrategyTables:
        """The row tables this strategy plays (``table``) or samples opponents with."""
        return tables_for(rules, self.tables)

    def arrangements(self, hands: np.ndarray, rules: Rules, opponents: int,
                     seed: int) -> list[Arrangement]:
        """The arrangement this strategy picks for each hand of an (N, 13) array."""
        if len(hands) == 0:
            return []
        if self.name == "naive":
            packed = naive_play(hands, rules)[0]
            return [unpack_split(h, int(p)) for h, p in zip(hands, packed)]
        if self.name == "table":
            packed = table_play(hands, rules, self.row_tables(rules))[0]
            return [unpack_split(h, int(p)) for h, p in zip(hands, packed)]
        opp_tables = None if self.tables is None else self.row_tables(rules)
        return [arrange(h, rules, opponents, "montecarlo", self.samples,
                        seed=hand_seed(seed, h), top=1, tables=opp_tables,
                        adaptive=self.adaptive).best.arrangement
                for h in hands]

    def seats(self, hands: np.ndarray, rules: Rules, opponents: int, seed: int) -> list[Seat]:
        """Referee seats for each hand: a declared natural, or the strategy's arrangement."""
        hands = np.sort(np.asarray(hands, dtype=np.int64).reshape(-1, 13), axis=1)
        naturals: dict[int, Seat] = {}
        rows = []
        for i, h in enumerate(hands):
            if rules.naturals_on and detect_natural(h, rules) is not None:
                naturals[i] = make_seat({"hand": [int(c) for c in h]}, rules, i)
            else:
                rows.append(i)
        arrs = dict(zip(rows, self.arrangements(hands[rows], rules, opponents, seed)))
        return [naturals[i] if i in naturals else make_seat(arrs[i], rules, i)
                for i in range(len(hands))]


def as_strategy(s: str | Strategy, samples: int = 1000) -> Strategy:
    return s if isinstance(s, Strategy) else Strategy(s, samples)


@dataclass(frozen=True)
class MatchResult:
    """A's mean points per hand over B, its standard error and 95% confidence interval."""

    a: str
    b: str
    players: int
    rules: Rules
    deals: int
    mean: float
    se: float
    seed: int
    seconds: float = field(compare=False)
    margins: np.ndarray = field(repr=False, compare=False)

    @property
    def ci_low(self) -> float:
        return self.mean - Z95 * self.se

    @property
    def ci_high(self) -> float:
        return self.mean + Z95 * self.se

    def to_dict(self) -> dict:
        return {"a": self.a, "b": self.b, "players": self.players, "deals": self.deals,
                "rules": self.rules.to_dict(),
                "mean": self.mean, "se": self.se, "ci95": [self.ci_low, self.ci_high],
                "seed": self.seed, "seconds": round(self.seconds, 3)}


def deal_margins(a: Strategy, b: Strategy, deals: np.ndarray, rules: Rules,
                 seed: int) -> np.ndarray:
    """A's margin (points per hand over B) on each deal of an (n, players, 13) array."""
    n, players = deals.shape[:2]
    opp = players - 1
    out = np.zeros(n, dtype=np.float64)
    if players == 2:
        sa = a.seats(deals.reshape(-1, 13), rules, opp, seed)
        sb = b.seats(deals.reshape(-1, 13), rules, opp, seed)
        for d in range(n):
            a0, a1, b0, b1 = sa[2 * d], sa[2 * d + 1], sb[2 * d], sb[2 * d + 1]
            out[d] = (settle(a0, b1, rules).points + settle(a1, b0, rules).points) / 2
        return out
    sa = a.seats(deals[:, 0], rules, opp, seed)
    sb = b.seats(deals.reshape(-1, 13), rules, opp, seed)
    for d in range(n):
        others = sb[d * players + 1:(d + 1) * players]
        first = sum(settle(sa[d], o, rules).points for o in others)
        second = sum(settle(sb[d * players], o, rules).points for o in others)
        out[d] = first - second
    return out


def match_deals(n: int, players: int, seed: int) -> np.ndarray:
    """The deals of a match: (n, players, 13), fixed by the seed."""
    return deal(np.random.default_rng(seed), n, players)


def duplicate_match(a: str | Strategy, b: str | Strategy, deals: int = 1000, players: int = 2,
                    rules: RulesSpec = "standard", seed: int = 0, samples: int = 1000,
                    workers: int | None = None, chunk: int | None = None,
                    executor: Executor | None = None) -> MatchResult:
    """Play ``deals`` duplicate deals of A against B (see the module docstring).

    ``workers`` processes (default: every core; 1 stays in this process) take chunks of deals,
    or ``executor`` (any ``concurrent.futures`` executor, e.g. a warm pool) does; the result
    does not depend on the number of workers or the chunk size.
    """
    from solver.executors.pool import local_executor  # here: a game loads no executor
    sa, sb = as_strategy(a, samples), as_strategy(b, samples)
    r = resolve_rules(rules)
    if players not in (2, 4):
        raise InputError(f"duplicate matches are heads-up (2) or 4 players, got {players}")
    deals = check_int("deals", deals, 1, MAX_DEALS)
    start = time.perf_counter()
    all_deals = match_deals(deals, players, seed)
    workers = workers or os.cpu_count() or 1
    size = chunk or max(1, min(500, math.ceil(deals / (8 * workers))))
    chunks = [all_deals[i:i + size] for i in range(0, deals, size)]
    n = len(chunks)
    with (nullcontext(executor) if executor is not None
          else local_executor(1 if n == 1 else workers)) as ex:
        parts = list(ex.map(deal_margins, [sa] * n, [sb] * n, chunks, [r] * n, [seed] * n))
    margins = np.concatenate(parts)
    mean = float(margins.mean())
    se = float(margins.std(ddof=1) / math.sqrt(deals)) if deals > 1 else float("nan")
    return MatchResult(sa.label, sb.label, players, r, deals, mean, se, seed,
                       time.perf_counter() - start, margins)


# ---------------------------------------------------------------- exploitability
@dataclass(frozen=True)
class ExploitChunk:
    """A best response's results on some duplicate deals against the ``table`` strategy S.

    ``margin``: BR's duplicate-deal margin over S per deal (as :func:`deal_margins`; in 4
    players, seat 0's points summed over the three opponents). ``gain``: the same quantity's
    conditional expectation given the cards BR holds: where BR sets a hand differently from S,
    both settings are scored against ``eval_samples`` fresh deals of the unseen cards set by S
    (common random numbers, drawn independently of BR's own samples, so the estimate is
    unbiased); where they agree, the gain is exactly 0. Both estimate the exploitability (E[gain]),
    the second with far less variance. ``differ``: hands BR set differently from S."""

    margin: np.ndarray
    gain: np.ndarray
    differ: int


EVAL_SALT = 0x5EED_E7A1


def eval_seed(seed: int, hand: np.ndarray) -> int:
    """Seed of the fresh evaluation deals of one hand (independent of :func:`hand_seed`)."""
    return int(np.random.SeedSequence([seed, EVAL_SALT, *sorted(int(c) for c in hand)])
               .generate_state(2, np.uint64)[0] >> np.uint64(1))


def seat_gain(hand: np.ndarray, mine: Seat, theirs: Seat, rules: Rules, opponents: int,
              tables: StrategyTables, samples: int, seed: int) -> float:
    """Expected points (summed over the opponents) of setting ``hand`` as ``mine`` rather than
    as ``theirs``, against ``samples`` deals of the unseen cards set with ``tables``."""
    if mine.strengths == theirs.strengths and mine.royalties == theirs.royalties \
            and mine.natural is None and theirs.natural is None:
        return 0.0
    unseen = np.setdiff1d(np.arange(52), hand)
    opp = opponent_rows(deal(np.random.default_rng(eval_seed(seed, hand)), samples, opponents,
                              unseen), rules, tables)
    cand = np.array([mine.strengths, theirs.strengths], dtype=np.int64)
    roy = np.array([mine.royalties, theirs.royalties], dtype=np.int64)
    points = np.empty(2)
    win = np.empty((2, 3), dtype=np.int64)
    tie = np.empty((2, 3), dtype=np.int64)
    scoop = np.empty(2, dtype=np.int64)
    played = np.empty(2, dtype=np.int64)
    scoring, bonus, net, single = kernel_params(rules)
    K.score_candidates(cand, roy, *opp, scoring, int(bonus), net, single,
                       points, win, tie, scoop, played)
    return float(points[0] - points[1]) / samples


def exploit_chunk(tables: str | None, samples: int, rules: Rules, deals: np.ndarray, seed: int,
                  eval_samples: int = 1000) -> ExploitChunk:
    """BR(S) = ``montecarlo`` (``samples``, opponents set by S) against S = ``table`` with the
    tables of the file ``tables`` (None: the shipped ones), on the duplicate deals (n, players,
    13). Deterministic for the deals and the seed. Like every Monte Carlo answer, BR keeps S's
    own split unless another beats it significantly on its deals
    (:func:`~solver.games.capsa.methods.montecarlo.keeps_table`; the records before that rule
    let the best on the deals play)."""
    n, players = deals.shape[:2]
    opp = players - 1
    s = Strategy("table", tables=tables)
    br = Strategy("montecarlo", samples, tables=tables, adaptive=False)
    st = s.row_tables(rules)
    flat = np.sort(deals.reshape(-1, 13), axis=1)
    ss = s.seats(flat, rules, opp, seed)
    margin = np.zeros(n)
    gain = np.zeros(n)
    differ = 0
    if players == 2:
        sb = br.seats(flat, rules, opp, seed)
        for d in range(n):
            b0, b1, s0, s1 = sb[2 * d], sb[2 * d + 1], ss[2 * d], ss[2 * d + 1]
            margin[d] = (settle(b0, s1, rules).points + settle(b1, s0, rules).points) / 2
            g = [seat_gain(flat[2 * d + i], b, t, rules, opp, st, eval_samples, seed)
                 for i, (b, t) in enumerate(((b0, s0), (b1, s1)))]
            differ += sum(x != 0.0 for x in g)
            gain[d] = (g[0] + g[1]) / 2
        return ExploitChunk(margin, gain, differ)
    sb = br.seats(flat[::players], rules, opp, seed)
    for d in range(n):
        others = ss[d * players + 1:(d + 1) * players]
        first = sum(settle(sb[d], o, rules).points for o in others)
        second = sum(settle(ss[d * players], o, rules).points for o in others)
        margin[d] = first - second
        gain[d] = seat_gain(flat[d * players], sb[d], ss[d * players], rules, opp, st,
                            eval_samples, seed)
        differ += gain[d] != 0.0
    return ExploitChunk(margin, gain, int(differ))
