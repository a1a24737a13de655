"""How a session's next hand follows the last one, where a game's rules carry state over.

Most games deal every hand afresh. Da Bai Fen is a game of several hands: each team climbs
levels (2 up to A), the next hand's leader and dealer follow the level table, and a team
that goes up past A wins the game (rules: "Scoring and levels"); the session then starts a
new game at level 2 with a random dealer.
"""

from __future__ import annotations

from typing import Any

from solver.games.base import GameState


def _da_bai_fen_levels(previous: Any) -> list[int] | None:
    """Both teams' levels (0..12 for 2..A, above 12: past A) after a finished hand."""
    result = getattr(previous, "result", None)
    if result is None or not hasattr(result, "outcome"):
        return None
    levels = list(previous.levels)
    levels[result.declarers] += result.outcome.declarers_up
    levels[1 - result.declarers] += result.outcome.defenders_up
    return levels


def game_over(game: str, previous: GameState) -> dict[str, Any] | None:
    """What ended a game of several hands with ``previous`` (None while it goes on, and for
    games whose hands stand alone)."""
    if game != "da-bai-fen":
        return None
    from solver.games.da_bai_fen.rules import TOP_LEVEL

    levels = _da_bai_fen_levels(previous)
    winners = [team for team in (0, 1) if levels and levels[team] > TOP_LEVEL]
    return {"winner_team": winners[0]} if winners else None


def next_hand_options(game: str, previous: GameState) -> dict[str, Any]:
    """Keyword arguments for ``new_game`` that carry the finished hand ``previous`` over
    (none when the hands stand alone or a game was just won)."""
    if game != "da-bai-fen" or game_over(game, previous):
        return {}
    levels = _da_bai_fen_levels(previous)
    if levels is None:
        return {}
    leader = previous.result.next_leader  # type: ignore[attr-defined]
    return {"levels": levels, "leader": leader, "dealer": leader}
