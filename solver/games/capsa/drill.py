"""Capsa's solo drill (``GameInfo.drill``, run by :mod:`solver.sessions.drill`): seat 0's 13
cards of a dealt table, the rows set (or the natural declared) graded at once by the coach
(:func:`solver.games.capsa.coach.review_hand`, the ``table`` method) against ``players - 1``
opponents; or, given the opponents' profiles, by Monte Carlo against those players (the
coach's review with ``opponent_profiles``, :func:`solver.games.capsa.profile.review`).

Every function reads the drill's rules as the table's ``rules_json`` (the scoring rules plus
``players``) and the seat's hand as card strings.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from solver.cards import format_cards, parse_cards
from solver.errors import IllegalMoveError, InputError
from solver.games.base import DrillSpec
from solver.games.capsa.coach import MISTAKES, parse_played, review_hand
from solver.games.capsa.naturals import detect_natural
from solver.games.capsa.prepared import prepare
from solver.games.capsa.profile import checked_profiles
from solver.games.capsa.profile import review as profile_review
from solver.games.capsa.referee import make_seat
from solver.games.capsa.review import check_rows, scoring_rules
from solver.games.capsa.rules import Rules, resolve_rules
from solver.games.capsa.splits import Arrangement

TITLE = "Capsa Susun drill"
METHOD = "table"
HAND_SIZE = 13
PROFILE_SAMPLES = 1000  # Monte Carlo deals a hand graded against profiles


def _rules(rules: Mapping[str, Any]) -> Rules:
    """The coach's rules object of a table's ``rules_json`` (without ``players``)."""
    return resolve_rules(scoring_rules(rules))


def opponents(rules: Mapping[str, Any]) -> int:
    """The opponents the coach grades against: the other seats of the table."""
    return int(rules["players"]) - 1


def dealer(new_game: Callable[..., Any]) -> Callable[[int, Any], tuple[list[str], dict[str, Any]]]:
    """``DrillSpec.deal`` from the game's ``new_game``: seat 0's 13 cards of the table
    ``seed`` deals, and the table's ``rules_json`` (players included); the rest of the deck
    is dropped here."""

    def deal(seed: int, rules: Any) -> tuple[list[str], dict[str, Any]]:
        state = new_game(seed=seed, rules=rules)
        return format_cards(state.hand(0)), state.rules_json()

    return deal


def _played(hand: Sequence[str], rules: Rules, move: Any) -> Any:
    """The coach's ``Played`` for a move: rows (refused when they foul or are not the hand's
    cards) or the natural the hand holds."""
    if not isinstance(move, Mapping):
        raise InputError("a drill move is {front, middle, back} or {kind: 'natural'}")
    if move.get("kind") == "natural":
        if move.get("cards") is not None:
            given = sorted(parse_cards(move["cards"], count=HAND_SIZE))
            if given != sorted(parse_cards(list(hand))):
                raise IllegalMoveError(f"your hand is {' '.join(hand)}, not "
                                       f"{' '.join(format_cards(given))}")
        if detect_natural(parse_cards(list(hand)), rules) is None:
            raise IllegalMoveError("your hand holds no natural under these rules")
        return parse_played({"hand": list(hand), "natural": True})
    missing = [k for k in ("front", "middle", "back") if k not in move]
    if missing:
        raise InputError(f"a drill move needs front, middle and back (missing "
                         f"{', '.join(missing)}), or kind 'natural'")
    arr = Arrangement.parse(move["front"], move["middle"], move["back"])
    if sorted(arr.cards) != sorted(parse_cards(list(hand))):
        raise IllegalMoveError(f"your hand is {' '.join(hand)}, not "
                               f"{' '.join(format_cards(sorted(arr.cards)))}")
    if make_seat(arr, rules, 0).foul:
        raise IllegalMoveError("the arrangement fouls: the back must be at least the "
                               "middle, and the middle at least the front")
    return parse_played({"hand": list(hand), **arr.to_dict()})


def grade(hand: Sequence[str], rules: Mapping[str, Any], move: Any,
          opponent_profiles: Sequence[Any] | None = None) -> dict[str, Any]:
    """The coach's answer to the rows set (or the natural declared): your EV, the best EV,
    the EV lost, the best arrangement and the mistake class; on a hand holding a natural,
    ``natural_ev`` and ``rows_ev`` (declaring it, the best rows; None otherwise). With
    ``opponent_profiles`` (one an opponent): Monte Carlo against those players."""
    r = _rules(rules)
    played = _played(hand, r, move)
    method = METHOD
    if opponent_profiles is None:
        d = review_hand(played, prepare(r), opponents(rules), METHOD).to_dict()
    else:  # the same hand is graded on the same deals: its seed is the hand's
        method = "montecarlo"
        line = ({"hand": list(hand), "natural": True} if played.rows is None else
                {"hand": list(hand), **played.rows.to_dict()})
        report = profile_review([line], r, opponents(rules), method, PROFILE_SAMPLES,
                                zlib.crc32(" ".join(sorted(hand)).encode()),
                                opponent_profiles=opponent_profiles)
        if report.errors:
            raise InputError(report.errors[0].error)
        d = report.hands[0].to_dict()
    return {"mine": d["mine"], "best": d["best"], "ev": d["ev"], "best_ev": d["best_ev"],
            "ev_lost": d["ev_lost"], "exact": d["exact"], "mistake": d["mistake"],
            "mistakes": d["mistakes"], "natural": d["natural"],
            "natural_ev": d.get("natural_ev"), "rows_ev": d.get("rows_ev"),
            "declared_natural": played.rows is None, "opponents": d["opponents"],
            "method": method}


def check(hand: Sequence[str], rules: Mapping[str, Any], rows: Any) -> dict[str, Any]:
    """The live check of the rows being set (each full row's kind, a foul so far)."""
    if not isinstance(rows, Mapping):
        raise InputError("rows is an object {front, middle, back} of card lists")
    return check_rows(hand, rules, rows)


def profiles(rules: Mapping[str, Any], specs: Sequence[Any]) -> list[dict[str, Any]]:
    """The opponents' profiles for a drill under ``rules``: checked (one an opponent, fitted
    under these rules) and kept without their words (the drill keeps them with the session)."""
    checked = checked_profiles(specs, _rules(rules), opponents(rules))
    return [{k: v for k, v in p.to_dict().items() if k not in ("words", "errors")}
            for p in checked]


def natural_move(hand: Sequence[str], rules: Mapping[str, Any]) -> dict[str, Any] | None:
    """Declaring the natural the hand holds under these rules, if it holds one."""
    natural = detect_natural(parse_cards(list(hand)), _rules(rules))
    if natural is None:
        return None
    return {"kind": "natural", "cards": list(hand), "natural": natural.kind}


def drill(new_game: Callable[..., Any]) -> DrillSpec:
    """Capsa's ``GameInfo.drill``, dealing with ``new_game`` (``solver.games.capsa.game``'s,
    which builds the registry entry from this module)."""
    return DrillSpec(title=TITLE, method=METHOD, mistakes=tuple(MISTAKES),
                     deal=dealer(new_game), grade=grade, check=check,
                     natural_move=natural_move, opponents=opponents, profiles=profiles)
