"""The coach: review many hands a player set elsewhere, and say where the points went.

Each hand is one line: plain text, the rows between bars, or one JSON object:

    5s 3c 2h | As Ad Kh 7c 6d | Kd Qc Js Ts 9h              (front | middle | back)
    deal 7 | 5s 3c 2h | As Ad Kh 7c 6d | Kd Qc Js Ts 9h     (a leading id, passed through)
    natural | 2c 3d 4h ...                                  (a declared natural: its 13 cards;
                                                             also istimewa, mậu binh)
    deal 8 | natural | 2c 3d 4h ...                         (the same with an id)
    {"hand": "As Ad ...", "front": "...", "middle": "...", "back": "..."}
    {"hand": "2c 3d ...", "natural": true}                  (the player declared a natural)
    {"front": ..., "middle": ..., "back": ..., "opponents": [{"front": ..., ...}, {"hand": ...}]}

Cards are written as everywhere else (``As``, ``10d``, ``td``, ``A♠``; spaces or commas
between them). A line opening with ``{`` is JSON, one holding a bar is rows (tabs stand for
the bars in a row of spreadsheet cells pasted as text); a line opening with ``#`` is a
comment and, like a blank line, is skipped (and counted).

``hand`` may be left out (the rows then are the hand); when given, the rows must hold exactly
its cards. ``opponents`` (optional) are the rows the other seats actually set (``{"hand":
CARDS}`` for a natural they declared): the hand is then reviewed against that many opponents,
and the review adds what the player scored and what the best response to those rows would
have scored, as the play page does. An ``id`` (any JSON value) is passed through.

A line that cannot be reviewed is listed with its number and a one-line reason, and the rest
are reviewed. A line from outside is read strictly (:func:`loads_line` and its helpers, here
as the lowest layer that reads lines; ``capsa batch`` reads its lines with them too), so that
no line can stop a review or make its report unwritable. A line is refused when it is over
``MAX_LINE_BYTES`` (64 KiB), its bytes are not UTF-8 (an encoded surrogate such as ``ED A0
80`` included), it holds a lone surrogate (a ``\\ud800`` escape without its pair), ``NaN``,
``Infinity``, a number beyond a double (``1e400``), an integer of more than 4,300 digits, or
nesting more than ``MAX_DEPTH`` (64) deep. An id is passed through exactly or its line is
refused, never rewritten, so the report always writes as strict UTF-8 JSON. Lines end at
``\\n``, ``\\r\\n`` or ``\\r`` only (a U+2028 inside a string does not end one).

Per hand: the player's EV and the best EV under the same model (``table``: the self-play
tables, with the hand's own card removal, from one search a hand; ``montecarlo``: sampled
deals, both arrangements on the same deals, the hand's deals drawn from
``hand_seed(seed, hand)``), the EV lost, the best arrangement, and the kind of mistake. A hand
is played exactly right when it loses at most ``EXACT_EPS``. With ``montecarlo`` the best is
the advice ``arrange`` gives on those deals: ``table``'s split unless another beats it
significantly there (:func:`~solver.games.capsa.methods.montecarlo.keeps_table`), with its EV
on the deals; the EV lost is measured against it and never goes below 0 (a split that scores
more than the advice on these deals, but not significantly more, loses nothing).

**Mistake classes**, checked in this order on a hand that lost more than ``EXACT_EPS``; the
first that applies is the hand's ``mistake`` (its EV lost is counted there), every one that
applies is in ``mistakes``:

- ``foul``: the rows are out of order (the back weaker than the middle, or the middle than the
  front): every row lost to every opponent, and scooped. Rows in the wrong order of strength
  are exactly this.
- ``natural_not_declared``: the hand holds a natural, the player set rows, and declaring it
  was worth more.
- ``natural_declared``: the player declared a natural where setting rows was worth more.
- ``flush_or_straight_unmade``: the best arrangement has more 5-card rows that are a
  straight, a flush or a straight flush than the player's.
- ``pair_broken``: a rank the player holds two or more of lies in one row in the best
  arrangement and is spread over two or three rows in the player's.
- ``front_too_weak``: the best front is a pair or three of a kind where the player's front
  is a lower kind (no pair, or a pair for three of a kind), while the player's middle or back
  is stronger than the best's: a strong hand (a full house, say) kept back where the best
  puts a pair in front. Nearly the mirror of the next class.
- ``front_too_strong``: the player's front is stronger than the best's while the middle or
  the back is weaker than the best's.
- ``kickers``: the same hand kind as the best in each row (the loss is in which cards make
  them, e.g. which pair goes forward, which kickers stay back).
- ``other``: none of the above.

A hand holding a natural is reviewed against declaring it, and a declared natural against the
best rows: the review gives both values (``natural_ev``, ``rows_ev``), each under the same
model, the natural's as :func:`~solver.games.capsa.arrange.arrange` values it
(:mod:`solver.games.capsa.methods.natural`: on the same deals with ``montecarlo``; under the
tables' chance of an opponent's natural with ``table``). The best is the larger of the two
(on a tie, the rows), and the EV lost is the best's EV less the player's.

What the models leave out, written down: a foul pays the opponents' royalties as the ``table`` model expects them (its expected royalty
total, the sum of the three rows even under ``single_royalty``).

>>> rep = review([{"front": "5s 3c 2h", "middle": "As Ad Kh 7c 6d", "back": "Kd Qc Js Ts 9h"}],
...              opponents=1)
>>> rep.summary["hands"], rep.hands[0].foul
(1, False)
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from solver.cards import format_cards
from solver.errors import CardError, InputError
from solver.games.capsa.limits import MAX_OPPONENTS, MAX_SAMPLES_PER_DECISION, MAX_SEED
from solver.games.capsa.lookup import KIND_NAMES, TABLES
from solver.games.capsa.methods import exact
from solver.games.capsa.methods.known import known_opponents
from solver.games.capsa.methods.montecarlo import advised, hand_seed, scored_on
from solver.games.capsa.methods.natural import natural_ev_on_deals, table_natural_ev
from solver.games.capsa.methods.table import expected_points
from solver.games.capsa.naturals import Natural, detect_natural
from solver.games.capsa.prepared import Prepared, prepare
from solver.games.capsa.referee import row_strengths, score
from solver.games.capsa.rules import Rules, RulesSpec, resolve_rules
from solver.games.capsa.search import search_top, split_values
from solver.games.capsa.splits import Arrangement, parse_hand, unpack_split
from solver.games.capsa.strategy.play import deal
from solver.games.capsa.strategy.tables import StrategyTables, tables_for
from solver.validation import check_bool, check_choice, check_int

METHODS = ("table", "montecarlo")
# a hand's Monte Carlo seed -> what sets its sampled opponents: deals (S, O, 13) and the first
# deal's number -> their rows (as :data:`solver.games.capsa.methods.exact.OpponentRows`)
SetterFor = Callable[[int], Callable[[np.ndarray, int], exact.OpponentRows]]
EXACT_EPS = 1e-9
WORST = 10
MISTAKES = ("foul", "natural_not_declared", "natural_declared", "flush_or_straight_unmade",
            "pair_broken", "front_too_weak", "front_too_strong", "kickers", "other")
FIELDS = {"hand", "front", "middle", "back", "natural", "opponents", "id"}
_MADE = {KIND_NAMES.index(k) for k in ("straight", "flush", "straight_flush", "royal_flush")}
_PAIR = KIND_NAMES.index("pair")
ROW_SEPARATOR = "|"
NATURAL_WORDS = ("natural", "istimewa", "mậu binh", "mau binh")  # as players write it
INTERVAL_LEVEL = 0.95
BOOTSTRAP_RESAMPLES = 2000  # resamples of the hands for the interval of the mean EV lost


# ---------------------------------------------------------------- a line from outside
MAX_LINE_BYTES = 65_536  # a hand with its id takes about 100 bytes, a review line under 1,000
MAX_DEPTH = 64  # arrays and objects in one line; a hand needs 2, a review line 4
MAX_INT_DIGITS = 4_300  # Python's own limit for turning text into an int
MAX_ERROR_CHARS = 300

_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
# what must not reach a one-line message raw: controls, line breaks, surrogates
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_LINE_BREAKS = re.compile(r"\r\n|\r|\n")


def one_line(message: str, limit: int = MAX_ERROR_CHARS) -> str:
    """``message`` cut to ``limit`` characters, its control characters, line breaks and lone
    surrogates written as escapes: one line that always encodes as UTF-8."""
    if len(message) > limit:
        message = message[:limit] + "..."
    return _UNSAFE.sub(lambda m: ascii(m.group())[1:-1], message)


def too_long(size: int, limit: int = MAX_LINE_BYTES) -> str:
    """Why a line of ``size`` bytes is refused."""
    return f"the line is {size:,} bytes long; a line may hold at most {limit:,}"


def decode_line(raw: bytes, limit: int = MAX_LINE_BYTES) -> str:
    """The text of a line's bytes: strict UTF-8, at most ``limit`` bytes."""
    if len(raw) > limit:
        raise InputError(too_long(len(raw), limit))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(not_utf8(raw, exc)) from None


def not_utf8(raw: bytes, exc: UnicodeDecodeError) -> str:
    """Why ``raw`` is not UTF-8 (``exc`` from decoding it), naming the bad bytes."""
    at = exc.start
    three = raw[at:at + 3]
    if len(three) == 3 and three[0] == 0xED and 0xA0 <= three[1] <= 0xBF:
        return (f"not UTF-8 text: an encoded surrogate ({three.hex(' ').upper()}) at byte "
                f"{at + 1}, which UTF-8 forbids")
    return (f"not UTF-8 text: {exc.reason} at byte {at + 1} "
            f"({raw[at:exc.end].hex(' ').upper()})")


def check_text(text: str, limit: int = MAX_LINE_BYTES) -> str:
    """``text`` if it is a line that can be echoed: at most ``limit`` bytes as UTF-8, and no
    lone surrogate."""
    if len(text) > limit // 4:
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > limit:
            raise InputError(too_long(size, limit))
    m = _SURROGATE.search(text)
    if m is not None:
        raise InputError(_lone_surrogate(m.group()))
    return text


def _lone_surrogate(char: str, where: str = "the line") -> str:
    return (f"{where} holds a lone surrogate U+{ord(char):04X} (half of a UTF-16 pair), "
            "which is not Unicode text")


def split_text(text: str) -> list[str]:
    """The lines of ``text``, split at ``\\n``, ``\\r\\n`` and ``\\r`` only: unlike
    ``str.splitlines``, a U+2028 or U+0085 inside a JSON string does not end its line."""
    lines = _LINE_BREAKS.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


class _Refused(ValueError):
    """JSON that parses, refused all the same (its reason needs no "bad JSON" before it)."""


def _constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"the number {text[:40]} is beyond the range of a double")
    return value


def _int(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_INT_DIGITS:
        raise _Refused(f"an integer of {digits:,} digits; at most {MAX_INT_DIGITS:,}")
    return int(text)


# one decoder for every line (json.loads with hooks would build one a call)
_DECODER = json.JSONDecoder(parse_constant=_constant, parse_float=_float, parse_int=_int)


def loads_line(text: str, what: str = "bad JSON") -> object:
    """The JSON value of one line, strictly (see the module doc); :class:`InputError` when it
    is not one (``"<what>: <reason>"`` when it does not parse as JSON)."""
    check_text(text)
    try:
        value = _DECODER.decode(text)
    except RecursionError:
        raise InputError(f"nested more than {MAX_DEPTH} deep") from None
    except _Refused as exc:
        raise InputError(str(exc)) from None
    except ValueError as exc:
        raise InputError(f"{what}: {exc}") from None
    # a walk only when the text could hide a problem: a surrogate escape, or deep nesting
    if _SURROGATE_ESCAPE.search(text) or text.count("[") + text.count("{") > MAX_DEPTH:
        problem = json_problem(value)
        if problem:
            raise InputError(problem)
    return value


def json_problem(value: object, depth: int = MAX_DEPTH) -> str | None:
    """Why ``value`` cannot be written as strict UTF-8 JSON and read back the same (None when
    it can): a value of no JSON type, a number that is not finite, a lone surrogate in a
    string or a key, or nesting deeper than ``depth``. Iterative: any depth is safe to check."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        v, level = stack.pop()
        if v is None or isinstance(v, bool):
            continue
        if isinstance(v, int):
            if v.bit_length() > 14_000:  # near the limit of writing it in decimal
                try:
                    repr(v)
                except ValueError:
                    return f"an integer of more than {MAX_INT_DIGITS:,} digits"
            continue
        if isinstance(v, float):
            if not math.isfinite(v):
                return f"{v} is not a JSON number"
        elif isinstance(v, str):
            m = _SURROGATE.search(v)
            if m is not None:
                return _lone_surrogate(m.group(), "a string")
        elif isinstance(v, (list, tuple, dict)):
            if level > depth:
                return f"nested more than {depth} deep"
            if isinstance(v, dict):
                for k in v:
                    if not isinstance(k, str):
                        return f"an object key must be a string, got {type(k).__name__}"
                    stack.append((k, level))
                stack.extend((x, level + 1) for x in v.values())
            else:
                stack.extend((x, level + 1) for x in v)
        else:
            return f"a {type(v).__name__} is not a JSON value"
    return None


@dataclass(frozen=True)
class Played:
    """One hand as the player set it: rows, or a declared natural; the opponents' rows if
    known (each ``{front, middle, back}`` or ``{hand}``)."""

    hand: np.ndarray  # the 13 card ids, sorted
    rows: Arrangement | None
    opponents: tuple[Mapping[str, Any], ...] = ()
    id: Any = None


@dataclass(frozen=True)
class HandReview:
    """The review of one hand (see the module doc)."""

    line: int
    hand: tuple[int, ...]
    mine: Arrangement | None  # None: the player declared a natural
    natural: Natural | None  # the natural the hand holds, if any
    foul: bool
    ev: float
    best_ev: float
    best: Arrangement | None  # None: declaring the natural is best
    mistake: str | None
    mistakes: tuple[str, ...]
    opponents: int
    id: Any = None
    actual_points: float | None = None
    best_response: dict[str, Any] | None = None
    natural_ev: float | None = None  # a hand holding a natural: what declaring it is worth
    rows_ev: float | None = None  # ... and the best rows' EV beside it

    @property
    def ev_lost(self) -> float:
        return max(self.best_ev - self.ev, 0.0)

    @property
    def exact(self) -> bool:
        return self.ev_lost <= EXACT_EPS

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "line": self.line, "hand": format_cards(self.hand),
            "mine": self.mine.to_dict() if self.mine else {"natural": self.natural.kind
                                                            if self.natural else None},
            "natural": self.natural.kind if self.natural else None, "foul": self.foul,
            "ev": round(self.ev, 6), "best_ev": round(self.best_ev, 6),
            "ev_lost": round(self.ev_lost, 6), "exact": self.exact,
            "best": self.best.to_dict() if self.best else {"natural": self.natural.kind
                                                            if self.natural else None},
            "mistake": self.mistake, "mistakes": list(self.mistakes),
            "opponents": self.opponents}
        if self.natural_ev is not None and self.rows_ev is not None:
            d.update(natural_ev=round(self.natural_ev, 6), rows_ev=round(self.rows_ev, 6))
        if self.id is not None:
            d["id"] = self.id
        if self.actual_points is not None:
            d["actual_points"] = self.actual_points
            d["best_response"] = self.best_response
        return d


LINE_ERRORS = ("unreadable", "format", "cards", "fields", "natural", "review")


class NaturalNotHeld(InputError):
    """A line declares a natural its hand does not hold under the rules."""


@dataclass(frozen=True)
class LineError:
    """A line that could not be reviewed, and why: ``error`` in words, ``code`` the kind of
    problem (one of :data:`LINE_ERRORS`, for a page to say in its own language): not text
    (``unreadable``: too long, not UTF-8, a lone surrogate), neither rows nor JSON
    (``format``), wrong cards (``cards``), JSON that is not a hand (``fields``), a declared
    natural the hand does not hold (``natural``), or the review refused it (``review``)."""

    line: int
    error: str
    code: str = "review"

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "error": self.error, "code": self.code}


@dataclass(frozen=True)
class ReviewReport:
    """Every reviewed hand, the lines that could not be, and the summary."""

    hands: tuple[HandReview, ...]
    errors: tuple[LineError, ...]
    method: str
    rules: Rules
    samples: int | None = None
    seed: int | None = None
    card_removal: bool = True
    summary: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "summary", summarize(self.hands, len(self.errors)))

    def to_dict(self, hands: bool = True) -> dict[str, Any]:
        d: dict[str, Any] = {"method": self.method, "card_removal": self.card_removal,
                             "summary": self.summary,
                             "errors": [e.to_dict() for e in self.errors]}
        if self.method == "montecarlo":
            d.update(samples=self.samples, seed=self.seed)
        if hands:
            d["hands"] = [h.to_dict() for h in self.hands]
        return d


def mean_interval(values: np.ndarray, level: float = INTERVAL_LEVEL,
                  resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0) -> tuple[float, float]:
    """A percentile bootstrap interval of the mean of ``values`` (the hands resampled with
    replacement, a fixed seed so that a review repeats exactly). Unlike the normal
    approximation it never leaves the range of the values, so an interval of EV lost never
    goes below 0, and it follows the skew of a few costly hands among many exact ones.

    >>> mean_interval(np.array([0.0, 0.0, 0.0, 0.0, 4.0]))[0] >= 0.0
    True
    """
    v = np.asarray(values, dtype=np.float64)
    n = len(v)
    if n == 0:
        return 0.0, 0.0
    if n == 1 or float(v.min()) == float(v.max()):
        return float(v[0]), float(v[0])
    rng = np.random.default_rng(seed)
    means = np.empty(resamples)
    step = max(1, 1_000_000 // n)  # resamples at a time: at most a million indices held
    for start in range(0, resamples, step):
        k = min(step, resamples - start)
        means[start:start + k] = v[rng.integers(0, n, size=(k, n), dtype=np.int32)].mean(axis=1)
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(means, [tail, 1.0 - tail])
    return max(float(low), float(v.min())), min(float(high), float(v.max()))


def summarize(hands: Iterable[HandReview], errors: int = 0) -> dict[str, Any]:
    """Hands, EV lost in all and per hand with a 95% interval (:func:`mean_interval`), the share
    played exactly right, EV lost per mistake class (each hand counted in its first class),
    the ``WORST`` costliest hands, and, where the opponents' rows were given, the points
    scored beside the best response's."""
    hs = list(hands)
    lost = np.array([h.ev_lost for h in hs])
    n = len(hs)
    mean = float(lost.mean()) if n else 0.0
    low, high = mean_interval(lost)
    by: dict[str, dict[str, Any]] = {}
    for name in MISTAKES:
        mine = [h.ev_lost for h in hs if h.mistake == name]
        if mine:
            by[name] = {"hands": len(mine), "ev_lost": round(sum(mine), 6),
                        "mean_ev_lost": round(sum(mine) / len(mine), 6),
                        "share_of_lost": round(sum(mine) / lost.sum(), 6) if lost.sum() else 0.0}
    worst = sorted(hs, key=lambda h: (-h.ev_lost, h.line))[:WORST]
    out: dict[str, Any] = {
        "hands": n, "errors": errors,
        "exact_share": round(sum(h.exact for h in hs) / n, 6) if n else None,
        "ev": round(float(sum(h.ev for h in hs)), 6),
        "best_ev": round(float(sum(h.best_ev for h in hs)), 6),
        "ev_lost": round(float(lost.sum()), 6), "mean_ev_lost": round(mean, 6),
        "mean_ev_lost_ci95": [round(low, 6), round(high, 6)],
        "by_mistake": by,
        "worst": [{"line": h.line, "ev_lost": round(h.ev_lost, 6), "mistake": h.mistake,
                   "hand": format_cards(h.hand), **({} if h.id is None else {"id": h.id})}
                  for h in worst if not h.exact]}
    known = [h for h in hs if h.actual_points is not None and h.best_response is not None]
    if known:
        out["known"] = {"hands": len(known),
                        "actual_points": round(sum(float(h.actual_points or 0) for h in known), 6),
                        "best_response_points": round(sum(
                            float((h.best_response or {})["points"]) for h in known), 6)}
    held = [h for h in hs if h.natural_ev is not None and h.rows_ev is not None]
    if held:  # the hands holding a natural: declaring it against the best rows
        out["naturals"] = {"hands": len(held), "declared": sum(h.mine is None for h in held),
                           "natural_ev": round(sum(float(h.natural_ev or 0) for h in held), 6),
                           "rows_ev": round(sum(float(h.rows_ev or 0) for h in held), 6),
                           "ev_lost": round(sum(h.ev_lost for h in held), 6)}
    return out


def text_hand(text: str, separator: str = ROW_SEPARATOR) -> dict[str, Any]:
    """The hand object a plain text line stands for (see the module doc): ``front | middle |
    back``, or ``natural | HAND``, each with an optional leading id field (``separator``: a
    tab for cells pasted from a spreadsheet).

    >>> text_hand("deal 7 | 5s 3c 2h | As Ad Kh 7c 6d | Kd Qc Js Ts 9h")["id"]
    'deal 7'
    >>> text_hand("natural | 2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")["natural"]
    True
    """
    fields = [f.strip() for f in text.strip().split(separator)]
    words = [" ".join(f.lower().split()) for f in fields]
    out: dict[str, Any] = {}
    said = [i for i, w in enumerate(words) if w in NATURAL_WORDS]
    if said:
        at = said[0]
        if at > 1 or len(fields) != at + 2:
            raise InputError(f"a declared natural is written 'natural | HAND' (13 cards), with "
                             f"an id field before it if you like; got {len(fields)} fields")
        out = {"hand": fields[at + 1], "natural": True}
    elif len(fields) in (3, 4):
        at = len(fields) - 3
        out = dict(zip(("front", "middle", "back"), fields[at:], strict=True))
        for row in ("front", "middle", "back"):
            if not out[row]:
                raise InputError(f"the {row} is empty: write the rows as front | middle | back")
    else:
        raise InputError(f"a line of rows is front | middle | back (3 fields, or 4 with an id "
                         f"first), got {len(fields)} fields")
    if at == 1:
        if not fields[0]:
            raise InputError("the id field before the first bar is empty")
        out["id"] = fields[0]
    return out


def read_line(text: str) -> object:
    """The hand of one line of text: JSON when it opens with ``{``, ``[`` or ``"``; plain text
    rows when it holds a bar; else a bare JSON value (a number, ``true``: refused by
    :func:`parse_played`, its type named) or, failing that, neither, said as such."""
    check_text(text)
    if text.lstrip()[:1] in ('{', '[', '"'):
        return loads_line(text, "not valid JSON")
    if ROW_SEPARATOR in text:
        return text_hand(text)
    if "\t" in text.strip():  # cells of a spreadsheet row, pasted
        return text_hand(text, "\t")
    try:  # a bare JSON value (refused later, with its type named), or no hand at all
        return loads_line(text, "not valid JSON")
    except InputError as exc:
        if not str(exc).startswith(("not valid JSON: Expecting value",
                                    "not valid JSON: Extra data")):
            raise
    raise InputError("a line is front | middle | back (the cards of each row between bars) "
                     "or a JSON object")


def parse_played(obj: object) -> Played:
    """One hand of a review from its JSON object; :class:`InputError` / :class:`CardError`
    name what is wrong."""
    if not isinstance(obj, Mapping):
        raise InputError(f"a hand is a JSON object, got {type(obj).__name__}")
    unknown = sorted(str(k) for k in obj if k not in FIELDS)
    if unknown:
        raise InputError(f"unknown field {unknown[0]!r}; allowed: {', '.join(sorted(FIELDS))}")
    problem = json_problem(obj.get("id"))
    if problem:  # it is written back as given: it must be strict JSON
        raise InputError(f"the id cannot be echoed: {problem}")
    rows_given = [k for k in ("front", "middle", "back") if k in obj]
    declared = obj.get("natural", False)
    if not isinstance(declared, bool):
        raise InputError("natural is true (the player declared a natural) or false")
    if declared:
        if rows_given:
            raise InputError("a declared natural has no rows; give hand and natural only")
        if "hand" not in obj:
            raise InputError("a declared natural needs the hand")
        return Played(parse_hand(obj["hand"]), None, _opponents(obj), obj.get("id"))
    if len(rows_given) != 3:
        missing = [k for k in ("front", "middle", "back") if k not in obj]
        raise InputError(f"give front, middle and back (missing: {', '.join(missing)}), "
                         "or hand with natural true")
    arr = Arrangement.parse(obj["front"], obj["middle"], obj["back"])
    if "hand" in obj:
        hand = parse_hand(obj["hand"])
        extra = sorted(set(arr.cards) - set(hand.tolist()))
        if extra:
            raise CardError([f"the rows hold {' '.join(format_cards(extra))}, not in the hand"])
    else:
        hand = parse_hand(list(arr.cards))
    return Played(hand, arr, _opponents(obj), obj.get("id"))


def _opponents(obj: Mapping[str, Any]) -> tuple[Mapping[str, Any], ...]:
    given = obj.get("opponents")
    if given is None:
        return ()
    if not isinstance(given, list) or not 1 <= len(given) <= MAX_OPPONENTS:
        raise InputError(f"opponents is a list of 1 to {MAX_OPPONENTS} seats' rows")
    for i, o in enumerate(given, 1):
        if not isinstance(o, Mapping):
            raise InputError(f"opponent {i}: give front, middle and back, or hand")
    return tuple(given)


def line_code(exc: Exception, stage: str) -> str:
    """:attr:`LineError.code` of a refusal at ``stage`` of reading or reviewing a line."""
    return ("cards" if isinstance(exc, CardError) else
            "natural" if isinstance(exc, NaturalNotHeld) else stage)


def played_lines(items: Iterable[object]) -> Iterator[tuple[int, Played | LineError]]:
    """Each hand line of ``items`` (text lines, bytes read as UTF-8, or hand objects) as the
    coach reads it: its 1-based number and the hand, or why it could not be read (a
    :class:`LineError`); blank lines and ``#`` comments are skipped. One bad line never
    stops the others: the review and the opponent profiles read their lines here."""
    for line, item in enumerate(items, 1):
        stage = "unreadable"  # what a refusal at this point means, for LineError.code
        result: Played | LineError
        try:
            value: object = decode_line(item) if isinstance(item, bytes) else item
            if isinstance(value, str):
                if not value.strip() or value.lstrip().startswith("#"):
                    continue
                check_text(value)
                stage = "format"
                value = read_line(value)
            stage = "fields"
            result = parse_played(value)
        except (InputError, CardError) as exc:
            result = LineError(line, one_line(str(exc)), line_code(exc, stage))
        yield line, result


def file_lines(path: str) -> list[bytes]:
    """The lines of a file, or of standard input for ``-``, as bytes (each is read as UTF-8
    on its own, so one bad line does not stop the others); a UTF-8 byte-order mark opening
    the file is dropped."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.splitlines()  # at \n, \r\n and \r, as text was split before


def review(source: str | Iterable[str | bytes | Mapping[str, Any]],
           rules: RulesSpec = "standard", opponents: int = 3, method: str = "table",
           samples: int = 1000, seed: int = 0, card_removal: bool = True,
           progress: Callable[[int], None] | None = None,
           opponent_setter: SetterFor | None = None) -> ReviewReport:
    """Review the hands of ``source``: text, or an iterable of lines (strings, or bytes to be
    read as UTF-8) or of hand objects; a line is plain text rows or JSON (see the module
    doc). Lines that do not parse, or whose cards are wrong, are reported with their 1-based
    line number and a one-line reason (blank lines and comments are skipped, and counted);
    the rest are reviewed.
    ``progress(n)`` is called after each line. ``opponent_setter`` (``montecarlo``): given a
    hand's seed, what sets its sampled opponents instead of ``table`` (opponent profiles:
    :func:`solver.games.capsa.profile.review`)."""
    r = resolve_rules(rules)
    check_choice("method", method, METHODS)
    opponents = check_int("opponents", opponents, 1, MAX_OPPONENTS)
    samples = check_int("samples", samples, 1, MAX_SAMPLES_PER_DECISION)
    seed = check_int("seed", seed, 0, MAX_SEED)
    card_removal = check_bool("card_removal", card_removal)
    prep = prepare(r, tables_for(r, card_removal=card_removal))
    items: Iterable[str | bytes | Mapping[str, Any]] = (
        split_text(source) if isinstance(source, str) else source)
    done: list[HandReview] = []
    errors: list[LineError] = []
    for line, played in played_lines(items):
        if isinstance(played, LineError):
            errors.append(played)
        else:
            try:
                done.append(review_hand(played, prep, opponents, method, samples, seed, line,
                                        opponent_setter))
            except (InputError, CardError) as exc:
                errors.append(LineError(line, one_line(str(exc)), line_code(exc, "review")))
        if progress is not None:
            progress(1)
    return ReviewReport(tuple(done), tuple(errors), method, r,
                        samples if method == "montecarlo" else None,
                        seed if method == "montecarlo" else None, card_removal)


def review_hand(played: Played, prep: Prepared, opponents: int = 3,
                method: str = "table", samples: int = 1000, seed: int = 0,
                line: int = 1, opponent_setter: SetterFor | None = None) -> HandReview:
    """The review of one parsed hand under the prepared rules and tables (``opponents``
    unless its opponents' rows are given)."""
    rules, st = prep.rules, prep.tables
    h = played.hand
    n_opp = len(played.opponents) or opponents
    natural = detect_natural(h, rules) if rules.naturals_on else None
    mine_rows = row_strengths(played.rows, rules) if played.rows is not None else None
    foul = mine_rows is not None and not (mine_rows[2] >= mine_rows[1] >= mine_rows[0])
    if played.rows is None and natural is None:
        raise NaturalNotHeld("natural is true but the hand holds no natural under these rules")
    if method == "table":
        best_split, best_rows, best_ev, my_ev, nat_ev = _table_evs(h, prep, n_opp, mine_rows,
                                                                   foul, natural)
    else:
        best_split, best_rows, best_ev, my_ev, nat_ev = _montecarlo_evs(
            h, rules, st, n_opp, samples, seed, mine_rows, foul, natural, opponent_setter)
    best: Arrangement | None = unpack_split(tuple(h.tolist()), best_split)
    rows_ev = best_ev
    if nat_ev is not None and nat_ev > best_ev:
        best, best_ev = None, nat_ev
    if played.rows is None:
        my_ev = nat_ev if nat_ev is not None else my_ev
    mistakes = _mistakes(played, rules, mine_rows, best_rows, best, foul, natural,
                         best_ev - my_ev > EXACT_EPS)
    actual, br = _known(played, rules, st, natural) if played.opponents else (None, None)
    return HandReview(line, tuple(h.tolist()), played.rows, natural, foul, my_ev, best_ev,
                      best, mistakes[0] if mistakes else None, tuple(mistakes), n_opp,
                      played.id, actual, br, nat_ev, rows_ev if nat_ev is not None else None)


def _foul_value(rules: Rules) -> float:
    """Row result and scoop of a fouled hand against one opponent who played rows."""
    return -3.0 - (1.0 if rules.scoring == "two-four" else float(rules.scoop_bonus))


def _table_evs(h: np.ndarray, prep: Prepared, n_opp: int,
               mine_rows: tuple[int, int, int] | None, foul: bool, natural: Natural | None
               ) -> tuple[int, tuple[int, int, int], float, float, float | None]:
    """(best split, its rows, best EV, the player's EV, a declared natural's EV) under the
    tables: one search for the best, the player's split valued as the search values it."""
    rules, st = prep.rules, prep.tables
    top = search_top(h[None, :], prep, 1)
    f, m, b = (int(x) for x in top.rows[0, 0])
    best_ev = float(expected_points(float(top.ev[0, 0]), n_opp, st, rules))
    my_ev = best_ev
    if mine_rows is not None:
        if foul:
            value = _foul_value(rules) - (0.0 if rules.royalty_mode == "net" else st.opp_royalty)
        else:
            value = float(split_values(prep, h, np.array([mine_rows]))[0])
        my_ev = float(expected_points(value, n_opp, st, rules))
    nat_ev = None
    if natural is not None:
        nat_ev = table_natural_ev(natural, rules, st, n_opp)
    return int(top.split[0, 0]), (f, m, b), best_ev, my_ev, nat_ev


def _montecarlo_evs(h: np.ndarray, rules: Rules, st: StrategyTables, n_opp: int, samples: int,
                    seed: int, mine_rows: tuple[int, int, int] | None, foul: bool,
                    natural: Natural | None, opponent_setter: SetterFor | None = None
                    ) -> tuple[int, tuple[int, int, int], float, float, float | None]:
    """As :func:`_table_evs`, every EV on the same ``samples`` deals of the unseen cards (the
    deals of ``arrange(method="montecarlo", seed=hand_seed(seed, hand))``); the best is
    that answer's first: table's split unless another is significantly better on them."""
    sp = exact.valid_splits(h, rules)
    unseen = np.setdiff1d(np.arange(52), h)
    deals = deal(np.random.default_rng(hand_seed(seed, h)), samples, n_opp, unseen)
    opp = (exact.opponent_rows(deals, rules, st) if opponent_setter is None
           else opponent_setter(hand_seed(seed, h))(deals, 0))
    cand = exact.candidates(sp, rules)
    best = advised(sp, rules, prepare(rules, st), cand, scored_on(sp, rules, opp, cand), 1)[0][0]
    i = int(np.flatnonzero(sp.packed == best.split)[0])
    f, m, b = (int(x) for x in sp.rows[i])
    my_ev = best.ev
    _, roy, _, nat = opp
    if mine_rows is not None:
        if foul:
            paid = roy.max(axis=2) if rules.single_royalty else roy.sum(axis=2)
            my_ev = float(np.where(nat > 0, -nat, _foul_value(rules) - paid).sum() / samples)
        else:
            idx = np.flatnonzero((sp.rows == np.array(mine_rows)).all(axis=1))
            my_ev = exact.exact_result(sp, rules, opp, 1, idx[:1])[0].ev
    nat_ev = None
    if natural is not None:
        nat_ev = natural_ev_on_deals(natural, rules, deals)
    return best.split, (f, m, b), best.ev, my_ev, nat_ev


def _kinds(rows: tuple[int, int, int], rules: Rules) -> list[int]:
    kind = TABLES[rules.wheel].kind
    return [int(kind[s]) for s in rows]


def _mistakes(played: Played, rules: Rules, mine: tuple[int, int, int] | None,
              best: tuple[int, int, int], best_arr: Arrangement | None, foul: bool,
              natural: Natural | None, lost: bool) -> list[str]:
    """The mistake classes of the module doc that apply, in their order (``best_arr`` None:
    declaring the natural is best; ``best`` then are the best rows')."""
    if not lost:
        return []
    out = []
    if foul:
        out.append("foul")
    if natural is not None and played.rows is not None and best_arr is None:
        out.append("natural_not_declared")
    if played.rows is None:
        out.append("natural_declared")
    if mine is not None and best_arr is not None and played.rows is not None and not foul:
        mk, bk = _kinds(mine, rules), _kinds(best, rules)
        if sum(k in _MADE for k in bk[1:]) > sum(k in _MADE for k in mk[1:]):
            out.append("flush_or_straight_unmade")
        if _broken(played.rows, best_arr):
            out.append("pair_broken")
        if bk[0] >= _PAIR and mk[0] < bk[0] and (mine[1] > best[1] or mine[2] > best[2]):
            out.append("front_too_weak")
        if mine[0] > best[0] and (mine[1] < best[1] or mine[2] < best[2]):
            out.append("front_too_strong")
        if mk == bk:
            out.append("kickers")
    if not out:
        out.append("other")
    return out


def _rank_rows(arr: Arrangement) -> dict[int, set[int]]:
    out: dict[int, set[int]] = {}
    for row, cards in enumerate(arr.rows()):
        for c in cards:
            out.setdefault(c // 4, set()).add(row)
    return out


def _broken(mine: Arrangement, best: Arrangement) -> bool:
    """A rank held twice or more, together in the best arrangement, spread in the player's."""
    counts: dict[int, int] = {}
    for c in mine.cards:
        counts[c // 4] = counts.get(c // 4, 0) + 1
    m, b = _rank_rows(mine), _rank_rows(best)
    return any(n >= 2 and len(b[k]) == 1 and len(m[k]) > 1 for k, n in counts.items())


def _known(played: Played, rules: Rules, st: StrategyTables, natural: Natural | None
           ) -> tuple[float, dict[str, Any]]:
    """What the player scored against the opponents' actual rows, and the best response to
    them (rows, or the natural when declaring it scores more)."""
    me: dict[str, Any] = (played.rows.to_dict() if played.rows is not None
                          else {"hand": format_cards(played.hand)})
    table = score([me, *played.opponents], rules)
    actual = float(table.players[0].points)
    parts = []
    for o in played.opponents:
        if "hand" in o and not {"front", "middle", "back"} & set(o):
            parts.append(known_opponents(played.hand, rules, [o["hand"]], None, st))
        else:
            parts.append(known_opponents(played.hand, rules, None, [o], st))
    opp = tuple(np.concatenate([p[i] for p in parts], axis=1) for i in range(4))
    sp = exact.valid_splits(played.hand, rules)
    br = exact.exact_result(sp, rules, (opp[0], opp[1], opp[2], opp[3]), 1,
                            exact.candidates(sp, rules))[0]
    out: dict[str, Any] = {**br.arrangement.to_dict(), "points": round(br.ev, 6)}
    if natural is not None:
        declared = float(score([{"hand": format_cards(played.hand)}, *played.opponents],
                               rules).players[0].points)
        if declared > br.ev:
            out = {"natural": natural.kind, "points": declared}
    out["gain"] = round(out["points"] - actual, 6)
    return actual, out


__all__ = ["EXACT_EPS", "LINE_ERRORS", "MAX_DEPTH", "MAX_ERROR_CHARS", "MAX_INT_DIGITS", "MAX_LINE_BYTES",
           "METHODS", "MISTAKES", "HandReview", "LineError", "NaturalNotHeld", "Played",
           "ReviewReport",
           "check_text", "decode_line", "json_problem", "loads_line", "mean_interval",
           "not_utf8", "one_line", "parse_played", "read_line", "review", "review_hand",
           "split_text", "summarize", "text_hand", "too_long"]
