"""Da San's rule options: one frozen :class:`DaSanRules`, built by ``from_options``.

The rules file (``docs/rules/da-san.md``) is the default. The one option is ``min_run``, the
fewest ranks in a run (3 in the rules file; some tables allow runs of 2).

>>> DaSanRules.from_options({"min_run": 4}).min_run
4
>>> DaSanRules.from_options({"kickers": True})
Traceback (most recent call last):
...
solver.errors.RulesError: unknown Da San rule option 'kickers'; the options are: min_run
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from solver.errors import RulesError

RUN_TOP = 9  # runs use ranks 4..K, i.e. Da San ranks 0..9 (A, 2 and 3 never appear in one)
MIN_RUN_LOW, MIN_RUN_HIGH = 2, RUN_TOP + 1  # allowed values of ``min_run``


@dataclass(frozen=True)
class DaSanRules:
    """Rule options; the defaults are the rules file. ``min_run``: fewest ranks in a run."""

    min_run: int = 3

    def __post_init__(self) -> None:
        if not isinstance(self.min_run, int) or isinstance(self.min_run, bool) \
                or not MIN_RUN_LOW <= self.min_run <= MIN_RUN_HIGH:
            raise RulesError(f"min_run must be an integer from {MIN_RUN_LOW} to {MIN_RUN_HIGH}, "
                             f"got {self.min_run!r}")

    @classmethod
    def from_options(cls, options: DaSanRules | Mapping[str, Any] | None) -> DaSanRules:
        """Rules from ``None`` (the defaults), a :class:`DaSanRules` or a mapping of options."""
        if options is None:
            return DEFAULT_RULES
        if isinstance(options, DaSanRules):
            return options
        if isinstance(options, Mapping):
            allowed = option_names()
            unknown = sorted(str(k) for k in options if k not in allowed)
            if unknown:
                raise RulesError([f"unknown Da San rule option {k!r}; the options are: "
                                  f"{', '.join(allowed)}" for k in unknown])
            return cls(**options)
        raise RulesError(f"Da San rules must be a mapping of options ({', '.join(option_names())}) "
                         f"or None, got {type(options).__name__}")

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON (``from_options`` of it gives the same rules)."""
        return asdict(self)


def option_names() -> tuple[str, ...]:
    return tuple(f.name for f in fields(DaSanRules))


DEFAULT_RULES = DaSanRules()

__all__ = ["DEFAULT_RULES", "MIN_RUN_HIGH", "MIN_RUN_LOW", "RUN_TOP", "DaSanRules", "option_names"]
