"""Da San's registry entry: metadata, options, bots and the ``moves`` query."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.cards import format_cards, parse_cards
from solver.errors import InputError
from solver.games.base import (
    GameInfo,
    GameState,
    MoveArg,
    Option,
    Presentation,
    dealer_role,
    from_json_via,
    settled_hands,
)
from solver.games.da_san import present
from solver.games.da_san.advise import RolloutSearchBot, SearchBot, advise
from solver.games.da_san.bots import greedy_bot, random_bot
from solver.games.da_san.engine import HAND_SIZE, KITTY_SIZE, NUM_PLAYERS, DaSanState, new_game
from solver.games.da_san.moves import MAX_BID, MAX_HAND, moves_result
from solver.games.da_san.net import NetBot, default_net
from solver.games.da_san.rules import DEFAULT_RULES, MIN_RUN_HIGH, MIN_RUN_LOW
from solver.games.da_san.view import View


def moves(hand: Any, current: Any = None, all_suits: bool = False) -> dict[str, Any]:
    current = current if current is None or str(current).strip() else None
    return moves_result(hand, current, all_suits)


def format_moves(result: dict[str, Any]) -> str:
    lines = [f"{m['kind']:<9} {' '.join(m['cards'])}" for m in result["moves"]]
    if result["can_pass"]:
        lines.append("pass")
    return "\n".join(lines) if lines else "(no legal move)"


def hidden_of(state: GameState, player: int) -> dict[str, Any]:
    """``GameInfo.hidden_of``: the other seats' hands, and the kitty where ``player`` has not
    seen it (closed during the auction, in the bidder's hand after)."""
    if not isinstance(state, DaSanState):
        raise InputError(f"not a Da San hand: {type(state).__name__}")
    return {"hands": [None if q == player else format_cards(state.hands[q])
                      for q in range(NUM_PLAYERS)],
            "kitty": None if state.kitty_seen_by(player) else format_cards(state.kitty)}


def from_view(observation: Mapping[str, Any], hidden: Mapping[str, Any]) -> DaSanState:
    """``GameInfo.from_view``: the hand the seat to act sees, the other hands and an unseen
    kitty from ``hidden`` (read as the advisor reads the observation)."""
    view = View(observation)
    hands = [list(view.mine) if q == view.seat else parse_cards(hidden["hands"][q])
             for q in range(NUM_PLAYERS)]
    kitty = view.kitty if view.kitty else parse_cards(hidden.get("kitty") or [])
    return DaSanState.from_view(
        hands, kitty, dealer=view.dealer, opener=view.opener, phase=view.phase,
        high_bid=view.high_bid, bidder=view.bidder, passes=view.passes, to_act=view.seat,
        pile=view.pile, last_player=view.last_player, history=view.history, rules=view.rules)


def utility_bounds(rules: Any = None) -> tuple[float, float]:
    """``GameInfo.utility_bounds``: the bidder wins or pays the bid (at most 3) to each of
    the two others."""
    most = float(MAX_BID * (NUM_PLAYERS - 1))
    return -most, most


def seat_roles(observation: Mapping[str, Any], players: int) -> list[list[str]]:
    """The dealer, and the high bidder with the bid."""
    out = dealer_role(observation, players)
    bidder = observation.get("bidder")
    if isinstance(bidder, int) and 0 <= bidder < players:
        out[bidder].append(f"bidder {observation['high_bid']}")
    return out


def summary(observation: Mapping[str, Any]) -> str | None:
    """The settlement in words: who went out, and whether the bid was made."""
    res = observation.get("settlement")
    if not res:
        return None
    return (f"{{seat:{res['winner']}}} went out first. {{seat:{res['bidder']}}} bid "
            f"{res['bid']} and {'made it.' if res['bidder_made'] else 'failed.'}")


def warm_up() -> None:
    """Load the shipped network (start-up, not a first request)."""
    default_net()


GAME = GameInfo(
    name="da-san",
    title="Da San (Big Three)",
    new_game=new_game,
    from_json=from_json_via(new_game, "da-san"),
    players=(3, 3),
    zero_sum=True,
    simultaneous=False,
    options=(
        Option("min_run", DEFAULT_RULES.min_run, "fewest ranks in a run",
               minimum=MIN_RUN_LOW, maximum=MIN_RUN_HIGH),
    ),
    aliases=("big-three",),
    bots={"search": SearchBot, "net": NetBot, "search-rollout": RolloutSearchBot,
          "greedy": lambda: greedy_bot, "random": lambda: random_bot},
    moves=moves,
    moves_args=(
        MoveArg("hand", f"the hand ({HAND_SIZE} cards, {HAND_SIZE + KITTY_SIZE} for the bidder)",
                positional=True, cards=(1, MAX_HAND)),
        MoveArg("current", "the play to beat (none, or no cards: the player leads)",
                cards=(0, MAX_HAND)),
        MoveArg("all_suits", "every concrete card choice instead of one per rank pattern "
                             "(lowest suits)", flag=True),
    ),
    format_moves=format_moves,
    advise=advise,
    from_view=from_view,
    hidden_of=hidden_of,
    utility_bounds=utility_bounds,
    presentation=Presentation(seat_roles=seat_roles, summary=summary, board=present.board,
                              roles=present.roles, settlement=present.settlement,
                              leftovers=settled_hands),
    warm_up=warm_up,
)
