"""Exhaustive best-``k`` search of the ``table`` strategy with branch and bound over backs.

Every per-strength term comes from one table ``terms`` built once per (strategy tables, rules)
(see :mod:`solver.games.capsa.search`), so a hand costs its subset strengths, one bound per
back and the 56 (middle, front) choices of the backs whose bound reaches the k-th best value.

Two bounds on a back ``a`` of strength ``s`` (both upper bounds of every split on that back,
for any royalty table and for the single-royalty rule, whose value never exceeds the value
with every royalty counted):

1. ``terms[UBS, s]``: middle as strong as the back, front the strongest front class at or
   below it (a running maximum over ``s``, so one bisection finds the backs that pass).
2. the same with the middle and the front capped by what the 8 cards left can make (from
   their rank and suit counts: a pair needs two cards of one rank left; a front pair needs
   a middle pair at least as high; and so on, see ``_back_bound``).

Rows are scored with the per-row terms exactly as the full search scores them; ties between
splits of the same row strengths (same value) keep the smallest packed split, and the ``k``
best distinct row-strength triples come back ordered by value, then packed split.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros

from solver._jit import njit
from solver.games.capsa.kernels.encoding import (
    choice_front,
    choice_middle,
    pack_split,
    rank_of,
    suit_of,
)
from solver.games.capsa.kernels.evaluate import subset_strengths
from solver.games.capsa.kernels.rules import BASIC, TWO_FOUR
from solver.games.capsa.kernels.table import (
    _majority_odds,
    _scoop_bound,
    _scoop_odds,
    _table_ev,
    scoop_chance,
)
from solver.games.capsa.lookup import KEY_SPACE, RANK_KEYS

# rows of ``terms``: (win, tie, loss, own royalty, opponent royalty on its wins, separable
# value, its running maximum) x (front, middle, back), then the first bound per strength
W0, T0, X0, R0, L0, S0, M0 = 0, 3, 6, 9, 12, 15, 18
WF, WM, WB, TF, TM, TB, XF, XM, XB = range(9)
RF, RM, RB, LF, LM, LB, SF, SM, SB, MF, MM = range(9, 20)
UBS = 21
N_TERMS = 22

# 13 rank counters of 4 bits (bit 4r), and 4 suit counters of 4 bits
_ALL = sum(1 << (4 * r) for r in range(13))
_TOP = 8 * _ALL  # bit 3 of every counter
_WHEEL = (8 << 48) | 8 | (8 << 4) | (8 << 8) | (8 << 12)
_SUIT3 = 0x3333
_SUIT8 = 0x8888
TWO_PAIR, FULL_HOUSE, QUADS = 2, 6, 7  # hand classes (lookup's categories)
# the caps lookup (``StrengthTables.caps_lut``): rank5, then rank3 (each KEY_SPACE long), then
# class_cap (QUADS + 1 classes x 13 ranks), then front_floor; the rank keys as a constant
_R3 = KEY_SPACE
_CC = 2 * KEY_SPACE
_FF = _CC + (QUADS + 1) * 13
_KEYS = RANK_KEYS


@njit(inline="always")
def _top_rank(mask):
    """Highest rank whose counter has bit 3 set in ``mask`` (> 0): one count-leading-zeros."""
    return (60 - leading_zeros(mask)) >> 2


@njit(inline="always")
def _nonseparable(wf, tf, wm, tm, wb, tb, scoring, bonus, joint):
    """A bound of the part of a split's value that is not a sum over rows: the scoop bonus
    or two-four's unit for winning more rows, both from the ``joint`` model of the
    opponent's rows read at grid points (exact when the rows are taken as independent). Both
    grow with each row's win chance and fall with its loss chance, which the bounds rely
    on."""
    if scoring == TWO_FOUR:
        return _majority_odds(joint, wf, tf, wm, tm, wb, tb, False)
    if scoring == BASIC:
        return 0.0
    return bonus * _scoop_bound(joint, wf, wm, wb, 1.0 - wf - tf, 1.0 - wm - tm, 1.0 - wb - tb)


@njit(inline="always")
def _flush_left(sx):
    """Whether the suit counters ``sx`` of the cards a back leaves hold five of a suit."""
    return ((sx + _SUIT3) & _SUIT8) != 0


@njit(inline="always")
def _pop_top(mask):
    """(highest rank of ``mask``, ``mask`` without it)."""
    r = _top_rank(mask)
    return r, mask ^ (8 << (4 * r))


@njit(inline="always")
def _bound_at(mid, front, va, terms, lut, scoring, bonus, joint):
    """Value bound of a back of strength ``va`` with the middle at most ``mid`` and the front
    at most ``front`` (and under the middle), and the middle and front caps it used."""
    cap = min(va, mid)
    fs = min(lut[_FF + cap], front)
    if fs < 0:
        return -np.inf, cap, fs
    return (terms[MF, fs] + terms[MM, cap] + terms[SB, va]
            + _nonseparable(terms[WF, fs], terms[TF, fs], terms[WM, cap], terms[TM, cap],
                            terms[WB, va], terms[TB, va], scoring, bonus, joint)), cap, fs


@njit(inline="always")
def _back_rows(cx, sx, va, lut):
    """The strongest middle and front the 8 cards a back of strength ``va`` leaves can make
    (rank counters ``cx``, suit counters ``sx``), by rank and suit counts: (middle, front) and
    a second such pair where two ways compete (two pairs left), else (-1, -1). Strengths are
    lookups of ``lut`` (:data:`CAPS_LUT`'s layout), the rank keys a constant: a helper that
takes one array and returns once costs no reference counting in the loop that calls it."""
    ge2 = (cx + 6 * _ALL) & _TOP
    ge3 = (cx + 5 * _ALL) & _TOP
    ge4 = (cx + 4 * _ALL) & _TOP
    any1 = (cx + 7 * _ALL) & _TOP
    r1, rest = _pop_top(any1)
    r2, rest = _pop_top(rest)
    r3, rest = _pop_top(rest)
    # the best front of any 3 of these cards, by ranks alone (a front has no flush)
    if ge3 != 0:
        front = lut[_R3 + 3 * _KEYS[_top_rank(ge3)]]
    elif ge2 != 0:
        p = _top_rank(ge2)
        front = lut[_R3 + 2 * _KEYS[p] + _KEYS[_top_rank(any1 ^ (8 << (4 * p)))]]
    else:
        front = lut[_R3 + _KEYS[r1] + _KEYS[r2] + _KEYS[r3]]
    runs = any1 & (any1 >> 4) & (any1 >> 8) & (any1 >> 12) & (any1 >> 16)
    pairs2 = ge2 != 0 and (ge2 & (ge2 - 1)) != 0
    g = ge2 & (ge2 - 1)
    mid2 = -1
    front2 = -1
    if _flush_left(sx):
        mid = va  # a flush is left
    elif ge4 != 0:
        mid = lut[_CC + 13 * QUADS + _top_rank(ge4)]
    elif ge3 != 0 and pairs2:
        mid = lut[_CC + 13 * FULL_HOUSE + _top_rank(ge3)]
    elif runs != 0 or (any1 & _WHEEL) == _WHEEL:
        mid = -1  # the strongest straight left (the wheel's place depends on the rules)
        if runs != 0:
            s0 = _top_rank(runs)
            mid = lut[_KEYS[s0] + _KEYS[s0 + 1] + _KEYS[s0 + 2] + _KEYS[s0 + 3] + _KEYS[s0 + 4]]
        if (any1 & _WHEEL) == _WHEEL:
            mid = max(mid, lut[_KEYS[12] + _KEYS[0] + _KEYS[1] + _KEYS[2] + _KEYS[3]])
    elif ge3 != 0:
        # trips and singles: at most the trips and the top two singles in the middle; the
        # front cannot pair (a front pair would beat a middle with no pair)
        t = _top_rank(ge3)
        s1, rest = _pop_top(any1 ^ ge3)
        s2 = _top_rank(rest)
        mid = lut[3 * _KEYS[t] + _KEYS[s1] + _KEYS[s2]]
        front = lut[_R3 + _KEYS[r1] + _KEYS[r2] + _KEYS[r3]]
    elif ge2 == 0:
        # 8 ranks: the middle is at most the top five and holds the top card (else the
        # front's top card beats it), so the front is at most the next three
        r4, rest = _pop_top(rest)
        r5 = _top_rank(rest)
        mid = lut[_KEYS[r1] + _KEYS[r2] + _KEYS[r3] + _KEYS[r4] + _KEYS[r5]]
        front = lut[_R3 + _KEYS[r2] + _KEYS[r3] + _KEYS[r4]]
    elif not pairs2:
        # one pair: the middle at most the pair and the top three singles; the front cannot
        # pair, so it is at most the top three ranks
        p = _top_rank(ge2)
        s1, rest = _pop_top(any1 ^ ge2)
        s2, rest = _pop_top(rest)
        s3 = _top_rank(rest)
        mid = lut[2 * _KEYS[p] + _KEYS[s1] + _KEYS[s2] + _KEYS[s3]]
        front = lut[_R3 + _KEYS[r1] + _KEYS[r2] + _KEYS[r3]]
    elif (g & (g - 1)) != 0:  # three or more pairs
        mid = lut[_CC + 13 * TWO_PAIR + _top_rank(ge2)]
    else:
        # two pairs: the middle holds both (the front is then three singles), or one pair at
        # most the higher with the front's pair at most the lower, or none (below that)
        p1 = _top_rank(ge2)
        p2 = _top_rank(ge2 & -ge2)
        s1, rest = _pop_top(any1 ^ ge2)
        s2, rest = _pop_top(rest)
        s3 = _top_rank(rest)
        o1, rest = _pop_top(any1 ^ (8 << (4 * p1)))
        o2, rest = _pop_top(rest)
        o3 = _top_rank(rest)
        mid = lut[2 * _KEYS[p1] + 2 * _KEYS[p2] + _KEYS[s1]]
        front = lut[_R3 + _KEYS[s1] + _KEYS[s2] + _KEYS[s3]]
        mid2 = lut[2 * _KEYS[p1] + _KEYS[o1] + _KEYS[o2] + _KEYS[o3]]
        front2 = lut[_R3 + 2 * _KEYS[p2] + _KEYS[s1]]
    return mid, front, mid2, front2


@njit(inline="always")
def _back_caps(cx, sx, va, lut):
    """Caps on the middle's and the front's strengths of every split of a back of strength
    ``va`` from the 8 cards it leaves (see :func:`_back_rows`; -1 front: no valid split)."""
    mid, front, mid2, front2 = _back_rows(cx, sx, va, lut)
    cap = min(va, mid)
    fs = min(lut[_FF + cap], front)
    if mid2 >= 0:
        cap2 = min(va, mid2)
        fs = max(fs, min(lut[_FF + cap2], front2))
        cap = max(cap, cap2)
    return cap, fs


@njit(inline="always")
def _back_bound(cx, sx, va, terms, lut, scoring, bonus, joint):
    """Bound on every split of a back of strength ``va`` from the 8 cards it leaves (rank
    counters ``cx``, suit counters ``sx``): the best the middle and the front can make of
    them (:func:`_back_rows`). Also returns the caps on the middle's and the front's
    strengths behind the bound."""
    mid, front, mid2, front2 = _back_rows(cx, sx, va, lut)
    both = _bound_at(mid, front, va, terms, lut, scoring, bonus, joint)
    if mid2 < 0:
        return both
    one = _bound_at(mid2, front2, va, terms, lut, scoring, bonus, joint)
    if both[0] >= one[0]:
        return both[0], max(both[1], one[1]), max(both[2], one[2])
    return one[0], max(both[1], one[1]), max(both[2], one[2])


@njit
def _offer(ev, p, f, m, b, k, n, bev, bp, brow):
    """Offer split ``p`` (row strengths f, m, b) to the best-``k`` buffer holding ``n``, kept
    ordered by value, then packed split; returns the new count. One entry per strength
    triple: its smallest packed split (the same triple always has the same value)."""
    for i in range(n):
        if brow[i, 0] == f and brow[i, 1] == m and brow[i, 2] == b:
            if p >= bp[i]:
                return n
            for j in range(i, n - 1):  # drop it, to insert it again at its new place
                bev[j] = bev[j + 1]
                bp[j] = bp[j + 1]
                brow[j] = brow[j + 1]
            n -= 1
            break
    if n == k:
        if ev < bev[n - 1] or (ev == bev[n - 1] and p > bp[n - 1]):
            return n
        n -= 1
    j = n
    while j > 0 and (bev[j - 1] < ev or (bev[j - 1] == ev and bp[j - 1] > p)):
        bev[j] = bev[j - 1]
        bp[j] = bp[j - 1]
        brow[j] = brow[j - 1]
        j -= 1
    bev[j] = ev
    bp[j] = p
    brow[j, 0] = f
    brow[j, 1] = m
    brow[j, 2] = b
    return n + 1


@njit(inline="always")
def _offer_k(ev, p, f, m, b, k, n, bev, bp, brow, thr):
    """:func:`_offer`, then the value a split must reach from now on: just under the
    ``k``-th best once ``k`` are held (``thr`` until then). Returns (count, threshold)."""
    n = _offer(ev, p, f, m, b, k, n, bev, bp, brow)
    if n == k:
        thr = bev[k - 1] - 1e-9 * (1.0 + abs(bev[k - 1]))
    return n, thr


@njit(inline="always")
def _search_buffers(n5, n3, k):
    """What every search kernel allocates once a call: the hand's subset strengths ``v5``,
    ``v3``, its cards' rank and suit counter words, the best-``k`` buffer (values, packed
    splits, rows) and the candidate backs with their bounds."""
    return (np.empty(n5, dtype=np.int32), np.empty(n3, dtype=np.int32),
            np.empty(13, dtype=np.int64), np.empty(13, dtype=np.int64), np.empty(k),
            np.empty(k, dtype=np.int64), np.empty((k, 3), dtype=np.int64),
            np.empty(n5, dtype=np.int64), np.empty(n5))


@njit(inline="always")
def _hand_counters(hand, rcw, scw):
    """Per card, its rank and suit counter words (``rcw``, ``scw``); returns the hand's sums."""
    hand_rc = 0
    hand_sc = 0
    for i in range(13):
        rcw[i] = 1 << (4 * rank_of(hand[i]))
        scw[i] = 1 << (4 * suit_of(hand[i]))
        hand_rc += rcw[i]
        hand_sc += scw[i]
    return hand_rc, hand_sc


@njit(inline="always")
def _left_counters(a, comb5, rcw, scw, hand_rc, hand_sc):
    """Rank and suit counters of the 8 cards the back ``a`` (a 5-card subset) leaves."""
    c = comb5[a]
    return (hand_rc - (rcw[c[0]] + rcw[c[1]] + rcw[c[2]] + rcw[c[3]] + rcw[c[4]]),
            hand_sc - (scw[c[0]] + scw[c[1]] + scw[c[2]] + scw[c[3]] + scw[c[4]]))


@njit(inline="always")
def _write_top(h, n, bev, bp, brow, out_split, out_ev, out_rows, out_n):
    """Copy hand ``h``'s best-``k`` buffer (``n`` entries) to the outputs."""
    for i in range(n):
        out_split[h, i] = bp[i]
        out_ev[h, i] = bev[i]
        out_rows[h, i, 0] = brow[i, 0]
        out_rows[h, i, 1] = brow[i, 1]
        out_rows[h, i, 2] = brow[i, 2]
    out_n[h] = n


@njit(inline="always")
def _write_odds(h, i, wf, wm, wb, tf, tm, tb, joint, out_odds):
    """Row ``i`` of hand ``h``'s ``out_odds`` (N, k, 7): the win chances of its front, middle
    and back, their tie chances, and the chance of winning all three (the joint model's),
    what a listed arrangement shows."""
    out_odds[h, i, 0] = wf
    out_odds[h, i, 1] = wm
    out_odds[h, i, 2] = wb
    out_odds[h, i, 3] = tf
    out_odds[h, i, 4] = tm
    out_odds[h, i, 5] = tb
    out_odds[h, i, 6] = scoop_chance(joint, wf, wm, wb)


@njit(inline="always")
def _next_back(pos, top, nc, order, cub, cand, thr):
    """The back to visit at step ``pos``: the strongest first (``pos`` -1), then the bounded
    ones best bound first while their bound reaches ``thr``; -1 when none is left."""
    if pos < 0:
        return top
    if pos == nc:
        return -1
    c = order[pos]
    if cub[c] < thr:
        return -1  # every later back has a lower bound
    return cand[c]


@njit
def _table_top(hands, card_word, rank5, flush5, rank3, comb5, comb3, back_splits, front_floor,
               terms, lut, scoring, bonus, net, single, joint, k, bseen, bval,
               epoch, out_split, out_ev, out_rows, out_n, out_odds):
    """The ``k`` best distinct row-strength triples of each hand (N, 13) under the table
    strategy: packed splits (N, k), values (N, k), rows (N, k, 3: front, middle, back), how
    many were found (N,) and their odds (N, k, 7: see ``_write_odds``). ``lut``: the caps
    lookup (``StrengthTables.caps_lut``: rank5, rank3, then ``class_cap[c, r]``, the
    strongest 5-card strength of hand class ``c`` whose leading rank is ``r``, then
    ``front_floor``).

    Backs of one strength hold the same ranks, so they leave the same rank counters: unless
    a back leaves a flush (then its suits matter), its second bound is the first one computed
    for its strength in the hand, kept in ``bval`` (``bseen[s]``: the number of the hand that
    computed it). ``bseen``, ``bval`` (per strength) and ``epoch`` (1,) are scratch the
    caller keeps between calls: hand ``h`` is number ``epoch[0] + h``, so a call clears
    nothing."""
    n5 = comb5.shape[0]
    n3 = comb3.shape[0]
    v5, v3, rcw, scw, bev, bp, brow, cand, cub = _search_buffers(n5, n3, k)
    evs = np.empty(56)
    order = np.empty(0, dtype=np.int64)
    simple = scoring != TWO_FOUR and not single
    use_bonus = scoring != BASIC
    exact_after = use_bonus and joint.shape[1] > 1  # a bound first, the model's value after
    first = epoch[0]
    epoch[0] = first + hands.shape[0]
    for h in range(hands.shape[0]):
        hand = hands[h]
        hid = first + h
        subset_strengths(hand, card_word, rank5, flush5, rank3, v5, v3)
        hand_rc, hand_sc = _hand_counters(hand, rcw, scw)
        top = 0
        for a in range(1, n5):
            if v5[a] > v5[top]:
                top = a
        n = 0
        thr = -1e300
        nc = 0
        pos = -1  # -1: the strongest back first, then the others by their bound
        while True:
            a = _next_back(pos, top, nc, order, cub, cand, thr)
            if a < 0:
                break
            pos += 1
            va = v5[a]
            wb = terms[WB, va]
            xb = terms[XB, va]
            sb = terms[SB, va]
            # branch-free over the 56 (middle, front) choices, then a rarely taken offer loop
            for j in range(56):
                q = back_splits[a, j]
                b = choice_middle(q)
                f = choice_front(q)
                vb = v5[b]
                vf = v3[f]
                if simple:
                    ev = terms[SF, vf] + terms[SM, vb] + sb
                    if use_bonus:  # with a joint model, a bound: the exact value below
                        ev += bonus * _scoop_bound(joint, terms[WF, vf], terms[WM, vb], wb,
                                                   terms[XF, vf], terms[XM, vb], xb)
                else:  # two-four or single royalty: the full search's formula
                    ev = _table_ev(terms[WF, vf], terms[TF, vf], terms[WM, vb], terms[TM, vb],
                                   wb, terms[TB, va], terms[RF, vf], terms[RM, vb],
                                   terms[RB, va], terms[LF, vf], terms[LM, vb], terms[LB, va],
                                   scoring, bonus, net, single, joint, not exact_after)
                evs[j] = ev if (vb <= va) & (vf <= vb) else -np.inf
            for j in range(56):
                ev = evs[j]
                if ev >= thr:
                    q = back_splits[a, j]
                    b = choice_middle(q)
                    f = choice_front(q)
                    if exact_after:
                        vb = v5[b]
                        vf = v3[f]
                        if simple:
                            ev = (terms[SF, vf] + terms[SM, vb] + sb
                                  + bonus * _scoop_odds(joint, terms[WF, vf], terms[WM, vb],
                                                        wb, terms[XF, vf], terms[XM, vb], xb))
                        else:
                            ev = _table_ev(terms[WF, vf], terms[TF, vf], terms[WM, vb],
                                           terms[TM, vb], wb, terms[TB, va], terms[RF, vf],
                                           terms[RM, vb], terms[RB, va], terms[LF, vf],
                                           terms[LM, vb], terms[LB, va], scoring, bonus, net,
                                           single, joint, True)
                        if ev < thr:
                            continue
                    n, thr = _offer_k(ev, pack_split(a, b, f), v3[f], v5[b], va, k, n, bev, bp,
                                      brow, thr)
            if pos == 0:
                # bound every other back; keep those that can reach the k-th best so far
                s_min = np.searchsorted(terms[UBS], thr)  # weakest back that can reach it
                for a in range(n5):
                    va = v5[a]
                    if a == top or va < s_min:
                        continue
                    # second bound: what the other 8 cards can make caps middle and front
                    cx, sx = _left_counters(a, comb5, rcw, scw, hand_rc, hand_sc)
                    no_flush = not _flush_left(sx)
                    if no_flush and bseen[va] == hid:
                        ub = bval[va]
                    else:
                        ub = _back_bound(cx, sx, va, terms, lut, scoring, bonus, joint)[0]
                        if no_flush:
                            bseen[va] = hid
                            bval[va] = ub
                    if ub < thr:
                        continue
                    cand[nc] = a
                    cub[nc] = ub
                    nc += 1
                order = np.argsort(-cub[:nc])
        _write_top(h, n, bev, bp, brow, out_split, out_ev, out_rows, out_n)
        for i in range(n):
            f, m, b = brow[i, 0], brow[i, 1], brow[i, 2]
            _write_odds(h, i, terms[WF, f], terms[WM, m], terms[WB, b], terms[TF, f],
                        terms[TM, m], terms[TB, b], joint, out_odds)


@njit
def table_top(hands, lk, model, sc, k, scratch, out):
    """The ``k`` best distinct row-strength triples of each hand (N, 13) under the plain
    tables, into ``out`` (:class:`~solver.games.capsa.search.TopK`: packed splits, values,
    rows, how many, odds; see :func:`_table_top`). Every search kernel takes the same
    groups in the same order, each a plain tuple in the field order of its named tuple in
    :mod:`solver.games.capsa.prepared`: ``lk`` :class:`Lookups`, ``model`` the value model
    (here :class:`PlainModel`), ``sc`` :class:`Scoring`, ``k``, ``scratch``
    (``search._Scratch``) and ``out``. It unpacks them and calls the search with flat
    arguments, so the search compiles as it did with them."""
    card_word, rank5, flush5, rank3, comb5, comb3, back_splits, front_floor, lut = lk
    (terms,) = model
    scoring, bonus, net, single, joint = sc
    _, _, bseen, bval, _, _, epoch = scratch
    out_split, out_ev, out_rows, out_n, out_odds = out
    _table_top(hands, card_word, rank5, flush5, rank3, comb5, comb3, back_splits, front_floor,
               terms, lut, scoring, bonus, net, single, joint, k, bseen, bval, epoch, out_split,
               out_ev, out_rows, out_n, out_odds)


@njit
def nonseparable_many(joint, scoring, bonus, wf, tf, wm, tm, wb, tb, out):
    """:func:`_nonseparable` over arrays (for the per-strength first bound of the terms)."""
    for i in range(out.shape[0]):
        out[i] = _nonseparable(wf[i], tf[i], wm[i], tm[i], wb[i], tb[i], scoring, bonus, joint)
