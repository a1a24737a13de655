"""How much Big Two's inference tells about the hidden hands, without playing a match.

Positions come from network self-play (cards-left scoring, no bomb on a 2, 4 players), cut at
a random move. For each, worlds are drawn as the search draws them, uniformly or by
:mod:`solver.games.big_two.infer` (``k`` candidate worlds, temperature ``tau``, the ``last``
decisions read) or dealt from the belief network's odds
(:mod:`solver.games.big_two.belief`: ``belief:PROPOSALS:POWER``), and scored by the share of the hidden cards the world puts in the hand that
truly holds them (the oracle's share is 1.0). A minute or two a setting on one core::

    python benchmarks/bench_big_two_inference.py [--positions 40] [--draws 6]
        [--settings 1:1:8 4:1:8 8:0.5:8 16:0.25:20 32:0.25:40] [--belief FILE]

The belief settings (``--settings 1:1:8 belief:1:1 belief:16:1``) take a few seconds for
hundreds of positions; ``--players`` plays the positions with another bot (``baseline``, a
style) to see how the beliefs read players they were not trained on alone.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.games.big_two.belief import BeliefNet, Beliefs  # noqa: E402
from solver.games.big_two.engine import BigTwoState, new_game  # noqa: E402
from solver.games.big_two.infer import resampler  # noqa: E402
from solver.games.big_two.net import default_net  # noqa: E402
from solver.games.big_two.view import View, sample_world  # noqa: E402

RULES = {"scoring": "cards-left", "bomb_on_two": False}


def positions(count: int, seed: int, players: str = "net") -> list[BigTwoState]:
    """Self-play hands of the network (or of ``players``: a population member's name), each
    stopped after 12 to 39 moves (unfinished only)."""
    from solver.games.big_two.population import member_policy
    policy = member_policy(players)
    rng, out = random.Random(seed), []
    deal = 0
    while len(out) < count:
        deal += 1
        state = new_game(seed=deal, rules=RULES)
        for _ in range(rng.randrange(12, 40)):
            if state.winner >= 0:
                break
            state._apply_trusted(policy(state, rng))
        if state.winner < 0:
            out.append(state)
    return out


def share_right(world: BigTwoState, truth: BigTwoState, view: View) -> float:
    """The share of the hidden cards ``world`` places in the hand that holds them."""
    others = [p for p in range(view.n) if p != view.seat]
    right = sum((world.hand_mask(p) & truth.hand_mask(p)).bit_count() for p in others)
    return right / sum(view.counts[p] for p in others)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--draws", type=int, default=6, help="worlds drawn per position")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--settings", nargs="+", default=["1:1:8", "4:1:8", "8:0.5:8", "16:0.25:20",
                                                      "32:0.25:40"],
                    metavar="K:TAU:LAST", help="k 1 is uniform sampling")
    ap.add_argument("--belief", help="a belief network file (default: the shipped one)")
    ap.add_argument("--players", default="net", help="who plays the positions (a population "
                    "member: net, baseline, shed-most, high, passive, net:FILE)")
    args = ap.parse_args(argv)
    net = default_net()
    belief_net = BeliefNet.load(args.belief) if args.belief else None
    states = positions(args.positions, args.seed, args.players)
    print(f"{len(states)} positions of {args.players} self-play, {args.draws} worlds each; share of "
          f"the hidden cards in the right hand (oracle 1.0), 95% CI")
    for setting in args.settings:
        k, tau, last = setting.split(":")
        start, shares = time.perf_counter(), []
        for state in states:
            view = View(state.observation(state.current_player))
            draw = (Beliefs(belief_net, int(tau), float(last)).sampler(view) if k == "belief"
                    else resampler(net, view, sample_world, int(k), float(tau), int(last)))
            rng = random.Random(1)
            shares += [share_right(draw(view, rng), state, view) for _ in range(args.draws)]
        x = np.array(shares)
        ms = 1000 * (time.perf_counter() - start) / len(x)
        label = (f"belief  proposals {tau:>3}  power {last:>4}" if k == "belief"
                 else f"k {k:>3}  tau {tau:>5}  last {last:>3}")
        print(f"  {label}   {x.mean():.3f} +- "
              f"{1.96 * x.std(ddof=1) / np.sqrt(len(x)):.3f}   {ms:.1f} ms a world")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
