"""Every numba kernel of the Capsa Susun solver: arrays in, arrays out, no Python objects.

Tables come in as arguments (see ``solver._tables``); hot loops stay flat (no helper calls
taking arrays inside them: numba adds reference counting there).
"""

from __future__ import annotations

import numpy as np

from solver._jit import njit

_SUIT_OFFSET = np.uint64(0x3333) << np.uint64(32)
_FLUSH_BITS = np.uint64(0x8888) << np.uint64(32)
_KEY_MASK = np.uint64(0xFFFFFFFF)
_SHIFT_RANKS = np.uint64(48)


@njit
def subset_strengths(hand, card_word, rank5, flush5, rank3, comb5, comb3, v5, v3):
    """Strength of each of the 1,287 five-card and 286 three-card subsets of a 13-card hand."""
    w = np.empty(13, dtype=np.uint64)
    for i in range(13):
        w[i] = card_word[hand[i]]
    for i in range(comb5.shape[0]):
        s = w[comb5[i, 0]] + w[comb5[i, 1]] + w[comb5[i, 2]] + w[comb5[i, 3]] + w[comb5[i, 4]]
        if (s + _SUIT_OFFSET) & _FLUSH_BITS:
            v5[i] = flush5[s >> _SHIFT_RANKS]
        else:
            v5[i] = rank5[s & _KEY_MASK]
    for i in range(comb3.shape[0]):
        s = w[comb3[i, 0]] + w[comb3[i, 1]] + w[comb3[i, 2]]
        v3[i] = rank3[s & _KEY_MASK]


@njit
def strength5(cards, card_word, rank5, flush5):
    """Strength of one 5-card row."""
    s = (card_word[cards[0]] + card_word[cards[1]] + card_word[cards[2]] + card_word[cards[3]]
         + card_word[cards[4]])
    if (s + _SUIT_OFFSET) & _FLUSH_BITS:
        return flush5[s >> _SHIFT_RANKS]
    return rank5[s & _KEY_MASK]


@njit
def strength3(cards, card_word, rank3):
    """Strength of one 3-card front."""
    return rank3[(card_word[cards[0]] + card_word[cards[1]] + card_word[cards[2]]) & _KEY_MASK]


@njit
def strengths5_all(cards_n5, card_word, rank5, flush5, out):
    """Strengths of many 5-card rows, ``cards_n5`` of shape (N, 5)."""
    for i in range(cards_n5.shape[0]):
        s = (card_word[cards_n5[i, 0]] + card_word[cards_n5[i, 1]] + card_word[cards_n5[i, 2]]
             + card_word[cards_n5[i, 3]] + card_word[cards_n5[i, 4]])
        if (s + _SUIT_OFFSET) & _FLUSH_BITS:
            out[i] = flush5[s >> _SHIFT_RANKS]
        else:
            out[i] = rank5[s & _KEY_MASK]


@njit
def count_valid(v5, v3, pairs):
    """Number of ordered splits with back >= middle >= front (branch-free over the pairs)."""
    n = 0
    for p in pairs:
        va = v5[p & 2047]
        vb = v5[(p >> 11) & 2047]
        vf = v3[p >> 22]
        lo = min(va, vb)
        n += (lo >= vf) * (1 + (va == vb))
    return n


@njit
def count_valid_many(hands, card_word, rank5, flush5, rank3, comb5, comb3, pairs, out):
    """``count_valid`` for each row of an (N, 13) array of hands."""
    v5 = np.empty(comb5.shape[0], dtype=np.int32)
    v3 = np.empty(comb3.shape[0], dtype=np.int32)
    for h in range(hands.shape[0]):
        subset_strengths(hands[h], card_word, rank5, flush5, rank3, comb5, comb3, v5, v3)
        n = 0
        for p in pairs:
            va = v5[p & 2047]
            vb = v5[(p >> 11) & 2047]
            vf = v3[p >> 22]
            lo = min(va, vb)
            n += (lo >= vf) * (1 + (va == vb))
        out[h] = n


@njit
def valid_splits(v5, v3, pairs, out):
    """Write every valid ordered split as ``back | middle << 11 | front << 22``; returns count."""
    n = 0
    for p in pairs:
        a = p & 2047
        b = (p >> 11) & 2047
        f = p >> 22
        va = v5[a]
        vb = v5[b]
        vf = v3[f]
        if va >= vb:
            if vb >= vf:
                out[n] = a | (b << 11) | (f << 22)
                n += 1
        if vb >= va:
            if va >= vf:
                out[n] = b | (a << 11) | (f << 22)
                n += 1
    return n


@njit
def best_natural_split(v5, v3, ok5, ok3, pairs):
    """The split whose front satisfies ``ok3`` and both 5-card rows ``ok5``, maximising
    (back, middle, front) strengths; packed as in ``valid_splits``, or -1 when none."""
    best = -1
    bb = -1
    bm = -1
    bf = -1
    for p in pairs:
        a = p & 2047
        b = (p >> 11) & 2047
        f = p >> 22
        if ok3[f] and ok5[a] and ok5[b]:
            va = v5[a]
            vb = v5[b]
            if va < vb:
                a, b = b, a
                va, vb = vb, va
            vf = v3[f]
            if (va > bb or (va == bb and (vb > bm or (vb == bm and vf > bf)))):
                bb, bm, bf = va, vb, vf
                best = a | (b << 11) | (f << 22)
    return best


# ---------------------------------------------------------------- expected value (table strategy)
# scoring codes
ONE_SIX, TWO_FOUR, SCOOP_ONE, BASIC = 0, 1, 2, 3


@njit
def _table_ev(wf, tf, wm, tm, wb, tb, rf, rm, rb, lf, lm, lb, scoring, bonus, net, single):
    """Expected points against one opponent from per-row win/tie probabilities (rows taken as
    independent), own royalty units ``r*`` and the opponent's expected royalty on its wins ``l*``."""
    xf = 1.0 - wf - tf
    xm = 1.0 - wm - tm
    xb = 1.0 - wb - tb
    ev = (wf - xf) + (wm - xm) + (wb - xb)
    if scoring == 1:
        # sign(wins - losses): distribution of the first two rows' sum, then the third
        a2 = wf * wm
        a1 = tf * wm + wf * tm
        a0 = wf * xm + tf * tm + xf * wm
        b1 = tf * xm + xf * tm
        b2 = xf * xm
        ev += (a2 + a1 * (wb + tb) + a0 * wb) - (b2 + b1 * (xb + tb) + a0 * xb)
    elif scoring != 3:
        ev += bonus * (wf * wm * wb - xf * xm * xb)
    if single:
        if rb >= rm and rb >= rf:
            rm = 0.0
            rf = 0.0
        elif rm >= rf:
            rb = 0.0
            rf = 0.0
        else:
            rb = 0.0
            rm = 0.0
    if net:
        ev += rf + rm + rb
    else:
        ev += rf * wf + rm * wm + rb * wb - lf - lm - lb
    return ev


@njit
def table_evs(v5, v3, splits, pw, pt, lr, roy, scoring, bonus, net, single, out):
    """Table-strategy value (before the natural/net-royalty constants) of each packed split."""
    for i in range(splits.shape[0]):
        p = splits[i]
        b = v5[p & 2047]
        m = v5[(p >> 11) & 2047]
        f = v3[p >> 22]
        out[i] = _table_ev(pw[0, f], pt[0, f], pw[1, m], pt[1, m], pw[2, b], pt[2, b],
                           roy[0, f], roy[1, m], roy[2, b], lr[0, f], lr[1, m], lr[2, b],
                           scoring, bonus, net, single)


@njit
def _term_buffers(n5, n3):
    """Scratch arrays for the per-subset row terms: (win, tie, loss, royalty, opponent
    royalty, separable value) for the 5-card subsets as middle, as back, then the fronts."""
    out5 = [np.empty(n5) for _ in range(12)]
    out3 = [np.empty(n3) for _ in range(6)]
    return (out5[0], out5[1], out5[2], out5[3], out5[4], out5[5], out5[6], out5[7], out5[8],
            out5[9], out5[10], out5[11], out3[0], out3[1], out3[2], out3[3], out3[4], out3[5])


@njit
def _row_terms(v, row, pw, pt, lr, roy, net, w, t, x, r, l, sep):
    """Per-subset terms of one row: win, tie, loss, own royalty and the separable part of the
    value (row result plus royalties, exact unless royalties are single)."""
    for i in range(v.shape[0]):
        s = v[i]
        wi = pw[row, s]
        ti = pt[row, s]
        xi = 1.0 - wi - ti
        w[i] = wi
        t[i] = ti
        x[i] = xi
        r[i] = roy[row, s]
        l[i] = lr[row, s]
        if net:
            sep[i] = wi - xi + roy[row, s]
        else:
            sep[i] = wi - xi + roy[row, s] * wi - lr[row, s]


@njit
def table_best_many_full(hands, card_word, rank5, flush5, rank3, comb5, comb3, pairs,
                         pw, pt, lr, roy, scoring, bonus, net, single, out_split, out_ev, out_rows):
    """Best split of each hand under the table strategy, trying every split (the reference for
    :func:`table_best_many`, and the path for non-monotone royalties or single royalties)."""
    v5 = np.empty(comb5.shape[0], dtype=np.int32)
    v3 = np.empty(comb3.shape[0], dtype=np.int32)
    splits = np.empty(2 * pairs.shape[0], dtype=np.int64)
    evs = np.empty(2 * pairs.shape[0])
    for h in range(hands.shape[0]):
        subset_strengths(hands[h], card_word, rank5, flush5, rank3, comb5, comb3, v5, v3)
        n = table_valid_evs(v5, v3, pairs, pw, pt, lr, roy, scoring, bonus, net, single,
                            splits, evs)
        i = np.argmax(evs[:n])
        best_p = splits[i]
        out_split[h] = best_p
        out_ev[h] = evs[i]
        out_rows[h, 0] = v3[best_p >> 22]
        out_rows[h, 1] = v5[(best_p >> 11) & 2047]
        out_rows[h, 2] = v5[best_p & 2047]


# ---------------------------------------------------------------- exact settlement (MC, known)
@njit
def score_candidates(cand, cand_roy, opp, opp_roy, opp_foul, opp_nat, scoring, bonus, net, single,
                     out_points, out_win, out_tie, out_scoop, out_rowsn):
    """Points of each candidate (strengths (C, 3): front, middle, back; royalties (C, 3))
    against every opponent of every deal (opp (S, O, 3), opp_roy (S, O, 3), opp_foul (S, O),
    opp_nat (S, O) units of an opponent natural, 0 if none), as the referee settles them.

    Sums per candidate: points, row wins and ties (3 each), scoops, and the number of
    (deal, opponent) pairs that were played on rows.
    """
    n_c = cand.shape[0]
    n_s = opp.shape[0]
    n_o = opp.shape[1]
    for c in range(n_c):
        f = cand[c, 0]
        m = cand[c, 1]
        b = cand[c, 2]
        rf = cand_roy[c, 0]
        rm = cand_roy[c, 1]
        rb = cand_roy[c, 2]
        if single:
            if rb >= rm and rb >= rf:
                rm = 0
                rf = 0
            elif rm >= rf:
                rb = 0
                rf = 0
            else:
                rb = 0
                rm = 0
        total = 0.0
        w0 = 0
        w1 = 0
        w2 = 0
        t0 = 0
        t1 = 0
        t2 = 0
        scoops = 0
        played = 0
        for s in range(n_s):
            for o in range(n_o):
                if opp_nat[s, o] > 0:
                    total -= opp_nat[s, o]
                    continue
                played += 1
                if opp_foul[s, o]:
                    d0 = 1
                    d1 = 1
                    d2 = 1
                    of = 0
                    om = 0
                    ob = 0
                else:
                    d0 = (f > opp[s, o, 0]) - (f < opp[s, o, 0])
                    d1 = (m > opp[s, o, 1]) - (m < opp[s, o, 1])
                    d2 = (b > opp[s, o, 2]) - (b < opp[s, o, 2])
                    of = opp_roy[s, o, 0]
                    om = opp_roy[s, o, 1]
                    ob = opp_roy[s, o, 2]
                    if single:
                        if ob >= om and ob >= of:
                            om = 0
                            of = 0
                        elif om >= of:
                            ob = 0
                            of = 0
                        else:
                            ob = 0
                            om = 0
                pts = d0 + d1 + d2
                wins = (d0 > 0) + (d1 > 0) + (d2 > 0)
                losses = (d0 < 0) + (d1 < 0) + (d2 < 0)
                if scoring == 1:
                    pts += (wins > losses) - (wins < losses)
                elif wins == 3:
                    pts += bonus
                elif losses == 3:
                    pts -= bonus
                if net:
                    pts += rf + rm + rb - of - om - ob
                else:
                    if d0 > 0:
                        pts += rf
                    elif d0 < 0:
                        pts -= of
                    if d1 > 0:
                        pts += rm
                    elif d1 < 0:
                        pts -= om
                    if d2 > 0:
                        pts += rb
                    elif d2 < 0:
                        pts -= ob
                total += pts
                w0 += d0 > 0
                w1 += d1 > 0
                w2 += d2 > 0
                t0 += d0 == 0
                t1 += d1 == 0
                t2 += d2 == 0
                scoops += wins == 3
        out_points[c] = total
        out_win[c, 0] = w0
        out_win[c, 1] = w1
        out_win[c, 2] = w2
        out_tie[c, 0] = t0
        out_tie[c, 1] = t1
        out_tie[c, 2] = t2
        out_scoop[c] = scoops
        out_rowsn[c] = played


@njit
def pareto_front(rows, order):
    """Indices (into ``rows``, shape (N, 3)) of the splits no other split weakly dominates in all
    three row strengths; of equal triples only the first in ``order`` stays. ``order`` sorts the
    rows by back, then middle, then front, all descending."""
    keep = np.empty(rows.shape[0], dtype=np.int64)
    k = 0
    for idx in order:
        f = rows[idx, 0]
        m = rows[idx, 1]
        b = rows[idx, 2]
        dominated = False
        for j in range(k):
            q = keep[j]
            if rows[q, 0] >= f and rows[q, 1] >= m and rows[q, 2] >= b:
                dominated = True
                break
        if not dominated:
            keep[k] = idx
            k += 1
    return keep[:k]


# ---------------------------------------------------------------- naturals from counts
@njit
def natural_kind(hand):
    """Strongest natural by counts alone: 4 dragon, 3 six pairs, 2 three straights,
    1 three flushes, 0 none. (Which split shows it does not matter to the opponents' side.)"""
    rc = np.zeros(13, dtype=np.int64)
    sc = np.zeros(4, dtype=np.int64)
    for i in range(hand.shape[0]):
        rc[hand[i] >> 2] += 1
        sc[hand[i] & 3] += 1
    distinct = 0
    pairs = 0
    for r in range(13):
        distinct += rc[r] > 0
        pairs += rc[r] // 2
    if distinct == 13:
        return 4
    if pairs >= 6:
        return 3
    # three straights: two 5-windows (start -1 is the wheel A-2-3-4-5) and a 3-window
    for s1 in range(-1, 9):
        ok1 = True
        for i in range(5):
            r = 12 if s1 + i < 0 else s1 + i
            rc[r] -= 1
            if rc[r] < 0:
                ok1 = False
        if ok1:
            for s2 in range(s1, 9):
                ok2 = True
                for i in range(5):
                    r = 12 if s2 + i < 0 else s2 + i
                    rc[r] -= 1
                    if rc[r] < 0:
                        ok2 = False
                if ok2:
                    for s3 in range(-1, 11):
                        ok3 = True
                        for i in range(3):
                            r = 12 if s3 + i < 0 else s3 + i
                            if rc[r] < 1:
                                ok3 = False
                        if ok3:
                            # the 3 remaining cards are exactly this window
                            left = 0
                            for r in range(13):
                                left += rc[r]
                            if left == 3:
                                for i in range(5):
                                    r = 12 if s2 + i < 0 else s2 + i
                                    rc[r] += 1
                                for i in range(5):
                                    r = 12 if s1 + i < 0 else s1 + i
                                    rc[r] += 1
                                return 2
                for i in range(5):
                    r = 12 if s2 + i < 0 else s2 + i
                    rc[r] += 1
        for i in range(5):
            r = 12 if s1 + i < 0 else s1 + i
            rc[r] += 1
    srt = np.sort(sc)
    if ((srt[0] == 0 and srt[1] == 0 and srt[2] == 0) or (srt[0] == 0 and srt[1] == 0 and srt[2] == 3)
            or (srt[0] == 0 and srt[1] == 0 and srt[2] == 5) or (srt[0] == 0 and srt[1] == 3 and srt[2] == 5)):
        return 1
    return 0


@njit
def naive_best_many(hands, card_word, rank5, flush5, rank3, comb5, comb3, pairs, out_split, out_rows):
    """The naive strategy: the valid split with the strongest back, then the strongest middle."""
    v5 = np.empty(comb5.shape[0], dtype=np.int32)
    v3 = np.empty(comb3.shape[0], dtype=np.int32)
    for h in range(hands.shape[0]):
        subset_strengths(hands[h], card_word, rank5, flush5, rank3, comb5, comb3, v5, v3)
        bb = -1
        bm = -1
        bf = -1
        best_p = -1
        for p in pairs:
            a = p & 2047
            b = (p >> 11) & 2047
            f = p >> 22
            va = v5[a]
            vb = v5[b]
            vf = v3[f]
            if va < vb:
                a, b = b, a
                va, vb = vb, va
            if vb < vf:
                continue
            if va > bb or (va == bb and (vb > bm or (vb == bm and vf > bf))):
                bb, bm, bf = va, vb, vf
                best_p = a | (b << 11) | (f << 22)
        out_split[h] = best_p
        out_rows[h, 0] = bf
        out_rows[h, 1] = bm
        out_rows[h, 2] = bb


@njit
def natural_kinds(hands, out):
    for h in range(hands.shape[0]):
        out[h] = natural_kind(hands[h])


@njit
def table_best_many(hands, card_word, rank5, flush5, rank3, comb5, comb3, back_splits,
                    front_floor, pw, pt, lr, roy, scoring, bonus, net,
                    out_split, out_ev, out_rows):
    """Best split of each hand under the table strategy, with branch and bound over backs.

    The value grows with each row's strength (win chance, royalty), so a back ``a`` can at most
    reach the value of (front = the strongest front class <= v(a), middle = v(a), back = a);
    backs whose bound is below the best value found are skipped. Needs royalties that grow with
    strength and no single-royalty rule (callers check); same values as the full search."""
    n5 = comb5.shape[0]
    n3 = comb3.shape[0]
    v5 = np.empty(n5, dtype=np.int32)
    v3 = np.empty(n3, dtype=np.int32)
    (wm, tm, xm, rm, lm, sm, wb, tb, xb, rb, lb, sb,
     wf, tf, xf, rf, lf, sf) = _term_buffers(n5, n3)
    ub = np.empty(n5)
    for h in range(hands.shape[0]):
        subset_strengths(hands[h], card_word, rank5, flush5, rank3, comb5, comb3, v5, v3)
        _row_terms(v5, 1, pw, pt, lr, roy, net, wm, tm, xm, rm, lm, sm)
        _row_terms(v5, 2, pw, pt, lr, roy, net, wb, tb, xb, rb, lb, sb)
        _row_terms(v3, 0, pw, pt, lr, roy, net, wf, tf, xf, rf, lf, sf)
        top = 0
        for a in range(n5):
            s = v5[a]
            fs = front_floor[s]
            u = _table_ev(pw[0, fs], pt[0, fs], pw[1, s], pt[1, s], wb[a], tb[a],
                          roy[0, fs], roy[1, s], rb[a], lr[0, fs], lr[1, s], lb[a],
                          scoring, bonus, net, False)
            ub[a] = u
            if u > ub[top]:
                top = a
        best = -1e300
        best_p = -1
        for step in range(n5 + 1):
            a = top if step == 0 else step - 1
            if (step > 0 and a == top) or ub[a] <= best:
                continue
            va = v5[a]
            for j in range(56):
                q = back_splits[a, j]
                b = q & 2047
                f = q >> 11
                vb = v5[b]
                if vb > va or v3[f] > vb:
                    continue
                if scoring == 1:
                    w1 = wf[f]
                    t1 = tf[f]
                    x1 = xf[f]
                    w2 = wm[b]
                    t2 = tm[b]
                    x2 = xm[b]
                    a0 = w1 * x2 + t1 * t2 + x1 * w2
                    ev = (sf[f] + sm[b] + sb[a] + w1 * w2 - x1 * x2
                          + (t1 * w2 + w1 * t2) * (wb[a] + tb[a])
                          - (t1 * x2 + x1 * t2) * (xb[a] + tb[a]) + a0 * (wb[a] - xb[a]))
                else:
                    ev = sf[f] + sm[b] + sb[a]
                    if scoring != 3:
                        ev += bonus * (wf[f] * wm[b] * wb[a] - xf[f] * xm[b] * xb[a])
                if ev > best:
                    best = ev
                    best_p = a | (b << 11) | (f << 22)
        out_split[h] = best_p
        out_ev[h] = best
        out_rows[h, 0] = v3[best_p >> 22]
        out_rows[h, 1] = v5[(best_p >> 11) & 2047]
        out_rows[h, 2] = v5[best_p & 2047]


@njit
def table_valid_evs(v5, v3, pairs, pw, pt, lr, roy, scoring, bonus, net, single,
                    out_split, out_ev):
    """Every valid ordered split (packed) with its table value, in one pass; returns the count.
    Per-subset row terms are computed first so the pair loop reads small arrays only."""
    n5 = v5.shape[0]
    n3 = v3.shape[0]
    (wm, tm, xm, rm, lm, sm, wb, tb, xb, rb, lb, sb,
     wf, tf, xf, rf, lf, sf) = _term_buffers(n5, n3)
    _row_terms(v5, 1, pw, pt, lr, roy, net, wm, tm, xm, rm, lm, sm)
    _row_terms(v5, 2, pw, pt, lr, roy, net, wb, tb, xb, rb, lb, sb)
    _row_terms(v3, 0, pw, pt, lr, roy, net, wf, tf, xf, rf, lf, sf)
    simple = (scoring != 1) and not single
    n = 0
    for p in pairs:
        a0 = p & 2047
        b0 = (p >> 11) & 2047
        f = p >> 22
        va = v5[a0]
        vb = v5[b0]
        vf = v3[f]
        lo = min(va, vb)
        if lo < vf:
            continue
        for side in range(2):
            if side == 0:
                if va >= vb:
                    a = a0
                    b = b0
                else:
                    a = b0
                    b = a0
            else:
                if va != vb:
                    break
                a = b0
                b = a0
            if simple:
                ev = sf[f] + sm[b] + sb[a]
                if scoring != 3:
                    ev += bonus * (wf[f] * wm[b] * wb[a] - xf[f] * xm[b] * xb[a])
            else:
                ev = _table_ev(wf[f], tf[f], wm[b], tm[b], wb[a], tb[a], rf[f], rm[b], rb[a],
                               lf[f], lm[b], lb[a], scoring, bonus, net, single)
            out_split[n] = a | (b << 11) | (f << 22)
            out_ev[n] = ev
            n += 1
    return n


@njit
def top_indices(values, keys, n, m):
    """Indices of the ``m`` largest of ``values[:n]`` (ties: smaller ``keys`` first), best first;
    one pass with a small sorted buffer instead of a full sort."""
    m = min(m, n)
    idx = np.empty(m, dtype=np.int64)
    k = 0
    for i in range(n):
        v = values[i]
        if k == m:
            last = idx[k - 1]
            if v < values[last] or (v == values[last] and keys[i] >= keys[last]):
                continue
            k -= 1
        j = k
        while j > 0:
            q = idx[j - 1]
            if values[q] > v or (values[q] == v and keys[q] < keys[i]):
                break
            idx[j] = q
            j -= 1
        idx[j] = i
        k += 1
    return idx[:k]
