"""The drill: a solo session that deals only your hand, grades your move at once with the
game's coach and keeps your running figures, for every game whose registry entry has a
``drill`` (:class:`~solver.games.base.DrillSpec`; Capsa's: :mod:`solver.games.capsa.drill`).
This module names no game: what it deals, grades and checks is asked of the registry.

A drill is a session of the same store as the games against the bots (a token, its row in
SQLite, one record per drilled hand), marked ``meta["mode"] == "drill"``; the play routes
refuse it and the drill routes refuse a play session (409, ``drill_session`` /
``not_a_drill``). Hand ``n`` of a drill of seed ``S`` holds the cards seat 0 holds in hand
``n`` of a play session of seed ``S`` (the same deal; the other seats' cards are never
kept: they are not dealt to anyone here).

Each move (Capsa: rows that do not foul, or the natural the hand holds, as at the table) is
graded at once by the game's ``DrillSpec.grade`` (Capsa: the coach's ``table`` method against
``players - 1`` opponents): your EV, the best EV, the EV lost, the best move and the mistake
class. The session keeps the figures: hands, EV lost in all, the mean over
all and over the last :data:`LAST`, per mistake class (hands, EV lost), a trend series (each
hand's EV lost with the running mean and the mean of the last :data:`LAST` then; the last
:data:`TREND_MAX` hands) and the :data:`WORST` costliest deals, each with the hand number
that deals it again (``again(token, n)``; any kept hand can be dealt again).

Everything is deterministic for the session seed: the same seed and the same moves give the
same hands and the same figures. What an answer names is only ever the seat's own cards
(checked before it leaves, as :meth:`SessionService.check_no_leak` does for the games).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from solver.cards import cards_named, parse_cards
from solver.errors import InputError
from solver.games import drill_games, get_game
from solver.games.base import DrillSpec
from solver.sessions.service import (
    SEED_MAX,
    LeakError,
    SessionStateError,
    derived_seed,
    versioned,
)
from solver.sessions.store import Session, SessionNotFound, SessionStore
from solver.validation import check_int

MODE = "drill"
LAST = 20  # the recent window of the figures
TREND_MAX = 200  # trend points kept (the running figures themselves cover every hand)
WORST = 10  # the costliest deals listed to practise again
ROUND = 6


def is_drill(session: Session) -> bool:
    return session.meta.get("mode") == MODE


def drill_of(game: str) -> DrillSpec:
    """The drill of ``game`` (its registry entry's); ``InputError`` if it has none."""
    spec = get_game(game).drill
    if spec is None:
        raise InputError(f"a drill deals {', '.join(drill_games())}, not {game!r}")
    return spec


def empty_figures(mistakes: tuple[str, ...] = ()) -> dict[str, Any]:
    """The figures of no hand, with a count for each of the mistake classes ``mistakes``."""
    return {"hands": 0, "exact": 0, "ev_lost": 0.0,
            "by_mistake": {m: {"hands": 0, "ev_lost": 0.0} for m in mistakes},
            "trend": [], "worst": []}


class DrillService:
    """Create and play drill sessions in a :class:`SessionStore` (see the module doc)."""

    def __init__(self, store: SessionStore):
        self.store = store

    # ------------------------------------------------------------------ loading
    def _load(self, token: str) -> Session:
        session = self.store.load(token)
        if not is_drill(session):
            raise SessionStateError("this session plays a game against the bots, not a drill: "
                                    "use the /v1/sessions routes", code="not_a_drill")
        return session

    def load(self, token: str) -> Session:
        return self._load(token)

    @staticmethod
    def _spec(session: Session) -> DrillSpec:
        return drill_of(session.game)

    # ------------------------------------------------------------------ dealing
    @staticmethod
    def _start(session: Session, n: int, seed: int | None, hand: list[str],
               replay_of: int | None) -> None:
        session.state = {"n": n, "seed": seed, "replay_of": replay_of, "hand": list(hand),
                         "answer": None}

    def create(self, game: str | None = None, rules: Any = None, seed: int | None = None,
               opponent_profiles: Sequence[Any] | None = None) -> tuple[Session, dict[str, Any]]:
        """A new drill of ``game`` (default: the first game with a drill), its first hand
        dealt; with ``opponent_profiles`` (one an opponent) every hand is graded against
        those players."""
        games = drill_games()
        if game is None and games:
            game = games[0]
        if game not in games:
            raise InputError(f"a drill deals {', '.join(games)}, not {game!r}")
        spec = drill_of(game)
        seed = secrets.randbits(63) if seed is None else check_int("seed", seed, 0, SEED_MAX)
        deal_seed = derived_seed(seed, 1)
        hand, rules_json = spec.deal(deal_seed, rules)
        meta = {"mode": MODE, "game": game, "seed": seed, "rules": rules_json, "hands": 0,
                "figures": empty_figures(spec.mistakes)}
        if opponent_profiles is not None:
            if spec.profiles is None:
                raise InputError(f"the {game} drill takes no opponent_profiles")
            meta["opponent_profiles"] = spec.profiles(rules_json, opponent_profiles)
        session = Session("", game, meta, {}, 0, 0, 0, 0)
        self._start(session, 1, deal_seed, hand, None)
        created = self.store.create(game, session.meta, session.state)
        return created, self.view(created)

    def next_hand(self, token: str, version: int | None = None) -> dict[str, Any]:
        """Deal the next hand (once the current one is answered); ``version`` as for a
        play session's (:func:`solver.sessions.service.versioned`)."""
        return versioned(self._load, self.view, token, version, "next", None, self._deal_next)

    def _deal_next(self, session: Session) -> dict[str, Any]:
        self._answered_first(session, "dealing the next hand")
        n = session.state["n"] + 1
        seed = derived_seed(session.meta["seed"], n)
        hand, _ = self._spec(session).deal(seed, session.meta["rules"])
        self._start(session, n, seed, hand, None)
        self.store.save(session)
        return self.view(session)

    def again(self, token: str, n: Any, version: int | None = None) -> dict[str, Any]:
        """Deal the cards of drilled hand ``n`` again, as a new hand (once the current one is
        answered): a new try at the same 13 cards; ``version`` as for :meth:`next_hand`."""
        return versioned(self._load, self.view, token, version, "again", n,
                         lambda session: self._again(session, n))

    def _again(self, session: Session, n: Any) -> dict[str, Any]:
        self._answered_first(session, "practising a hand again")
        hand = self._cards_of(session, n)
        self._start(session, session.state["n"] + 1, None, hand, n)
        self.store.save(session)
        return self.view(session)

    def _cards_of(self, session: Session, n: Any) -> list[str]:
        """The cards of drilled hand ``n``: its record, or its entry in the worst list (which
        outlives the records the store prunes)."""
        rec = self.store.hand(session, n) if isinstance(n, int) else None
        if rec is not None:
            return list(rec["hand"])
        for w in session.meta["figures"]["worst"]:
            if w["n"] == n:
                return list(w["hand"])
        raise SessionNotFound(f"hand {n}")

    @staticmethod
    def _answered_first(session: Session, what: str) -> None:
        if session.state.get("answer") is None:
            raise SessionStateError(f"set the rows of hand {session.state['n']} first "
                                    f"(before {what})")

    # ------------------------------------------------------------------ the move
    def move(self, token: str, move: Any, version: int | None = None) -> dict[str, Any]:
        """Set the rows (or declare the natural) of the current hand: the coach's answer at
        once, and the figures updated; ``version`` as for :meth:`next_hand`."""
        return versioned(self._load, self.view, token, version, "move", move,
                         lambda session: self._answer(session, move))

    def _answer(self, session: Session, move: Any) -> dict[str, Any]:
        if session.state.get("answer") is not None:
            raise SessionStateError(f"hand {session.state['n']} is answered; deal the next "
                                    "hand or practise one again")
        profiles = session.meta.get("opponent_profiles")
        spec = self._spec(session)
        answer = (spec.grade(session.state["hand"], session.meta["rules"], move)
                  if profiles is None else
                  spec.grade(session.state["hand"], session.meta["rules"], move,
                             opponent_profiles=profiles))
        st = session.state
        session.state["answer"] = answer
        session.meta["hands"] = session.meta.get("hands", 0) + 1
        self._count(session.meta["figures"], st["n"], st["hand"], st.get("replay_of"), answer)
        record = {"n": st["n"], "seed": st.get("seed"), "replay_of": st.get("replay_of"),
                  "hand": st["hand"], "answer": answer}
        self.store.save(session, record)
        return self.view(session)

    @staticmethod
    def _count(fig: dict[str, Any], n: int, hand: list[str], replay_of: int | None,
               answer: Mapping[str, Any]) -> None:
        """Add one answered hand to the running figures."""
        lost = float(answer["ev_lost"])
        fig["hands"] += 1
        fig["ev_lost"] = round(fig["ev_lost"] + lost, ROUND)
        if answer["exact"]:
            fig["exact"] += 1
        elif answer["mistake"]:
            cls = fig["by_mistake"].setdefault(answer["mistake"], {"hands": 0, "ev_lost": 0.0})
            cls["hands"] += 1
            cls["ev_lost"] = round(cls["ev_lost"] + lost, ROUND)
        recent = [p["ev_lost"] for p in fig["trend"][-(LAST - 1):]] + [lost]
        fig["trend"].append({"n": n, "ev_lost": round(lost, ROUND), "mistake": answer["mistake"],
                             "replay_of": replay_of,
                             "mean": round(fig["ev_lost"] / fig["hands"], ROUND),
                             "mean_last": round(sum(recent) / len(recent), ROUND)})
        del fig["trend"][:-TREND_MAX]
        worst = fig["worst"]
        same = next((w for w in worst if sorted(w["hand"]) == sorted(hand)), None)
        if same is not None:
            same["tries"] += 1
            same["last_ev_lost"] = round(lost, ROUND)
            if lost > same["ev_lost"]:
                same.update(n=n, ev_lost=round(lost, ROUND), mistake=answer["mistake"])
        elif not answer["exact"]:
            worst.append({"n": n, "hand": list(hand), "ev_lost": round(lost, ROUND),
                          "mistake": answer["mistake"], "tries": 1,
                          "last_ev_lost": round(lost, ROUND)})
        worst.sort(key=lambda w: (-w["ev_lost"], w["n"]))
        del worst[WORST:]

    # ------------------------------------------------------------------ views
    def check(self, token: str, rows: Any) -> dict[str, Any]:
        """The live check of the move being built (Capsa: each full row's kind, a foul so
        far)."""
        session = self._load(token)
        if session.state.get("answer") is not None:
            raise SessionStateError("rows are checked while you set them; this hand is answered")
        out = self._spec(session).check(session.state["hand"], session.meta["rules"], rows)
        self._check_no_leak(out, session)
        return out

    def stats(self, token: str) -> dict[str, Any]:
        session = self._load(token)
        out = self.figures(session)
        self._check_no_leak(out, session)
        return out

    @staticmethod
    def figures(session: Session) -> dict[str, Any]:
        """The running figures (see the module doc)."""
        fig = session.meta["figures"]
        n = fig["hands"]
        recent = [p["ev_lost"] for p in fig["trend"][-LAST:]]
        mistakes = drill_of(session.game).mistakes
        by = {}
        for m in mistakes:
            c = fig["by_mistake"].get(m, {"hands": 0, "ev_lost": 0.0})
            lost = c["ev_lost"]
            by[m] = {"hands": c["hands"], "ev_lost": round(lost, ROUND),
                     "mean_ev_lost": round(lost / c["hands"], ROUND) if c["hands"] else None,
                     "share_of_lost": round(lost / fig["ev_lost"], ROUND)
                     if fig["ev_lost"] > 0 else None}
        return {
            "hands": n, "exact": fig["exact"],
            "exact_share": round(fig["exact"] / n, ROUND) if n else None,
            "ev_lost": round(fig["ev_lost"], ROUND),
            "mean_ev_lost": round(fig["ev_lost"] / n, ROUND) if n else None,
            "last": LAST, "last_hands": len(recent),
            "mean_ev_lost_last": round(sum(recent) / len(recent), ROUND) if recent else None,
            "mistake_classes": list(mistakes), "by_mistake": by,
            "trend": [dict(p) for p in fig["trend"]],
            "worst": [{**w, "fixed": w["tries"] > 1 and w["last_ev_lost"] <= 1e-9}
                      for w in fig["worst"]],
        }

    def view(self, session: Session) -> dict[str, Any]:
        """What the drill shows now: the hand, the answer once given, the figures."""
        spec = self._spec(session)
        st = session.state
        rules = session.meta["rules"]
        answer = st.get("answer")
        natural_move = spec.natural_move(st["hand"], rules) if answer is None else None
        out = {"mode": MODE, "game": session.game, "title": spec.title,
               "rules": rules, "opponents": spec.opponents(rules),
               "method": spec.method if not session.meta.get("opponent_profiles")
               else "montecarlo",
               "against_profiles": len(session.meta.get("opponent_profiles") or ()),
               "hand": st["n"], "replay_of": st.get("replay_of"),
               "own_cards": list(st["hand"]), "answered": answer is not None,
               "natural_move": natural_move, "answer": answer,
               "hands_played": session.meta.get("hands", 0),
               "stats": self.figures(session), "expires": session.expires,
               "version": session.version}
        self._check_no_leak(out, session)
        return out

    @staticmethod
    def _check_no_leak(doc: Any, session: Session) -> None:
        """Refuse an answer naming a card that is not the seat's own (the current hand, or a
        hand of the worst list): a drill deals no other seat, so nothing else may show."""
        own = set(parse_cards(session.state["hand"]))
        for w in session.meta["figures"]["worst"]:
            own.update(parse_cards(w["hand"]))
        leaked = cards_named(doc) - own
        if leaked:
            raise LeakError(f"a drill answer named {len(leaked)} card(s) not in the seat's hands")


__all__ = ["LAST", "MODE", "TREND_MAX", "WORST", "DrillService", "drill_of", "empty_figures",
           "is_drill"]
