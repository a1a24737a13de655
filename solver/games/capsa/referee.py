"""The referee: settle a table of 2 to 4 set hands under the rules.

Each pair of players is settled on its own and a player's total is the sum over opponents, so
the table is zero-sum. A player is given as a set arrangement ``{"front", "middle", "back"}``
or as 13 cards ``{"hand": ...}``, which claims a natural.

>>> table = [{"front": "2c 3d 4h", "middle": "5s 5c 7d 8h 9s", "back": "Jc Jd Qh Qs 9c"},
...          {"front": "Ac Ad 2h", "middle": "Ts Tc Th 3c 3s", "back": "Ks Kd Kh Kc 6h"}]
>>> [p["points"] for p in score(table).to_dict()["players"]]  # scoop 6 + royalties 2 + 4
[-12, 12]
>>> score(table[:1] * 2)
Traceback (most recent call last):
...
solver.errors.CardError: card '2c' is used twice (players 0 and 1); ...
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.cards import cards_twice
from solver.errors import CardError, InputError
from solver.games.capsa.naturals import Natural, compare_naturals, detect_natural
from solver.games.capsa.rules import Rules, RulesSpec, resolve_rules
from solver.games.capsa.splits import Arrangement, parse_hand, row_strengths

MIN_PLAYERS, MAX_PLAYERS = 2, 4


@dataclass(frozen=True)
class Seat:
    """A player at the table: a set arrangement, or a natural claimed with 13 cards."""

    cards: tuple[int, ...]
    arrangement: Arrangement | None = None
    natural: Natural | None = None
    strengths: tuple[int, int, int] = (0, 0, 0)
    royalties: tuple[int, int, int] = (0, 0, 0)
    foul: bool = False


@dataclass
class PairResult:
    """One player's result against one opponent (points from the player's side)."""

    opponent: int
    rows: list[int] = field(default_factory=lambda: [0, 0, 0])
    scoop: int = 0
    royalties: int = 0
    natural: int = 0

    @property
    def points(self) -> int:
        return sum(self.rows) + self.scoop + self.royalties + self.natural

    def to_dict(self) -> dict:
        return {"opponent": self.opponent, "points": self.points, "rows": list(self.rows),
                "scoop": self.scoop, "royalties": self.royalties, "natural": self.natural}


@dataclass
class PlayerResult:
    points: int
    foul: bool
    natural: str | None
    vs: list[PairResult]

    def to_dict(self) -> dict:
        return {"points": self.points, "foul": self.foul, "natural": self.natural,
                "vs": [v.to_dict() for v in self.vs]}


@dataclass
class TableResult:
    players: list[PlayerResult]

    def to_dict(self) -> dict:
        return {"players": [p.to_dict() for p in self.players]}


def royalty_units(strengths: tuple[int, int, int], rules: Rules) -> tuple[int, int, int]:
    """Royalty units per row (front, middle, back); with ``single_royalty`` only the largest
    stays (on equal units, the row nearer the back)."""
    table = rules.royalty_array
    units = [int(table[row, s]) for row, s in enumerate(strengths)]
    if rules.single_royalty and any(units):
        keep = max(range(3), key=lambda r: (units[r], r))
        units = [u if r == keep else 0 for r, u in enumerate(units)]
    return units[0], units[1], units[2]


def make_seat(player: Arrangement | Mapping[str, object], rules: Rules, index: int = 0) -> Seat:
    """Validate one player's entry and precompute what settling needs."""
    if isinstance(player, Arrangement):
        arr = player
    elif isinstance(player, Mapping):
        keys = set(player)
        if keys == {"hand"}:
            if not rules.naturals_on:
                raise InputError(f"player {index}: a 13-card hand claims a natural, but naturals "
                                 "are off under these rules; give front, middle and back")
            cards = player["hand"]
            if not isinstance(cards, (str, Iterable)):  # what parse_cards says of these
                raise CardError([f"player {index}: cards must be a string or a list, got "
                                 f"{type(cards).__name__}"])
            try:
                hand = parse_hand(cards)
            except CardError as exc:
                raise CardError([f"player {index}: {p}" for p in exc.problems]) from None
            natural = detect_natural(hand, rules)
            if natural is None:
                raise InputError(f"player {index}: the hand holds no natural; give front, "
                                 "middle and back")
            return Seat(tuple(int(c) for c in hand), natural=natural)
        if keys != {"front", "middle", "back"}:
            raise InputError(f"player {index}: give either front, middle and back, or hand; "
                             f"got {', '.join(sorted(map(str, keys))) or 'nothing'}")
        try:
            arr = Arrangement.from_dict(player)
        except CardError as exc:
            raise CardError([f"player {index}: {p}" for p in exc.problems]) from None
    else:
        raise InputError(f"player {index}: expected an object, got {type(player).__name__}")
    strengths = row_strengths(arr, rules)
    foul = not (strengths[2] >= strengths[1] >= strengths[0])
    royalties = (0, 0, 0) if foul else royalty_units(strengths, rules)
    return Seat(arr.cards, arrangement=arr, strengths=strengths, royalties=royalties, foul=foul)


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def settle(a: Seat, b: Seat, rules: Rules, opponent: int = 1) -> PairResult:
    """``a``'s result against ``b``."""
    res = PairResult(opponent)
    if a.natural is not None or b.natural is not None:
        if a.natural is not None and b.natural is not None:
            c = compare_naturals(a.natural, b.natural)
            res.natural = c * (a.natural.units if c > 0 else b.natural.units)
        elif a.natural is not None:
            res.natural = a.natural.units
        elif b.natural is not None:
            res.natural = -b.natural.units
        return res
    if a.foul and b.foul:
        return res
    if a.foul or b.foul:
        res.rows = [-1, -1, -1] if a.foul else [1, 1, 1]
    else:
        res.rows = [_sign(x - y) for x, y in zip(a.strengths, b.strengths)]
    wins, losses = res.rows.count(1), res.rows.count(-1)
    if rules.scoring == "two-four":
        res.scoop = _sign(wins - losses)
    elif wins == 3:
        res.scoop = rules.scoop_bonus
    elif losses == 3:
        res.scoop = -rules.scoop_bonus
    if rules.royalty_mode == "net":
        res.royalties = sum(a.royalties) - sum(b.royalties)
    else:
        res.royalties = sum(ra if r > 0 else -rb if r < 0 else 0
                            for r, ra, rb in zip(res.rows, a.royalties, b.royalties))
    return res


def score(players: Sequence[Arrangement | Mapping[str, object]], rules: RulesSpec = None) -> TableResult:
    """Settle a table; players in input order, each with totals and a per-opponent breakdown."""
    r = resolve_rules(rules)
    if not isinstance(players, Sequence) or isinstance(players, (str, bytes)):
        raise InputError("players must be a list")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InputError(f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(players)}")
    seats = [make_seat(p, r, i) for i, p in enumerate(players)]
    problems = cards_twice((seat.cards for seat in seats), "used", "player")
    if problems:
        raise CardError(problems)
    out = []
    for i, seat in enumerate(seats):
        vs = [settle(seat, other, r, j) for j, other in enumerate(seats) if j != i]
        out.append(PlayerResult(sum(v.points for v in vs), seat.foul,
                                seat.natural.kind if seat.natural else None, vs))
    return TableResult(out)


def table_from_json(data: object) -> tuple[list, Any]:
    """(players, rules) from the table JSON shared by ``capsa score`` and ``POST /v1/capsa/score``
    (the rules as JSON gave them: :func:`score` checks them)."""
    if not isinstance(data, dict):
        raise InputError("the table must be a JSON object with players (and optional rules)")
    unknown = sorted(set(data) - {"players", "rules"})
    if unknown:
        raise InputError(f"unknown field{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}; "
                         "allowed: players, rules")
    if "players" not in data:
        raise InputError("the table has no players")
    return data["players"], data.get("rules")
