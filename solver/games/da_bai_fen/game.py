"""Da Bai Fen's registry entry: metadata, options, bots and the ``moves`` query."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields
from typing import Any

from solver.cards import RANK_CHARS, SUIT_CHARS, format_cards, parse_cards
from solver.errors import InputError
from solver.games.base import (
    GameInfo,
    GameState,
    MoveArg,
    Option,
    Presentation,
    dealer_role,
    from_json_via,
)
from solver.games.da_bai_fen import levels, present
from solver.games.da_bai_fen.advise import RolloutSearchBot, SearchBot, advise
from solver.games.da_bai_fen.bots import GreedyBot, random_bot
from solver.games.da_bai_fen.cards import (
    HAND_SIZE,
    NUM_PLAYERS,
    TRUMP_RANK_PATTERN,
    TRUMP_SUIT_PATTERN,
    Trump,
)
from solver.games.da_bai_fen.engine import DEALT, GAME_NAME, DaBaiFenState, Phase, new_hand
from solver.games.da_bai_fen.moves import legal_plays
from solver.games.da_bai_fen.net import NetBot, default_net
from solver.games.da_bai_fen.rules import KITTY_MULTIPLIER_RANGE, DaBaiFenRules
from solver.games.da_bai_fen.view import View


def split_trick(text: str | None) -> list[str]:
    """``"Ah Kh;2h 3h"`` -> one card string per play (blank text: no trick)."""
    if text is None or not text.strip():
        return []
    return [part.strip() for part in text.split(";")]


def moves(hand: Iterable[object], trump_rank: object, trump_suit: object,
          trick: Sequence[Iterable[object]] | str | None = None,
          max_plays: int | None = None) -> dict[str, Any]:
    """The JSON-ready legal plays: ``{"plays": [{"cards": [...]}, ...]}`` (``trick`` may be
    the CLI's text, plays separated by ``;``)."""
    if isinstance(trick, str):
        trick = split_trick(trick)
    trump = Trump.parse(trump_rank, trump_suit)
    plays = legal_plays(hand, trick, trump, max_plays=max_plays)
    return {"plays": [{"cards": format_cards(p)} for p in plays]}


def format_moves(result: dict[str, Any]) -> str:
    return "\n".join(" ".join(p["cards"]) for p in result["plays"])


_DEFAULTS = DaBaiFenRules()
_HELP = {"kitty_multiplier": "times the buried kitty's points count for the defenders when "
                             "they win the last trick"}
OPTIONS = tuple(
    Option(f.name, getattr(_DEFAULTS, f.name), _HELP[f.name],
           minimum=KITTY_MULTIPLIER_RANGE[0], maximum=KITTY_MULTIPLIER_RANGE[1])
    for f in fields(DaBaiFenRules))

def hidden_of(state: GameState, player: int) -> dict[str, Any]:
    """``GameInfo.hidden_of``: the other hands (in the engine's order: drawing order while
    drawing), the undrawn deck in its order, and the kitty and buried cards where ``player``
    is not the leader who saw them."""
    if not isinstance(state, DaBaiFenState):
        raise InputError(f"not a Da Bai Fen hand: {type(state).__name__}")
    out: dict[str, Any] = {"hands": [None if q == player else format_cards(state.hands[q])
                                     for q in range(NUM_PLAYERS)]}
    if state.phase is Phase.DRAW:
        out["deck"] = format_cards(state.deck[state.drawn:])
    if player != state.leader or state.phase is Phase.DRAW:
        out["kitty"] = format_cards(state.kitty)
        out["buried"] = format_cards(state.buried)
    return out


def _cards(text: Any) -> list[int]:
    return parse_cards(text or [], allow_jokers=True)


def from_view(observation: Mapping[str, Any], hidden: Mapping[str, Any]) -> DaBaiFenState:
    """``GameInfo.from_view``: the hand the seat to act sees (read as the advisor reads the
    observation), the hidden cards from ``hidden``. While drawing, the deck is rebuilt from
    the hands in drawing order and the undrawn rest; the seat's own cards, whose order
    nobody else sees, take its drawing positions in sorted order."""
    view = View(observation)
    hands = [list(view.mine) if q == view.seat else _cards(hidden["hands"][q])
             for q in range(NUM_PLAYERS)]
    if view.phase is Phase.DRAW:
        first = (view.dealer + 1) % NUM_PLAYERS
        taken = [0] * NUM_PLAYERS
        deck = []
        for j in range(view.drawn):
            seat = (first + j) % NUM_PLAYERS
            deck.append(hands[seat][taken[seat]])
            taken[seat] += 1
        deck += _cards(hidden["deck"])
        return DaBaiFenState.from_view(
            deck=deck, dealer=view.dealer, levels=view.levels, first_hand=view.first_hand,
            leader=view.leader, trump_rank=view.trump_rank, hands=hands, drawn=view.drawn,
            shown=None, revealed=(), trump=None, buried=[], phase=Phase.DRAW, trick=[],
            trick_leader=-1, tricks=[], team_points=[0, 0], rules=view.rules,
            to_show=view.seat)
    kitty = view.kitty if view.kitty is not None else _cards(hidden.get("kitty"))
    buried = view.buried if view.buried is not None else _cards(hidden.get("buried"))
    return DaBaiFenState.from_view(
        deck=(), kitty=kitty, dealer=view.dealer, levels=view.levels,
        first_hand=view.first_hand, leader=view.leader, trump_rank=view.trump_rank,
        hands=hands, drawn=DEALT, shown=view.shown, revealed=view.revealed, trump=view.trump,
        buried=buried, phase=view.phase, trick=view.trick, trick_leader=view.trick_leader,
        tricks=view.tricks, team_points=view.team_points, rules=view.rules)


def utility_bounds(rules: Any = None) -> tuple[float, float]:
    """``GameInfo.utility_bounds``: a team goes up at most 2 levels in a hand, and only one
    team goes up."""
    return -2.0, 2.0


TEAM = levels.TEAM_NAMES


def seat_roles(observation: Mapping[str, Any], players: int) -> list[list[str]]:
    """The dealer, the leader, and each seat's team (A: seats 0 and 2, B: 1 and 3)."""
    out = dealer_role(observation, players)
    leader = observation.get("leader")
    if isinstance(leader, int) and 0 <= leader < players:
        out[leader].append("leader")
    for p, roles in enumerate(out):
        roles.append(f"team {TEAM[p % 2]}")
    return out


def summary(observation: Mapping[str, Any]) -> str | None:
    """The settlement in words: the points, the levels gained and the next leader."""
    res = observation.get("result")
    if not res:
        return None
    stay = "the defenders declare next." if res["defenders_declare"] else "the declarers stay."
    return (f"Defenders {res['defenders_points']} points (kitty bonus {res['kitty_bonus']}), "
            f"declarers {res['declarers_points']}. Declarers (team {TEAM[res['declarers']]}) "
            f"go up {res['declarers_up']}, defenders up {res['defenders_up']}; {stay} "
            f"Next leader: {{seat:{res['next_leader']}}}.")


def warm_up() -> None:
    """Load the shipped network (start-up, not a first request)."""
    default_net()


GAME = GameInfo(
    name=GAME_NAME,
    title="Da Bai Fen (trick-taking, beat a hundred points)",
    new_game=new_hand,
    from_json=from_json_via(new_hand, GAME_NAME),
    players=(4, 4),
    zero_sum=True,
    simultaneous=False,
    options=OPTIONS,
    aliases=("dabaifen",),
    bots={"search": SearchBot, "net": NetBot, "search-rollout": RolloutSearchBot,
          "greedy": GreedyBot, "random": lambda: random_bot},
    moves=moves,
    moves_args=(
        MoveArg("hand", "the player's hand (`BJ` big joker, `SJ` small joker)", positional=True,
                cards=(1, HAND_SIZE), jokers=True),
        MoveArg("trump_rank", "trump rank: 2..9, T (or 10), J, Q, K, A", required=True,
                pattern=TRUMP_RANK_PATTERN, what="trump rank",
                allowed=" ".join(RANK_CHARS) + " (or 10)"),
        MoveArg("trump_suit", "trump suit: c, d, h or s (a symbol or name too)", required=True,
                pattern=TRUMP_SUIT_PATTERN, what="trump suit",
                allowed=" ".join(SUIT_CHARS) + ", a symbol or a suit's name"),
        MoveArg("trick", "plays so far in the trick, the lead first (none: the player leads)",
                cards=(1, HAND_SIZE), jokers=True, plays=NUM_PLAYERS - 1),
        MoveArg("max_plays", "answer an error instead of listing more plays than this",
                type=int, minimum=0),
    ),
    format_moves=format_moves,
    advise=advise,
    from_view=from_view,
    hidden_of=hidden_of,
    utility_bounds=utility_bounds,
    presentation=Presentation(seat_roles=seat_roles, summary=summary, board=present.board,
                              log=present.log, roles=present.roles,
                              settlement=present.settlement),
    next_hand=levels.next_hand_options,
    game_over=levels.game_over,
    warm_up=warm_up,
)
