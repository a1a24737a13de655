"""What :func:`~solver.games.capsa.arrange.arrange` answers: ranked arrangements with their
expected points and per-row odds. Immutable values: equal answers compare and hash equal.

An arrangement holds what the search returns (the hand's cards, the packed split, the rows'
kinds and odds); its ``arrangement`` and ``rows`` are built when read, and a ``table``
answer counts its valid splits when first asked, so an answer costs little more than the
search itself (most callers read the best arrangement only, or only the JSON).

>>> from solver.games.capsa.encoding import pack_split
>>> a = RankedArrangement(tuple(range(0, 52, 4)), pack_split(0, 1, 0), 1.5,
...                       ("pair", "flush", "quads"), (0.5, 0.75, 0.99, 0.0, 0.0, 0.0), 0, 0.25)
>>> a == RankedArrangement(a.cards, a.split, 1.5, a.kinds, a.odds, 0, 0.25)
True
>>> a.rows[1], a.to_dict()["rows"][1]["win"]
(RowInfo(row='middle', kind='flush', win=0.75, tie=0.0), 0.75)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.cards import format_cards
from solver.games.capsa.naturals import Natural
from solver.games.capsa.rules import Rules
from solver.games.capsa.splits import Arrangement, unpack_split, valid_arrangements

if TYPE_CHECKING:
    from solver.games.capsa.strategy.tables import TablesInfo

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
    """One arrangement with its expected points and per-row odds against one opponent.

    ``cards``: the hand's 13 sorted card ids; ``split``: the packed split of them
    (:mod:`solver.games.capsa.encoding`); ``kinds``: the rows' kind names, front first;
    ``odds``: the rows' win chances, front first, then their tie chances."""

    cards: tuple[int, ...]
    split: int
    ev: float
    kinds: tuple[str, str, str]
    odds: tuple[float, float, float, float, float, float]
    royalties: int
    scoop: float

    @property
    def arrangement(self) -> Arrangement:
        return unpack_split(self.cards, self.split)

    @property
    def rows(self) -> tuple[RowInfo, RowInfo, RowInfo]:
        k, o = self.kinds, self.odds
        return (RowInfo("front", k[0], o[0], o[3]), RowInfo("middle", k[1], o[1], o[4]),
                RowInfo("back", k[2], o[2], o[5]))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = self.arrangement.to_dict()
        d.update(ev=round(self.ev, 6), rows=[r.to_dict() for r in self.rows],
                 royalties=self.royalties, scoop=round(self.scoop, 6))
        return d


@dataclass(frozen=True, slots=True)
class ArrangeResult:
    """A ranked answer, best first. ``candidates``: the splits scored (every valid split
    with ``table``: then it is ``valid_arrangements``); ``card_removal``:
    whether the table decisions used card removal; ``samples`` (the most it draws), ``seed``
    and ``samples_used`` (the deals it drew before the answer settled) are Monte Carlo's, and
    ``kept_table``: whether Monte Carlo put ``table``'s split first in place of the best on
    its deals, which did not beat it significantly
    (:func:`~solver.games.capsa.methods.montecarlo.keeps_table`; None for other methods)."""

    hand: tuple[int, ...]
    # None until first read (a table answer's search never lists the valid splits); a
    # function of the hand and the rules, so it takes no part in comparisons.
    valid_count: int | None = field(compare=False)
    natural: Natural | None
    arrangements: tuple[RankedArrangement, ...]
    method: str
    opponents: int
    rules: Rules
    samples: int | None = None
    seed: int | None = None
    candidates_scored: int | None = None  # None: every valid split was scored
    card_removal: bool = True
    tables: TablesInfo | None = field(default=None, compare=False)  # the tables file played
    samples_used: int | None = None
    kept_table: bool | None = None

    def __post_init__(self) -> None:
        # any sequence in, a tuple kept (an answer cannot change under its holder)
        object.__setattr__(self, "arrangements", tuple(self.arrangements))

    @property
    def valid_arrangements(self) -> int:
        """How many of the 72,072 ordered splits are not fouls (counted on first read)."""
        n = self.valid_count
        if n is None:
            n = valid_arrangements(np.asarray(self.hand, dtype=np.int64), self.rules)
            object.__setattr__(self, "valid_count", n)
        return n

    @property
    def candidates(self) -> int:
        """How many splits were scored: every valid one unless a method filtered them."""
        return (self.valid_arrangements if self.candidates_scored is None
                else self.candidates_scored)

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
        if self.tables is not None:
            d["tables"] = self.tables.to_dict()
        if self.method == "montecarlo":
            d.update(samples=self.samples, seed=self.seed, samples_used=self.samples_used,
                     kept_table=self.kept_table)
        return d

