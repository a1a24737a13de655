"""Capsa Susun behind the game contract: a table of 2 to 4 seats, each setting its 13 cards.

Setting the rows is a simultaneous move: every seat moves once, in seat order, and no seat
sees another's rows (or cards) before all are set; then the referee settles the table. A
move is an arrangement that does not foul, or the declaration of a natural the hand holds
(fouls are refused: a player never gains by one, and the web page shows them live).

>>> state = new_game(seed=1, rules={"players": 2})
>>> state.current_player, len(state.legal_moves()) > 10_000
(0, True)
>>> state.observation(0)["hands"][1] is None     # seat 1's cards are hidden
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.cards import cards_twice, format_cards, parse_cards
from solver.errors import CardError, IllegalMoveError, InputError
from solver.games.base import (
    TERMINAL,
    GameInfo,
    GameState,
    LazyMoves,
    Option,
    Presentation,
    from_json_via,
)
from solver.games.capsa import present, review
from solver.games.capsa.arrange import arrange, warm_up
from solver.games.capsa.drill import drill
from solver.games.capsa.naturals import detect_natural
from solver.games.capsa.referee import MAX_PLAYERS, MIN_PLAYERS, make_seat, score
from solver.games.capsa.rules import PRESETS, ROWS, Rules, resolve_rules
from solver.games.capsa.splits import (
    Arrangement,
    all_valid_splits,
    parse_hand,
    unpack_split,
)

HAND_SIZE = 13
DEFAULT_PLAYERS = 4


@dataclass(frozen=True)
class CapsaMove:
    """Rows set (``kind`` ``arrangement``) or a natural declared (``kind`` ``natural``)."""

    cards: tuple[int, ...]
    kind: str
    arrangement: Arrangement | None = None
    natural: str | None = None

    @classmethod
    def rows(cls, arrangement: Arrangement) -> CapsaMove:
        return cls(tuple(sorted(arrangement.cards)), "arrangement", arrangement)

    @classmethod
    def declare(cls, hand: Sequence[int], natural: str) -> CapsaMove:
        return cls(tuple(sorted(int(c) for c in hand)), "natural", natural=natural)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"cards": format_cards(self.cards), "kind": self.kind}
        if self.arrangement is not None:
            d.update(self.arrangement.to_dict())
        if self.natural is not None:
            d["natural"] = self.natural
        return d

    def seat_entry(self) -> Arrangement | dict[str, Any]:
        """What the referee takes for this move."""
        return self.arrangement if self.arrangement is not None else {"hand": list(self.cards)}

    def __str__(self) -> str:
        if self.arrangement is None:
            return f"natural {self.natural}"
        return " | ".join(" ".join(format_cards(r)) for r in self.arrangement.rows())


class CapsaMoves(LazyMoves):
    """The legal moves of one hand, built lazily (about 22,000 valid splits on average)."""

    def __init__(self, hand: np.ndarray, packed: np.ndarray, natural: str | None):
        self._hand, self._packed, self._natural = hand, packed, natural

    def __len__(self) -> int:
        return len(self._packed) + (self._natural is not None)

    def _build(self, i: int) -> CapsaMove:
        if i == len(self._packed):
            return CapsaMove.declare(self._hand, self._natural)  # type: ignore[arg-type]
        return CapsaMove.rows(unpack_split(self._hand, int(self._packed[i])))


def _split_rules(rules: Any) -> tuple[Rules, int | None]:
    """(Capsa rules, players or None) from the contract's ``rules`` (``players`` is an option
    of the table, beside the scoring rules)."""
    if isinstance(rules, Mapping) and "players" in rules:
        options = dict(rules)
        players = options.pop("players")
        if isinstance(players, bool) or not isinstance(players, int) \
                or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise InputError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {players!r}")
        return resolve_rules(options or None), players
    return resolve_rules(rules), None


class CapsaState(GameState):
    """One Capsa Susun table from the deal to the referee's settlement."""

    game_name = "capsa"

    def __init__(self, hands: Sequence[np.ndarray], rules: Rules):
        self.rules = rules
        self.num_players = len(hands)
        self._hands = [np.sort(np.asarray(h, dtype=np.int64)) for h in hands]
        self._moves: list[CapsaMove | None] = [None] * self.num_players
        self.history: list[tuple[int, CapsaMove]] = []
        self._result: dict[str, Any] | None = None

    # ------------------------------------------------------------------ turn order
    @property
    def current_player(self) -> int:
        for p, m in enumerate(self._moves):
            if m is None:
                return p
        return TERMINAL

    def players_to_act(self) -> list[int]:
        return [p for p, m in enumerate(self._moves) if m is None]

    def is_terminal(self) -> bool:
        return all(m is not None for m in self._moves)

    def hand(self, player: int) -> list[int]:
        return [int(c) for c in self._hands[player]]

    # ------------------------------------------------------------------ moves
    def legal_moves(self, player: int | None = None) -> CapsaMoves:
        p = self.current_player if player is None else player
        if p == TERMINAL or self._moves[p] is not None:
            return CapsaMoves(np.empty(0, np.int64), np.empty(0, np.int64), None)
        hand = self._hands[p]
        packed, _, _ = all_valid_splits(hand, self.rules)
        natural = detect_natural(hand, self.rules)
        return CapsaMoves(hand, packed, natural.kind if natural else None)

    def parse_move(self, doc: Any) -> CapsaMove:
        if isinstance(doc, CapsaMove):
            return doc
        if not isinstance(doc, Mapping):
            raise InputError("a Capsa move is an object: {front, middle, back} or "
                             "{kind: 'natural', cards}")
        if doc.get("kind") == "natural" or set(doc) == {"hand"}:
            cards = parse_cards(doc.get("cards", doc.get("hand")), count=HAND_SIZE)
            return CapsaMove.declare(cards, str(doc.get("natural", "")))
        missing = [k for k in ("front", "middle", "back") if k not in doc]
        if missing:
            raise InputError(f"a Capsa move needs front, middle and back; missing {', '.join(missing)}")
        return CapsaMove.rows(Arrangement.parse(doc["front"], doc["middle"], doc["back"]))

    def apply(self, move: Any) -> None:
        p = self.current_player
        if p == TERMINAL:
            raise IllegalMoveError("the table is settled: every seat has set its hand")
        move = self.parse_move(move)
        hand = tuple(int(c) for c in self._hands[p])
        if tuple(sorted(move.cards)) != hand:
            raise IllegalMoveError(f"seat {p} holds {' '.join(format_cards(hand))}, "
                                   f"not {' '.join(format_cards(sorted(move.cards)))}")
        if move.kind == "natural":
            natural = detect_natural(self._hands[p], self.rules)
            if natural is None:
                raise IllegalMoveError(f"seat {p}'s hand holds no natural under these rules")
            move = CapsaMove.declare(hand, natural.kind)
        else:
            seat = make_seat(move.arrangement, self.rules, p)
            if seat.foul:
                raise IllegalMoveError("the arrangement fouls: the back must be at least the "
                                       "middle, and the middle at least the front")
        self._moves[p] = move
        self.history.append((p, move))
        if self.is_terminal():
            self._result = score([m.seat_entry() for m in self._moves],  # type: ignore[union-attr]
                                 self.rules).to_dict()
            for entry, m in zip(self._result["players"], self._moves):
                entry["kinds"] = self._row_kinds(m)

    def _row_kinds(self, move: CapsaMove | None) -> list[str] | None:
        """The kind of each row of a set arrangement, front first (None for a natural): what
        the reveal names beside each row."""
        if move is None or move.arrangement is None:
            return None
        from solver.games.capsa.evaluate import hand_kind, row_strength

        wheel = self.rules.wheel
        return [hand_kind(row_strength(list(r), wheel), wheel).label
                for r in move.arrangement.rows()]

    def returns(self) -> list[float]:
        if self._result is None:
            return [0.0] * self.num_players
        return [float(p["points"]) for p in self._result["players"]]

    def result(self) -> dict[str, Any] | None:
        """The referee's settlement (per seat and per opponent) once the table is settled."""
        return self._result

    def clone(self) -> CapsaState:
        other = object.__new__(CapsaState)
        other.__dict__.update(self.__dict__)
        other._hands = list(self._hands)
        other._moves = list(self._moves)
        other.history = list(self.history)
        return other

    # ------------------------------------------------------------------ views and documents
    def observation(self, player: int) -> dict[str, Any]:
        done = self.is_terminal()
        return {
            "game": self.game_name, "player": player, "num_players": self.num_players,
            "rules": self.rules_json(),
            "hands": [format_cards(h) if done or q == player else None
                      for q, h in enumerate(self._hands)],
            "set": [m is not None for m in self._moves],
            "moves": [m.to_json() if m is not None and (done or q == player) else None
                      for q, m in enumerate(self._moves)],
            "to_act": self.players_to_act(),
            "result": self._result,
        }

    def hidden_cards(self, player: int) -> set[int]:
        if self.is_terminal():
            return set()
        return {int(c) for q, h in enumerate(self._hands) if q != player for c in h}

    def deal_json(self) -> dict[str, Any]:
        return {"hands": [format_cards(h) for h in self._hands]}

    def rules_json(self) -> dict[str, Any]:
        return {**self.rules.to_dict(), "players": self.num_players}

    def __repr__(self) -> str:
        return f"CapsaState(players={self.num_players}, set={[m is not None for m in self._moves]})"


def deal(seed: int | None, players: int) -> list[np.ndarray]:
    """Shuffle with ``seed`` and give 13 cards to each seat (the rest are not dealt)."""
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return [np.array(sorted(deck[p * HAND_SIZE:(p + 1) * HAND_SIZE]), dtype=np.int64)
            for p in range(players)]


def new_game(seed: int | None = None, hands: Any = None, rules: Any = None) -> CapsaState:
    """Deal a table from ``seed``, or seat the given hands (2 to 4 lists of 13 cards, or the
    ``deal_json()`` document). ``rules``: a preset name or options, plus ``players``."""
    r, players = _split_rules(rules)
    if hands is None:
        return CapsaState(deal(seed, players or DEFAULT_PLAYERS), r)
    if isinstance(hands, Mapping):
        hands = hands.get("hands")
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence) \
            or not MIN_PLAYERS <= len(hands) <= MAX_PLAYERS:
        raise CardError(f"hands must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} hands of 13 cards")
    parsed: list[np.ndarray] = []
    problems: list[str] = []
    for p, h in enumerate(hands):
        try:
            parsed.append(parse_hand(h))
        except CardError as exc:
            problems.extend(f"hand {p}: {m}" for m in exc.problems)
    problems = problems or cards_twice(arr.tolist() for arr in parsed)
    if problems:
        raise CardError(problems)
    if players is not None and players != len(parsed):
        raise InputError(f"players is {players} but {len(parsed)} hands were given")
    return CapsaState(parsed, r)


def _solver_bot(method: str, samples: int = 0):
    """A bot that sets its hand with :func:`~solver.games.capsa.arrange.arrange` (and declares a
    natural when it holds one), from its observation only."""

    def bot(observation: Mapping[str, Any], moves: Sequence[CapsaMove], rng: random.Random
            ) -> CapsaMove:
        me = observation["player"]
        hand = observation["hands"][me]
        rules = {k: v for k, v in observation["rules"].items() if k != "players"}
        res = arrange(hand, rules, observation["num_players"] - 1, method, samples or 1000,
                      seed=rng.getrandbits(63), top=1)
        if res.natural is not None:
            return CapsaMove.declare(parse_cards(hand), res.natural.kind)
        return CapsaMove.rows(res.best.arrangement)

    bot.__name__ = f"{method}_bot"
    return bot


def natural_review(observation: Mapping[str, Any], seed: int,
                   samples: int = review.REVIEW_SAMPLES) -> dict[str, Any]:
    """``GameInfo.review``: :func:`review.review`, and for a hand holding a natural what
    declaring it was worth beside the best rows, on the same Monte Carlo deals.

    A declared natural gets the solver's best rows (``best``), the best response to the
    opponents' actual rows (``best_response``) and ``natural``: ``{kind, units, ev, rows_ev,
    declare, ev_lost, points}`` (``ev_lost``: the best of declaring and the best rows less
    what the player chose; ``points``: what declaring scores on this table); ``mine`` and
    ``cost`` (an arrangement's) stay None. Rows set on a hand holding a natural are reviewed
    as any rows, plus the same ``natural``."""
    from solver.games.capsa.methods import exact
    from solver.games.capsa.methods.montecarlo import sampled_deals
    from solver.games.capsa.methods.natural import natural_ev_on_deals

    out = review.review(observation, seed, samples)
    me = observation["player"]
    rules = review.scoring_rules(observation["rules"])
    r = resolve_rules(rules)
    hand = parse_hand(observation["hands"][me])
    natural = detect_natural(hand, r)
    if natural is None:
        return out
    opponents = observation["num_players"] - 1
    nat_ev = natural_ev_on_deals(natural, r, sampled_deals(hand, opponents, samples, seed))
    moves = observation["moves"]
    declared = bool(out["declared_natural"])
    if declared:
        _, best = review.evs_on_deals(hand.tolist(), rules, opponents, samples, seed, [])
        rows_ev = best[0].ev
        out["best"] = [a.to_dict() for a in best]
        sp = exact.valid_splits(hand, r)
        opp = review._opponents_known(observation["result"]["players"], moves, me, rules)
        br = exact.exact_result(sp, r, opp, 1, exact.candidates(sp, r))[0]
        out["best_response"] = {**br.arrangement.to_dict(), "points": round(br.ev, 6),
                                "gain": round(br.ev - out["actual_points"], 6)}
        out["hand"] = format_cards(hand)
        points = float(out["actual_points"])
        mine_ev = nat_ev
    else:
        rows_ev = float(out["best"][0]["ev"])
        mine_ev = float(out["mine"]["ev"])
        others = [m.get("cards") if m["kind"] == "natural" else
                  {k: m[k] for k in ("front", "middle", "back")}
                  for q, m in enumerate(moves) if q != me]
        table = [{"hand": format_cards(hand)},
                 *({"hand": o} if not isinstance(o, Mapping) else o for o in others)]
        points = float(score(table, r).players[0].points)
    out["natural"] = {"kind": natural.kind, "units": natural.units, "ev": round(nat_ev, 6),
                      "rows_ev": round(rows_ev, 6), "declare": nat_ev > rows_ev,
                      "ev_lost": round(max(max(nat_ev, rows_ev) - mine_ev, 0.0), 6),
                      "points": points}
    return out


def hidden_of(state: GameState, player: int) -> dict[str, Any]:
    """``GameInfo.hidden_of``: the other seats' cards and the rows they set, hidden from
    ``player`` until the table is settled (None in its own seat)."""
    if not isinstance(state, CapsaState):
        raise InputError(f"not a Capsa table: {type(state).__name__}")
    return {"hands": [None if q == player else format_cards(h)
                      for q, h in enumerate(state._hands)],
            "moves": [None if q == player or m is None else m.to_json()
                      for q, m in enumerate(state._moves)]}


def from_view(observation: Mapping[str, Any], hidden: Mapping[str, Any]) -> CapsaState:
    """``GameInfo.from_view``: the table an observation of a seat still to set its rows
    describes, the other seats' cards and rows taken from ``hidden`` (rows are set in seat
    order, so the seats already set are replayed in that order)."""
    seat = observation["player"]
    if observation.get("game") != "capsa" or seat not in (observation.get("to_act") or []):
        raise InputError("from_view takes the observation of a Capsa seat yet to set its rows")
    n = observation["num_players"]
    hands = [observation["hands"][q] if q == seat else hidden["hands"][q] for q in range(n)]
    state = new_game(hands=hands, rules=observation["rules"])
    for q in range(n):
        if observation["set"][q]:
            state.apply(state.parse_move(hidden["moves"][q]))
    return state


def utility_bounds(rules: Any = None) -> tuple[float, float]:
    """``GameInfo.utility_bounds``: against each opponent at most the three rows, the scoop
    and the largest royalty of each row, or the largest natural; times the opponents."""
    r, players = _split_rules(rules)
    scoop = 1 if r.scoring == "two-four" else r.scoop_bonus
    royalties = sum(max([u for row, _, u in r.royalties if row == name] or [0]) for name in ROWS)
    natural = max([u for _, u in r.naturals] or [0])
    most = (players or DEFAULT_PLAYERS) - 1
    bound = float(most * max(3 + scoop + royalties, natural))
    return -bound, bound


def own_cards(observation: Mapping[str, Any]) -> list[str]:
    """The observing seat's 13 cards (a table observation lists every seat's, mostly None)."""
    return list(observation["hands"][observation["player"]] or [])


GAME = GameInfo(
    name="capsa",
    title="Capsa Susun (13-card Chinese poker)",
    new_game=new_game,
    from_json=from_json_via(new_game, "capsa"),
    players=(MIN_PLAYERS, MAX_PLAYERS),
    zero_sum=True,
    simultaneous=True,
    options=(
        Option("preset", "standard", "rule preset", tuple(PRESETS)),
        Option("players", DEFAULT_PLAYERS, "seats at the table", minimum=MIN_PLAYERS,
               maximum=MAX_PLAYERS),
    ),
    aliases=("capsa-susun",),
    bots={"table": lambda: _solver_bot("table"),
          "montecarlo": lambda: _solver_bot("montecarlo", 1000)},
    warm_up=warm_up,
    from_view=from_view,
    hidden_of=hidden_of,
    utility_bounds=utility_bounds,
    presentation=Presentation(name="capsa_rows", own_cards=own_cards, board=present.board,
                              log=present.log),
    hint=lambda observation, seed, opponent_profiles=None: review.advice(
        observation, seed=seed, opponent_profiles=opponent_profiles),
    hint_profiles=True,
    review=natural_review,
    check_partial=review.check_partial,
    drill=drill(new_game),
)
