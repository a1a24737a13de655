"""Capsa's advice, review and live row check for the play page (``GameInfo.hint``,
``review`` and ``check_partial`` of the registry entry), each from one seat's observation.

Advice: the solver's best arrangements of the seat's 13 cards (the ``table`` method).

Review, once a table is settled: the human's arrangement and the solver's top 5 scored on
the same Monte Carlo deals (common random numbers: the opponents hold random unseen cards
and set them with the ``table`` strategy, as in ``arrange(method="montecarlo")``), so the
difference is what the choice cost against that model and not sampling noise. The solver's
first is that answer's: ``table``'s split unless another beats it significantly on those
deals (:func:`~solver.games.capsa.methods.montecarlo.keeps_table`), and the cost is measured
against it (never below 0: a split that scores more than the advice on these deals, by less
than the rule asks, costs 0). Beside them, the best response to the arrangements the
opponents actually set (``method="known"``, exact) and what the human's arrangement actually
scored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.cards import format_cards
from solver.games.capsa.rules import resolve_rules

if TYPE_CHECKING:
    from solver.games.capsa.results import RankedArrangement
    from solver.games.capsa.splits import Arrangement

# The solver's modules load numba: they are imported where they are used, so that importing
# the sessions package stays light (only kernel modules and what builds on them load numba).

REVIEW_SAMPLES = 2000
ADVICE_TOP = 5


def scoring_rules(rules: Mapping[str, Any]) -> dict[str, Any]:
    """The solver's rules from a table's ``rules_json`` (which adds ``players``)."""
    return {k: v for k, v in rules.items() if k != "players"}


def advice(observation: Mapping[str, Any], method: str = "table", seed: int = 0,
           top: int = ADVICE_TOP, opponent_profiles: Sequence[Any] | None = None
           ) -> dict[str, Any]:
    """The solver's best arrangements of the observing seat's 13 cards (from the
    observation only: the other hands are never looked at). With ``opponent_profiles`` (one
    an opponent) the advice is Monte Carlo against those players' habits."""
    from solver.games.capsa.arrange import arrange

    me = observation["player"]
    if opponent_profiles is not None:
        method = "montecarlo"
    res = arrange(observation["hands"][me], scoring_rules(observation["rules"]),
                        observation["num_players"] - 1, method, 1000, seed=seed, top=top,
                        opponent_profiles=opponent_profiles)
    return res.to_dict()


def evs_on_deals(hand: Sequence[int], rules: Any, opponents: int, samples: int, seed: int,
                 arrangements: Sequence[Arrangement], top: int = ADVICE_TOP
                 ) -> tuple[list[float], list[RankedArrangement]]:
    """Expected points of each given arrangement and the solver's ``top`` best, all on the
    same ``samples`` deals of the unseen cards (the deals ``arrange(method="montecarlo",
    seed=seed, adaptive=False)`` uses, and its order: table's split first unless another
    beats it significantly)."""
    from solver.games.capsa.methods import exact
    from solver.games.capsa.methods.montecarlo import advised, scored_on
    from solver.games.capsa.prepared import prepare
    from solver.games.capsa.referee import make_seat
    from solver.games.capsa.splits import parse_hand
    from solver.games.capsa.strategy.play import deal

    r = resolve_rules(rules)
    h = parse_hand(list(hand))
    sp = exact.valid_splits(h, r)
    unseen = np.setdiff1d(np.arange(52), h)
    deals = deal(np.random.default_rng(seed), samples, opponents, unseen)
    opp = exact.opponent_rows(deals, r)
    cand = exact.candidates(sp, r)
    best = advised(sp, r, prepare(r), cand, scored_on(sp, r, opp, cand), top)[0]
    evs = []
    for arr in arrangements:
        strengths = np.array(make_seat(arr, r).strengths, dtype=np.int64)
        idx = np.flatnonzero((sp.rows == strengths).all(axis=1))
        if len(idx) == 0:
            raise ValueError("the arrangement is not a valid split of this hand")
        evs.append(exact.exact_result(sp, r, opp, 1, idx[:1])[0].ev)
    return evs, best


def _opponents_known(result_players: list[dict], moves: list[dict], me: int, rules: Any):
    """Known-opponent arrays for ``arrange(method="known")`` from what the other seats
    actually played (an arrangement, or a declared natural)."""
    from solver.games.capsa.methods.known import known_opponents
    from solver.games.capsa.splits import parse_hand

    r = resolve_rules(rules)
    h = parse_hand(moves[me]["cards"])
    parts = []
    for q, m in enumerate(moves):
        if q == me:
            continue
        if m["kind"] == "natural":
            parts.append(known_opponents(h, r, [m["cards"]], None))
        else:
            parts.append(known_opponents(h, r, None, [{k: m[k] for k in
                                                              ("front", "middle", "back")}]))
    return tuple(np.concatenate([p[i] for p in parts], axis=1) for i in range(4))


def review(observation: Mapping[str, Any], seed: int, samples: int = REVIEW_SAMPLES
           ) -> dict[str, Any]:
    """The review of the observing seat's play on a settled table (see the module doc)."""
    from solver.games.capsa.methods import exact
    from solver.games.capsa.splits import Arrangement, parse_hand

    me = observation["player"]
    moves = observation["moves"]
    result = observation["result"]
    rules = scoring_rules(observation["rules"])
    opponents = observation["num_players"] - 1
    hand = parse_hand(observation["hands"][me])
    mine = moves[me]
    actual = float(result["players"][me]["points"])
    out: dict[str, Any] = {"model": "montecarlo", "samples": samples, "seed": seed,
                           "actual_points": actual, "declared_natural": mine["kind"] == "natural"}
    r = resolve_rules(rules)
    sp = exact.valid_splits(hand, r)
    if mine["kind"] == "natural":
        out.update(mine=None, cost=None, best=[], best_response=None)
        return out
    arr = Arrangement.parse(mine["front"], mine["middle"], mine["back"])
    (my_ev,), best = evs_on_deals(hand.tolist(), rules, opponents, samples, seed, [arr])
    out["mine"] = {**arr.to_dict(), "ev": round(my_ev, 6)}
    out["best"] = [a.to_dict() for a in best]
    out["cost"] = round(max(best[0].ev - my_ev, 0.0), 6)
    opp = _opponents_known(result["players"], moves, me, rules)
    br = exact.exact_result(sp, r, opp, 1, exact.candidates(sp, r))[0]
    out["best_response"] = {**br.arrangement.to_dict(), "points": round(br.ev, 6),
                            "gain": round(br.ev - actual, 6)}
    out["hand"] = format_cards(hand)
    return out


ROW_SIZES = {"front": 3, "middle": 5, "back": 5}


def check_partial(observation: Mapping[str, Any], rows: Any) -> dict[str, Any]:
    """``GameInfo.check_partial``: the rows being set by the observing seat, checked."""
    from solver.errors import InputError

    if not isinstance(rows, Mapping):
        raise InputError("rows is an object {front, middle, back} of card lists")
    return check_rows(observation["hands"][observation["player"]], observation["rules"], rows)


def check_rows(hand: Sequence[str], rules: Mapping[str, Any], rows: Mapping[str, Any]
               ) -> dict[str, Any]:
    """The live check of rows being set on the page: each full row's hand kind, and whether
    the rows set so far already foul (the back must be at least the middle, the middle at
    least the front). Rows may be partly filled; only the human's own cards are accepted."""
    from solver.cards import parse_cards
    from solver.errors import IllegalMoveError, InputError
    from solver.games.capsa.evaluate import hand_kind, row_strength

    unknown = sorted(str(k) for k in rows if k not in ROW_SIZES)
    if unknown:
        raise InputError(f"unknown row {unknown[0]!r}; rows are front, middle and back")
    wheel = resolve_rules(scoring_rules(rules)).wheel
    mine = set(parse_cards(list(hand)))
    seen: set[int] = set()
    out: dict[str, Any] = {}
    strengths: dict[str, int] = {}
    for name, size in ROW_SIZES.items():
        cards = parse_cards(rows.get(name) or [])
        if len(cards) > size:
            raise IllegalMoveError(f"the {name} row holds {size} cards, got {len(cards)}")
        for c in cards:
            if c not in mine:
                raise IllegalMoveError(f"{format_cards([c])[0]} is not in your hand")
            if c in seen:
                raise IllegalMoveError(f"{format_cards([c])[0]} is in two rows")
            seen.add(c)
        full = len(cards) == size
        if full:
            strengths[name] = row_strength(cards, wheel)
        out[name] = {"cards": len(cards), "size": size, "full": full,
                     "kind": hand_kind(strengths[name], wheel).label if full else None}
    problems = []
    if {"back", "middle"} <= set(strengths) and strengths["back"] < strengths["middle"]:
        problems.append("the back is weaker than the middle")
    if {"middle", "front"} <= set(strengths) and strengths["middle"] < strengths["front"]:
        problems.append("the middle is weaker than the front")
    if {"back", "front"} <= set(strengths) and strengths["back"] < strengths["front"]:
        problems.append("the back is weaker than the front")
    return {"rows": out, "complete": len(strengths) == 3, "foul": bool(problems),
            "problems": problems}
