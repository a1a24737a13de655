"""Sessions of play against the project's bots, built only on the game contract.

A session is one human seat at a table of bots for any registered game: the current hand
lives as its ``to_json`` document and is rebuilt with ``from_json`` on each request; bots
move (each from its own ``observation``) until the human is to act or the hand is over.
What leaves this module for a client is the human seat's ``observation``, the human's
legal moves, what the game's ``presentation`` makes of that observation, and, once a hand is
over, its returns and what the rules reveal; a last check refuses any answer that names a
card of ``hidden_cards(seat)`` (:func:`solver.cards.cards_named`: jokers and strings of
several cards included). Whatever differs from game to game (advice, review, the live check
of a move being built, how one hand leads to the next) is asked of the game's registry
entry: this module knows no game by name.

Bots are deterministic: a bot's random source is seeded by the deal and the move number, so
"play this deal again" meets the same bots, and a restarted server continues identically.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from solver.cards import cards_named
from solver.errors import IllegalMoveError, InputError
from solver.games import bot_level, canonical_name, get_game
from solver.games.base import TERMINAL, GameInfo, GameState
from solver.sessions.store import Conflict, Session, SessionStore
from solver.validation import check_int

LEGAL_LIST_MAX = 2000  # longer move lists (a table game's ~20,000 splits) go as a count only
MAX_STEPS = 5000
SEED_MAX = 2**63 - 1


class SessionStateError(InputError):
    """A request that does not fit the session's state (moving after the hand ended...)."""

    code = "invalid_state"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        if code:
            self.code = code


class StaleVersion(SessionStateError):
    """A request made from an older version of the session than the stored one (and not a
    resend of the request that made the current version): refused, with what the seat sees
    now in ``view`` so the client can carry on from there."""

    code = "stale_version"

    def __init__(self, message: str, view: dict[str, Any]):
        super().__init__(message)
        self.view = view


class LeakError(RuntimeError):
    """An answer would have shown a card the seat may not see (a bug in a game's views)."""


def derived_seed(*parts: Any) -> int:
    """A 63-bit seed fixed by ``parts`` (the same on every machine and run)."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def deal_key(doc: Mapping[str, Any]) -> str:
    """A short fingerprint of a deal and its rules: what seeds the bots of that deal."""
    text = json.dumps([doc.get("deal"), doc.get("rules")], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _request_key(action: str, args: Any) -> str:
    return hashlib.sha256(json.dumps([action, args], sort_keys=True).encode()).hexdigest()


def check_version(session: Session, version: int | None, action: str, args: Any,
                  view: Callable[[Session], dict[str, Any]]) -> dict[str, Any] | None:
    """Check the ``version`` a changing request (``action`` with ``args``) was made from;
    ``None``: not checked. The stored version: go on (``None`` is returned, and the request
    noted in the session's meta, saved with the change). The version before it, and the
    request that made the stored version was this very one: a resend (a client retrying
    after a time-out), answered with ``view(session)`` and applied no second time. Anything
    else: :class:`StaleVersion`, with the view now."""
    key = _request_key(action, args)
    if version is None or version == session.version:
        session.meta["last_request"] = {"version": session.version, "key": key}
        return None
    last = session.meta.get("last_request") or {}
    if version == session.version - 1 and last == {"version": version, "key": key}:
        return view(session)
    raise StaleVersion(f"this request was made from version {version} of the session, which "
                       f"is now at version {session.version}: the answer holds the session "
                       "as it is now", view(session))


def versioned(load: Callable[[str], Session], view: Callable[[Session], dict[str, Any]],
              token: str, version: int | None, action: str, args: Any,
              apply: Callable[[Session], dict[str, Any]]) -> dict[str, Any]:
    """Run the changing request ``apply(session)`` under :func:`check_version`. When another
    request saved the session between this one's load and save (:class:`Conflict`) and it
    was this very request (a resend racing its original), the answer is the original's."""
    session = load(token)
    resent = check_version(session, version, action, args, view)
    if resent is not None:
        return resent
    try:
        return apply(session)
    except Conflict:
        if version is None:
            raise
        resent = check_version(load(token), version, action, args, view)
        if resent is not None:
            return resent
        raise


class SessionService:
    """Create and play sessions stored in a :class:`SessionStore`."""

    def __init__(self, store: SessionStore):
        self.store = store

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _info(game: str) -> GameInfo:
        return get_game(game)

    def _state(self, session: Session) -> GameState:
        return self._info(session.game).from_json(session.state["doc"])

    def _bot_names(self, info: GameInfo, players: int, seat: int, bots: Any) -> list[str | None]:
        if not info.bots:
            raise InputError(f"{info.name} has no bots to play against")
        names = list(info.bots)
        if bots is None:
            bots = names[0]
        if isinstance(bots, str):
            bots = [bots] * (players - 1)
        if not isinstance(bots, Sequence) or len(bots) != players - 1:
            raise InputError(f"bots: give one bot name, or a list of {players - 1} (one per "
                             f"other seat); names are {', '.join(names)}")
        out: list[str | None] = []
        it = iter(bots)
        for p in range(players):
            if p == seat:
                out.append(None)
                continue
            name = next(it)
            if name not in info.bots:
                raise InputError(f"unknown bot {name!r} for {info.name}; one of {', '.join(names)}")
            out.append(name)
        return out

    def _advance(self, session: Session, state: GameState) -> None:
        """Let the bots move until the human seat is to act or the hand is over."""
        info = self._info(session.game)
        seat = session.meta["seat"]
        key = deal_key(session.state["doc"])
        steps = 0
        while not state.is_terminal() and state.current_player != seat:
            p = state.current_player
            bot = info.bot(session.meta["bots"][p])
            rng = random.Random(f"{key}:{len(state.history)}:{p}")
            state.apply(bot(state.observation(p), state.legal_moves(p), rng))
            steps += 1
            if steps > MAX_STEPS:
                raise RuntimeError(f"{info.name}: the bots made {MAX_STEPS} moves without "
                                   "the hand ending")

    def _finish(self, session: Session, state: GameState) -> dict[str, Any] | None:
        """Once the current hand is over: its record (kept in the history) and the score."""
        if not state.is_terminal() or session.state.get("recorded"):
            return None
        returns = [float(x) for x in state.returns()]
        meta = session.meta
        meta["score"] = [round(a + b, 6) for a, b in zip(meta["score"], returns)]
        meta["hands"] = meta.get("hands", 0) + 1
        seat = meta["seat"]
        record = {"n": session.state["n"], "seed": session.state.get("seed"),
                  "replay_of": session.state.get("replay_of"), "doc": state.to_json(),
                  "returns": returns, "points": returns[seat],
                  "moves": len(state.history), "review": self._review(session, state),
                  "exportable": not self._still_hidden(state, seat)}
        session.state["recorded"] = True
        session.state["review"] = record["review"]
        session.state["game_over"] = record["game_over"] = self._info(session.game).game_over(state)
        return record

    def _review(self, session: Session, state: GameState) -> dict[str, Any] | None:
        """The game's review of the human's play (from the human's view of the end only)."""
        review = self._info(session.game).review
        if review is None:
            return None
        seat = session.meta["seat"]
        out = review(state.observation(seat), derived_seed(deal_key(state.to_json()), "review"))
        self.check_no_leak(out, state, seat)
        return out

    def _start_hand(self, session: Session, state: GameState, n: int, seed: int | None,
                    replay_of: int | None) -> dict[str, Any] | None:
        session.state = {"n": n, "seed": seed, "replay_of": replay_of, "doc": state.to_json(),
                         "recorded": False}
        self._advance(session, state)
        session.state["doc"] = state.to_json()
        return self._finish(session, state)

    # ------------------------------------------------------------------ views
    def view(self, session: Session, state: GameState | None = None) -> dict[str, Any]:
        """What the human seat may see now."""
        state = state or self._state(session)
        meta, seat = session.meta, session.meta["seat"]
        info = self._info(session.game)
        terminal = state.is_terminal()
        to_act = state.players_to_act()
        your_turn = not terminal and state.current_player == seat
        legal: list[dict[str, Any]] | None = None
        natural: dict[str, Any] | None = None
        count = 0
        if your_turn:
            moves = state.legal_moves(seat)
            count = len(moves)
            if count <= LEGAL_LIST_MAX:
                legal = [state.move_json(m) for m in moves]
            elif count and getattr(moves[count - 1], "kind", None) == "natural":
                # too many moves to list: a declaration the hand allows is still offered
                natural = state.move_json(moves[count - 1])
        out = {
            "game": session.game, "title": info.title, "seat": seat,
            "players": state.num_players,
            "seats": [{"seat": p, "player": "you" if b is None else b, "level": bot_level(b)}
                      for p, b in enumerate(meta["bots"])],
            "hand": session.state["n"], "replay_of": session.state.get("replay_of"),
            "hands_played": meta.get("hands", 0), "score": meta["score"],
            "observation": state.observation(seat), "to_act": to_act,
            "current_player": None if state.current_player == TERMINAL else state.current_player,
            "your_turn": your_turn, "terminal": terminal,
            "legal_moves": legal, "legal_count": count, "natural_move": natural,
            "returns": [float(x) for x in state.returns()] if terminal else None,
            "review": session.state.get("review") if terminal else None,
            "presentation": info.presentation.name,
            "advisor": info.has_advice,
            "game_over": session.state.get("game_over") if terminal else None,
            "expires": session.expires,
            "version": session.version,
            **self._presented(info, state.observation(seat), state.num_players),
        }
        self.check_no_leak(out, state, seat)
        return out

    @staticmethod
    def _presented(info: GameInfo, observation: dict[str, Any], players: int) -> dict[str, Any]:
        """What the game's presentation makes of the seat's observation (and of nothing
        else): the seat's cards, each seat's roles, the settlement in words; and the same as
        message keys for the page to say in the player's language, with the board's lines
        and the log."""
        pres = info.presentation
        return {"own_cards": pres.own_cards(observation),
                "seat_roles": pres.seat_roles(observation, players),
                "summary": pres.summary(observation) if pres.summary else None,
                "board_lines": pres.board(observation, players),
                "log_lines": pres.log(observation),
                "role_lines": pres.roles(observation, players),
                "summary_lines": pres.settlement(observation) if pres.settlement else None,
                "leftovers": pres.leftovers(observation)}

    @staticmethod
    def check_no_leak(doc: Any, state: GameState, seat: int) -> None:
        """Refuse an answer naming a card hidden from ``seat`` (defence in depth)."""
        try:
            hidden = state.hidden_cards(seat)
        except NotImplementedError:
            return
        leaked = cards_named(doc) & hidden
        if leaked:
            raise LeakError(f"{state.game_name}: an answer for seat {seat} named "
                            f"{len(leaked)} hidden card(s)")

    # ------------------------------------------------------------------ actions
    def create(self, game: str, rules: Any = None, seat: int = 0, bots: Any = None,
               seed: int | None = None) -> tuple[Session, dict[str, Any]]:
        """A new session, its first hand dealt and the bots moved up to the human's turn."""
        info = self._info(canonical_name(game))
        seed = secrets.randbits(63) if seed is None else check_int("seed", seed, 0, SEED_MAX)
        state = info.new_game(seed=derived_seed(seed, 1), rules=rules)
        return self._open(info, state, seat, bots, seed, deal_seed=derived_seed(seed, 1))

    def _open(self, info: GameInfo, state: GameState, seat: Any, bots: Any, seed: int,
              deal_seed: int | None) -> tuple[Session, dict[str, Any]]:
        players = state.num_players
        seat = check_int("seat", seat, 0, players - 1)
        state.observation(seat)  # a game without views cannot be played here: fail now
        meta = {"game": info.name, "seat": seat, "bots": self._bot_names(info, players, seat, bots),
                "seed": seed, "rules": state.rules_json(), "score": [0.0] * players,
                "hands": 0}
        session = Session("", info.name, meta, {}, 0, 0, 0, 0)
        record = self._start_hand(session, state, 1, deal_seed, None)
        created = self.store.create(info.name, session.meta, session.state)
        if record is not None:
            created = self.store.save(created, record)
        return created, self.view(created, state)

    def load(self, token: str) -> Session:
        return self._load(token)

    def _load(self, token: str) -> Session:
        """The session of ``token``, refused (409 ``drill_session``) when it is a drill:
        a drill has no table to play (see :mod:`solver.sessions.drill`)."""
        session = self.store.load(token)
        if session.meta.get("mode") == "drill":
            raise SessionStateError("this session is a drill: use the /v1/sessions/drill "
                                    "routes", code="drill_session")
        return session

    def move(self, token: str, move_doc: Any, version: int | None = None) -> dict[str, Any]:
        """Play the human's move (the engine validates it), then let the bots answer.
        With ``version`` (the ``version`` of the view the move was chosen from), a resent
        move is answered without being played twice, and a move from an older view is
        refused (:func:`versioned`)."""
        return versioned(self._load, self.view, token, version, "move", move_doc,
                         lambda session: self._play(session, move_doc))

    def _play(self, session: Session, move_doc: Any) -> dict[str, Any]:
        state = self._state(session)
        seat = session.meta["seat"]
        if state.is_terminal():
            raise SessionStateError("this hand is over; start the next hand or replay a deal")
        if state.current_player != seat:
            raise SessionStateError(f"it is seat {state.current_player}'s turn, not yours")
        try:
            move = state.parse_move(move_doc)
        except IllegalMoveError:
            raise
        except InputError as exc:
            raise IllegalMoveError([f"not a move of {session.game}: {p}" for p in exc.problems]
                                   ) from None
        except (KeyError, TypeError, IndexError, AttributeError) as exc:
            raise IllegalMoveError(f"not a move of {session.game}: {type(exc).__name__} "
                                   f"{exc}") from None
        state.apply(move)
        self._advance(session, state)
        session.state["doc"] = state.to_json()
        record = self._finish(session, state)
        self.store.save(session, record)
        return self.view(session, state)

    def next_hand(self, token: str, version: int | None = None) -> dict[str, Any]:
        """Deal the next hand of the session (after the current one is over); ``version``
        as for :meth:`move` (a resent request deals one hand, not two)."""
        return versioned(self._load, self.view, token, version, "next", None, self._deal_next)

    def _deal_next(self, session: Session) -> dict[str, Any]:
        state = self._state(session)
        if not state.is_terminal():
            raise SessionStateError("finish the current hand first")
        info = self._info(session.game)
        n = session.state["n"] + 1
        seed = derived_seed(session.meta["seed"], n)
        state = info.new_game(seed=seed, rules=session.meta["rules"], **info.next_hand(state))
        record = self._start_hand(session, state, n, seed, None)
        self.store.save(session, record)
        return self.view(session, state)

    def replay_deal(self, token: str, n: int, version: int | None = None) -> dict[str, Any]:
        """Re-deal the cards of finished hand ``n`` as a new hand: a new try at one deal;
        ``version`` as for :meth:`move`."""
        return versioned(self._load, self.view, token, version, "replay", n,
                         lambda session: self._replay(session, n))

    def _replay(self, session: Session, n: int) -> dict[str, Any]:
        state = self._state(session)
        if not state.is_terminal():
            raise SessionStateError("finish the current hand before replaying a deal")
        rec = self._hand(session, n)
        info = self._info(session.game)
        doc = rec["doc"]
        fresh = info.from_json({**doc, "history": []})
        record = self._start_hand(session, fresh, session.state["n"] + 1, rec.get("seed"), n)
        self.store.save(session, record)
        return self.view(session, fresh)

    def _hand(self, session: Session, n: Any) -> dict[str, Any]:
        rec = self.store.hand(session, n) if isinstance(n, int) else None
        if rec is None:
            from solver.sessions.store import SessionNotFound

            raise SessionNotFound(f"hand {n}")
        return rec

    def history(self, token: str) -> dict[str, Any]:
        """The kept hands of a session, oldest first (no cards: a summary per hand)."""
        session = self._load(token)
        hands = [{"n": r["n"], "replay_of": r.get("replay_of"), "returns": r["returns"],
                  "points": r["points"], "moves": r["moves"],
                  "cost": (r.get("review") or {}).get("cost"),
                  "exportable": r.get("exportable", True)}
                 for r in self.store.hands(session)]
        return {"game": session.game, "seat": session.meta["seat"], "score": session.meta["score"],
                "hands_played": session.meta.get("hands", 0), "hands": hands}

    def hand_frames(self, token: str, n: int) -> dict[str, Any]:
        """A finished hand move by move, as the human seat saw it: the observation after the
        deal and after every move, with the move itself when the rules show it."""
        session = self._load(token)
        rec = self._hand(session, n)
        info = self._info(session.game)
        seat = session.meta["seat"]
        doc = rec["doc"]
        final = info.from_json(doc)
        try:
            still_hidden = final.hidden_cards(seat)
        except NotImplementedError:
            still_hidden = set()
        state = info.from_json({**doc, "history": []})
        own, board = info.presentation.own_cards, info.presentation.board
        players = state.num_players
        first = state.observation(seat)
        frames = [{"step": 0, "player": None, "move": None, "observation": first,
                   "own_cards": own(first), "board_lines": board(first, players)}]
        for i, entry in enumerate(doc["history"], start=1):
            move = state.parse_move(entry["move"])
            player = state.current_player
            state.apply(move)
            shown = player == seat or not (set(int(c) for c in getattr(move, "cards", ()))
                                           & still_hidden)
            obs = state.observation(seat)
            frames.append({"step": i, "player": player,
                           "move": state.move_json(move) if shown else None,
                           "observation": obs, "own_cards": own(obs),
                           "board_lines": board(obs, players)})
        out = {"game": session.game, "n": rec["n"], "seat": seat, "replay_of": rec.get("replay_of"),
               "returns": rec["returns"], "review": rec.get("review"), "frames": frames}
        self.check_no_leak(out, final, seat)
        return out

    def export(self, token: str, n: int) -> dict[str, Any]:
        """Finished hand ``n`` as the contract's ``to_json`` document (when nothing of it is
        still hidden from the human seat under the rules)."""
        session = self._load(token)
        rec = self._hand(session, n)
        final = self._info(session.game).from_json(rec["doc"])
        hidden = self._still_hidden(final, session.meta["seat"])
        if hidden:
            raise SessionStateError(
                f"hand {n} cannot be exported: its deal holds {hidden} card(s) that the rules "
                f"of {session.game} never showed you (cards set aside, or kept face down at the "
                "end); replay it or play the deal again instead", code="hidden_cards")
        self.check_no_leak(rec["doc"], final, session.meta["seat"])
        return rec["doc"]

    @staticmethod
    def _still_hidden(final: GameState, seat: int) -> int:
        """How many cards of a finished hand the seat was never shown."""
        try:
            return len(final.hidden_cards(seat))
        except NotImplementedError:
            return 0

    def import_hand(self, doc: Any, seat: Any = 0, bots: Any = None) -> tuple[Session, dict[str, Any]]:
        """A new session from an exported hand: a finished hand lands in the history (ready
        to be replayed or played again); an unfinished one is played on from where it is."""
        if not isinstance(doc, Mapping) or not isinstance(doc.get("game"), str):
            raise InputError("an imported hand is a game document: an object with game, "
                             "version, rules, deal and history")
        info = self._info(canonical_name(doc["game"]))
        state = info.from_json(doc)
        return self._open(info, state, seat, bots, secrets.randbits(63), deal_seed=None)

    def advice(self, token: str, opponent_profiles: Sequence[Any] | None = None
               ) -> dict[str, Any]:
        """The solver's suggestion for the human's current decision, from its observation
        (and the opponents' profiles, one a seat after the human's, where the game's hint
        takes them: Capsa's Monte Carlo against those players)."""
        session = self._load(token)
        state = self._state(session)
        seat = session.meta["seat"]
        if state.is_terminal() or state.current_player != seat:
            raise SessionStateError("advice is for your turn")
        obs = state.observation(seat)
        seed = derived_seed(deal_key(session.state["doc"]), "advice", len(state.history))
        info = self._info(session.game)
        if not info.has_advice:
            raise SessionStateError(f"{info.name} has no advisor")
        out = info.advice(obs, seed, opponent_profiles)
        self.check_no_leak(out, state, seat)
        return out

    def check_partial(self, token: str, draft: Any) -> dict[str, Any]:
        """The live check of a move being built, where the game has one (a table game's
        rows: each full row's kind, a foul so far)."""
        session = self._load(token)
        info = self._info(session.game)
        if info.check_partial is None:
            raise SessionStateError(f"{info.name} moves are picked whole: there is nothing "
                                    "to check while building one")
        state = self._state(session)
        seat = session.meta["seat"]
        if state.is_terminal() or state.current_player != seat:
            raise SessionStateError("a move is checked while you build it, on your turn")
        out = info.check_partial(state.observation(seat), draft)
        self.check_no_leak(out, state, seat)
        return out
