"""Da Bai Fen on the play page, as message keys (:mod:`solver.games.lines`): trump, levels,
the draw, the kitty, the points and the trick on the board; the shown trump card and each
trick in the log; each seat's roles and the settlement, from one seat's observation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.games.da_bai_fen.levels import TEAM_NAMES
from solver.games.lines import Message, cards, dealer_roles, line, msg, seat, term

DRAWN = 48  # cards drawn by the four seats before the kitty (6) is left
BURIED = 6


def _rank(r: str) -> str:
    return "10" if r == "T" else r


def _level(value: str | None) -> Any:
    return _rank(value) if value else term("level.past_a")


def board(o: Mapping[str, Any], players: int) -> list[Message]:
    out: list[Message] = []
    rank, suit = o["trump_rank"], o.get("trump_suit")
    out.append(line("board.trump", "board.trump.suit", card=cards([rank + suit]),
                    suit=term(f"suit.{suit}")) if suit else
               line("board.trump", "board.trump.no_suit", rank=_rank(rank)))
    levels = {"a": _level(o["levels"][0]), "b": _level(o["levels"][1])}
    declarers = o.get("declarers")
    out.append(line("board.levels", "board.levels.teams", **levels) if declarers is None else
               line("board.levels", "board.levels.declarers", **levels,
                    team=term(f"team.{TEAM_NAMES[declarers]}")))
    if o.get("phase") == "draw":
        out.append(line("board.drawing", "board.drawn", n=o["drawn"], total=DRAWN))
    if o.get("shown"):
        out.append(line("board.shown", "board.shown.by", cards=cards([o["shown"]["card"]]),
                        by=seat(o["shown"]["player"])))
    if o.get("revealed"):
        out.append(line("board.turned", "board.cards", cards=cards(o["revealed"])))
    if o.get("kitty"):
        out.append(line("board.kitty_yours", "board.cards", cards=cards(o["kitty"])))
    if o.get("buried"):
        out.append(line("board.buried", "board.cards", cards=cards(o["buried"])))
    elif o.get("phase") == "bury":
        out.append(line("board.buried", "board.buried.count", n=o["buried_count"], total=BURIED))
    if o.get("phase") in ("play", "over"):
        a, b = o["team_points"]
        out.append(line("board.points", "board.points.teams", a=a, b=b, tricks=len(o["tricks"])))
    if o.get("phase") == "play":
        leader = o["trick_leader"]
        if o["trick"]:
            out.append(line("board.trick", "board.trick.plays", plays={"plays": [
                [(leader + i) % 4, play] for i, play in enumerate(o["trick"])]}))
        else:
            out.append(line("board.trick", "board.trick.lead", by=seat(leader)))
    return out


def log(o: Mapping[str, Any]) -> list[Message]:
    """The trump card shown, then every card of every trick, the trick's winner at its end."""
    out: list[Message] = []
    if o.get("shown"):
        out.append({"player": o["shown"]["player"],
                    **msg("log.showed", cards=cards([o["shown"]["card"]]))})
    tricks = o.get("tricks") or []
    for k, trick in enumerate(tricks, start=1):
        for i, play in enumerate(trick["plays"]):
            entry = (msg("log.trick_won", n=k, cards=cards(play), by=seat(trick["winner"]),
                         points=trick["points"]) if i == len(trick["plays"]) - 1 else
                     msg("log.trick", n=k, cards=cards(play)))
            out.append({"player": (trick["leader"] + i) % 4, **entry})
    for i, play in enumerate(o.get("trick") or []):
        out.append({"player": (o["trick_leader"] + i) % 4,
                    **msg("log.trick", n=len(tricks) + 1, cards=cards(play))})
    return out


def roles(o: Mapping[str, Any], players: int) -> list[list[Message]]:
    """The dealer, the leader, each seat's team (:func:`..game.seat_roles`)."""
    out = dealer_roles(o, players)
    leader = o.get("leader")
    if isinstance(leader, int) and 0 <= leader < players:
        out[leader].append(msg("role.leader"))
    for p, rs in enumerate(out):
        rs.append(msg("role.team", team=term(f"team.{TEAM_NAMES[p % 2]}")))
    return out


def settlement(o: Mapping[str, Any]) -> list[Message] | None:
    res = o.get("result")
    if not res:
        return None
    return [msg("settle.points", defenders=res["defenders_points"], bonus=res["kitty_bonus"],
                declarers=res["declarers_points"]),
            msg("settle.levels_switch" if res["defenders_declare"] else "settle.levels_stay",
                team=term(f"team.{TEAM_NAMES[res['declarers']]}"), up=res["declarers_up"],
                defenders_up=res["defenders_up"]),
            msg("settle.next_leader", leader=seat(res["next_leader"]))]
