"""Big Two on the play page, as message keys (:mod:`solver.games.lines`): the board and the
settlement, from one seat's observation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.games.lines import Message, cards, line, msg, seat, seat_counts, term


def board(o: Mapping[str, Any], players: int) -> list[Message]:
    """What to beat (or who leads), the card the first play must hold, the passes so far."""
    out: list[Message] = []
    table = o.get("table")
    if o.get("phase") != "over":
        if table and table.get("cards"):
            out.append(line("board.to_beat", "board.to_beat.by", cards=cards(table["cards"]),
                            kind=term(f"kind.{table['kind']}"), by=seat(o["last_player"])))
        else:
            out.append(line("board.to_beat", "board.to_beat.lead",
                            by=seat(o["current_player"])))
    if o.get("required"):
        out.append(line("board.must_hold", "board.cards", cards=cards([o["required"]])))
    out.append(line("board.passes", "board.number", n=int(o.get("passes") or 0)))
    return out


def settlement(o: Mapping[str, Any]) -> list[Message] | None:
    """The summary's sentences (:func:`solver.games.big_two.game.summary`)."""
    res = o.get("result")
    if not res:
        return None
    out = msg("settle.out_first_dragon" if res["dragon"] else "settle.out_first",
              winner=seat(res["winner"]))
    left = msg("settle.cards_left_one_point" if res.get("scoring") == "cards-left"
               else "settle.cards_left", left=seat_counts(res["cards_left"]))
    return [out, left]
