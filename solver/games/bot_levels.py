"""How hard each of the project's bots is to play against, in the words a player uses
(beginner to expert) rather than the engine's name, which the pages keep for a tooltip.

The order follows the duplicate matches of ``docs/research/matches.md``: random play, the
one-rule bots (``baseline``, ``greedy``), the value network alone (``net``), then the
searches it guides (``search-rollout``, and ``search``, which beats it in Big Two). Capsa's
``montecarlo`` is not measurably stronger than ``table`` but thinks 1,000 deals a hand, so
it is the harder-looking of the two. A bot not listed here has no level: pages show its name.

>>> level_of("search"), level_of("random"), level_of("someone-new")
('expert', 'beginner', None)
"""

from __future__ import annotations

LEVELS = ("beginner", "easy", "normal", "hard", "expert")

BOT_LEVELS: dict[str, str] = {
    "random": "beginner",
    "baseline": "easy",
    "greedy": "easy",
    "net": "normal",
    "table": "normal",
    "search-rollout": "hard",
    "montecarlo": "hard",
    "search": "expert",
}


def level_of(bot: str | None) -> str | None:
    """The level of bot ``bot`` (one of :data:`LEVELS`), or None when it has none."""
    return BOT_LEVELS.get(bot) if bot else None
