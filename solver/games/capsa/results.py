"""What :func:`~solver.games.capsa.arrange.arrange` answers: ranked arrangements with their
expected points and per-row odds. Immutable values: equal answers compare and hash equal.

>>> from solver.games.capsa.splits import Arrangement
>>> rows = (RowInfo("front", "pair", 0.5, 0.0), RowInfo("middle", "flush", 0.75, 0.0),
...         RowInfo("back", "quads", 0.99, 0.0))
>>> a = RankedArrangement(Arrangement((0, 1, 2), (3, 4, 5, 6, 7), (8, 9, 10, 11, 12)), 1.5,
...                       rows, 0, 0.25)
>>> a == RankedArrangement(a.arrangement, 1.5, rows, 0, 0.25), a.to_dict()["rows"][1]["win"]
(True, 0.75)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.cards import format_cards
from solver.games.capsa.naturals import Natural
from solver.games.capsa.rules import Rules
from solver.games.capsa.splits import Arrangement

ROW_NAMES = ("front", "middle", "back")


@dataclass(frozen=True, slots=True)
class RowInfo:
    """One row's kind and its chances against one opponent."""

    row: str
    kind: str
    win: float
    tie: float

    def to_dict(self) -> dict[str, Any]:
        return {"row": self.row, "kind": self.kind, "win": round(self.win, 6),
                "tie": round(self.tie, 6)}


@dataclass(frozen=True, slots=True)
class RankedArrangement:
    """One arrangement with its expected points and per-row odds against one opponent."""

    arrangement: Arrangement
    ev: float
    rows: tuple[RowInfo, RowInfo, RowInfo]
    royalties: int
    scoop: float

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = self.arrangement.to_dict()
        d.update(ev=round(self.ev, 6), rows=[r.to_dict() for r in self.rows],
                 royalties=self.royalties, scoop=round(self.scoop, 6))
        return d


@dataclass(frozen=True, slots=True)
class ArrangeResult:
    """A ranked answer, best first. ``candidates``: the splits scored (None when every valid
    split was, as with ``table``: then it is ``valid_arrangements``); ``card_removal``:
    whether the table decisions used card removal; ``samples`` and ``seed`` are Monte
    Carlo's."""

    hand: tuple[int, ...]
    valid_arrangements: int
    natural: Natural | None
    arrangements: tuple[RankedArrangement, ...]
    method: str
    opponents: int
    rules: Rules
    samples: int | None = None
    seed: int | None = None
    candidates: int | None = None
    card_removal: bool = True

    def __post_init__(self) -> None:
        # any sequence in, a tuple kept (an answer cannot change under its holder)
        object.__setattr__(self, "arrangements", tuple(self.arrangements))
        if self.candidates is None:
            object.__setattr__(self, "candidates", self.valid_arrangements)

    @property
    def best(self) -> RankedArrangement:
        return self.arrangements[0]

    def __repr__(self) -> str:
        return (f"ArrangeResult(hand={format_cards(self.hand)!r}, method={self.method!r}, "
                f"best={self.best!r})")

    def to_dict(self) -> dict[str, Any]:
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

