"""Card removal for the ``table`` strategy: the opponent's row tables given my 13 cards.

An opponent's 13 cards come from the 39 I do not hold, so what I hold shifts how it sets its
rows (three aces in my hand make an ace pair in its front rare). The tables file holds, per rank
``k``, ``delta[k, row, s]``: how the probability that the opponent's ``row`` has strength ``s``
moves when one card of rank ``k`` is known not to be in its hand. For a hand holding ``n_k``
cards of rank ``k`` the opponent's row distribution is taken as
``p[row, s] + alpha * sum_k n_k * delta[k, row, s]`` (clipped at 0, renormalised): first order
in the cards removed, with ``alpha`` scaling one card's effect to thirteen (see
:mod:`solver.games.capsa.strategy.removal`). The win/tie/royalty tables follow as in
:func:`solver.games.capsa.strategy.tables.derive`, and the best split is searched as without
card removal.
"""

from __future__ import annotations

import numpy as np

from solver._jit import njit
from solver.games.capsa.kernels.table import table_best_many, table_best_many_full


@njit
def removal_tables(hand, p, delta, alpha, roy, pw, pt, lr):
    """Fill ``pw`` (P(opp < s)), ``pt`` (P(opp == s)) and ``lr`` (E[opp royalty; opp > s]),
    each (3, S), for the opponent of ``hand`` (13 card ids)."""
    counts = np.zeros(13, dtype=np.int64)
    for i in range(13):
        counts[hand[i] >> 2] += 1
    rows, size = p.shape
    for r in range(rows):
        for s in range(size):
            pt[r, s] = p[r, s]
        for k in range(13):
            n = counts[k]
            if n:
                f = alpha * n
                for s in range(size):
                    pt[r, s] += f * delta[k, r, s]
        total = 0.0
        for s in range(size):
            if pt[r, s] < 0.0:
                pt[r, s] = 0.0
            total += pt[r, s]
        scale = 1.0 / total if total > 0.0 else 0.0
        below = 0.0
        for s in range(size):
            q = pt[r, s] * scale
            pt[r, s] = q
            pw[r, s] = below
            below += q
        above = 0.0
        for s in range(size - 1, -1, -1):
            lr[r, s] = above
            above += pt[r, s] * roy[r, s]


@njit
def removal_best_many(hands, card_word, rank5, flush5, rank3, comb5, comb3, back_splits,
                      front_floor, pairs, p, delta, alpha, roy, scoring, bonus, net, single,
                      prune, out_split, out_ev, out_rows):
    """:func:`table_best_many` (``prune``) or :func:`table_best_many_full` for each hand, with
    the opponent tables of that hand's card removal."""
    pw = np.empty(p.shape)
    pt = np.empty(p.shape)
    lr = np.empty(p.shape)
    for h in range(hands.shape[0]):
        removal_tables(hands[h], p, delta, alpha, roy, pw, pt, lr)
        one = hands[h:h + 1]
        if prune:
            table_best_many(one, card_word, rank5, flush5, rank3, comb5, comb3, back_splits,
                            front_floor, pw, pt, lr, roy, scoring, bonus, net,
                            out_split[h:h + 1], out_ev[h:h + 1], out_rows[h:h + 1])
        else:
            table_best_many_full(one, card_word, rank5, flush5, rank3, comb5, comb3, pairs,
                                 pw, pt, lr, roy, scoring, bonus, net, single,
                                 out_split[h:h + 1], out_ev[h:h + 1], out_rows[h:h + 1])
