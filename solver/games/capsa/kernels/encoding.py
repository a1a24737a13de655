"""The packed-split and card readers of :mod:`solver.games.capsa.encoding`, compiled inline
into the kernels (numba inlines them at the IR level: the loops stay as flat as when the
shifts were written out)."""

from __future__ import annotations

from solver._jit import njit
from solver.games.capsa import encoding as E

pack_split = njit(inline="always")(E.pack_split)
split_back = njit(inline="always")(E.split_back)
split_middle = njit(inline="always")(E.split_middle)
split_front = njit(inline="always")(E.split_front)
pack_choice = njit(inline="always")(E.pack_choice)
choice_middle = njit(inline="always")(E.choice_middle)
choice_front = njit(inline="always")(E.choice_front)
rank_of = njit(inline="always")(E.rank_of)
suit_of = njit(inline="always")(E.suit_of)
