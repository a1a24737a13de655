"""Best arrangements of many hands as columns (NumPy arrays), without a Python dict per hand.

``BatchColumns`` holds card ids and values; ``to_dicts`` gives the documented per-hand dicts
of :func:`solver.arrange_many`, ``to_arrow`` an Arrow table (pyarrow), and ``json_lines`` the
JSON text of ``capsa batch``, written straight from the arrays.

>>> import numpy as np
>>> cols = BatchColumns(np.arange(13)[None, :], np.array([[0, 1, 2]]),
...                     np.array([[3, 4, 5, 6, 7]]), np.array([[8, 9, 10, 11, 12]]),
...                     np.array([1.23456789]))
>>> cols.to_dicts()[0]["ev"], cols.to_dicts()[0]["front"]
(1.234568, ['2c', '2d', '2h'])
>>> cols.json_lines([7], [None]) == (json.dumps({"line": 7, **cols.to_dicts()[0]}) + "\\n")
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.cards import format_cards
from solver.games.capsa.encoding import split_back, split_front, split_middle
from solver.games.capsa.lookup import COMB3, COMB5

CARD_NAMES = tuple(format_cards(range(52)))
_CARD_JSON = tuple(json.dumps(c) for c in CARD_NAMES)
ROWS = ("hand", "front", "middle", "back")


@dataclass(frozen=True)
class BatchColumns:
    """Per hand (in input order): its 13 card ids sorted, the rows' card ids, and the ev
    (full precision; the dicts and JSON round it to 6 places as before)."""

    hand: np.ndarray  # (N, 13)
    front: np.ndarray  # (N, 3)
    middle: np.ndarray  # (N, 5)
    back: np.ndarray  # (N, 5)
    ev: np.ndarray  # (N,)

    @classmethod
    def from_splits(cls, hands: np.ndarray, split: np.ndarray, ev: np.ndarray) -> BatchColumns:
        """From sorted hands (N, 13) and packed splits (:mod:`solver.games.capsa.encoding`)."""
        split = np.asarray(split, dtype=np.int64)
        take = np.take_along_axis
        return cls(hands, take(hands, COMB3[split_front(split)].astype(np.int64), 1),
                   take(hands, COMB5[split_middle(split)].astype(np.int64), 1),
                   take(hands, COMB5[split_back(split)].astype(np.int64), 1),
                   np.asarray(ev, dtype=np.float64))

    @classmethod
    def concat(cls, parts: Sequence[BatchColumns]) -> BatchColumns:
        if not parts:
            return cls.empty()
        return cls(**{name: np.concatenate([getattr(p, name) for p in parts])
                      for name in (*ROWS, "ev")})

    @classmethod
    def empty(cls) -> BatchColumns:
        hand, front, middle, back = (np.empty((0, n), dtype=np.int64) for n in (13, 3, 5, 5))
        return cls(hand, front, middle, back, np.empty(0))

    def __len__(self) -> int:
        return len(self.ev)

    def to_dicts(self) -> list[dict[str, Any]]:
        """``{"hand", "front", "middle", "back", "ev"}`` per hand, as ``arrange_many`` gives."""
        names = CARD_NAMES
        lists = [getattr(self, name).tolist() for name in ROWS]
        return [{"hand": [names[c] for c in h], "front": [names[c] for c in f],
                 "middle": [names[c] for c in m], "back": [names[c] for c in b],
                 "ev": round(e, 6)}
                for h, f, m, b, e in zip(*lists, self.ev.tolist())]

    def json_lines(self, lines: Sequence[int], ids: Sequence[object]) -> str:
        """The JSON lines of ``capsa batch`` (``{"line": N, "id"?: ..., "hand": ...}``), byte
        for byte what ``json.dumps`` of the dict writes, without building the dicts."""
        cj = _CARD_JSON
        out = []
        lists = [getattr(self, name).tolist() for name in ROWS]
        for line, ident, h, f, m, b, e in zip(lines, ids, *lists, self.ev.tolist()):
            head = f'{{"line": {int(line)}, '
            if ident is not None:
                head += f'"id": {json.dumps(ident, ensure_ascii=False)}, '
            out.append(f'{head}"hand": [{", ".join([cj[c] for c in h])}], '
                       f'"front": [{", ".join([cj[c] for c in f])}], '
                       f'"middle": [{", ".join([cj[c] for c in m])}], '
                       f'"back": [{", ".join([cj[c] for c in b])}], '
                       f'"ev": {round(e, 6)!r}}}\n')
        return "".join(out)

    def to_arrow(self, lines: Sequence[int] | None = None, ids: Sequence[object] | None = None):
        """An Arrow table: ``line`` and ``id`` (text; absent ids null) when given, the rows as
        lists of card strings (dictionary-encoded), ``ev`` at full precision. Needs pyarrow."""
        import pyarrow as pa

        names = pa.array(CARD_NAMES)
        cols: dict[str, Any] = {}
        if lines is not None:
            cols["line"] = pa.array(np.asarray(lines, dtype=np.int64))
        if ids is not None:
            cols["id"] = pa.array([None if i is None else str(i) for i in ids], pa.string())
        for name in ROWS:
            ids2d = getattr(self, name)
            n, width = ids2d.shape
            values = pa.DictionaryArray.from_arrays(pa.array(ids2d.ravel().astype(np.int8)),
                                                    names)
            cols[name] = pa.FixedSizeListArray.from_arrays(values, width) if n or width else \
                pa.array([], pa.list_(pa.dictionary(pa.int8(), pa.string()), width))
        cols["ev"] = pa.array(self.ev)
        return pa.table(cols)
