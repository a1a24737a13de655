"""Da Bai Fen rule options and the level table (``docs/rules/da-bai-fen.md``).

>>> DaBaiFenRules.from_options({"kitty_multiplier": 3}).kitty_multiplier
3
>>> DaBaiFenRules.from_options({"kitty": 2})
Traceback (most recent call last):
...
solver.errors.RulesError: unknown rule option 'kitty'; the options are: kitty_multiplier
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from solver.errors import InputError, RulesError
from solver.games.da_bai_fen.cards import NUM_PLAYERS

TOP_LEVEL = 12  # A; going up past it wins the game
KITTY_MULTIPLIER_RANGE = (0, 10)


@dataclass(frozen=True)
class DaBaiFenRules:
    """Rule options. ``kitty_multiplier``: the buried kitty's points count this many times
    for the defenders when they win the last trick (default 2)."""

    kitty_multiplier: int = 2

    def __post_init__(self) -> None:
        m = self.kitty_multiplier
        lo, hi = KITTY_MULTIPLIER_RANGE
        if isinstance(m, bool) or not isinstance(m, int) or not lo <= m <= hi:
            raise RulesError(f"kitty_multiplier must be an integer from {lo} to {hi}, got {m!r}")

    @classmethod
    def from_options(cls, options: DaBaiFenRules | Mapping[str, Any] | None) -> DaBaiFenRules:
        """The contract's constructor: None (defaults), an instance, or a mapping of options
        (an unknown option is an error naming it and the known ones)."""
        if options is None:
            return cls()
        if isinstance(options, cls):
            return options
        if not isinstance(options, Mapping):
            raise RulesError(f"rules must be a mapping of options, got "
                             f"{type(options).__name__}; the options are: {_known()}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(str(k) for k in options if k not in known)
        if unknown:
            raise RulesError([f"unknown rule option {k!r}; the options are: {_known()}"
                              for k in unknown])
        return cls(**options)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _known() -> str:
    return ", ".join(f.name for f in fields(DaBaiFenRules))


# ------------------------------------------------------------------ level table
@dataclass(frozen=True)
class Outcome:
    """One row of the level table."""

    declarers_up: int
    defenders_up: int
    defenders_declare: bool


def level_outcome(defenders_points: int) -> Outcome:
    """The level table row for the defenders' total.

    >>> [level_outcome(p) for p in (0, 35, 40)][1:]
    [Outcome(declarers_up=1, defenders_up=0, defenders_declare=False), \
Outcome(declarers_up=0, defenders_up=0, defenders_declare=True)]
    """
    if defenders_points < 0:
        raise InputError(f"defenders' points cannot be negative, got {defenders_points}")
    if defenders_points == 0:
        return Outcome(2, 0, False)
    if defenders_points < 40:
        return Outcome(1, 0, False)
    if defenders_points < 80:
        return Outcome(0, 0, True)
    if defenders_points < 100:
        return Outcome(0, 1, True)
    return Outcome(0, 2, True)


def next_leader(leader: int, outcome: Outcome) -> int:
    """The next hand's leader (and dealer): the leader's partner while the declarers stay,
    else the player on the leader's right (a defender)."""
    return (leader + (1 if outcome.defenders_declare else 2)) % NUM_PLAYERS
