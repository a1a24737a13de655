"""Opponent profiles: how one player sets 13 cards, learnt from the hands they showed, so that
Monte Carlo advice can play against them instead of against ``table``.

**The model.** A hand is set by one of four habits, drawn afresh for every hand:

- ``considered`` (weight ``q_c``): one of the splits a sound player weighs (the ``table``
  strategy's best :data:`~.profile_features.TOP_K` distinct row-strength triples, and its
  best of those keeping the strongest back and of those with a pair or better in front:
  :func:`~.profile_features.considered`), chosen by
  a conditional logit on their features (:data:`~.profile_features.FEATURES`: points given
  up against table's best by table's own values, being table's best, a pair or better in
  front, the strongest back of those weighed, royalty units);
- ``naive`` (``q_n``): the naive rule, the strongest back, then the strongest middle;
- ``random`` (``q_r``): any valid split, uniformly;
- ``foul`` (``q_f``): a fouled split (which one does not matter: a foul loses every row and
  pays no royalty).

A shown split is matched to the splits weighed and to the naive one by its row strengths
(what settles it), so the likelihood of a hand is ``q_c p(split) + q_n [naive] + q_r / valid``
or ``q_f / fouled``. The 8 parameters are fitted by maximum a posteriori (BFGS) under a
Gaussian prior centred on :data:`TABLE_PARAMS`, ``table`` itself as this model sees it (its
best split about 97% of the time), so that 20 hands move the profile a little and 500 a lot.
A declared natural is counted, not modelled (every method's sampled opponents declare the
naturals they hold).

**Measured.** The fit holds back every fifth hand (from 10 hands up), fits the rest and gives
both its log-likelihood per held-back hand and that of ``table`` (:data:`TABLE_PARAMS`);
the profile kept is then fitted on every hand.

**Sampling.** :meth:`Profile.set_hands` sets a batch of sampled hands: each hand draws its
habit, and only the hands that need one pay the best-k search or the naive rule, so a profile
costs about what ``table`` costs to set the same hands. :meth:`Profile.table` is ``table``
itself: it sets hands exactly as Monte Carlo's opponents are set today.

>>> p = Profile.table("standard")
>>> p.is_table, p.shares()["considered"] == 1.0
(True, True)
>>> Profile.from_dict(p.to_dict()) == p
True
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from solver.errors import InputError, RulesError
from solver.games.capsa.coach import (
    LineError,
    ReviewReport,
    decode_line,
    file_lines,
    json_problem,
    one_line,
    played_lines,
    split_text,
)
from solver.games.capsa.coach import review as coach_review
from solver.games.capsa.lookup import TABLES
from solver.games.capsa.methods.exact import OpponentRows, opponent_rows
from solver.games.capsa.naturals import detect_natural
from solver.games.capsa.profile_features import (
    ALL_SPLITS,
    FEATURES,
    TOP_K,
    considered,
    naive_rows,
    random_splits,
)
from solver.games.capsa.referee import row_strengths
from solver.games.capsa.rules import Rules, RulesSpec, resolve_rules
from solver.games.capsa.splits import valid_arrangements_many
from solver.games.capsa.strategy.play import natural_codes, table_play
from solver.games.capsa.strategy.tables import (
    NATURAL_BY_CODE,
    StrategyTables,
    plain_tables,
    tables_for,
)
from solver.games.lines import msg

FORMAT = "capsa-profile"
VERSION = 1
COMPONENTS = ("considered", "naive", "random", "foul")
# table as the model sees it: its best split by far, a little of everything else
TABLE_BETA = (4.0, 5.0, 0.0, 0.0, 0.0)
TABLE_SHARES = (0.99, 0.004, 0.004, 0.002)
TABLE_PARAMS = np.array(TABLE_BETA + tuple(math.log(q / TABLE_SHARES[0])
                                           for q in TABLE_SHARES[1:]))
PRIOR_SD = np.array([2.0, 2.0, 1.5, 1.5, 0.5, 2.0, 2.0, 2.0])
PARAM_NAMES = FEATURES + tuple(f"share_{c}" for c in COMPONENTS[1:])
HOLD_OUT_EVERY = 5
MIN_HOLD_OUT = 10  # hands: below this nothing is held back
MAX_PROFILE_HANDS = 100_000


@dataclass(frozen=True)
class Observed:
    """The shown hands a profile is fitted on: cards (N, 13), what was weighed for each
    (:func:`~.profile_features.considered`), which of those was shown (-1: none), whether it
    was the naive split, whether it fouled, and how many valid splits each hand has."""

    hands: np.ndarray
    weighed: Any  # Considered
    chosen: np.ndarray
    naive: np.ndarray
    foul: np.ndarray
    valid: np.ndarray
    back_top: np.ndarray  # the shown back is the naive (strongest) back

    def subset(self, idx: np.ndarray) -> Observed:
        w = self.weighed
        return Observed(self.hands[idx], type(w)(w.rows[idx], w.packed[idx], w.ok[idx],
                                                 w.values[idx], w.features[idx]),
                        self.chosen[idx], self.naive[idx], self.foul[idx], self.valid[idx],
                        self.back_top[idx])

    def __len__(self) -> int:
        return len(self.hands)


def observe(hands: np.ndarray, rows: np.ndarray, rules: Rules,
            st: StrategyTables | None = None) -> Observed:
    """What the fit reads of hands (N, 13) shown set with row strengths ``rows`` (N, 3)."""
    hands = np.ascontiguousarray(hands, dtype=np.int64).reshape(-1, 13)
    rows = np.asarray(rows, dtype=np.int64).reshape(-1, 3)
    w = considered(hands, rules, st)
    same = (w.rows == rows[:, None, :]).all(axis=2) & w.ok
    chosen = np.where(same.any(axis=1), same.argmax(axis=1), -1)
    nv = naive_rows(hands, rules)
    foul = ~((rows[:, 2] >= rows[:, 1]) & (rows[:, 1] >= rows[:, 0]))
    valid = valid_arrangements_many(hands, rules) if len(hands) else np.zeros(0, np.int64)
    return Observed(hands, w, chosen, (nv == rows).all(axis=1), foul, valid,
                    (rows[:, 2] == nv[:, 2]) & ~foul)


def _shares(a: np.ndarray) -> np.ndarray:
    z = np.concatenate([[0.0], a])
    e = np.exp(z - z.max())
    return e / e.sum()


def _logits(beta: np.ndarray, obs: Observed) -> tuple[np.ndarray, np.ndarray]:
    """Choice probabilities (N, K) over the splits weighed, and their log."""
    u = obs.weighed.features @ beta
    u = np.where(obs.weighed.ok, u, -np.inf)
    u = u - u.max(axis=1, keepdims=True)
    logp = u - np.log(np.exp(u).sum(axis=1, keepdims=True))
    return np.exp(logp), logp


def loglik(theta: np.ndarray, obs: Observed, grad: bool = False
           ) -> tuple[np.ndarray, np.ndarray | None]:
    """The log-likelihood of each hand (N,) under parameters ``theta``, and with ``grad``
    the gradient of their sum (see the module doc for the model)."""
    nf = len(FEATURES)
    beta, q = theta[:nf], _shares(theta[nf:])
    p, _ = _logits(beta, obs)
    n = len(obs)
    pick = np.where(obs.chosen >= 0, p[np.arange(n), np.maximum(obs.chosen, 0)], 0.0)
    parts = np.zeros((n, 4))
    parts[:, 0] = np.where(obs.foul | (obs.chosen < 0), 0.0, q[0] * pick)
    parts[:, 1] = np.where(obs.naive & ~obs.foul, q[1], 0.0)
    parts[:, 2] = np.where(obs.foul, 0.0, q[2] / np.maximum(obs.valid, 1))
    parts[:, 3] = np.where(obs.foul, q[3] / np.maximum(ALL_SPLITS - obs.valid, 1), 0.0)
    total = parts.sum(axis=1)
    ll = np.log(np.maximum(total, 1e-300))
    if not grad:
        return ll, None
    resp = parts / np.maximum(total, 1e-300)[:, None]  # which habit set each hand
    x = obs.weighed.features
    xbar = (p[..., None] * x).sum(axis=1)
    xc = x[np.arange(n), np.maximum(obs.chosen, 0)]
    g_beta = (resp[:, :1] * (xc - xbar)).sum(axis=0)
    g_a = (resp[:, 1:] - q[1:]).sum(axis=0)
    return ll, np.concatenate([g_beta, g_a])


def _objective(theta: np.ndarray, obs: Observed, prior: bool = True
               ) -> tuple[float, np.ndarray]:
    """Minus the log posterior (up to a constant) and its gradient."""
    ll, g = loglik(theta, obs, grad=True)
    assert g is not None
    f, gr = -float(ll.sum()), -g
    if prior:
        d = (theta - TABLE_PARAMS) / PRIOR_SD
        f += 0.5 * float(d @ d)
        gr = gr + d / PRIOR_SD
    return f, gr


def minimize(fun: Callable[[np.ndarray], tuple[float, np.ndarray]], x0: np.ndarray,
             max_iter: int = 300, tol: float = 1e-6) -> np.ndarray:
    """BFGS with a backtracking (Armijo) line search: the few parameters of a profile need
    nothing more.

    >>> x = minimize(lambda x: (float(((x - 3) ** 2).sum()), 2 * (x - 3)), np.zeros(2))
    >>> np.allclose(x, 3)
    True
    """
    x = np.asarray(x0, dtype=float).copy()
    f, g = fun(x)
    h = np.eye(len(x))
    for _ in range(max_iter):
        if np.abs(g).max() < tol:
            break
        d = -h @ g
        if g @ d >= 0:  # not a descent direction: start again from the gradient
            h = np.eye(len(x))
            d = -g
        step = 1.0
        while True:
            xn = x + step * d
            fn, gn = fun(xn)
            if fn <= f + 1e-4 * step * (g @ d) or step < 1e-10:
                break
            step *= 0.5
        s, y = xn - x, gn - g
        x, f, g = xn, fn, gn
        sy = s @ y
        if sy > 1e-12:
            rho = 1.0 / sy
            i = np.eye(len(x))
            h = (i - rho * np.outer(s, y)) @ h @ (i - rho * np.outer(y, s)) + rho * np.outer(s, s)
        if step < 1e-10:
            break
    return x


def fit_params(obs: Observed, prior: bool = True) -> np.ndarray:
    """The parameters of most posterior weight (``prior=False``: most likelihood)."""
    if len(obs) == 0:
        return TABLE_PARAMS.copy()
    return minimize(lambda t: _objective(t, obs, prior), TABLE_PARAMS.copy())


# ---------------------------------------------------------------- the profile
@dataclass(frozen=True)
class Draws:
    """The random numbers that set N hands: each hand's habit (a uniform), the Gumbel noise
    of its choice among the splits weighed, and the seed of its random split."""

    habit: np.ndarray   # (N,)
    gumbel: np.ndarray  # (N, SLOTS)
    seed: np.ndarray    # (N,) uint64

    @classmethod
    def make(cls, rng: np.random.Generator, n: int) -> Draws:
        return cls(rng.random(n), rng.gumbel(size=(n, TOP_K + 2)),
                   rng.integers(0, 2**63, size=n, dtype=np.uint64))

    def __getitem__(self, idx: Any) -> Draws:
        return Draws(self.habit[idx], self.gumbel[idx], self.seed[idx])


@dataclass(frozen=True)
class Profile:
    """How one player sets hands (see the module doc). ``params``: the logit's weights on
    :data:`FEATURES` then the log-odds of the naive, random and foul habits against the
    considered one. ``is_table``: ``table`` itself (it sets hands exactly as ``table``).
    ``summary`` holds what the words say, ``heldout`` the held-back check."""

    rules: Rules
    params: tuple[float, ...] = tuple(float(x) for x in TABLE_PARAMS)
    is_table: bool = False
    hands: int = 0
    naturals_declared: int = 0
    summary: Mapping[str, Any] = field(default_factory=dict, compare=False)
    heldout: Mapping[str, Any] | None = field(default=None, compare=False)
    errors: tuple[Mapping[str, Any], ...] = field(default=(), compare=False)

    @classmethod
    def table(cls, rules: RulesSpec = "standard") -> Profile:
        """``table`` itself: sampled opponents set exactly as today's Monte Carlo sets them."""
        return cls(resolve_rules(rules), is_table=True)

    def shares(self) -> dict[str, float]:
        """The weight of each habit (:data:`COMPONENTS`)."""
        if self.is_table:
            return {c: float(c == "considered") for c in COMPONENTS}
        q = _shares(np.array(self.params[len(FEATURES):]))
        return {c: float(x) for c, x in zip(COMPONENTS, q)}

    @property
    def beta(self) -> np.ndarray:
        return np.array(self.params[:len(FEATURES)])

    def words(self) -> list[str]:
        """What the profile learnt, in plain words."""
        return describe(self)

    # -------------------------------------------------------- sampling
    def set_hands(self, hands: np.ndarray, rng: np.random.Generator | Draws,
                  st: StrategyTables | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Row strengths (N, 3) and fouls (N,) of hands (N, 13) set as this player would,
        each hand's habit and choice drawn from ``rng`` (or taken from :class:`Draws` made
        for these hands); ``st``: the tables the splits weighed come from (default the
        rules' shipped ones)."""
        hands = np.ascontiguousarray(hands, dtype=np.int64).reshape(-1, 13)
        n = len(hands)
        draws = rng if isinstance(rng, Draws) else Draws.make(rng, n)
        st = st if st is not None else tables_for(self.rules)
        rows = np.zeros((n, 3), dtype=np.int64)
        foul = np.zeros(n, dtype=np.bool_)
        if self.is_table:
            if n:
                rows[:] = table_play(hands, self.rules, st)[2]
            return rows, foul
        q = np.array(list(self.shares().values()))
        habit = np.searchsorted(np.cumsum(q)[:-1], draws.habit, side="right")
        for k, name in enumerate(COMPONENTS):
            idx = np.flatnonzero(habit == k)
            if len(idx) == 0:
                continue
            if name == "considered":
                w = considered(hands[idx], self.rules, st)
                u = np.where(w.ok, w.features @ self.beta + draws.gumbel[idx], -np.inf)
                rows[idx] = w.rows[np.arange(len(idx)), u.argmax(axis=1)]
            elif name == "naive":
                rows[idx] = naive_rows(hands[idx], self.rules)
            elif name == "random":  # each hand from its own seed: the same whatever the batch
                for i in idx:
                    rows[i] = random_splits(hands[i:i + 1], self.rules,
                                            np.random.default_rng(int(draws.seed[i])))[0][0]
            else:
                foul[idx] = True
        return rows, foul

    def choice_probabilities(self, obs: Observed) -> np.ndarray:
        """Each habit's and split's probability for observed hands: (N, K) over the splits
        weighed by the considered habit alone."""
        return _logits(self.beta, obs)[0]

    # -------------------------------------------------------- files
    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "rules": self.rules.to_dict(),
                "table": self.is_table, "hands": self.hands,
                "naturals_declared": self.naturals_declared,
                "params": dict(zip(PARAM_NAMES, (float(x) for x in self.params))),
                "shares": {k: round(v, 6) for k, v in self.shares().items()},
                "summary": dict(self.summary), "heldout": self.heldout,
                "words": self.words(), "words_i18n": describe_messages(self),
                "errors": list(self.errors)}

    @classmethod
    def from_dict(cls, d: object) -> Profile:
        """A profile from its JSON object; :class:`InputError` naming what is wrong."""
        if not isinstance(d, Mapping):
            raise InputError(f"a profile is a JSON object, got {type(d).__name__}")
        if d.get("format") != FORMAT:
            raise InputError(f"not a profile: format must be {FORMAT!r}")
        if d.get("version") != VERSION:
            raise InputError(f"profile version {d.get('version')!r} is not supported "
                             f"(this solver reads version {VERSION})")
        problem = json_problem(d)
        if problem:
            raise InputError(f"bad profile: {problem}")
        try:
            rules = resolve_rules(d.get("rules"))
        except RulesError as exc:
            raise InputError(f"bad profile rules: {exc}") from None
        is_table = d.get("table", False)
        if not isinstance(is_table, bool):
            raise InputError("bad profile: table is true or false")
        params = d.get("params")
        if not isinstance(params, Mapping) or set(params) != set(PARAM_NAMES):
            raise InputError(f"bad profile: params holds exactly {', '.join(PARAM_NAMES)}")
        values = []
        for name in PARAM_NAMES:
            v = params[name]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not -50 <= v <= 50:
                raise InputError(f"bad profile: params.{name} is a number from -50 to 50")
            values.append(float(v))
        counts = []
        for name in ("hands", "naturals_declared"):
            v = d.get(name, 0)
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_PROFILE_HANDS:
                raise InputError(f"bad profile: {name} is a count of hands")
            counts.append(v)
        summary = d.get("summary") or {}
        heldout = d.get("heldout")
        if not isinstance(summary, Mapping) or not (heldout is None or isinstance(heldout, Mapping)):
            raise InputError("bad profile: summary and heldout are objects")
        return cls(rules, tuple(values), is_table, counts[0], counts[1], dict(summary),
                   None if heldout is None else dict(heldout))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the profile as one JSON file (whole: written aside, then renamed)."""
        tmp = f"{os.fspath(path)}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(self.to_dict(), f, ensure_ascii=False, allow_nan=False, indent=1)
            f.write("\n")
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Profile:
        """A profile file; :class:`InputError` when it cannot be read or is not one."""
        try:
            with open(path, "rb") as f:
                raw = f.read(1_000_001)
        except OSError as exc:
            raise InputError(f"cannot read profile {os.fspath(path)}: {exc.strerror}") from None
        if len(raw) > 1_000_000:
            raise InputError(f"profile {os.fspath(path)} is over 1,000,000 bytes")
        try:
            value = json.loads(decode_line(raw, 1_000_000), parse_constant=_no_constant)
        except InputError as exc:
            raise InputError(f"profile {os.fspath(path)}: {exc}") from None
        except (ValueError, RecursionError) as exc:
            raise InputError(f"profile {os.fspath(path)}: bad JSON: {one_line(str(exc))}") from None
        return cls.from_dict(value)

    def digest(self) -> str:
        """A short hash of what decides the profile's play (rules and parameters)."""
        text = json.dumps([self.rules.to_dict(), self.is_table, list(self.params)])
        return hashlib.sha256(text.encode()).hexdigest()[:12]


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


ProfileSpec = Profile | str | os.PathLike[str] | Mapping[str, Any]


def as_profile(spec: object) -> Profile:
    """A :class:`Profile` from itself, a file path or its JSON object."""
    if isinstance(spec, Profile):
        return spec
    if isinstance(spec, (str, os.PathLike)):
        return Profile.load(spec)
    if isinstance(spec, Mapping):
        return Profile.from_dict(spec)
    raise InputError(f"an opponent profile is a Profile, a file path or its JSON object, "
                     f"got {type(spec).__name__}")


def checked_profiles(specs: Sequence[object], rules: Rules, opponents: int) -> list[Profile]:
    """The profiles of ``specs``, one per opponent, fitted under ``rules``."""
    if isinstance(specs, (str, bytes, Mapping, Profile)) or not isinstance(specs, Sequence):
        raise InputError("opponent_profiles is a list, one profile per opponent")
    if len(specs) != opponents:
        raise InputError(f"opponent_profiles holds {len(specs)} profiles for {opponents} "
                         f"opponent{'s' if opponents != 1 else ''}: give one per opponent")
    out = [as_profile(s) for s in specs]
    for i, p in enumerate(out, 1):
        if p.rules != rules:
            raise InputError(f"opponent profile {i} was fitted under other rules than this "
                             "decision's; fit it under the rules played")
    return out


SALT = 0x9F0F17E5


def profile_setter(profiles: Sequence[Profile], rules: Rules, st: StrategyTables,
                   seed: int, samples: int) -> Callable[[np.ndarray, int], OpponentRows]:
    """What Monte Carlo sets sampled opponents with: deals (S, O, 13) starting at deal
    ``start`` (of ``samples``) -> opponents' rows, royalties, fouls and naturals, opponent
    ``o`` set by ``profiles[o]``. Every deal's random numbers are drawn from ``seed`` once for
    all ``samples`` deals, so a deal's rows do not depend on the blocks it is set in (an
    adaptive run scores the first deals of the full run, as against ``table``)."""
    if all(p.is_table for p in profiles):
        return lambda deals, start: opponent_rows(deals, rules, st)
    rng = np.random.default_rng([seed, SALT])
    draws = [Draws.make(rng, samples) for _ in profiles]

    def setter(deals: np.ndarray, start: int) -> OpponentRows:
        s, o = deals.shape[:2]
        rows = np.zeros((s, o, 3), dtype=np.int64)
        foul = np.zeros((s, o), dtype=np.bool_)
        for j, p in enumerate(profiles):
            rows[:, j], foul[:, j] = p.set_hands(deals[:, j], draws[j][start:start + s], st)
        roy = np.stack([rules.royalty_array[r][rows[..., r]] for r in range(3)], axis=2)
        roy[foul] = 0
        nat = np.zeros(s * o, dtype=np.int64)
        if rules.naturals_on:
            codes = natural_codes(deals.reshape(s * o, 13))
            for code, kind in NATURAL_BY_CODE.items():
                nat[codes == code] = rules.natural_units(kind)
        return rows, roy.astype(np.int64), foul, nat.reshape(s, o)

    return setter


def review(source: str | Iterable[str | bytes | Mapping[str, Any]],
           rules: RulesSpec = "standard", opponents: int = 3, method: str = "table",
           samples: int = 1000, seed: int = 0, card_removal: bool = True,
           progress: Callable[[int], None] | None = None,
           opponent_profiles: Sequence[ProfileSpec] | None = None) -> ReviewReport:
    """The coach's review (:func:`solver.games.capsa.coach.review`), and with
    ``opponent_profiles`` (``montecarlo`` only, one per opponent) every EV against opponents
    who set their hands as their profiles say: a hand's EVs are then those of ``arrange(...,
    method="montecarlo", seed=hand_seed(seed, hand), adaptive=False, opponent_profiles=...)``.
    A line whose own opponents' rows give another number of opponents is a bad line."""
    if opponent_profiles is None:
        return coach_review(source, rules, opponents, method, samples, seed, card_removal,
                            progress)
    if method != "montecarlo":
        raise InputError("opponent_profiles go with method 'montecarlo'")
    r = resolve_rules(rules)
    profiles = checked_profiles(opponent_profiles, r, opponents)
    st = tables_for(r) if card_removal else plain_tables(tables_for(r))

    def setter_for(hand_seed: int) -> Callable[[np.ndarray, int], OpponentRows]:
        inner = profile_setter(profiles, r, st, hand_seed, samples)

        def setter(deals: np.ndarray, start: int) -> OpponentRows:
            if deals.shape[1] != len(profiles):
                raise InputError(f"the line gives {deals.shape[1]} opponents' rows; the "
                                 f"profiles are for {len(profiles)}")
            return inner(deals, start)

        return setter

    return coach_review(source, r, opponents, method, samples, seed, card_removal, progress,
                        setter_for)


# ---------------------------------------------------------------- fitting from lines
def read_hands(source: str | os.PathLike[str] | Iterable[object], rules: Rules
               ) -> tuple[list[tuple[np.ndarray, tuple[int, int, int] | None]], list[dict]]:
    """The shown hands of ``source`` (a path, JSON lines text, or an iterable of lines or
    hand objects, as the coach reads them): ``(cards, rows)`` pairs (rows None: a declared
    natural), and the lines that could not be read, each ``{"line", "error"}``."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source
                                           and "{" not in source):
        items: Iterable[object] = file_lines(os.fspath(source))
    elif isinstance(source, str):
        items = split_text(source)
    elif isinstance(source, (bytes, Mapping)):
        raise InputError("give the hands as a path, JSON lines text or a list of lines")
    else:
        items = source
    out: list[tuple[np.ndarray, tuple[int, int, int] | None]] = []
    errors: list[dict] = []
    for line, played in played_lines(items):
        if len(out) + len(errors) >= MAX_PROFILE_HANDS:
            raise InputError(f"a profile is fitted on at most {MAX_PROFILE_HANDS:,} hands")
        if isinstance(played, LineError):
            errors.append(played.to_dict())
        elif played.rows is None and detect_natural(played.hand, rules) is None:
            errors.append(LineError(line, "natural is true but the hand holds no natural "
                                          "under these rules", "natural").to_dict())
        else:
            out.append((played.hand,
                        None if played.rows is None else row_strengths(played.rows, rules)))
    return out, errors


def fit(hands: np.ndarray, rows: np.ndarray, rules: RulesSpec = "standard",
        naturals_declared: int = 0, errors: Sequence[Mapping[str, Any]] = ()) -> Profile:
    """A profile fitted on hands (N, 13) shown set with row strengths ``rows`` (N, 3), with
    the held-back check (see the module doc)."""
    r = resolve_rules(rules)
    st = tables_for(r)
    obs = observe(hands, rows, r, st)
    heldout = None
    if len(obs) >= MIN_HOLD_OUT:
        test = np.arange(len(obs)) % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1
        theta = fit_params(obs.subset(np.flatnonzero(~test)))
        held = obs.subset(np.flatnonzero(test))
        mine = float(loglik(theta, held)[0].mean())
        base = float(loglik(TABLE_PARAMS, held)[0].mean())
        heldout = {"hands": int(test.sum()), "fitted_on": int((~test).sum()),
                   "loglik_per_hand": round(mine, 4), "table_loglik_per_hand": round(base, 4),
                   "gain_per_hand": round(mine - base, 4)}
    theta = fit_params(obs)
    prof = Profile(r, tuple(float(x) for x in theta), False, len(obs), naturals_declared)
    return Profile(r, prof.params, False, len(obs), naturals_declared,
                   summarize(prof, obs), heldout, tuple(dict(e) for e in errors))


def profile(hands: str | os.PathLike[str] | Iterable[object],
            rules: RulesSpec = "standard") -> Profile:
    """Fit the profile of one player from the hands they showed: a path to JSON lines, JSON
    lines text, or an iterable of lines or hand objects (``{"hand", "front", "middle",
    "back"}`` or ``{"hand", "natural": true}``, as the coach reads them). A line that cannot
    be read is listed in the profile's ``errors`` and the rest are fitted.

    >>> lines = ['{"front": "5s 3c 2h", "middle": "As Ad Kh 7c 6d", "back": "Kd Qc Js Ts 9h"}',
    ...          'not json']
    >>> p = profile(lines)
    >>> p.hands, p.errors[0]["line"]
    (1, 2)
    """
    r = resolve_rules(rules)
    shown, errors = read_hands(hands, r)
    set_rows = [(h, rw) for h, rw in shown if rw is not None]
    declared = len(shown) - len(set_rows)
    if not set_rows:
        raise InputError("no hand set in rows to fit a profile on"
                         + (f" ({len(errors)} lines could not be read; the first, line "
                            f"{errors[0]['line']}: {errors[0]['error']})" if errors else ""))
    h = np.stack([x[0] for x in set_rows])
    rows = np.array([x[1] for x in set_rows], dtype=np.int64)
    return fit(h, rows, r, declared, errors)


# ---------------------------------------------------------------- words
def summarize(p: Profile, obs: Observed) -> dict[str, Any]:
    """Rates the words read, on the hands fitted: the profile's expected rate of each habit
    and trait beside ``table``'s on the same hands, and the counts seen."""
    q = p.shares()
    prob = p.choice_probabilities(obs)
    feats = obs.weighed.features
    f = {name: feats[..., i] for i, name in enumerate(FEATURES)}
    nv = obs.naive
    n = len(obs)
    can_pair = (f["front_pair"] > 0).any(axis=1)
    nrows = naive_rows(obs.hands, p.rules)
    naive_back = obs.weighed.rows[..., 2] == nrows[:, None, 2]
    naive_pair = (TABLES[p.rules.wheel].kind[nrows[:, 0]] >= 1).astype(float)

    def rate(trait: np.ndarray, naive_value: np.ndarray, mask: np.ndarray | None = None) -> float:
        mine = q["considered"] * (prob * trait).sum(axis=1) + q["naive"] * naive_value
        m = np.ones(n, dtype=bool) if mask is None else mask
        return float(mine[m].mean()) if m.any() else 0.0

    naive_top1 = (obs.weighed.rows[:, 0] == nrows).all(axis=1)
    return {
        "hands": n,
        "shown": {"fouls": int(obs.foul.sum()), "table_best": int((obs.chosen == 0).sum()),
                  "weighed": int((obs.chosen >= 0).sum()), "naive": int(nv.sum()),
                  "strongest_back": int(obs.back_top.sum())},
        "shares": {k: round(v, 4) for k, v in q.items()},
        "table_best": round(rate(f["top1"], naive_top1.astype(float)), 4),
        "strongest_back": round(rate(naive_back.astype(float), np.ones(n)), 4),
        "table_strongest_back": round(float(naive_back[:, 0].mean()) if n else 0.0, 4),
        "front_pair": round(rate(f["front_pair"], naive_pair, can_pair), 4),
        "table_front_pair": round(float(f["front_pair"][can_pair, 0].mean())
                                  if can_pair.any() else 0.0, 4),
        "pair_hands": int(can_pair.sum()),
        "gap": round(-float((prob * f["gap"]).sum(axis=1).mean()) if n else 0.0, 4),
    }


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%" if x >= 0.01 or x == 0 else f"{100 * x:.1f}%"


def describe(p: Profile) -> list[str]:
    """The profile's habits in plain words (from its summary and parameters)."""
    if p.is_table:
        return ["plays the table strategy itself"]
    s = p.summary
    q = p.shares()
    out = [f"fitted on {p.hands:,} hands set in rows"
           + (f" ({p.naturals_declared:,} declared natural{'s' if p.naturals_declared != 1 else ''}"
              " besides)" if p.naturals_declared
              else "") + ", with a prior toward table"]
    if not s:
        return out
    out.append(f"sets table's own best split {_pct(s['table_best'])} of the time")
    tb = s["table_strongest_back"]
    out.append(f"keeps the strongest possible back {_pct(s['strongest_back'])} of the time "
               f"(table: {_pct(tb)})")
    if s["pair_hands"]:
        mine, theirs = s["front_pair"], s["table_front_pair"]
        ratio = (f"{mine / theirs:.1f} times as often as table ({_pct(theirs)})"
                 if theirs > 0 else f"table: {_pct(theirs)}")
        out.append(f"plays a pair or better in front {_pct(mine)} of the hands that can, "
                   f"{ratio}")
    out.append(f"fouls {_pct(q['foul'])} of hands (seen: {s['shown']['fouls']:,}; table: never)")
    if q["naive"] >= 0.02:
        out.append(f"sets {_pct(q['naive'])} of hands by the naive rule (the strongest back, "
                   "then the strongest middle)")
    if q["random"] >= 0.02:
        out.append(f"sets {_pct(q['random'])} of hands unlike any sound split, as if at random")
    out.append(f"when weighing sound splits, gives up {s['gap']:.3f} points per opponent "
               "a hand against table's best (by table's values)")
    if p.heldout:
        h = p.heldout
        out.append(f"held-back check ({h['hands']:,} hands): log-likelihood per hand "
                   f"{h['loglik_per_hand']:.3f}, table's {h['table_loglik_per_hand']:.3f}")
    return out


def describe_messages(p: Profile) -> list[dict[str, Any]]:
    """:func:`describe` as message keys with parameters (``solver.games.lines``), for a page
    to say in the player's language; the English catalog gives :func:`describe`'s words.

    >>> describe_messages(Profile.table())
    [{'key': 'profile.said.table', 'params': {}}]
    """
    if p.is_table:
        return [msg("profile.said.table")]
    s = p.summary
    q = p.shares()
    n = p.naturals_declared
    out = [msg("profile.said.fitted", hands=f"{p.hands:,}") if not n else
           msg("profile.said.fitted_natural" if n == 1 else "profile.said.fitted_naturals",
               hands=f"{p.hands:,}", naturals=f"{n:,}")]
    if not s:
        return out
    out.append(msg("profile.said.table_best", pct=_pct(s["table_best"])))
    out.append(msg("profile.said.strongest_back", pct=_pct(s["strongest_back"]),
                   table=_pct(s["table_strongest_back"])))
    if s["pair_hands"]:
        mine, theirs = s["front_pair"], s["table_front_pair"]
        if theirs > 0:
            out.append(msg("profile.said.front_pair_ratio", pct=_pct(mine),
                           ratio=f"{mine / theirs:.1f}", table=_pct(theirs)))
        else:
            out.append(msg("profile.said.front_pair", pct=_pct(mine), table=_pct(theirs)))
    out.append(msg("profile.said.fouls", pct=_pct(q["foul"]), seen=f"{s['shown']['fouls']:,}"))
    if q["naive"] >= 0.02:
        out.append(msg("profile.said.naive", pct=_pct(q["naive"])))
    if q["random"] >= 0.02:
        out.append(msg("profile.said.random", pct=_pct(q["random"])))
    out.append(msg("profile.said.gap", gap=f"{s['gap']:.3f}"))
    if p.heldout:
        h = p.heldout
        out.append(msg("profile.said.heldout", hands=f"{h['hands']:,}",
                       mine=f"{h['loglik_per_hand']:.3f}",
                       table=f"{h['table_loglik_per_hand']:.3f}"))
    return out


__all__ = ["COMPONENTS", "Draws", "FORMAT", "PARAM_NAMES", "TABLE_PARAMS", "VERSION", "Observed",
           "Profile", "as_profile", "describe", "describe_messages", "fit", "fit_params", "loglik", "minimize",
           "observe", "checked_profiles", "profile", "profile_setter", "read_hands",
           "review", "summarize"]
