"""One hand of Da San: dealer draw, deal, auction, play and settlement, as a :class:`GameState`.

Seats are 0, 1, 2 and play goes counter-clockwise, which here means seat ``s`` is followed
by seat ``(s + 1) % 3``. Both the auction and the play are moves of the state: during the
auction ``legal_moves()`` lists the bids (``Kind.BID``, strength = amount) and the pass.

What each seat may see is :meth:`DaSanState.observation`: its own cards, the public history
and the card counts; the kitty stays face down until the auction's winner takes it into the
hand (only that seat sees it: the rules file never shows it to the table).

>>> state = new_game(seed=3)
>>> state.phase, len(state.hands[0]), len(state.kitty)
(<Phase.AUCTION: 'auction'>, 16, 4)
>>> state.observation(0)["kitty"] is None
True
>>> state.apply(state.legal_moves()[-1]); state.phase   # the opener bids 3: auction over
<Phase.PLAY: 'play'>
>>> len(state.hands[state.bidder])
20
>>> state.observation(state.bidder)["kitty"] == format_cards(state.kitty)
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from solver.cards import (
    NUM_CARDS,
    Rank,
    Suit,
    cards_twice,
    format_cards,
    parse_cards,
    rank_of,
    suit_of,
)
from solver.errors import CardError, IllegalMoveError, InputError
from solver.games.base import TERMINAL, GameState
from solver.games.da_san.moves import (
    DS_KEY,
    DS_RANK,
    MAX_BID,
    PASS,
    Kind,
    Move,
    bid,
    classify_ids,
    group_by_rank,
    moves_from_groups,
    parse_move,
    sort_cards,
)
from solver.games.da_san.rules import DEFAULT_RULES, DaSanRules

NUM_PLAYERS = 3
HAND_SIZE = 16
KITTY_SIZE = 4
HEARTS = int(Suit.HEARTS)
# Hearts from lowest to highest in Da San order: 4h 5h ... Ah 2h 3h.
HEARTS_LOW_TO_HIGH: tuple[int, ...] = tuple(
    sorted((c for c in range(NUM_CARDS) if suit_of(c) == HEARTS), key=DS_KEY.__getitem__))
BIDS = tuple(bid(b) for b in range(MAX_BID + 1))


class Phase(str, Enum):
    """Where the hand is: the auction, the play, or over (settled)."""

    AUCTION = "auction"
    PLAY = "play"
    OVER = "over"

    @property
    def label(self) -> str:
        return self.value


def draw_count(card: int) -> int:
    """A card's count in the dealer draw: ace 1, ``2``-``T`` face value, pictures 0."""
    rank = rank_of(card)
    if rank == Rank.ACE:
        return 1
    return 0 if rank >= Rank.JACK else rank + 2


@dataclass(frozen=True)
class DealerDraw:
    """The first hand's draw for the deal: ``rounds[i]`` maps seat -> card drawn."""

    rounds: tuple[tuple[tuple[int, int], ...], ...]
    dealer: int


def draw_dealer(rng: random.Random) -> DealerDraw:
    """Each player draws a card; the highest count deals, tied players draw again."""
    deck = list(range(NUM_CARDS))
    rng.shuffle(deck)
    rounds = []
    contenders = list(range(NUM_PLAYERS))
    while True:
        if len(deck) < len(contenders):
            deck = list(range(NUM_CARDS))
            rng.shuffle(deck)
        drawn = tuple((seat, deck.pop()) for seat in contenders)
        rounds.append(drawn)
        best = max(draw_count(c) for _, c in drawn)
        contenders = [seat for seat, c in drawn if draw_count(c) == best]
        if len(contenders) == 1:
            return DealerDraw(tuple(rounds), contenders[0])


def deal(rng: random.Random, dealer: int) -> tuple[list[list[int]], tuple[int, ...]]:
    """Shuffle, cut, and draw one card at a time from the dealer counter-clockwise."""
    deck = list(range(NUM_CARDS))
    rng.shuffle(deck)
    cut = rng.randrange(1, NUM_CARDS)  # the player on the dealer's left cuts
    deck = deck[cut:] + deck[:cut]
    hands: list[list[int]] = [[] for _ in range(NUM_PLAYERS)]
    for i in range(NUM_PLAYERS * HAND_SIZE):
        hands[(dealer + i) % NUM_PLAYERS].append(deck[i])
    return hands, tuple(deck[NUM_PLAYERS * HAND_SIZE:])


def lowest_heart_holder(hands: Sequence[Sequence[int]]) -> int:
    """Seat holding the lowest heart (``4h``, else the next heart up)."""
    owner = {c: seat for seat, hand in enumerate(hands) for c in hand}
    for card in HEARTS_LOW_TO_HIGH:
        if card in owner:
            return owner[card]
    raise IllegalMoveError("no player holds a heart")  # impossible: the kitty has 4 cards


class DaSanState(GameState):
    """A hand of Da San from the auction to the settlement (mutable; moves are values)."""

    game_name = "da-san"
    num_players = NUM_PLAYERS

    def __init__(self, hands: Sequence[Sequence[int]], kitty: Sequence[int], dealer: int,
                 rules: DaSanRules = DEFAULT_RULES, dealer_draw: DealerDraw | None = None):
        self.rules = rules
        self.dealer = dealer
        self.dealer_draw = dealer_draw
        self.hands: list[list[int]] = [sorted(h, key=DS_KEY.__getitem__) for h in hands]
        self.kitty: tuple[int, ...] = sort_cards(kitty)
        self.phase = Phase.AUCTION
        self.opener = lowest_heart_holder(self.hands)
        self.high_bid = 0
        self.bidder = -1
        self.passes = 0  # passes in a row (auction and play)
        self.to_act = self.opener
        self.pile: Move | None = None  # the play to beat (None: the player to act leads)
        self.last_player = -1
        self.winner = -1
        self.history: list[tuple[int, Move]] = []
        self._returns = [0.0] * NUM_PLAYERS

    @classmethod
    def from_view(cls, hands: Sequence[Sequence[int]], kitty: Sequence[int], *, dealer: int,
                  opener: int, phase: Phase, high_bid: int, bidder: int, passes: int,
                  to_act: int, pile: Move | None, last_player: int,
                  history: Sequence[tuple[int, Move]], rules: DaSanRules = DEFAULT_RULES
                  ) -> DaSanState:
        """A hand in progress from its parts (the hands as they are now, the kitty's cards
        inside the bidder's hand once taken): how a search builds a world from an observation
        plus sampled hidden cards, without replaying a deal."""
        st = object.__new__(cls)
        st.rules, st.dealer, st.dealer_draw = rules, dealer, None
        st.hands = [sorted(h, key=DS_KEY.__getitem__) for h in hands]
        st.kitty = sort_cards(kitty)
        st.phase, st.opener, st.high_bid, st.bidder = phase, opener, high_bid, bidder
        st.passes, st.to_act, st.pile, st.last_player = passes, to_act, pile, last_player
        st.winner = -1
        st.history = list(history)
        st._returns = [0.0] * NUM_PLAYERS
        return st

    # ------------------------------------------------------------------ GameState API
    @property
    def current_player(self) -> int:
        return TERMINAL if self.phase is Phase.OVER else self.to_act

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def returns(self) -> list[float]:
        return list(self._returns)

    def clone(self) -> DaSanState:
        other = object.__new__(DaSanState)
        other.__dict__.update(self.__dict__)
        other.hands = [list(h) for h in self.hands]
        other.history = list(self.history)
        other._returns = list(self._returns)
        return other

    def legal_moves(self, player: int | None = None, all_suits: bool = False) -> list[Move]:
        """Bids (and the pass) in the auction; plays (and the pass when following) after.

        One play per rank pattern (the lowest suits), or every card choice with ``all_suits``;
        empty for a seat that is not to act, and once the hand is over."""
        if self.phase is Phase.OVER or (player is not None and player != self.to_act):
            return []
        if self.phase is Phase.AUCTION:
            bids = list(BIDS[self.high_bid + 1:])
            return bids if self.high_bid == 0 else [*bids, PASS]
        groups = group_by_rank(self.hands[self.to_act])
        return moves_from_groups(groups, self.pile, self.rules, all_suits)

    def parse_move(self, doc: Any) -> Move:
        """A move from ``move.to_json()`` output (any label style) or a text form (``pass``,
        ``bid 2``, cards); see :func:`~solver.games.da_san.moves.parse_move`."""
        return parse_move(doc, self.rules)

    def apply(self, move: Any) -> None:
        """Play ``move`` (a :class:`Move`, its JSON, or a text form) for the player to act."""
        if self.phase is Phase.OVER:
            raise IllegalMoveError("the hand is over")
        if not isinstance(move, Move):
            move = parse_move(move, self.rules)
        if self.phase is Phase.AUCTION:
            self._apply_bid(move)
        else:
            self._apply_play(self._as_play(move))

    # ------------------------------------------------------------------ auction
    def _apply_bid(self, move: Any) -> None:
        if not isinstance(move, Move) or move.kind not in (Kind.BID, Kind.PASS):
            raise IllegalMoveError(f"the auction is on: bid 1-{MAX_BID} or pass, got {move}")
        seat = self.to_act
        if move.kind is Kind.PASS:
            if self.high_bid == 0:
                raise IllegalMoveError("the opener must bid at least 1")
            self.passes += 1
        else:
            if type(move.strength) is not int or not self.high_bid < move.strength <= MAX_BID:
                raise IllegalMoveError(
                    f"a bid must be higher than {self.high_bid} and at most {MAX_BID}, "
                    f"got {move.strength}")
            self.high_bid, self.bidder, self.passes = move.strength, seat, 0
        self.history.append((seat, move))
        if self.high_bid == MAX_BID or self.passes == 2:
            self._start_play()
        else:
            self.to_act = (seat + 1) % NUM_PLAYERS

    def _start_play(self) -> None:
        self.hands[self.bidder] = sorted(self.hands[self.bidder] + list(self.kitty),
                                         key=DS_KEY.__getitem__)
        self.phase = Phase.PLAY
        self.passes = 0
        self.to_act = lowest_heart_holder(self.hands)
        self.pile = None

    # ------------------------------------------------------------------ play
    def _as_play(self, move: Move) -> Move:
        if move.kind is Kind.PASS:
            return PASS
        if move.kind is Kind.BID:
            raise IllegalMoveError("the auction is over: play cards or pass")
        ids = move.cards
        if len(set(ids)) != len(ids) or not all(type(c) is int and 0 <= c < NUM_CARDS for c in ids):
            raise IllegalMoveError("a play must be distinct cards")
        played = classify_ids(ids, self.rules)
        if played is None:
            text = " ".join(format_cards(sort_cards(ids)))
            raise IllegalMoveError(f"{text} is not a Da San combination")
        if (played.kind, played.strength) != (move.kind, move.strength):
            raise IllegalMoveError(f"{move} is a {played.kind} of strength {played.strength}, "
                                   f"not a {move.kind} of strength {move.strength}")
        return played

    def _apply_play(self, move: Move) -> None:
        seat = self.to_act
        hand = self.hands[seat]
        if not move.cards:
            if self.pile is None:
                raise IllegalMoveError("the leader may not pass")
            self.history.append((seat, PASS))
            self.passes += 1
            if self.passes == 2:  # pile cleared: the last player to play leads
                self.passes, self.pile, self.to_act = 0, None, self.last_player
            else:
                self.to_act = (seat + 1) % NUM_PLAYERS
            return
        missing = set(move.cards).difference(hand)
        if missing:
            raise IllegalMoveError(
                f"seat {seat} does not hold {' '.join(format_cards(sort_cards(missing)))}")
        pile = self.pile
        if not move.beats(pile):
            beaten = "an empty pile" if pile is None else f"{pile} ({pile.kind})"
            raise IllegalMoveError(f"{move} ({move.kind}) does not beat {beaten}")
        played = set(move.cards)
        self.hands[seat] = [c for c in hand if c not in played]
        self.history.append((seat, move))
        self.pile, self.last_player, self.passes = move, seat, 0
        if not self.hands[seat]:
            self._settle(seat)
        else:
            self.to_act = (seat + 1) % NUM_PLAYERS

    def _settle(self, winner: int) -> None:
        """The bidder out first collects the bid from each opponent, else pays it to each."""
        self.winner, self.phase, self.to_act = winner, Phase.OVER, TERMINAL
        sign = 1 if winner == self.bidder else -1
        for seat in range(NUM_PLAYERS):
            self._returns[seat] = float(sign * (2 if seat == self.bidder else -1) * self.high_bid)

    # ------------------------------------------------------------------ views
    @property
    def next_dealer(self) -> int:
        """The winner of this hand deals the next (-1 while it is running)."""
        return self.winner

    def counts(self) -> list[int]:
        return [len(h) for h in self.hands]

    def kitty_seen_by(self, player: int) -> bool:
        """Only the auction's winner sees the kitty (it joins that seat's hand)."""
        return self.phase is not Phase.AUCTION and player == self.bidder

    def settlement(self) -> dict[str, Any] | None:
        """Who went out first and what each seat collects (``None`` while the hand runs)."""
        if self.phase is not Phase.OVER:
            return None
        return {"winner": self.winner, "bidder": self.bidder, "bid": self.high_bid,
                "bidder_made": self.winner == self.bidder, "returns": self.returns(),
                # the others lay down the cards they kept, as at a real table
                "hands": [format_cards(h) for h in self.hands]}

    def observation(self, player: int) -> dict[str, Any]:
        """What seat ``player`` may see: its own hand (and the kitty once it has taken it),
        every move so far, how many cards each seat holds, the auction, the play to beat, and
        the settlement once the hand is over (with the cards each seat kept). Never another
        seat's cards while the hand runs, or a closed kitty."""
        if type(player) is not int or not 0 <= player < NUM_PLAYERS:
            raise InputError(f"player must be a seat 0-{NUM_PLAYERS - 1}, got {player!r}")
        over = self.phase is Phase.OVER
        return {
            "game": self.game_name, "player": player, "num_players": NUM_PLAYERS,
            "rules": self.rules_json(), "phase": self.phase.value,
            "dealer": self.dealer, "opener": self.opener,
            "to_act": None if over else self.to_act,
            "hand": format_cards(self.hands[player]),
            "counts": self.counts(),
            "kitty_size": KITTY_SIZE,
            "kitty": format_cards(self.kitty) if self.kitty_seen_by(player) else None,
            "high_bid": self.high_bid,
            "bidder": self.bidder if self.bidder >= 0 else None,
            "pile": None if self.pile is None else {"player": self.last_player,
                                                    "move": self.pile.to_json()},
            "passes": self.passes,
            "history": [{"player": p, "move": m.to_json()} for p, m in self.history],
            "settlement": self.settlement(),
        }

    def hidden_cards(self, player: int) -> set[int]:
        """The other seats' cards while the hand runs (at its end they are laid down: see
        :meth:`settlement`), and the kitty while the auction runs (nobody sees it)."""
        if self.phase is Phase.OVER:
            return set()
        hidden = {c for seat, hand in enumerate(self.hands) if seat != player for c in hand}
        if self.phase is Phase.AUCTION:
            hidden.update(self.kitty)
        return hidden

    # ------------------------------------------------------------------ documents
    def deal_json(self) -> dict[str, Any]:
        """The deal: the three hands of 16 as dealt, the kitty and the dealer."""
        dealt = [list(h) for h in self.hands]
        for seat, move in self.history:  # put the played cards back
            dealt[seat].extend(move.cards)
        if self.phase is not Phase.AUCTION:
            kitty = set(self.kitty)
            dealt[self.bidder] = [c for c in dealt[self.bidder] if c not in kitty]
        return {"hands": [format_cards(sort_cards(h)) for h in dealt],
                "kitty": format_cards(self.kitty), "dealer": self.dealer}

    def rules_json(self) -> dict[str, Any]:
        return self.rules.to_dict()

    def __repr__(self) -> str:
        return (f"DaSanState(phase={self.phase.value}, to_act={self.current_player}, "
                f"bid={self.high_bid}, bidder={self.bidder}, cards={self.counts()}, pile={self.pile})")


def _parse_deal(hands: Any) -> tuple[list[list[int]], tuple[int, ...]]:
    if isinstance(hands, str) or not isinstance(hands, Sequence) \
            or len(hands) not in (NUM_PLAYERS, NUM_PLAYERS + 1):
        raise CardError("hands: give 3 hands of 16 cards (and optionally the 4-card kitty)")
    parsed = [parse_cards(h, count=HAND_SIZE) for h in hands[:NUM_PLAYERS]]
    problems = cards_twice(parsed)
    if problems:
        raise CardError(problems)
    rest = sorted(set(range(NUM_CARDS)).difference(*parsed))
    if len(hands) > NUM_PLAYERS:
        kitty = parse_cards(hands[NUM_PLAYERS], count=KITTY_SIZE)
        if sorted(kitty) != rest:
            raise CardError("hands: the kitty must be the 4 cards not in the hands")
    return parsed, tuple(rest)


def new_game(seed: int | None = None, hands: Sequence[Any] | Mapping[str, Any] | None = None,
             rules: DaSanRules | Mapping[str, Any] | None = None,
             dealer: int | None = None) -> DaSanState:
    """Deal a hand: the dealer draw (unless ``dealer`` is given, e.g. the last winner), the deal.

    ``hands``: 3 hands of 16 cards, optionally followed by the kitty, instead of a shuffle; or
    the :meth:`~DaSanState.deal_json` document ``{"hands", "kitty", "dealer"}``.
    """
    rules = DaSanRules.from_options(rules)
    if isinstance(hands, Mapping):
        unknown = sorted(str(k) for k in hands if k not in ("hands", "kitty", "dealer"))
        if unknown:
            raise InputError(f"unknown field(s) of a Da San deal: {', '.join(unknown)}; "
                             f"the fields are hands, kitty, dealer")
        if dealer is None:
            dealer = hands.get("dealer")
        given = hands.get("hands")
        if not isinstance(given, Sequence) or isinstance(given, str) or len(given) != NUM_PLAYERS:
            raise CardError("deal: hands must be a list of 3 hands of 16 cards")
        hands = [*given, hands["kitty"]] if hands.get("kitty") is not None else list(given)
    rng = random.Random(seed)
    draw = None
    if dealer is None:
        draw = draw_dealer(rng)
        dealer = draw.dealer
    elif type(dealer) is not int or not 0 <= dealer < NUM_PLAYERS:
        raise InputError(f"dealer must be a seat 0-2, got {dealer!r}")
    if hands is None:
        dealt, kitty = deal(rng, dealer)
    else:
        dealt, kitty = _parse_deal(hands)
    return DaSanState(dealt, kitty, dealer, rules, draw)


__all__ = ["DS_RANK", "DaSanState", "DealerDraw", "Phase", "deal", "draw_count", "draw_dealer",
           "lowest_heart_holder", "new_game"]
