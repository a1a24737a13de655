"""Capsa Susun rule options, presets and their validation (``docs/rules/capsa-susun.md``).

>>> resolve_rules("two-four").scoring
'two-four'
>>> resolve_rules({"preset": "standard", "royalty_mode": "net"}).royalty_mode
'net'
>>> resolve_rules({"preset": "standard", "scoring": "six-one"})
Traceback (most recent call last):
...
solver.errors.RulesError: scoring must be one of one-six, two-four, scoop-one, basic, got 'six-one'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import Any

import numpy as np

from solver.errors import RulesError
from solver.games.capsa.lookup import KIND_NAMES, TABLES, WHEEL_MODES
from solver.validation import check_bool, check_choice, check_whole

SCORINGS = ("one-six", "two-four", "scoop-one", "basic")
ROYALTY_MODES = ("winner", "net")
ROWS = ("front", "middle", "back")
FRONT_KINDS = ("high_card", "pair", "trips")  # what three cards can make
ROYALTY_PRESETS = ("standard", "none")
NATURAL_KINDS = ("dragon", "six_pairs", "three_straights", "three_flushes")  # strongest first
# the kernels' natural codes: 4 dragon .. 1 three flushes (0: no natural)
NATURAL_STRENGTH = {kind: len(NATURAL_KINDS) - i for i, kind in enumerate(NATURAL_KINDS)}

# (row, kind, units)
STANDARD_ROYALTIES: tuple[tuple[str, str, int], ...] = (
    ("front", "trips", 3),
    ("middle", "full_house", 2),
    ("middle", "quads", 8),
    ("middle", "straight_flush", 10),
    ("middle", "royal_flush", 14),
    ("back", "quads", 4),
    ("back", "straight_flush", 5),
    ("back", "royal_flush", 7),
)
STANDARD_NATURALS: tuple[tuple[str, int], ...] = tuple(zip(NATURAL_KINDS, (13, 3, 3, 3)))
MAX_UNITS = 1000


@dataclass(frozen=True)
class Rules:
    """One complete set of options. Build it with :func:`resolve_rules`.

    ``royalties`` is a tuple of (row, kind, units); ``naturals`` a tuple of (natural, units),
    empty when naturals are off.
    """

    scoring: str = "one-six"
    royalties: tuple[tuple[str, str, int], ...] = STANDARD_ROYALTIES
    royalty_mode: str = "winner"
    single_royalty: bool = False
    naturals: tuple[tuple[str, int], ...] = STANDARD_NATURALS
    wheel: str = "lowest"

    @classmethod
    def from_options(cls, options: str | Mapping[str, Any] | Rules | None) -> Rules:
        """The contract's constructor: same as :func:`resolve_rules`."""
        return resolve_rules(options)

    def natural_units(self, kind: str) -> int:
        return dict(self.naturals).get(kind, 0)

    @property
    def naturals_on(self) -> bool:
        return bool(self.naturals)

    @cached_property
    def royalty_array(self) -> np.ndarray:
        """Royalty units indexed by (row, strength): shape (3, number of strengths)."""
        kinds = TABLES[self.wheel].kind
        out = np.zeros((3, len(kinds)), dtype=np.int32)
        for row, kind, units in self.royalties:
            out[ROWS.index(row), kinds == KIND_NAMES.index(kind)] = units
        return out

    @property
    def scoop_bonus(self) -> int:
        """Units on top of the three rows for a scoop (two-four's "more rows" unit aside)."""
        return {"one-six": 3, "scoop-one": 1}.get(self.scoring, 0)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON: every option, royalties as a {row: {kind: units}} table."""
        table: dict[str, dict[str, int]] = {row: {} for row in ROWS}
        for row, kind, units in self.royalties:
            table[row][kind] = units
        return {"scoring": self.scoring, "royalties": table, "royalty_mode": self.royalty_mode,
                "single_royalty": self.single_royalty,
                "naturals": dict(self.naturals) if self.naturals else False, "wheel": self.wheel}


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "basic": Rules(scoring="basic", royalties=(), naturals=()),
    "two-four": Rules(scoring="two-four", royalties=(), naturals=()),
    "indonesia": Rules(wheel="second"),
}
OPTIONS = tuple(f.name for f in fields(Rules))


def _choice(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    return check_choice(name, value, allowed, RulesError)


def _units(name: str, value: Any) -> int:
    return check_whole(name, value, 0, MAX_UNITS, RulesError)


def _royalties(value: Any) -> tuple[tuple[str, str, int], ...]:
    if value == ROYALTY_PRESETS[0]:
        return STANDARD_ROYALTIES
    if value == ROYALTY_PRESETS[1] or value is False or value is None:
        return ()
    if not isinstance(value, Mapping):
        raise RulesError("royalties must be 'standard', 'none' or a table "
                         f"{{row: {{kind: units}}}}, got {value!r}")
    out = []
    for row, table in value.items():
        if row not in ROWS:
            raise RulesError(f"royalties: unknown row {row!r}; rows are {', '.join(ROWS)}")
        if not isinstance(table, Mapping):
            raise RulesError(f"royalties.{row} must be a table {{kind: units}}, got {table!r}")
        for kind, units in table.items():
            if kind not in KIND_NAMES:
                raise RulesError(f"royalties.{row}: unknown hand kind {kind!r}; "
                                 f"kinds are {', '.join(KIND_NAMES)}")
            if row == "front" and kind not in FRONT_KINDS:
                raise RulesError(f"royalties.front: a front cannot be {kind!r}; it is one of "
                                 f"{', '.join(FRONT_KINDS)}")
            n = _units(f"royalties.{row}.{kind}", units)
            if n:
                out.append((row, kind, n))
    return tuple(out)


def _naturals(value: Any) -> tuple[tuple[str, int], ...]:
    if value is True:
        return STANDARD_NATURALS
    if value is False or value is None:
        return ()
    if not isinstance(value, Mapping):
        raise RulesError(f"naturals must be true, false or a table {{natural: units}}, got {value!r}")
    units = dict(STANDARD_NATURALS)
    for kind, n in value.items():
        if kind not in NATURAL_KINDS:
            raise RulesError(f"naturals: unknown natural {kind!r}; naturals are "
                             f"{', '.join(NATURAL_KINDS)}")
        units[kind] = _units(f"naturals.{kind}", n)
    return tuple((k, units[k]) for k in NATURAL_KINDS)


def _bool(name: str, value: Any) -> bool:
    return check_bool(name, value, RulesError)


# What a caller may give as rules: a preset name, a {"preset": ..., option: value} object,
# a Rules, or None (standard).
RulesSpec = str | Mapping[str, Any] | Rules | None


def resolve_rules(spec: RulesSpec = None) -> Rules:
    """A :class:`Rules` from a preset name, a ``{"preset": ..., option: value}`` object, or
    ``None`` (standard). Unknown presets, options and bad values raise :class:`RulesError`."""
    if spec is None:
        return PRESETS["standard"]
    if isinstance(spec, Rules):
        return spec
    if isinstance(spec, str):
        if spec not in PRESETS:
            raise RulesError(f"unknown rules preset {spec!r}; presets are {', '.join(PRESETS)}")
        return PRESETS[spec]
    if not isinstance(spec, Mapping):
        raise RulesError(f"rules must be a preset name or an object, got {type(spec).__name__}")
    options = dict(spec)
    base = resolve_rules(options.pop("preset", "standard"))
    unknown = sorted(k for k in options if k not in OPTIONS)
    if unknown:
        raise RulesError(f"unknown rule option{'s' if len(unknown) > 1 else ''} "
                         f"{', '.join(map(repr, unknown))}; options are preset, {', '.join(OPTIONS)}")
    changes: dict[str, Any] = {}
    if "scoring" in options:
        changes["scoring"] = _choice("scoring", options["scoring"], SCORINGS)
    if "royalty_mode" in options:
        changes["royalty_mode"] = _choice("royalty_mode", options["royalty_mode"], ROYALTY_MODES)
    if "wheel" in options:
        changes["wheel"] = _choice("wheel", options["wheel"], WHEEL_MODES)
    if "single_royalty" in options:
        changes["single_royalty"] = _bool("single_royalty", options["single_royalty"])
    if "royalties" in options:
        changes["royalties"] = _royalties(options["royalties"])
    if "naturals" in options:
        changes["naturals"] = _naturals(options["naturals"])
    return replace(base, **changes)
