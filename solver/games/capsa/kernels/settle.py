"""Exact settlement of candidate splits against dealt opponents (Monte Carlo, known)."""

from __future__ import annotations

from solver._jit import njit
from solver.games.capsa.kernels.rules import TWO_FOUR, keep_largest_royalty


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
            rf, rm, rb = keep_largest_royalty(rf, rm, rb)
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
                        of, om, ob = keep_largest_royalty(of, om, ob)
                pts = d0 + d1 + d2
                wins = (d0 > 0) + (d1 > 0) + (d2 > 0)
                losses = (d0 < 0) + (d1 < 0) + (d2 < 0)
                if scoring == TWO_FOUR:
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
