"""Capsa Susun playing strength: duplicate matches between the solver's strategies.

    python benchmarks/bench_capsa_quality.py [--deals 10000] [--samples 1000] [--workers 2]
                                             [--json FILE]

Eight matches: ``table`` vs ``naive`` and ``montecarlo`` (``--samples``) vs ``table``, under
the ``standard`` and ``two-four`` rules, heads-up and 4 players. Each prints A's mean points per
hand over B with a 95% confidence interval (see ``solver/games/capsa/strategy/match.py`` for how a
duplicate deal is played and scored). Monte Carlo is the cost: with the card-removal tables
about 65-80 ms a decision heads-up and 190 ms with 3 opponents on one core, so the default run
takes roughly 75 minutes on two workers. Both strategies of a (rules, players) pair meet the same deals.
"""

from __future__ import annotations

import argparse
import json
import time

from _common import ROOT  # noqa: F401  (puts the project on the path)

from solver.games.capsa.strategy.match import Strategy, duplicate_match

RULES = ("standard", "two-four")
PLAYERS = (2, 4)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=10000)
    ap.add_argument("--samples", type=int, default=1000, help="Monte Carlo samples a decision")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    ap.add_argument("--skip-montecarlo", action="store_true", help="only table vs naive")
    ap.add_argument("--only", nargs="+", metavar="A:RULES:PLAYERS",
                    help="play only these matches, e.g. montecarlo:standard:2 table:two-four:4")
    args = ap.parse_args()

    pairs = [(Strategy("table"), Strategy("naive"))]
    if not args.skip_montecarlo:
        pairs.append((Strategy("montecarlo", args.samples), Strategy("table")))
    print(f"Capsa duplicate matches, {args.deals:,} deals each, {args.workers} worker(s), "
          f"seed {args.seed}; points per hand for A over B, 95% CI", flush=True)
    print(f"  {'A vs B':<26} {'rules':<9} {'players':>7} {'mean':>8} {'95% CI':>19} "
          f"{'se':>7} {'time':>8}", flush=True)
    results = []
    start = time.perf_counter()
    for a, b in pairs:
        for rules in RULES:
            for players in PLAYERS:
                if args.only and f"{a.name}:{rules}:{players}" not in args.only:
                    continue
                seed = args.seed + 10 * RULES.index(rules) + players
                res = duplicate_match(a, b, args.deals, players, rules, seed,
                                      workers=args.workers)
                d = res.to_dict()
                d["rules_name"] = rules
                results.append(d)
                print(f"  {res.a + ' vs ' + res.b:<26} {rules:<9} {players:>7} "
                      f"{res.mean:>+8.3f} [{res.ci_low:>+8.3f}, {res.ci_high:>+8.3f}] "
                      f"{res.se:>7.3f} {res.seconds:>7.0f}s", flush=True)
                if args.json:  # rewritten after each match, so a cut-short run keeps its figures
                    with open(args.json, "w") as fh:
                        json.dump({"deals": args.deals, "samples": args.samples,
                                   "workers": args.workers, "seed": args.seed,
                                   "matches": results}, fh, indent=2)
    print(f"  total {time.perf_counter() - start:,.0f} s", flush=True)


if __name__ == "__main__":
    main()
