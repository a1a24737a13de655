"""The Da Bai Fen hand engine (draw, trump, kitty, tricks, scoring) behind the game contract.

Seats 0..3 in playing order (counter-clockwise): the player on seat ``p``'s right is
``(p + 1) % 4`` and the partner ``(p + 2) % 4``; team of a seat = ``seat % 2``.

Choices where the rules are silent (documented here once):

* Drawing: after each card a player draws, while nobody has shown, a player holding a
  trump-rank card decides to show one (``show``) or not (``no_show``, an empty move). A
  ``no_show`` is not public (it would tell the table the seat holds a trump-rank card).
* Burying: the leader buries the 6 cards one at a time (6 moves of one card each), so that
  ``legal_moves()`` stays short (18 choices, not C(18, 6) = 18,564).
* What is public: the shown card, the kitty cards turned when nobody showed, every card
  played, how many cards each seat holds. The closed kitty and the buried cards are seen only
  by the leader (the buried cards become public when the hand is scored).
* ``returns()``: the levels each seat's team gained minus the levels the other team gained.

>>> state = new_hand(seed=3)
>>> while not state.is_terminal():
...     state.apply(state.legal_moves()[0])
>>> r = state.result
>>> r.defenders_points + r.declarers_points - r.kitty_bonus + r.kitty_points
100
>>> state.history[0][1].to_json()
{'cards': [], 'kind': 'no_show'}
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from solver.cards import (
    RANK_CHARS,
    SUIT_CHARS,
    cards_twice,
    format_card,
    format_cards,
    is_joker,
    parse_cards,
    rank_of,
    suit_of,
)
from solver.errors import IllegalMoveError, InputError
from solver.games.base import TERMINAL, GameState, label
from solver.games.da_bai_fen.cards import (
    DECK_SIZE,
    HAND_SIZE,
    KITTY_SIZE,
    NUM_PLAYERS,
    Trump,
    parse_rank,
    points_of,
)
from solver.games.da_bai_fen.moves import (
    check_play,
    follow_plays,
    lead_plays,
    winner_index,
)
from solver.games.da_bai_fen.rules import (
    TOP_LEVEL,
    DaBaiFenRules,
    Outcome,
    level_outcome,
    next_leader,
)

__all__ = ["DEALT", "TOP_LEVEL", "DaBaiFenRules", "DaBaiFenState", "HandResult", "Kind", "Move",
           "NO_SHOW", "Outcome", "Phase", "Trick", "level_outcome", "new_hand", "next_leader"]

DEALT = HAND_SIZE * NUM_PLAYERS
GAME_NAME = "da-bai-fen"


# ------------------------------------------------------------------ moves
class Kind(str, Enum):
    """What a decision is; ``label`` is the one snake_case spelling (``no-show`` is read too)."""

    SHOW = "show"
    NO_SHOW = "no_show"
    BURY = "bury"
    PLAY = "play"

    @property
    def label(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: object) -> Kind:
        if isinstance(text, Kind):
            return text
        if isinstance(text, str):
            key = label(text)
            for k in cls:
                if k.value == key:
                    return k
        raise InputError(f"unknown Da Bai Fen move kind {text!r}; one of "
                         f"{', '.join(k.value for k in cls)}")

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Move:
    """A decision: show a trump-rank card, decline, bury one card, or play cards."""

    kind: Kind
    cards: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"cards": format_cards(self.cards), "kind": self.kind.value}

    def __str__(self) -> str:
        return f"{self.kind.value} {' '.join(format_cards(self.cards))}".strip()


NO_SHOW = Move(Kind.NO_SHOW)


class Phase(str, Enum):
    DRAW = "draw"
    BURY = "bury"
    PLAY = "play"
    OVER = "over"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Trick:
    """A finished trick: who led, the plays in order, who won, its points."""

    leader: int
    plays: tuple[tuple[int, ...], ...]
    winner: int
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"leader": self.leader, "plays": [format_cards(p) for p in self.plays],
                "winner": self.winner, "points": self.points}


@dataclass(frozen=True)
class HandResult:
    """The score of a finished hand and who leads (and deals) the next one."""

    leader: int
    declarers: int  # team
    defenders_points: int  # trick points plus the kitty bonus
    declarers_points: int  # trick points
    kitty_points: int
    kitty_bonus: int
    outcome: Outcome
    next_leader: int

    @property
    def next_declarers(self) -> int:
        return self.next_leader % 2

    def to_json(self) -> dict[str, Any]:
        o = self.outcome
        return {"leader": self.leader, "declarers": self.declarers,
                "defenders_points": self.defenders_points,
                "declarers_points": self.declarers_points, "kitty_points": self.kitty_points,
                "kitty_bonus": self.kitty_bonus, "declarers_up": o.declarers_up,
                "defenders_up": o.defenders_up, "defenders_declare": o.defenders_declare,
                "next_leader": self.next_leader}


# ------------------------------------------------------------------ the hand
class DaBaiFenState(GameState):
    """One hand, from the first card drawn to the last trick.

    ``levels`` are the two teams' levels (0..12 for 2..A). ``leader`` is None in the first
    hand (the player who shows leads, else the dealer); later hands pass the leader from
    the level table and the trump rank is the leader's team's level.
    """

    game_name = GAME_NAME
    num_players = NUM_PLAYERS

    def __init__(self, deck: Sequence[int], dealer: int, levels: tuple[int, int] = (0, 0),
                 leader: int | None = None, rules: DaBaiFenRules | None = None):
        self.rules = rules or DaBaiFenRules()
        self.deck = tuple(deck)
        self.dealer = dealer
        self.levels = tuple(levels)
        self.first_hand = leader is None
        self.leader: int | None = leader
        self.trump_rank = self.levels[0] if leader is None else self.levels[leader % 2]
        self.hands: list[list[int]] = [[] for _ in range(NUM_PLAYERS)]
        self.drawn = 0
        self.shown: tuple[int, int] | None = None  # (seat, card)
        self.revealed: tuple[int, ...] = ()  # kitty cards turned when nobody showed
        self.trump: Trump | None = None
        self.kitty = self.deck[DEALT:]
        self.buried: list[int] = []
        self.phase = Phase.DRAW
        self.trick: list[tuple[int, ...]] = []
        self.trick_leader = -1
        self.tricks: list[Trick] = []
        self.team_points = [0, 0]
        self.kitty_bonus = 0
        self.result: HandResult | None = None
        self.history: list[tuple[int, Move]] = []
        self._to_show = -1  # seat deciding whether to show
        self._rank_held = [0] * NUM_PLAYERS
        self._advance_draw()

    @classmethod
    def from_view(cls, *, deck: Sequence[int], dealer: int, levels: tuple[int, int],
                  first_hand: bool, leader: int | None, trump_rank: int,
                  hands: Sequence[Sequence[int]], drawn: int, shown: tuple[int, int] | None,
                  revealed: Sequence[int], trump: Trump | None, buried: Sequence[int],
                  phase: Phase, trick: Sequence[tuple[int, ...]], trick_leader: int,
                  tricks: Sequence[Trick], team_points: Sequence[int],
                  rules: DaBaiFenRules, to_show: int = -1,
                  kitty: Sequence[int] | None = None) -> DaBaiFenState:
        """A hand in progress from its parts (the hands as they are now; ``deck`` in drawing
        order, its last 6 cards the kitty, or empty once the draw is over, with ``kitty``
        given when it is known): how a search builds a world from an observation plus
        sampled hidden cards, without replaying the draw."""
        st = object.__new__(cls)
        st.rules, st.deck, st.dealer, st.levels = rules, tuple(deck), dealer, tuple(levels)
        st.first_hand, st.leader, st.trump_rank = first_hand, leader, trump_rank
        st.hands = [list(h) for h in hands]
        st.drawn, st.shown, st.revealed, st.trump = drawn, shown, tuple(revealed), trump
        st.kitty = tuple(kitty) if kitty is not None else st.deck[DEALT:]
        st.buried = list(buried)
        st.phase = phase
        st.trick, st.trick_leader = list(trick), trick_leader
        st.tricks, st.team_points = list(tricks), list(team_points)
        st.kitty_bonus, st.result = 0, None
        st.history = []
        st._to_show = to_show
        st._rank_held = [sum(1 for c in h if not is_joker(c) and rank_of(c) == trump_rank)
                          for h in hands]
        return st

    # ---- GameState
    @property
    def current_player(self) -> int:
        if self.phase is Phase.DRAW:
            return self._to_show
        if self.phase is Phase.BURY:
            return self.fixed_leader
        if self.phase is Phase.PLAY:
            return (self.trick_leader + len(self.trick)) % NUM_PLAYERS
        return TERMINAL

    @property
    def fixed_leader(self) -> int:
        """The leader, known once the draw ends (and from the start after the first hand);
        an error before, where :attr:`leader` is None."""
        if self.leader is None:
            raise InputError("the leader is not known before the draw ends")
        return self.leader

    @property
    def fixed_trump(self) -> Trump:
        """The trump, fixed when the draw ends (every later phase has it); an error before,
        where :attr:`trump` is None."""
        if self.trump is None:
            raise InputError("the trump is not fixed before the draw ends")
        return self.trump

    @property
    def declarers(self) -> int:
        """The declaring team (known once the leader is)."""
        if self.leader is None:
            raise InputError("the declarers are not known before the draw ends")
        return self.leader % 2

    def legal_moves(self, player: int | None = None) -> list[Move]:
        if player is not None and player != self.current_player:
            return []
        if self.phase is Phase.DRAW:
            hand = self.hands[self._to_show]
            shows = [Move(Kind.SHOW, (c,)) for c in sorted(hand)
                     if not is_joker(c) and rank_of(c) == self.trump_rank]
            return [NO_SHOW, *shows]
        if self.phase is Phase.BURY:
            return [Move(Kind.BURY, (c,))
                    for c in self.fixed_trump.sort(self.hands[self.fixed_leader])]
        if self.phase is Phase.PLAY:
            return [Move(Kind.PLAY, p) for p in self.legal_plays()]
        return []

    def legal_plays(self) -> list[tuple[int, ...]]:
        """The card plays open to the player to act (phase PLAY)."""
        hand, trump = self.hands[self.current_player], self.fixed_trump
        if not self.trick:
            return lead_plays(hand, trump)
        return follow_plays(hand, trump.eff[self.trick[0][0]], len(self.trick[0]), trump)

    def apply(self, move: Move | Mapping[str, Any] | str) -> None:
        if not isinstance(move, Move):
            move = self.parse_move(move)
        if self.phase is Phase.OVER:
            raise IllegalMoveError("the hand is over")
        seat = self.current_player
        if self.phase is Phase.DRAW:
            self._apply_show(seat, move)
        elif self.phase is Phase.BURY:
            self._apply_bury(seat, move)
        else:
            move = self._apply_play(seat, move)
        self.history.append((seat, move))
        if self.phase is Phase.DRAW:
            self._advance_draw()

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def returns(self) -> list[float]:
        if self.result is None:
            return [0.0] * NUM_PLAYERS
        o, d = self.result.outcome, self.result.declarers
        gain = [0, 0]
        gain[d] = o.declarers_up - o.defenders_up
        gain[1 - d] = -gain[d]
        return [float(gain[s % 2]) for s in range(NUM_PLAYERS)]

    def clone(self) -> DaBaiFenState:
        other = object.__new__(DaBaiFenState)
        other.__dict__.update(self.__dict__)
        other.hands = [list(h) for h in self.hands]
        other.buried = list(self.buried)
        other.trick = list(self.trick)
        other.tricks = list(self.tricks)
        other.team_points = list(self.team_points)
        other.history = list(self.history)
        other._rank_held = list(self._rank_held)
        return other

    # ---- views and documents
    def public_cards(self) -> set[int]:
        """Cards every seat knows the place of: the shown card and the kitty cards turned."""
        out = set(self.revealed)
        if self.shown is not None:
            out.add(self.shown[1])
        return out

    def hidden_cards(self, player: int) -> set[int]:
        if self.is_terminal():
            return set()
        hidden = set(self.deck[self.drawn:]) if self.phase is Phase.DRAW else set()
        for q in range(NUM_PLAYERS):
            if q != player:
                hidden.update(self.hands[q])
        if player != self.leader:
            hidden.update(self.buried)
        return hidden - self.public_cards()

    def _sorted(self, cards: Iterable[int]) -> list[str]:
        return format_cards(self.trump.sort(cards) if self.trump else sorted(cards))

    def observation(self, player: int) -> dict[str, Any]:
        """What seat ``player`` knows: its hand, the public record of the hand, the number of
        cards each seat holds; the kitty and buried cards only if it is the leader."""
        if not (isinstance(player, int) and 0 <= player < NUM_PLAYERS):
            raise InputError(f"player must be a seat 0..3, got {player!r}")
        over = self.is_terminal()
        leads = player == self.leader and self.phase is not Phase.DRAW
        trump = self.trump
        return {
            "game": self.game_name,
            "player": player,
            "phase": self.phase.value,
            "current_player": self.current_player,
            "rules": self.rules_json(),
            "dealer": self.dealer,
            "levels": [RANK_CHARS[v] if v <= TOP_LEVEL else None for v in self.levels],
            "first_hand": self.first_hand,
            "trump_rank": RANK_CHARS[self.trump_rank],
            "trump_suit": SUIT_CHARS[trump.suit] if trump else None,
            "leader": self.leader,
            "declarers": None if self.leader is None else self.leader % 2,
            "hand": self._sorted(self.hands[player]),
            "counts": [len(h) for h in self.hands],
            "drawn": self.drawn,
            "shown": None if self.shown is None else {"player": self.shown[0],
                                                       "card": format_card(self.shown[1])},
            "revealed": format_cards(self.revealed),
            "kitty": format_cards(self.kitty) if leads or over else None,
            "buried": self._sorted(self.buried) if leads or over else None,
            "buried_count": len(self.buried),
            "trick_leader": self.trick_leader if self.phase is Phase.PLAY else None,
            "trick": [format_cards(p) for p in self.trick],
            "tricks": [t.to_json() for t in self.tricks],
            "team_points": list(self.team_points),
            "result": self.result.to_json() if self.result else None,
            "returns": self.returns() if over else None,
        }

    def deal_json(self) -> dict[str, Any]:
        return {"deck": format_cards(self.deck), "dealer": self.dealer,
                "levels": [RANK_CHARS[v] for v in self.levels],
                "leader": None if self.first_hand else self.leader}

    def rules_json(self) -> dict[str, Any]:
        return self.rules.to_dict()

    def parse_move(self, doc: Any) -> Move:
        """A move from ``move.to_json()`` (``{"cards": [...], "kind": ...}``), from text such
        as ``play Ah Kh``, ``show 2h``, ``no-show``, or from cards alone (the kind the phase
        asks for). Old kind spellings are read (``no-show``)."""
        if isinstance(doc, Move):
            return doc
        if isinstance(doc, str):
            head, _, rest = doc.strip().partition(" ")
            try:
                kind: Kind | None = Kind.parse(head)
                text = rest
            except InputError:
                kind, text = None, doc
            cards = parse_cards(text, allow_jokers=True) if text.strip() else []
        elif isinstance(doc, Mapping):
            unknown = sorted(str(k) for k in doc if k not in ("cards", "kind"))
            if unknown:
                raise InputError(f"unknown move field {unknown[0]!r}; a move has cards and kind")
            kind = Kind.parse(doc["kind"]) if doc.get("kind") is not None else None
            raw = doc.get("cards") or []
            cards = parse_cards(raw, allow_jokers=True) if raw else []
        else:
            raise InputError(f"a Da Bai Fen move is an object {{cards, kind}} or text such as "
                             f"'play Ah Kh', got {type(doc).__name__}")
        if kind is None:
            kind = {Phase.DRAW: Kind.SHOW if cards else Kind.NO_SHOW, Phase.BURY: Kind.BURY,
                    Phase.PLAY: Kind.PLAY, Phase.OVER: Kind.PLAY}[self.phase]
        return Move(kind, tuple(cards))

    # ---- draw and trump
    def _advance_draw(self) -> None:
        """Draw cards until someone may show, or the draw ends."""
        first = (self.dealer + 1) % NUM_PLAYERS
        while self.drawn < DEALT:
            seat = (first + self.drawn) % NUM_PLAYERS
            card = self.deck[self.drawn]
            self.drawn += 1
            self.hands[seat].append(card)
            if not is_joker(card) and rank_of(card) == self.trump_rank:
                self._rank_held[seat] += 1
            if self.shown is None and self._rank_held[seat]:
                self._to_show = seat
                return
        self._to_show = -1
        self._fix_trump()

    def _apply_show(self, seat: int, move: Move) -> None:
        if move.kind is Kind.NO_SHOW and not move.cards:
            return
        if move.kind is not Kind.SHOW or len(move.cards) != 1:
            raise IllegalMoveError("while drawing, the move is show one card or no_show")
        card = move.cards[0]
        if card not in self.hands[seat] or is_joker(card) or rank_of(card) != self.trump_rank:
            raise IllegalMoveError(f"cannot show {format_card(card)}: not a trump-rank card "
                                   f"in the hand")
        self.shown = (seat, card)

    def _fix_trump(self) -> None:
        if self.shown is not None:
            suit = suit_of(self.shown[1])
        else:
            suit, best, turned = -1, -1, []
            for c in self.kitty:
                turned.append(c)
                if is_joker(c):
                    continue
                if rank_of(c) == self.trump_rank:
                    suit = suit_of(c)
                    break
                if rank_of(c) > best:  # ties: the first turned stays
                    best, suit = rank_of(c), suit_of(c)
            self.revealed = tuple(turned)
        self.trump = Trump(self.trump_rank, suit)
        if self.leader is None:
            self.leader = self.shown[0] if self.shown is not None else self.dealer
        self.hands[self.leader].extend(self.kitty)
        self.phase = Phase.BURY

    # ---- bury and play
    def _apply_bury(self, seat: int, move: Move) -> None:
        if move.kind is not Kind.BURY or len(move.cards) != 1:
            raise IllegalMoveError("the leader buries one card per move (bury with one card)")
        card = move.cards[0]
        if card not in self.hands[seat]:
            raise IllegalMoveError(f"cannot bury {format_card(card)}: not in the leader's hand")
        self.hands[seat].remove(card)
        self.buried.append(card)
        if len(self.buried) == KITTY_SIZE:
            self.phase = Phase.PLAY
            self.trick_leader = self.fixed_leader

    def _apply_play(self, seat: int, move: Move) -> Move:
        if move.kind is not Kind.PLAY:
            raise IllegalMoveError(f"expected a play move, got {move.kind.value}")
        trump = self.fixed_trump
        verdict = check_play(move.cards, self.hands[seat], self.trick, trump)
        if not verdict:
            raise IllegalMoveError(verdict.reason)
        hand = self.hands[seat]
        for c in move.cards:
            hand.remove(c)
        play = tuple(trump.sort(move.cards))
        self.trick.append(play)
        if len(self.trick) == NUM_PLAYERS:
            self._finish_trick()
        return move if play == move.cards else Move(Kind.PLAY, play)

    def _finish_trick(self) -> None:
        winner = (self.trick_leader + winner_index(self.trick, self.fixed_trump)) % NUM_PLAYERS
        points = sum(points_of(p) for p in self.trick)
        self.tricks.append(Trick(self.trick_leader, tuple(self.trick), winner, points))
        self.team_points[winner % 2] += points
        self.trick = []
        self.trick_leader = winner
        if not self.hands[winner]:
            if winner % 2 != self.declarers:
                self.kitty_bonus = points_of(self.buried) * self.rules.kitty_multiplier
            self._score()

    def _score(self) -> None:
        leader, d = self.fixed_leader, self.declarers
        defenders = self.team_points[1 - d] + self.kitty_bonus
        outcome = level_outcome(defenders)
        self.result = HandResult(leader, d, defenders, self.team_points[d],
                                 points_of(self.buried), self.kitty_bonus, outcome,
                                 next_leader(leader, outcome))
        self.phase = Phase.OVER

    def __repr__(self) -> str:
        trump = self.trump.label() if self.trump else None
        return (f"DaBaiFenState(phase={self.phase.value}, trump={trump}, "
                f"leader={self.leader}, tricks={len(self.tricks)})")


# ------------------------------------------------------------------ dealing
def shuffled_deck(rng: random.Random) -> list[int]:
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    return deck


def deck_from_hands(hands: Sequence[Iterable[object]], dealer: int,
                    rng: random.Random | None = None) -> list[int]:
    """A deck whose draw gives these 4 hands of 12 (and, given a 5th list, this kitty).

    Without a kitty the 6 cards left over form it, in an order from ``rng`` (else sorted).
    """
    if len(hands) not in (4, 5):
        raise InputError(f"give 4 hands of {HAND_SIZE} cards (and optionally the kitty), "
                         f"got {len(hands)} lists")
    parsed: list[list[int]] = []
    problems: list[str] = []
    for i, h in enumerate(hands):
        size = HAND_SIZE if i < 4 else KITTY_SIZE
        try:
            parsed.append(parse_cards(h, count=size, allow_jokers=True))
        except InputError as exc:
            problems += [f"{'hand ' + str(i) if i < 4 else 'kitty'}: {p}" for p in exc.problems]
    if problems:
        raise InputError(problems)
    problems = cards_twice(parsed, labels=[f"hand {i}" for i in range(4)] + ["the kitty"])
    if problems:
        raise InputError(problems)
    kitty = parsed[4] if len(parsed) == 5 else sorted(set(range(DECK_SIZE)).difference(*parsed))
    if len(parsed) == 4 and rng is not None:
        rng.shuffle(kitty)
    first = (dealer + 1) % NUM_PLAYERS
    deck = [parsed[(first + j) % NUM_PLAYERS][j // NUM_PLAYERS] for j in range(DEALT)]
    return deck + list(kitty)


def _seat(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < NUM_PLAYERS:
        raise InputError(f"{what} must be a seat 0..3, got {value!r}")
    return value


def _levels(levels: object) -> tuple[int, int]:
    if isinstance(levels, (str, bytes)) or not isinstance(levels, Sequence) or len(levels) != 2:
        raise InputError(f"levels must be two levels 2..A (or 0..{TOP_LEVEL}), got {levels!r}")
    try:
        a, b = (parse_rank(v) for v in levels)
    except InputError:
        raise InputError(f"levels must be two levels 2..A (or 0..{TOP_LEVEL}), "
                         f"got {list(levels)!r}") from None
    return a, b


def new_hand(seed: int | None = None,
             hands: Sequence[Iterable[object]] | Mapping[str, Any] | None = None,
             rules: DaBaiFenRules | Mapping[str, object] | None = None, *,
             dealer: int | None = None, levels: Sequence[object] = (0, 0),
             leader: int | None = None) -> DaBaiFenState:
    """A hand: the first of a game by default (random dealer, both teams at level 2).

    ``hands``: 4 hands of 12 cards (seat 0..3), optionally a 5th list with the 6 kitty cards
    in the order they would be turned, a single list of all 54 cards in drawing order, or the
    ``deal_json()`` document ``{"deck", "dealer", "levels", "leader"}`` (which sets those).
    """
    rng = random.Random(seed)
    if isinstance(hands, Mapping):
        unknown = sorted(str(k) for k in hands if k not in ("deck", "dealer", "levels", "leader"))
        if unknown or "deck" not in hands:
            raise InputError(f"a deal document has deck (54 cards in drawing order), dealer, "
                             f"levels and leader; got {sorted(map(str, hands))}")
        dealer = hands.get("dealer", dealer)
        levels = hands.get("levels", levels)
        leader = hands.get("leader", leader)
        hands = hands["deck"]
    if dealer is None:
        dealer = rng.randrange(NUM_PLAYERS)
    dealer = _seat(dealer, "dealer")
    if leader is not None:
        leader = _seat(leader, "leader")
    lv = _levels(levels)
    if leader is None and lv[0] != lv[1]:
        raise InputError("a first hand (no leader) needs both teams at the same level")
    if hands is None:
        deck = shuffled_deck(rng)
    elif len(hands) == DECK_SIZE and not isinstance(hands, str):
        deck = parse_cards(hands, count=DECK_SIZE, allow_jokers=True)
    else:
        deck = deck_from_hands(hands, dealer, rng)  # type: ignore[arg-type]
    return DaBaiFenState(deck, dealer, lv, leader, DaBaiFenRules.from_options(rules))
