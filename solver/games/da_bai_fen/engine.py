"""The Da Bai Fen hand engine (draw, trump, kitty, tricks, scoring) and the level table.

Seats 0..3 in playing order (counter-clockwise): the player on seat ``p``'s right is
``(p + 1) % 4`` and the partner ``(p + 2) % 4``; team of a seat = ``seat % 2``.

Choices where the rules are silent (documented here once):

* Drawing: after each card a player draws, while nobody has shown, a player holding a
  trump-rank card decides to show one (``SHOW``) or not (``NO_SHOW``, an empty move).
* Burying: the leader buries the 6 cards one at a time (6 moves of one card each), so that
  ``legal_moves()`` stays short (18 choices, not C(18, 6) = 18,564).
* ``returns()``: the levels each seat's team gained minus the levels the other team gained.

>>> state = new_hand(seed=3)
>>> while not state.is_terminal():
...     state.apply(state.legal_moves()[0])
>>> r = state.result
>>> r.defenders_points + r.declarers_points - r.kitty_bonus + r.kitty_points
100
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from enum import Enum

from solver.cards import format_card, format_cards, parse_cards
from solver.errors import IllegalMoveError, InputError, RulesError
from solver.games.base import GameState
from solver.games.da_bai_fen.cards import (
    DECK_SIZE,
    HAND_SIZE,
    KITTY_SIZE,
    NUM_PLAYERS,
    Trump,
    points_of,
)
from solver.games.da_bai_fen.moves import (
    check_play,
    follow_plays,
    lead_plays,
    winner_index,
)

TOP_LEVEL = 12  # A; going up past it wins the game
DEALT = HAND_SIZE * NUM_PLAYERS


# ------------------------------------------------------------------ rules
@dataclass(frozen=True)
class DaBaiFenRules:
    """Rule options. ``kitty_multiplier``: the buried kitty's points count this many times
    for the defenders when they win the last trick (default 2)."""

    kitty_multiplier: int = 2

    def __post_init__(self) -> None:
        m = self.kitty_multiplier
        if isinstance(m, bool) or not isinstance(m, int) or not 0 <= m <= 10:
            raise RulesError(f"kitty_multiplier must be an integer from 0 to 10, got {m!r}")

    @classmethod
    def make(cls, rules: DaBaiFenRules | Mapping[str, object] | None) -> DaBaiFenRules:
        """From None (defaults), an instance, or a dict of options (unknown keys are errors)."""
        if rules is None:
            return cls()
        if isinstance(rules, cls):
            return rules
        if not isinstance(rules, Mapping):
            raise RulesError(f"rules must be a mapping of options, got {type(rules).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(str(k) for k in rules if k not in known)
        if unknown:
            raise RulesError([f"unknown rule option {k!r}" for k in unknown])
        return cls(**rules)  # type: ignore[arg-type]


# ------------------------------------------------------------------ level table
@dataclass(frozen=True)
class Outcome:
    """One row of the level table."""

    declarers_up: int
    defenders_up: int
    defenders_declare: bool


def level_outcome(defenders_points: int) -> Outcome:
    """The level table row for the defenders' total.

    >>> [level_outcome(p) for p in (0, 35, 40)][1:]
    [Outcome(declarers_up=1, defenders_up=0, defenders_declare=False), \
Outcome(declarers_up=0, defenders_up=0, defenders_declare=True)]
    """
    if defenders_points < 0:
        raise InputError(f"defenders' points cannot be negative, got {defenders_points}")
    if defenders_points == 0:
        return Outcome(2, 0, False)
    if defenders_points < 40:
        return Outcome(1, 0, False)
    if defenders_points < 80:
        return Outcome(0, 0, True)
    if defenders_points < 100:
        return Outcome(0, 1, True)
    return Outcome(0, 2, True)


def next_leader(leader: int, outcome: Outcome) -> int:
    """The next hand's leader (and dealer): the leader's partner while the declarers stay,
    else the player on the leader's right (a defender)."""
    return (leader + (1 if outcome.defenders_declare else 2)) % NUM_PLAYERS


# ------------------------------------------------------------------ moves
class Action(Enum):
    SHOW = "show"
    NO_SHOW = "no-show"
    BURY = "bury"
    PLAY = "play"


@dataclass(frozen=True)
class Move:
    """A decision: show a trump-rank card, decline, bury one card, or play cards."""

    action: Action
    cards: tuple[int, ...] = ()

    def __str__(self) -> str:
        return f"{self.action.value} {' '.join(format_cards(self.cards))}".strip()


NO_SHOW = Move(Action.NO_SHOW)


class Phase(Enum):
    DRAW = "draw"
    BURY = "bury"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True)
class Trick:
    """A finished trick: who led, the plays in order, who won, its points."""

    leader: int
    plays: tuple[tuple[int, ...], ...]
    winner: int
    points: int


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


# ------------------------------------------------------------------ the hand
class DaBaiFenState(GameState):
    """One hand, from the first card drawn to the last trick.

    ``levels`` are the two teams' levels (0..12 for 2..A). ``leader`` is None in the first
    hand (the player who shows leads, else the dealer); later hands pass the leader from
    the level table and the trump rank is the leader's team's level.
    """

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
        self._to_show = -1  # seat deciding whether to show
        self._rank_held = [0] * NUM_PLAYERS
        self._advance_draw()

    # ---- GameState
    @property
    def current_player(self) -> int:
        if self.phase is Phase.DRAW:
            return self._to_show
        if self.phase is Phase.BURY:
            return self.leader  # type: ignore[return-value]
        if self.phase is Phase.PLAY:
            return (self.trick_leader + len(self.trick)) % NUM_PLAYERS
        return -1

    @property
    def declarers(self) -> int:
        """The declaring team (known once the leader is)."""
        if self.leader is None:
            raise InputError("the declarers are not known before the draw ends")
        return self.leader % 2

    def legal_moves(self) -> list[Move]:
        if self.phase is Phase.DRAW:
            hand = self.hands[self._to_show]
            shows = [Move(Action.SHOW, (c,)) for c in sorted(hand)
                     if c < 52 and c >> 2 == self.trump_rank]
            return [NO_SHOW, *shows]
        if self.phase is Phase.BURY:
            return [Move(Action.BURY, (c,)) for c in self.trump.sort(self.hands[self.leader])]
        if self.phase is Phase.PLAY:
            return [Move(Action.PLAY, p) for p in self.legal_plays()]
        return []

    def legal_plays(self) -> list[tuple[int, ...]]:
        """The card plays open to the player to act (phase PLAY)."""
        hand = self.hands[self.current_player]
        if not self.trick:
            return lead_plays(hand, self.trump)
        return follow_plays(hand, self.trump.eff[self.trick[0][0]], len(self.trick[0]), self.trump)

    def apply(self, move: Move) -> None:
        if not isinstance(move, Move):
            raise IllegalMoveError(f"a move must be a Move, got {type(move).__name__}")
        if self.phase is Phase.OVER:
            raise IllegalMoveError("the hand is over")
        seat = self.current_player
        if self.phase is Phase.DRAW:
            self._apply_show(seat, move)
        elif self.phase is Phase.BURY:
            self._apply_bury(seat, move)
        else:
            self._apply_play(seat, move)

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
        other._rank_held = list(self._rank_held)
        return other

    # ---- draw and trump
    def _advance_draw(self) -> None:
        """Draw cards until someone may show, or the draw ends."""
        first = (self.dealer + 1) % NUM_PLAYERS
        while self.drawn < DEALT:
            seat = (first + self.drawn) % NUM_PLAYERS
            card = self.deck[self.drawn]
            self.drawn += 1
            self.hands[seat].append(card)
            if card < 52 and card >> 2 == self.trump_rank:
                self._rank_held[seat] += 1
            if self.shown is None and self._rank_held[seat]:
                self._to_show = seat
                return
        self._to_show = -1
        self._fix_trump()

    def _apply_show(self, seat: int, move: Move) -> None:
        if move.action is Action.NO_SHOW and not move.cards:
            self._advance_draw()
            return
        if move.action is not Action.SHOW or len(move.cards) != 1:
            raise IllegalMoveError("while drawing, the move is SHOW one card or NO_SHOW")
        card = move.cards[0]
        if card not in self.hands[seat] or card >= 52 or card >> 2 != self.trump_rank:
            raise IllegalMoveError(f"cannot show {format_card(card)}: not a trump-rank card "
                                   f"in the hand")
        self.shown = (seat, card)
        self._advance_draw()

    def _fix_trump(self) -> None:
        if self.shown is not None:
            suit = self.shown[1] & 3
        else:
            suit, best, turned = -1, -1, []
            for c in self.kitty:
                turned.append(c)
                if c < 52 and c >> 2 == self.trump_rank:
                    suit = c & 3
                    break
                if c < 52 and c >> 2 > best:  # ties: the first turned stays
                    best, suit = c >> 2, c & 3
            self.revealed = tuple(turned)
        self.trump = Trump(self.trump_rank, suit)
        if self.leader is None:
            self.leader = self.shown[0] if self.shown is not None else self.dealer
        self.hands[self.leader].extend(self.kitty)
        self.phase = Phase.BURY

    # ---- bury and play
    def _apply_bury(self, seat: int, move: Move) -> None:
        if move.action is not Action.BURY or len(move.cards) != 1:
            raise IllegalMoveError("the leader buries one card per move (BURY with one card)")
        card = move.cards[0]
        if card not in self.hands[seat]:
            raise IllegalMoveError(f"cannot bury {format_card(card)}: not in the leader's hand")
        self.hands[seat].remove(card)
        self.buried.append(card)
        if len(self.buried) == KITTY_SIZE:
            self.phase = Phase.PLAY
            self.trick_leader = self.leader

    def _apply_play(self, seat: int, move: Move) -> None:
        if move.action is not Action.PLAY:
            raise IllegalMoveError(f"expected a PLAY move, got {move.action.value}")
        verdict = check_play(move.cards, self.hands[seat], self.trick, self.trump)
        if not verdict:
            raise IllegalMoveError(verdict.reason)
        hand = self.hands[seat]
        for c in move.cards:
            hand.remove(c)
        self.trick.append(tuple(self.trump.sort(move.cards)))
        if len(self.trick) == NUM_PLAYERS:
            self._finish_trick()

    def _finish_trick(self) -> None:
        winner = (self.trick_leader + winner_index(self.trick, self.trump)) % NUM_PLAYERS
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
        d = self.declarers
        defenders = self.team_points[1 - d] + self.kitty_bonus
        outcome = level_outcome(defenders)
        self.result = HandResult(self.leader, d, defenders, self.team_points[d],
                                 points_of(self.buried), self.kitty_bonus, outcome,
                                 next_leader(self.leader, outcome))
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
    seen: set[int] = set()
    for h in parsed:
        for c in h:
            if c in seen:
                problems.append(f"card {format_card(c)!r} is dealt twice")
            seen.add(c)
    if problems:
        raise InputError(problems)
    kitty = parsed[4] if len(parsed) == 5 else sorted(set(range(DECK_SIZE)) - seen)
    if len(parsed) == 4 and rng is not None:
        rng.shuffle(kitty)
    first = (dealer + 1) % NUM_PLAYERS
    deck = [parsed[(first + j) % NUM_PLAYERS][j // NUM_PLAYERS] for j in range(DEALT)]
    return deck + list(kitty)


def new_hand(seed: int | None = None, hands: Sequence[Iterable[object]] | None = None,
             rules: DaBaiFenRules | Mapping[str, object] | None = None, *,
             dealer: int | None = None, levels: tuple[int, int] = (0, 0),
             leader: int | None = None) -> DaBaiFenState:
    """A hand: the first of a game by default (random dealer, both teams at level 2).

    ``hands``: 4 hands of 12 cards (seat 0..3), optionally a 5th list with the 6 kitty cards
    in the order they would be turned, or a single list of all 54 cards in drawing order.
    """
    rng = random.Random(seed)
    if dealer is None:
        dealer = rng.randrange(NUM_PLAYERS)
    if not (isinstance(dealer, int) and 0 <= dealer < NUM_PLAYERS):
        raise InputError(f"dealer must be a seat 0..3, got {dealer!r}")
    if leader is not None and not (isinstance(leader, int) and 0 <= leader < NUM_PLAYERS):
        raise InputError(f"leader must be a seat 0..3, got {leader!r}")
    if len(levels) != 2 or any(not (isinstance(v, int) and 0 <= v <= TOP_LEVEL) for v in levels):
        raise InputError(f"levels must be two integers 0..{TOP_LEVEL} (2..A), got {levels!r}")
    if leader is None and levels[0] != levels[1]:
        raise InputError("a first hand (no leader) needs both teams at the same level")
    if hands is None:
        deck = shuffled_deck(rng)
    elif len(hands) == DECK_SIZE and not isinstance(hands, str):
        deck = parse_cards(hands, count=DECK_SIZE, allow_jokers=True)
    else:
        deck = deck_from_hands(hands, dealer, rng)
    return DaBaiFenState(deck, dealer, (levels[0], levels[1]), leader, DaBaiFenRules.make(rules))
