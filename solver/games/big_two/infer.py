"""Big Two inference: weigh sampled worlds by how likely the others' plays and passes were.

Uniform worlds deal the unseen cards at random, as if a seat that passed on a 9 were as
likely to hold three aces as one that led a low pair. Here the others' recent decisions are
scored under a model of them, the self-play network's softmax policy
``P(move) ~ exp(Q(move) / tau)`` over the seat's legal options, where the seat's hand *then*
is its hand in the world plus every card it has played since. A world is drawn by sampling
importance resampling: ``k`` uniform worlds, one kept with probability proportional to its
likelihood. Only public facts and the world's hands enter (nothing the advising seat cannot
know), so the worlds stay consistent with the observation.

The public state before each past decision (the play to beat, its owner, the passes, the
cards each seat held, the history so far) is the same in every world; it is gathered once
per decision to advise (:func:`past_decisions`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from solver.errors import InputError
from solver.games.big_two.engine import BigTwoState
from solver.games.big_two.moves import Move, generate
from solver.games.big_two.net import QNet, Seen, legal_q
from solver.games.big_two.view import View
from solver.validation import check_int

Sampler = Callable[[View, random.Random], BigTwoState]

__all__ = ["Decision", "past_decisions", "log_likelihood", "resampler"]


@dataclass(frozen=True)
class Decision:
    """One past decision of another seat, with the public facts it was taken on."""

    index: int                 # its place in the history
    seat: int
    move: Move                 # what it played (mask 0: a pass)
    later: int                 # the cards that seat played from this decision on
    counts: tuple[int, ...]    # cards each seat held then
    current: Move | None
    last_player: int
    passes: int


def past_decisions(view: View, last: int) -> list[Decision]:
    """The other seats' ``last`` most recent decisions (the opening lead left out: who must
    lead which card is a rule, not a choice worth reading). None at all when the history cannot
    start at the deal (the seats would have been dealt unequal hands) or does not replay to
    the observation's play to beat, its owner and the passes: its facts could not be
    trusted, so the worlds stay uniform."""
    n, history = view.n, view.history
    played = [0] * n
    for p, m in history:
        played[p] |= m.mask
    counts = [view.counts[p] + played[p].bit_count() for p in range(n)]
    if len(set(counts)) != 1:
        return []  # every seat is dealt as many cards: this record does not start at the deal
    current: Move | None = None
    last_player, passes = -1, 0
    later = list(played)
    out: list[Decision] = []
    for i, (p, m) in enumerate(history):
        if p != view.seat and i > 0:
            out.append(Decision(i, p, m, later[p], tuple(counts), current, last_player, passes))
        later[p] &= ~m.mask
        if m.mask == 0:
            passes += 1
            if passes >= n - 1:
                current, passes = None, 0
        else:
            counts[p] -= m.mask.bit_count()
            current, last_player, passes = m, p, 0
    now = view.current.mask if view.current is not None else None
    if ((current.mask if current is not None else None) != now
            or (now is not None and (last_player, passes) != (view.last_player, view.passes))):
        return []
    return out[-last:] if last > 0 else []


def log_likelihood(net: QNet, view: View, decisions: list[Decision], hands: list[int],
                   tau: float) -> float:
    """log P(the others' ``decisions`` | the world's ``hands``) under the network's softmax
    policy at temperature ``tau`` (points of ``Q``)."""
    total = 0.0
    for d in decisions:
        hand = hands[d.seat] | d.later
        lm = generate(hand, d.current, -1, view.rules)
        if len(lm) + lm.can_pass <= 1:
            continue  # no choice: nothing to learn
        seen = Seen(d.seat, view.n, hand, d.counts, view.history[:d.index], d.current,
                    d.last_player, d.passes, view.rules, False)
        q = legal_q(net, seen, lm) / tau
        if d.move.mask == 0:
            if not lm.can_pass:
                return -math.inf
            k = len(q) - 1
        else:
            hit = np.flatnonzero(lm.masks == d.move.mask)
            if len(hit) == 0:
                return -math.inf  # the world cannot have made that play
            k = int(hit[0])
        top = float(q.max())
        total += float(q[k]) - top - math.log(float(np.exp(q - top).sum()))
    return total


def resampler(net: QNet, view: View, sample: Sampler, k: int, tau: float, last: int
              ) -> Sampler:
    """A world sampler for the search: ``k`` worlds from ``sample(view, rng)``, one kept in
    proportion to its likelihood (:func:`log_likelihood` of the ``last`` decisions)."""
    check_int("k", k, 1, 1_000)
    check_int("last", last, 0, None)
    if isinstance(tau, bool) or not (isinstance(tau, (int, float, np.floating)) and tau > 0
                                     and math.isfinite(tau)):
        raise InputError(f"tau must be a positive number of points, got {tau!r}")
    decisions = past_decisions(view, last)
    if k <= 1 or not decisions:
        return sample

    def draw(view_: View, rng: random.Random) -> BigTwoState:
        worlds = [sample(view_, rng) for _ in range(k)]
        logs = [log_likelihood(net, view_, decisions, [w.hand_mask(p) for p in range(view_.n)],
                               tau) for w in worlds]
        top = max(logs)
        if top == -math.inf:
            return worlds[0]
        weights = [math.exp(x - top) for x in logs]
        return rng.choices(worlds, weights)[0]
    return draw
