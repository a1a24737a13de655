"""Da San on the play page, as message keys (:mod:`solver.games.lines`): the auction, the
kitty, what to beat, each seat's roles and the settlement, from one seat's observation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.games.lines import Message, cards, dealer_roles, line, msg, seat, term


def board(o: Mapping[str, Any], players: int) -> list[Message]:
    out: list[Message] = []
    bidder = o.get("bidder")
    if o.get("phase") == "auction":
        out.append(line("board.auction", "board.no_bid") if bidder is None else
                   line("board.auction", "board.high_bid", bid=o["high_bid"], by=seat(bidder)))
    elif bidder is not None:
        out.append(line("board.bid", "board.bid_by", bid=o["high_bid"], by=seat(bidder)))
    size = int(o.get("kitty_size") or 0)
    if o.get("kitty"):
        out.append(line("board.kitty", "board.kitty.cards", cards=cards(o["kitty"]), n=size))
    elif o.get("phase") == "auction":
        out.append(line("board.kitty", "board.kitty.until_auction", n=size))
    elif bidder is not None:  # taken by the high bidder, unseen by the others
        out.append(line("board.kitty", "board.kitty.taken", n=size, by=seat(bidder)))
    pile = o.get("pile")
    if pile and pile.get("move"):
        out.append(line("board.to_beat", "board.to_beat.by", cards=cards(pile["move"]["cards"]),
                        kind=term(f"kind.{pile['move']['kind']}"), by=seat(pile["player"])))
    elif o.get("phase") == "play":
        out.append(line("board.to_beat", "board.to_beat.new_lead"))
    return out


def roles(o: Mapping[str, Any], players: int) -> list[list[Message]]:
    """The dealer, and the high bidder with the bid (:func:`..game.seat_roles`)."""
    out = dealer_roles(o, players)
    bidder = o.get("bidder")
    if isinstance(bidder, int) and 0 <= bidder < players:
        out[bidder].append(msg("role.bidder", bid=o["high_bid"]))
    return out


def settlement(o: Mapping[str, Any]) -> list[Message] | None:
    res = o.get("settlement")
    if not res:
        return None
    return [msg("settle.out_first", winner=seat(res["winner"])),
            msg("settle.bid_made" if res["bidder_made"] else "settle.bid_failed",
                bidder=seat(res["bidder"]), bid=res["bid"])]
