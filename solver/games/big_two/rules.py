"""Big Two's rule options (``docs/rules/big-two.md``): one frozen object, one way to build it.

>>> BigTwoRules.from_options({"straights": "poker"}).straights
'poker'
>>> BigTwoRules.from_options({"straight": "poker"})
Traceback (most recent call last):
...
solver.errors.RulesError: unknown rule option 'straight'; known: straights, flush_order, bomb_on_two, zero_sum, players
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from solver.errors import RulesError
from solver.games.base import label

#: Allowed values of the two string options, default first (the one source for the CLI,
#: the registry's options and the HTTP schemas).
STRAIGHTS: tuple[str, ...] = ("rank-order", "poker")
FLUSH_ORDERS: tuple[str, ...] = ("rank", "suit")
MIN_PLAYERS, MAX_PLAYERS = 2, 4


def _choice(value: Any, allowed: tuple[str, ...]) -> Any:
    """``value`` spelled as in ``allowed`` (``rank_order`` and ``Rank-Order`` are accepted);
    other values are returned as given, for ``__post_init__`` to report."""
    if isinstance(value, str):
        for a in allowed:
            if label(value) == label(a):
                return a
    return value


@dataclass(frozen=True)
class BigTwoRules:
    """The options of ``docs/rules/big-two.md``; invalid values raise :class:`RulesError`
    naming the value and the allowed ones."""

    straights: str = STRAIGHTS[0]
    flush_order: str = FLUSH_ORDERS[0]
    bomb_on_two: bool = True
    zero_sum: bool = False
    players: int = 4

    def __post_init__(self) -> None:
        object.__setattr__(self, "straights", _choice(self.straights, STRAIGHTS))
        object.__setattr__(self, "flush_order",
                           _choice(self.flush_order, FLUSH_ORDERS))
        problems = []
        for name, allowed in (("straights", STRAIGHTS), ("flush_order", FLUSH_ORDERS)):
            value = getattr(self, name)
            if value not in allowed:
                problems.append(f"rule {name!r} must be "
                                f"{' or '.join(repr(a) for a in allowed)}, got {value!r}")
        for name in ("bomb_on_two", "zero_sum"):
            if not isinstance(getattr(self, name), bool):
                problems.append(f"rule {name!r} must be true or false, got {getattr(self, name)!r}")
        if (not isinstance(self.players, int) or isinstance(self.players, bool)
                or not MIN_PLAYERS <= self.players <= MAX_PLAYERS):
            problems.append(f"rule 'players' must be 2, 3 or 4, got {self.players!r}")
        if problems:
            raise RulesError(problems)

    @classmethod
    def from_options(cls, options: BigTwoRules | Mapping[str, Any] | None) -> BigTwoRules:
        """Rules from a mapping of option names (``-`` or ``_`` both accepted), an instance
        (returned as is) or None (the defaults)."""
        if options is None:
            return cls()
        if isinstance(options, cls):
            return options
        known = [f.name for f in fields(cls)]
        if not isinstance(options, Mapping):
            raise RulesError(f"rules must be a mapping of options ({', '.join(known)}) or null, "
                             f"got {type(options).__name__} {options!r:.60}")
        kwargs, problems = {}, []
        for key, value in options.items():
            name = str(key).replace("-", "_")
            if name not in known:
                problems.append(f"unknown rule option {key!r}; known: {', '.join(known)}")
            else:
                kwargs[name] = value
        if problems:
            raise RulesError(problems)
        return cls(**kwargs)

    def with_players(self, players: int) -> BigTwoRules:
        """The same rules at a table of ``players`` seats."""
        if players == self.players:
            return self
        return BigTwoRules(self.straights, self.flush_order, self.bomb_on_two, self.zero_sum,
                           players)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def flags(self) -> tuple[bool, bool, bool]:
        """(poker straights, suit-first flushes, bomb on a single 2), as the kernel takes them."""
        return (self.straights == "poker", self.flush_order == "suit", self.bomb_on_two)


DEFAULT_RULES = BigTwoRules()
