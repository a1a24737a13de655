"""Big Two's registry entry: metadata, options, bots and the ``moves`` query."""

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
    from_json_via,
    settled_hands,
)
from solver.games.big_two import moves_result, present
from solver.games.big_two.advise import RolloutSearchBot, SearchBot, advise
from solver.games.big_two.bots import BaselineBot, RandomBot
from solver.games.big_two.engine import BigTwoState, new_game
from solver.games.big_two.moves import HAND_SIZE, ids_to_mask
from solver.games.big_two.moves import warm_up as warm_up_moves
from solver.games.big_two.net import NetBot, default_net
from solver.games.big_two.rules import (
    DEFAULT_RULES,
    FLUSH_ORDERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SCORINGS,
    STRAIGHTS,
    BigTwoRules,
)
from solver.games.big_two.view import View


def moves(hand: Any, current: Any = None, first_trick: bool = False, required: Any = None,
          straights: str = DEFAULT_RULES.straights, flush_order: str = DEFAULT_RULES.flush_order,
          bomb_on_two: bool = DEFAULT_RULES.bomb_on_two,
          scoring: str = DEFAULT_RULES.scoring) -> dict[str, Any]:
    """The legal plays of ``hand``; ``scoring`` is checked like any rule but does not change
    which plays are legal."""
    rules = BigTwoRules.from_options({"straights": straights, "flush_order": flush_order,
                                      "bomb_on_two": bomb_on_two, "scoring": scoring})
    return moves_result(hand, current or None, first_trick, rules, required)


def format_moves(result: dict[str, Any]) -> str:
    lines = [f"{m['kind']:<15} {' '.join(m['cards'])}" for m in result["moves"]]
    lines.append("pass allowed" if result["can_pass"] else "leading: no pass")
    return "\n".join(lines)


def hidden_of(state: GameState, player: int) -> dict[str, Any]:
    """``GameInfo.hidden_of``: the other seats' hands (None in ``player``'s own seat)."""
    if not isinstance(state, BigTwoState):
        raise InputError(f"not a Big Two hand: {type(state).__name__}")
    return {"hands": [None if q == player else format_cards(state.hand(q))
                      for q in range(state.num_players)]}


def from_view(observation: Mapping[str, Any], hidden: Mapping[str, Any]) -> BigTwoState:
    """``GameInfo.from_view``: the hand the seat to act sees, the other hands from ``hidden``
    (read as the advisor reads the observation)."""
    view = View(observation)
    hands = [view.mine if q == view.seat else ids_to_mask(parse_cards(hidden["hands"][q]))
             for q in range(view.n)]
    return BigTwoState.from_view(hands, view.rules, view.seat, view.current, view.last_player,
                                 view.passes, view.history, view.required)


def utility_bounds(rules: Any = None) -> tuple[float, float]:
    """``GameInfo.utility_bounds``: a loser pays at most the points of a full hand (39 with
    ``penalty`` scoring, 13 with ``cards-left``); the winner scores 0, or when it collects
    (``cards-left``, or ``penalty`` with ``zero_sum``) every other seat's points."""
    r = BigTwoRules.from_options(rules)
    worst = float(r.points(HAND_SIZE))
    return -worst, worst * (r.players - 1) if r.winner_collects else 0.0


def summary(observation: Mapping[str, Any]) -> str | None:
    """The settlement in words: who went out, and the cards the others kept."""
    res = observation.get("result")
    if not res:
        return None
    left = ", ".join(f"{{seat:{p}}} {n}" for p, n in enumerate(res["cards_left"]))
    scored = " (1 point a card)" if res.get("scoring") == "cards-left" else ""
    return (f"{{seat:{res['winner']}}} went out first{' with a dragon' if res['dragon'] else ''}. "
            f"Cards left{scored}: {left}.")


def warm_up() -> None:
    """Compile the move kernels and load the shipped network (start-up, not a first request)."""
    warm_up_moves()
    default_net()


GAME = GameInfo(
    name="big-two",
    title="Capsa Banting (Big Two)",
    new_game=new_game,
    from_json=from_json_via(new_game, "big-two"),
    players=(MIN_PLAYERS, MAX_PLAYERS),
    zero_sum=False,
    simultaneous=False,
    options=(
        Option("straights", DEFAULT_RULES.straights,
               "poker adds A-2-3-4-5 and 2-3-4-5-6 as the top straights", STRAIGHTS),
        Option("flush_order", DEFAULT_RULES.flush_order,
               "flushes compare by ranks then suit, or by suit first", FLUSH_ORDERS),
        Option("bomb_on_two", DEFAULT_RULES.bomb_on_two,
               "four of a kind + 1 or a straight flush may beat a single 2"),
        Option("zero_sum", DEFAULT_RULES.zero_sum,
               "the winner collects the losers' penalties (penalty scoring)"),
        Option("players", DEFAULT_RULES.players, "seats at the table",
               minimum=MIN_PLAYERS, maximum=MAX_PLAYERS),
        Option("scoring", DEFAULT_RULES.scoring,
               "penalty: 1/2/3 points a card left by count; cards-left: 1 point a card, the "
               "winner collects (zero_sum has no effect)", SCORINGS),
    ),
    aliases=("capsa-banting", "big2"),
    bots={"search": SearchBot, "net": NetBot, "search-rollout": RolloutSearchBot,
          "baseline": BaselineBot, "random": RandomBot},
    moves=moves,
    moves_args=(
        MoveArg("hand", "the player's hand", positional=True, cards=(1, HAND_SIZE)),
        MoveArg("current", "the play to beat (none: the player leads)",
                cards=(1, HAND_SIZE)),
        MoveArg("first_trick", "opening lead: every play must hold 3d (or the required card)",
                flag=True),
        MoveArg("required", "card every play must hold (with 2-3 players: the lowest card "
                            "dealt)", card=True),
        MoveArg("straights", "`poker` adds A-2-3-4-5 and 2-3-4-5-6 as the top straights",
                choices=STRAIGHTS, default=DEFAULT_RULES.straights, group="rules"),
        MoveArg("flush_order", "flushes compare by ranks then suit, or by suit first",
                choices=FLUSH_ORDERS, default=DEFAULT_RULES.flush_order, group="rules"),
        MoveArg("bomb_on_two", "four of a kind + 1 or a straight flush may beat a single 2",
                flag=True, negate="no-bomb-on-two", default=DEFAULT_RULES.bomb_on_two,
                group="rules"),
        MoveArg("scoring", "how a hand is scored (checked; the legal plays are the same): "
                           "`penalty` 1/2/3 points a card left by count, `cards-left` 1 point "
                           "a card", choices=SCORINGS, default=DEFAULT_RULES.scoring,
                group="rules"),
    ),
    format_moves=format_moves,
    warm_up=warm_up,
    advise=advise,
    from_view=from_view,
    hidden_of=hidden_of,
    utility_bounds=utility_bounds,
    presentation=Presentation(summary=summary, board=present.board,
                              settlement=present.settlement, leftovers=settled_hands),
)
