"""The solver: a 13-card hand's arrangements ranked by expected points against the opponents.

Three opponent models (``method``), one module each in :mod:`solver.games.capsa.methods`:
``table`` (the self-play row tables; fast), ``montecarlo`` (sampled deals of the unseen
cards, scored exactly) and ``known`` (given opponents; the exact best response).

``ev`` is expected points per hand summed over all opponents. With ``known`` it is exact.

A hand holding a natural gets ``natural`` in the answer, with ``natural.ev``: what declaring it
is expected to score against the same opponent model (same method, opponents, rules, deals:
:mod:`solver.games.capsa.methods.natural`), and ``natural.declare``: whether that is more
than the best arrangement's EV (a tie advises the rows). The arrangements listed are still
the best ways to play the hand on rows.

>>> res = arrange("As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h", opponents=1, top=1)
>>> res.valid_arrangements
18835
>>> res.arrangements[0].arrangement.back != ()
True
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable, Mapping, Sequence

from solver.errors import InputError
from solver.games.capsa.limits import MAX_OPPONENTS, MAX_SAMPLES_PER_DECISION, MAX_SEED, MAX_TOP
from solver.games.capsa.methods.exact import candidates, exact_result, valid_splits
from solver.games.capsa.methods.known import known_opponents
from solver.games.capsa.methods.montecarlo import montecarlo_arrangements, sampled_deals
from solver.games.capsa.methods.natural import (
    known_natural_ev,
    natural_ev_on_deals,
    table_natural_ev,
)
from solver.games.capsa.methods.table import table_arrangements
from solver.games.capsa.naturals import detect_natural
from solver.games.capsa.prepared import prepare
from solver.games.capsa.profile import ProfileSpec, checked_profiles, profile_setter
from solver.games.capsa.profile_features import considered, naive_rows
from solver.games.capsa.results import ArrangeResult, RankedArrangement
from solver.games.capsa.rules import RulesSpec, resolve_rules
from solver.games.capsa.splits import parse_hand, valid_arrangements
from solver.games.capsa.strategy.tables import (
    StrategyTables,
    checked_tables_file,
    plain_tables,
    tables_for,
    tables_info,
)
from solver.validation import check_bool, check_choice, check_int

METHODS = ("table", "montecarlo", "known")


def arrange(hand: str | Iterable[object], rules: RulesSpec = "standard", opponents: int = 3,
            method: str = "table", samples: int = 1000, seed: int | None = None, top: int = 5,
            opponent_hands: Sequence[str | Iterable[object]] | None = None,
            opponent_arrangements: Sequence[Mapping[str, object]] | None = None,
            tables: StrategyTables | str | os.PathLike[str] | None = None,
            max_work: int | None = None, card_removal: bool = True,
            adaptive: bool = True,
            opponent_profiles: Sequence[ProfileSpec] | None = None) -> ArrangeResult:
    """Rank the arrangements of a 13-card hand by expected points against the opponents.

    ``opponent_hands`` / ``opponent_arrangements`` go with ``method="known"`` and then fix the
    number of opponents. ``tables``: a tables file (a path: the shipped one by default, or
    one ``capsa train`` made) that every ``table`` decision of the call plays, the hand's own
    and the opponents'; the answer names it (``tables``). A :class:`StrategyTables` object
    instead (``montecarlo`` only) is what the sampled opponents play: a best response to a
    candidate table.
    ``max_work`` (``montecarlo`` only) raises :class:`WorkLimitError` before any sampling
    when :func:`~solver.games.capsa.work.montecarlo_work` is over it (the service bounds
    every request this way). ``card_removal=False`` plays every ``table`` decision of the
    call (the hand's own with ``table``, the sampled or given opponents' otherwise) without
    card removal: about 2.5 times faster, and more exploitable (see the README).
    ``adaptive`` (``montecarlo`` only): stop sampling once the answer's order is settled
    (:mod:`solver.games.capsa.methods.montecarlo`); ``samples`` is then the most it draws, and
    the answer's ``samples_used`` how many it drew. ``adaptive=False`` always draws them all.
    A ``montecarlo`` answer keeps ``table``'s own split first unless the best on its deals
    beats it significantly (:func:`~solver.games.capsa.methods.montecarlo.keeps_table`; the
    answer's ``kept_table`` says when it did).
    ``opponent_profiles`` (``montecarlo`` only): one opponent profile per opponent (a
    :class:`~solver.games.capsa.profile.Profile`, a profile file or its JSON object, fitted
    under the same rules); each sampled opponent sets its hands as its profile says instead
    of as ``table`` does (:func:`~solver.games.capsa.profile.profile_setter`).
    """
    r = resolve_rules(rules)
    check_choice("method", method, METHODS)
    top = check_int("top", top, 1, MAX_TOP)
    card_removal = check_bool("card_removal", card_removal)
    adaptive = check_bool("adaptive", adaptive)
    h = parse_hand(hand)
    if method != "known":
        opponents = check_int("opponents", opponents, 1, MAX_OPPONENTS)
        if opponent_hands is not None or opponent_arrangements is not None:
            raise InputError("opponent_hands and opponent_arrangements go with method 'known'")
    profiles = None
    if opponent_profiles is not None:
        if method != "montecarlo":
            raise InputError("opponent_profiles go with method 'montecarlo'")
        profiles = checked_profiles(opponent_profiles, r, opponents)
    info = None
    if isinstance(tables, StrategyTables):
        st = tables if method == "montecarlo" else tables_for(r)
    else:
        path = None if tables is None else checked_tables_file(tables)
        st, info = tables_for(r, path), tables_info(r, path)
    prep = prepare(r, st if card_removal else plain_tables(st))  # every search of the call
    st = prep.tables
    cards = tuple(int(c) for c in h)
    if method == "table":
        ranked = table_arrangements(h, prep, opponents, top)
        natural = detect_natural(h, r)
        if natural is not None:
            natural = natural.valued(table_natural_ev(natural, r, st, opponents), _best_ev(ranked))
        # the valid splits are counted when first read (the search never lists them)
        return ArrangeResult(cards, None, natural, tuple(ranked), method, opponents,
                             r, card_removal=card_removal, tables=info)
    sp = valid_splits(h, r)
    natural = detect_natural(h, r, (sp.v5, sp.v3))
    if method == "montecarlo":
        n_samples = check_int("samples", samples, 1, MAX_SAMPLES_PER_DECISION)
        used_seed = secrets.randbits(63) if seed is None else check_int("seed", seed, 0, MAX_SEED)
        setter = None if profiles is None else profile_setter(profiles, r, st, used_seed,
                                                                   n_samples)
        ranked, n_cand, used, kept = montecarlo_arrangements(
            sp, r, opponents, n_samples, used_seed, top, st, max_work, adaptive, setter, prep)
        if natural is not None:  # on the very deals the rows were scored on
            deals = sampled_deals(h, opponents, n_samples, used_seed)[:used]
            natural = natural.valued(natural_ev_on_deals(natural, r, deals), _best_ev(ranked))
        return ArrangeResult(cards, len(sp.packed), natural, tuple(ranked), method, opponents, r,
                             n_samples, used_seed, n_cand, card_removal, info, used, kept)
    opp = known_opponents(h, r, opponent_hands, opponent_arrangements, st)
    cand = candidates(sp, r)
    ranked = exact_result(sp, r, opp, top, cand)
    if natural is not None:
        theirs = ([detect_natural(parse_hand(o), r) for o in opponent_hands]
                  if opponent_hands is not None else [None] * opp[0].shape[1])
        natural = natural.valued(known_natural_ev(natural, theirs), _best_ev(ranked))
    return ArrangeResult(cards, len(sp.packed), natural, tuple(ranked),
                         method, opp[0].shape[1], r, None, None, len(cand), card_removal, info)


def _best_ev(ranked: Sequence[RankedArrangement]) -> float | None:
    return ranked[0].ev if ranked else None


def warm_up() -> None:
    """Compile (or load) the solver kernels on a small hand."""
    hand = "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h"
    for rules in ("standard", "two-four", "indonesia"):
        arrange(hand, rules, opponents=1, top=2)
        valid_arrangements(hand, rules)
        arrange(hand, rules, opponents=1, method="montecarlo", samples=2, seed=1, top=1)
    for rules in ("standard", "two-four"):  # the profiles' kernels
        naive_rows(parse_hand(hand)[None, :], resolve_rules(rules))
        considered(parse_hand(hand)[None, :], resolve_rules(rules))
    arrange(hand, opponents=1, method="known", top=1,
            opponent_hands=["2s 2d 3h 3s 4c 4d 5h 6s 7h 8c 9c Tc Jc"])
