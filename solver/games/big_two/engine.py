"""Capsa Banting (Big Two): one hand, from the deal to the penalties, behind the game contract.

Combinations and legal-move generation live in :mod:`solver.games.big_two.moves`; this module
runs a hand: deal, dragon check, turns, passes, trick resets and scoring (the rules'
``scoring``: the tiered ``penalty`` or ``cards-left``, see :class:`BigTwoRules`).

>>> state = new_game(seed=3)
>>> state.num_players, [len(h) for h in state.hands()], state.phase
(4, [13, 13, 13, 13], 'play')
>>> obs = state.observation(0)
>>> len(obs["hand"]), obs["cards_left"], "hands" in obs
(13, [13, 13, 13, 13], False)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from solver.cards import (
    NUM_CARDS,
    NUM_RANKS,
    NUM_SUITS,
    RANK_SHIFT,
    cards_twice,
    format_card,
    format_cards,
    parse_cards,
)
from solver.errors import CardError, IllegalMoveError, InputError
from solver.games.base import TERMINAL, GameState
from solver.games.big_two.moves import (
    BT_TO_ID,
    HAND_SIZE,
    PASS,
    LegalMoves,
    Move,
    beats_move,
    classify_mask,
    generate,
    ids_to_mask,
    mask_to_ids,
    parse_play,
)
from solver.games.big_two.rules import DEFAULT_RULES, BigTwoRules, penalty

__all__ = ["BigTwoState", "PHASES", "deal", "new_game", "penalty"]

#: The phases of a hand (one label style with the other games): playing, then over.
PHASES = ("play", "over")
ALL_CARDS = frozenset(range(NUM_CARDS))


def is_dragon(mask: int) -> bool:
    """True when a Big Two mask holds a card of each of the 13 ranks."""
    suits = (1 << NUM_SUITS) - 1
    return all((mask >> (r << RANK_SHIFT)) & suits for r in range(NUM_RANKS))


class BigTwoState(GameState):
    """One hand of Big Two. Seats play in increasing order (counter-clockwise)."""

    game_name = "big-two"

    def __init__(self, hands: Sequence[int], rules: BigTwoRules = DEFAULT_RULES):
        self.rules = rules.with_players(len(hands))
        self.num_players = len(hands)
        self._dealt = tuple(hands)  # Big Two masks as dealt (for deal_json)
        self._hands = list(hands)
        self._current: Move | None = None  # play to beat; None when the player leads
        self._last_player = -1
        self._passes = 0
        self.winner = -1
        self.dragon = False
        self.history: list[tuple[int, Move]] = []
        lowest = min((m & -m).bit_length() - 1 for m in self._hands)
        self.required = lowest  # the lowest card dealt (3d with 4 players) opens the hand
        self._player = next(p for p, m in enumerate(self._hands) if (m >> lowest) & 1)
        for k in range(self.num_players):  # several dragons: the first in turn order wins
            p = (self._player + k) % self.num_players
            if is_dragon(self._hands[p]):
                self.winner, self.dragon, self._player = p, True, TERMINAL
                break

    @classmethod
    def from_view(cls, hands: Sequence[int], rules: BigTwoRules, player: int,
                  current: Move | None, last_player: int, passes: int,
                  history: Sequence[tuple[int, Move]], required: int) -> BigTwoState:
        """A hand in progress from its parts (hands as Big Two masks): how a search builds a
        world from an observation plus sampled hidden hands, without replaying a deal."""
        st = object.__new__(cls)
        st.rules = rules.with_players(len(hands))
        st.num_players = len(hands)
        st._dealt = tuple(hands)
        st._hands = list(hands)
        st._current, st._last_player, st._passes = current, last_player, passes
        st.winner, st.dragon = -1, False
        st.history = list(history)
        st.required, st._player = required, player
        return st

    # ------------------------------------------------------------------ public view
    @property
    def current_player(self) -> int:
        return self._player

    @property
    def phase(self) -> str:
        return PHASES[1] if self.is_terminal() else PHASES[0]

    @property
    def current_play(self) -> Move | None:
        """The play to beat (None when the player to act leads)."""
        return self._current

    @property
    def last_player(self) -> int:
        """Seat of the last player to play in this trick (-1 before the first play)."""
        return self._last_player

    @property
    def passes(self) -> int:
        """Passes in a row since the last play of this trick."""
        return self._passes

    def hand(self, player: int) -> list[int]:
        """Shared card ids of a seat's hand, weakest first."""
        return list(mask_to_ids(self._hands[player]))

    def hands(self) -> list[list[int]]:
        return [self.hand(p) for p in range(self.num_players)]

    def hand_mask(self, player: int) -> int:
        return self._hands[player]

    def cards_left(self) -> list[int]:
        """How many cards each seat holds (public information)."""
        return [m.bit_count() for m in self._hands]

    def is_terminal(self) -> bool:
        return self.winner >= 0

    def required_card(self) -> int:
        """Big Two index the next play must hold (the opening lead), -1 for none."""
        return self.required if not self.history else -1

    # ------------------------------------------------------------------ moves
    def legal(self) -> LegalMoves:
        """Legal plays of the player to act as a lazy sequence (``can_pass`` attached)."""
        if self.is_terminal():
            return LegalMoves(np.empty(0, np.int64), np.empty(0, np.int64), False)
        return generate(self._hands[self._player], self._current, self.required_card(),
                        self.rules)

    def legal_moves(self, player: int | None = None) -> list[Move]:
        """Every legal play, then :data:`PASS` when passing is allowed (empty for a seat
        that is not to act)."""
        if player is not None and player != self._player:
            return []
        lm = self.legal()
        return list(lm) + ([PASS] if lm.can_pass else [])

    def parse_move(self, doc: Any) -> Move:
        """The play a ``move.to_json()`` document, a card string or list, or ``"pass"``
        stands for, classified under this hand's rules (not yet checked for legality)."""
        return parse_play(doc, self.rules)

    def _check(self, move: Move) -> Move:
        """The classified play of ``move`` for the player to act, or IllegalMoveError."""
        if self.is_terminal():
            raise IllegalMoveError("the hand is over")
        if move.mask == 0:
            if self._current is None:
                raise IllegalMoveError("the leader may not pass")
            return PASS
        hand = self._hands[self._player]
        if move.mask & ~hand:
            missing = " ".join(format_card(c) for c in mask_to_ids(move.mask & ~hand))
            raise IllegalMoveError(f"player {self._player} does not hold {missing}")
        play = classify_mask(move.mask, self.rules)
        if play is None:
            raise IllegalMoveError(f"{move} is not a combination")
        req = self.required_card()
        if req >= 0 and not (move.mask >> req) & 1:
            raise IllegalMoveError(f"the first play must contain {format_card(BT_TO_ID[req])}")
        if self._current is not None and not beats_move(play, self._current, self.rules):
            raise IllegalMoveError(f"{play} does not beat {self._current}")
        return play

    def apply(self, move: Move | Mapping[str, Any] | str | Iterable[Any]) -> None:
        """Play a :class:`Move`, a move document or cards (an empty list or ``"pass"``
        passes); ``IllegalMoveError`` names why a play is not legal."""
        self._apply_trusted(self._check(self.parse_move(move)))

    def _apply_trusted(self, play: Move) -> None:
        """Advance without checks (the play came from the legal-move generator)."""
        p = self._player
        self.history.append((p, play))
        n = self.num_players
        if play.mask == 0:
            self._passes += 1
            self._player = (p + 1) % n
            if self._passes >= n - 1:  # everyone else passed: the last player leads
                self._current = None
                self._passes = 0
                self._player = self._last_player
            return
        self._hands[p] &= ~play.mask
        self._current = play
        self._last_player = p
        self._passes = 0
        if self._hands[p] == 0:
            self.winner, self._player = p, TERMINAL
            return
        self._player = (p + 1) % n

    # ------------------------------------------------------------------ scoring
    def penalties(self) -> list[int]:
        """Points each seat pays under the rules' ``scoring`` (0 for the winner): the tiered
        penalty of its cards left (``penalty``) or their number (``cards-left``); zeros while
        the hand runs."""
        if not self.is_terminal():
            return [0] * self.num_players
        return [0 if p == self.winner else self.rules.points(c)
                for p, c in enumerate(self.cards_left())]

    def returns(self) -> list[float]:
        """Each seat's points: minus its penalty; the winner 0, or the sum of the others'
        penalties when the winner collects (``cards-left``, or ``penalty`` with ``zero_sum``).

        >>> state = new_game(hands=["3d", "4d 5d", "6d 7d 8d 9d 9c 9h 9s Td Tc Th", "Jd"],
        ...                  rules={"scoring": "cards-left"})
        >>> state.apply("3d"); state.returns()
        [13.0, -2.0, -10.0, -1.0]
        """
        pen = self.penalties()
        out = [float(-x) for x in pen]
        if self.is_terminal() and self.rules.winner_collects:
            out[self.winner] = float(sum(pen))
        return out

    def settlement(self) -> dict[str, Any] | None:
        """Winner, penalties and points once the hand is over (None while it runs), with the
        ``scoring`` they were counted by."""
        if not self.is_terminal():
            return None
        return {"winner": self.winner, "dragon": self.dragon, "cards_left": self.cards_left(),
                "scoring": self.rules.scoring, "penalties": self.penalties(),
                "returns": self.returns(),
                # the losers lay down the cards they kept, as at a real table, to count them
                "hands": [format_cards(mask_to_ids(h)) for h in self._hands]}

    def clone(self) -> BigTwoState:
        other = object.__new__(BigTwoState)
        other.__dict__.update(self.__dict__)
        other._hands = list(self._hands)
        other.history = list(self.history)
        return other

    # ------------------------------------------------------------------ views and documents
    def observation(self, player: int) -> dict[str, Any]:
        """What seat ``player`` sees: its own cards, how many cards each seat holds, the
        play to beat and every move so far. The other hands are shown only once the hand is
        over (the settlement's ``hands``); with 2-3 players the cards set aside never are."""
        if not 0 <= player < self.num_players:
            raise InputError(f"player must be 0 to {self.num_players - 1}, got {player!r}")
        req = self.required_card()
        mine = self._hands[player]
        return {
            "game": self.game_name, "player": player, "num_players": self.num_players,
            "rules": self.rules_json(), "phase": self.phase,
            "hand": format_cards(mask_to_ids(mine)),
            "cards_left": self.cards_left(),
            "current_player": self._player, "to_act": self.players_to_act(),
            "table": self._current.to_json() if self._current is not None else None,
            "last_player": self._last_player, "passes": self._passes,
            # the opening lead's card is shown to the seat holding it (the leader) only
            "required": (format_card(BT_TO_ID[req])
                         if req >= 0 and not self.is_terminal() and (mine >> req) & 1 else None),
            "history": [{"player": p, "move": m.to_json()} for p, m in self.history],
            "result": self.settlement(),
        }

    def hidden_cards(self, player: int) -> set[int]:
        """Every card not in ``player``'s hand and not played: the other hands while the
        hand runs (at its end they are laid down: see :meth:`settlement`) and, with 2 or 3
        players, the cards set aside (kept hidden after the hand too)."""
        played = {c for _, m in self.history for c in m.cards}
        seats = range(self.num_players) if self.is_terminal() else (player,)
        held = {c for q in seats for c in mask_to_ids(self._hands[q])}
        return set(ALL_CARDS - played - held)

    def deal_json(self) -> dict[str, Any]:
        return {"hands": [format_cards(mask_to_ids(m)) for m in self._dealt]}

    def rules_json(self) -> dict[str, Any]:
        return self.rules.to_dict()

    def __repr__(self) -> str:
        return (f"BigTwoState(player={self._player}, cards_left={self.cards_left()}, "
                f"current={self._current}, winner={self.winner})")


def deal(seed: int | None, players: int) -> list[int]:
    """Shuffle with ``seed`` and give 13 cards to each seat (the rest are set aside)."""
    deck = list(range(NUM_CARDS))
    random.Random(seed).shuffle(deck)
    hands = []
    for p in range(players):
        m = 0
        for c in deck[p * HAND_SIZE:(p + 1) * HAND_SIZE]:
            m |= 1 << c  # deck positions are Big Two indices: any bijection deals fairly
        hands.append(m)
    return hands


def new_game(seed: int | None = None, hands: Sequence[Any] | Mapping[str, Any] | None = None,
             rules: BigTwoRules | Mapping[str, Any] | None = None) -> BigTwoState:
    """Deal a hand from ``seed``, or start from the given hands (1-13 cards each, 2-4 seats:
    a list of hands or the ``deal_json()`` document ``{"hands": [...]}``).

    With ``hands`` the number of seats is ``len(hands)`` (it overrides ``rules.players``).
    """
    rules = BigTwoRules.from_options(rules)
    if hands is None:
        return BigTwoState(deal(seed, rules.players), rules)
    if isinstance(hands, Mapping):
        if set(hands) != {"hands"}:
            raise CardError("a deal document is {\"hands\": [hand, ...]}, got keys "
                            f"{', '.join(map(str, hands)) or 'none'}")
        hands = hands["hands"]
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise CardError("hands must be a list of 2 to 4 hands")
    if not 2 <= len(hands) <= 4:
        raise CardError(f"Big Two needs 2 to 4 hands, got {len(hands)}")
    parsed: list[list[int]] = []
    problems: list[str] = []
    for p, h in enumerate(hands):
        try:
            ids = parse_cards(h)
        except CardError as exc:
            problems.extend(f"hand {p}: {msg}" for msg in exc.problems)
            continue
        if not 1 <= len(ids) <= HAND_SIZE:
            problems.append(f"hand {p}: expected 1 to {HAND_SIZE} cards, got {len(ids)}")
        parsed.append(ids)
    problems = problems or cards_twice(parsed)
    if problems:
        raise CardError(problems)
    return BigTwoState([ids_to_mask(ids) for ids in parsed], rules)
