"""Big Two's rule options (``docs/rules/big-two.md``): one frozen object, one way to build it.

>>> BigTwoRules.from_options({"straights": "poker"}).straights
'poker'
>>> BigTwoRules.from_options({"straight": "poker"})
Traceback (most recent call last):
...
solver.errors.RulesError: unknown rule option 'straight'; known: straights, flush_order, bomb_on_two, zero_sum, players, scoring
>>> BigTwoRules.from_options({"scoring": "cards_left"}).scoring
'cards-left'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from solver.errors import RulesError
from solver.games.base import label

#: Allowed values of the string options, default first (the one source for the CLI, the
#: registry's options and the HTTP schemas).
STRAIGHTS: tuple[str, ...] = ("rank-order", "poker")
FLUSH_ORDERS: tuple[str, ...] = ("rank", "suit")
#: How a finished hand is scored: ``penalty``, the tiered penalty of the rules file (1, 2 or
#: 3 points a card by how many are left; the winner scores 0, or with ``zero_sum`` the sum of
#: the penalties); ``cards-left``, 1 point a card: each loser scores minus its cards left and
#: the winner the sum of the others' cards left (zero-sum whatever ``zero_sum`` says).
SCORINGS: tuple[str, ...] = ("penalty", "cards-left")
_CHOICES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("straights", STRAIGHTS), ("flush_order", FLUSH_ORDERS), ("scoring", SCORINGS))
MIN_PLAYERS, MAX_PLAYERS = 2, 4


def penalty(cards_left: int) -> int:
    """Penalty points (``penalty`` scoring) for the cards a loser still holds: 1 a card with
    9 or fewer, 2 with 10 to 12, 3 with all 13.

    >>> [penalty(n) for n in (1, 9, 10, 12, 13)]
    [1, 9, 20, 24, 39]
    """
    if cards_left <= 9:
        return cards_left
    if cards_left <= 12:
        return 2 * cards_left
    return 3 * cards_left


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
    naming the value and the allowed ones.

    ``scoring`` (:data:`SCORINGS`) picks how a finished hand is scored. ``zero_sum`` applies
    to ``penalty`` scoring only: ``cards-left`` is zero-sum by construction, so there
    ``zero_sum`` has no effect (either value is accepted and kept as given).
    """

    straights: str = STRAIGHTS[0]
    flush_order: str = FLUSH_ORDERS[0]
    bomb_on_two: bool = True
    zero_sum: bool = False
    players: int = 4
    scoring: str = SCORINGS[0]

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES:
            object.__setattr__(self, name, _choice(getattr(self, name), allowed))
        problems = []
        for name, allowed in _CHOICES:
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
        return replace(self, players=players)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def flags(self) -> tuple[bool, bool, bool]:
        """(poker straights, suit-first flushes, bomb on a single 2), as the kernel takes them."""
        return (self.straights == "poker", self.flush_order == "suit", self.bomb_on_two)

    @property
    def winner_collects(self) -> bool:
        """Whether the winner is credited the losers' points (``cards-left``, or ``penalty``
        with ``zero_sum``): then a hand's returns sum to zero."""
        return self.scoring == "cards-left" or self.zero_sum

    def points(self, cards_left: int) -> int:
        """What a loser holding ``cards_left`` cards pays under this scoring.

        >>> [BigTwoRules().points(n) for n in (1, 9, 10, 13)]
        [1, 9, 20, 39]
        >>> [BigTwoRules(scoring="cards-left").points(n) for n in (1, 9, 10, 13)]
        [1, 9, 10, 13]
        """
        return cards_left if self.scoring == "cards-left" else penalty(cards_left)


DEFAULT_RULES = BigTwoRules()
