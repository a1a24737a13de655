"""Big Two speed: legal-move enumeration and self-play, beside a brute force over subsets.

Run: ``.venv/bin/python benchmarks/bench_big_two.py [--hands N] [--games N]``

The brute force classifies every 1-, 2-, 3- and 5-card subset of the hand in Python and
keeps those that beat the table; the fast path is the numba kernel returning arrays (Move
objects are not built). Both run on the same hands and must agree.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver.cards import parse_cards  # noqa: E402
from solver.games.big_two import PASS, BigTwoRules, Move, RandomBot, parse_play  # noqa: E402
from solver.games.big_two import self_play as play_hand  # noqa: E402
from solver.games.big_two.moves import (  # noqa: E402
    ID_TO_BT,
    beats_move,
    classify_mask,
    generate,
    ids_to_mask,
    legal_moves,
    mask_to_ids,
    warm_up,
)


def brute_force(hand: int, current: Move | None, rules: BigTwoRules) -> list[Move]:
    bits = [i for i in range(52) if (hand >> i) & 1]
    out = []
    for size in (1, 2, 3, 5):
        for combo in combinations(bits, size):
            m = 0
            for i in combo:
                m |= 1 << i
            play = classify_mask(m, rules)
            if play is not None and (current is None or beats_move(play, current, rules)):
                out.append(play)
    return out


def random_hands(n: int, seed: int) -> list[tuple[int, int]]:
    """(hand, other) masks: 13 cards each from one shuffled deck."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        deck = list(range(52))
        rng.shuffle(deck)
        out.append((sum(1 << c for c in deck[:13]), sum(1 << c for c in deck[13:26])))
    return out


def per_call_us(fn, items) -> float:
    start = time.perf_counter()
    for item in items:
        fn(*item)
    return (time.perf_counter() - start) / len(items) * 1e6


class BruteBaselineBot:
    """The baseline policy on top of the brute force (for the self-play comparison), from
    the observation like any bot."""

    def __call__(self, obs, legal, rng):
        rules = BigTwoRules.from_options(obs["rules"])
        cur = parse_play(obs["table"], rules) if obs["table"] else None
        hand = ids_to_mask(parse_cards(obs["hand"]))
        req = ID_TO_BT[parse_cards([obs["required"]])[0]] if obs["required"] else -1
        plays = [p for p in brute_force(hand, cur, rules) if req < 0 or (p.mask >> req) & 1]
        twos = 15 << 48
        if cur is None:
            low = hand & -hand
            cands = [p for p in plays if p.mask & low]
            return min(cands, key=lambda p: (bool(p.mask & twos) and not low & twos,
                                             -p.size, p.strength))
        plain = sorted((p for p in plays if not p.mask & twos), key=lambda p: p.strength)
        return plain[0] if plain else PASS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=300, help="hands for the move benchmarks")
    ap.add_argument("--games", type=int, default=2000, help="self-play hands (fast path)")
    args = ap.parse_args()
    rules = BigTwoRules()
    t0 = time.perf_counter()
    warm_up()
    print(f"kernel warm-up (compile or cache load): {time.perf_counter() - t0:.2f} s")

    pairs = random_hands(args.hands, 1)
    leads = [(h, None, -1, rules) for h, _ in pairs]
    rng = random.Random(2)
    responses = []
    for h, other in pairs:
        table = generate(other, None, -1, rules)
        cur = table[rng.randrange(len(table))]
        responses.append((h, cur, -1, rules))

    for name, items in (("13-card lead", leads), ("response", responses)):
        fast = [generate(*it) for it in items]
        slow = [brute_force(h, cur, r) for h, cur, _, r in items]
        assert all(sorted(f.masks.tolist()) == sorted(p.mask for p in s) for f, s in zip(fast, slow))
        reps = max(1, 3000 // len(items))
        t_fast = per_call_us(generate, items * reps)
        t_list = per_call_us(lambda *it: list(generate(*it)), items)
        t_slow = per_call_us(lambda h, cur, _, r: brute_force(h, cur, r), items)
        n_moves = sum(len(f) for f in fast) / len(fast)
        print(f"{name:>13}: {n_moves:5.1f} plays/call  fast {t_fast:7.2f} us/call "
              f"(with Move objects {t_list:7.2f} us)  brute force {t_slow:9.1f} us/call  "
              f"ratio {t_slow / t_fast:6.0f}x")
    ids = list(mask_to_ids(pairs[0][0]))  # the public API parses and validates, for scale
    t_api = per_call_us(lambda: legal_moves(ids), [()] * 2000)
    print(f"   public legal_moves(list of 13 ids) incl. parsing/validation: {t_api:.2f} us/call")

    play_hand(0)
    start = time.perf_counter()
    turns = 0
    for seed in range(args.games):
        turns += play_hand(seed).turns
    fast_rate = args.games / (time.perf_counter() - start)
    n_slow = max(10, args.games // 100)
    start = time.perf_counter()
    for seed in range(n_slow):
        play_hand(seed, [BruteBaselineBot()] * 4)
    slow_rate = n_slow / (time.perf_counter() - start)
    same = all(play_hand(s) == play_hand(s, [BruteBaselineBot()] * 4) for s in range(10))
    print(f"self-play (4 baseline bots): fast {fast_rate:7.0f} hands/s "
          f"({turns / args.games:.1f} turns/hand)  brute force {slow_rate:6.1f} hands/s  "
          f"ratio {fast_rate / slow_rate:5.0f}x  same games: {same}")
    start = time.perf_counter()
    for seed in range(args.games // 4):
        play_hand(seed, [RandomBot(seed * 4 + i) for i in range(4)])
    rand_rate = (args.games // 4) / (time.perf_counter() - start)
    print(f"self-play (4 random bots, lazy Move per turn): {rand_rate:7.0f} hands/s")
    print("targets: <= 25 us per lead enumeration; >= 500 self-play hands/s on one core")


if __name__ == "__main__":
    main()
