"""Typed errors: every bad input raises a subclass of :class:`InputError` (a ``ValueError``)."""

from __future__ import annotations

from collections.abc import Sequence


class InputError(ValueError):
    """Bad input from a user. ``problems`` lists one message per offending item.

    The CLI prints it on one line and exits 2; the HTTP service answers 400 with it.
    """

    code = "invalid_input"

    def __init__(self, problems: str | Sequence[str]):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("; ".join(self.problems))

    def __reduce__(self):
        # Keep ``problems`` item by item across pickling (the compute pool sends errors back).
        return (type(self), (self.problems,))


class CardError(InputError):
    """Unknown card, duplicate card or wrong count."""

    code = "invalid_cards"


class RulesError(InputError):
    """Unknown rule preset or option, or a bad option value."""

    code = "invalid_rules"


class IllegalMoveError(InputError):
    """A play that is not a combination, or not legal in the current position."""

    code = "illegal_move"


class WorkLimitError(InputError):
    """A request whose work (for example samples x candidate splits) is over the limit."""

    code = "too_much_work"
