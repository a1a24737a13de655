"""Da Bai Fen from hand to hand: the levels each team climbs and the game they decide.

A game is several hands: each team climbs levels (2 up to A) by the level table, the next
hand's leader (who also deals) follows from it, and a team that goes up past A wins the game
(rules: "Scoring and levels"). This is the one place that carry-over is written; the
whole-game loop (:class:`~solver.games.da_bai_fen.bots.Match`) and the sessions (through the
registry's ``next_hand`` and ``game_over``) both use it.

>>> from types import SimpleNamespace
>>> from solver.games.da_bai_fen.rules import level_outcome
>>> result = SimpleNamespace(declarers=0, outcome=level_outcome(0), next_leader=2)
>>> levels_after((3, 3), result), game_winner((13, 4))
((5, 3), 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from solver.errors import InputError
from solver.games.da_bai_fen.rules import TOP_LEVEL, Outcome
from solver.games.lines import msg, term

__all__ = ["game_over", "game_winner", "levels_after", "next_hand_options"]

TEAM_NAMES = ("A", "B")  # team 0 (seats 0, 2) and team 1 (seats 1, 3), as the page names them


class Result(Protocol):
    """What the carry-over reads of a finished hand's result (read-only, so a frozen
    :class:`~solver.games.da_bai_fen.engine.HandResult` is one)."""

    @property
    def declarers(self) -> int: ...

    @property
    def outcome(self) -> Outcome: ...

    @property
    def next_leader(self) -> int: ...


def levels_after(levels: Sequence[int], result: Result) -> tuple[int, int]:
    """Both teams' levels (0..12 for 2..A; above :data:`TOP_LEVEL`: past A, the game won)
    after a hand with ``result``: each team goes up by its row of the level table."""
    out = [int(levels[0]), int(levels[1])]
    out[result.declarers] += result.outcome.declarers_up
    out[1 - result.declarers] += result.outcome.defenders_up
    return out[0], out[1]


def game_winner(levels: Sequence[int]) -> int | None:
    """The team that went past A (it won the game), or None while the game goes on."""
    past = [team for team in (0, 1) if levels[team] > TOP_LEVEL]
    return past[0] if past else None


def _finished(previous: Any) -> Result:
    result = getattr(previous, "result", None)
    if result is None:
        raise InputError("the hand is not finished")
    return result


def game_over(previous: Any) -> dict[str, Any] | None:
    """``GameInfo.game_over``: the winning team once a finished hand takes it past A."""
    winner = game_winner(levels_after(previous.levels, _finished(previous)))
    if winner is None:
        return None
    return {"winner_team": winner,
            "text": f"Team {TEAM_NAMES[winner]} went up past A and wins the game; "
                    "the next hand starts a new game.",
            **msg("settle.game_won", team=term(f"team.{TEAM_NAMES[winner]}"))}


def next_hand_options(previous: Any) -> dict[str, Any]:
    """``GameInfo.next_hand``: ``new_hand`` keyword arguments that carry a finished hand over
    (the levels, and the next leader, who also deals); none once the game is won, so the
    next hand starts a new game (level 2 for both, a random dealer)."""
    result = _finished(previous)
    levels = levels_after(previous.levels, result)
    if game_winner(levels) is not None:
        return {}
    return {"levels": levels, "leader": result.next_leader, "dealer": result.next_leader}
