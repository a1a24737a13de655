"""The contract every game follows (in the spirit of OpenSpiel and RLCard), Capsa included.

A game state is mutable; moves are immutable values::

    from solver.games import get_game, play_hand
    game = get_game("big-two")
    state = game.new_game(seed=7)
    while not state.is_terminal():
        player = state.current_player
        state.apply(state.legal_moves()[0])
    state.returns()

- ``new_game(seed=..., hands=..., rules=...)`` deals a hand (from a seed, or given cards).
- ``current_player`` is the seat to act, or :data:`TERMINAL` once the hand is over. In a
  simultaneous phase (Capsa's rows) every seat yet to move may act (``players_to_act()``);
  moves are taken in seat order (``current_player`` is the lowest seat yet to move) and no
  seat sees another's move before the phase ends.
- ``legal_moves(player=None)`` lists every legal move of that seat (default: the seat to act);
  ``apply(move)`` plays one (raises ``IllegalMoveError`` naming why it is not legal).
- ``is_terminal()``, ``returns()`` (points per seat, zeros while the hand runs), ``clone()``.
- ``observation(player)``: a JSON-ready dict of what that seat may see, its own cards and the
  public history, never another seat's hidden cards. Bots and advisors get only this.
- ``to_json()`` / ``from_json(doc)``: a versioned document of the deal, the rules and the
  history; ``history`` lists ``(player, move)`` in order, enough to replay the hand.

What a session, a search or a page needs of a game is asked of its :class:`GameInfo`, never of
its name: ``from_view(observation, hidden)`` (a state from what a seat sees plus the hidden
facts, as OpenSpiel's resample-from-infostate; ``hidden_of(state, seat)`` gives the true ones),
``utility_bounds(rules)``, ``presentation`` (how the play page draws it), ``advice`` and
``review`` of a seat's play, ``check_partial`` (a move being built, checked as it grows),
``next_hand`` and ``game_over`` (games of several hands).

Rules are frozen option objects built by ``Rules.from_options(options)`` (a mapping, an
instance, or None for the defaults). A move has ``cards`` (card ids, see :mod:`solver.cards`)
and ``kind`` (a snake_case label such as ``pair``, ``four_of_a_kind``, ``pass``, ``bid``);
``move.to_json()`` gives ``{"cards": [...], "kind": ...}`` plus the game's own fields.
A bot is ``bot(observation, legal_moves, rng) -> move``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, overload

from solver.errors import InputError
from solver.games.lines import Message, dealer_roles, history_log, no_board

STATE_VERSION = 1
TERMINAL = -1


def label(text: str) -> str:
    """The one label style: snake_case (``four-of-a-kind`` and ``Four Of A Kind`` are accepted).

    >>> label("four-of-a-kind"), label("PAIR_RUN"), label(" Full House ")
    ('four_of_a_kind', 'pair_run', 'full_house')
    """
    return "_".join(text.strip().lower().replace("-", " ").replace("_", " ").split())


class Move(Protocol):
    """What every game's moves offer."""

    @property
    def cards(self) -> tuple[int, ...]: ...

    @property
    def kind(self) -> Any: ...  # an enum whose ``label`` is the snake_case name, or a label

    def to_json(self) -> dict[str, Any]: ...


class Rules(Protocol):
    """What every game's rule object offers."""

    @classmethod
    def from_options(cls, options: Any) -> Any: ...

    def to_dict(self) -> dict[str, Any]: ...


class GameState(ABC):
    """One hand of a game, from the deal to the settlement."""

    game_name: ClassVar[str]
    num_players: int
    history: list[tuple[int, Any]]

    @property
    @abstractmethod
    def current_player(self) -> int:
        """Seat to act (the lowest seat yet to move in a simultaneous phase); :data:`TERMINAL`
        once the hand is over."""

    def players_to_act(self) -> list[int]:
        """Seats that may move now (one seat, except in simultaneous phases)."""
        p = self.current_player
        return [] if p == TERMINAL else [p]

    @abstractmethod
    def legal_moves(self, player: int | None = None) -> Sequence[Any]:
        """Every legal move of ``player`` (default: the seat to act); empty if it may not move."""

    @abstractmethod
    def apply(self, move: Any) -> None:
        """Play ``move`` (for the seat it belongs to); ``IllegalMoveError`` if it is not legal."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the hand is over."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Points per seat for the finished hand (zeros while it is running)."""

    @abstractmethod
    def clone(self) -> GameState:
        """An independent copy."""

    @abstractmethod
    def observation(self, player: int) -> dict[str, Any]:
        """JSON-ready view of seat ``player``: its own cards and what is public, nothing else."""

    @abstractmethod
    def hidden_cards(self, player: int) -> set[int]:
        """Card ids seat ``player`` may not see now (the others' concealed cards, a closed
        kitty); what the conformance test checks ``observation(player)`` against."""

    # ------------------------------------------------------------------ documents
    @abstractmethod
    def deal_json(self) -> dict[str, Any]:
        """The deal as JSON (whatever ``new_game(hands=...)`` needs to re-create it)."""

    @abstractmethod
    def rules_json(self) -> dict[str, Any]:
        """The rule options as JSON (``Rules.from_options`` of it gives the same rules)."""

    @abstractmethod
    def parse_move(self, doc: Any) -> Any:
        """The move a ``move.to_json()`` document (or the game's text form) stands for."""

    def move_json(self, move: Any) -> dict[str, Any]:
        return move.to_json()

    def to_json(self) -> dict[str, Any]:
        """A versioned document of the hand: game, rules, deal and every move so far."""
        return {"game": self.game_name, "version": STATE_VERSION, "rules": self.rules_json(),
                "deal": self.deal_json(),
                "history": [{"player": p, "move": self.move_json(m)} for p, m in self.history]}


Bot = Callable[[dict[str, Any], Sequence[Any], random.Random], Any]


class LazyMoves(Sequence[Any]):
    """A list of moves built only when read (generators return arrays; most callers read a
    few moves of thousands). Subclasses give ``__len__`` and ``_build(i)`` for ``0 <= i < len``."""

    __slots__ = ()

    def _build(self, i: int) -> Any:
        raise NotImplementedError

    @overload
    def __getitem__(self, i: int) -> Any: ...
    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self._build(j) for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"move {i} of {n}")
        return self._build(i)

    def __iter__(self) -> Iterator[Any]:
        return (self._build(i) for i in range(len(self)))


@dataclass(frozen=True)
class Option:
    """One rule option of a game, with its default and its allowed values (for the CLI, the
    OpenAPI document and the web pages)."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None


def own_hand(observation: Mapping[str, Any]) -> list[str]:
    """The observing seat's cards where an observation keeps them in ``hand``."""
    return list(observation.get("hand") or [])


def dealer_role(observation: Mapping[str, Any], players: int) -> list[list[str]]:
    """Each seat's roles where the only one is the dealer (if the observation names one)."""
    return [["dealer"] if observation.get("dealer") == p else [] for p in range(players)]


def no_leftovers(observation: Mapping[str, Any]) -> list[list[str]] | None:
    """``Presentation.leftovers`` of a game that shows no cards kept at the end."""
    return None


def settled_hands(observation: Mapping[str, Any]) -> list[list[str]] | None:
    """``Presentation.leftovers`` of a game whose settlement (``result`` or ``settlement``
    of the observation) lists the ``hands`` each seat kept."""
    res = observation.get("result") or observation.get("settlement")
    hands = res.get("hands") if isinstance(res, Mapping) else None
    return [list(h) for h in hands] if isinstance(hands, list) else None


@dataclass(frozen=True)
class Presentation:
    """How the play page shows a game, computed from one seat's observation only (so it can
    hold nothing that seat may not see).

    ``name`` picks the page module that draws the seat's hand and the settlement
    (``generic``: cards to select and the legal moves as buttons). ``own_cards`` are the
    seat's cards, ``seat_roles`` each seat's roles (dealer, bidder, team...), ``summary`` the
    settlement in words once the hand is over (None while it runs), seats written ``{seat:N}``
    for the page to name them ("You", "Seat 2 (search)").

    The same, as message keys with parameters for the page to say in the player's language
    (:mod:`solver.games.lines`): ``board`` the board's lines, ``log`` the public events in
    order (each with its ``player``), ``roles`` each seat's roles and ``settlement`` the
    summary's sentences (their English is the summary, word for word).

    ``leftovers``: once the hand is over, the cards each seat kept and lays down (a list per
    seat, None where the rules show nothing), for the page to show at the others' seats.
    """

    name: str = "generic"
    own_cards: Callable[[Mapping[str, Any]], list[str]] = own_hand
    seat_roles: Callable[[Mapping[str, Any], int], list[list[str]]] = dealer_role
    summary: Callable[[Mapping[str, Any]], str | None] | None = None
    board: Callable[[Mapping[str, Any], int], list[Message]] = no_board
    log: Callable[[Mapping[str, Any]], list[Message]] = history_log
    roles: Callable[[Mapping[str, Any], int], list[list[Message]]] = dealer_roles
    settlement: Callable[[Mapping[str, Any]], list[Message] | None] | None = None
    leftovers: Callable[[Mapping[str, Any]], list[list[str]] | None] = no_leftovers


def hands_stand_alone(previous: GameState) -> dict[str, Any]:
    """``next_hand`` of a game whose hands are dealt afresh: nothing carries over."""
    return {}


def never_over(previous: GameState) -> dict[str, Any] | None:
    """``game_over`` of a game whose hands stand alone: no hand ends a game."""
    return None


@dataclass(frozen=True)
class GameInfo:
    """A registry entry: how to start a game, and what describes it.

    ``moves`` answers "what may I play?" for ``capsa moves GAME`` and ``POST /v1/GAME/moves``
    from plain keyword arguments (``moves_args`` names them: :class:`MoveArg` gives each its
    CLI flag and its HTTP field);
    ``format_moves`` renders that answer for a terminal. ``warm_up`` compiles the game's
    kernels, if it has any. ``advise`` ranks the legal moves of the seat an observation
    belongs to, from that observation only.

    What sessions, searches and pages ask of a game (so that none of them needs its name):

    - ``from_view(observation, hidden)``: a state consistent with the observation of a seat
      to act, the facts hidden from it taken from ``hidden`` (sampled by a search, or the
      true ones: ``hidden_of(state, seat)``, which gives them in the same form). Given the
      true ones it is the real state as far as any seat can tell, and plays on the same.
    - ``utility_bounds(rules)``: the least and the most one seat can score in a hand under
      these rules (a ``rules_json`` document, or None for the defaults).
    - ``presentation``: how the play page shows the game (:class:`Presentation`).
    - ``advice(observation, seed, opponent_profiles=None)``: the play page's Hint for the
      seat to act: the game's ``hint`` if it has one (Capsa: the solver's arrangements), else
      its ``advise`` at the default budget (``has_advice`` says whether there is any);
      ``opponent_profiles`` only where ``hint_profiles`` says the hint takes them (Capsa:
      Monte Carlo against those opponents' habits); ``review(observation,
      seed)``: a review of the seat's play from its view of the finished hand (None: none).
    - ``check_partial(observation, draft)``: a move being built, checked as it grows (what
      is complete, what is wrong so far); None when moves are picked whole.
    - ``next_hand(previous)``: keyword arguments of ``new_game`` that carry a finished hand
      over to the next one; ``game_over(previous)``: what ended a game of several hands
      with ``previous`` (``{"winner_team": ..., "text": ...}``), None while it goes on.
    - ``drill``: the game's solo drill (:class:`DrillSpec`), None when it has none.
    """

    name: str
    title: str
    new_game: Callable[..., GameState]
    from_json: Callable[[Mapping[str, Any]], GameState]
    players: tuple[int, int]
    zero_sum: bool
    simultaneous: bool
    options: tuple[Option, ...] = ()
    aliases: tuple[str, ...] = ()
    bots: Mapping[str, Callable[[], Bot]] = field(default_factory=dict)  # the first: default opponent
    moves: Callable[..., dict[str, Any]] | None = None
    moves_args: tuple[MoveArg, ...] = ()
    format_moves: Callable[[dict[str, Any]], str] | None = None
    warm_up: Callable[[], None] | None = None
    # advise(observation, budget_ms=None, iterations=None, seed=None) -> {"moves": [{"move":
    # move JSON, "value": estimate, "stderr": its standard error, ...}, ...] best first, ...}
    advise: Callable[..., dict[str, Any]] | None = None
    from_view: Callable[[Mapping[str, Any], Mapping[str, Any]], GameState] | None = None
    hidden_of: Callable[[GameState, int], dict[str, Any]] | None = None
    utility_bounds: Callable[[Mapping[str, Any] | None], tuple[float, float]] | None = None
    presentation: Presentation = Presentation()
    hint: Callable[..., dict[str, Any]] | None = None
    hint_profiles: bool = False  # the hint takes opponent_profiles (keyword)
    review: Callable[[Mapping[str, Any], int], dict[str, Any] | None] | None = None
    check_partial: Callable[[Mapping[str, Any], Any], dict[str, Any]] | None = None
    next_hand: Callable[[GameState], dict[str, Any]] = hands_stand_alone
    game_over: Callable[[GameState], dict[str, Any] | None] = never_over
    drill: DrillSpec | None = None

    @property
    def has_advice(self) -> bool:
        """Whether :meth:`advice` answers for this game."""
        return self.hint is not None or self.advise is not None

    def advice(self, observation: Mapping[str, Any], seed: int,
               opponent_profiles: Sequence[Any] | None = None) -> dict[str, Any]:
        """The play page's Hint for the seat to act, from its observation only (and, where the
        game's hint takes them, the profiles of the opponents it plays against)."""
        if opponent_profiles is not None:
            if not self.hint_profiles or self.hint is None:
                raise InputError(f"{self.name}'s hint takes no opponent_profiles")
            return self.hint(observation, seed, opponent_profiles=opponent_profiles)
        if self.hint is not None:
            return self.hint(observation, seed)
        if self.advise is not None:
            return self.advise(observation, seed=seed)
        raise InputError(f"{self.name} has no advisor")

    def bot(self, name: str) -> Bot:
        try:
            return self.bots[name]()
        except KeyError:
            raise InputError(f"unknown bot {name!r} for {self.name}; one of "
                             f"{', '.join(self.bots)}") from None


@dataclass(frozen=True)
class MoveArg:
    """One argument of a game's ``moves`` query: the CLI flag (``solver/cli/moves.py``) and the
    HTTP field of ``POST /v1/<game>/moves`` (``api/moves.py``) from one place.

    ``help`` describes the value (the HTTP field's description; the CLI's help, which adds how
    to write it on a command line). An argument that is ``positional`` or ``required`` is a
    required HTTP field; the others default to ``default`` (None: the field may be null).

    The CLI takes every value as text (``type`` converts it) and the game's ``moves`` parses
    it; over HTTP the field's type says what the value may be, checked before ``moves`` runs
    (a value that breaks it is a 400, a value ``moves`` refuses a 422):

    - ``flag``: a boolean (default ``default`` or false); on the command line a switch
      (``--all-suits``), or with ``negate`` the switch that turns it off (``--no-bomb-on-two``);
    - ``choices``: one of these strings;
    - ``cards=(low, high)``: a card field of ``low`` to ``high`` cards, one string or a list of
      card strings, from the 54-card deck with ``jokers``; with ``plays=n``, a list of at most
      ``n`` such fields (empty by default; on the command line the plays are separated by
      ``;``);
    - ``card``: one card, as a string;
    - ``pattern``: a string matching this regular expression (no anchors); an error names the
      value as ``what`` (default: the name) and the allowed ones as ``allowed``;
    - ``type=int``: an integer, within ``minimum`` and ``maximum`` when given (on the command
      line too);
    - otherwise a string.

    ``group`` puts the HTTP field in an optional object of that name (``rules``: the rule
    options, each at its default when the object is left out); the CLI's flags stay flat.
    """

    name: str
    help: str
    positional: bool = False
    required: bool = False
    flag: bool = False
    negate: str | None = None
    choices: tuple[str, ...] | None = None
    default: Any = None
    type: Callable[[str], Any] | None = None
    cards: tuple[int, int] | None = None
    jokers: bool = False
    plays: int | None = None
    card: bool = False
    pattern: str | None = None
    allowed: str | None = None
    what: str | None = None
    minimum: int | None = None
    maximum: int | None = None
    group: str | None = None

    def __post_init__(self) -> None:
        if self.cards is not None and not 0 <= self.cards[0] <= self.cards[1]:
            raise ValueError(f"{self.name}: cards is (low, high) with 0 <= low <= high")
        if self.plays is not None and self.cards is None:
            raise ValueError(f"{self.name}: plays is a list of card fields: give cards too")
        if self.group is not None and (self.positional or self.required):
            raise ValueError(f"{self.name}: a field of the group {self.group!r} is optional")


@dataclass(frozen=True)
class DrillSpec:
    """A game's solo drill (``solver.sessions.drill``): one seat's hand dealt at a time, each
    move graded at once by the game's coach, the running figures kept per mistake class.

    Every function takes the seat's ``hand`` (card strings) and the drill's ``rules`` (the
    ``rules_json`` of the table the hand is dealt from); none sees another seat's cards.

    - ``deal(seed, rules)``: seat 0's hand of the table ``seed`` deals under ``rules`` (the
      contract's ``rules``: options, or None for the defaults), and that table's
      ``rules_json``; the other seats' cards are dropped;
    - ``grade(hand, rules, move)``: the coach's answer to ``move`` (a JSON document of the
      move; ``InputError`` / ``IllegalMoveError`` when it is not a legal move of the hand):
      a JSON-ready dict holding at least ``ev_lost`` (what the move cost against the best),
      ``exact`` (it was the best) and ``mistake`` (its class, one of ``mistakes``, or None);
    - ``check(hand, rules, draft)``: a move being built, checked as it grows;
    - ``natural_move(hand, rules)``: a move the hand may play whole at once (Capsa: declaring
      its natural), or None;
    - ``opponents(rules)``: how many opponents the coach grades against;
    - ``profiles(rules, specs)``: the opponents' profiles checked (one an opponent, fitted
      under ``rules``) and made JSON-ready to keep with the drill; ``grade`` then takes them
      as ``opponent_profiles`` and grades against those players. None: the drill takes none.
    """

    title: str
    method: str
    mistakes: tuple[str, ...]
    deal: Callable[[int, Any], tuple[list[str], dict[str, Any]]]
    grade: Callable[..., dict[str, Any]]  # (hand, rules, move[, opponent_profiles=])
    check: Callable[[Sequence[str], Mapping[str, Any], Any], dict[str, Any]]
    natural_move: Callable[[Sequence[str], Mapping[str, Any]], dict[str, Any] | None]
    opponents: Callable[[Mapping[str, Any]], int]
    profiles: Callable[[Mapping[str, Any], Sequence[Any]], list[dict[str, Any]]] | None = None


def from_json_via(new_game: Callable[..., GameState], game_name: str
                  ) -> Callable[[Mapping[str, Any]], GameState]:
    """A ``from_json`` that re-deals and replays the history (every engine is deterministic
    given its deal, so the replay is the state)."""

    def from_json(doc: Mapping[str, Any]) -> GameState:
        if not isinstance(doc, Mapping):
            raise InputError(f"a game document must be a JSON object, got {type(doc).__name__}")
        if doc.get("game") != game_name:
            raise InputError(f"this document is for game {doc.get('game')!r}, not {game_name!r}")
        if doc.get("version") != STATE_VERSION:
            raise InputError(f"unknown document version {doc.get('version')!r}; "
                             f"this engine reads version {STATE_VERSION}")
        state = new_game(hands=doc.get("deal"), rules=doc.get("rules"))
        history = doc.get("history") or []
        if not isinstance(history, list):
            raise InputError("history must be a list of {player, move}")
        for i, entry in enumerate(history):
            if not isinstance(entry, Mapping) or "move" not in entry:
                raise InputError(f"history[{i}] must be an object with player and move")
            move = state.parse_move(entry["move"])
            player = entry.get("player")
            if player is not None and player != state.current_player:
                raise InputError(f"history[{i}]: seat {player} is not the seat to act "
                                 f"({state.current_player})")
            state.apply(move)
        return state

    return from_json


def play_hand(state: GameState, bots: Sequence[Bot], seed: int | None = None) -> GameState:
    """Let ``bots`` (one per seat) play ``state`` to its end; each sees only its observation.

    >>> from solver.games import get_game
    >>> game = get_game("big-two")
    >>> first = lambda obs, moves, rng: moves[0]
    >>> play_hand(game.new_game(seed=1), [first] * 4, seed=1).is_terminal()
    True
    """
    if len(bots) != state.num_players:
        raise InputError(f"{state.game_name} needs {state.num_players} bots, got {len(bots)}")
    rng = random.Random(seed)
    while not state.is_terminal():
        player = state.current_player
        moves = state.legal_moves(player)
        state.apply(bots[player](state.observation(player), moves, rng))
    return state
