"""Da Bai Fen speed: legal-play enumeration per call and self-play hands per second.

Each figure is measured beside a plain brute force on the same inputs (every subset of the
hand, filtered by the rules), and the ratio printed. Run:
``.venv/bin/python benchmarks/bench_da_bai_fen.py``.
"""

from __future__ import annotations

import random
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.games.da_bai_fen import GreedyBot, Kind, Move, Phase, Trump, random_bot  # noqa: E402
from solver.games.da_bai_fen.engine import new_hand  # noqa: E402
from solver.games.da_bai_fen.moves import follow_plays, lead_plays  # noqa: E402


def brute_plays(hand, trick, trump: Trump) -> list[tuple[int, ...]]:
    """Every subset of the hand that the rules allow, read straight from the rules."""
    eff = trump.eff
    out = []
    for k in range(1, len(hand) + 1):
        for play in combinations(hand, k):
            if not trick:
                if k == 1 or len({eff[c] for c in play}) == 1:
                    out.append(play)
                continue
            lead = trick[0]
            if k != len(lead):
                continue
            led = eff[lead[0]]
            need = min(k, sum(1 for c in hand if eff[c] == led))
            if sum(1 for c in play if eff[c] == led) == need:
                out.append(play)
    return out


def fast_plays(hand, trick, trump: Trump) -> list[tuple[int, ...]]:
    if not trick:
        return lead_plays(hand, trump)
    return follow_plays(hand, trump.eff[trick[0][0]], len(trick[0]), trump)


def positions(n: int, seed: int = 0):
    """Random 12-card hands: half leads, half follows to a lead of 1 to 3 cards."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        trump = Trump(rng.randrange(13), rng.randrange(4))
        deck = list(range(54))
        rng.shuffle(deck)
        hand, rest = deck[:12], deck[12:]
        trick = []
        if i % 2:
            led = trump.eff[rest[0]]
            same = [c for c in rest if trump.eff[c] == led]
            trick = [same[: rng.randint(1, 3)]]
        out.append((hand, trick, trump))
    return out


def per_call(fn, inputs) -> tuple[float, int]:
    start = time.perf_counter()
    total = sum(len(fn(*x)) for x in inputs)
    return (time.perf_counter() - start) / len(inputs), total


def brute_random_bot(state, rng):
    """``random_bot`` over the brute-force enumeration (same plays, slower listing)."""
    if state.phase is not Phase.PLAY:
        return random_bot.policy(state, rng)
    hand = state.hands[state.current_player]
    return Move(Kind.PLAY, rng.choice(brute_plays(hand, state.trick, state.trump)))


def hands_per_second(policy, seconds: float = 2.0, seed: int = 0) -> float:
    rng = random.Random(seed)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_hand(seed=rng.getrandbits(32))
        while not state.is_terminal():
            state.apply(policy(state, rng))
        n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    inputs = positions(400)
    fast, n_fast = per_call(fast_plays, inputs)
    brute, n_brute = per_call(brute_plays, inputs)
    for x in inputs:
        same = {frozenset(p) for p in fast_plays(*x)} == {frozenset(p) for p in brute_plays(*x)}
        assert same and n_fast == n_brute, "fast and brute-force enumerations disagree"
    print(f"legal plays per call, 12-card hands ({len(inputs)} positions, {n_fast} plays):")
    print(f"  fast   {fast * 1e6:10.1f} us/call")
    print(f"  brute  {brute * 1e6:10.1f} us/call   ratio {brute / fast:6.1f}x")
    worst = [(list(range(3, 52, 4))[:12], [], Trump(0, 3))]  # 12 trumps: 4,095 leads
    wf, nw = per_call(fast_plays, worst * 20)
    wb, _ = per_call(brute_plays, worst * 5)
    print(f"worst case (12 cards of one suit, {nw // 20} leads):")
    print(f"  fast   {wf * 1e3:10.2f} ms/call")
    print(f"  brute  {wb * 1e3:10.2f} ms/call   ratio {wb / wf:6.1f}x")
    print("self-play hands per second (one core):")
    r_fast = hands_per_second(random_bot.policy)
    r_brute = hands_per_second(brute_random_bot)
    g = hands_per_second(GreedyBot().policy)
    print(f"  random bots, fast plays   {r_fast:8.1f} hands/s")
    print(f"  random bots, brute plays  {r_brute:8.1f} hands/s   ratio {r_fast / r_brute:6.1f}x")
    print(f"  greedy bots, fast plays   {g:8.1f} hands/s")


if __name__ == "__main__":
    main()
